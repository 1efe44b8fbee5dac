"""Superlatives over the stored metadata ("Which paper has the most authors?", "Who has the most papers?"): a
break-it session's "Which paper has the most authors?" had quoted an abstract about desk-rejection limits."""

from __future__ import annotations

import pytest

from paperchat.answer import superlatives as sup
from paperchat.ingest.records import PaperRecord
from paperchat.retrieve.filters import Filters


@pytest.mark.parametrize(
    "question,kind,topic,first",
    [
        ("Which paper has the most authors?", sup.MOST_AUTHORS, "", False),
        (
            "How many authors does the paper with the most authors have?",
            sup.MOST_AUTHORS,
            "",
            False,
        ),
        ("which work lists the largest number of co-authors", sup.MOST_AUTHORS, "", False),
        ("Which paper has the fewest authors?", sup.FEWEST_AUTHORS, "", False),
        # a topic narrows them (a reading break-it session: it had been ignored)
        (
            "Which paper on diffusion models has the most authors?",
            sup.MOST_AUTHORS,
            "diffusion models",
            False,
        ),
        ("Which diffusion paper has the fewest authors?", sup.FEWEST_AUTHORS, "diffusion", False),
        ("Which papers have only one author?", sup.ONE_AUTHOR, "", False),
        ("How many papers have a single author?", sup.ONE_AUTHOR, "", False),
        ("Which papers are single-authored?", sup.ONE_AUTHOR, "", False),
        ("Who has the most papers?", sup.MOST_PAPERS, "", False),
        ("Which author wrote the most papers at ICML 2025?", sup.MOST_PAPERS, "", False),
        ("who are the most prolific authors", sup.MOST_PAPERS, "", False),
        (
            "Who has the most papers on diffusion models?",
            sup.MOST_PAPERS,
            "diffusion models",
            False,
        ),
        ("Which author has the most first-author papers?", sup.MOST_PAPERS, "", True),
    ],
)
def test_the_superlative_a_question_asks(question, kind, topic, first):
    assert sup.superlative_in(question) == sup.Superlative(kind, topic, first)


@pytest.mark.parametrize(
    "question",
    [
        "Which method uses the most parameters?",
        "Which paper has the most citations?",
        "How many authors does ConfPO have?",
        "Which papers did Sergey Levine write?",
        "What gives the most improvement on GSM8K?",
    ],
)
def test_other_questions_are_not_superlatives(question):
    assert sup.superlative_in(question) is None


RECORDS = {
    "a": PaperRecord("a", title="Alpha", authors=["Ada Li", "Bo Chen", "Cy Wu"], source_index=1),
    "b": PaperRecord("b", title="Beta", authors=["Bo Chen"], source_index=2),
    "c": PaperRecord("c", title="Gamma", authors=["Bo Chen", "Ada Li"], source_index=3),
    "d": PaperRecord("d", title="Delta", authors=["Dee Ng"], source_index=4),
    "e": PaperRecord("e", title="Eps", authors=[], source_index=5),
}


def test_most_and_fewest_authors_name_the_paper_and_the_number():
    most = sup.author_count_answer("q", sup.MOST_AUTHORS, RECORDS)
    assert (
        most.answer == 'Of the 4 stored papers with authors, "Alpha" has the most authors: 3 [1].'
    )
    assert [s.paper_id for s in most.sources] == ["a"] and most.count == 1  # papers named
    assert most.notes == ["1 stored papers have no authors and are left out"]
    fewest = sup.author_count_answer("q", sup.FEWEST_AUTHORS, RECORDS, " from 2025")
    assert fewest.answer.splitlines() == [
        "Of the 4 stored papers from 2025 with authors, 2 have the fewest authors, 1 author each:",
        '"Beta" is by Bo Chen [1].',
        '"Delta" is by Dee Ng [2].',
    ]
    assert [s.paper_id for s in fewest.sources] == ["b", "d"] and fewest.count == 2
    one = sup.author_count_answer("q", sup.ONE_AUTHOR, RECORDS, ' holding "x"')
    assert (
        one.answer.splitlines()[0]
        == 'Of the 4 stored papers holding "x" with authors, 2 have a single author:'
    )
    assert one.count == 2


def test_the_most_prolific_author_is_named_with_the_next_and_their_papers_cited():
    answer = sup.prolific_answer("q", RECORDS)
    assert answer.answer.splitlines() == [
        "Bo Chen has the most stored papers: 3; next: Ada Li (2), Cy Wu (1), Dee Ng (1).",
        '"Alpha" is by Bo Chen and 2 co-authors [1].',
        '"Beta" is by Bo Chen [2].',
        '"Gamma" is by Bo Chen and 1 co-author [3].',
    ]
    assert [s.paper_id for s in answer.sources] == ["a", "b", "c"] and answer.count == 3
    first = sup.prolific_answer("q", RECORDS, first=True)
    assert first.answer.splitlines() == [
        "Bo Chen has the most stored first-author papers: 2; next: Ada Li (1), Dee Ng (1).",
        '"Beta" is by Bo Chen [1].',
        '"Gamma" is by Bo Chen and 1 co-author [2].',
    ]


def test_superlatives_on_the_bundled_store(bundled_engine):
    most = bundled_engine.ask("Which paper has the most authors?", mode="extractive")
    assert most.answer == (
        'Of the 38 stored papers, "From Uncertain to Safe: Conformal Adaptation of Diffusion Models for Safe '
        'PDE Control" has the most authors: 11 [1].'
    )
    assert [s.paper_id for s in most.sources] == ["p-9289acde1a4c"] and most.count == 1
    # each of the 38 papers' 180 authors has one paper: a tie of all of them, said, with no one listed
    prolific = bundled_engine.ask("Who has the most papers?", mode="extractive")
    assert (prolific.answer, prolific.count, prolific.sources) == (
        "180 authors have the most stored papers: 1 each.",
        1,
        [],
    )
    # through a filter: only the filtered papers are read
    one = bundled_engine.ask(
        "Which paper has the most authors?", mode="extractive", filters=Filters(author="Leskovec")
    )
    assert [s.paper_id for s in one.sources] == ["p-1d90af2b1c95"] and one.count == 1
    none = bundled_engine.ask("Which paper has the most authors in 2019?", mode="extractive")
    assert none.abstained and none.notes == ["no stored paper from 2019"]
