"""A dataset, solver or checkpoint asked for by kind ("which dataset did they use?"), and a setting that is a
rate, probability, constant or tolerance, are answered only from an abstract that gives them (issue 17,
twenty-fifth round; general-x, a reproducibility engineer's tuning set, had them answered with nearby
sentences).

Questions written for these tests (none is in an eval set), asked of the bundled corpus (``bundled_engine``).
"""

from __future__ import annotations

import pytest

from paperchat.answer.entity_asks import asked_entity, names_something_new
from paperchat.answer.intent import setting_noun

GNN_PLUS = "p-fb365a7031bd"


@pytest.mark.parametrize(
    ("asking", "kind"),
    [
        ("Which specific dataset did they use there?", "dataset"),
        ("which conic solver do they call at each node?", "solver"),
        ("What pretrained checkpoint did they start from?", "checkpoint"),
        ("Which heavy-tailed prior family does it use?", "prior family"),
        ("What speedup over prior work did they get?", None),  # "prior" work, not a prior
        (
            "Which dataset do they introduce for this task?",
            None,
        ),  # the paper's own: its name is the title's
    ],
)
def test_the_kind_of_named_thing_an_ask_wants(asking, kind):
    assert asked_entity(asking) == kind


def test_an_abstracts_own_terms_and_plural_abbreviations_are_no_names():
    abstract = (
        "We propose Inverse Flow Matching (IFM) for denoising. Unlike prior SDEs, an SDE here is "
        "learned. Score Matching aside, we match scores."
    )
    assert not names_something_new(abstract, "Which dataset did Inverse Flow use?")
    assert names_something_new(
        abstract + " We test on CIFAR-10.", "Which dataset did Inverse Flow use?"
    )


@pytest.mark.parametrize(
    ("question", "setting"),
    [
        ("What edge-drop probability did they pair with it?", "edge-drop probability"),
        ("What subsampling rate did they use for the rare classes?", "subsampling rate"),
        ("What tolerance did they allow on constraint violation?", "tolerance"),
    ],
)
def test_a_rate_probability_or_tolerance_is_a_setting(question, setting):
    assert setting_noun(question) == setting


@pytest.mark.parametrize(
    ("question", "paper", "asked"),
    [
        (
            "Which simulator did SENSEI use for its robotic experiments?",
            "p-f45cf8f7c2fb",
            "simulator",
        ),
        (
            "Which datasets did the two-phase pseudo-labeling work evaluate its 2-phasic metric on?",
            "p-e48a8e147fe9",
            "datasets",
        ),
        (
            "What coverage probability did the physics-informed conformal prediction framework for neural "
            "PDEs target?",
            "p-1fc68a36b579",
            "coverage probability",
        ),
    ],
)
def test_a_named_thing_or_value_the_abstract_does_not_give_abstains(
    bundled_engine, question, paper, asked
):
    # each was answered with the paper's nearest sentences ("in both robotic and video game-like
    # simulations ...", "experiments on eight datasets ...") before this round
    assert asked in (asked_entity(question), setting_noun(question))
    hits = bundled_engine.retrieve(question, 5)
    assert hits[0].paper_id == paper  # the paper is found: it is the answer that must decline
    answer = bundled_engine.ask(question)
    assert answer.abstained and answer.sources == []
    # the reader is told which paper was found and what it lacks (a bare abstention had hidden both)
    (note,) = [n for n in answer.notes if n.startswith("closest paper: ")]
    assert f"({paper}); " in note and asked.split()[-1].rstrip("s") in note


def test_a_named_thing_the_abstract_gives_is_quoted(bundled_engine):
    answer = bundled_engine.ask("Which architectures did the GNN+ study re-evaluate?")
    assert [s.paper_id for s in answer.sources] == [GNN_PLUS]
    assert "GCN, GIN, and GatedGCN" in answer.answer


def test_the_papers_a_follow_up_refers_to_each_answer_even_when_the_query_quotes_a_title():
    # "what do the first two propose?" is put in the query by the papers' names; a paper with no label is
    # named by its title, and a quoted title used to narrow the answer to that one paper, so the second
    # referred paper was dropped (a break-it session, at conference scale)
    from paperchat.answer.focus import PaperText, focus_papers
    from paperchat.answer.intent import read_question

    title = "polybasic Speculative Decoding Through a Theoretical Perspective"
    first = PaperText("a", title, "We decode.", 0.7, 1.0, mention=title)
    second = PaperText(
        "b", "BanditSpec: Adaptive Decoding", "We adapt.", 0.6, 0.0, mention="BanditSpec"
    )
    question = f"what do {title} and BanditSpec propose?"
    assert focus_papers(question, [first, second], read_question(question)) == [first, second]


def test_a_name_the_named_papers_abstract_lacks_is_said_in_the_note(bundled_engine):
    # "What is the VRAM requirement of MxMoE?" had declined with no pointer: the paper was found by its name
    answer = bundled_engine.ask("What is the VRAM requirement of ConfPO?")
    assert answer.abstained
    assert answer.notes == [
        "closest paper: ConfPO: Exploiting Policy Model Confidence for Critical Token Selection in Preference "
        "Optimization (p-abe9274a3783); the abstract does not mention VRAM"
    ]


def test_a_benchmark_ask_quotes_the_sentence_that_names_them():
    # a break-it session: "Which benchmarks does Flow Q-Learning evaluate on?" quoted the opening sentence
    from types import SimpleNamespace as C

    from paperchat.answer.entity_asks import asked_entity, named_first

    abstract = (
        "We present flow Q-learning (FQL), a simple offline reinforcement learning (RL) method. "
        "We experimentally show that FQL leads to strong performance across 73 OGBench and D4RL tasks."
    )
    opening = C(
        text="We present flow Q-learning (FQL), a simple offline reinforcement learning (RL) method.",
        score=0.6,
    )
    named = C(
        text="We experimentally show that FQL leads to strong performance across 73 OGBench and D4RL tasks.",
        score=0.4,
    )
    question = "Which benchmarks does Flow Q-Learning evaluate on?"
    assert asked_entity(question) == "benchmarks"
    assert named_first(
        [opening], [opening, named], abstract, f"{question}\nFlow Q-Learning", 3
    ) == [named, opening]
    assert named_first([named], [opening, named], abstract, question, 3) == [
        named
    ]  # already quoted
