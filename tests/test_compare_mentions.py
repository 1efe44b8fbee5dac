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


def test_papers_counted_off_by_ordinals_run_to_the_end_of_their_sentences():
    q = (
        "Compare three answers to the cost of long prompts. The first compresses the prompt with a "
        "small model and the dropped tokens are chosen by perplexity. The second caches key-value "
        "states across requests. The third is LLMLingua. What does each save?"
    )
    found = split_mentions(q)
    # "the cost of long prompts" opens the question (the topic), "the dropped tokens ..." is part of
    # the first paper's sentence, and the third is named
    assert [(m.name, m.text) for m in found] == [
        (
            None,
            "The first compresses the prompt with a small model and the dropped tokens are chosen "
            "by perplexity",
        ),
        (None, "The second caches key-value states across requests"),
        ("LLMLingua", "LLMLingua"),
    ]


def test_a_header_before_a_colon_that_lists_the_papers_is_their_topic():
    q = (
        "Graph sparsification, two flavours: a sampler that keeps edges by effective resistance, "
        "and a learned pruner that drops edges with a message-passing network. What does each keep?"
    )
    found = split_mentions(q)
    assert [m.text for m in found] == [
        "a sampler that keeps edges by effective resistance",
        "a learned pruner that drops edges with a message-passing network",
    ]
    assert topic(q, found) == "Graph sparsification, two flavours:"
    # a colon after the papers, before the ask, changes nothing
    q = (
        "the paper on expert-choice routing, DeepSeekMoE and the one that merges experts softly: "
        "how does each route tokens?"
    )
    assert [m.name for m in split_mentions(q)] == [None, "DeepSeekMoE", None]


def test_what_opens_a_vs_question_is_a_name_in_any_case():
    assert [
        m.name for m in split_mentions("Ring Attention vs FlashDecoding: which is faster?")
    ] == [
        "Ring Attention",
        "FlashDecoding",
    ]
    found = split_mentions("mixtral vs the sparse upcycling paper - which uses fewer experts")
    assert [(m.name, m.text) for m in found] == [
        ("mixtral", "mixtral"),
        (None, "the sparse upcycling paper"),  # a dash is no word of the description
    ]


SYSTEM_AWARE, TOOL_DELETE, WHEN_TO_FORGET = "DnuuFjCsDo", "7ez7LqHsP5", "uEUIeIrRPv"


@pytest.mark.slow
@pytest.mark.parametrize(
    "question",
    [
        # counted off by ordinals; the first paper's sentence holds "and the algorithm ..."
        "Compare three takes on machine unlearning. The first weakens the attacker to one who sees only "
        "what the system stores and the algorithm keeps a small subset of the data. The second makes "
        "tool-augmented LLMs forget whole tools. The third bounds how much cheaper than retraining "
        "unlearning can be. What does each propose?",
        # a header, then a list of described papers after its colon
        "Machine unlearning, three angles: a definition against an attacker who sees only the stored "
        "data, a method that makes LLMs forget whole tools, and a phase diagram of when unlearning "
        "beats retraining. What does each contribute?",
    ],
)
def test_three_unlearning_papers_listed_or_counted_off_are_each_cited(icml_engine, question):
    cited, text = _cited(icml_engine, question)
    assert cited == [SYSTEM_AWARE, TOOL_DELETE, WHEN_TO_FORGET]
    assert "we propose ToolDelete" in text
    assert "Machine Unlearning (MU) aims at removing the influence of specific data points" in text


def test_two_coined_names_joined_as_the_subject_are_two_papers_to_answer_each():
    # a break-it session: "What datasets do SMT and DISCO evaluate on?" abstained ("the abstract does not
    # mention SMT"): with no "compare" in it, it had been read as a question about one paper
    found = split_mentions("What datasets do SMT and DISCO evaluate on?")
    assert [m.name for m in found] == ["SMT", "DISCO"]
    assert split_mentions("What datasets does DISCO use with LoRA and FlashAttention?") == []


def test_a_joint_subject_of_two_named_papers_cites_both(icml_engine):
    answer = icml_engine.ask("What datasets do SMT and DISCO evaluate on?", mode="extractive")
    assert [s.paper_id for s in answer.sources] == ["zk5k2NQcEA", "6EZ3MDDf6p"]
    assert "CIFAR-10 and ImageNet 64×64" in answer.answer


@pytest.mark.parametrize(
    "question,mentions",
    [
        # a reading break-it session: either/or comparisons quoted one of the two papers
        ("Which is faster, QuantSpec or RAPID?", ["QuantSpec", "RAPID"]),
        ("Which uses less memory, QuantSpec or RAPID?", ["QuantSpec", "RAPID"]),
        ("Is QuantSpec or RAPID faster?", ["QuantSpec", "RAPID"]),
        # a reviewer's: "reports" and "costs" ask too (GANQ alone had been quoted)
        (
            "Which reports a larger speedup, FlatQuant or GANQ, and on what hardware?",
            ["FlatQuant", "GANQ"],
        ),
        ("Which costs less to run, QuantSpec or RAPID?", ["QuantSpec", "RAPID"]),
        # alternatives that are no comparison of papers
        ("Which papers use LoRA or QLoRA?", []),
        ("Does ConfPO use LoRA or DPO?", []),
        ("Which dataset does ConfPO use, MNIST or CIFAR?", []),
    ],
)
def test_an_either_or_question_compares_its_two_papers(question, mentions):
    from paperchat.answer.mentions import split_mentions

    assert [m.text for m in split_mentions(question)] == mentions


def test_a_name_that_opens_a_title_head_names_that_paper_and_a_detail_may_be_either_paper_s(
    icml_engine,
):
    # a reviewer's comparisons: "Compare CAT Merging and CABS." cited the paper labelled "CAT" (contrastive
    # adversarial training) for "CAT Merging: A Training-Free Approach ..."; and "... which one runs on a
    # single consumer GPU ...?" abstained ("the abstract does not give the gpu") though MERGE3's gives it
    answer = icml_engine.ask("Compare CAT Merging and CABS.", mode="extractive")
    assert [s.paper_id for s in answer.sources] == ["zy7Jw91tdh", "ZZxVwVUYg3"]
    answer = icml_engine.ask(
        "Pareto Merging and MERGE3 both do model merging; which one runs on a single consumer GPU and "
        "which produces a Pareto set of merged models?",
        mode="extractive",
    )
    assert not answer.abstained
    assert {s.paper_id for s in answer.sources} >= {"D7qRwx6BOS", "qFXDv0X4yc"}
    assert "single GPU" in answer.answer and "Pareto set of merged models" in answer.answer
