"""The warm daemon (``paperchat daemon``): real processes, real Chroma stores in temp folders, each test's daemons
in a runtime folder of its own, stopped at the end."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

QUESTION = "What does ConfPO use to pick preference-critical tokens?"
#: a paper no corpus holds, ingested while a daemon runs
NEW_PAPER = {
    "id": "zebrafold-1",
    "title": "ZebraFold: Folding Striped Proteins with Stripe Attention",
    "abstract": "We introduce ZebraFold, a protein structure predictor for striped proteins. ZebraFold uses "
    "stripe attention, which attends along alternating residue stripes, and improves folding "
    "accuracy by 9% over prior predictors on striped benchmarks.",
}


@pytest.fixture
def runtime():
    """A short private runtime folder (XDG_RUNTIME_DIR) for this test's daemons; any left running are stopped."""
    folder = Path(tempfile.mkdtemp(prefix="pcd-"))
    yield folder
    for info in (folder / "paperchat").glob("*.json"):
        try:
            os.kill(json.loads(info.read_text(encoding="utf-8"))["pid"], signal.SIGTERM)
        except (OSError, ValueError, KeyError):
            pass
    shutil.rmtree(folder, ignore_errors=True)


def pc(*args, runtime: Path, store: Path, daemon: str = "on", idle: str = "60", env=None):
    """``paperchat ARGS`` in a fresh process (bytes out), with the daemon setting and the test's runtime folder."""
    full_env = {
        **os.environ,
        "XDG_RUNTIME_DIR": str(runtime),
        "PAPERCHAT_STORE": str(store),
        "PAPERCHAT_DAEMON": daemon,
        "PAPERCHAT_DAEMON_IDLE": idle,
        **(env or {}),
    }
    return subprocess.run(
        [sys.executable, "-m", "paperchat", *args],
        capture_output=True,
        env=full_env,
        input=b"",
        timeout=300,
    )


def status(runtime: Path, store: Path) -> dict:
    """``paperchat daemon status --json`` ({} when none runs)."""
    return json.loads(pc("daemon", "status", "--json", runtime=runtime, store=store).stdout)


def wait_until(predicate, what: str, limit_s: float = 120.0) -> None:
    deadline = time.monotonic() + limit_s
    while not predicate():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.2)


def test_output_and_exit_status_through_the_daemon_are_the_in_process_ones(bundled_store, runtime):
    started = pc("daemon", "start", runtime=runtime, store=bundled_store)
    assert started.returncode == 0 and started.stdout.decode().startswith("daemon started (pid ")
    for args in (
        ["ask", QUESTION, "--json"],
        ["ask", QUESTION],
        ["papers", "--json"],
        ["papers", "--paper", "nonexistent"],
        ["summarize", "ConfPO", "--json"],
    ):
        here = pc(*args, runtime=runtime, store=bundled_store, daemon="off")
        there = pc(*args, runtime=runtime, store=bundled_store)
        assert (there.returncode, there.stdout, there.stderr) == (
            here.returncode,
            here.stdout,
            here.stderr,
        ), args
    assert json.loads(there.stdout)["sources"][0]["label"] == "ConfPO"
    assert here.returncode == 0
    bad = pc("papers", "--paper", "nonexistent", runtime=runtime, store=bundled_store)
    assert bad.returncode == 1 and bad.stderr.decode() == (
        "error: no paper with id nonexistent in the store (--paper); `paperchat papers` lists them\n"
    )
    info = status(runtime, bundled_store)
    assert (
        info["requests"] == 6
        and info["state"] == "serving"
        and info["store"] == str(bundled_store.resolve())
    )


def test_a_file_written_through_the_daemon_gets_the_callers_umask(bundled_store, runtime, tmp_path):
    # a lab engineer's session: `papers --bibtex x.bib` under umask 077 wrote 0644 through the daemon
    assert pc("daemon", "start", runtime=runtime, store=bundled_store).returncode == 0
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime), "PAPERCHAT_STORE": str(bundled_store)}
    for mask, mode in ((0o077, 0o600), (0o002, 0o664)):
        out = tmp_path / f"papers-{mask:o}.bib"
        done = subprocess.run(
            [sys.executable, "-m", "paperchat", "--daemon", "on", "papers", "--bibtex", str(out)],
            capture_output=True,
            env=env,
            timeout=300,
            preexec_fn=lambda mask=mask: os.umask(mask),
        )
        assert done.returncode == 0, done.stderr
        assert out.stat().st_mode & 0o777 == mode, f"umask {mask:o}"
    assert status(runtime, bundled_store)["requests"] == 2  # both written by the daemon


def test_a_paper_ingested_by_another_process_is_answered(bundled_store, runtime, tmp_path):
    store = tmp_path / "store"
    shutil.copytree(bundled_store, store)
    assert pc("daemon", "start", runtime=runtime, store=store).returncode == 0
    corpus = tmp_path / "new.jsonl"
    corpus.write_text(json.dumps(NEW_PAPER) + "\n", encoding="utf-8")
    assert pc("ingest", str(corpus), "-q", runtime=runtime, store=store).returncode == 0
    answer = json.loads(
        pc(
            "ask",
            "What does ZebraFold use to fold striped proteins?",
            "--json",
            runtime=runtime,
            store=store,
        ).stdout
    )
    assert answer["sources"][0]["paper_id"] == "zebrafold-1"
    listed = json.loads(pc("papers", "--json", runtime=runtime, store=store).stdout)
    assert len(listed) == 39 and "zebrafold-1" in [p["paper_id"] for p in listed]
    assert (
        status(runtime, store)["requests"] == 2
    )  # both answered by the daemon that was started before the ingest


def test_a_store_restored_from_a_backup_is_read_not_the_one_the_daemon_opened(
    bundled_store, runtime, tmp_path
):
    # the daemon had kept serving the deleted files of the store it opened (a restored backup, a store
    # deleted and ingested again, or moved away): it now hands the command back and exits
    store, backup = tmp_path / "store", tmp_path / "backup"
    shutil.copytree(bundled_store, store)
    shutil.copytree(store / "chroma", backup)
    assert pc("daemon", "start", runtime=runtime, store=store).returncode == 0
    old_pid = status(runtime, store)["pid"]
    corpus = tmp_path / "new.jsonl"
    corpus.write_text(json.dumps(NEW_PAPER) + "\n", encoding="utf-8")
    assert pc("ingest", str(corpus), "-q", runtime=runtime, store=store).returncode == 0
    assert len(json.loads(pc("papers", "--json", runtime=runtime, store=store).stdout)) == 39
    shutil.rmtree(store / "chroma")
    shutil.copytree(backup, store / "chroma")
    listed = json.loads(pc("papers", "--json", runtime=runtime, store=store).stdout)
    assert len(listed) == 38 and "zebrafold-1" not in [p["paper_id"] for p in listed]
    wait_until(lambda: status(runtime, store).get("pid") != old_pid, "the old daemon's exit")


def test_other_code_runs_in_process_and_auto_starts_a_daemon_for_the_next_command(
    bundled_store, runtime
):
    import paperchat

    assert pc("daemon", "start", runtime=runtime, store=bundled_store).returncode == 0
    old_pid = status(runtime, bundled_store)["pid"]
    here = pc("ask", QUESTION, "--json", runtime=runtime, store=bundled_store, daemon="off")
    source = Path(paperchat.__file__)
    before = source.stat()
    os.utime(
        source, ns=(before.st_atime_ns, time.time_ns())
    )  # an edited checkout: another code stamp
    try:
        edited = pc("ask", QUESTION, "--json", runtime=runtime, store=bundled_store, daemon="auto")
        assert (edited.returncode, edited.stdout, edited.stderr) == (
            here.returncode,
            here.stdout,
            here.stderr,
        )
        wait_until(
            lambda: status(runtime, bundled_store).get("pid") not in (None, old_pid),
            "the old daemon's exit",
        )
        wait_until(lambda: status(runtime, bundled_store).get("state") == "serving", "a new daemon")
        assert status(runtime, bundled_store)["requests"] == 0
        again = pc("ask", QUESTION, "--json", runtime=runtime, store=bundled_store, daemon="auto")
        assert again.stdout == here.stdout and status(runtime, bundled_store)["requests"] == 1
    finally:
        os.utime(source, ns=(before.st_atime_ns, before.st_mtime_ns))


def test_a_refused_command_starts_no_daemon(bundled_store, runtime):
    # a newcomer's break-it session: `ask ""` said why and then left a 470 MB daemon for 15 idle minutes
    refused = pc("ask", "", runtime=runtime, store=bundled_store, daemon="auto")
    assert refused.returncode != 0 and b"question is empty" in refused.stderr
    # starting one takes its lock file first, before this process exits: none was taken
    assert list(runtime.glob("paperchat/*.lock")) == [] and status(runtime, bundled_store) == {}


def test_stop_status_and_idle_exit(bundled_store, runtime):
    where = str(bundled_store.resolve())
    none = pc("daemon", "stop", runtime=runtime, store=bundled_store)
    assert (none.returncode, none.stdout.decode()) == (0, f"no daemon runs for {where}\n")
    assert pc("daemon", "start", runtime=runtime, store=bundled_store).returncode == 0
    pid = status(runtime, bundled_store)["pid"]
    stopped = pc("daemon", "stop", runtime=runtime, store=bundled_store)
    assert (stopped.returncode, stopped.stdout.decode()) == (
        0,
        f"daemon pid {pid} stopped for {where}\n",
    )
    after = pc("daemon", "status", runtime=runtime, store=bundled_store)
    assert (after.returncode, after.stdout.decode()) == (1, f"no daemon runs for {where}\n")
    assert not list((runtime / "paperchat").glob("*.sock"))
    assert pc("daemon", "start", runtime=runtime, store=bundled_store, idle="2").returncode == 0
    wait_until(lambda: not status(runtime, bundled_store), "the idle daemon to exit")
    assert not list((runtime / "paperchat").glob("*.sock")) and not list(
        (runtime / "paperchat").glob("*.json")
    )


def test_a_daemon_whose_store_failed_to_open_does_not_linger(runtime, tmp_path):
    """A command on an unreachable Chroma server fails; the daemon started for it idles out in 30 s, not 15 min."""
    url = ("--chroma-url", "http://127.0.0.1:9")
    out = pc(*url, "ask", "What is ConfPO?", runtime=runtime, store=tmp_path, idle="900")
    assert out.returncode == 1 and b"cannot reach the Chroma server" in out.stderr
    info = json.loads(
        pc(*url, "daemon", "status", "--json", runtime=runtime, store=tmp_path).stdout
    )
    assert info["idle_s"] == 30.0


def test_ctrl_c_on_an_llm_ask_frees_the_daemon_at_once(bundled_store, runtime):
    """A client that hangs up abandons its request, even one waiting on an LLM that has not answered: the
    daemon had kept waiting (up to the 60 s timeout) while every later command on the store queued."""
    from openai_stub import Hang, StubServer

    assert pc("daemon", "start", runtime=runtime, store=bundled_store).returncode == 0
    with StubServer() as server:
        server.script(Hang(120))  # the LLM never answers within the test
        env = {
            **os.environ,
            "XDG_RUNTIME_DIR": str(runtime),
            "PAPERCHAT_STORE": str(bundled_store),
            "PAPERCHAT_DAEMON": "on",
            "OPENAI_BASE_URL": server.base_url,
            "PAPERCHAT_LLM_MODEL": "stub-model",
            "PAPERCHAT_TIMEOUT": "120",
            "PAPERCHAT_MAX_RETRIES": "0",
        }
        asking = subprocess.Popen(
            [sys.executable, "-m", "paperchat", "ask", QUESTION, "--mode", "llm"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        wait_until(lambda: server.count() >= 1, "the LLM request reached the stub")
        # while it is busy, another command runs in its own process rather than queue behind it
        assert status(runtime, bundled_store)["state"] == "busy"

        def papers():
            return subprocess.run(
                [sys.executable, "-m", "paperchat", "papers", "--json"],
                env=env,
                capture_output=True,
                timeout=60,
            )

        meanwhile = papers()
        assert meanwhile.returncode == 0 and len(json.loads(meanwhile.stdout)) == 38
        asking.send_signal(signal.SIGINT)
        assert asking.wait(timeout=60) == 130
        # the daemon serves the next command; it had still been waiting on the LLM for minutes
        listed = papers()
    assert listed.returncode == 0 and len(json.loads(listed.stdout)) == 38
    assert (
        status(runtime, bundled_store)["requests"] == 2
    )  # the ask and this one; not the one run meanwhile


def test_spellings_of_one_server_url_share_one_daemon():
    # a break-it session: localhost, LOCALHOST/ and 127.0.0.1 each started a daemon of their own (~300 MB)
    from types import SimpleNamespace

    from paperchat.cli.daemon_link import daemon_files

    def socket_of(url):
        return daemon_files(SimpleNamespace(chroma_url=url, store_path=None)).socket

    same = {
        socket_of(u)
        for u in ("http://localhost:8731", "http://LOCALHOST:8731/", "http://127.0.0.1:8731")
    }
    assert len(same) == 1
    assert socket_of("http://127.0.0.1:8732") not in same


def test_a_daemon_started_for_a_terminal_says_so(bundled_store, runtime):
    # an own-corpus session found fifteen daemons (4.9 GB), one per store tried, that nothing had mentioned;
    # a script's stderr (not a terminal) stays as it was (the test above compares it byte for byte)
    import pexpect

    env = {
        **os.environ,
        "XDG_RUNTIME_DIR": str(runtime),
        "PAPERCHAT_STORE": str(bundled_store),
        "PAPERCHAT_DAEMON": "auto",
        "PAPERCHAT_DAEMON_IDLE": "60",
    }
    child = pexpect.spawn(
        sys.executable, ["-m", "paperchat", "papers"], env=env, encoding="utf-8", timeout=120
    )
    child.expect(pexpect.EOF)
    assert (
        f"note: started a background daemon for {bundled_store.resolve()} so the next command is fast; "
        "it exits after 1 min idle (`paperchat daemon stop` ends it, --daemon off starts none)"
    ) in " ".join(child.before.split())
    wait_until(lambda: status(runtime, bundled_store).get("state") == "serving", "the daemon")
