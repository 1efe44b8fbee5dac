"""The read snapshot beside an embedded store: same answers as Chroma, never trusted when stale, and fast paths
that do not import Chroma (paperchat.store.snapshot, paperchat.ingest.manifest)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from paperchat.core.settings import load_settings
from paperchat.engine import Engine
from paperchat.store.snapshot import STALE, folder_of, mark_stale, read_state

QUESTIONS = ["What does ConfPO use to pick preference-critical tokens?",
             "Which papers study backdoor attacks?",
             "How is sharpness studied with a minimalist model?"]


@pytest.fixture
def store(bundled_store, tmp_path):
    folder = tmp_path / "store"
    shutil.copytree(bundled_store, folder)
    return folder


def _engine(folder) -> Engine:
    return Engine(load_settings({"store": str(folder)}))


def cli(folder, *args):
    env = {**os.environ, "PAPERCHAT_STORE": str(folder)}
    return subprocess.run([sys.executable, "-X", "importtime", "-m", "paperchat", *args], capture_output=True,
                          text=True, env=env, timeout=300)


def test_the_snapshot_reads_what_chroma_holds(store):
    engine = _engine(store)
    reader, chroma = engine.store, engine.open_store()
    assert reader.from_snapshot and reader.revision() == chroma.revision() and reader.counts() == chroma.counts() == (38, 73)
    assert reader.papers() == chroma.papers()
    assert reader.info() == chroma.info()
    chunk_ids = sorted(reader.chunk_texts([c for c, _t, _x in chroma.all_chunks()]))
    assert reader.chunk_texts(chunk_ids) == chroma.chunk_texts(chunk_ids)
    ids = list(chroma.papers())
    mine, theirs = reader.sentence_vectors(ids), chroma.sentence_vectors(ids)
    assert mine.keys() == theirs.keys()
    assert all(mine[p][0] == theirs[p][0] and np.allclose(mine[p][1], theirs[p][1], atol=1e-6) for p in ids)
    for question in QUESTIONS:
        qvec = engine.embedder.embed_one(question)
        near, far = reader.nearest_chunks(qvec, 10), chroma.nearest_chunks(qvec, 10)
        assert [c for c, _ in near] == [c for c, _ in far]
        assert np.allclose([s for _, s in near], [s for _, s in far], atol=1e-5)
        assert [p for p, _ in reader.nearest_sentences(qvec, 20)] == [p for p, _ in chroma.nearest_sentences(qvec, 20)]


def test_answers_from_the_snapshot_equal_answers_from_chroma(store):
    from_snapshot = [_engine(store).ask(q).to_json() for q in QUESTIONS]
    shutil.rmtree(folder_of(store))
    engine = _engine(store)
    from_chroma = [engine.ask(q).to_json() for q in QUESTIONS]
    assert not getattr(engine.store, "from_snapshot", False)
    for mine, theirs in zip(from_snapshot, from_chroma):  # the same answers; fused scores agree to float precision
        scores = [(r.pop("score"), t.pop("score")) for r, t in zip(mine["retrieved"], theirs["retrieved"])]
        assert mine == theirs and all(abs(a - b) < 1e-5 for a, b in scores)


def test_a_stale_snapshot_is_never_read(store, tmp_path):
    engine = _engine(store)
    assert engine.store.from_snapshot
    mark_stale(store)
    assert read_state(store) is None
    assert engine.store.refresh() is True and not engine.store.from_snapshot
    assert engine.store.counts() == (38, 73)  # read from Chroma now
    # The next write publishes a new snapshot and clears the marker.
    extra = tmp_path / "extra.jsonl"
    extra.write_text(json.dumps({"id": "x1", "title": "A paper on lattice folding",
                                 "abstract": "We fold proteins on a lattice. It works well."}) + "\n", encoding="utf-8")
    engine.ingest([extra])
    assert not (folder_of(store) / STALE).exists()
    assert engine.store.refresh() and engine.store.from_snapshot and engine.store.counts()[0] == 39


@pytest.mark.parametrize("damaged", ["vectors.npz", "papers.json", "chunks.json"])
def test_a_damaged_snapshot_is_a_lost_cache_not_an_error(store, damaged):
    """A truncated or garbled snapshot file: one note, the same answer from Chroma, stale until an ingest."""
    question = QUESTIONS[0]
    expected = _engine(store).ask(question).to_json()
    path = folder_of(store) / damaged
    path.write_bytes(path.read_bytes()[:300])
    first = cli(store, "ask", question, "--json")
    note = (f"note: the read snapshot in {folder_of(store)} cannot be read "
            f"({'BadZipFile' if damaged.endswith('.npz') else 'JSONDecodeError'}); "
            "reading Chroma instead (the next `paperchat ingest` rewrites it)")
    assert first.returncode == 0 and note in first.stderr.splitlines()
    got = json.loads(first.stdout)
    for answer in (got, expected):
        for row in answer["retrieved"]:
            row["score"] = round(row["score"], 4)
    assert got == expected
    assert read_state(store) is None  # marked stale: the next command reads Chroma without a note
    second = cli(store, "ask", question, "--json")
    assert second.returncode == 0 and "note: the read snapshot" not in second.stderr
    assert cli(store, "ingest").returncode == 0  # unchanged input, but the snapshot is written again
    assert read_state(store) is not None and _engine(store).store.from_snapshot


def test_an_unchanged_reingest_and_a_read_never_import_chroma(store, tmp_path):
    data = tmp_path / "one.jsonl"
    data.write_text(json.dumps({"id": "s1", "title": "Sparse attention", "abstract": "We study sparse attention. "
                                "It is fast."}) + "\n", encoding="utf-8")
    first = cli(store, "ingest", str(data), "--json")
    assert first.returncode == 0 and json.loads(first.stdout)["papers_added"] == 1
    again = cli(store, "ingest", str(data), "--json")
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout)
    assert (report["papers_seen"], report["papers_unchanged"], report["papers_added"]) == (1, 1, 0)
    assert (report["total_papers"], report["total_chunks"]) == (39, 74)
    assert "chromadb" not in again.stderr
    for args in (("papers", "--json"), ("ask", "What does ConfPO use to pick preference-critical tokens?", "--json")):
        out = cli(store, *args)
        assert out.returncode == 0 and "chromadb" not in out.stderr, args
    # One changed byte takes the full path (Chroma, diffing every record).
    data.write_text(data.read_text(encoding="utf-8").replace("fast", "quick"), encoding="utf-8")
    changed = cli(store, "ingest", str(data), "--json")
    assert json.loads(changed.stdout)["papers_updated"] == 1 and "chromadb" in changed.stderr


def test_check_reports_the_snapshot_as_a_note_never_a_failure(store):
    from paperchat.store.check import snapshot_finding

    chroma = _engine(store).open_store()
    assert snapshot_finding(chroma).to_json() == {"check": "read snapshot", "ok": True,
                                                 "detail": f"current (revision {chroma.revision()})"}
    path = folder_of(store) / "vectors.npz"
    path.write_bytes(path.read_bytes()[:300])
    assert snapshot_finding(chroma).detail == ("cannot be read (BadZipFile), now marked stale: readers use Chroma "
                                               "until `paperchat ingest` rewrites it")
    assert snapshot_finding(chroma).to_json()["ok"] is None and read_state(store) is None


def test_a_run_that_changes_the_store_voids_the_other_recorded_runs(store, tmp_path):
    """Recorded run A, then run B removes papers A added: repeating A must add them back, not say "unchanged"."""
    rows = [{"id": f"m{i}", "title": f"Paper {i} on lattice folding", "abstract": f"We fold protein {i} on a lattice. "
             f"It takes {i} steps."} for i in range(3)]
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


def test_a_snapshot_that_does_not_add_up_is_not_read(store):
    """Valid JSON that disagrees with the state (no papers, a wrong count, another embedding size) is a lost cache."""
    question = QUESTIONS[0]
    expected = _engine(store).ask(question)
    folder = folder_of(store)
    (folder / "papers.json").write_text("[]", encoding="utf-8")
    engine = _engine(store)
    assert engine.ask(question).sources[0].paper_id == expected.sources[0].paper_id
    assert read_state(store) is None and not engine.store.from_snapshot  # marked stale on the way
    engine.ingest([])  # the bundled corpus, unchanged: the snapshot is written again
    state = read_state(store)
    assert state is not None and _engine(store).store.papers().keys() == engine.open_store().papers().keys()
    for field, value in (("counts", None), ("current", "abc"), ("revision", 7)):
        (folder / "state.json").write_text(json.dumps({**state, field: value}), encoding="utf-8")
        assert read_state(store) is None and _engine(store).ask(question).sources[0].paper_id == expected.sources[0].paper_id
    (folder / "state.json").write_text(json.dumps({**state, "info": {**state["info"], "embed_dim": 128}}), encoding="utf-8")
    engine = _engine(store)
    assert engine.ask(question).sources[0].paper_id == expected.sources[0].paper_id  # Chroma says the store is fine
    assert read_state(store) is None
