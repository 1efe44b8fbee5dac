""" "What are the limitations of ConfPO?": abstracts seldom state a paper's own limitations, and the method
sentences a relevance ranking picked had read as the answer (a chat break-it session's "what about its
limitations?")."""

from __future__ import annotations

import pytest

from paperchat.answer.limitations import LIMITS_NOTE, asks_limitations

CONFPO = "p-abe9274a3783"
CONFPO_TITLE = "ConfPO: Exploiting Policy Model Confidence for Critical Token Selection in Preference Optimization"


@pytest.mark.parametrize(
    "question,asks",
    [
        ("What are the limitations of ConfPO?", True),
        ("Does FlipAttack have any limitations?", True),
        ("What are DISCO's weaknesses?", True),
        ("what are the drawbacks of Flow Q-Learning", True),
        # a practitioner's session: these had quoted the papers' speedups
        ("What's the catch with QuantSpec?", True),
        ("Where does SLiM fall short?", True),
        ("Did they catch the bug?", False),
        ("Which limitation of DPO does ConfPO address?", False),
        ("How does CROW overcome the drawbacks of fine-tuning?", False),
        ("What shortcoming of standard practice does each fix?", False),
        (
            "the second attacks such AI to uncover weak spots; what learning style is it built on?",
            False,
        ),
    ],
)
def test_a_question_asking_for_a_papers_limitations(question, asks):
    assert asks_limitations(question) is asks


def test_a_named_papers_limitations_abstain_with_a_note(bundled_engine):
    answer = bundled_engine.ask("What are the limitations of ConfPO?", mode="extractive")
    assert answer.abstained and answer.sources == []
    assert answer.notes == [f"{CONFPO_TITLE} ({CONFPO}): {LIMITS_NOTE}"]
    # the limitation of other work a paper addresses is still answered from its abstract
    addressed = bundled_engine.ask(
        "Which limitation of DPO does ConfPO address?", mode="extractive"
    )
    assert not addressed.abstained and [s.paper_id for s in addressed.sources] == [CONFPO]
    assert "uniformly adjust all token probabilities" in addressed.answer


def test_the_paper_a_limitations_question_is_about():
    # a reading break-it session: "HippoRAG 2", named in its abstract only, and a chat follow-up's
    # "what about its limitations?" over the one referred paper had quoted praise of the paper
    from paperchat.answer import intent as it
    from paperchat.answer.focus import PaperText
    from paperchat.answer.limitations import limited_paper

    hippo = PaperText("h", "From RAG to Memory", "We propose HippoRAG 2, a framework ...", 0.5, 1.0)
    other = PaperText("o", "Graph retrieval", "We compare with HippoRAG and RAPTOR.", 0.4, 0.5)
    question = "What are the limitations of HippoRAG 2?"
    assert asks_limitations("Where does MaxEntDP fail?") and asks_limitations(question)
    assert limited_paper(it.read_question(question).names, [other, hippo], []) is hippo
    assert (
        limited_paper(it.read_question("what about its limitations?").names, [hippo], []) is hippo
    )
    topic = it.read_question("What are the limitations of diffusion models?")
    assert limited_paper(topic.names, [hippo, other], []) is None
