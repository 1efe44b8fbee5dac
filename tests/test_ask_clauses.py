"""A comparison's ask of several questions: each question gets the sentence of the paper that fits it
(issue 17, twenty-fourth round).

"How many queries does the flipper need, what's added to the fake chats, and how fast is the helper?" asks
three things, one of each paper, by nicknames no label rule reads. :func:`ask_clauses` cuts the ask into its
questions; the answerer then scores the compared papers' sentences against each as a question of its own
(a number rises for "how many"). Questions written for these tests (none is in an eval set).
"""

from __future__ import annotations

import pytest

from paperchat.answer.clauses import ask_clauses


@pytest.mark.parametrize(
    ("ask", "clauses"),
    [
        (
            "How many qubits does the first chip use, what error rate does the second reach, and how "
            "long does the third take to calibrate?",
            [
                "How many qubits does the first chip use",
                "what error rate does the second reach",
                "how long does the third take to calibrate",
            ],
        ),
        (
            "Which robot arm did they test on and which simulator trained the grasping policy?",
            ["Which robot arm did they test on", "which simulator trained the grasping policy"],
        ),
        (
            "What does each save in memory; how fast is each at decoding?",
            ["What does each save in memory", "how fast is each at decoding"],
        ),
        # what opens the question before its ask is no question of its own
        (
            "Two protein papers: one folds, one docks. Which force field does the first use, and how "
            "fast is the second?",
            ["Which force field does the first use", "how fast is the second"],
        ),
        # one question: "and" joins two nouns, not two questions
        (
            "What speedup and memory saving does each report on long documents?",
            ["What speedup and memory saving does each report on long documents"],
        ),
        # a piece with fewer than two content terms is no question of its own
        (
            "Which benchmark suite, and why?",
            ["Which benchmark suite"],
        ),
    ],
)
def test_an_ask_is_cut_into_its_questions(ask, clauses):
    assert ask_clauses(ask) == clauses


def test_each_question_of_a_comparison_ask_gets_the_sentence_that_answers_it(bundled_engine):
    # the paragraph for the supply-chain paper quoted only its problem statement before; "how much faster is
    # the simulator" is answered by its speedup, which now joins it
    res = bundled_engine.ask(
        "Two time-series papers: one pretrains a lightweight forecaster on periodic patterns, the other "
        "speeds up policy simulation for supply chains. How many parameters does the forecaster need, "
        "and how much faster is the simulator?",
        mode="extractive",
    )
    ids = [s.paper_id for s in res.sources]
    assert ids == [
        "p-34c64e0fe1f8",
        "p-e126ba626a72",
    ]  # LightGTS, the supply-chain simulation paper
    assert (
        "We demonstrate practical speedups of 400x on large-scale SCO problems even with a single GPU, and "
        "also demonstrate practical efficacy in other RL environments [2]"
    ) in res.answer


def _paper(pid: str, text: str, share: float):
    from paperchat.answer.focus import PaperText

    return PaperText(pid, "", text, cos=0.3, share=share)


def test_a_comparison_read_off_its_count_or_each_covers_that_many_papers():
    # a run-on question (dictated, no punctuation) whose papers no rule cuts apart: "three ... papers" with
    # words between still asks for three, "what does each method ..." for several (general-w)
    from paperchat.answer import intent as it
    from paperchat.answer.subjects import subject_papers

    papers = [
        _paper("a", "Continual robust training adapts to new attacks over time.", 1.0),
        _paper("b", "A wolf pack attack on cooperative multi agent policies.", 0.8),
        _paper("c", "Ensemble diversity makes adversarial training robust.", 0.6),
    ]
    three = (
        "three adversarial robustness papers the continual training one for new attacks the wolf pack "
        "multi agent one and the ensemble diversity one whats the idea of each"
    )
    assert subject_papers(three, papers, it.read_question(three)) == ["a", "b", "c"]
    each = "continual robust training for new attacks then the wolf pack one what does each method target"
    assert subject_papers(each, papers, it.read_question(each)) == ["a", "b"]
    # "compared with the existing methods" is the paper's own baseline, not a second paper
    own = "How does continual robust training compare with the existing methods on new attacks?"
    assert subject_papers(own, papers, it.read_question(own)) == []
