"""CLI paths not covered elsewhere: topic summaries, ingest --metadata / --on-error skip, config's text table,
eval's default output folder, --limit and --retriever."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT, SEED_003, SEED_METADATA

from paperchat.cli import cli

CROW = (
    "CROW: Eliminating Backdoors from Large Language Models via Internal Consistency Regularization"
)
BACKDOOR = "Backdoor Attacks in Token Selection of Attention Mechanism"


def invoke(store, *args, **env):
    result = CliRunner().invoke(cli, list(args), env={"PAPERCHAT_STORE": str(store), **env})
    return result


def test_a_topic_summary_cites_the_papers_on_the_topic(bundled_store):
    out = invoke(bundled_store, "summarize", "backdoor attacks on language models", "--json")
    assert out.exit_code == 0, out.output
    answer = json.loads(out.stdout)
    assert [s["title"] for s in answer["sources"][:2]] == [CROW, BACKDOOR]
    assert answer["target"] == "backdoor attacks on language models"
    body = answer["answer"]
    assert body.startswith("CROW: ") and "[1]" in body and "[2]" in body


@pytest.mark.integration  # ingests 19 papers into a store of its own
def test_ingest_with_metadata_and_skipping_malformed_lines(tmp_path):
    store = tmp_path / "store"
    seed = ROOT / "data" / SEED_003
    out = invoke(store, "ingest", str(seed), "--metadata", str(SEED_METADATA), "--json", "--quiet")
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    assert report["papers_added"] == 19
    papers = json.loads(invoke(store, "papers", "--json").stdout)
    assert (
        "SUICA: Learning Super-high Dimensional Sparse Implicit Neural Representations for Spatial Transcriptomics"
        in {p["title"] for p in papers}
    )
    bad = tmp_path / "mixed.jsonl"
    bad.write_text(
        json.dumps(
            {"id": "ok-1", "title": "A fine paper", "abstract": "We study fine things. They work."}
        )
        + "\n{not json\n"
        + json.dumps({"id": "ok-2", "abstract": "Another abstract about graphs. It helps."})
        + "\n",
        encoding="utf-8",
    )
    stopped = invoke(store, "ingest", str(bad))
    assert stopped.exit_code == 1 and str(stopped.exception).startswith(f"{bad}:2: malformed JSON")
    assert len(json.loads(invoke(store, "papers", "--json").stdout)) == 19  # the store is untouched
    skipped = invoke(store, "ingest", str(bad), "--on-error", "skip", "--json", "--quiet")
    assert skipped.exit_code == 0, skipped.output
    report = json.loads(skipped.stdout)
    assert (
        report["papers_added"] == 2
        and len(report["lines_skipped"]) == 1
        and ":2" in report["lines_skipped"][0]
    )


def test_config_text_shows_each_setting_and_where_it_came_from(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('top_k = 7\nmode = "extractive"\n', encoding="utf-8")
    out = invoke(tmp_path / "store", "config", PAPERCHAT_CONFIG=str(config), PAPERCHAT_TIMEOUT="12")
    assert out.exit_code == 0, out.output
    rows = {line.split()[0]: line for line in out.stdout.splitlines() if line.startswith("  ")}
    assert rows["top_k"].split()[1:] == ["7", "papers", f"(file:{config})"]
    assert rows["mode"].split()[1:] == ["extractive", f"(file:{config})"]
    assert rows["timeout"].split()[1:] == ["12.0", "s", "(env:PAPERCHAT_TIMEOUT)"]
    assert rows["store"].split()[1:] == [str(tmp_path / "store"), "(env:PAPERCHAT_STORE)"]
    assert out.stdout.splitlines()[0] == f"config file: {config}"


def test_eval_writes_eval_out_in_the_working_folder_and_limit_caps_the_questions(
    bundled_store, tmp_path
):
    store = tmp_path / "store"
    shutil.copytree(bundled_store, store)
    cwd = Path.cwd()
    os.chdir(tmp_path)
    try:
        out = invoke(store, "eval", "--limit", "6", "--retriever", "bm25", "--json", "-q")
    finally:
        os.chdir(cwd)
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    assert summary["config"]["questions"] == 6 and summary["config"]["retriever"] == "bm25"
    assert summary["config"]["limit"] == 6
    saved = json.loads((tmp_path / "eval-out" / "results.json").read_text(encoding="utf-8"))
    assert [q["id"] for q in saved["questions"]] == ["q001", "q002", "q003", "q004", "q005", "q006"]
    assert "first 6 questions" in (tmp_path / "eval-out" / "report.md").read_text(encoding="utf-8")


def test_a_merged_duplicates_id_names_its_paper(tmp_path):
    """A duplicate merged at ingest keeps its id as an alias: `papers --json` lists it and `summarize` takes it."""
    rows = [
        {
            "id": "pap-1",
            "title": "Sparse Routing for Mixture Models",
            "abstract": "We route tokens sparsely among "
            "experts with a learned gate. It halves compute at equal perplexity.",
        },
        {
            "id": "pap-2",
            "title": "Graph Rewiring",
            "abstract": "We rewire graphs to reduce oversquashing in "
            "message passing networks. Accuracy improves on long-range benchmarks.",
        },
    ]
    dup = {**rows[0], "id": "dup-1", "abstract": rows[0]["abstract"].upper()}
    src = tmp_path / "mine.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in [*rows, dup]), encoding="utf-8")
    store = tmp_path / "store"
    assert invoke(store, "ingest", str(src), "--quiet").exit_code == 0
    listing = {
        p["paper_id"]: p["aliases"] for p in json.loads(invoke(store, "papers", "--json").stdout)
    }
    assert listing == {"pap-1": ["dup-1"], "pap-2": []}
    out = invoke(store, "summarize", "dup-1", "--json")
    assert out.exit_code == 0, out.output
    assert [s["paper_id"] for s in json.loads(out.stdout)["sources"]] == ["pap-1"]


def test_bad_targets_and_files_are_one_line_errors(bundled_store, tmp_path):
    out = invoke(bundled_store, "summarize", "zz-nonexistent-id")
    assert out.exit_code == 1 and str(out.exception) == (
        "no paper with id or label 'zz-nonexistent-id', and no paper on that topic; `paperchat papers` lists them"
    )
    out = invoke(tmp_path / "never-made", "check")
    assert out.exit_code == 1 and str(out.exception) == (
        f"no store at {tmp_path / 'never-made'}: nothing to check "
        f"(`paperchat --store {(tmp_path / 'never-made').resolve()} ingest FILES` creates one of your files; without FILES, of the bundled corpus)"
    )
    assert not (tmp_path / "never-made").exists()
    store = tmp_path / "store"
    good = tmp_path / "good.csv"
    good.write_text(
        'abstract,title\n"We study a thing, with commas, in depth.",T1\n', encoding="utf-8"
    )
    assert invoke(store, "ingest", str(good), "--quiet").exit_code == 0
    bad = (
        tmp_path / "bad.csv"
    )  # the quote never closes: Python's csv would take the rest of the file as one field
    bad.write_text(
        'abstract,title\nFine abstract about stuff,T2\n"unterminated quote, about things\n',
        encoding="utf-8",
    )
    out = invoke(store, "ingest", str(bad))
    assert out.exit_code == 1 and str(out.exception) == (
        f"{bad}:3: malformed CSV (unexpected end of data); check its quoting"
    )
    assert [p["title"] for p in json.loads(invoke(store, "papers", "--json").stdout)] == ["T1"]


def test_config_says_when_its_file_is_not_there(tmp_path):
    """The default location may hold no file (a named one that is missing is an error instead)."""
    out = invoke(
        tmp_path / "store",
        "config",
        "--no-check",
        PAPERCHAT_CONFIG=None,
        XDG_CONFIG_HOME=str(tmp_path / "cfg"),
    )
    assert out.exit_code == 0, out.output
    missing = tmp_path / "cfg" / "paperchat" / "config.toml"
    assert (
        out.stdout.splitlines()[0]
        == f"config file: {missing} (none there; defaults, flags and env apply)"
    )


@pytest.mark.parametrize(
    ("var", "value", "message"),
    [
        (
            "PAPERCHAT_THREADS",
            "abc",
            "PAPERCHAT_THREADS='abc': give a whole number of threads from 0 to 256",
        ),
        (
            "PAPERCHAT_EMBED_MODEL",
            "foo",
            "unknown embedding model 'foo': use minilm-l6-int8 or openai:<model>",
        ),
    ],
)
def test_config_refuses_what_every_other_command_refuses(tmp_path, var, value, message):
    # a break-it session: `config` showed these as fine while `ask` refused them
    out = invoke(tmp_path / "store", "config", "--no-check", **{var: value})
    assert out.exit_code == 1 and str(out.exception) == message


def test_the_terminal_drops_emphasis_markup_and_json_keeps_the_quote(tmp_path):
    src = tmp_path / "mine.jsonl"
    src.write_text(
        json.dumps(
            {
                "id": "cog-1",
                "title": "Corrective Unlearning for Graphs",
                "abstract": "We introduce a new graph unlearning method,**Cognac**, which can unlearn a manipulation "
                "set. It works with \\emph{partial knowledge} of the set.",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    store = tmp_path / "store"
    assert invoke(store, "ingest", str(src), "--quiet").exit_code == 0
    question = "What is the Cognac graph unlearning method?"
    shown = " ".join(invoke(store, "ask", question, "--quiet").stdout.split())  # unwrapped
    assert "method,Cognac, which can unlearn a manipulation set [1]." in shown and "**" not in shown
    quoted = json.loads(invoke(store, "ask", question, "--json").stdout)["answer"]
    assert "method,**Cognac**, which can unlearn a manipulation set [1]." in quoted


@pytest.mark.parametrize(
    "text, shown",
    [
        ("method,**Cognac**, which", "method,Cognac, which"),
        ("include \\emph{graph feedback}, where", "include graph feedback, where"),
        (
            "the *Internal Consistency Regularization (CROW)* term",
            "the Internal Consistency Regularization (CROW) term",
        ),
        ("a*b*c and 2*3 stay", "a*b*c and 2*3 stay"),
        ("$O(n^*)$ and $x$ stay", "$O(n^*)$ and $x$ stay"),
        ("call `torch.compile` first", "call torch.compile first"),
        # a number and a symbol in math, and LaTeX's escaped percent, read as the symbols (a conference-scale
        # user's review: "$\\sim$78.97\\%" on the terminal); other math stays
        (
            r"a 9.3$\times$ cut, $\sim$78.97\% ASR, Mixtral-8$\times$7B",
            "a 9.3× cut, ~78.97% ASR, Mixtral-8×7B",
        ),
        (r"$\mathcal{O}(n)$ and $\pm$", "$\\mathcal{O}(n)$ and ±"),
        # an escaped dollar before an amount, however many backslashes the data carries (break-it session)
        (
            r"valued at \\\$1 million, from \$50 fixes; $K$ stays",
            "valued at $1 million, from $50 fixes; $K$ stays",
        ),
        # a numbers hunter: a bold number in math is the number; a "*" in math is no emphasis
        (
            r"up to $\textbf{128x}$ speedup, at least $\textbf{21x}$",
            "up to 128x speedup, at least 21x",
        ),
        (
            r"the policy $\mu^*_h(s,a)$ where $\mu^*$ is **optimal**",
            r"the policy $\mu^*_h(s,a)$ where $\mu^*$ is optimal",
        ),
    ],
)
def test_plain_emphasis(text, shown):
    from paperchat.core.display import plain_emphasis

    assert plain_emphasis(text) == shown


def test_papers_that_share_a_label_are_named_by_their_titles(tmp_path):
    """Two papers labelled "ICL" in one answer would read "ICL: … ICL: …"; their titles tell them apart, and
    `summarize ICL` is then a topic, not whichever paper comes first."""
    rows = [
        {
            "id": "icl-1",
            "title": "ICL: Why In-Context Learning Emerges in Transformers",
            "abstract": "We study in-context learning (ICL) in transformers. ICL emerges when the pretraining data is bursty.",
        },
        {
            "id": "icl-2",
            "title": "ICL: Task Vectors for In-Context Learning",
            "abstract": "We explain in-context learning (ICL) with task vectors. A single vector steers the model to the task.",
        },
        {
            "id": "gnn-1",
            "title": "Oversquashing in Graph Networks",
            "abstract": "We rewire graphs to reduce oversquashing in message passing networks.",
        },
    ]
    src = tmp_path / "mine.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    store = tmp_path / "store"
    assert invoke(store, "ingest", str(src), "--quiet").exit_code == 0
    assert {p["label"] for p in json.loads(invoke(store, "papers", "--json").stdout)} >= {"ICL"}
    out = invoke(store, "ask", "Which papers study in-context learning?", "--json")
    answer = json.loads(out.stdout)
    assert {s["paper_id"] for s in answer["sources"]} == {"icl-1", "icl-2"}
    assert all(f"{s['title']}: " in answer["answer"] for s in answer["sources"])
    # each listed paper on a line of its own, starting with its name
    lines = answer["answer"].split("\n")
    assert [
        any(line.startswith(f"{s['title']}: ") for s in answer["sources"]) for line in lines
    ] == [True] * len(answer["sources"])
    topic = json.loads(invoke(store, "summarize", "ICL", "--json").stdout)
    assert topic["target"] == "ICL" and {s["paper_id"] for s in topic["sources"]} == {
        "icl-1",
        "icl-2",
    }
