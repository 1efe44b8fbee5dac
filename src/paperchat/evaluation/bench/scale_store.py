"""Scaling a real store up with replicas of its papers, embedding nothing (for ``paperchat bench --scale``).

:func:`scale_store` adds papers to a store (a copy: the caller never hands it
a store it wants to keep) until it holds ``target`` papers. Each new paper is
a *replica* of a stored paper: the same abstract, chunk texts and sentence
texts, a new id (``<id>-r<k>``), a new title (``<title> (replica <k>)``) and
the stored chunk and sentence vectors perturbed slightly (Gaussian noise of
:data:`NOISE` per dimension, renormalised: cosine about 0.999 to the
original), so the vector indexes see distinct points. Replicas are written
through the store's own writer (:func:`paperchat.store.open_writer`), as an
ingest writes papers, so the store is one an ingest could have made: papers,
chunks, sentence vectors, the revision, the readers' files.

Replicas are recorded as coming from a file named :data:`REPLICA_FILE` that
no corpus holds, so re-ingesting the real corpus files keeps them. Their
``content_key`` is made distinct (they are not merged as near-duplicates).

Memory: the stored papers are read :data:`SOURCE_GROUP` at a time (Chroma
reads in pages, :meth:`paperchat.store.ChromaStore.pages`) and their
replicas written in batches of :data:`WRITE_BATCH` papers, so the store is
never held in memory whole.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from paperchat.core.text import short_hash
from paperchat.ingest.chunking import ChunkText, chunk_id
from paperchat.ingest.labels import short_label
from paperchat.ingest.records import PaperRecord

#: the name of the (nonexistent) file replicas are recorded as coming from
REPLICA_FILE = "scale-replicas.jsonl"
#: standard deviation of the noise added to each vector component before renormalising (384-dim unit vectors)
NOISE = 0.002
#: stored papers read at a time
SOURCE_GROUP = 100
#: replica papers per write
WRITE_BATCH = 250

Progress = Callable[[int, int], None]


@dataclass
class ScaleReport:
    """What :func:`scale_store` did: papers before and after, replicas, chunks and sentences written, seconds."""

    papers_before: int
    papers_after: int
    replicas: int
    chunks_written: int
    sentences_written: int
    total_chunks: int
    seconds: float


def replica_id(paper_id: str, k: int) -> str:
    """The id of replica ``k`` (from 1) of ``paper_id``."""
    return f"{paper_id}-r{k}"


def replica_title(title: str, k: int) -> str:
    """The title of replica ``k`` of a paper titled ``title``."""
    return f"{title} (replica {k})"


def replica_counts(n_sources: int, n_new: int) -> list[int]:
    """How many replicas each of ``n_sources`` papers gets so that ``n_new`` are made (the first get one more)."""
    if n_sources <= 0:
        return []
    base, extra = divmod(max(0, n_new), n_sources)
    return [base + (1 if i < extra else 0) for i in range(n_sources)]


def _perturb(vecs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``vecs`` (n, dim) plus small Gaussian noise, each row renormalised to unit length (float32)."""
    out = np.asarray(vecs, dtype=np.float32) + rng.normal(0.0, NOISE, size=np.shape(vecs)).astype(
        np.float32
    )
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)


@dataclass
class _Source:
    """One stored paper as read: its record (with abstract), chunks ``[(position, text, vector)]`` and
    sentences ``[(position, text, vector)]``, both in order."""

    record: PaperRecord
    chunks: list[tuple[int, str, list[float]]]
    sentences: list[tuple[int, str, list[float]]]


def _read_sources(writer, ids: list[str]) -> list[_Source]:
    """The records, chunks and sentences of the stored papers ``ids`` (read in pages)."""
    store, gen = writer.store, writer.generation
    records = store.papers(ids, abstracts=True, generation=gen)
    chunks: dict[str, list] = {pid: [] for pid in ids}
    sentences: dict[str, list] = {pid: [] for pid in ids}
    chunk_ids = [cid for pid in ids if pid in records for cid in records[pid].chunk_ids]
    with store.guarded():
        for got in store.pages(
            "chunks", ["documents", "metadatas", "embeddings"], ids=chunk_ids, generation=gen
        ):
            for doc, meta, vec in zip(got["documents"], got["metadatas"], got["embeddings"]):
                chunks[meta["paper_id"]].append((int(meta.get("chunk_index", 0)), doc or "", vec))
        where = {"paper_id": {"$in": ids}}
        for got in store.pages(
            "sentences", ["documents", "metadatas", "embeddings"], where=where, generation=gen
        ):
            for doc, meta, vec in zip(got["documents"], got["metadatas"], got["embeddings"]):
                sentences[meta["paper_id"]].append((int(meta["position"]), doc or "", vec))
    out = []
    for pid in ids:
        if pid in records and chunks[pid]:
            out.append(
                _Source(
                    records[pid],
                    sorted(chunks[pid], key=lambda c: c[0]),
                    sorted(sentences[pid], key=lambda s: s[0]),
                )
            )
    return out


def _replica(src: _Source, k: int, index: int, source_file: str, rng: np.random.Generator):
    """``(record, [(chunk, vector)], (sentence texts, vectors, text hash) or None)`` of replica ``k`` of ``src``."""
    old = src.record
    pid = replica_id(old.paper_id, k)
    title = replica_title(old.name, k)
    chunk_vecs = _perturb(np.asarray([v for _p, _t, v in src.chunks], dtype=np.float32), rng)
    chunks = [
        (ChunkText(chunk_id(pid, pos, text), pos, text), vec)
        for (pos, text, _v), vec in zip(src.chunks, chunk_vecs)
    ]
    rec = PaperRecord(
        pid,
        old.abstract,
        title,
        short_label(title, old.abstract),
        old.url,
        list(old.authors),
        REPLICA_FILE,
        index,
        old.openreview_id,
        [],
        short_hash(f"{old.content_key}|replica {k}"),
        old.text_hash,
        old.chunking,
        [c.chunk_id for c, _v in chunks],
        old.venue,
        old.year,
        source_file,
    )
    sentences = None
    if src.sentences:
        vecs = _perturb(np.asarray([v for _p, _t, v in src.sentences], dtype=np.float32), rng)
        sentences = ([t for _p, t, _v in src.sentences], vecs, old.text_hash)
    return rec, chunks, sentences


def scale_store(store, target: int, seed: int = 0, progress: Progress | None = None) -> ScaleReport:
    """Add replicas to the open store ``store`` (a :class:`paperchat.store.ChromaStore`) until it holds ``target``
    papers (nothing when it holds that many already); see the module docstring.

    ``progress(done, total)`` counts replica papers written. Raises
    :class:`~paperchat.core.errors.StoreError` when the store is empty, locked or damaged.
    """
    from paperchat.core.errors import StoreError
    from paperchat.store import open_writer

    start = time.perf_counter()
    store.refresh()
    info = store.info()
    if info is None:
        raise StoreError(f"the store at {store.where()} is empty; scale a store that holds papers")
    before, _chunks = store.counts()
    need = max(0, target - before)
    counts = {"chunks": 0, "sentences": 0, "papers": 0}
    rng = np.random.default_rng(seed)
    source_file = str(Path(store.where()) / REPLICA_FILE)
    run = ("paperchat bench --scale", "paperchat bench --scale")
    with open_writer(store, info, run=run) as writer:
        ids = sorted(writer.records())
        per = replica_counts(len(ids), need)
        if progress:
            progress(0, need)
        pending: list = []

        def flush() -> None:
            if not pending:
                return
            records = [r for r, _c, _s in pending]
            sentences = {r.paper_id: s for r, _c, s in pending if s is not None}
            counts["chunks"] += writer.write(
                records, {r.paper_id: c for r, c, _s in pending}, sentences
            )
            counts["sentences"] += sum(len(s[0]) for s in sentences.values())
            counts["papers"] += len(pending)
            pending.clear()
            if progress:
                progress(counts["papers"], need)

        for g in range(0, len(ids), SOURCE_GROUP):
            group = [
                (pid, n)
                for pid, n in zip(ids[g : g + SOURCE_GROUP], per[g : g + SOURCE_GROUP])
                if n
            ]
            if not group:
                break  # counts only fall along the list: no later paper gets a replica either
            wanted = dict(group)
            for src in _read_sources(writer, [pid for pid, _n in group]):
                for k in range(1, wanted[src.record.paper_id] + 1):
                    pending.append(
                        _replica(
                            src, k, before + counts["papers"] + len(pending) + 1, source_file, rng
                        )
                    )
                    if len(pending) >= WRITE_BATCH:
                        flush()
        flush()
    after, total_chunks = store.counts()
    return ScaleReport(
        before,
        after,
        counts["papers"],
        counts["chunks"],
        counts["sentences"],
        total_chunks,
        time.perf_counter() - start,
    )
