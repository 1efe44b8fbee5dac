"""What a which-paper answer and a comparison's answer quote (issue 17, thirteenth round).

A which-paper answer adds the sentence where the paper names its method, also when no sentence
proposes it ("our new method, named ...") and when the question asks which method in one clause and
something else in another; a comparison that asks what each paper changes, adds or introduces quotes
each paper's method move; "how much X improves" asks a change, not a count of X. Questions and
sentences written for these tests (none is in an eval set); pure functions, but for one question asked
of the 2,740-paper store.
"""

from __future__ import annotations

from types import SimpleNamespace as S

import pytest

from paperchat.answer import intent as it
from paperchat.answer.asks import plain_question
from paperchat.answer.method_span import asks_which_one, proposal


def _own(*rows):
    return [S(position=i, role=role, text=text) for i, (role, text) in enumerate(rows)]


def test_a_naming_sentence_stands_in_for_a_missing_proposal():
    own = _own(
        ("background", "Value networks plan badly over long horizons."),
        ("result", "We trace this to the depth of the planning module."),
        ("result", "Our new method, named Deep Transition Planner (DTP), scales to 900 layers."),
        ("other", "Altogether, DTP is a step forward."),
    )
    assert proposal(own, [own[1]]) == [own[2]]
    assert proposal(own, [own[2]]) == []


def test_a_defining_sentence_wins_over_a_naming_one():
    own = _own(
        ("definition", "We introduce FooNet, a sparse router."),
        ("result", "A variant, called FooNet-L, is 3x faster."),
    )
    assert proposal(own, []) == [own[0]]


@pytest.mark.parametrize(
    "text",
    ["The plan is called out in the appendix.", "We named three failure modes of routing."],
)
def test_a_lowercase_word_after_named_is_no_method_name(text):
    assert proposal(_own(("other", text)), []) == []


@pytest.mark.parametrize(
    "question, asks",
    [
        (
            "Which graph-contrastive method drops augmentations for a transport plan, and how much "
            "does it gain on node classification?",
            True,
        ),
        ("What paper shows that router collapse is avoidable; what fix does it use?", True),
        ("How much does FooNet gain on node classification?", False),
        ("Which papers drop augmentations for graph contrastive learning?", False),
    ],
)
def test_a_clause_that_asks_which_method_asks_for_its_name(question, asks):
    assert asks_which_one(question) is asks


@pytest.mark.parametrize(
    "sentence, asks",
    [
        ("What is the main building component each one introduces?", True),
        ("What does each one change?", True),
        ("What do the two add on top of plain distillation?", True),
        ("What speedup does each report?", False),
        ("How does FooNet compare with BarNet?", False),
        ("Which one is more accurate?", False),
    ],
)
def test_what_each_changes_or_introduces_asks_its_method(sentence, asks):
    assert it.asks_approach(sentence) is asks


@pytest.mark.parametrize(
    "question",
    [
        "tiny on-device planner talking to a cloud model - whats the protocol called?",
        "benchmark of 3D scenes with spoken instructions; dataset name, and how many scenes?",
        "What is the name of the method that routes tokens by entropy?",
    ],
)
def test_an_ask_for_the_name_asks_for_the_naming_sentence(question):
    assert asks_which_one(plain_question(question))  # the answerer reads contractions written out


def test_a_question_without_a_name_ask_is_not_one():
    assert not asks_which_one("How much memory does the named-entity tagger save?")


@pytest.mark.parametrize(
    "question",
    [
        "avg speedup for the faster sparse attention kernel",
        "peak memory reduction of FooKV vs dense",
    ],
)
def test_a_search_box_ask_that_opens_with_an_amount_asks_a_quantity(question):
    assert it.read_question(question).kind == it.QUANTITY


def test_an_amount_word_in_a_topic_is_no_quantity():
    assert it.read_question("speedup methods for diffusion sampling").kind != it.QUANTITY


def test_how_much_a_task_improves_asks_a_change_not_a_count():
    question = "how much node classification improves with optimal transport?"
    assert it.counted_noun(question) is None
    assert it.counted_noun("How much training data does FooNet need?") == "data"


@pytest.mark.slow
def test_a_list_question_asking_how_much_a_task_improves_is_answered(icml_engine):
    answer = icml_engine.ask(
        "Which of the papers this year measured how much node classification improves when "
        "heterogeneous graph self-supervision uses optimal transport?",
        mode="extractive",
    )
    assert not answer.abstained
    assert answer.sources[0].paper_id == "jjGT1Fifdb"
    assert "Optimal Transport (HGOT) method" in answer.answer


def test_a_question_the_abstract_asks_sinks():
    from paperchat.answer.roles import role_shift

    asked = "(2) What is the optimal policy that a risk-averse decision maker should use?"
    stated = "We show that the max-min policy is optimal for risk-averse decision makers."
    assert role_shift("other", asked, it.FIND) == pytest.approx(
        role_shift("other", stated, it.FIND) - 0.15
    )
    assert role_shift("other", "*Can a small model help a large one?*", it.GENERAL) == -0.15
