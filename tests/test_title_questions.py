"""A question that quotes a paper's title ranks that paper first (:mod:`paperchat.retrieve.titles`)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from paperchat.retrieve.titles import head_names, named_by_head, titled

TITLES = {
    "qzM37nOy3N": "Inverse problems with experiment-guided AlphaFold",
    "p-flow": "Flow Q-Learning",
    "p-long": "Flow Q-Learning for Offline Control",
    "SuYO70ZxZX": "Dialogue Without Limits: Constant-Sized KV Caches for Extended Response in LLMs",
    "p-gap1": "Mind the Gap: A Practical Attack on GGUF Quantization",
    "p-gap2": "Mind the Gap: Removing the Modality Gap",
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
        # a title's head, the words before its colon, names its paper (in its own capitals when short) ...
        ("Who wrote Dialogue Without Limits?", ["SuYO70ZxZX"]),
        ("Is there a dialogue without limits?", []),
        # ... unless two titles open with it
        ("What does Mind the Gap propose?", []),
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
        # a chat session: answered for "Aligning Spoken Dialogue Models from User Interactions"
        ("Who wrote Dialogue Without Limits?", "SuYO70ZxZX"),
    ],
)
def test_a_pasted_title_ranks_its_paper_first(icml_engine, question, paper_id):
    hits = icml_engine.retrieve(question, top_k=5)
    assert hits[0].paper_id == paper_id
    answer = icml_engine.ask(question, mode="extractive")
    assert answer.sources and answer.sources[0].paper_id == paper_id


def test_the_names_a_question_may_give_a_paper_by_its_titles_opening():
    assert head_names("What is WATCH? Compare it with R.I.P.") == ["WATCH", "R.I.P.", "R.I.P"]
    # a sentence's capitalised first word is a question word, unless it looks coined
    assert head_names("How does Minerva work?") == ["Minerva"]
    assert head_names("DISCO vs WATCH.") == ["DISCO", "WATCH.", "WATCH"]
    # a word of a longer name is not a name of its own ("CAT Merging" is not the paper "CAT: ...")
    assert head_names("Who wrote CAT Merging?") == []
    assert head_names("Compare WATCH with DISCO") == ["WATCH", "DISCO"]
    records = {
        "w": SimpleNamespace(label="WATCH", title="WATCH: Adaptive Monitoring for AI Deployments"),
        "v": SimpleNamespace(label="VAE", title="Be a Goldfish: Forgetting Bad Conditioning"),
        "s1": SimpleNamespace(label="SAM", title="SAM: one paper"),
        "s2": SimpleNamespace(label="SAM", title="SAM: another paper"),
        "c1": SimpleNamespace(label="CAT", title="CAT: Contrastive Adversarial Training"),
        "c2": SimpleNamespace(label="CAT", title="Data-Driven Selection of Instrumental Variables"),
    }
    # a label the title does not open with (one derived from the abstract) and one two titles open with
    # name no paper; a label another abstract gave its paper does not hide the title that opens with it
    assert named_by_head(["VAE", "SAM", "WATCH", "CAT"], records) == ["w", "c1"]


@pytest.mark.slow
def test_a_paper_named_by_its_titles_opening_is_found_though_its_abstract_never_says_it(
    icml_engine,
):
    # WATCH's abstract never writes "WATCH"; a paper on watch-time predictions ranked first before, and
    # "DISCO" took a paper whose abstract mentions a "DisCo" (a newcomer's break-it session)
    watch, disco = "GMjkK2CKx5", "6EZ3MDDf6p"
    assert icml_engine.retrieve("What is WATCH?", top_k=5)[0].paper_id == watch
    answer = icml_engine.ask("What is WATCH?", mode="extractive")
    assert [s.paper_id for s in answer.sources] == [watch]
    for question in ("How do DISCO and WATCH differ?", "Compare DISCO and WATCH."):
        answer = icml_engine.ask(question, mode="extractive")
        assert [s.paper_id for s in answer.sources] == [disco, watch], question
    # "CAT Merging" is not "CAT: Contrastive Adversarial Training", whose title opens with "CAT" (a user's
    # test at conference scale), and a name typed without its accent is the name ("PokeChamp")
    for question, paper_id in (
        ("Who wrote CAT Merging?", "zy7Jw91tdh"),
        ("What is CAT?", "5of0l7eUau"),
        ("What win rate does PokeChamp achieve?", "SnZ7SKykHh"),
    ):
        answer = icml_engine.ask(question, mode="extractive")
        assert [s.paper_id for s in answer.sources] == [paper_id], question
