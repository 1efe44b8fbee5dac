"""A ``Paperchat`` used from several threads (a notebook's ThreadPoolExecutor): calls run one at a time
(:data:`paperchat.api.arguments.ONE_CALL`), so a refresh after another object's write does not reset
Chroma's process-wide client cache under a running call (a notebook user's session: chromadb's KeyError
about every other run), and threads building the BM25 index do not share a temporary folder."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import ICML_JSONL

from paperchat import Paperchat


@pytest.mark.integration  # two ingests of its own store
def test_threads_ask_after_another_objects_ingest(tmp_path):
    rows = [json.loads(line) for line in ICML_JSONL.read_text(encoding="utf-8").splitlines()[:12]]
    for name, part in (("a.jsonl", rows[:4]), ("b.jsonl", rows[4:])):
        (tmp_path / name).write_text("".join(json.dumps(r) + "\n" for r in part), encoding="utf-8")
    first = Paperchat(tmp_path / "store")
    first.ingest([str(tmp_path / "a.jsonl")])
    first.ask("warm up?")
    Paperchat(tmp_path / "store").ingest([str(tmp_path / "b.jsonl")])  # a re-run cell's own object
    questions = [r["title"] + "?" for r in rows[:8]]
    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(first.ask, questions))
    # each title asked is answered from its paper, the four papers of the second file too
    assert [a.sources[0].paper_id for a in answers] == [r["id"] for r in rows[:8]]
    assert not list((tmp_path / "store").glob("**/bm25.*.tmp"))  # no builder's folder left behind
