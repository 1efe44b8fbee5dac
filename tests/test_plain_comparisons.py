"""Comparisons told in plain words (issue 17, fourteenth round, general-r).

Papers labelled "Paper A ...; Paper B ...", counted "The first ...; the second ..." or introduced "One study
...; another ..." are each a described paper; "the work on X together with Y and the work on Z" is two
descriptions, not one that runs across "and the"; and a count no sentence gives declines one ask of a
comparison that asks several things, not the whole answer. Questions written for these tests (none is in
an eval set); pure functions, no store.
"""

from __future__ import annotations

import pytest

from paperchat.answer.counts import one_ask_of_several
from paperchat.answer.mentions import split_mentions


def _mentions(question: str) -> list[tuple[str | None, str]]:
    return [(m.name, m.text) for m in split_mentions(question)]


@pytest.mark.parametrize(
    ("question", "first", "second"),
    [
        (
            "Paper A teaches a drone to land on moving boats; Paper B maps coral reefs from satellite "
            "photos. What sensor does A use, and how many reefs does B cover?",
            "Paper A teaches a drone to land on moving boats",
            "Paper B maps coral reefs from satellite photos",
        ),
        (
            "The first paper shrinks a speech model for phones; the second translates sign language "
            "from video. How small is the first, and which dataset does the second use?",
            "The first paper shrinks a speech model for phones",
            "the second translates sign language from video",
        ),
        (
            "One study grows crystals with a learned simulator; another predicts how proteins fold in "
            "cells. What does each one contribute?",
            "One study grows crystals with a learned simulator",
            "another predicts how proteins fold in cells",
        ),
    ],
)
def test_papers_told_apart_by_label_or_order_are_each_described(question, first, second):
    assert _mentions(question) == [(None, first), (None, second)]


def test_a_description_does_not_run_across_and_the():
    question = (
        "Between the work on pricing electricity together with the weather forecast and the work on "
        "routing delivery vans, which one uses reinforcement learning?"
    )
    assert _mentions(question)[0] == (
        None,
        "the work on pricing electricity together with the weather forecast",
    )


def test_one_labelled_paper_is_no_comparison():
    assert _mentions("Paper A is great. What does it do?") == []


def test_a_count_is_one_ask_of_several_only_in_a_comparison_that_asks_more():
    asks_two = "What quick move does the robot use, and how many people tested the suit?"
    assert one_ask_of_several(asks_two, 2)
    assert not one_ask_of_several("How many GPUs did each one use?", 2)
    assert not one_ask_of_several(asks_two, 1)
