"""``paperchat bench --scale``: a store grown with replicas holds what it says, and the table has every figure."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from paperchat.cli import cli
from paperchat.evaluation.bench.scale import ROWS
from paperchat.ingest.corpus import bundled_corpus_files


def _papers(store) -> dict[str, dict]:
    env = {**os.environ, "PAPERCHAT_STORE": str(store), "PAPERCHAT_DAEMON": "off"}
    out = subprocess.run(
        [sys.executable, "-m", "paperchat", "papers", "--json"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return {p["paper_id"]: p for p in json.loads(out.stdout)}


@pytest.mark.slow  # about 12 fresh processes: 15-20 s on 2 busy cores
def test_scale_grows_a_copy_with_replicas_and_reports_every_figure(bundled_store, tmp_path):
    base = _papers(bundled_store)
    assert len(base) == 38
    corpus = [a for f in bundled_corpus_files() for a in ("--corpus", str(f))]
    result = CliRunner().invoke(
        cli,
        [
            "bench",
            "--scale",
            "238",
            "--base-store",
            str(bundled_store),
            *corpus,
            "--repeat",
            "1",
            "--keep",
            str(tmp_path / "kept"),
            "--out",
            str(tmp_path / "scale.json"),
        ],
    )
    assert result.exit_code == 0, result.output

    grown = _papers(tmp_path / "kept" / "238")
    assert len(grown) == 238
    # 200 replicas of 38 papers: the first 10 ids (sorted) get 6, the others 5, under new ids and titles
    first, last = sorted(base)[0], sorted(base)[-1]
    replica = grown[f"{first}-r6"]
    assert replica["title"] == f"{base[first]['title']} (replica 6)"
    assert replica["chunks"] == base[first]["chunks"]
    assert replica["origin"]["path"] == "scale-replicas.jsonl"
    assert f"{first}-r7" not in grown and f"{last}-r5" in grown and f"{last}-r6" not in grown
    # the real papers keep their ids and titles
    assert all(grown[pid]["title"] == paper["title"] for pid, paper in base.items())

    figures = json.loads((tmp_path / "scale.json").read_text())
    size = figures["sizes"][0]
    chunks = sum(p["chunks"] for p in base.values())
    replica_chunks = sum(
        p["chunks"] * (6 if i < 10 else 5) for i, (_pid, p) in enumerate(sorted(base.items()))
    )
    assert (size["papers"], size["replicas"], size["chunks"]) == (238, 200, chunks + replica_chunks)
    assert size["cold"]["ask"]["runs"] == 3 and size["cold"]["ask"]["peak_rss_mib"] > 50
    assert size["warm_questions"] == 60 and 0 < size["retrieval_ms_p50"] <= size["retrieval_ms_p95"]
    assert size["disk_mib"] > 1
    # the base was copied, never written
    assert len(_papers(bundled_store)) == 38

    table = result.stdout
    assert "238 papers" in table.splitlines()[0]
    for label, _cell in ROWS:
        if not label.startswith("daemon:"):
            assert label in table
    assert f"{size['papers']:,}" in table and f"{size['disk_mib']:.0f}" in table
