"""A question that quotes a paper's title ranks that paper first (:mod:`paperchat.retrieve.titles`)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from paperchat.retrieve.titles import (
    about_title,
    capitalized_runs,
    head_names,
    named_by_head,
    titled,
)

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


def test_the_runs_of_capitals_a_question_may_quote_a_title_head_with():
    assert capitalized_runs("Who wrote Clients Collaborate?") == ["Clients Collaborate"]
    # small words inside, a list's parts, no question word, no run of one capitalised word
    assert capitalized_runs("How do QuantSpec and Prune 'n Predict differ?") == [
        "QuantSpec and Prune 'n Predict",
        "Prune 'n Predict",
    ]
    assert capitalized_runs("What Is CROW?") == []
    assert capitalized_runs("Who wrote the CROW paper?") == []


def test_a_question_about_a_title_head_its_abstract_never_writes_asks_for_the_paper():
    papers = {
        "5g6LPR0Dlx": ("Prune 'n Predict: Optimizing LLM Decision-making", "We propose CROQ ..."),
        "zz": ("Flow Q-Learning", "We present flow Q-learning (FQL) ..."),
    }
    assert about_title("What is Prune 'n Predict?", papers) == "5g6LPR0Dlx"
    assert about_title("What does Prune 'n Predict propose?", papers) == "5g6LPR0Dlx"
    # a detail asked, or a name the abstract writes, is answered from its sentences
    assert about_title("Which benchmarks does Prune 'n Predict use?", papers) is None
    assert about_title("What does Flow Q-Learning propose?", papers) is None


@pytest.mark.slow
def test_a_title_head_retrieval_did_not_rank_names_its_paper(icml_engine):
    # a course TA's session: answered with the authors of SPMC, "Distilling the Knowledge in Data Pruning"
    # and "Measuring Variable Importance ...", whose abstracts share the heads' words
    for question, paper_id in (
        ("Who wrote Clients Collaborate?", "C7dmhyTDrx"),
        ("Who wrote Prune 'n Predict?", "5g6LPR0Dlx"),
        ("Who wrote Quantifying Treatment Effects?", "I8jMuUDOxK"),
    ):
        answer = icml_engine.ask(question, mode="extractive")
        assert [s.paper_id for s in answer.sources] == [paper_id], question
    answer = icml_engine.ask("Who wrote Clients Collaborate?", mode="extractive")
    assert "Yuecheng Li" in answer.answer
    # its abstract never writes "Prune 'n Predict": its summary, where it had abstained
    answer = icml_engine.ask("What is Prune 'n Predict?", mode="extractive")
    assert not answer.abstained and [s.paper_id for s in answer.sources] == ["5g6LPR0Dlx"]
    assert "conformal revision of questions" in answer.answer
    # two titles quoted in a comparison: each answers for itself (it had quoted the second only)
    answer = icml_engine.ask(
        "How do Towards a Mechanistic Explanation of Diffusion Model Generalization and Diffusion "
        "models for Gaussian distributions: Exact solutions and Wasserstein errors differ?",
        mode="extractive",
    )
    assert [s.paper_id for s in answer.sources] == ["Hrp6jRIKdX", "bxYbxzCI2R"]
    # a label and a title head: both, in the question's order (it had quoted QuantSpec only)
    answer = icml_engine.ask("How do QuantSpec and Prune 'n Predict differ?", mode="extractive")
    assert [s.paper_id for s in answer.sources] == ["7SHbJENgHX", "5g6LPR0Dlx"]
    assert "4-bit quantized KV cache" in answer.answer and "(CROQ)" in answer.answer


@pytest.mark.slow
def test_summarize_by_a_title_head_and_compare_the_papers_the_filters_let_through(icml_engine):
    from paperchat.retrieve.filters import Filters

    # "no paper's title matches 'Clients Collaborate'"; "Prune 'n Predict" had summarized seven pruning papers
    for target, paper_id in (
        ("Clients Collaborate", "C7dmhyTDrx"),
        ("Prune 'n Predict", "5g6LPR0Dlx"),
    ):
        answer = icml_engine.summarize(target)
        assert [s.paper_id for s in answer.sources] == [paper_id], target
        assert f'"{target}" read as the paper' in answer.notes[0]
    # "Compare them." over the two papers of --paper had abstained; a detail neither gives still does
    both = Filters(papers=("Hrp6jRIKdX", "bxYbxzCI2R"))
    for question in ("Compare them.", "How do they differ?"):
        answer = icml_engine.ask(question, mode="extractive", filters=both)
        assert sorted(s.paper_id for s in answer.sources) == ["Hrp6jRIKdX", "bxYbxzCI2R"], question
        assert "read as about the 2 papers the filters let through" in answer.notes
    assert icml_engine.ask("What datasets do they use?", mode="extractive", filters=both).abstained
