"""Shorthand asks and the words around them (issue 17, twelfth round).

Rules that two new tuning sets (general-m, an infrastructure engineer's clipped notes; general-n, a
science journalist's plain words) showed: a shorthand amount ("what % mem did it save", "exact speedup
number") asks a quantity; "how much X did it save" asks a change (of X); a count needs a number of the counted
thing, not of a duration or a percentage; "vs vanilla transformer" is the paper's own baseline; a name
matches its plural; a relative clause after a name holds no paper of its own; venue words are not a
question's topic. Questions written for these tests (none is in an eval set); pure functions, no store.
"""

from __future__ import annotations

import pytest

from paperchat.answer import intent as it
from paperchat.answer.asks import asks_for_name, plain_question, split_ask
from paperchat.answer.counts import _number_near, asks_change, states_number
from paperchat.answer.frames import frames
from paperchat.answer.mentions import split_mentions
from paperchat.answer.method_span import proposal
from paperchat.answer.model_names import asked_model
from paperchat.answer.subjects import missing_names
from paperchat.core.terms import name_tokens


@pytest.mark.parametrize(
    "question",
    [
        "FooNet - what % training mem did it save vs the dense model?",
        "BarKV: by how many % did peak memory drop?",
        "BazDecode async decoding - exact speedup number? need it for a slide",
        "QuxAttn ships query blocks around. what was the max e2e speedup over ring attention?",
        "What's the speedup of FooNet over the dense kernel?",
        "FooNet reruns the agent w/ a masked prompt. whats the added latency in %?",
    ],
)
def test_shorthand_amounts_ask_a_quantity(question):
    assert it.read_question(question).kind == it.QUANTITY


def test_whats_is_what_is():
    """A contraction reads as the words it stands for: the same kind, whatever the asker typed."""
    for typed in ("What's", "what’s", "whats"):
        assert it.read_question(f"{typed} the accuracy of FooNet on ImageNet?").kind == it.QUANTITY
        assert it.read_question(f"{typed} FooNet?").kind == it.DEFINE


def test_contractions_are_written_out_once_and_a_possessive_stays():
    """The answerer reads a question through plain_question: question words' contractions become the two
    words, so every rule after it (the name ask, the ask clause) spells each ask one way."""
    assert plain_question("What's the speedup? How’s it trained, and who's behind it?") == (
        "What is the speedup? How is it trained, and who is behind it?"
    )
    assert plain_question("whats it called") == "what is it called"
    assert (
        plain_question("FooNet's speedup over Whatsapp-scale data")
        == "FooNet's speedup over Whatsapp-scale data"
    )
    assert asks_for_name(plain_question("FooNet trains in 4 bits - what's it called?"))
    assert (
        split_ask(plain_question("FooNet trains in 4 bits - whats the speedup?")).ask
        == "what is the speedup?"
    )


@pytest.mark.parametrize(
    "question, change",
    [
        ("At best, how much human labelling did it save with a tuned judge?", True),
        ("how much memory does the method cut?", True),
        ("what % training mem did it save?", True),
        ("exact speedup number vs sequential decoding?", True),
        ("How much memory does it need?", False),  # an amount, not a change
    ],
)
def test_a_saving_or_a_speedup_is_a_change(question, change):
    assert asks_change(question) is change


def test_a_saving_counts_its_thing_and_a_possessive_is_no_plural():
    assert it.counted_noun("At best, how much human labelling did it save?") == "labelling"
    assert it.counted_noun("what fraction of Tulu-3's samples did the mix use?") == "sample"
    assert it.counted_noun("How many GPT-4 calls does it need?") == "call"


def test_a_count_needs_a_number_of_the_counted_thing():
    sentence = (
        "For example, we only need $0.004$ GPU Days to generate architecture with $76.1\\%$ top-1 "
        "accuracy on ImageNet."
    )

    def architecture(word):
        return "architecture" in word.lower()

    assert not _number_near(sentence, architecture, whole=True)  # a duration and a percentage
    assert _number_near(sentence, architecture, whole=False)  # "how much": any amount near it
    assert _number_near("we need 3 GPU days to train", lambda w: "days" in w.lower(), whole=True)
    assert _number_near("The benchmark holds 700 problems.", lambda w: "problem" in w, whole=True)


def test_an_enumerator_or_one_states_no_amount():
    assert not states_number("Scaling trends: (1) scaling up does not always help")
    assert not states_number("Decoding generates one token after another.")
    assert states_number("It runs on two GPUs.")


def test_a_baseline_after_vs_is_no_paper_of_its_own():
    assert split_mentions("BDIA - what % mem did it save vs vanilla transformer on the runs?") == []
    assert split_mentions("FSL-SAGE - by how many % did memory drop vs the FSL baselines?") == []
    found = split_mentions("RelGNN vs classic GNNs for graph-level tasks: which is better?")
    assert [m.name for m in found] == ["RelGNN", None]


def test_a_name_matches_its_plural_and_a_common_plural_is_no_name():
    text = ["We build on generative flow networks (GFlowNets) and test on LIT-PCBA."]
    assert missing_names("extending flow matching with GFlowNet ideas on LIT-PCBA", text) == []
    assert missing_names("GFlowNets and KEA", ["We build on GFlowNet and KEA-2."]) == ["KEA"]
    assert name_tokens("two video-understanding AIs and MLPs, e2e") == []


def test_a_relative_clause_after_a_name_holds_no_paper():
    question = (
        "How does SafetyAnalyst, which builds a 'harm-benefit tree' for AI behaviour, differ from the open "
        "framework that trains vision-language models to rate images against safety policies?"
    )
    found = split_mentions(question)
    assert [m.name for m in found] == ["SafetyAnalyst", None]
    assert found[1].text.startswith("the open framework that trains vision-language models")
    assert frames(question)[0].group("a").startswith("SafetyAnalyst, which builds")


def test_a_participle_keeps_its_preposition_in_a_frame_slot():
    question = (
        "Contrast the forecaster whose forward process uses moving averages with the imputation model "
        "conditioned on a differentiable Lomb-Scargle spectrum. What does each correct?"
    )
    texts = [m.text for m in split_mentions(question)]
    assert texts[-1] == "the imputation model conditioned on a differentiable Lomb-Scargle spectrum"


def test_an_ask_with_a_verb_before_models_asks_no_model():
    assert (
        asked_model("With what accuracy could foundation models guess the wearer's identity?")
        is None
    )
    assert asked_model("Which LLM does the agent use as its backbone?") == "LLM"


def test_a_which_paper_answer_adds_the_proposal_sentence():
    from types import SimpleNamespace as S

    own = [
        S(position=0, role="background", text="Secure aggregation hides updates."),
        S(position=1, role="definition", text="We propose Janus, a dual-server scheme."),
        S(position=2, role="result", text="Janus is 74% faster."),
    ]
    assert proposal(own, [own[0]]) == [own[1]]
    assert proposal(own, [own[1]]) == []
    assert proposal(own[:1], []) == []


@pytest.mark.parametrize(
    "question",
    [
        "FooBench showed bigger models resist poisoning - how big was the resilience gap between sizes?",
        "I read that bigger models master the benchmark. How much does each step up in size help?",
    ],
)
def test_a_difference_asked_is_a_change(question):
    assert asks_change(question)


def test_math_in_a_name_is_no_amount_and_a_ratio_may_follow_sim():
    from paperchat.answer.counts import states_change

    assert not states_number(
        "Using our newly synthesized GSM-$\\infty$ benchmark, we evaluate LLMs."
    )
    sentence = "This results in a $\\sim$100,000$\\times$ speedup with improved accuracy."
    assert states_change(sentence) and states_number(sentence)


def test_which_model_came_out_on_top_asks_a_model_and_lr_is_no_name():
    assert asked_model("Which model came out on top in the paper's evaluation?") == "model"
    assert asked_model("Which model size works best?") is None
    assert name_tokens("loss curves collapse, even tighter w/ LR decay after SFT and RLHF") == []


@pytest.mark.parametrize(
    "question, kind",
    [
        # a chat break-it session: "what about the third one?" put the paper's title in the question, whose
        # "Score" read as an ask for an amount: declined, "the abstract states no such number"
        ("what about Conformity Score Averaging for Classification?", it.GENERAL),
        ("What is Reweighted Score Matching, and how does it help?", it.MECHANISM),
        # an amount word of the question's own: asked, in any case
        ("What accuracy does ConfPO reach?", it.QUANTITY),
        ("what is the Success Rate of FlipAttack on GPT-4?", it.QUANTITY),
        ("How Many Papers Study Diffusion Models?", it.QUANTITY),  # title case throughout
    ],
)
def test_an_amount_word_inside_a_title_asks_for_no_amount(question, kind):
    assert it.read_question(question).kind == kind


def test_a_question_typed_in_full_width_letters_is_read_as_ascii(bundled_engine):
    # a chat break-it session: an input method's full-width "Ｗｈａｔ ｄｏｅｓ ＣｏｎｆＰＯ ..." found no word
    from paperchat.core.text import clean_question

    asked = "Ｗｈａｔ　ｄｏｅｓ ＣｏｎｆＰＯ ｕｓｅ ｔｏ ｐｉｃｋ ｐｒｅｆｅｒｅｎｃｅ－ｃｒｉｔｉｃａｌ ｔｏｋｅｎｓ？"
    assert clean_question(asked) == "What does ConfPO use to pick preference-critical tokens?"
    answer = bundled_engine.ask(asked, mode="extractive")
    assert [s.paper_id for s in answer.sources] == ["p-abe9274a3783"]
