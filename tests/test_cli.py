"""The CLI as a user runs it: ``paperchat.cli.main(args, env)`` in-process (whole stdout and stderr), a real
store, one-line errors; a subprocess only where a fresh process matters (what ``--help`` imports)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import jsonschema
import pytest
from cli_env import run_cli
from conftest import ROOT, SEED_000

ASK_SCHEMA = {
    "type": "object",
    "required": ["question", "answer", "mode", "abstained", "sources", "retrieved"],
    "properties": {
        "question": {"type": "string"},
        "answer": {"type": "string"},
        "mode": {"enum": ["extractive", "llm"]},
        "abstained": {"type": "boolean"},
        "evidence": {"type": "number"},
        "sources": {
            "type": "array",
            "items": {
                "type": "object",
                "required": [
                    "n",
                    "paper_id",
                    "title",
                    "label",
                    "url",
                    "origin",
                    "chunk_id",
                    "text",
                ],
                "properties": {
                    "n": {"type": "integer", "minimum": 1},
                    "paper_id": {"type": "string"},
                    "title": {"type": "string"},
                    "label": {"type": "string"},
                    "url": {"type": "string"},
                    "origin": {
                        "type": "object",
                        "required": ["path", "index"],
                        "properties": {
                            "path": {"type": "string"},
                            "index": {"type": "integer", "minimum": 1},
                        },
                    },
                    "chunk_id": {"type": "string"},
                    "text": {"type": "string"},
                },
            },
        },
        "retrieved": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["paper_id", "chunk_id", "score"],
                "properties": {
                    "paper_id": {"type": "string"},
                    "chunk_id": {"type": "string"},
                    "score": {"type": "number"},
                },
            },
        },
    },
}


def run(*args, store=None, env=None, input=None):
    return run_cli(*args, store=store, env=env, input=input)


def test_ask_json_follows_the_contract(bundled_store):
    out = run(
        "ask",
        "What does ConfPO use to pick preference-critical tokens?",
        "--json",
        store=bundled_store,
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    jsonschema.validate(data, ASK_SCHEMA)
    assert data["sources"][0]["origin"] == {"path": SEED_000, "index": 3}
    assert data["sources"][0]["chunk_id"].startswith("p-abe9274a3783:")
    paragraphs = (ROOT / "data" / SEED_000).read_text(encoding="utf-8").split("\n\n")
    confpo = " ".join(paragraphs[3].split())
    cited = " ".join(data["sources"][0]["text"].split())
    assert len(cited) > 100 and cited in confpo  # the cited chunk is a piece of the ConfPO abstract
    assert list(data) == [
        "question",
        "answer",
        "mode",
        "abstained",
        "sources",
        "retrieved",
        "evidence",
    ]
    assert (
        0.27 <= data["evidence"] <= 1.0
    )  # the best quoted sentence's relevance, at least the abstention bar
    assert list(data["sources"][0]) == [
        "n",
        "paper_id",
        "title",
        "label",
        "url",
        "origin",
        "chunk_id",
        "text",
    ]


def test_ask_prints_answer_sources_and_the_no_llm_note_once(bundled_store, tmp_path):
    import shutil

    store = tmp_path / "store"
    shutil.copytree(bundled_store, store)
    (store / ".offline-note-shown").unlink(missing_ok=True)
    # offline answers asked for (--mode extractive, or mode = "extractive" in a lab's config file): no note,
    # and it is still owed to an auto-mode answer
    chosen = run("ask", "What does CROW do?", "--mode", "extractive", store=store)
    assert chosen.returncode == 0 and "no LLM configured" not in chosen.stderr
    quiet = run(
        "ask", "What does ConfPO use to pick preference-critical tokens?", "--quiet", store=store
    )
    assert (
        quiet.returncode == 0 and quiet.stderr == ""
    )  # --quiet: no note, and the note is still owed
    out = run("ask", "What does ConfPO use to pick preference-critical tokens?", store=store)
    assert out.returncode == 0, out.stderr
    assert (
        "Sources:\n  [1] ConfPO: Exploiting Policy Model Confidence for Critical Token Selection in Preference Optimization — p-abe9274a3783 — 000_215d12c2ee2986f8.txt #3  https://openreview.net/forum?id=ZG7bkp6ScT"
        in out.stdout
    )
    assert out.stderr.startswith("note: no LLM configured")
    again = run("ask", "What does ConfPO use to pick preference-critical tokens?", store=store)
    assert again.stdout == out.stdout and again.stderr == ""  # once per store


def test_several_questions_on_stdin_are_refused_and_papers_bibtex_json_prints_json(
    bundled_store, tmp_path
):
    # a script piping a question file had its two questions answered as one, an abstention with no note
    out = run(
        "ask",
        "--json",
        store=bundled_store,
        input="Who wrote ConfPO?\nWhen was ConfPO published?\n",
    )
    assert out.returncode == 1
    assert json.loads(out.stdout)["error"].startswith(
        "stdin holds 2 questions, one per line; `ask` answers one"
    )
    # one question over two lines is still one question
    out = run("ask", "--json", store=bundled_store, input="What does ConfPO\npropose?\n")
    assert out.returncode == 0 and json.loads(out.stdout)["question"] == "What does ConfPO propose?"
    # `papers --bibtex FILE --json` printed nothing on stdout
    bib = tmp_path / "all.bib"
    out = run("papers", "--bibtex", str(bib), "--json", store=bundled_store)
    assert json.loads(out.stdout) == {"bibtex": str(bib), "entries": 38}
    assert bib.read_text(encoding="utf-8").count("@") == 38


def test_papers_json_lists_every_paper(bundled_store):
    out = run("papers", "--json", store=bundled_store)
    rows = json.loads(out.stdout)
    assert len(rows) == 38
    confpo = [r for r in rows if r["paper_id"] == "p-abe9274a3783"][0]
    assert confpo["label"] == "ConfPO" and confpo["chunks"] == 2
    assert confpo["origin"] == {
        "path": SEED_000,
        "index": 3,
        "file": str((ROOT / "data" / SEED_000).resolve()),
        "also_in": [],
    }
    assert list(confpo) == [
        "paper_id",
        "title",
        "label",
        "chunks",
        "origin",
        "url",
        "authors",
        "aliases",
        "venue",
        "year",
        "presentation",
    ]
    assert confpo["presentation"] == ""  # the bundled metadata gives none
    assert confpo["aliases"] == [] and (confpo["venue"], confpo["year"]) == (
        "ICML",
        2025,
    )  # from its PMLR v267 url


@pytest.mark.parametrize(
    "args,status,message",
    [
        (["ask", "   "], 1, "error: the question is empty; ask something about the papers\n"),
        (
            ["ingest", "/nonexistent/papers.jsonl"],
            1,
            "error: /nonexistent/papers.jsonl: no such file\n",
        ),
        (
            ["ask", "q", "--top-k", "0"],
            2,
            "Usage: paperchat ask [OPTIONS] [QUESTION]\nTry 'paperchat ask --help' for help.\n\n"
            "Error: Invalid value for '-k' / '--top-k': 0 is not in the range 1<=x<=100.\n",
        ),
        # an option of paperchat itself after the command: where it goes, not Click's guesses (a newcomer's)
        (
            ["ask", "ConfPO", "--store", "/tmp/elsewhere"],
            2,
            "Usage: paperchat ask [OPTIONS] [QUESTION]\nTry 'paperchat ask --help' for help.\n\n"
            "Error: --store is an option of paperchat itself: put it before the command "
            "(paperchat --store ... ask ...)\n",
        ),
    ],
)
def test_bad_input_is_one_line_and_nonzero(tmp_path, args, status, message):
    out = run(*args, store=tmp_path / "store")
    assert (out.returncode, out.stdout, out.stderr) == (status, "", message)


def test_a_folder_of_corpus_files_as_store_is_told_to_use_a_new_folder(tmp_path):
    # a lab's corpus: `--store src papers` suggested `--store src ingest FILES`, which ingest then refused
    (tmp_path / "a.jsonl").write_text('{"abstract": "x"}\n')
    out = run("papers", store=tmp_path)
    assert (out.returncode, out.stderr) == (
        1,
        f"error: no store at {tmp_path}: nothing to list (the folder holds other files; a store needs a "
        "new or empty folder: pass that as --store)\n",
    )


@pytest.mark.parametrize(
    "args,status,kind,error",
    [
        (
            ["ask", "   ", "--json"],
            1,
            "input",
            "the question is empty; ask something about the papers",
        ),
        (
            ["papers", "--json"],
            1,
            "input",
            "no store at {store}: nothing to list (`paperchat --store {store} ingest FILES` creates one of your files; without FILES, of the bundled corpus)",
        ),
        (
            ["ask", "q", "--top-k", "0", "--json"],
            2,
            "usage",
            "Invalid value for '-k' / '--top-k': 0 is not in the range 1<=x<=100.",
        ),
    ],
)
def test_json_errors_are_an_object_on_stdout(tmp_path, args, status, kind, error):
    # a script parsing stdout got nothing (a newcomer's break-it session); stderr keeps its one line
    store = tmp_path / "store"
    out = run(*args, store=store)
    error = error.format(store=store)
    assert out.returncode == status
    # its kind tells a service what to do (an automation engineer's: exit 1 for a bad filter, a damaged store
    # and an unreachable LLM alike)
    assert json.loads(out.stdout) == {"error": error, "kind": kind, "exit_status": status}
    assert error in out.stderr and "Traceback" not in out.stderr


def test_ingest_progress_in_a_log_is_plain_lines(tmp_path):
    papers = tmp_path / "two.jsonl"
    papers.write_text(
        json.dumps({"id": "A", "abstract": "We study sparse attention in long documents."})
        + "\n"
        + json.dumps({"id": "B", "abstract": "We prove bounds for private federated learning."})
        + "\n"
    )
    out = run("ingest", str(papers), store=tmp_path / "store")
    assert out.returncode == 0, out.stderr
    # stderr is not a terminal: one plain line, no redrawn bar (the rate varies)
    assert re.fullmatch(r"embedding: 2/2 chunks \(100%\), [0-9.]+ chunk/s\n", out.stderr)
    assert re.fullmatch(
        r"2 added, 0 updated, 0 unchanged, 0 removed; 2 chunks and 2 sentences embedded in [0-9.]+ s\. "
        rf"Store: 2 papers, 2 chunks \({re.escape(str(tmp_path / 'store'))}\)\.\n",
        out.stdout,
    )


def test_ingest_binary_and_csv_errors(tmp_path):
    binary = tmp_path / "x.jsonl"
    binary.write_bytes(b"\x00\xff\x00garbage")
    out = run("ingest", str(binary), store=tmp_path / "store")
    assert (out.returncode, out.stdout, out.stderr) == (
        1,
        "",
        f"error: {binary}: looks like a binary file, not text (JSONL, CSV or seed text expected)\n",
    )
    csvf = tmp_path / "x.csv"
    csvf.write_text("title\nonly a title\n")
    out = run("ingest", str(csvf), store=tmp_path / "store")
    assert (out.returncode, out.stdout, out.stderr) == (
        1,
        "",
        f"error: {csvf}: CSV has no 'abstract' column in its first row, which is read as the header (columns: title)\n",
    )


def test_changed_model_names_rebuild(bundled_store):
    out = run(
        "--embed-model", "openai:text-embedding-3-small", "ask", "graphs", store=bundled_store
    )
    assert (out.returncode, out.stdout, out.stderr) == (
        1,
        "",
        f"error: the store at {bundled_store} was built with embedding model minilm-l6-int8 (asked for "
        "openai:text-embedding-3-small); dimension 384 (asked for 1536). Run `paperchat ingest --rebuild FILES` "
        "(your corpus files; none for the bundled corpus) to rebuild it with the new settings, or use the old "
        "ones.\n",
    )


def test_help_does_not_import_the_ml_stack():
    code = (
        "import io, sys\n"
        "from paperchat.cli import main\n"
        "from paperchat.cli.environment import Environment\n"
        "for args in (['--help'], ['ask', '--help'], ['ingest', '--help'], ['papers', '--help']):\n"
        "    env = Environment(stdout=io.StringIO(), stderr=io.StringIO(), prog_name='paperchat')\n"
        "    assert main(args, env) == 0 and 'Example' in env.stdout.getvalue(), args\n"
        "heavy = [m for m in ('chromadb', 'onnxruntime', 'llama_index.core', 'openai', 'numpy') if m in sys.modules]\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_unsupported_file_types_and_corpus_count_questions(tmp_path, bundled_store):
    pdf = tmp_path / "paper.pdf"
    pdf.write_text("%PDF-1.4 not really")
    out = run("ingest", str(pdf), store=tmp_path / "store")
    assert (out.returncode, out.stderr) == (
        1,
        f"error: {pdf}: unsupported file type .pdf; use JSONL (.jsonl), CSV (.csv) or seed text (.txt)\n",
    )
    tsv = (
        tmp_path / "papers.tsv"
    )  # JSONL under another name was read as seed text (one made-up abstract)
    tsv.write_text('{"id": "a1", "abstract": "We study things."}\n', encoding="utf-8")
    out = run("ingest", str(tsv), store=tmp_path / "store")
    assert out.returncode == 1 and out.stderr.strip() == (
        f"error: {tsv}: unsupported file type .tsv; use JSONL (.jsonl), CSV (.csv) or seed text (.txt)"
    )
    ans = json.loads(
        run(
            "ask", "How many papers use reinforcement learning?", "--json", store=bundled_store
        ).stdout
    )
    # no abstract states how many papers there are: the store counts those holding every word of the topic
    # (it had abstained), then lists the most relevant, each cited
    first = ans["answer"].split("\n")[0]
    assert first.endswith(
        'stored papers have every word of "reinforcement learning" in their title or abstract; the most relevant:'
    )
    assert int(first.split()[0]) >= len(ans["sources"]) >= 1


def test_chat_takes_the_answer_mode_flag(bundled_store):
    out = run(
        "chat",
        "--mode",
        "extractive",
        "--no-history",
        store=bundled_store,
        input="What is LightGTS?\n",
    )
    assert out.returncode == 0, out.stderr
    assert (
        "[1] LightGTS: A Lightweight General Time Series Forecasting Model — p-34c64e0fe1f8 — 000_215d12c2ee2986f8.txt #14  https://openreview.net/forum?id=Z5FJsp1U3Z"
        in out.stdout
    )


def test_summarize_an_unknown_paper_id_is_an_error(bundled_store):
    out = run("summarize", "p-000000000000", store=bundled_store)
    assert (out.returncode, out.stdout, out.stderr) == (
        1,
        "",
        "error: no paper with id p-000000000000 in the store; `paperchat papers` lists them\n",
    )
    known = run("summarize", "p-abe9274a3783", store=bundled_store)
    assert known.returncode == 0 and "ConfPO" in known.stdout and "[1]" in known.stdout


def test_a_command_that_already_said_why_exits_1_without_an_error_line(tmp_path):
    store = tmp_path / "store"  # no daemon serves it
    out = run("daemon", "status", store=store)
    assert (out.returncode, out.stdout, out.stderr) == (1, f"no daemon runs for {store}\n", "")
    out = run("daemon", "status", "--json", store=store)
    assert (out.returncode, out.stdout, out.stderr) == (1, "{}\n", "")


def test_an_answer_on_a_narrow_terminal_wraps_at_its_width(bundled_store):
    # a break-it session: answers wrapped at 88 columns whatever the terminal, so an 80-column one broke
    # words in two ("representa" / "tions")
    out = run_cli(
        "ask",
        "What does ConfPO use to pick preference-critical tokens?",
        "--mode",
        "extractive",
        store=bundled_store,
        tty=True,
        width=60,
    )
    assert out.returncode == 0, out.stderr
    answer = out.stdout.split("\nSources:")[0]
    assert max(len(line) for line in answer.splitlines()) <= 59 and len(answer.splitlines()) > 2


def test_a_suggested_command_keeps_the_store_the_command_line_gave():
    # a README audit: `ask --store s11` on a damaged store said "start afresh with `paperchat ingest --rebuild
    # FILES`", which would have rebuilt the default store
    from paperchat.cli import _with_store

    line = "damaged. Start afresh with `paperchat ingest --rebuild FILES` (the papers are lost)"
    assert _with_store(line, ["--daemon", "off", "--store", "my store", "ask", "q"]) == (
        "damaged. Start afresh with `paperchat --store 'my store' ingest --rebuild FILES` (the papers are lost)"
    )
    assert (
        _with_store(line, ["ask", "q", "--store", "x"]) == line
    )  # an option of the command, not paperchat's
    assert _with_store(line, ["ask", "q"]) == line
    named = "run `paperchat --store s ingest` first"
    assert _with_store(named, ["--store", "s", "ask", "q"]) == named  # never twice
