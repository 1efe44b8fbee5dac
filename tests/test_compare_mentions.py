"""Comparison questions that describe their papers instead of naming them (issue 17).

The splitting and assignment tests are pure; the answers are asked of the 2,740-paper ICML 2025 store
(``icml_store``), with questions written for these tests about real ICML 2025 papers.
"""

from __future__ import annotations

import pytest

from paperchat.answer.mentions import about_several, ask_part, split_mentions, topic
from paperchat.answer.subjects import _assign
from paperchat.retrieve.hybrid import Hit

THREE = (
    "Compare three speculative decoding papers: one that drafts from a shortened retrieved context "
    "for long inputs, one where drafter and target can have different vocabularies, and one guided "
    "by a process reward model. What does each report?"
)


def test_an_enumeration_of_descriptions_is_split_into_one_mention_each():
    found = split_mentions(THREE)
    assert [m.text for m in found] == [
        "one that drafts from a shortened retrieved context for long inputs",
        "one where drafter and target can have different vocabularies",
        "one guided by a process reward model",
    ]
    assert [m.name for m in found] == [None, None, None]
    assert topic(THREE, found) == "Compare three speculative decoding papers:"
    assert (
        ask_part(THREE, found)
        == "Compare three speculative decoding papers:. What does each report?"
    )


def test_a_name_with_its_apposition_and_a_description_are_two_mentions():
    q = (
        "How does KGMark, the knowledge-graph watermark, differ from the paper that detects "
        "spoofed language-model watermarks?"
    )
    found = split_mentions(q)
    assert [(m.name, m.text) for m in found] == [
        ("KGMark", "KGMark, the knowledge-graph watermark"),
        (None, "the paper that detects spoofed language-model watermarks"),
    ]
    assert ask_part(q, found) == "How does KGMark, differ from?"  # what is asked of each
    assert about_several(q, found)


def test_a_question_about_one_described_paper_is_no_comparison():
    # one description, "compared with", and names of things that are not papers
    q = (
        "The paper that stitches networks trained on MNIST into ImageNet models: how does it "
        "compare with model stitching?"
    )
    # "MNIST" and "ImageNet" stand inside the description ("trained on MNIST"): no paper of their own
    assert split_mentions(q) == []
    assert not about_several(q, split_mentions(q))


def test_two_descriptions_that_find_the_same_paper_first_do_not_share_it():
    hit = lambda pid, score: Hit(pid, f"{pid}:0", score, "", {})  # noqa: E731
    first = [hit("a", 1.0), hit("b", 0.5)]  # "a" fits the first description much better ...
    second = [hit("a", 1.0), hit("c", 0.95)]  # ... than the second, which has a close runner-up
    assert [h.paper_id for h in _assign([first, second], set())] == ["a", "c"]
    assert [h.paper_id for h in _assign([first, second], {"a"})] == ["b", "c"]  # "a" is named


def _cited(icml_engine, question):
    answer = icml_engine.ask(question, mode="extractive")
    assert not answer.abstained
    return [s.paper_id for s in answer.sources], answer.answer


@pytest.mark.slow
def test_two_described_papers_are_both_cited_with_what_the_question_asks(icml_engine):
    cited, text = _cited(
        icml_engine,
        "I'm thinking of two speculative decoding papers: the one where the drafter and the "
        "target model may use different vocabularies, and the one that lets a reward model decide "
        "when to call the big model. How much faster or cheaper does each get?",
    )
    assert cited == ["vQubr1uBUw", "AVeskAAETB"]  # heterogeneous vocabularies; RSD
    assert "speedups of up to 2.8x" in text and "4.4X fewer FLOPs" in text


@pytest.mark.slow
def test_a_described_paper_is_quoted_where_its_description_fits(icml_engine):
    """Besides the sentences that answer the ask ("what results"), a described paper gets the sentence that
    makes its description true (answer.clauses.parts_cover): DA-KD's "adjust the distillation dataset
    based on the difficulty of samples"."""
    cited, text = _cited(
        icml_engine,
        "How does the knowledge distillation paper built on an alpha-beta divergence differ from the "
        "one that reshapes the distillation set by sample difficulty? What results does each report?",
    )
    assert cited == ["vt65VjJakt", "NCYBdRCpw1"]  # ABKD; DA-KD
    assert "smooth interpolation between FKLD and RKLD" in text
    assert "4.7$\\times$ compression" in text
    assert "dynamically adjust the distillation dataset based on the difficulty of samples" in text


@pytest.mark.slow
def test_a_named_and_a_described_paper_are_both_cited(icml_engine):
    cited, text = _cited(
        icml_engine,
        "How does KGMark differ from the paper that detects whether a language-model watermark "
        "was forged by spoofing?",
    )
    assert cited == ["GKZySvM2t9", "hSCxEZLvxI"]  # KGMark; Discovering Spoofing Attempts
    assert text.startswith("KGMark: ")


@pytest.mark.slow
def test_three_described_papers_are_each_cited_in_the_question_order(icml_engine):
    cited, text = _cited(icml_engine, THREE)
    assert cited == ["73mDARqOtQ", "vQubr1uBUw", "AVeskAAETB"]  # RAPID; vocabularies; RSD
    # each paper named by its title, with its short name when the title lacks it
    assert text.startswith(
        "RAPID: Long-Context Inference with Retrieval-Augmented Speculative Decoding: "
    )
    assert "Reward-Guided Speculative Decoding for Efficient LLM Reasoning (RSD): " in text
