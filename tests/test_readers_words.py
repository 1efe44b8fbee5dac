"""Questions as a methods reader, a numbers hunter and an international researcher typed them (issue 17,
forty-first round): a paper compared with the baseline its own abstract names, short chat follow-ups, British
spellings, a plural verb after "which paper", a yes/no question's verb written as its synonym, a question
asking what a paper avoids, a dataset name written with its size.

Questions written for these tests (none is in an eval set), asked of the 2,740-paper ICML 2025 store
(``icml_store``) where a paper is named.
"""

from __future__ import annotations

import pytest

from paperchat.answer.subjects import missing_names
from paperchat.chat.ellipsis import carried_on
from paperchat.store.bm25 import BM25Index
from paperchat.store.spellings import accented, american

FLATQUANT = "FlatQuant ... it achieves less than 1% accuracy drop for W4A4 quantization on the LLaMA-3-70B model"


@pytest.mark.parametrize(
    ("reply", "asked"),
    [
        ("and on which models?", "On which models, in FlatQuant?"),
        ("whats the accuracy drop?", "Whats the accuracy drop, in FlatQuant?"),
        ("also the quantization", "The quantization, in FlatQuant?"),
        # a word FlatQuant's abstract does not write: a new search ("what about diffusion?" has no "and")
        ("what is the reward model?", None),
        # a topic FlatQuant does not write, after "and" too (the verifier's)
        ("and what about graph transformers?", None),
        ("and what about the accuracy drop?", "What about the accuracy drop, in FlatQuant?"),
        # asking for papers, not about the one shown
        ("and any other papers on it?", None),
        ("how many papers on quantization?", None),
        # a name: its own paper
        ("and on which models does SpinQuant run?", None),
        ("and how does it compare with the ones in the second list of papers I asked about?", None),
    ],
)
def test_a_short_follow_up_is_asked_of_the_paper_just_shown(reply, asked):
    assert carried_on(reply, ["FlatQuant"], lambda: [FLATQUANT]) == asked


def test_a_short_follow_up_after_two_papers_names_both():
    texts = ["QuantSpec reports a speedup on long contexts.", "BanditSpec reports a speedup too."]
    assert carried_on("and the speedup?", ["QuantSpec", "BanditSpec"], lambda: texts) == (
        "The speedup, in QuantSpec and BanditSpec?"
    )
    # a list of four: which one?
    assert carried_on("and the speedup?", ["a", "b", "c", "d"], lambda: texts * 2) is None


def test_a_dataset_name_is_in_its_sized_form_but_not_in_a_version():
    assert missing_names("What does it save on ImageNet?", ["on the ImageNet-1K task"]) == []
    assert missing_names("What does it reach on ImageNet?", ["ImageNet-21k pretraining"]) == []
    assert missing_names("Is KEA fast?", ["KEA-2 is fast"]) == ["KEA"]


def test_a_british_spelling_and_a_word_without_its_accents_are_read_as_papers_write_them():
    docs = [
        "normalizing flows for density estimation",
        "continuous normalizing flows with rejection",
        "a normalising flow sampler",
        "behaviour cloning from demonstrations",
        "noise in the labels",
        "a Schrödinger bridge between two marginals",
    ]
    index = BM25Index.build([f"p{i}" for i in range(len(docs))], docs, "test")
    assert american(index, "normalising") == "normalizing"  # 2 papers write it, 1 the British form
    assert american(index, "behaviour") is None  # no paper writes "behavior"
    assert american(index, "noise") is None
    # "expertise" is no British "-ise": "expertize" would stem to "expert", which papers write
    expert = BM25Index.build(
        ["e1", "e2", "e3"], ["expert models", "an expert", "domain expertise"], "t"
    )
    assert american(expert, "expertise") is None
    assert accented(index, "Schrodinger") == "schrödinger" and accented(index, "bridge") is None
    asked, fixes = index.respell("which papers use normalising flows or a Schrodinger bridge")
    assert asked == "which papers use normalizing flows or a schrödinger bridge"
    assert fixes == ["'normalising' as 'normalizing'", "'Schrodinger' as 'schrödinger'"]


def test_a_paper_compared_with_the_baseline_its_abstract_names_answers(icml_engine):
    # a methods reader: SeedLoRA (7QH48TtFZX), a paper on LoRA, had been quoted for WeGeFT
    answer = icml_engine.ask("What is new in WeGeFT compared to LoRA?", mode="extractive")
    assert [s.paper_id for s in answer.sources] == ["K0sv5T2usb"]
    assert (
        "learns to generate fine-tuning weights directly from the pretrained weights"
        in answer.answer
    )


def test_chat_follow_ups_with_no_pronoun_stay_with_the_paper(icml_engine):
    from paperchat.chat.session import ChatSession

    session = ChatSession(icml_engine, mode="extractive")
    session.ask("How much faster is FlatQuant?")
    session.ask("whats the accuracy drop?")
    assert [s.paper_id for s in session.context] == ["uTz2Utym5n"]
    assert "less than 1\\% accuracy drop" in session.last.answer.answer
    session.ask("What is SWE-Gym?")
    session.ask("how many task instances?")
    assert [s.paper_id for s in session.context] == ["Cq1BNvHx74"]
    assert "2,438 real-world Python task instances" in session.last.answer.answer


def test_british_spellings_list_and_summarize_as_the_us_ones(icml_engine):
    answer = icml_engine.ask("which papers use normalising flows", mode="extractive")
    cited = {s.paper_id for s in answer.sources}
    assert {"2uheUFcFsM", "SOwcmZ91Sl", "WMIueIRcAm"} <= cited and len(cited) == 10
    assert "read 'normalising' as 'normalizing'" in answer.notes
    summary = icml_engine.summarize("normalising flows", mode="extractive")
    assert len({s.paper_id for s in summary.sources}) == 10
    assert "read 'normalising' as 'normalizing'" in summary.notes
    # typed without its accent: nine abstracts write "Schrödinger" (it had found no paper on the topic)
    summary = icml_engine.summarize("Schrodinger bridge", mode="extractive")
    assert not summary.abstained and "read 'Schrodinger' as 'schrödinger'" in summary.notes
    assert "RBly0nOr2h" in {
        s.paper_id for s in summary.sources
    }  # Categorical Schrödinger Bridge Matching


def test_which_paper_with_a_plural_verb_lists(icml_engine):
    answer = icml_engine.ask("which paper are about grokking", mode="extractive")
    assert {s.paper_id for s in answer.sources} == {
        "d2qpEYzyyy",
        "FRjRuSWF3e",
        "36hVB7DEB0",
        "lyUJH51URt",
    }


def test_a_verb_written_as_its_synonym_and_an_avoided_assumption(icml_engine):
    answer = icml_engine.ask("Does unMORE need human labels?", mode="extractive")
    assert "does not require human labels" in answer.answer and answer.notes == []
    # "avoiding the low-rank assumption" is SketchTune's answer, not a denied premise
    answer = icml_engine.ask("What assumption does SketchTune avoid?", mode="extractive")
    assert not answer.abstained and [s.paper_id for s in answer.sources] == ["zZXOXhxO6I"]


def test_it_and_an_ordinal_naming_one_paper_are_asked_back(icml_engine):
    # a methods reader: "compare it with the first one" after SpecPrefill's answer compared it with itself
    from paperchat.chat.session import ChatSession

    session = ChatSession(icml_engine, mode="extractive")
    session.ask("What is SpecPrefill?")
    reply = session.ask("compare it with the first one")
    assert reply.text.startswith(
        'Cannot tell which paper you mean: "it" and "the first one" are both '
    )
    assert reply.text.endswith("name the other paper. See /sources.")


def test_a_count_of_papers_asked_of_a_named_paper_is_its_abstracts(icml_engine):
    # a numbers hunter: "How many papers ..." read as a count of stored papers, which no abstract gives
    answer = icml_engine.ask(
        "How many papers must agents replicate in PaperBench?", mode="extractive"
    )
    assert [s.paper_id for s in answer.sources][:1] == ["xF5PuTLPbn"]
    assert answer.answer.startswith("Agents must replicate 20 ICML 2024 Spotlight and Oral papers")
