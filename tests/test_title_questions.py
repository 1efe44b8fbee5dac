"""A question that quotes a paper's title ranks that paper first (:mod:`paperchat.retrieve.titles`)."""

from __future__ import annotations

import pytest

from paperchat.retrieve.titles import titled

TITLES = {
    "qzM37nOy3N": "Inverse problems with experiment-guided AlphaFold",
    "p-flow": "Flow Q-Learning",
    "p-long": "Flow Q-Learning for Offline Control",
}


@pytest.mark.parametrize(
    "question, ids",
    [
        ("Inverse problems with experiment-guided AlphaFold?", ["qzM37nOy3N"]),
        ('What does "inverse problems with experiment guided alphafold" propose?', ["qzM37nOy3N"]),
        # a short title is a common phrase in lower case: only its own capitals name it
        ("What does Flow Q-Learning propose?", ["p-flow"]),
        ("Is there a flow q-learning method for robots?", []),
        # the longer title a question quotes comes first
        ("Summarize Flow Q-Learning for Offline Control", ["p-long", "p-flow"]),
        # words of a title, not as one run
        ("Which AlphaFold paper solves inverse problems guided by experiments?", []),
        # a word that only starts with a title's last word is not that word
        ("Flow Q-Learningish ideas", []),
    ],
)
def test_the_titles_a_question_quotes(question, ids):
    assert titled(question, TITLES) == ids


@pytest.mark.slow
@pytest.mark.parametrize(
    "question, paper_id",
    [
        # each ranked second to fourth before: a paper with more of the question's words came first
        ("Inverse problems with experiment-guided AlphaFold?", "qzM37nOy3N"),
        ("Understanding the Logic of Direct Preference Alignment through Logic", "4T7gFdhsPJ"),
        ("Maximum Entropy Reinforcement Learning with Diffusion Policy", "CpjKXe9rY7"),
        ('What does "LLMs Can Reason Faster Only If We Let Them" propose?', "uTv5rOPZr4"),
    ],
)
def test_a_pasted_title_ranks_its_paper_first(icml_engine, question, paper_id):
    hits = icml_engine.retrieve(question, top_k=5)
    assert hits[0].paper_id == paper_id
    answer = icml_engine.ask(question, mode="extractive")
    assert answer.sources and answer.sources[0].paper_id == paper_id
