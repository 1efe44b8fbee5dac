"""A number a question takes as given that the abstract gives otherwise is a false premise (an audit of
false premises: "Why is TabFlex 10x faster than TabPFN?" had been answered with the sentence saying 2×)."""

from __future__ import annotations

import pytest

from paperchat.answer.number_premises import amounts, changed_number

TABFLEX = (
    "Our extensive evaluations demonstrate that TabFlex can achieve over a 2× speedup compared to TabPFN "
    "and a 1.5× speedup over XGBoost, outperforming 25 tested baselines in terms of efficiency."
)


def test_amounts_read_units_and_leave_names_and_years_out():
    text = "a 2× speedup, five orders of magnitude, twice, 20% worse, 1,000 US dollars, GPT-4 on A100s in 2024"
    assert amounts(text) == [(2.0, "x"), (5.0, "orders"), (2.0, "x"), (20.0, "%"), (1000.0, "us")]


@pytest.mark.parametrize(
    "question, abstract, changed",
    [
        ("Why is TabFlex 10x faster than TabPFN?", TABFLEX, ("10x", "2×")),
        (
            "How does thermalization extend stable horizons by five orders of magnitude?",
            "Thermalization extends the time horizon of stable predictions by two orders of magnitude.",
            ("five orders", "two orders"),
        ),
        (
            "Why does RATE rewrite each response three times?",
            "RATE rewrites each response twice.",
            ("three times", "twice"),
        ),
        # a hyphenated amount (a course TA's question: QuantSpec's cache is 4-bit)
        (
            "Why does QuantSpec use an 8-bit quantized KV cache?",
            "QuantSpec employs a hierarchical 4-bit quantized KV cache and 4-bit quantized weights.",
            ("8-bit", "4-bit"),
        ),
        (
            "Why does QuantSpec use a 4-bit quantized KV cache?",
            "QuantSpec employs a hierarchical 4-bit quantized KV cache and 4-bit quantized weights.",
            None,
        ),
        # the number the abstract gives, or a question that asks for the number: no premise
        ("Why is TabFlex 2x faster than TabPFN?", TABFLEX, None),
        ("How much faster is TabFlex than TabPFN, 10x?", TABFLEX, None),
        ("What speedup over TabPFN does TabFlex reach, 10x?", TABFLEX, None),
        # a unit the abstract never states, or the question's number written elsewhere in it
        ("Why does TabFlex need 8 GPUs?", TABFLEX, None),
        ("Why is TabFlex 25x faster than TabPFN?", TABFLEX, None),
    ],
)
def test_a_changed_number_is_found(question, abstract, changed):
    assert changed_number(question, abstract) == changed


def test_a_changed_number_abstains_with_a_note(bundled_engine):
    # the bundled tensor-completion abstract: "it can be 100x faster than direct methods for CP completion"
    wrong = bundled_engine.ask(
        "Why is the tensor completion method 1000x faster than direct methods for CP completion?",
        mode="extractive",
    )
    assert wrong.abstained and wrong.notes[0] == (
        "the abstract of Fast Tensor Completion via Approximate Richardson Iteration says '100x' where the "
        "question says '1000x': check the question's premise"
    )
    right = bundled_engine.ask(
        "Why can the tensor completion method be 100x faster than direct methods?",
        mode="extractive",
    )
    assert not right.abstained and "100x faster than direct methods" in right.answer
