"""Chroma answers every read; the files beside it are caches checked against Chroma's committed revision:
the ingest manifest (the unchanged re-ingest fast path, paperchat.ingest.manifest, paperchat.engine.repeat) and
the BM25 index (paperchat.store.bm25). Readers write nothing but a stale BM25 cache."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from paperchat.core.settings import load_settings
from paperchat.engine import Engine
from paperchat.ingest import manifest
from paperchat.store.committed import committed_revision

QUESTION = "What does ConfPO use to pick preference-critical tokens?"


@pytest.fixture
def store(bundled_store, tmp_path):
    folder = tmp_path / "store"
    shutil.copytree(bundled_store, folder)
    return folder


def _engine(folder) -> Engine:
    return Engine(load_settings({"store": str(folder)}))


def cli(folder, *args):
    env = {**os.environ, "PAPERCHAT_STORE": str(folder)}
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "paperchat", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def _one_paper(path: Path, pid: str, words: str) -> Path:
    path.write_text(
        json.dumps(
            {
                "id": pid,
                "title": f"A paper on {words}",
                "abstract": f"We study {words}. It works well.",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    return path


def _files(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder``: relative path -> (size, mtime in ns)."""
    return {
        str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_the_committed_revision_is_read_from_chromas_database_without_chroma(store, tmp_path):
    chroma = _engine(store).open_store()
    assert committed_revision(store) == chroma.revision() != "empty"
    assert committed_revision(tmp_path / "nowhere") is None
    other = tmp_path / "other"
    (other / "chroma").mkdir(parents=True)
    (other / "chroma" / "chroma.sqlite3").write_bytes(b"not a database\n" * 100)
    assert committed_revision(other) is None  # a surprise: the caller opens Chroma


def test_an_unchanged_reingest_never_imports_chroma_and_a_changed_file_takes_the_full_path(
    store, tmp_path
):
    data = _one_paper(tmp_path / "one.jsonl", "s1", "sparse attention")
    first = cli(store, "ingest", str(data), "--json")
    assert first.returncode == 0 and json.loads(first.stdout)["papers_added"] == 1
    saved = manifest.load(store)
    assert saved["revision"] == committed_revision(store) and saved["counts"] == [39, 74]
    again = cli(store, "ingest", str(data), "--json")
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout)
    assert (report["papers_seen"], report["papers_unchanged"], report["papers_added"]) == (1, 1, 0)
    assert (report["total_papers"], report["total_chunks"]) == (39, 74)
    assert "chromadb" not in again.stderr
    text = cli(store, "ingest", str(data))
    assert (
        text.returncode == 0
        and "chromadb" not in text.stderr
        and text.stdout.strip().endswith(f"Store: 39 papers, 74 chunks ({store}).")
    )
    data.write_text(data.read_text(encoding="utf-8").replace("well", "fine"), encoding="utf-8")
    changed = cli(store, "ingest", str(data), "--json")
    assert json.loads(changed.stdout)["papers_updated"] == 1 and "chromadb" in changed.stderr


def test_a_run_that_changes_the_store_voids_the_other_recorded_runs(store, tmp_path):
    """Recorded run A, then run B removes papers A added: repeating A must add them back, not say "unchanged"."""
    rows = [
        {
            "id": f"m{i}",
            "title": f"Paper {i} on lattice folding",
            "abstract": f"We fold protein {i} on a lattice. It takes {i} steps.",
        }
        for i in range(3)
    ]
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"

    def write(path, part):
        path.write_text("".join(json.dumps(r) + "\n" for r in part), encoding="utf-8")

    write(first, rows)
    write(second, [{"id": "other", "abstract": "We sample lattice proteins. It is fast."}])
    engine = _engine(store)
    assert engine.ingest([first]).papers_added == 3  # run A
    write(first, rows[:1])
    removed = engine.ingest([first, second])  # run B removes two of the papers A added
    assert removed.papers_removed == 2 and removed.total_papers == 40
    write(first, rows)
    again = engine.ingest([first])  # the file is as A read it, but A's record was voided
    assert again.papers_added == 2 and again.total_papers == 42
    assert engine.ingest([first]).papers_unchanged == 3  # and now the fast path is right again


def test_a_restored_older_chroma_folder_is_detected(store, tmp_path):
    """A ``chroma/`` folder restored from before the last ingest: the manifest and the BM25 cache are of another
    revision, so the unchanged fast path is not taken, BM25 is rebuilt, and `check` names both (exit 0)."""
    x = _one_paper(tmp_path / "x.jsonl", "x1", "lattice folding")
    y = _one_paper(tmp_path / "y.jsonl", "y1", "tidal turbines")
    assert cli(store, "ingest", str(x)).returncode == 0
    old_revision = committed_revision(store)
    backup = tmp_path / "chroma-backup"
    shutil.copytree(store / "chroma", backup)
    assert cli(store, "ingest", str(y)).returncode == 0
    assert (
        cli(store, "ask", "Which paper studies tidal turbines?").returncode == 0
    )  # BM25 at the new revision
    new_revision = committed_revision(store)
    assert new_revision != old_revision and manifest.load(store)["revision"] == new_revision
    shutil.rmtree(store / "chroma")
    shutil.copytree(backup, store / "chroma")
    assert committed_revision(store) == old_revision

    check = cli(store, "check", "--json")
    assert check.returncode == 0, check.stdout
    notes = {f["check"]: f for f in json.loads(check.stdout)["findings"]}
    assert notes["ingest manifest"]["ok"] is None and notes["ingest manifest"]["detail"].startswith(
        f"{store / 'ingest-manifest.json'} was saved at revision {new_revision}, the store is at {old_revision}"
    )
    assert notes["BM25 index"] == {
        "check": "BM25 index",
        "ok": None,
        "detail": (
            f"stale (built at revision {new_revision}, the store is at {old_revision}): rebuilt on the next question"
        ),
    }

    ask = cli(store, "ask", "Which paper studies lattice folding?", "--json")
    assert ask.returncode == 0 and json.loads(ask.stdout)["sources"][0]["paper_id"] == "x1"
    bm25 = json.loads((store / "bm25" / "paperchat.json").read_text(encoding="utf-8"))
    assert bm25["revision"] == old_revision and "x1" in bm25["ids"] and "y1" not in bm25["ids"]
    again = cli(store, "ingest", str(y), "--json")  # recorded at the newer revision: not trusted
    assert again.returncode == 0 and "chromadb" in again.stderr
    assert json.loads(again.stdout)["papers_added"] == 1


def test_readers_never_write(store):
    """`ask`, `papers` and `check` change no file of paperchat's in the store folder and add or remove none (once
    the BM25 cache is the store's). Chroma's own folder is Chroma's: each client that opens it records itself in
    the database (a row of its ``acquire_write`` table) and may flush its index files, so only its listing is
    compared."""
    assert (
        cli(store, "ask", QUESTION).returncode == 0
    )  # builds the BM25 cache of this revision (a reader may)
    before = _files(store)
    for args in (
        ("ask", QUESTION, "--json"),
        ("papers", "--json"),
        ("check",),
        ("ask", "Which papers study backdoor attacks?"),
    ):
        out = cli(store, *args)
        assert out.returncode == 0, (args, out.stderr)
    after = _files(store)
    assert sorted(after) == sorted(before)
    ours = {path: seen for path, seen in before.items() if not path.startswith("chroma/")}
    assert {path: after[path] for path in ours} == ours
    assert {"ingest-manifest.json", "bm25/paperchat.json", "paperchat.json"} <= set(ours)


def test_a_bm25_cache_that_cannot_be_saved_is_a_note(store):
    answer = json.loads(cli(store, "ask", QUESTION, "--json").stdout)
    shutil.rmtree(store / "bm25")
    (store / "bm25").write_text("in the way\n", encoding="utf-8")
    out = cli(store, "ask", QUESTION, "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["sources"] == answer["sources"]  # the index is used from memory
    assert (
        f"note: the BM25 index could not be saved in {store / 'bm25'} (Not a directory); it is built again "
        "by each command until it can be"
    ) in out.stderr.splitlines()


def test_a_manifest_that_cannot_be_written_is_a_note(store, tmp_path):
    (store / manifest.FILE).unlink()
    (store / manifest.FILE).mkdir()  # in the way of the file
    report = _engine(store).ingest([_one_paper(tmp_path / "one.jsonl", "s1", "sparse attention")])
    assert report.papers_added == 1 and report.notes == [
        f"the ingest manifest {store / manifest.FILE} could not be written (Is a directory); the next unchanged "
        "`paperchat ingest` re-reads its files"
    ]


def test_an_old_snapshot_folder_is_named_by_check_and_deleted_by_the_next_write(store, tmp_path):
    old = store / "snapshot"
    old.mkdir()
    (old / "state.json").write_text(json.dumps({"format": 1, "revision": "0"}), encoding="utf-8")
    (old / "vectors.npz").write_bytes(b"\0" * 2_000_000)
    check = cli(store, "check")
    assert check.returncode == 0
    assert (
        f"note  unused snapshot folder: {old} (2.0 MB) is the read snapshot of an earlier paperchat, unused now "
        "(Chroma answers every query); the next `paperchat ingest` that writes deletes it"
    ) in check.stdout.splitlines()
    assert cli(store, "ask", QUESTION).returncode == 0 and old.is_dir()  # a reader leaves it
    assert (
        _engine(store)
        .ingest([_one_paper(tmp_path / "one.jsonl", "s1", "sparse attention")])
        .papers_added
        == 1
    )
    assert not old.exists()


@pytest.mark.slow
def test_a_store_beyond_33k_chunks_keeps_its_fast_path_and_checks_sound(store, tmp_path):
    """2,100 synthetic papers of 16 chunks each (33,600 chunks, written through the StoreWriter with a few real
    vectors reused), then a real ingest: repeating it is answered from the manifest, and the store checks sound
    (past SQLite's 32,766 variables per statement, where an unpaged read of every chunk would fail)."""
    from paperchat.ingest.chunking import ChunkText, chunk_id
    from paperchat.ingest.records import PaperRecord
    from paperchat.store import open_writer

    engine = _engine(store)
    chroma = engine.open_store()
    real = chroma.chunk_vectors([c for c, _t, _x in chroma.all_chunks()][:8])
    vecs = np.stack(list(real.values()))
    info = engine.wanted_info()
    with open_writer(chroma, info, run=("synthetic", "synthetic")) as writer:
        for start in range(0, 2100, 300):
            records, chunks, sentences = [], {}, {}
            for i in range(start, start + 300):
                pid = f"syn{i:05d}"
                texts = [f"Synthetic chunk {j} of paper {i}." for j in range(16)]
                ids = [chunk_id(pid, j, t) for j, t in enumerate(texts)]
                records.append(
                    PaperRecord(
                        paper_id=pid,
                        abstract=" ".join(texts),
                        title=f"Synthetic {i}",
                        chunking=info.chunking_key,
                        chunk_ids=ids,
                        text_hash=f"h{i}",
                    )
                )
                chunks[pid] = [
                    (ChunkText(cid, j, t), vecs[(i + j) % len(vecs)])
                    for j, (cid, t) in enumerate(zip(ids, texts))
                ]
                sentences[pid] = ([texts[0]], vecs[i % len(vecs)][None, :], f"h{i}")
            writer.write(records, chunks, sentences)
    assert chroma.counts() == (2138, 73 + 33_600)
    data = _one_paper(tmp_path / "one.jsonl", "s1", "sparse attention")
    first = cli(store, "ingest", str(data), "--json")
    assert first.returncode == 0 and json.loads(first.stdout)["papers_added"] == 1, first.stderr
    again = cli(store, "ingest", str(data), "--json")
    report = json.loads(again.stdout)
    assert (report["papers_unchanged"], report["total_papers"], report["total_chunks"]) == (
        1,
        2139,
        33_674,
    )
    assert "chromadb" not in again.stderr  # the fast path: Chroma not opened
    check = cli(store, "check")
    assert (
        check.returncode == 0 and check.stdout.splitlines()[-1] == f"the store at {store} is sound"
    ), check.stdout


def test_a_store_marker_that_cannot_be_written_is_a_note_once(tmp_path, caplog):
    """No swallowed write: the Chroma write goes through and the marker that failed is named, once."""
    import logging

    from paperchat.store import open_store
    from paperchat.store.chroma import MARKER

    store = open_store(tmp_path / "store")
    (tmp_path / "store" / MARKER).mkdir()  # a folder where the marker file goes: the write fails
    with caplog.at_level(logging.WARNING, logger="paperchat.notes"):
        store.write_meta(revision="r1")
        store.write_meta(revision="r2")
    assert store.read_meta()["revision"] == "r2"
    lines = [r.getMessage() for r in caplog.records if r.name == "paperchat.notes"]
    assert len(lines) == 1 and lines[0].startswith(
        f"note: could not write {tmp_path / 'store' / MARKER} ("
    )
    assert lines[0].endswith("); the store itself was written")


@pytest.mark.integration  # two ingests into a copied store: a few seconds, kept out of the unit tier
def test_the_retrievers_kept_records_and_counts_follow_the_store_revision(
    store, tmp_path, monkeypatch
):
    """The retriever keeps paper records and the store's counts for one revision: a write replaces them."""
    import paperchat.retrieve.hybrid as hybrid

    engine = _engine(store)
    data = _one_paper(tmp_path / "one.jsonl", "lf1", "lattice folding")
    engine.ingest([data])
    (pid,) = [r.paper_id for r in engine.papers() if r.title == "A paper on lattice folding"]
    retriever = engine.retriever
    assert retriever.records([pid])[pid].abstract == "We study lattice folding. It works well."
    papers, chunks = retriever._store_counts()
    assert papers == 39 and chunks > 39
    data.write_text(data.read_text(encoding="utf-8").replace("well", "fine"), encoding="utf-8")
    assert engine.ingest([data]).papers_updated == 1
    assert retriever.records([pid])[pid].abstract == "We study lattice folding. It works fine."
    assert retriever._store_counts() == (39, chunks)
    monkeypatch.setattr(hybrid, "RECORD_CACHE", 2)  # bounded: the last ones read are kept
    ids = [r.paper_id for r in engine.papers()][:3]
    assert list(retriever.records(ids)) == ids and list(retriever._records) == ids[1:]
