"""Comparisons asked "how do A and B compare", with "the former / the latter" (issue 17, seventeenth round).

"How do the approach that ... and the relaxed bound compare: ... the former's ..., ... the latter's ...?" describes
its two papers in a frame's slots and asks of each by "former" and "latter". Questions written for these tests
(none is in an eval set); two such comparisons, each paper cited with its asked fact on the 2,740-paper ICML 2025
store, are in ``test_labelled_asks.py``.
"""

from __future__ import annotations

from paperchat.answer.labels import labelled_clauses
from paperchat.answer.mentions import split_mentions


def _mentions(question: str) -> list[tuple[str | None, str]]:
    return [(m.name, m.text) for m in split_mentions(question)]


def test_the_latter_labels_the_second_papers_ask():
    question = (
        "Two papers on coral reefs: one maps them from satellite photos, one counts fish with sonar. "
        "Which satellites does the former use, and how deep does the latter's sonar reach?"
    )
    assert labelled_clauses(question, split_mentions(question)) == {
        0: "Which satellites does use",
        1: "how deep does sonar reach",
    }


def test_how_do_a_and_b_compare_describes_a_paper_in_each_slot():
    question = (
        "On LLM watermarks, how do the end-to-end logits perturbation approach and the framework "
        "that strips n-gram watermarks out compare: what replaces the non-differentiable steps in "
        "the former, and what probing does the latter use?"
    )
    assert _mentions(question) == [
        (None, "the end-to-end logits perturbation approach"),
        (None, "the framework that strips n-gram watermarks out"),
    ]


def test_a_name_listed_with_both_and_inside_a_description_is_part_of_it():
    question = (
        "How do ConvoNet and the convergence analysis covering both Deep Operator Networks and Fourier "
        "Neural Operators differ?"
    )
    # "Fourier Neural Operators" is what the analysis covers, not a third paper
    assert [name for name, _text in _mentions(question)] == ["ConvoNet", None]


def test_no_name_starts_after_a_hyphen_inside_a_word():
    from paperchat.core.terms import name_tokens

    # "μTransfer-FNO" is one word: neither "Transfer-FNO" nor "FNO" is a name of its own
    assert name_tokens("How far does μTransfer-FNO scale, and does GPT-4o agree?") == ["GPT-4o"]
