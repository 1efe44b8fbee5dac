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
    path.write_text("".join(json.dumps({"id": i, "title": t, "abstract": a}) + "\n" for i, t, a in rows), encoding="utf-8")
    return path


A_ROWS = [("a1", "Graph pruning", "We prune graph neural networks by edge saliency. Accuracy stays within 1%."),
          ("a2", "Sparse attention", "We study sparse attention for long documents. It halves memory use.")]
B_ROWS = [("b1", "Protein folding", "We fold proteins with lattice field theory. Free energies match experiment."),
          ("b2", "Robot grasping", "We learn robot grasping from tactile signals. Success rises to 92%.")]


def engine_for(store: Path):
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    return Engine(load_settings({"store": str(store)}))


def invoke(store: Path, *args):
    return CliRunner().invoke(paperchat_cli, ["--store", str(store), *args])


def cli(store: Path, *args, timeout: float = 300, **env):
    return subprocess.run([sys.executable, "-m", "paperchat", "--store", str(store), *args], capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, **env})


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
    assert papers["a1"]["origin"] == {"path": "papers.jsonl", "index": 1, "file": str(a.resolve())}
    assert papers["b2"]["origin"] == {"path": "papers.jsonl", "index": 2, "file": str(b.resolve())}
    # A changed file removes only the papers it held.
    write_jsonl(a, A_ROWS[:1])
    changed = engine.ingest([a])
    assert (changed.papers_removed, changed.papers_unchanged) == (1, 1)
    assert sorted(stored(store)) == ["a1", "b1", "b2"]
    # `papers` says which file: by path when two stored files share a name.
    text = invoke(store, "papers").stdout.splitlines()
    assert [line.split()[-2:] for line in text[1:4]] == [[str(a.resolve()), "#1"], [str(b.resolve()), "#1"],
                                                         [str(b.resolve()), "#2"]]
    assert text[4:] == ["3 papers, 3 chunks from 2 files:", f"  {a.resolve()}: 1 paper", f"  {b.resolve()}: 2 papers"]


def _forget_paths(store: Path) -> None:
    """Make the store's records look like an earlier paperchat's: origin by file name only."""
    from paperchat.store.opening import open_store
    from paperchat.store.snapshot import mark_stale

    chroma = open_store(store, create=False)
    col = chroma.collection("papers")
    got = col.get(include=["metadatas"])
    col.update(ids=got["ids"], metadatas=[{**m, "source_file": ""} for m in got["metadatas"]])
    mark_stale(store)


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
        "exactly your files"]
    papers = stored(store)
    assert sorted(papers) == ["a1", "a2", "b1", "b2"]
    assert papers["a1"]["origin"]["file"] == str(a.resolve())  # the paper A holds now knows its file
    assert papers["b1"]["origin"]["file"] == ""
