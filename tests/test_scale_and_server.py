"""A few hundred papers from the shared ICML 2025 corpus, a killed ingest, and a real Chroma server."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ICML_JSONL, sigint_default

N_PAPERS = 150


@pytest.fixture(scope="module")
def icml_subset(tmp_path_factory) -> Path:
    """The first 150 papers of ../shared/data/icml2025_abstracts.jsonl as a corpus file."""
    lines = ICML_JSONL.read_text(encoding="utf-8").splitlines()[:N_PAPERS]
    path = tmp_path_factory.mktemp("icml") / "icml_subset.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _cli(*args, store=None, url=None, **kw):
    env = {**os.environ}
    if store is not None:
        env["PAPERCHAT_STORE"] = str(store)
    if url is not None:
        env["PAPERCHAT_CHROMA_URL"] = url
    return subprocess.run(
        [sys.executable, "-m", "paperchat", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        **kw,
    )


def _start_and_interrupt(store: Path, corpus: Path, sig) -> str:
    """Start `paperchat ingest corpus`, send ``sig`` once a batch of papers is written; returns its stderr."""
    env = {
        **os.environ,
        "PAPERCHAT_STORE": str(store),
        "PAPERCHAT_PROGRESS_INTERVAL": "0",  # a line per batch
        "PAPERCHAT_VECTOR_CACHE": "off",  # the model runs: slow enough to interrupt after one batch
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "paperchat", "ingest", str(corpus)],
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=sigint_default,
    )
    seen = b""
    deadline = time.time() + 300
    while time.time() < deadline:
        byte = proc.stderr.read(1)
        if not byte:
            break
        seen += byte
        done = [int(a) for a, _ in re.findall(rb"(\d+)/(\d+) chunks", seen)]
        if done and max(done) >= 1:  # at least one batch of papers is written
            break
    proc.send_signal(sig)
    rest = proc.stderr.read().decode("utf-8", "replace")
    proc.wait()
    if sig == signal.SIGKILL:
        assert proc.returncode == -signal.SIGKILL
    else:  # Ctrl-C: one line, exit 130, no traceback
        assert proc.returncode == 130 and "interrupted" in rest and "Traceback" not in rest
    return rest


def _counts(store: Path) -> tuple[int, int]:
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    return Engine(load_settings({"store": str(store)})).store.counts()


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["SIGKILL", "SIGINT"])
def test_ingest_kill_and_resume_embeds_only_what_is_missing(tmp_path, icml_subset, sig):
    store = tmp_path / "store"
    seed = tmp_path / "seed.jsonl"
    seed.write_text(
        json.dumps({"id": "seed-1", "abstract": "We study sparse attention for long documents."})
        + "\n"
    )
    assert (
        _cli("ingest", str(seed), store=store).returncode == 0
    )  # a store with data: ingests write into it
    _start_and_interrupt(store, icml_subset, sig)
    partial_papers, partial_chunks = _counts(store)
    assert 1 < partial_papers < N_PAPERS + 1
    # The interrupted store opens and answers from what was written.
    ans = _cli("ask", "graph neural networks", "--json", store=store)
    assert ans.returncode == 0, ans.stderr
    if sig == signal.SIGKILL:  # check points at the resume, not (only) at a rebuild
        check = _cli("check", store=store)
        assert (
            check.returncode == 0
            or "If an ingest was interrupted, run it again (it resumes)" in check.stdout
        )
    out = _cli("ingest", str(icml_subset), "--json", store=store)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["total_papers"] == N_PAPERS + 1
    assert report["chunks_embedded"] == report["total_chunks"] - partial_chunks
    assert report["papers_unchanged"] == partial_papers - 1
    again = json.loads(_cli("ingest", str(icml_subset), "--json", store=store).stdout)
    assert (again["chunks_embedded"], again["papers_unchanged"]) == (0, N_PAPERS)
    if sig == signal.SIGKILL:
        assert _cli("check", store=store).stdout.strip().endswith(f"the store at {store} is sound")
    if sig == signal.SIGINT:
        return  # the rest does not depend on how the first run ended
    # Adding 10 papers embeds only those.
    more = ICML_JSONL.read_text(encoding="utf-8").splitlines()[N_PAPERS : N_PAPERS + 10]
    icml_subset.write_text(
        icml_subset.read_text(encoding="utf-8") + "\n".join(more) + "\n", encoding="utf-8"
    )
    added = json.loads(_cli("ingest", str(icml_subset), "--json", store=store).stdout)
    assert (added["papers_added"], added["papers_unchanged"], added["total_papers"]) == (
        10,
        N_PAPERS,
        N_PAPERS + 11,
    )
    assert added["chunks_embedded"] == added["total_chunks"] - again["total_chunks"]
    icml_subset.write_text(
        "\n".join(icml_subset.read_text(encoding="utf-8").splitlines()[:N_PAPERS]) + "\n",
        encoding="utf-8",
    )

    # Real ids from the file, and a question about one of them cites it.
    first = json.loads(icml_subset.read_text(encoding="utf-8").splitlines()[0])
    assert first["id"] == "asDx9sPAUN"
    ask = json.loads(
        _cli(
            "ask",
            "Can transformers learn pseudo-random number sequences from linear congruential generators?",
            "--json",
            store=store,
        ).stdout
    )
    assert ask["sources"][0]["paper_id"] == "asDx9sPAUN"
    assert ask["sources"][0]["title"] == "(How) Can Transformers Predict Pseudo-Random Numbers?"


@pytest.mark.slow
def test_an_interrupted_first_ingest_is_readable_partial_and_resumed(tmp_path, icml_subset):
    store = tmp_path / "store"
    _start_and_interrupt(store, icml_subset, signal.SIGKILL)
    papers, _chunks = _counts(store)
    assert (
        64 <= papers < N_PAPERS
    )  # the finished batches are readable (issue 18: no longer an invisible store)
    check = _cli("check", store=store)
    assert (
        check.returncode == 1
        and f"run `paperchat --store {store.resolve()} ingest {Path(icml_subset).resolve()}` again to "
        "finish it"
        in check.stdout
    )
    out = _cli("ingest", str(icml_subset), "--json", store=store)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["total_papers"] == N_PAPERS
    assert (
        report["papers_unchanged"] >= 64
        and report["papers_added"] + report["papers_unchanged"] == N_PAPERS
    )
    assert (
        0 < report["chunks_embedded"] < report["total_chunks"]
    )  # the written batch was reused, not embedded again


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _chroma_run(path: Path):
    """A real Chroma server (`chroma run`) on a free loopback port, storing its data in ``path``."""
    exe = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))
    port = _free_port()
    proc = subprocess.Popen(
        [exe, "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("chroma run did not start")
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory):
    """A real Chroma server (`chroma run`) on a free loopback port, for the module's tests."""
    with _chroma_run(tmp_path_factory.mktemp("chroma-server")) as url:
        yield url


def test_server_mode_ingest_ask_reingest(chroma_server, tmp_path):
    home = {"HOME": str(tmp_path)}  # the BM25 cache for the server lives in the user cache folder
    first = subprocess.run(
        [sys.executable, "-m", "paperchat", "--chroma-url", chroma_server, "ingest", "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, **home},
        timeout=600,
    )
    assert first.returncode == 0, first.stderr
    report = json.loads(first.stdout)
    assert (report["total_papers"], report["papers_added"]) == (38, 38)
    again = json.loads(
        subprocess.run(
            [sys.executable, "-m", "paperchat", "--chroma-url", chroma_server, "ingest", "--json"],
            capture_output=True,
            text=True,
            env={**os.environ, **home},
        ).stdout
    )
    assert (again["chunks_embedded"], again["total_chunks"]) == (0, report["total_chunks"])
    # A new process with an empty BM25 cache (another machine) still gets hybrid answers.
    other_home = {"HOME": str(tmp_path / "other")}
    ask = subprocess.run(
        [
            sys.executable,
            "-m",
            "paperchat",
            "--chroma-url",
            chroma_server,
            "ask",
            "What does ConfPO use to pick preference-critical tokens?",
            "--json",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, **other_home},
    )
    assert ask.returncode == 0, ask.stderr
    data = json.loads(ask.stdout)
    assert data["sources"][0]["paper_id"] == "p-abe9274a3783"
    assert data["sources"][0]["origin"] == {"path": "000_215d12c2ee2986f8.txt", "index": 3}
    wrong = subprocess.run(
        [
            sys.executable,
            "-m",
            "paperchat",
            "--chroma-url",
            chroma_server,
            "--embed-model",
            "openai:text-embedding-3-small",
            "ask",
            "x",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, **other_home},
    )
    assert (
        wrong.returncode == 1
        and f"paperchat --chroma-url {chroma_server} ingest --rebuild" in wrong.stderr
    )


def test_unreachable_server_is_one_line():
    port = _free_port()
    out = _cli("papers", url=f"http://127.0.0.1:{port}")
    assert out.returncode == 1
    assert out.stderr.strip().startswith(
        f"error: cannot reach the Chroma server at http://127.0.0.1:{port}"
    )
    assert "Traceback" not in out.stderr


OPEN_NEW_STORE = """
import sys
from pathlib import Path
from paperchat.store import open_store
store = open_store(Path(sys.argv[1]))
store.write_meta(probe=1)
assert store.counts() == (0, 0)
print("opened")
"""


def test_processes_opening_a_new_store_at_once_all_succeed(tmp_path):
    # Without the open lock, Chroma's schema migrations race and one process fails
    # with "table collections already exists" (seen in CI).
    for round_ in range(3):
        where = tmp_path / f"store{round_}"
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", OPEN_NEW_STORE, str(where)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(4)
        ]
        outs = [p.communicate(timeout=120) for p in procs]
        assert [p.returncode for p in procs] == [0, 0, 0, 0], outs
        assert all(out.strip() == "opened" for out, _ in outs)


def test_two_concurrent_ingests_leave_a_consistent_store(tmp_path, icml_subset):
    small = tmp_path / "small.jsonl"
    small.write_text(
        "\n".join(icml_subset.read_text(encoding="utf-8").splitlines()[:20]) + "\n",
        encoding="utf-8",
    )
    env = {**os.environ, "PAPERCHAT_STORE": str(tmp_path / "store")}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "paperchat", "ingest", str(small), "--json"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    codes = [p.returncode for p in procs]
    assert 0 in codes, outs
    for code, (_out, err) in zip(codes, outs):
        assert "Traceback" not in err
        if code != 0:
            assert "another paperchat process is writing the store" in err
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    store = Engine(load_settings({"store": str(tmp_path / "store")})).store
    papers = store.papers(abstracts=False)
    chunk_ids = {cid for cid, _text, _title in store.all_chunks()}
    assert len(papers) == 20
    assert chunk_ids == {cid for rec in papers.values() for cid in rec.chunk_ids}


RANKING_QUESTIONS = [
    "What does ConfPO use to pick preference-critical tokens?",
    "Which papers study time series forecasting?",
    "How do the papers handle preference optimization for language models?",
]


def _top10(args: list[str], env: dict | None = None) -> list[str]:
    """Paper ids of ``ask --json --top-k 10``'s retrieved list, in rank order."""
    out = subprocess.run(
        [sys.executable, "-m", "paperchat", *args, "--json", "--top-k", "10"],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    return list(dict.fromkeys(hit["paper_id"] for hit in json.loads(out.stdout)["retrieved"]))


def test_one_ranking_in_ask_chat_eval_and_server_mode(chroma_server, bundled_store, tmp_path):
    """Chroma answers every nearest-neighbour query: ask, chat and eval on the embedded store and ask on a
    `chroma run` server holding the same corpus give the same top 10 for the same question."""
    store = tmp_path / "store"
    shutil.copytree(bundled_store, store)  # chat writes its history here
    embedded = {q: _top10(["--store", str(store), "ask", q]) for q in RANKING_QUESTIONS}
    assert embedded[RANKING_QUESTIONS[0]][0] == "p-abe9274a3783"
    assert all(len(ids) == 10 for ids in embedded.values())

    home = {"HOME": str(tmp_path)}
    ingest = subprocess.run(
        [sys.executable, "-m", "paperchat", "--chroma-url", chroma_server, "ingest", "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, **home},
        timeout=600,
    )
    assert ingest.returncode == 0, ingest.stderr
    for q in RANKING_QUESTIONS:
        assert _top10(["--chroma-url", chroma_server, "ask", q], home) == embedded[q], q

    chat = subprocess.run(
        [sys.executable, "-m", "paperchat", "--store", str(store), "chat", "--top-k", "10"],
        input="\n".join(RANKING_QUESTIONS) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert chat.returncode == 0, chat.stderr
    turns = json.loads(
        subprocess.run(
            [sys.executable, "-m", "paperchat", "--store", str(store), "history", "--json"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    chat_ranks = {
        t["question"]: list(dict.fromkeys(h["paper_id"] for h in t["retrieved"]))[:10]
        for t in turns
    }
    for q in RANKING_QUESTIONS:
        assert chat_ranks[q] == embedded[q], q

    questions = tmp_path / "q.jsonl"
    questions.write_text(
        "".join(
            json.dumps({"id": f"r{i}", "question": q, "gold": [embedded[q][0]], "kind": "lookup"})
            + "\n"
            for i, q in enumerate(RANKING_QUESTIONS)
        ),
        encoding="utf-8",
    )
    ev = subprocess.run(
        [
            sys.executable,
            "-m",
            "paperchat",
            "--store",
            str(store),
            "eval",
            "--set",
            str(questions),
            "--top-k",
            "10",
            "--json",
            "--out",
            str(tmp_path / "eval"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert ev.returncode == 0, ev.stderr
    ranked = {
        r["question"]: r["ranked"][:10]
        for r in json.loads((tmp_path / "eval" / "results.json").read_text())["questions"]
    }
    for q in RANKING_QUESTIONS:
        assert ranked[q] == embedded[q], q


def test_a_writer_on_another_machine_holds_the_servers_write_lease(chroma_server, tmp_path):
    # the write lock is a file on this machine: a writer on another one (or another user) went unseen, and
    # a rebuild there dropped this ingest's papers while both reported success (paperchat.store.lease)
    from paperchat import Paperchat
    from paperchat.core.errors import StoreError
    from paperchat.store.opening import open_store

    corpus = tmp_path / "one.jsonl"
    corpus.write_text(
        json.dumps({"id": "lease-1", "title": "Leases", "abstract": "We study write leases."})
        + "\n",
        encoding="utf-8",
    )
    other = open_store(chroma_url=chroma_server.replace("127.0.0.1", "localhost"))
    other.write_meta(writer_lease=f"theirs|lab-box-2|4242|{time.time() + 300}")
    pc = Paperchat(chroma_url=chroma_server)
    with pytest.raises(StoreError) as err:
        pc.ingest(corpus)
    assert str(err.value).startswith(
        f"another paperchat process (pid 4242 on lab-box-2) is writing the store at {chroma_server}; "
        "try again when it has finished (its lease runs out in "
    )
    other.write_meta(
        writer_lease=f"theirs|lab-box-2|4242|{time.time() - 1}"
    )  # that writer was killed
    assert pc.ingest(corpus).papers_added == 1
    assert other.read_meta()["writer_lease"] == ""  # released at the end


def test_a_live_lease_elsewhere_is_an_ingest_under_way_and_a_lost_one_stops_the_writer(
    chroma_server, tmp_path
):
    # a server session: `check` on another machine called a live ingest there "interrupted" (exit 1); a
    # writer stopped past its lease, then resumed, went on writing beside the writer that took the store
    from paperchat import Paperchat
    from paperchat.core.errors import StoreError
    from paperchat.store.opening import open_store
    from paperchat.store.runs import encode

    url = chroma_server.replace("127.0.0.1", "localhost")
    other = open_store(chroma_url=url)
    other.write_meta(
        writer_lease=f"theirs|lab-box-2|4242|{time.time() + 300}",
        writing=encode({"elsewhere;metadata=-": "paperchat ingest /data/g.jsonl"}),
    )
    check = _cli("check", url=chroma_server)
    assert check.returncode == 0, check.stdout
    assert "note  ingest: an ingest is writing the store at" in check.stdout
    other.write_meta(writer_lease="", writing="")
    corpus = tmp_path / "two.jsonl"
    corpus.write_text(
        "".join(
            json.dumps({"id": f"lost-{i}", "title": f"Lost {i}", "abstract": f"We lose lease {i}."})
            + "\n"
            for i in range(2)
        ),
        encoding="utf-8",
    )
    pc = Paperchat(chroma_url=chroma_server)

    def taken(done: int, total: int) -> None:  # the store taken while this writer was stopped
        other.write_meta(writer_lease=f"theirs|lab-box-2|4242|{time.time() + 300}")

    with pytest.raises(StoreError) as err:
        pc.engine.ingest([corpus], progress=taken)
    assert str(err.value).startswith(
        f"this ingest lost the write lease of the store at {chroma_server} while it was stopped "
        "(pid 4242 on lab-box-2 took it)"
    )
    other.write_meta(writer_lease="", writing="")


def test_a_writer_here_stopped_past_its_lease_fails_check(chroma_server):
    # a lab engineer's cron check: an ingest stopped (SIGSTOP) past its lease still held the write lock on
    # this machine, and `check` here said "an ingest is writing ... now" (exit 0) forever, while another
    # machine's said interrupted
    import os
    import socket

    from filelock import FileLock

    from paperchat.store.opening import open_store
    from paperchat.store.runs import encode

    store = open_store(chroma_url=chroma_server)
    run = {"stalled;metadata=-": "paperchat ingest /data/s.jsonl"}
    lock = FileLock(str(store.local_dir / "write.lock"))
    with lock:
        store.write_meta(
            writer_lease=f"mine|{socket.gethostname()}|{os.getpid()}|{time.time() - 400}",
            writing=encode(run),
        )
        try:
            check = _cli("check", url=chroma_server)
        finally:
            store.write_meta(writer_lease="", writing="")
    assert check.returncode == 1, check.stdout
    assert re.search(
        re.escape(
            f"FAIL  ingest: an ingest of the store at {chroma_server} has not written for over 300 s "
            f"(pid {os.getpid()} on {socket.gethostname()}, "
        )
        + r"40\d s past its lease\): it is stopped or hung; end it, then run `paperchat ingest "
        r"/data/s\.jsonl` again to finish it \(it resumes\)",
        check.stdout,
    ), check.stdout


def test_each_servers_chat_history_is_its_own(tmp_path, monkeypatch):
    # a lab engineer's session: chats on two servers were logged to the default embedded store's folder, and
    # `chat --continue` on one server resumed the other's conversation
    from types import SimpleNamespace

    from paperchat.store.opening import local_folder, server_folder

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    default = tmp_path / "data" / "store"

    def folder(url):
        return local_folder(SimpleNamespace(chroma_url=url, store_path=default))

    assert folder(None) == default
    assert folder("http://localhost:18301") == folder("http://127.0.0.1:18301/")
    assert folder("http://localhost:18301") == server_folder("http://localhost:18301")
    assert folder("http://localhost:18301") != folder("http://localhost:18303")
    assert tmp_path / "cache" in folder("http://localhost:18301").parents


def test_a_servers_first_ingest_is_not_searched_while_it_runs(tmp_path, monkeypatch):
    # a lab engineer's session: during a server store's first ingest of 147 papers, a colleague's `ask`
    # answered from the 64 stored so far, no word said (an embedded store refuses, naming the ingest)
    from paperchat import Paperchat

    rows = [
        {
            "id": f"s{i}",
            "title": f"Sparse attention {i}",
            "abstract": f"We study sparse attention {i}.",
        }
        for i in range(5)
    ]
    corpus = tmp_path / "five.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    monkeypatch.setattr("paperchat.ingest.run.PAPER_BATCH", 2)
    with _chroma_run(tmp_path / "fresh") as url:
        during = []

        def ask_elsewhere(done, total):
            if done and not during:
                during.append(_cli("--daemon", "off", "ask", "sparse attention", url=url))

        Paperchat(chroma_url=url).engine.ingest([corpus], progress=ask_elsewhere)
        after = _cli("--daemon", "off", "ask", "sparse attention", "--json", url=url)
    assert during[0].returncode == 1 and "Traceback" not in during[0].stderr
    assert f"error: an ingest is building the store at {url} now" in during[0].stderr
    assert after.returncode == 0 and json.loads(after.stdout)["sources"]


def test_an_empty_server_fails_check(tmp_path):
    # a server session: a server restarted on another data folder came back empty, and `check` called it
    # sound (exit 0), so a health check missed the lost papers
    with _chroma_run(tmp_path / "fresh") as url:
        check = _cli("check", url=url)
    assert check.returncode == 1, check.stdout
    assert (
        "FAIL  papers: the server holds no paperchat store (was it started on another --path?); "
        "`paperchat ingest` fills it"
    ) in check.stdout.splitlines()


def test_an_ipv6_host_in_brackets_is_a_host_not_an_unknown_name():
    # a lab engineer's session: `--chroma-url http://[::1]:18301` with no server there said "no host named
    # '[::1]'" (the resolver was given the URL's brackets), not that nothing answered
    from paperchat.store.opening import _unknown_host

    assert _unknown_host("[::1]", 18301) is None
    assert _unknown_host("no-such-host.invalid", 18301).startswith(
        "no host named 'no-such-host.invalid'"
    )
