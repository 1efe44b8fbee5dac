"""The files of a read snapshot (:mod:`paperchat.store.snapshot`), loaded on first use and checked as they load.

A snapshot is a cache of what Chroma holds, so anything in it that does not
add up (a field of the wrong type, fewer papers or chunks than its state
counts, vectors that do not match the chunks) raises ``ValueError`` here;
the reader then marks it stale and reads Chroma until an ingest rewrites it.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

from paperchat.ingest.records import PaperRecord

#: what loading a missing, cut-short, garbled or inconsistent snapshot file raises
UNREADABLE = (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile)


def valid_state(state: Any, snapshot_format: int) -> bool:
    """Whether ``state`` (parsed ``state.json``) has this format and fields of the right types."""
    if not isinstance(state, dict) or state.get("format") != snapshot_format:
        return False
    counts = state.get("counts")
    return (isinstance(state.get("revision"), str) and isinstance(state.get("current"), int)
            and isinstance(counts, list) and len(counts) == 2 and all(isinstance(c, int) for c in counts)
            and isinstance(state.get("info"), (dict, type(None))) and isinstance(state.get("manifest", {}), dict)
            and isinstance(state.get("sentence_hashes", {}), dict))


class SnapshotFiles:
    """The loaded snapshot files: ``papers``, ``chunks``, ``vectors`` (each read on first use).

    Raises ``OSError`` for a missing file, ``ValueError`` for one that does
    not parse or does not match the state's counts and the embedding size.
    """

    def __init__(self, folder: Path, state: dict[str, Any]):
        self.folder = folder
        self.state = state
        self._papers: dict[str, PaperRecord] | None = None
        self._chunks: dict[str, tuple[str, dict[str, Any]]] | None = None
        self._vectors = None

    def _rows(self, name: str, expected: int) -> list:
        rows = json.loads((self.folder / name).read_text(encoding="utf-8"))
        if not isinstance(rows, list) or len(rows) != expected:
            raise ValueError(f"{name} holds {len(rows) if isinstance(rows, list) else 'no'} rows, not {expected}")
        return rows

    @property
    def papers(self) -> dict[str, PaperRecord]:
        if self._papers is None:
            rows = self._rows("papers.json", self.state["counts"][0])
            self._papers = {pid: PaperRecord.from_meta(pid, meta, abstract) for pid, meta, abstract in rows}
        return self._papers

    @property
    def chunks(self) -> dict[str, tuple[str, dict[str, Any]]]:
        if self._chunks is None:
            rows = self._rows("chunks.json", self.state["counts"][1])
            self._chunks = {cid: (doc, meta) for cid, doc, meta in rows}
        return self._chunks

    @property
    def vectors(self):
        """``(chunk ids, chunk vectors, sentence paper ids, sentence vectors, {paper: (first row, rows)})``."""
        if self._vectors is None:
            import numpy as np

            with np.load(self.folder / "vectors.npz", allow_pickle=False) as data:
                chunk_vecs, sent_vecs, sent_papers = data["chunks"], data["sentences"], data["sentence_papers"]
            chunk_ids = list(self.chunks)
            dim = int((self.state.get("info") or {}).get("embed_dim") or chunk_vecs.shape[-1])
            if (chunk_vecs.ndim != 2 or sent_vecs.ndim != 2 or len(chunk_vecs) != len(chunk_ids)
                    or len(sent_vecs) != len(sent_papers) or {chunk_vecs.shape[1], sent_vecs.shape[1]} != {dim}):
                raise ValueError("vectors.npz does not match the snapshot's chunks and embedding size")
            for vecs in (chunk_vecs, sent_vecs):  # unit rows, as Chroma's cosine space compares them
                if len(vecs):
                    vecs /= np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
            spans: dict[str, tuple[int, int]] = {}
            for i, pid in enumerate(sent_papers.tolist()):
                first, n = spans.get(pid, (i, 0))
                spans[pid] = (first, n + 1)
            self._vectors = (chunk_ids, chunk_vecs, sent_papers, sent_vecs, spans)
        return self._vectors
