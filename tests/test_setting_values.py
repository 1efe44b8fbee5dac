"""A setting's value asked by name ("what LoRA rank did they use?", issue 17): abstracts rarely give one, so
the answer quotes a sentence that holds a number and the setting, or abstains.

Questions written for these tests (none is in an eval set); the answers are asked of the 2,740-paper ICML
2025 store (``icml_store``).
"""

from __future__ import annotations

import pytest

from paperchat.answer.intent import setting_noun


@pytest.mark.parametrize(
    "question, setting",
    [
        ("What value of the discount factor did they use?", "discount factor"),
        ("which backbone was it applied to, and what LoRA rank did they use?", "LoRA rank"),
        ("What cache budget does it run with?", "cache budget"),
        ("what value of k did they settle on?", "k"),
        ("What temperature did DiTAR use for inference?", "temperature"),
        ("What technique is used to align the views?", None),  # a technique, not a value
        ("What loss function does it use?", None),
    ],
)
def test_a_setting_is_what_the_value_asked_for_is_of(question, setting):
    assert setting_noun(question) == setting


@pytest.fixture(scope="module")
def engine(icml_store):
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    return Engine(load_settings({"store": str(icml_store)}))


@pytest.mark.slow
def test_a_value_the_abstract_gives_is_quoted(engine):
    answer = engine.ask(
        "What rank did Pivoting Factorization (PIFA) report its memory savings at?",
        mode="extractive",
    )
    assert not answer.abstained
    assert answer.sources[0].paper_id == "5OLRHkzTYk"
    assert "at rank = 50" in answer.answer and answer.answer.endswith("[1].")


@pytest.mark.slow
def test_a_value_the_abstract_does_not_give_abstains(engine):
    # DiTAR's abstract defines temperature as a time point for noise but gives no value
    answer = engine.ask("What temperature did DiTAR use for inference?", mode="extractive")
    assert answer.abstained and answer.sources == []
