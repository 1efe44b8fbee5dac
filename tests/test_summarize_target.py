"""`summarize TARGET`: a topic that several papers fit is summarized as a topic, even when one title holds its words;
a title chosen for TARGET is named (issue 18, item 12)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from conftest import ICML_JSONL

from paperchat.cli import cli

CROW = (
    "CROW: Eliminating Backdoors from Large Language Models via Internal Consistency Regularization"
)
BACKDOOR = "Backdoor Attacks in Token Selection of Attention Mechanism"
HETERO = "Accelerating LLM Inference with Lossless Speculative Decoding Algorithms for Heterogeneous Vocabularies"


def summarize(store, target: str) -> dict:
    out = CliRunner().invoke(
        cli, ["summarize", target, "--json"], env={"PAPERCHAT_STORE": str(store)}
    )
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


def test_words_of_one_title_that_several_papers_share_are_a_topic(bundled_store):
    # "Backdoor Attacks in Token Selection …" holds both words, but CROW is about backdoor attacks too.
    answer = summarize(bundled_store, "backdoor attacks")
    assert answer["target"] == "backdoor attacks"
    assert [s["title"] for s in answer["sources"][:2]] == [BACKDOOR, CROW]
    assert not any("title match" in n for n in answer.get("notes", []))


def test_a_title_chosen_for_the_target_is_named(bundled_store):
    answer = summarize(bundled_store, "Backdoor Attacks in Token Selection")
    assert [s["title"] for s in answer["sources"]] == [BACKDOOR]
    assert answer["notes"] == [
        f"\"Backdoor Attacks in Token Selection\" read as the paper '{BACKDOOR}' (title match)"
    ]


def test_speculative_decoding_for_llm_inference_is_a_topic(tmp_path):
    """The issue's own example, on a small corpus of real ICML 2025 abstracts: the seven that speak of speculative
    decoding for LLM inference (one title holds all four words) and three on other things."""
    rows = [
        json.loads(line)
        for line in ICML_JSONL.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]

    def says(row, *words):
        text = (row["title"] + " " + row["abstract"]).lower()
        return all(w in text for w in words)

    spec = [r for r in rows if says(r, "speculative decoding", "llm", "inference")]
    other = [r for r in rows if "diffusion" in r["title"].lower()][:3]
    assert len(spec) >= 5 and HETERO in {r["title"] for r in spec}
    corpus = tmp_path / "small.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in spec + other), encoding="utf-8")
    store = tmp_path / "store"
    assert (
        CliRunner()
        .invoke(cli, ["ingest", str(corpus), "--quiet"], env={"PAPERCHAT_STORE": str(store)})
        .exit_code
        == 0
    )

    answer = summarize(store, "speculative decoding for LLM inference")
    cited = [s["title"] for s in answer["sources"]]
    assert len(cited) >= 3 and set(cited) <= {r["title"] for r in spec}
    assert not any("title match" in n for n in answer.get("notes", []))
    # words only that title holds still name it
    one = summarize(store, "lossless speculative decoding heterogeneous vocabularies")
    assert [s["title"] for s in one["sources"]] == [HETERO]
    assert one["notes"] == [
        f"\"lossless speculative decoding heterogeneous vocabularies\" read as the paper '{HETERO}' "
        "(title match)"
    ]


def test_a_mistyped_label_is_offered_its_close_spelling(bundled_store):
    # a newcomer's "summarize AKRON" (for AKORN) said only "no paper"; "summarize banditspc" summarized
    # a bandit paper: a word no paper uses, spelled like a label, is not a topic
    from cli_env import run_cli

    out = run_cli("summarize", "CROWW", store=bundled_store)
    assert (out.returncode, out.stderr) == (
        1,
        "error: no paper with id or label 'CROWW'; did you mean CROW? `paperchat papers` lists them\n",
    )


def test_an_id_in_the_wrong_case_is_that_paper():
    from paperchat.answer.summaries import find_paper
    from paperchat.ingest.records import PaperRecord

    records = {
        pid: PaperRecord.from_meta(pid, {"title": title}, "")
        for pid, title in (("PO9bBEPNWy", "SliM-LLM"), ("tJmhOPkWCj", "any4"))
    }
    assert find_paper(records, "PO9bBEPNWY") == ("PO9bBEPNWy", "id")


def test_a_summary_of_several_papers_summarizes_each(bundled_engine):
    # a break-it session: "summarize the first two" and "summarize them" summarized only the first paper
    from paperchat.chat.session import ChatSession

    confpo, crow, arora = "p-abe9274a3783", "p-f951bc7f7256", "p-3c67db56192f"
    named = bundled_engine.ask("Summarize ConfPO and CROW", mode="extractive")
    assert [s.paper_id for s in named.sources] == [confpo, crow]
    lines = named.answer.split("\n")
    assert lines[0].startswith("ConfPO: Exploiting Policy Model Confidence") and lines[0].endswith(
        "[1]."
    )
    assert lines[1].startswith("CROW: Eliminating Backdoors") and lines[1].endswith("[2].")
    # in the order the question names them (a reading-group session: "summarize the first two" had cited
    # them in retrieval's order, which made the list's second paper the first of a new list)
    reversed_ = bundled_engine.ask("Summarize CROW and ConfPO", mode="extractive")
    assert [s.paper_id for s in reversed_.sources] == [crow, confpo]
    # a paper named by its title's words (no label of its own in the question) counts too (a second
    # break-it session: "Summarize Flow Q-Learning and Sundial" had summarized one paper)
    titled = bundled_engine.ask(
        "Summarize LightGTS and Flexible Tails for Normalizing Flows", mode="extractive"
    )
    assert [s.paper_id for s in titled.sources] == ["p-34c64e0fe1f8", "p-8a70d0aef62e"]
    chat = ChatSession(bundled_engine)
    listed = chat.handle("Which papers study backdoor attacks?").answer
    assert [s.paper_id for s in listed.sources] == [arora, crow]
    both = chat.handle("summarize them").answer
    assert [s.paper_id for s in both.sources] == [arora, crow]
    assert both.answer.count("\n") == 1  # one line per paper


def test_a_papers_summary_quotes_the_sentence_naming_its_method_and_its_result():
    # a break-it session: "summarize BanditSpec" never named BanditSpec; "summarize Flow Q-Learning" left out
    # its result ("We experimentally show ... 73 ... tasks")
    from paperchat.answer.summaries import extractive_paper_summary

    abstract = (
        "Speculative decoding has emerged as a popular method to accelerate inference. "
        "Previous methods adopt a fixed configuration. "
        "This paper proposes a training-free online learning framework to choose the configuration. "
        "We formulate this as a bandit problem and provide a general framework BanditSpec. "
        "We upper bound the regret. "
        "We experimentally show that BanditSpec leads to strong performance across 73 tasks."
    )
    sentences = extractive_paper_summary(abstract, label="BanditSpec")
    assert sentences[0].startswith("Speculative decoding has emerged")
    assert (
        "We formulate this as a bandit problem and provide a general framework BanditSpec."
        in sentences
    )
    assert sentences[-1].startswith("We experimentally show")
    assert "We formulate this as a bandit problem" not in " ".join(
        extractive_paper_summary(abstract)[:2]
    )


def test_a_summary_takes_the_main_result_not_one_that_adds_to_it():
    # a literature-review session: QuantSpec's summary kept "QuantSpec also reduces the memory ... compared
    # to these alternatives" and left out its 2.5x speed-up, where "these alternatives" are named
    from paperchat.answer.summaries import extractive_paper_summary

    abstract = (
        "LLMs are deployed on edge devices for long contexts. "
        "The KV cache is the bottleneck. "
        "We propose QuantSpec, a self-speculative decoding framework with a 4-bit quantized KV cache. "
        "QuantSpec maintains acceptance rates above 90% and speedups up to 2.5x, outperforming other "
        "self-speculative methods. "
        "QuantSpec also reduces the memory requirements by 1.3x compared to these alternatives."
    )
    sentences = extractive_paper_summary(abstract, label="QuantSpec")
    assert sentences[-1].startswith("QuantSpec maintains acceptance rates above 90%")
    assert not any("also reduces" in s for s in sentences)
    # brief, for a summary of several papers: the method and the main result
    assert extractive_paper_summary(abstract, brief=True, label="QuantSpec")[1].startswith(
        "QuantSpec maintains"
    )


def test_a_paper_the_filters_leave_out_is_named_as_such(bundled_engine):
    # a second break-it session: "summarize ConfPO --paper X" said "no paper with id or label 'ConfPO' ...;
    # did you mean ConfPO?"
    import pytest

    from paperchat.core.errors import PaperchatError
    from paperchat.retrieve.filters import Filters

    with pytest.raises(PaperchatError) as caught:
        bundled_engine.summarize("ConfPO", filters=Filters(papers=("p-3c67db56192f",)))
    assert (
        str(caught.value)
        == "'ConfPO' names a stored paper that the filters (--paper p-3c67db56192f) leave out"
    )


def test_a_label_other_papers_also_write_is_named_with_how_many_do(icml_engine):
    # a break-it session: "summarize SD" summarized one of the speculative-decoding papers without saying
    # that it read "SD" as that paper's label, nor that other papers write "SD" too
    answer = icml_engine.summarize("SD", mode="extractive")
    assert [s.paper_id for s in answer.sources] == ["vQubr1uBUw"]
    assert answer.notes == [
        '"SD" read as the label of \'Accelerating LLM Inference with Lossless Speculative Decoding '
        'Algorithms for Heterogeneous Vocabularies\'; 4 other stored papers also write "SD": '
        '`paperchat ask "How many papers are about SD?"` counts them'
    ]
    # a label no other paper writes gets no note
    assert icml_engine.summarize("XAttention", mode="extractive").notes == []
    # an acronym no paper is labelled with is summarized as a topic, and says so
    notes = icml_engine.summarize("LLMs", mode="extractive").notes
    assert notes[0] == (
        'no stored paper is labelled "LLMs": summarized as a topic, from the papers retrieval finds for it'
    )
    assert notes[1].startswith(
        '529 stored papers write "LLMs": the summary keeps to them and cites'
    )


def test_a_short_topic_is_summarized_from_the_papers_that_write_it(icml_engine):
    # a reviewer's session: "conformal prediction" summarized papers on molecular conformers, protein
    # conformation and CLIP "conformity", none of which writes "conformal prediction"
    answer = icml_engine.summarize("conformal prediction", mode="extractive")
    records = icml_engine.store.papers([s.paper_id for s in answer.sources])
    assert len(records) == 10
    assert all("conformal prediction" in r.full_text.lower() for r in records.values())
    assert answer.notes == [
        # 32: WGFormer's "conformation prediction" shares the stems, not the words (a notebook session)
        '32 stored papers write "conformal prediction" or "CP": the summary keeps to them and cites the 10 '
        'retrieval ranks first; `paperchat ask "How many papers are about conformal prediction?"` lists '
        'those writing "conformal prediction"'
    ]
    # an abbreviation counts in its capitals, not glued to a hyphen, and not defined as another thing: "MU"
    # had counted muP papers ("μP") and "SD" Stable Diffusion's "SD-VAE" and "SD‐2" (a literature review)
    for topic, n, short in (("machine unlearning", 14, "MU"), ("speculative decoding", 11, "SD")):
        notes = icml_engine.summarize(topic, mode="extractive").notes
        assert notes[0].startswith(f'{n} stored papers write "{topic}" or "{short}": '), topic
    # "entropy minimization", not maximum-entropy reinforcement learning
    minimizing = icml_engine.summarize("entropy minimization", mode="extractive")
    assert {s.paper_id for s in minimizing.sources} == {"lHaGLJ65J9", "QwxjjaGBUo", "OgfvSDn73E"}


def test_a_topic_spelled_like_a_title_offers_it():
    # a reading break-it session: `summarize "Flow Q Lerning"` summarized seven other flow papers as a topic,
    # with no word of Flow Q-Learning
    from paperchat.answer.summaries import close_names
    from paperchat.ingest.records import PaperRecord

    records = {
        "k": PaperRecord("k", title="Flow Q-Learning"),
        "d": PaperRecord("d", title="Diffusion Models"),
    }
    assert close_names(records, "Flow Q Lerning", n=1, titles=True, cutoff=0.85) == [
        "'Flow Q-Learning'"
    ]
    assert close_names(records, "flow matching", n=1, titles=True, cutoff=0.85) == []
    # a mistyped opening of a longer title offers it (a science writer's "Netwrok Sparsity ...")
    records["n"] = PaperRecord(
        "n", title="Network Sparsity Unlocks the Scaling Potential of Deep Reinforcement Learning"
    )
    assert close_names(
        records, "Netwrok Sparsity Unlocks the Scaling Potential", n=1, titles=True, cutoff=0.85
    ) == ["'Network Sparsity Unlocks the Scaling Potential of Deep Reinforcement Learning'"]


def test_a_name_only_one_abstract_writes_is_that_paper(icml_engine):
    # a reviewer's session: "summarize MorphKV" said it was summarized as a topic, from the one paper
    # whose abstract introduces MorphKV (its title does not name it)
    answer = icml_engine.summarize("MorphKV", mode="extractive")
    assert [s.paper_id for s in answer.sources] == ["SuYO70ZxZX"]
    assert answer.notes == [
        '"MorphKV" read as the paper \'Dialogue Without Limits: Constant-Sized KV Caches for Extended '
        "Response in LLMs' (its abstract names it)"
    ]


def test_a_topic_is_also_written_as_the_abbreviation_its_writers_define(bundled_engine):
    # "Speeding up Policy Simulation in Supply Chain RL" writes "RL" only, which papers writing
    # "reinforcement learning (RL)" define
    from paperchat.engine.topic_writers import topic_writers as _writing

    writing, shorts = _writing(bundled_engine, "reinforcement learning", None)
    assert shorts == ["RL"]
    assert "p-e126ba626a72" in writing and len(writing) == 5
    assert _writing(bundled_engine, "entropy minimization", None) == (set(), [])


@pytest.mark.parametrize(
    "question, topic",
    [
        ("Summarize the related work on graph neural networks", "graph neural networks"),
        ("Write a related work paragraph on graph neural networks.", "graph neural networks"),
        ("give me an overview of the literature on graph neural networks", "graph neural networks"),
    ],
)
def test_a_request_for_a_fields_summary_is_the_topic_summary(bundled_engine, question, topic):
    # a related-work writer's session: "Summarize the related work on conformal prediction" had quoted one
    # abstract, which read as a survey of the field
    from paperchat.answer.summaries import topic_summary

    assert topic_summary(question) == topic
    answer = bundled_engine.ask(question, mode="extractive")
    summary = bundled_engine.summarize(topic, mode="extractive")
    assert [s.paper_id for s in answer.sources] == [s.paper_id for s in summary.sources]
    assert [s.paper_id for s in answer.sources] == ["p-1d90af2b1c95", "p-fb365a7031bd"]
    assert answer.notes[-1] == (
        f'read as a summary of the papers on "{topic}" (`paperchat summarize "{topic}"`)'
    )


@pytest.mark.parametrize(
    "question", ["Summarize the paper on speculative decoding", "Give me an overview of Vintix."]
)
def test_a_summary_of_one_paper_is_no_fields_summary(question):
    from paperchat.answer.summaries import topic_summary

    assert topic_summary(question) is None


def test_a_topic_with_a_word_no_paper_writes_is_declined(bundled_engine):
    # a related-work session: "cryptocurrency price prediction" was summarized from unrelated papers
    summary = bundled_engine.summarize("cryptocurrency price prediction", mode="extractive")
    assert summary.abstained and summary.sources == []
    assert summary.notes == [
        "no paper's title matches 'cryptocurrency price prediction' and no stored paper is on that topic "
        "(none writes 'cryptocurrency' or 'price')"
    ]
    asked = bundled_engine.ask(
        "Summarize the related work on cryptocurrency price prediction", mode="extractive"
    )
    assert asked.abstained and asked.notes[0] == summary.notes[0]


def test_a_topic_summary_cites_the_papers_asked_for(icml_engine):
    # a LaTeX session: `summarize "graph neural networks" --top-k 8` cited one of eight papers on it, every
    # one of which writes the topic's words
    import json
    import re

    from conftest import ICML_JSONL

    answer = icml_engine.summarize("graph neural networks", top_k=8, mode="extractive")
    cited = {s.paper_id for s in answer.sources}
    assert len(cited) == 8
    abstracts = {
        r["id"]: (r["title"] + " " + r["abstract"]).lower()
        for r in map(json.loads, ICML_JSONL.read_text(encoding="utf-8").splitlines())
    }
    # each cited paper writes the topic (its words, or "GNN")
    assert all(
        pid not in abstracts or re.search(r"graph neural network|gnn", abstracts[pid])
        for pid in cited
    )


def test_two_papers_of_one_title_are_told_apart_by_id(tmp_path):
    # an own-corpus session: one of two same-titled papers was summarized with no word of the other
    import json

    from cli_env import run_cli
    from conftest import ICML_JSONL

    first = json.loads(ICML_JSONL.read_text(encoding="utf-8").splitlines()[0])
    second = {
        **first,
        "id": "dupX",
        "abstract": "A different abstract about graph neural networks.",
    }
    corpus = tmp_path / "two.jsonl"
    corpus.write_text(json.dumps(first) + "\n" + json.dumps(second) + "\n", encoding="utf-8")
    store = tmp_path / "store"
    assert run_cli("ingest", str(corpus), "-q", store=store).returncode == 0
    by_title = run_cli("summarize", first["title"], store=store)
    assert by_title.returncode == 1
    assert by_title.stderr == (
        f"error: 2 stored papers have the title {first['title']!r} ({first['id']}, dupX); summarize one "
        f"by its id: `paperchat --store {store.resolve()} summarize {first['id']}`\n"
    )
    by_id = run_cli("summarize", "dupX", store=store)
    assert (
        by_id.returncode == 0
        and (
            f"1 other stored paper has this title ({first['id']}): `paperchat --store {store.resolve()} "
            f"summarize {first['id']}` summarizes it"
        )
        in by_id.stderr
    )


def test_an_unknown_one_word_target_is_an_error(bundled_engine):
    # an own-corpus session: `summarize vt65VjJakt` (an id of another store) abstained with exit status 0
    from paperchat.core.errors import PaperchatError

    with pytest.raises(PaperchatError) as err:
        bundled_engine.summarize("zz65VjJakQ", mode="extractive")
    assert str(err.value) == (
        "no paper with id or label 'zz65VjJakQ', and no paper on that topic; `paperchat papers` lists them"
    )


def test_a_topic_no_paper_writes_as_a_phrase_keeps_to_papers_holding_its_words(icml_engine):
    # an MCP session's related work: "diffusion model alignment" cited "Hessian Geometry of Latent Space in
    # Generative Models", which writes no form of "align", and left out Score as Action
    answer = icml_engine.summarize("diffusion model alignment", mode="extractive")
    cited = {s.paper_id for s in answer.sources}
    assert "H8JTsbG4KW" not in cited and "V5HEX6stS2" in cited
    records = icml_engine.store.papers(sorted(cited))
    assert all("align" in r.full_text.lower() for r in records.values())
    assert answer.notes[0].startswith(
        '38 stored papers have every word of "diffusion model alignment"'
    )


def test_a_topic_the_filters_leave_no_writer_of_abstains(icml_engine):
    # a science writer: `summarize "world models" --author levine` summarized three Levine papers writing
    # "real-world" and "models", though none writes "world models"
    from paperchat.retrieve.filters import Filters

    answer = icml_engine.summarize(
        "world models", mode="extractive", filters=Filters(author="levine")
    )
    assert answer.abstained and answer.sources == []
    assert answer.notes == [
        '28 stored papers write "world models", none of them among the papers the filters '
        '(--author "levine") leave'
    ]


def test_an_abbreviation_topic_is_counted_in_its_capitals_and_a_shared_label_is_named(icml_engine):
    # a science writer: "MU" counted 11 papers, most writing only the $\mu$ of a formula; "Best of Both
    # Worlds", one paper's label, is also what two other titles write, and no note said so
    answer = icml_engine.summarize("MU", mode="extractive")
    assert any(n.startswith('3 stored papers write "MU"') for n in answer.notes)
    assert "OUr945QeUb" not in {s.paper_id for s in answer.sources}  # a formula's \mu only
    answer = icml_engine.summarize("Best of Both Worlds", mode="extractive")
    assert [s.paper_id for s in answer.sources] == ["lHzLxYiJVF"]
    assert answer.notes[-1] == (
        '2 other stored titles also write "Best of Both Worlds": '
        "'Best of Both Worlds: Advantages of Hybrid Graph Sequence Models' (GJKe8WYHxq); "
        "'The Best of Both Worlds: Bridging Quality and Diversity in Data Selection with Bipartite Graph' "
        "(nCoaJYNCcg); summarize one by its id"
    )
