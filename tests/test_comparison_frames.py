"""Comparisons asked in a frame or a list (issue 17, fifth round): each paper they mention is found and cited.

"How does A differ from B in ...?" and "Compare A with B" name their two papers in their slots, even one-word names no rule calls
coined ("Unifews"), and a slot led by an article describes one; a list before the ask ("A, the B method
and C: what does each ...?") lists its papers, names or descriptions. Questions written for these tests
(none is in an eval set); the cited papers are asserted on the 2,740-paper ICML 2025 store.
"""

from __future__ import annotations

import numpy as np
import pytest

from paperchat.answer import intent as it
from paperchat.answer.candidates import Candidate, pick
from paperchat.answer.intent import counted_noun
from paperchat.answer.mentions import split_mentions
from paperchat.answer.roles import sentence_role


@pytest.mark.parametrize(
    "question, mentions",
    [
        (  # one capitalised word in each slot of the frame is a name
            "How does Unifews differ from REST in how it makes GNN training cheaper?",
            [("Unifews", "Unifews"), ("REST", "REST")],
        ),
        (  # a slot led by an article is a description, ended where the slot ends
            "How does TruthFlow differ from the paper on transferring steering vectors between LLMs in "
            "how the vectors are obtained?",
            [
                ("TruthFlow", "TruthFlow"),
                (None, "the paper on transferring steering vectors between LLMs"),
            ],
        ),
        (  # a name a description's own word leads ("in Soft Actor-Critic") is part of the description
            "How does SENSEI differ from the paper that keeps exploration alive in Soft Actor-Critic?",
            [("SENSEI", "SENSEI"), (None, "the paper that keeps exploration alive")],
        ),
        (  # the imperative frame: "Compare A with B", a name and a description
            "Compare KGMark with the paper that detects spoofed watermarks.",
            [("KGMark", "KGMark"), (None, "the paper that detects spoofed watermarks")],
        ),
        (  # "Compare A and B": two names
            "Compare Quamba2 and QuEST: which bit-widths does each target?",
            [("Quamba2", "Quamba2"), ("QuEST", "QuEST")],
        ),
        (  # the slots part at "with the"; "KL" and "a two-parameter divergence" are inside the first
            "Compare the distillation work that blends forward and reverse KL through a two-parameter "
            "divergence with the work that reshapes the distillation set by sample difficulty: what "
            "does each report?",
            [
                (
                    None,
                    "the distillation work that blends forward and reverse KL through a two-parameter "
                    "divergence",
                ),
                (None, "the work that reshapes the distillation set by sample difficulty"),
            ],
        ),
        (  # a quoted name inside a described slot stays its name
            "Compare the paper that calls its method 'Price of Freedom' for tensor products with "
            "FlashTP: what does each show?",
            [
                (
                    "Price of Freedom",
                    "the paper that calls its method 'Price of Freedom' for tensor products",
                ),
                ("FlashTP", "FlashTP"),
            ],
        ),
        (  # a list before the ask: descriptions, and a name inside an item names it
            "For am-ELO, Prompt-to-Leaderboard (P2L) and the Swim tournament approach, give how each "
            "one ranks models.",
            [
                ("am-ELO", "am-ELO"),
                ("P2L", "Prompt-to-Leaderboard (P2L)"),
                (None, "the Swim tournament approach"),
            ],
        ),
        (  # "A, B and C all ...": one-word items are names
            "Unisolver, PDE-Transformer and Zebra all aim at one model for many PDEs. How does each "
            "one condition on the PDE?",
            [
                ("Unisolver", "Unisolver"),
                ("PDE-Transformer", "PDE-Transformer"),
                ("Zebra", "Zebra"),
            ],
        ),
        (  # a name inside a longer one ("SAE" in "Matryoshka SAEs") is no paper of its own
            "HypotheSAEs, Matryoshka SAEs and FPO all involve sparse autoencoders. What is each one "
            "using the SAE for?",
            [
                ("HypotheSAEs", "HypotheSAEs"),
                ("Matryoshka SAEs", "Matryoshka SAEs"),
                ("FPO", "FPO"),
            ],
        ),
        (  # a description of one hyphenated compound is enough to search
            "Simba-V2 vs FoG vs the network-sparsity paper: what does each change?",
            [("Simba-V2", "Simba-V2"), ("FoG", "FoG"), (None, "the network-sparsity paper")],
        ),
    ],
)
def test_a_frame_or_a_list_mentions_each_paper(question, mentions):
    assert [(m.name, m.text) for m in split_mentions(question)] == mentions


def test_a_clause_in_a_list_is_no_paper():
    # "Given X, how ...": the items hold a verb of the question
    assert split_mentions("Given speed, memory and accuracy, how do the methods differ?") == []


@pytest.mark.parametrize(
    "sentence, resource",
    [
        ("Code is available at https://github.com/x/y.", True),
        ("Our code is released on GitHub.", True),
        (  # a benchmark built from GitHub repositories is a result to quote, not a code link
            "We create SyncBench, a benchmark of 24,332 instances from 21 popular *GitHub* repositories.",
            False,
        ),
    ],
)
def test_a_code_link_is_a_resource_and_github_as_a_source_is_not(sentence, resource):
    assert (sentence_role(sentence, 3) == "resource") is resource


@pytest.mark.parametrize(
    "sentence, role",
    [
        ("We propose WCTMs, weighted conformal test martingales.", "definition"),
        # WATCH's abstract proposes "by proposing": "What does WATCH propose?" had quoted its background
        (
            "In this paper, we address these limitations by proposing a weighted generalization of "
            "conformal test martingales (WCTMs).",
            "definition",
        ),
    ],
)
def test_a_proposal_is_the_defining_sentence(sentence, role):
    assert sentence_role(sentence, 3) == role


def _cand(position: int, score: float, role: str) -> Candidate:
    vec = np.zeros(4, dtype=np.float32)
    vec[position % 4] = 1.0
    return Candidate("p", position, f"s{position}", 0.5, 0.5, score, score, vec, role)


def test_a_code_link_that_scores_best_sets_no_bar():
    # the code link (never quoted) outscores the rest; the best quotable sentence sets the bar
    cands = [_cand(0, 0.64, "resource"), _cand(1, 0.49, "other"), _cand(2, 0.44, "definition")]
    picked = pick(cands, "p", it.Intent(it.GENERAL), 3)
    assert [c.position for c in picked] == [1, 2]


@pytest.mark.parametrize(
    "question, noun",
    [
        ("GaussMarker vs Lightweight-Mark: which one embeds the longer message, in bits?", "bit"),
        ("Which of the two needs less compute, in GPU-hours?", "gpu-hour"),
        ("Does the effect hold in transformers?", None),  # a setting, not a unit
        # "how much": the head of a phrase a verb ends; a terse phrase without one keeps its first word
        ("how much activaton memory does the rematerialization approach cut", "memory"),
        ("how much mem saved", "mem"),
    ],
)
def test_the_counted_noun_is_the_unit_or_the_head_of_the_phrase(question, noun):
    assert counted_noun(question) == noun


@pytest.mark.slow
@pytest.mark.parametrize(
    "question, papers",
    [
        (
            "Cowpox, Chameleon and the camera-controllable multi-view video diffusion model: what does "
            "each one contribute?",
            ["5KszXnnkG5", "mDxarRaTY9", "g5CijB2ERy"],
        ),
        (
            "How does the programmable memory test benchmark for language models differ from Craftium "
            "in what it evaluates?",
            ["ib9drlZllP", "htP5YRXcS9"],
        ),
        (  # ABKD; DA-KD
            "Compare the knowledge distillation work that blends forward and reverse KL through a "
            "two-parameter divergence with the work that reshapes the distillation set by sample "
            "difficulty: what results does each report?",
            ["vt65VjJakt", "NCYBdRCpw1"],
        ),
    ],
)
def test_papers_a_list_or_a_frame_mentions_are_each_cited(icml_engine, question, papers):
    answer = icml_engine.ask(question, mode="extractive")
    assert not answer.abstained
    assert [s.paper_id for s in answer.sources] == papers


@pytest.mark.slow
@pytest.mark.parametrize(
    "question",
    [
        "Cowpox vs Chameleon: which one needs less compute, in GPU-hours?",
        "Primphormer vs Griffin: which one was pretrained on more data, in tokens?",
    ],
)
def test_a_comparison_of_a_figure_neither_abstract_gives_abstains(icml_engine, question):
    answer = icml_engine.ask(question, mode="extractive")
    assert answer.abstained


def test_a_name_inside_a_description_finds_no_third_paper(bundled_engine):
    """A newcomer's question on the bundled corpus: "Actor-Critic" had been a third paper, and an unrelated
    abstract (Habi's) was quoted between SENSEI and KEA."""
    answer = bundled_engine.ask(
        "How does SENSEI differ from the paper that keeps exploration alive in Soft Actor-Critic?",
        mode="extractive",
    )
    assert [s.label for s in answer.sources] == ["SENSEI", "KEA"]
