"""A postdoc's long number questions (issue 17, thirteenth round, general-o).

"By what factor were violations reduced" asks a change, not the value of a setting called "factor"; a
question inside a statement ("... rather than how much data there is") asks nothing; "I need the paper
showing ..." asks for a paper; "..., as a percentage?" is answered only by a sentence that states one;
"compared with standard pre-training" is the paper's own baseline, not a second paper. Questions and
sentences written for these tests (none is in an eval set); pure functions, no store.
"""

from __future__ import annotations

from types import SimpleNamespace as S

import pytest

from paperchat.answer import intent as it
from paperchat.answer.counts import amount_sentences
from paperchat.answer.subjects import subject_papers


def test_by_what_factor_asks_a_change_not_a_setting():
    question = "For the safe-RL planner, roughly by what factor were constraint violations reduced?"
    assert it.read_question(question).kind == it.QUANTITY
    assert it.setting_noun(question) is None
    assert (
        it.setting_noun("What scaling factor did they use for the residual branch?")
        == "scaling factor"
    )


def test_a_question_inside_a_statement_asks_nothing():
    question = (
        "I need the paper showing that compositional generalization comes from how varied the "
        "training pairs are rather than how much data there is."
    )
    assert it.read_question(question).kind == it.FIND
    assert it.read_question("How many samples are there in the benchmark?").kind == it.QUANTITY


def test_is_there_an_attack_or_a_method_that_asks_for_a_paper():
    # an area chair's "Is there an attack that removes audio watermarks ...?" had been read as a general
    # question, and its answer opened with a sentence that does not name its paper
    for question in (
        "Is there an attack that removes audio watermarks from AI-generated speech?",
        "Is there a training-free method that prunes vision tokens?",
        "Is there a new dataset of annotated surgical videos?",
    ):
        assert it.read_question(question).kind == it.FIND


def _sentences(*texts):
    return [S(text=t, role="result") for t in texts]


def test_an_amount_asked_as_a_percentage_needs_a_percentage():
    question = "How much did FooRetrain cut the total retraining cost, as a percentage?"
    cands = _sentences(
        "FooRetrain outperforms existing baselines on 7 datasets.",
        "It lowers the total cost by $18.5$\\% relative to the best baseline.",
    )
    assert amount_sentences(cands, question) == cands[1:]
    assert amount_sentences(cands[:1], question) == []
    assert amount_sentences(cands[:1], "How much did FooRetrain cut the total cost?") == cands[:1]


@pytest.mark.parametrize(
    "baseline", ["standard pre-training", "the baselines", "vanilla fine-tuning"]
)
def test_a_comparison_with_the_papers_own_baseline_names_no_second_paper(baseline):
    papers = [
        S(
            paper_id="p1",
            full_text="Immunization via the condition number of the Hessian.",
            share=1.0,
            label="Immunization",
        ),
        S(
            paper_id="p2",
            full_text="Pre-training harmful task condition number deep nets.",
            share=0.5,
            label="Other",
        ),
    ]
    question = f"What condition number did the immunized deep nets reach, compared with {baseline}?"
    assert subject_papers(question, papers, it.read_question(question)) == []
