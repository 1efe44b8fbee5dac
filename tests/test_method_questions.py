""" "How does X work?" quotes the sentences of X's method, not only the one that names it (issue 17).

Questions written for this test; none is in an eval set, and the conference-scale papers are in none.
"""

from __future__ import annotations

import numpy as np
import pytest

from paperchat.answer import intent as it
from paperchat.answer.candidates import Candidate
from paperchat.answer.method_span import method_span
from paperchat.core.terms import name_tokens

DYPOLYSEG, ULTRATWD = (
    "BGDSSSJWot",
    "lvGmEDrIN9",
)  # few-shot point-cloud segmentation; ultrametric trees


@pytest.mark.parametrize(
    "question, how",
    [
        ("How does CLOVER prune attention heads?", True),
        ("Walk me through SOLD's pipeline.", True),
        ("Mechanically, how does the filter decide what to skip?", True),
        ("What are the main steps of RelGNN?", True),
        # the word that asks how is in the description, not in the asking sentence
        ("I remember a paper critiquing a popular stitching trick. Which paper was it?", False),
        ("What is the method called, and how much faster is it?", False),
        ("How does ConfPO compare with DPO?", False),  # a result, not a mechanism
        ("Which papers use diffusion, and how do they work?", False),  # a list
    ],
)
def test_a_question_asks_how_a_method_works_in_its_asking_sentence(question, how):
    assert it.read_question(question).how is how


@pytest.mark.parametrize(
    "sentence, approach",
    [
        ("safearena vs advagent - how do their approaches differ", True),
        ("goat vs advprompter, diff in how they attack?", True),
        ("What mechanism does each rely on, and what safety result does it report?", True),
        ("How does each pick or clean pretraining data?", True),
        ("How does each one compare on ImageNet?", False),  # a result
        ("Which one reports the bigger speedup?", False),
    ],
)
def test_a_comparison_asks_for_each_papers_approach(sentence, approach):
    assert it.asks_approach(sentence) is approach


def test_a_how_word_in_a_description_makes_no_mechanism_question():
    # "trick" describes the paper; the asking sentence asks which paper (as Intent.how reads it)
    question = "I remember a paper critiquing a popular stitching trick. Which paper was it?"
    assert it.read_question(question).kind == it.FIND


def test_how_words_are_not_content_terms():
    assert it.how_terms("Walk me through SOLD's pipeline.") == {"walk", "pipeline"}
    assert it.how_terms("Mechanically, how does SpargeAttn get its speedup?") == {"mechanically"}


def test_a_digit_may_lead_a_hyphenated_name():
    assert name_tokens("How does 3D-LMVIC use 3D geometry on 256x256 images?") == ["3D-LMVIC"]
    # a version string is no name: "70B-Instruct" inside "3.3-70B-Instruct"
    assert name_tokens("Llama 3.3-70B-Instruct and Llama 3.1-8B-Instruct") == []


def _cand(position: int, role: str, text: str = "") -> Candidate:
    vec = np.zeros(4, dtype=np.float32)
    return Candidate("p", position, text or f"s{position}", 0.1, 0.0, 0.1, 0.1, vec, role)


def test_the_method_move_runs_from_the_proposal_to_the_first_evaluation():
    own = [
        _cand(0, "background"),
        _cand(1, "definition", "We propose X, a filter."),
        _cand(2, "other", "Specifically, X first predicts a map."),
        _cand(3, "background", "Despite this, prior methods fail."),
        _cand(4, "result", "X reduces the cost by skipping blocks."),  # a step, not an evaluation
        _cand(5, "result", "Experiments show X outperforms baselines."),
        _cand(6, "other", "We release code."),
    ]
    picked = [own[5]]
    assert [c.position for c in method_span(own, picked, 5)] == [1, 2, 4]
    assert [c.position for c in method_span(own, picked, 3)] == [
        1,
        2,
    ]  # room for two beside the one picked
    # no proposal sentence: the move starts at the sentence that holds the method's name
    unnamed = [
        _cand(0, "other", "Models fail."),
        _cand(1, "other", "We name it M3-X."),
        _cand(2, "other"),
    ]
    assert [c.position for c in method_span(unnamed, [], 4, "M3-X")] == [1, 2]


@pytest.mark.parametrize(
    "question, label, facts",
    [
        (
            "How does CLOVER prune attention heads?",
            "CLOVER",
            ["Singular Value Decomposition", "singular values, in turn, guide pruning"],
        ),
        (
            "How does RelGNN pass messages?",
            "RelGNN",
            ["atomic routes, which are simple paths", "composite message passing"],
        ),
        (
            "How does KEA work?",
            "KEA",
            ["switching mechanism", "maintain stochasticity in high-novelty regions"],
        ),
    ],
)
def test_how_a_bundled_method_works_is_quoted_from_its_method_sentences(
    bundled_engine, question, label, facts
):
    answer = bundled_engine.ask(question, mode="extractive")
    assert [s.label or s.title.split(":")[0] for s in answer.sources] == [label]
    for fact in facts:
        assert fact in answer.answer


def test_walk_me_through_a_named_method_is_answered_not_declined(bundled_engine):
    # the words that ask how ("walk", "pipeline") are no content the abstract must hold
    answer = bundled_engine.ask("Walk me through SOLD's pipeline.", mode="extractive")
    assert not answer.abstained
    assert [s.title.split(":")[0] for s in answer.sources] == ["SOLD"]
    assert "Slot-Attention for Object-centric Latent Dynamics" in answer.answer


@pytest.mark.slow
@pytest.mark.parametrize(
    "question, paper, facts",
    [
        (
            "How does DyPolySeg work?",
            DYPOLYSEG,
            ["Dynamic Polynomial Convolution", "Prototype Completion Module"],
        ),
        (
            "How does UltraTWD optimize its trees?",
            ULTRATWD,
            ["minimum spanning trees, iterative projection"],
        ),
    ],
)
def test_how_a_method_works_at_conference_scale(icml_engine, question, paper, facts):
    answer = icml_engine.ask(question, mode="extractive")
    assert [s.paper_id for s in answer.sources] == [paper]
    for fact in facts:
        assert fact in answer.answer


SINPOINT, UOT_UPC, INFOCONS = (
    "oDPtv1RveE",
    "j07qnZjYIU",
    "cumipBkkAR",
)  # three point-cloud papers in no eval set
POINT_CLOUDS = (
    "Three recent point-cloud papers attack different problems. One augments training data by deforming shapes "
    "with smooth sine-based displacements that keep their topology. A second completes partial scans without "
    "paired data by casting completion as an unbalanced optimal transport problem. A third explains classifier "
    "decisions by splitting the cloud into critical concepts with information theory. How does each one work?"
)


def test_an_ordinal_counts_described_papers_off():
    from paperchat.answer.mentions import split_mentions

    texts = [m.text for m in split_mentions(POINT_CLOUDS)]
    assert [t.split()[:2] for t in texts] == [["One", "augments"], ["A", "second"], ["A", "third"]]
    assert texts[2].endswith("with information theory")


def test_how_each_named_paper_works_quotes_each_ones_method(bundled_engine):
    answer = bundled_engine.ask(
        "KEA and SENSEI both explore with sparse rewards. How does each one work?",
        mode="extractive",
    )
    assert [s.title.split(":")[0] for s in answer.sources] == ["KEA", "SENSEI"]
    assert (
        "coordinated via a switching mechanism [1]" in answer.answer
    )  # KEA's method, absent before
    assert "distills a reward signal of interestingness" in answer.answer


def test_a_comparison_of_approaches_quotes_each_papers_method(bundled_engine):
    answer = bundled_engine.ask(
        "KEA vs SENSEI - how do their approaches differ?", mode="extractive"
    )
    assert [s.title.split(":")[0] for s in answer.sources] == ["KEA", "SENSEI"]
    # each one's method move; before, only each one's results sentence was quoted
    assert "proactively coordinated via a switching mechanism [1]" in answer.answer
    assert "SENSEI distills a reward signal of interestingness" in answer.answer


@pytest.mark.slow
def test_three_papers_counted_off_by_ordinals_are_each_found_and_explained(icml_engine):
    answer = icml_engine.ask(POINT_CLOUDS, mode="extractive")
    assert [s.paper_id for s in answer.sources] == [SINPOINT, UOT_UPC, INFOCONS]
    for fact in (
        "It utilizes the Sine function to generate smooth displacements [1]",
        "Our method employs a Neural OT model learning the UOT map using neural networks [2]",
        "decompose the point cloud into 3D concepts",
    ):
        assert fact in answer.answer
