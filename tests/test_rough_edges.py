"""Rough edges a new user hit (issue 18, item 17): a title with a newline, `eval --check --limit`, onnxruntime's
device id under ~/.cache; `paperchat bench` without the bench extra."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from paperchat.cli import cli


def invoke(store, *args):
    return CliRunner().invoke(cli, list(args), env={"PAPERCHAT_STORE": str(store)})


def test_a_title_with_a_newline_stays_on_its_sources_line(tmp_path):
    rows = [
        {
            "id": "gnn-1",
            "title": "Rewiring Graphs\nAgainst Oversquashing",
            "abstract": "We rewire graphs to reduce oversquashing in message passing networks. Accuracy improves on long-range "
            "benchmarks.",
        },
        {
            "id": "icl-1",
            "title": "Task Vectors for In-Context Learning",
            "abstract": "We explain in-context learning with task vectors. A single vector steers the model to the task.",
        },
    ]
    src = tmp_path / "mine.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    store = tmp_path / "store"
    assert invoke(store, "ingest", str(src), "--quiet").exit_code == 0
    out = invoke(
        store, "ask", "How do they reduce oversquashing in message passing networks?", "--quiet"
    )
    assert out.exit_code == 0, out.output
    assert out.stdout.endswith(
        "Sources:\n  [1] Rewiring Graphs Against Oversquashing — gnn-1 — mine.jsonl #1\n"
    )
    data = json.loads(
        invoke(
            store, "ask", "How do they reduce oversquashing in message passing networks?", "--json"
        ).stdout
    )
    assert (
        data["sources"][0]["title"] == "Rewiring Graphs\nAgainst Oversquashing"
    )  # the stored title, as it is


def test_a_limited_eval_check_skips_the_metrics_its_sample_did_not_measure(bundled_store, tmp_path):
    store = tmp_path / "store"
    shutil.copytree(bundled_store, store)
    baseline = (
        tmp_path / "baseline.json"
    )  # the shipped minimums these ten lookups meet, and one they cannot measure
    baseline.write_text(
        json.dumps(
            {
                "min": {
                    "retrieval.recall@5": 0.98,
                    "answers.gold_cited": 0.94,
                    "abstention.abstention_rate": 0.8,
                },
                "max": {},
            }
        ),
        encoding="utf-8",
    )
    out = invoke(
        store,
        "eval",
        "--check",
        "--limit",
        "10",
        "--baseline",
        str(baseline),
        "--quiet",
        "--out",
        str(tmp_path / "quick"),
    )
    assert out.exit_code == 0, out.output
    assert (
        "note: not measured by this sample of 10 questions, so not checked: abstention.abstention_rate "
        "(no unanswerable question)"
    ) in out.stderr
    assert "check: passed" in out.stdout
    # a full run still fails on a metric it does not measure
    json_out = invoke(
        store,
        "eval",
        "--check",
        "--baseline",
        str(baseline),
        "--set",
        str(_only_lookups(tmp_path)),
        "--quiet",
        "--out",
        str(tmp_path / "full"),
    )
    assert json_out.exit_code == 1
    assert (
        "eval check failed: abstention.abstention_rate: not measured (baseline min 0.800)"
        in json_out.stderr
    )


def _only_lookups(tmp_path):
    from conftest import ROOT

    rows = [
        json.loads(line)
        for line in (ROOT / "eval" / "questions.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ][:10]
    path = tmp_path / "lookups.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_onnxruntime_writes_no_device_id_under_the_home_folder(bundled_store, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = {
        k: v for k, v in os.environ.items() if k not in ("ORT_DISABLE_TELEMETRY", "XDG_CACHE_HOME")
    }
    env |= {"HOME": str(home), "PAPERCHAT_STORE": str(bundled_store)}
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "paperchat",
            "ask",
            "What does ConfPO use to pick preference-critical tokens?",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "p-abe9274a3783" in out.stdout
    assert not (home / ".cache" / "Microsoft").exists()


def test_bench_without_the_bench_extra_says_what_to_install(tmp_path):
    """The LlamaIndex baseline's vector store is the `bench` extra; without it, one line before any work."""
    blocked = (  # as if llama-index-vector-stores-chroma were not installed
        "import runpy, sys; sys.modules['llama_index.vector_stores.chroma'] = None; "
        "sys.argv = ['paperchat', 'bench']; runpy.run_module('paperchat', run_name='__main__')"
    )
    out = subprocess.run(
        [sys.executable, "-c", blocked],
        capture_output=True,
        text=True,
        env={**os.environ, "PAPERCHAT_STORE": str(tmp_path / "store")},
        timeout=120,
    )
    assert (out.returncode, out.stdout) == (1, "")
    assert out.stderr == (
        "error: the LlamaIndex baseline needs llama-index-vector-stores-chroma: "
        "install paperchat[bench], or pass --no-baseline\n"
    )
    assert not (tmp_path / "store").exists()


def test_a_log_lines_time_left_is_rounded_up(monkeypatch, capsys):
    # "about 0 s left" mid-run read as done (a newcomer's break-it session): 0.4 s left is "about 1 s left"
    from paperchat.cli import progress

    clock = iter([0.0, 0.0, 10.0, 20.0])
    monkeypatch.setattr(progress.time, "perf_counter", lambda: next(clock))
    monkeypatch.setenv("PAPERCHAT_PROGRESS_INTERVAL", "0")
    callback = progress._log_lines("embedding", "chunk")
    callback(0, 1002)
    callback(1000, 1002)
    callback(1002, 1002)
    assert capsys.readouterr().err.splitlines() == [
        "embedding: 1000/1002 chunks (99%), 100.0 chunk/s, about 1 s left",
        "embedding: 1002/1002 chunks (100%), 50.1 chunk/s",
    ]


def test_a_progress_interval_that_is_no_number_of_seconds_is_refused(monkeypatch):
    # an operator's "abc" and "-1" had been taken silently
    from paperchat.cli import progress
    from paperchat.core.errors import PaperchatError

    for bad in ("abc", "-1", "inf"):
        monkeypatch.setenv("PAPERCHAT_PROGRESS_INTERVAL", bad)
        with pytest.raises(PaperchatError, match="PAPERCHAT_PROGRESS_INTERVAL must be a number"):
            progress._log_lines("embedding", "chunk")


def test_a_reader_that_stops_early_is_no_error(bundled_store):
    # a chat break-it session: `history | head -1` and `chat ... | head -1` exited 1 (Click's EPIPE exit)
    env = {**os.environ, "PAPERCHAT_STORE": str(bundled_store), "PAPERCHAT_DAEMON": "off"}
    cmd = [sys.executable, "-m", "paperchat", "papers"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    proc.stdout.close()  # the reader is gone before the first line is written
    err = proc.stderr.read().decode()
    assert (proc.wait(timeout=120), err) == (0, "")


def test_sigterm_stops_a_command_as_ctrl_c_does(capsys):
    # an operator's session: `kill` (SIGTERM, as timeout, systemd and docker send) ended an ingest with
    # status 143 and no word; chat's prompt must not take it for a Ctrl-C that clears its line
    import os
    import signal

    import click

    from paperchat.cli import invoke

    @click.group()
    def group():
        pass

    @group.command()
    @click.option("--json", "as_json", is_flag=True)
    def ingest(as_json):
        os.kill(os.getpid(), signal.SIGTERM)
        raise AssertionError("not reached: the handler raises")

    # a test runner's worker may have a handler of its own: the command line installs its own only over
    # the default action, so the default stands in for this test
    previous = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        assert invoke(group, ["ingest"]) == 143
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # put back
    finally:
        signal.signal(signal.SIGTERM, previous)
    out = capsys.readouterr()
    assert out.err.endswith(
        "interrupted; the papers written so far are kept: run the same command again to finish (it resumes)\n"
    )
    assert out.out == ""
    # under --json a script reads the interruption on stdout too (a skeptic's Ctrl-C had left it empty)
    previous = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        assert invoke(group, ["ingest", "--json"]) == 143
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert json.loads(capsys.readouterr().out) == {
        "error": "interrupted; the papers written so far are kept: run the same command again to finish "
        "(it resumes)",
        "kind": "interrupted",
        "exit_status": 143,
    }


def test_the_first_run_names_the_store_it_fills(tmp_path, capsys):
    # an operator's mistyped PAPERCHAT_STORE became a new store filled with the bundled corpus, and the
    # first-run line did not say where
    from types import SimpleNamespace

    from paperchat.cli.common import first_run
    from paperchat.core.settings import load_settings

    settings = load_settings({"store": str(tmp_path / "typo")})
    report = SimpleNamespace(total_papers=38, total_chunks=97)
    engine = SimpleNamespace(ensure_corpus=lambda progress: report)
    obj = SimpleNamespace(settings=settings, engine=lambda: engine)
    said = first_run(obj, quiet=False)
    assert (
        capsys.readouterr().err
        == f"{said}\n"
        == (
            f"ingested the bundled corpus into a new store at {tmp_path / 'typo'}: 38 papers, 97 chunks\n"
        )
    )
    # under --json too, and the answer's JSON carries it as a note (a nightly job's mistyped store path
    # had been answered from the bundled papers with nothing on stderr and nothing in its JSON)
    assert first_run(obj, quiet=False, as_json=True) == said and capsys.readouterr().err
    assert first_run(obj, quiet=True, as_json=True) == said and not capsys.readouterr().err


def test_papers_bibtex_of_an_emptied_store_says_so_and_leaves_the_file(tmp_path):
    # a lab's corpus: after `remove` emptied the store, `papers --bibtex z.bib` exited 0 in silence, the
    # old z.bib untouched, though the README says FILE is replaced
    src = tmp_path / "mine.jsonl"
    row = {
        "id": "x-1",
        "title": "Rewiring Graphs",
        "abstract": "We rewire graphs. Accuracy improves.",
    }
    src.write_text(json.dumps(row) + "\n", encoding="utf-8")
    store, bib = tmp_path / "store", tmp_path / "z.bib"
    assert invoke(store, "--daemon", "off", "ingest", str(src), "--quiet").exit_code == 0
    assert invoke(store, "--daemon", "off", "remove", str(src), "--quiet").exit_code == 0
    bib.write_text("old\n")
    out = invoke(store, "--daemon", "off", "papers", "--bibtex", str(bib))
    assert (
        out.exit_code == 1
    )  # the entry point prints it as "error: ..." (CliRunner keeps the exception)
    assert str(out.exception) == f"the store holds no papers: {bib} not written"
    assert bib.read_text() == "old\n"
