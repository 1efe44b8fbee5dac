"""A figure a "which paper" question gives names the paper stating it (:mod:`paperchat.answer.figures`; a
notebook user's session: "Which paper achieves a 7x speedup for Hamiltonian prediction?" had cited
TraceGrad, which states no speedup, and "1.73x" had cited QuantSpec and FlatQuant's "1.7x")."""

from __future__ import annotations

import pytest

from paperchat.answer.figures import given_figures, states_figures


def test_the_figures_a_question_gives():
    assert given_figures("Which paper gets a 2.1x speedup and 40% less memory?") == [
        ("2.1", "x"),
        ("40", "%"),
    ]
    assert given_figures("Which paper is 12× faster, or 3 times?") == [("12", "x"), ("3", "x")]
    assert given_figures("Which paper uses GPT-4 and 8B models?") == []


@pytest.mark.parametrize(
    "text, figure, states",
    [
        ("up to a 7x speedup over existing models.", ("7", "x"), True),
        ("up to 1.7x decoding speedup", ("7", "x"), False),  # not "1.7x"
        ("a speedup of 7.5×", ("7", "x"), False),
        ("up to 1.73$\\times$ speedup", ("1.73", "x"), True),
        ("speedups upto $\\sim2.5\\times$", ("2.5", "x"), True),
        ("cuts the error by 90\\% on", ("90", "%"), True),
    ],
)
def test_an_abstract_states_a_figure_however_it_writes_the_unit(text, figure, states):
    assert states_figures(text, [figure]) is states


@pytest.mark.slow
def test_a_which_paper_question_cites_the_paper_stating_its_figure(icml_engine):
    for question, paper_id, figure in (
        (
            "Which paper reports up to a 7x speedup for Hamiltonian matrix prediction?",
            "K3lykWhXON",
            "7x",
        ),
        ("Which decoding paper reports a 1.73x speedup?", "VnO2GEpmlb", "1.73$\\times$"),
        ("Which paper gets a 2.1x speedup with TinyLLaMA?", "oZM5g4IvmS", "2.1x"),
    ):
        answer = icml_engine.ask(question, mode="extractive")
        assert [s.paper_id for s in answer.sources] == [paper_id], question
        assert figure in answer.answer, question
    # a figure no cited paper states is said so (the verifying helper: "5x" cited TraceGrad with no word)
    answer = icml_engine.ask(
        "Which paper achieves a 5x speedup for Hamiltonian prediction?", mode="extractive"
    )
    assert "no cited paper states 5x: check the figure the question gives" in answer.notes
