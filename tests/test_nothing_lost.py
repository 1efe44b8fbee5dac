"""Nothing lost, round two (issue 18): files told apart by path, damaged or partial stores never called sound,
huge abstracts, leftovers, read-only folders, full disks, a Chroma server that stops, `ingest DIR`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from paperchat.cli import cli as paperchat_cli


def write_jsonl(path: Path, rows: list[tuple[str, str, str]]) -> Path:
    """A corpus file of ``(id, title, abstract)`` rows."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "".join(json.dumps({"id": i, "title": t, "abstract": a}) + "\n" for i, t, a in rows),
        encoding="utf-8",
    )
    return path


A_ROWS = [
    (
        "a1",
        "Graph pruning",
        "We prune graph neural networks by edge saliency. Accuracy stays within 1%.",
    ),
    (
        "a2",
        "Sparse attention",
        "We study sparse attention for long documents. It halves memory use.",
    ),
]
B_ROWS = [
    (
        "b1",
        "Protein folding",
        "We fold proteins with lattice field theory. Free energies match experiment.",
    ),
    ("b2", "Robot grasping", "We learn robot grasping from tactile signals. Success rises to 92%."),
]


def engine_for(store: Path):
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    return Engine(load_settings({"store": str(store)}))


def invoke(store: Path, *args):
    return CliRunner().invoke(paperchat_cli, ["--store", str(store), *args])


def cli(store: Path, *args, timeout: float = 300, cwd: Path | None = None, **env):
    return subprocess.run(
        [sys.executable, "-m", "paperchat", "--store", str(store), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env={**os.environ, **env},
    )


def stored(store: Path) -> dict[str, dict]:
    out = invoke(store, "papers", "--json")
    assert out.exit_code == 0, out.output
    return {p["paper_id"]: p for p in json.loads(out.stdout)}


# -- 1. files are told apart by their resolved path ---------------------------------------------------------


def test_two_files_of_the_same_name_in_two_folders_keep_their_own_papers(tmp_path):
    a = write_jsonl(tmp_path / "A" / "papers.jsonl", A_ROWS)
    b = write_jsonl(tmp_path / "B" / "papers.jsonl", B_ROWS)
    store = tmp_path / "store"
    engine = engine_for(store)
    assert engine.ingest([a]).papers_added == 2
    second = engine.ingest([b])
    assert (second.papers_added, second.papers_removed) == (2, 0)
    assert sorted(stored(store)) == ["a1", "a2", "b1", "b2"]
    both = engine.ingest([a, b])
    assert (both.papers_unchanged, both.papers_removed) == (4, 0)
    again = engine.ingest([a])  # re-ingesting the unchanged A alone removes nothing of B's
    assert (again.papers_unchanged, again.papers_removed) == (2, 0)
    papers = stored(store)
    assert sorted(papers) == ["a1", "a2", "b1", "b2"]
    assert papers["a1"]["origin"] == {
        "path": "papers.jsonl",
        "index": 1,
        "file": str(a.resolve()),
        "also_in": [],
    }
    assert papers["b2"]["origin"] == {
        "path": "papers.jsonl",
        "index": 2,
        "file": str(b.resolve()),
        "also_in": [],
    }
    # A changed file removes only the papers it held.
    write_jsonl(a, A_ROWS[:1])
    changed = engine.ingest([a])
    assert (changed.papers_removed, changed.papers_unchanged) == (1, 1)
    assert sorted(stored(store)) == ["a1", "b1", "b2"]
    # `papers` says which file: by path when two stored files share a name.
    text = invoke(store, "papers").stdout.splitlines()
    assert [line.split()[-2:] for line in text[1:4]] == [
        [str(a.resolve()), "#1"],
        [str(b.resolve()), "#1"],
        [str(b.resolve()), "#2"],
    ]
    assert text[4:] == [
        "3 papers, 3 chunks from 2 files:",
        f"  {a.resolve()}: 1 paper",
        f"  {b.resolve()}: 2 papers",
    ]


def _forget_paths(store: Path) -> None:
    """Make the store's records look like an earlier paperchat's: origin by file name only."""
    from paperchat.store.opening import open_store

    chroma = open_store(store, create=False)
    col = chroma.collection("papers")
    got = col.get(include=["metadatas"])
    col.update(ids=got["ids"], metadatas=[{**m, "source_file": ""} for m in got["metadatas"]])


def test_a_store_that_knows_files_by_name_only_never_loses_another_folders_papers(tmp_path):
    a = write_jsonl(tmp_path / "A" / "papers.jsonl", A_ROWS)
    b = write_jsonl(tmp_path / "B" / "papers.jsonl", B_ROWS)
    store = tmp_path / "store"
    engine_for(store).ingest([a, b])
    _forget_paths(store)
    assert {p["origin"]["file"] for p in stored(store).values()} == {""}
    write_jsonl(a, A_ROWS[:1])  # A changed: it no longer holds a2
    report = engine_for(store).ingest([a])
    assert report.papers_removed == 0  # b1, b2 (and a2) may be the other folder's: kept
    assert report.notes == [
        "kept 3 papers an earlier paperchat stored from a file named 'papers.jsonl' that this file does not hold "
        "(that may be another folder's papers.jsonl); `paperchat ingest --rebuild FILES` makes the store hold "
        "exactly your files"
    ]
    papers = stored(store)
    assert sorted(papers) == ["a1", "a2", "b1", "b2"]
    assert papers["a1"]["origin"]["file"] == str(
        a.resolve()
    )  # the paper A holds now knows its file
    assert papers["b1"]["origin"]["file"] == ""


# -- 2. an empty or garbled database is damage ----------------------------------------------------------------


@pytest.mark.parametrize("damage", ["empty", "garbled"])
def test_an_empty_or_garbled_database_is_damage_never_an_empty_store(
    tmp_path, bundled_store, damage
):
    store = tmp_path / "store"
    shutil.copytree(bundled_store, store, ignore=shutil.ignore_patterns("*.lock"))
    db = store / "chroma" / "chroma.sqlite3"
    db.write_bytes(b"" if damage == "empty" else b"this is not a database\n" * 200)
    reason = f"{db} is empty (0 bytes)" if damage == "empty" else f"{db} is not a SQLite database"
    message = (
        f"error: the store at {store} is damaged: {reason}. Restore it from a backup, or start afresh with "
        f"`paperchat --store {store} ingest --rebuild FILES` (the stored papers are lost)"
    )  # the command keeps the --store given (a README audit: without it, it rebuilt the default store)
    check = cli(store, "check")
    assert check.returncode == 1
    assert (
        f"FAIL  database: {reason}. Restore the store from a backup, or start afresh with `paperchat "
        f"--store {store.resolve()} ingest --rebuild FILES` (the stored papers are lost)"
    ) in check.stdout.splitlines()
    for args in (("papers",), ("ask", "What does ConfPO do?")):
        out = cli(store, *args)
        assert (out.returncode, out.stdout, out.stderr.strip()) == (1, "", message), args
    two = write_jsonl(tmp_path / "two.jsonl", A_ROWS)
    out = cli(store, "ingest", str(two))
    assert (out.returncode, out.stderr.strip()) == (1, message)
    assert db.read_bytes()[:6] in (b"", b"this i")  # nothing was written in its place
    rebuilt = cli(store, "ingest", "--rebuild", "--quiet", str(two))
    assert rebuilt.returncode == 0, rebuilt.stderr
    aside = sorted(store.glob("chroma.damaged-*"))
    assert len(aside) == 1 and f"the damaged folder was moved to {aside[0]}" in rebuilt.stderr
    assert sorted(stored(store)) == ["a1", "a2"]
    assert cli(store, "check").stdout.strip().endswith(f"the store at {store} is sound")


# -- 3. an interrupted first ingest is partial, shown, and never mixed with the bundled corpus ----------------------


FIVE = (
    A_ROWS
    + B_ROWS
    + [("c1", "Tabular transformers", "We pretrain transformers on tables. They beat boosting.")]
)


def _interrupted_ingest(store: Path, corpus: Path, monkeypatch, after_batches: int) -> None:
    """Ingest ``corpus`` two papers a batch and stop it (as Ctrl-C does) after ``after_batches`` batches."""
    monkeypatch.setattr("paperchat.ingest.run.PAPER_BATCH", 2)
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) > after_batches:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        engine_for(store).ingest([corpus], progress=progress)


def test_an_interrupted_first_ingest_shows_its_papers_is_partial_and_gets_no_bundled_corpus(
    tmp_path, monkeypatch
):
    corpus = write_jsonl(tmp_path / "five.jsonl", FIVE)
    store = tmp_path / "store"
    _interrupted_ingest(store, corpus, monkeypatch, after_batches=1)
    assert sorted(stored(store)) == ["a1", "a2"]  # the finished papers are readable
    check = cli(store, "check")
    assert check.returncode == 1
    assert (
        f"FAIL  ingest: an ingest of the store at {store} was interrupted (2 papers stored so far): run "
        f"`paperchat --store {store.resolve()} ingest {corpus.resolve()}` again to finish it (it resumes)"
    ) in check.stdout.splitlines()
    assert "sound" not in check.stdout and "empty" not in check.stdout
    ask = cli(store, "ask", "Which paper studies sparse attention for long documents?", "--json")
    assert ask.returncode == 0, ask.stderr
    assert (
        "bundled corpus" not in ask.stderr
        and json.loads(ask.stdout)["sources"][0]["paper_id"] == "a2"
    )
    # a reliability session: the answer had not said the store is partial
    assert any(
        "was interrupted (2 papers stored so far): run" in note
        for note in json.loads(ask.stdout)["notes"]
    )
    assert sorted(stored(store)) == ["a1", "a2"]  # nothing was added to it
    done = json.loads(cli(store, "ingest", str(corpus), "--json").stdout)
    assert (done["papers_added"], done["papers_unchanged"], done["total_papers"]) == (3, 2, 5)
    assert cli(store, "check").stdout.strip().endswith(f"the store at {store} is sound")


def test_a_store_its_first_ingest_still_writes_is_not_searched_by_another_process(
    tmp_path, monkeypatch
):
    # an MCP break-it session: a server searching a store while its first ingest wrote it crashed in Chroma's
    # native index code (3 runs of 3) and left the store unreadable; readers now wait for that ingest
    corpus = write_jsonl(tmp_path / "five.jsonl", FIVE)
    store = tmp_path / "store"
    monkeypatch.setattr("paperchat.ingest.run.PAPER_BATCH", 2)
    during = []

    def ask_from_another_process(done, total):
        if done and not during:  # after the first batch: two papers stored, the write lock held
            during.append(cli(store, "--daemon", "off", "ask", "sparse attention", "--json"))

    engine_for(store).ingest([corpus], progress=ask_from_another_process)
    assert during[0].returncode != 0 and "Traceback" not in during[0].stderr
    assert (
        f"an ingest is building the store at {store} now; search it when that ingest has finished "
        f"(`paperchat --store {store} papers` lists what it has stored so far)"
    ) in during[0].stderr
    after = cli(store, "--daemon", "off", "ask", "sparse attention", "--json")
    assert after.returncode == 0 and json.loads(after.stdout)["sources"][0]["paper_id"] == "a2"
    assert cli(store, "check").stdout.strip().endswith(f"the store at {store} is sound")


def test_a_re_ingest_stopped_while_embedding_leaves_each_paper_whole(tmp_path, monkeypatch):
    # an operator's session: a re-ingest of an edited file, stopped part-way, left papers whose old chunks
    # were deleted before the new ones were embedded; `check` found chunks missing and `summarize` quoted them
    corpus = write_jsonl(tmp_path / "five.jsonl", FIVE)
    store = tmp_path / "store"
    engine_for(store).ingest([corpus])
    edited = [(i, t, a + " We also release a toolkit.") for i, t, a in FIVE]
    write_jsonl(corpus, edited)
    import paperchat.ingest.run as run

    monkeypatch.setattr(run, "PAPER_BATCH", 2)
    embed, calls = run.embed_papers, []

    def stopped_in_the_second_batch(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt  # as Ctrl-C while the second batch embeds
        return embed(*args, **kwargs)

    monkeypatch.setattr(run, "embed_papers", stopped_in_the_second_batch)
    with pytest.raises(KeyboardInterrupt):
        engine_for(store).ingest([corpus])
    check = cli(store, "check")
    assert "chunk(s) missing" not in check.stdout, check.stdout
    # every paper is whole: the old text, its chunks all stored, until the run is finished
    assert {p["paper_id"]: p["chunks"] for p in stored(store).values()} == dict.fromkeys(
        [i for i, _t, _a in FIVE], 1
    )
    # the first batch (a1, a2) is new, the second (b1, b2) old: neither lost a chunk
    for pid, new in (("a1", True), ("b1", False)):
        summary = json.loads(cli(store, "summarize", pid, "--json").stdout)
        assert ("toolkit" in summary["answer"]) is new
    assert json.loads(cli(store, "ingest", str(corpus), "--json").stdout)["papers_updated"] == 3
    assert cli(store, "check").stdout.strip().endswith(f"the store at {store} is sound")


def test_a_stopped_re_ingest_of_edited_abstracts_without_ids_keeps_each_paper_old_or_new(
    tmp_path, monkeypatch
):
    # an own-corpus session: an edited abstract without an id is a new paper id; the old versions were deleted
    # before the new ones were written, so Ctrl-C while re-ingesting left none of the file's papers
    rows = A_ROWS + B_ROWS
    corpus = tmp_path / "mine.jsonl"

    def write(suffix: str) -> None:
        corpus.write_text(
            "".join(json.dumps({"title": t, "abstract": a + suffix}) + "\n" for _i, t, a in rows),
            encoding="utf-8",
        )

    write("")
    store = tmp_path / "store"
    engine_for(store).ingest([corpus])
    write(" We also release a toolkit.")
    import paperchat.ingest.run as run

    monkeypatch.setattr(run, "PAPER_BATCH", 2)
    embed, calls = run.embed_papers, []

    def stopped_in_the_second_batch(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return embed(*args, **kwargs)

    monkeypatch.setattr(run, "embed_papers", stopped_in_the_second_batch)
    with pytest.raises(KeyboardInterrupt):
        engine_for(store).ingest([corpus])
    monkeypatch.undo()
    titles = sorted(p["title"] for p in stored(store).values())
    # the first batch new beside its old versions, the second batch old: every paper is there
    assert titles == sorted(
        ["Graph pruning", "Sparse attention"] * 2 + ["Protein folding", "Robot grasping"]
    )
    finished = json.loads(cli(store, "ingest", str(corpus), "--json").stdout)
    assert (finished["papers_added"], finished["papers_removed"]) == (2, 4)
    assert sorted(p["title"] for p in stored(store).values()) == sorted(t for _i, t, _a in rows)


def test_every_batch_written_in_place_gives_a_new_revision_so_a_killed_run_leaves_readers_one(
    tmp_path, monkeypatch
):
    # a run killed with SIGKILL never reaches its end: the revision had only changed there, so a daemon's
    # paper list and the BM25 cache took themselves for current and missed the papers written
    from paperchat.store.committed import committed_revision

    corpus = write_jsonl(tmp_path / "five.jsonl", FIVE)
    store = tmp_path / "store"
    monkeypatch.setattr("paperchat.ingest.run.PAPER_BATCH", 2)
    seen = []
    engine_for(store).ingest(
        [corpus], progress=lambda done, total: seen.append(committed_revision(store))
    )
    # before the first write, then after each of the three batches (2, 2 and 1 papers): four revisions
    assert len(set(seen)) == 4 and seen[-1] != seen[-2]


def test_a_first_ingest_interrupted_before_any_paper_is_not_filled_with_the_bundled_corpus(
    tmp_path, monkeypatch
):
    corpus = write_jsonl(tmp_path / "five.jsonl", FIVE)
    store = tmp_path / "store"
    _interrupted_ingest(store, corpus, monkeypatch, after_batches=0)
    ask = cli(store, "ask", "What does ConfPO do?")
    assert ask.returncode == 1
    assert ask.stderr.strip() == (
        f"error: an ingest of the store at {store} was interrupted (0 papers stored so far): "
        f"run `paperchat --store {store.resolve()} ingest {corpus.resolve()}` again to finish it "
        "(it resumes); until "
        "then there is nothing to answer from"
    )
    assert stored(store) == {}
    assert cli(store, "check").returncode == 1


def test_a_first_ingest_refused_for_its_ids_leaves_no_interrupted_run(tmp_path):
    # the id conflict is found once the store is open, before anything is written: nothing to resume, so the
    # store is not reported as interrupted (a newcomer's report: `ask` told them to rerun the failing command)
    corpus = write_jsonl(
        tmp_path / "dup.jsonl",
        [("d1", "Graph pruning", A_ROWS[0][2]), ("d1", "Tabular transformers", FIVE[-1][2])],
    )
    store = tmp_path / "store"
    out = cli(store, "ingest", str(corpus))
    assert out.returncode == 1 and "id 'd1' is also used by" in out.stderr
    check = cli(store, "check")
    assert check.returncode == 0, check.stdout
    assert "ok    ingest: no ingest was interrupted" in check.stdout.splitlines()
    added = cli(store, "ingest", str(write_jsonl(tmp_path / "a.jsonl", A_ROWS)), "--json")
    assert json.loads(added.stdout)["papers_added"] == len(A_ROWS)


def test_removing_the_files_of_an_interrupted_ingest_ends_it(tmp_path, monkeypatch):
    # a newcomer's session: Ctrl-C during an ingest, then `remove` of its file; `check` failed for good,
    # asking to run the ingest of a file they no longer wanted (or had moved) again
    store = tmp_path / "store"
    engine_for(store).ingest([write_jsonl(tmp_path / "a.jsonl", A_ROWS)])
    rest = write_jsonl(tmp_path / "rest.jsonl", B_ROWS + FIVE[-1:])
    _interrupted_ingest(store, rest, monkeypatch, after_batches=1)
    assert cli(store, "check").returncode == 1
    removed = invoke(store, "remove", "--json", str(rest))
    assert removed.exit_code == 0, removed.output
    assert json.loads(removed.output)["papers_removed"] == 2
    check = cli(store, "check")
    assert check.returncode == 0, check.stdout
    assert "ok    ingest: no ingest was interrupted" in check.stdout.splitlines()
    assert sorted(stored(store)) == ["a1", "a2"]


def test_removing_an_interrupted_ingest_s_files_takes_its_orphan_chunks_too(tmp_path, monkeypatch):
    # a README audit: stopped mid-batch, an ingest leaves chunks of papers it never recorded; `remove` of its
    # file ended the run, but 125 chunks stayed and `check` failed on them with no file left to rebuild from
    from paperchat.store import open_writer

    store = tmp_path / "store"
    engine_for(store).ingest([write_jsonl(tmp_path / "a.jsonl", A_ROWS)])
    rest = write_jsonl(tmp_path / "rest.jsonl", B_ROWS + FIVE[-1:])
    _interrupted_ingest(store, rest, monkeypatch, after_batches=1)
    engine = engine_for(store)
    with open_writer(engine.open_store(), engine.wanted_info()) as writer:
        writer._delete_ids("papers", ["b2"])  # as if stopped between its chunks and its record
    assert "FAIL  no orphan chunks" in cli(store, "check").stdout
    assert invoke(store, "remove", str(rest)).exit_code == 0
    check = cli(store, "check")
    assert check.returncode == 0, check.stdout
    assert (
        "ok    no orphan chunks: every chunk belongs to a stored paper" in check.stdout.splitlines()
    )
    assert sorted(stored(store)) == ["a1", "a2"]


def test_an_ingest_of_more_files_finishes_an_interrupted_one(tmp_path, monkeypatch):
    # a server session: after an interrupted `ingest g.jsonl`, `ingest c.jsonl g.jsonl` stored every paper,
    # yet check failed until the very same command was run again
    store = tmp_path / "store"
    rest = write_jsonl(tmp_path / "rest.jsonl", B_ROWS + FIVE[-1:])
    _interrupted_ingest(store, rest, monkeypatch, after_batches=1)
    assert cli(store, "check").returncode == 1
    a = write_jsonl(tmp_path / "a.jsonl", A_ROWS)
    assert invoke(store, "ingest", "--quiet", str(a), str(rest)).exit_code == 0
    check = cli(store, "check")
    assert check.returncode == 0, check.stdout
    assert "ok    ingest: no ingest was interrupted" in check.stdout.splitlines()
    assert sorted(stored(store)) == ["a1", "a2", "b1", "b2", "c1"]


def test_the_command_that_resumes_an_ingest_names_its_store_and_absolute_files(
    tmp_path, monkeypatch
):
    # typed from a corpus folder with a relative path, the command must work from anywhere and fill this
    # store, not the default one
    write_jsonl(tmp_path / "corpus" / "five.jsonl", FIVE)
    monkeypatch.chdir(tmp_path / "corpus")
    store = tmp_path / "store"
    _interrupted_ingest(store, Path("five.jsonl"), monkeypatch, after_batches=1)
    check = cli(store, "check", cwd=tmp_path)
    assert (
        f"FAIL  ingest: an ingest of the store at {store} was interrupted (2 papers stored so far): run "
        f"`paperchat --store {store.resolve()} ingest {(tmp_path / 'corpus' / 'five.jsonl').resolve()}` "
        "again to finish it (it resumes)"
    ) in check.stdout.splitlines()


# -- 5. dropped generations leave no index folders; check reports leftovers ----------------------------------------


def _index_folders(store: Path) -> set[str]:
    return {p.name for p in (store / "chroma").iterdir() if p.is_dir()}


def _live_segments(store: Path) -> set[str]:
    import sqlite3

    conn = sqlite3.connect(store / "chroma" / "chroma.sqlite3")
    try:
        return {row[0] for row in conn.execute("SELECT id FROM segments WHERE scope = 'VECTOR'")}
    finally:
        conn.close()


def test_rebuilds_leave_no_index_folders_behind_and_check_reports_leftovers(tmp_path, monkeypatch):
    corpus = write_jsonl(tmp_path / "five.jsonl", FIVE)
    store = tmp_path / "store"
    assert cli(store, "ingest", "--quiet", str(corpus)).returncode == 0
    monkeypatch.setattr("paperchat.ingest.run.PAPER_BATCH", 2)
    calls = []

    def stop_after_a_batch(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) > 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):  # a killed rebuild leaves its half-built generation
        engine_for(store).ingest([corpus], rebuild=True, progress=stop_after_a_batch)
    stopped = cli(store, "check")  # the store in use is whole: sound, not "being written"
    assert stopped.returncode == 0
    assert stopped.stdout.splitlines()[-1] == f"the store at {store} is sound"
    assert (
        f"the next `paperchat --store {store.resolve()} ingest --rebuild FILES` drops the half-built "
        "generation" in stopped.stdout
    )
    for _ in range(2):
        assert cli(store, "ingest", "--rebuild", "--quiet", str(corpus)).returncode == 0
    folders = _index_folders(store)
    assert folders and folders <= _live_segments(
        store
    )  # three live collections (and the state's), nothing else
    # A leftover (here: a copy of a live index under a dropped collection's name) is reported, then removed.
    leftover = store / "chroma" / "00000000-0000-4000-8000-000000000000"
    shutil.copytree(store / "chroma" / sorted(folders)[0], leftover)
    check = cli(store, "check")
    assert check.returncode == 0
    notes = [
        line
        for line in check.stdout.splitlines()
        if line.startswith("note  leftover index folders")
    ]
    assert (
        len(notes) == 1
        and "1 folder of dropped collections" in notes[0]
        and str(store / "chroma") in notes[0]
    )
    more = write_jsonl(
        tmp_path / "more.jsonl",
        [("d1", "Weather", "We forecast weather with graphs. Errors fall.")],
    )
    assert cli(store, "ingest", "--quiet", str(more)).returncode == 0
    assert not leftover.exists() and _index_folders(store) <= _live_segments(store)


# -- 4. a huge abstract: reads in pages, a cap, progress inside one paper ------------------------------------------


def _write_huge_paper(store_dir: Path, n_sentences: int):
    """A store holding one paper with ``n_sentences`` sentence vectors (4-dimensional: writing them is quick)."""
    import numpy as np

    from paperchat.ingest.chunking import ChunkSettings, ChunkText
    from paperchat.ingest.records import PaperRecord, StoreInfo
    from paperchat.store import open_store, open_writer

    vecs = np.random.default_rng(0).normal(size=(n_sentences, 4)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    texts = [f"Sentence {i} of a very long abstract." for i in range(n_sentences)]
    chunk = ChunkText("huge:0:00000000", 0, " ".join(texts[:3]))
    rec = PaperRecord(
        "huge",
        abstract=" ".join(texts),
        title="A huge abstract",
        chunk_ids=[chunk.chunk_id],
        text_hash="h",
        chunking="test",
    )
    store = open_store(store_dir)
    with open_writer(store, StoreInfo("test-4d", 4, ChunkSettings())) as writer:
        writer.write([rec], {"huge": [(chunk, vecs[0])]}, {"huge": (texts, vecs, "h")})
    return store, vecs


@pytest.mark.slow
def test_a_paper_with_more_sentences_than_sqlite_has_variables_reads_back_whole(tmp_path):
    # SQLite allows 32,766 variables in a statement; Chroma spends one per row it reads.
    store, vecs = _write_huge_paper(tmp_path / "store", 33_000)
    got = store.sentence_vectors(["huge"])
    assert got["huge"][0] == "h" and got["huge"][1].shape == (33_000, 4)
    assert abs(got["huge"][1] - vecs).max() < 1e-6  # every sentence, in order
    from paperchat.store.check import check_store

    assert [f.check for f in check_store(store) if f.ok is False] == []


def test_reads_come_in_pages_and_a_paper_spanning_pages_is_removed_whole(tmp_path, monkeypatch):
    from paperchat.store import chroma_reads, open_writer
    from paperchat.store.writer import StoreWriter

    store, vecs = _write_huge_paper(tmp_path / "store", 50)
    asked: list[int] = []
    monkeypatch.setattr(chroma_reads, "READ_PAGE", 7)
    col = store.collection("sentences")
    real_get = type(col).get

    def counting_get(self, *args, **kwargs):
        got = real_get(self, *args, **kwargs)
        asked.append(len(got["ids"]))
        return got

    monkeypatch.setattr(type(col), "get", counting_get)
    assert abs(store.sentence_vectors(["huge"])["huge"][1] - vecs).max() < 1e-6
    assert max(asked) == 7 and sum(asked) == 50
    with open_writer(store, store.info()) as writer:
        assert isinstance(writer, StoreWriter)
        writer.delete_papers(["huge"])
    assert store.collection("sentences").count() == 0 and store.counts() == (0, 0)


def test_an_abstract_over_the_limit_is_cut_at_a_sentence_end_with_a_note_and_shows_progress(
    tmp_path, monkeypatch
):
    from paperchat.ingest import corpus, run, sentence_vectors

    # The real limits are 100,000 characters kept, progress inside abstracts over 20,000: the same code, cheaper.
    monkeypatch.setattr(corpus, "MAX_ABSTRACT_CHARS", 3000)
    monkeypatch.setattr(run, "LONG_ABSTRACT", 2000)
    monkeypatch.setattr(sentence_vectors, "EMBED_SLICE", 4)
    sentences = [f"Method {i} improves the benchmark score by {i} points." for i in range(120)]
    abstract = " ".join(sentences)
    data = write_jsonl(tmp_path / "long.jsonl", [("long", "A long abstract", abstract)])
    kept = max(k for k in range(len(sentences)) if len(" ".join(sentences[:k])) <= 3000)
    seen: list[tuple[int, int]] = []
    store = tmp_path / "store"
    report = engine_for(store).ingest(
        [data], progress=lambda done, total: seen.append((done, total))
    )
    cut = " ".join(sentences[:kept])
    assert report.notes == [
        f"{data} #1: the abstract of {len(abstract):,} characters was cut to its first "
        f"{len(cut):,} (paperchat keeps at most 3,000 characters of an abstract)"
    ]
    assert engine_for(store).store.papers(["long"])["long"].abstract == cut
    total = seen[-1][1]
    assert seen[0] == (0, total) and seen[-1] == (total, total) and total > 2
    inside = [done for done, _ in seen[1:-1]]
    # progress within the one paper, before it is written (in chunks: the share of its sentences embedded so far)
    assert (
        len(inside) >= 3
        and all(0 <= d < total for d in inside)
        and inside[-1] > 0
        and inside == sorted(inside)
    )
    out = cli(
        store, "ingest", str(data)
    )  # the CLI prints the note (a changed limit re-reads the file)
    assert out.returncode == 0


# -- 14. a read-only store folder is read-only, not damaged ------------------------------------------------------------


def test_a_read_only_error_is_named_as_such_not_as_damage(tmp_path):
    from paperchat.store.failures import StoreUnavailable, store_error

    chroma_said = RuntimeError(
        "error returned from database: (code: 8) attempt to write a readonly database"
    )
    error = store_error(chroma_said, tmp_path)
    assert isinstance(error, StoreUnavailable)
    assert str(error) == (
        f"the store folder {tmp_path} is read-only here, and Chroma writes to its database even to "
        "read it. Make it writable, or copy it to a writable place and pass --store"
    )


def test_a_database_this_user_may_not_read_asks_for_access_not_a_rebuild(
    tmp_path, bundled_store, monkeypatch
):
    import builtins

    store = tmp_path / "store"
    shutil.copytree(bundled_store, store, ignore=shutil.ignore_patterns("*.lock"))
    db = store / "chroma" / "chroma.sqlite3"
    real_open = builtins.open

    def denied(path, *args, **kwargs):  # root reads any file: the permission error is simulated
        if str(path) == str(db):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", denied)
    out = invoke(store, "papers")
    assert out.exit_code == 1 and str(out.exception) == (
        f"the store at {store} cannot be opened: {db} cannot be read by this user (permission denied). Give this "
        "user read and write access to the store folder"
    )
    check = invoke(store, "check")
    assert (
        check.exit_code == 1
        and "--rebuild" not in check.stdout
        and "could not be checked" in check.stdout
    )


def _read_only_runner(store: Path):
    """``run(*args)``: paperchat on ``store`` made read-only (a read-only bind mount in a private mount namespace
    as root, where permissions do not bind; chmod otherwise). Skips when neither can be arranged."""
    if os.geteuid() != 0:
        for path in [store, *store.rglob("*")]:
            path.chmod(path.stat().st_mode & ~0o222)
        return lambda *args: cli(store, *args)
    mount = 'mount --bind -o ro "$0" "$0" 2>/dev/null'
    probe = (
        subprocess.run(
            ["unshare", "-m", "sh", "-c", f'{mount} && ! touch "$0/probe" 2>/dev/null', str(store)],
            capture_output=True,
        )
        if shutil.which("unshare")
        else None
    )
    if probe is None or probe.returncode != 0:
        pytest.skip(
            "running as root without mount namespaces: a read-only folder cannot be arranged"
        )

    def run(*args):
        return subprocess.run(
            [
                "unshare",
                "-m",
                "sh",
                "-c",
                f'{mount} && exec "$@"',
                str(store),
                sys.executable,
                "-m",
                "paperchat",
                "--store",
                str(store),
                *args,
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )

    return run


def test_a_read_only_store_folder_says_it_is_read_only(tmp_path, bundled_store):
    """Chroma 1.5 cannot open a read-only database ("attempt to write a readonly database"): every command says
    the folder is read-only, in one line, and nothing calls it damaged."""
    store = tmp_path / "store"
    shutil.copytree(bundled_store, store, ignore=shutil.ignore_patterns("*.lock"))
    run = _read_only_runner(store)
    read_only = (
        f"the store folder {store} is read-only here, and Chroma writes to its database even to read it. "
        "Make it writable, or copy it to a writable place and pass --store"
    )
    for args in (
        ("ingest", str(write_jsonl(tmp_path / "two.jsonl", A_ROWS))),
        ("papers", "--json"),
        ("ask", "What does ConfPO use to pick preference-critical tokens?", "--json"),
    ):
        out = run(*args)
        # under --json the error is also an object on stdout
        shown = (
            json.dumps({"error": read_only, "kind": "store", "exit_status": 1}) + "\n"
            if "--json" in args
            else ""
        )
        assert (out.returncode, out.stdout, out.stderr.strip()) == (
            1,
            shown,
            f"error: {read_only}",
        ), args
    check = run("check")
    assert (
        check.returncode == 1 and "--rebuild" not in check.stdout and "damaged" not in check.stdout
    )
    assert check.stdout.strip().endswith(f"the store at {store} could not be checked: {read_only}")


# -- 15. a full disk is named; check reports every failure as a finding ----------------------------------------------


def test_a_full_disk_during_ingest_is_named_and_check_never_prints_a_bare_chroma_error(
    tmp_path, monkeypatch
):
    from chromadb.api.models.Collection import Collection
    from chromadb.errors import InternalError

    from paperchat.core.errors import StoreError

    store = tmp_path / "store"
    engine_for(store).ingest([write_jsonl(tmp_path / "a.jsonl", A_ROWS)])

    def full(
        *_args, **_kwargs
    ):  # what Chroma 1.5 raises when its disk fills mid-write (seen on a full tmpfs)
        raise InternalError("Error in compaction: Failed to apply logs to the metadata segment")

    monkeypatch.setattr(Collection, "add", full)
    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr(
        shutil, "disk_usage", lambda _path: usage._replace(free=512 * 1024)
    )  # and 0.5 MB is left
    disk_full = (
        f"the disk holding the store at {store} is full (0 MB free): no space left on device. Free some space "
        "and try again (an interrupted ingest resumes where it stopped; nothing stored is lost)"
    )
    with pytest.raises(StoreError) as raised:
        engine_for(store).ingest([write_jsonl(tmp_path / "b.jsonl", B_ROWS)])
    assert str(raised.value) == disk_full
    monkeypatch.setattr(
        Collection, "count", full
    )  # reads that compact Chroma's log first fail the same way
    monkeypatch.setattr(Collection, "get", full)
    out = invoke(store, "check")
    assert (
        out.exit_code == 1 and "InternalError" not in out.output and "--rebuild" not in out.output
    )
    assert f"FAIL  collections: {disk_full}" in out.stdout.splitlines()
    assert out.stdout.splitlines()[-1] == f"the store at {store} could not be checked: {disk_full}"


# -- 16. a Chroma server that stops mid-command is named the same way everywhere -------------------------------------


def _start_chroma_server(path: Path) -> tuple[subprocess.Popen, str]:
    import socket
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    exe = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))
    proc = subprocess.Popen(
        [exe, "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.2)
    proc.kill()
    pytest.fail("chroma run did not start")


def test_a_chroma_server_that_stops_mid_chat_or_mid_ingest_is_named(tmp_path, monkeypatch):
    from paperchat.chat.session import ChatSession
    from paperchat.core.errors import StoreError
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    monkeypatch.setenv(
        "HOME", str(tmp_path)
    )  # the server's BM25 cache lives in the user cache folder
    monkeypatch.setattr("paperchat.ingest.run.PAPER_BATCH", 2)
    proc, url = _start_chroma_server(tmp_path / "server")
    try:
        engine = Engine(load_settings({"chroma_url": url}))
        engine.ingest([write_jsonl(tmp_path / "a.jsonl", A_ROWS)])
        session = ChatSession(engine, mode="extractive")
        assert (
            session.handle("Which paper studies sparse attention for long documents?")
            .answer.sources[0]
            .paper_id
            == "a2"
        )
        proc.terminate()
        proc.wait(timeout=30)
        with pytest.raises(StoreError) as in_chat:
            session.handle("Which paper prunes graph neural networks?")
        assert str(in_chat.value).startswith(f"cannot reach the Chroma server at {url}: ")
        proc, url2 = _start_chroma_server(tmp_path / "server")

        def stop_server(done: int, total: int) -> None:
            if done:  # a batch is written: the server goes away mid-ingest
                proc.terminate()
                proc.wait(timeout=30)

        with pytest.raises(StoreError) as in_ingest:
            Engine(load_settings({"chroma_url": url2})).ingest(
                [write_jsonl(tmp_path / "five.jsonl", FIVE)], progress=stop_server
            )
        assert str(in_ingest.value).startswith(f"cannot reach the Chroma server at {url2}: ")
    finally:
        proc.kill()


# -- 17. `ingest DIR` ingests the folder's corpus files -----------------------------------------------------------------


def test_ingest_a_folder_reads_the_corpus_files_in_it(tmp_path):
    folder = tmp_path / "papers"
    write_jsonl(folder / "a.jsonl", A_ROWS)
    (folder / "b.csv").write_text(
        "id,title,abstract\nb1,Protein folding,We fold proteins on a lattice. It works.\n",
        encoding="utf-8",
    )
    (folder / "README.md").write_text("# my papers\n", encoding="utf-8")
    write_jsonl(folder / "nested" / "c.jsonl", B_ROWS[1:])  # folders inside are not read
    store = tmp_path / "store"
    out = invoke(store, "ingest", "--quiet", str(folder))
    assert out.exit_code == 0, out.output
    assert out.stderr.splitlines() == [
        f"note: {folder}: read a.jsonl, b.csv; left out README.md (not a corpus file) "
        "and the folder nested (folders inside are not read)"
    ]
    assert sorted(stored(store)) == ["a1", "a2", "b1"]
    empty = tmp_path / "empty"
    empty.mkdir()
    out = invoke(store, "ingest", str(empty))
    assert out.exit_code == 1
    assert (
        str(out.exception)
        == f"{empty}: a folder with no corpus files in it (.jsonl, .ndjson, .csv or .txt)"
    )


@pytest.mark.integration
def test_a_rebuild_without_files_never_drops_the_users_own_papers(tmp_path):
    # a newcomer's store of their own files was replaced by the 38 bundled papers: every "rebuild it"
    # message had named a bare `paperchat ingest --rebuild`
    a = write_jsonl(tmp_path / "mine.jsonl", A_ROWS)
    store = tmp_path / "store"
    assert invoke(store, "ingest", "--quiet", str(a)).exit_code == 0
    out = cli(store, "ingest", "--rebuild")
    assert out.returncode == 1
    assert out.stderr == (
        "error: `ingest --rebuild` without files would leave only the bundled corpus and drop 2 papers of "
        f"mine.jsonl; name the files to keep: `paperchat --store {store.resolve()} ingest --rebuild FILES`\n"
    )
    assert sorted(stored(store)) == ["a1", "a2"]
    rebuilt = invoke(store, "ingest", "--rebuild", "--quiet", str(a))
    assert rebuilt.exit_code == 0 and sorted(stored(store)) == ["a1", "a2"]


def test_a_rebuild_keeps_the_titles_a_metadata_file_gave(tmp_path):
    # a newcomer's session: `ingest --rebuild notes.txt` (check's advice) turned the titles a --metadata
    # file had given the title-less text file back into labels, with no note
    notes = tmp_path / "notes.txt"
    notes.write_text(
        "My reading notes\n\n" + A_ROWS[0][2] + "\n\n" + A_ROWS[1][2] + "\n", encoding="utf-8"
    )
    meta = tmp_path / "meta.jsonl"
    meta.write_text(
        json.dumps({"seed_file": "notes.txt", "index": 1, "title": "Saliency Pruning of GNNs"})
        + "\n"
        + json.dumps({"seed_file": "notes.txt", "index": 2, "authors": ["Ada Lovelace"]})
        + "\n",
        encoding="utf-8",
    )
    store = tmp_path / "store"
    assert invoke(store, "ingest", "--quiet", str(notes), "--metadata", str(meta)).exit_code == 0
    before = {p["title"]: p["authors"] for p in stored(store).values()}
    assert before["Saliency Pruning of GNNs"] == [] and ["Ada Lovelace"] in before.values()
    rebuilt = invoke(store, "ingest", "--rebuild", "--quiet", str(notes))
    assert rebuilt.exit_code == 0, rebuilt.output
    assert {p["title"]: p["authors"] for p in stored(store).values()} == before


# -- 3. a paper two files hold, a file with skipped lines, what a rebuild removed ------------------------------


def test_a_paper_two_files_hold_stays_until_neither_does(tmp_path):
    # a newcomer's paper vanished: B's copy had merged into A's, and A dropped it
    a = write_jsonl(tmp_path / "A" / "a.jsonl", A_ROWS)
    b = write_jsonl(tmp_path / "B" / "b.jsonl", [("b7", "", A_ROWS[0][2]), B_ROWS[0]])
    store = tmp_path / "store"
    engine = engine_for(store)
    engine.ingest([a])
    assert engine.ingest([b]).duplicates_merged == 1
    assert stored(store)["a1"]["origin"]["also_in"] == [str(b.resolve())]
    write_jsonl(a, A_ROWS[1:])  # A no longer holds a1; B still holds it as b7
    report = engine.ingest([a])
    assert report.papers_removed == 0
    assert report.notes == [
        "kept 1 paper that its file no longer holds but another file does (b.jsonl)",
        # a2 moved up a line, and says so (a lab engineer read "122 updated" as 122 edits)
        "1 of the 2 updated papers only moved to another line of their file (the line is recorded; "
        "nothing is embedded again)",
    ]
    papers = stored(store)
    assert sorted(papers) == ["a1", "a2", "b1"]
    assert papers["a1"]["origin"]["file"] == str(b.resolve()) and papers["a1"]["aliases"] == ["b7"]
    write_jsonl(b, B_ROWS[:1])  # now neither file holds it
    assert engine.ingest([b]).papers_removed == 1
    assert sorted(stored(store)) == ["a2", "b1"]


def test_skipped_lines_remove_no_stored_paper_and_a_rebuild_counts_what_it_removed(tmp_path):
    a = write_jsonl(tmp_path / "mine.jsonl", A_ROWS)
    other = write_jsonl(tmp_path / "other.jsonl", B_ROWS)
    store = tmp_path / "store"
    assert invoke(store, "ingest", "--quiet", str(a), str(other)).exit_code == 0
    lines = a.read_text(encoding="utf-8").splitlines()
    a.write_text(lines[0] + "\n" + lines[1][:-5] + "\n", encoding="utf-8")  # a2's line is cut short
    out = invoke(store, "ingest", "--on-error", "skip", str(a))
    assert out.exit_code == 0, out.output
    assert (
        "note: kept 1 paper that mine.jsonl no longer holds (a2): lines of it were skipped, and while any "
        "are, no paper it lost is removed (a skipped line may hold it); fix the lines and ingest it again"
    ) in out.output
    assert sorted(stored(store)) == ["a1", "a2", "b1", "b2"]
    again = invoke(
        store, "ingest", "--on-error", "skip", str(a)
    )  # the repeat (from the manifest) says it too
    assert "note: kept 1 paper that mine.jsonl no longer holds" in again.output
    write_jsonl(a, A_ROWS)
    rebuilt = engine_for(store).ingest([a], rebuild=True)
    # b1, b2 are not in mine.jsonl; a1, a2 were stored before (rewritten, not added)
    assert (rebuilt.papers_removed, rebuilt.papers_added, rebuilt.papers_updated) == (2, 0, 2)
    assert sorted(stored(store)) == ["a1", "a2"]


def test_a_check_that_fails_while_an_ingest_writes_is_no_damage(bundled_store, monkeypatch):
    # a break-it session: `check` during an ingest said FAIL ("Error finding id") and advised a rebuild,
    # in 2 of 6 runs; the store was sound afterwards
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine
    from paperchat.store import check

    failed = check.Finding("read the collections", False, "the store is damaged (InternalError)")
    monkeypatch.setattr(check, "_ingest_state", lambda store: (None, "an ingest is writing it"))
    monkeypatch.setattr(check, "_collection_checks", lambda store: [failed])
    store = Engine(load_settings({"store": str(bundled_store)})).store
    findings = check.check_store(store)
    assert [(f.check, f.ok, f.damage) for f in findings][-1] == (
        "read the collections",
        None,
        False,
    )
    assert findings[-1].detail.endswith(f"({check.WHILE_WRITTEN})")
    assert check.verdict(findings, "S") == (
        "the store at S is being written and could not be read whole; check it again when the ingest "
        "has finished"
    )


def test_a_file_edited_while_its_ingest_reads_it_is_read_again_next_time(tmp_path, monkeypatch):
    # a lab engineer's session: an edit saved mid-run was recorded as read (the manifest hashed the file
    # at the end), so every later run said "120 unchanged" of a 123-paper file and never stored the edit
    import paperchat.ingest.corpus as corpus

    a = write_jsonl(tmp_path / "papers.jsonl", A_ROWS)
    store = tmp_path / "store"
    read = corpus.load_file

    def read_then_edited(path, **kwargs):
        out = read(path, **kwargs)
        write_jsonl(a, A_ROWS + B_ROWS[:1])  # saved while the ingest embeds what it read
        return out

    monkeypatch.setattr(corpus, "load_file", read_then_edited)
    assert engine_for(store).ingest([a]).papers_added == 2
    monkeypatch.setattr(corpus, "load_file", read)
    again = engine_for(store).ingest([a])
    assert (again.papers_added, again.papers_unchanged) == (1, 2)
    assert sorted(stored(store)) == ["a1", "a2", "b1"]


def test_a_rebuild_counts_a_paper_now_stored_under_its_alias_as_updated(tmp_path):
    # a reliability engineer: a paper merged into another file's copy (its id an alias of that copy) and
    # rebuilt from its own file alone had counted updated and removed (100 updated, 2642 removed of 2,740)
    first = write_jsonl(tmp_path / "first.jsonl", A_ROWS)
    copy = write_jsonl(tmp_path / "copy.jsonl", [("c1", A_ROWS[0][1], A_ROWS[0][2])])
    store = tmp_path / "store"
    assert invoke(store, "ingest", "--quiet", str(first), str(copy)).exit_code == 0
    assert sorted(stored(store)) == ["a1", "a2"]  # c1 is a1's copy: merged, c1 its alias
    rebuilt = engine_for(store).ingest([copy], rebuild=True)
    assert sorted(stored(store)) == ["c1"]
    assert (rebuilt.papers_updated, rebuilt.papers_removed, rebuilt.papers_added) == (1, 1, 0)
