"""Comparisons that describe a paper where they ask about it (issue 17, sixteenth round).

"What does A use to limit which weights change, and what does B use instead of the missing data?" adds to
each labelled paper's description; "Both papers ... . What does the first use ..., and what does the
second ...?" describes its papers only there. Questions written for these tests (none is in an eval
set); pure functions, no store.
"""

from __future__ import annotations

import pytest

from paperchat.answer.labels import label_mentions, labelled_clauses
from paperchat.answer.mentions import split_mentions, topic


def _mentions(question: str) -> list[tuple[str | None, str]]:
    return [(m.name, m.text) for m in split_mentions(question)]


def test_a_letter_labels_the_ask_clause_of_its_paper():
    question = (
        "Paper A teaches a drone to land on moving boats; Paper B maps coral reefs from satellite "
        "photos. What sensor does A rely on, and how many reefs does B cover?"
    )
    found = split_mentions(question)
    assert labelled_clauses(question, found) == {
        0: "What sensor does rely on",
        1: "how many reefs does cover",
    }


def test_an_ordinal_labels_the_ask_clause_and_a_clause_of_two_papers_is_no_ones():
    question = (
        "Two papers on weather: the first and the second both forecast rain. Which radar does the "
        "second one's model read, and how far ahead does the first forecast?"
    )
    assert labelled_clauses(question) == {
        0: "how far ahead does forecast",
        1: "Which radar does model read",
    }


def test_a_sentence_start_article_is_no_letter_label():
    question = "Paper A counts birds. A second study counts bats; what does B count them with?"
    # "A second study" is an ordinal, not the letter A
    assert labelled_clauses(question) == {
        0: "counts birds",
        1: "counts bats what does count them with",
    }


def test_papers_described_only_in_their_asks_are_one_mention_each_with_the_topic_before():
    question = (
        "Both papers compress point clouds for self-driving cars. Which codec does the first build "
        "on, and how many bits per point does the second need?"
    )
    found = split_mentions(question)
    assert [(m.name, m.text) for m in found] == [
        (None, "Which codec does the first build on"),
        (None, "how many bits per point does the second need"),
    ]
    assert found == label_mentions(question)
    assert topic(question, found) == "Both papers compress point clouds for self-driving cars"


def test_one_labelled_ask_is_no_comparison():
    question = "Both papers compress point clouds. How many bits per point does the second need?"
    assert label_mentions(question) == []
    assert split_mentions(question) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("question", "gold", "facts"),
    [
        (  # described only where it asks: one search a labelled clause, with the topic before it
            "Both papers improve weather forecasts with deep learning. Which model does the first "
            "fine-tune with its new loss, and how many hours ahead does the second forecast rainfall?",
            ["YNh77OLRid", "9cOtYlD5UA"],
            ["GraphCast", "12 hours"],
        ),
        (  # labelled by letter, the ask adding to each description
            "Paper A makes antibodies bind tighter using only sequences; Paper B designs proteins that "
            "latch onto arbitrary targets. What does A use so its two predictors teach each other, and "
            "how many complexes are in B's dataset?",
            ["IEyNrmICas", "gTYzm0Qchr"],
            ["teach the structure-based predictor", "706,360"],
        ),
        (  # a joined frame's two described slots, each asked of by former / latter
            "On LLM watermarks, how do the end-to-end logits perturbation approach and the framework "
            "that strips n-gram watermarks out compare: what stands in for the non-differentiable steps "
            "in the former, and what probing strategy does the latter use?",
            ["9sNiCqi2RD", "5dF4mqVVqK"],
            ["online-prompting technique", "random selection probing"],
        ),
        (  # papers described in one sentence, asked about by former / latter in the next
            "Two watermark papers: one strips watermarks out of generated text, one tells spoofed text "
            "from genuinely watermarked text. What probing strategy does the former use, and what does "
            "the latter find spoofing attacks leave behind?",
            ["5dF4mqVVqK", "hSCxEZLvxI"],
            ["random selection probing", "observable artifacts"],
        ),
    ],
)
def test_labelled_papers_are_each_cited_with_the_asked_fact(icml_engine, question, gold, facts):
    answer = icml_engine.ask(question, mode="extractive")
    assert [s.paper_id for s in answer.sources][:2] == gold
    for fact in facts:
        assert fact in answer.answer


def test_papers_pointed_at_by_the_kind_of_thing_they_contribute_are_each_described():
    question = (
        "Between the sampling procedure that reweights rare bird calls before training and the "
        "finite-sample study of acoustic domain shift, which datasets does each use?"
    )
    assert _mentions(question) == [
        (None, "the sampling procedure that reweights rare bird calls before training"),
        (None, "the finite-sample study of acoustic domain shift"),
    ]


def test_a_copula_does_not_start_a_second_paper():
    question = (
        "Compare two results on glacier mapping. The first is a method for segmenting ice from radar "
        "images. The second is an algorithm for tracking calving fronts over decades. What does each "
        "report?"
    )
    assert [text for _name, text in _mentions(question)] == [
        "The first is a method for segmenting ice from radar images",
        "The second is an algorithm for tracking calving fronts over decades",
    ]


def test_enumerated_papers_are_the_mentions_and_a_reference_in_the_ask_labels_its_clause():
    question = (
        "For three cited works — (i) the planner that schedules drone deliveries around storms, (ii) "
        "a benchmark of warehouse robots picking soft objects, and (iii) The controller learned from "
        "a single demonstration: what horizon does (i) plan over, and which gripper is used in (ii)?"
    )
    found = split_mentions(question)
    assert [(m.name, m.text) for m in found] == [
        (None, "the planner that schedules drone deliveries around storms"),
        (None, "a benchmark of warehouse robots picking soft objects"),
        (None, "The controller learned from a single demonstration"),
    ]
    assert labelled_clauses(question, found) == {
        0: "what horizon does plan over",
        1: "which gripper is used in",
    }


def test_an_enumerated_ask_is_no_paper():
    question = (
        "The applicant cites FrostNet and a sampler that draws snowfall fields from a diffusion prior; "
        "by comparison, could the tool state (i) which loss FrostNet uses and (ii) what resolution the "
        "sampler reaches?"
    )
    assert _mentions(question) == [
        ("FrostNet", "FrostNet"),
        (None, "a sampler that draws snowfall fields from a diffusion prior"),
    ]


@pytest.mark.parametrize(
    "question",
    [
        # enumerated asks about one paper, the first led by a question word
        "For the framework that routes parcels with a graph policy, state (i) how many depots it was "
        "tested on, (ii) the saving over greedy routing, and (iii) the gain from re-planning.",
        # "in" leads the one paper asked about, and a comparison "versus" is inside it
        "In the analysis of why dropout helps shallow versus deep networks, which quantity explains it?",
        # a kind of thing with a baseline's word is the asker's baseline, and "respectively" pairs two figures
        "For the segmentation approach that weighs decomposed ViT components, by how much does it beat "
        "the state-of-the-art CD-FSS method in the 1-shot and 5-shot settings, respectively?",
        # "by comparison with" its baselines
        "By comparison with existing multi-agent schemes, what improvement does the paradigm that "
        "coordinates agents through a Nash equilibrium achieve?",
    ],
)
def test_one_paper_asked_about_in_a_comparisons_words_is_no_comparison(question):
    assert split_mentions(question) == []


def test_the_stages_of_one_method_are_no_papers():
    question = (
        "In the two-stage image codec framework, what network is built in the first stage and what "
        "model is added in the second stage?"
    )
    assert labelled_clauses(question) == {}
    assert split_mentions(question) == []


def test_each_described_paper_is_searched_with_the_topic_its_description_and_its_ask():
    # the queries complete_hits searches, which the question encoder is also trained on
    from paperchat.answer.subjects import described_queries

    question = (
        "Paper A teaches a drone to land on moving boats; Paper B maps coral reefs from satellite "
        "photos. What sensor does A rely on, and how many reefs does B cover?"
    )
    assert described_queries(question) == [
        (0, "Paper A teaches a drone to land on moving boats What sensor does rely on"),
        (1, "Paper B maps coral reefs from satellite photos how many reefs does cover"),
    ]
    assert described_queries("What sensor does the boat-landing drone paper rely on?") == []
