"""A read-only snapshot of an embedded store, so one-shot commands need not import Chroma.

Chroma stays the store of record: every write goes through it
(:mod:`paperchat.store.writer`). But ``import chromadb`` alone takes about
0.7 s on a 2-core machine, more than the rest of a cold ``paperchat ask``,
and a one-shot command pays it every time. So after each committed write the
writer also saves what readers need, beside the database::

    <store>/snapshot/state.json      revision, generation, StoreInfo, counts, the ingest manifest
    <store>/snapshot/papers.json     every paper record (abstract included)
    <store>/snapshot/chunks.json     chunk ids, texts and metadata
    <store>/snapshot/vectors.npz     chunk vectors, sentence vectors and their paper ids (float32)
    <store>/snapshot/STALE           present while a write is under way (or died half-way)

:class:`ReadStore` answers the reads of :class:`~paperchat.store.chroma.ChromaStore`
from the snapshot while it is current, with exact nearest neighbours (a few
ms at 20,000 sentences; Chroma's HNSW search is approximate, so rankings can
differ slightly at scale); else, and for anything else, it opens Chroma.

The protocol keeps readers from trusting a snapshot that no longer matches
the database: the writer creates ``STALE`` before it changes anything that
readers see (at once for an in-place ingest; just before switching
generations for a rebuild), and writes the new snapshot and removes the
marker only after the commit. A process killed in between leaves ``STALE``
behind: readers use Chroma until the next write.

Server mode (``--chroma-url``) has no snapshot.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any, Iterator, Sequence

from paperchat.ingest.records import PaperRecord, StoreInfo
from paperchat.store.snapshot_files import UNREADABLE, SnapshotFiles, valid_state

FOLDER = "snapshot"
STALE = "STALE"
#: bumped when the snapshot's files change form (an older snapshot is ignored, then rewritten)
SNAPSHOT_FORMAT = 1


def folder_of(store_dir: Path) -> Path:
    """The snapshot folder of the embedded store in ``store_dir``."""
    return Path(store_dir) / FOLDER


def mark_stale(store_dir: Path) -> None:
    """Tell readers not to trust the snapshot (a write is about to change the store)."""
    folder = folder_of(store_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / STALE).touch()
    except OSError:
        pass  # a read-only folder: readers find no usable snapshot anyway


def read_state(store_dir: Path) -> dict[str, Any] | None:
    """The snapshot's ``state.json`` when the snapshot is usable (present, current format, not stale), else ``None``."""
    folder = folder_of(store_dir)
    if (folder / STALE).exists():
        return None
    try:
        state = json.loads((folder / "state.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return state if valid_state(state, SNAPSHOT_FORMAT) else None


def write_snapshot(store, manifest: dict[str, Any] | None = None) -> None:
    """Save the current generation of the Chroma ``store`` as its snapshot, then clear ``STALE``.

    ``manifest`` (file path -> content hash and counts, see
    :mod:`paperchat.ingest.manifest`) is kept in ``state.json`` for the fast
    unchanged re-ingest. Written to a temporary folder and renamed; a failure
    leaves ``STALE`` in place (readers keep using Chroma).
    """
    import numpy as np

    if store.remote:
        return
    folder = folder_of(store.local_dir)
    tmp = folder.with_name(FOLDER + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    papers = store.papers()
    info = store.info()
    chunk_rows = store._get("chunks", None, ["documents", "metadatas"]) if store.current else []
    chunk_ids = [cid for cid, _d, _m in chunk_rows]
    chunk_vecs = store.chunk_vectors(chunk_ids) if chunk_ids else {}
    sentences = store.sentence_vectors(list(papers)) if papers else {}
    sent_ids, sent_hash, sent_vecs = [], {}, []
    for pid, (text_hash, vecs) in sentences.items():
        sent_ids += [pid] * len(vecs)
        sent_hash[pid] = text_hash
        sent_vecs.append(vecs)
    dim = info.embed_dim if info else 0
    np.savez(tmp / "vectors.npz",
             chunks=np.asarray([chunk_vecs[c] for c in chunk_ids], dtype=np.float32).reshape(-1, dim or 1),
             sentences=(np.concatenate(sent_vecs).astype(np.float32) if sent_vecs
                        else np.zeros((0, dim or 1), dtype=np.float32)),
             sentence_papers=np.asarray(sent_ids, dtype=object).astype(str))
    (tmp / "papers.json").write_text(json.dumps([[pid, rec.to_meta(), rec.abstract] for pid, rec in papers.items()]),
                                     encoding="utf-8")
    (tmp / "chunks.json").write_text(json.dumps([[cid, doc or "", meta or {}] for cid, doc, meta in chunk_rows]),
                                     encoding="utf-8")
    state = {"format": SNAPSHOT_FORMAT, "revision": store.revision(), "current": store.current,
             "info": info.as_metadata() if info else None, "counts": [len(papers), len(chunk_ids)],
             "sentence_hashes": sent_hash, "manifest": manifest or {}}
    (tmp / "state.json").write_text(json.dumps(state), encoding="utf-8")
    stale = folder / STALE
    old = folder.with_name(FOLDER + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if folder.exists():
        os.replace(folder, old)
    os.replace(tmp, folder)  # the new folder has no STALE marker
    shutil.rmtree(old, ignore_errors=True)
    stale.unlink(missing_ok=True)


def update_manifest(store_dir: Path, state: dict[str, Any], manifest: dict[str, Any]) -> None:
    """Rewrite only ``state.json`` with a new manifest (a run that changed nothing), then clear ``STALE``."""
    folder = folder_of(store_dir)
    tmp = folder / "state.json.tmp"
    tmp.write_text(json.dumps({**state, "manifest": manifest}), encoding="utf-8")
    os.replace(tmp, folder / "state.json")
    (folder / STALE).unlink(missing_ok=True)


def unchanged_report(store_dir: Path, wanted, key: str):
    """The :class:`~paperchat.ingest.run.IngestReport` of repeating recorded ingest ``key`` on unchanged files,
    read from the snapshot of the embedded store in ``store_dir`` alone; ``None`` when the full path must run.

    ``wanted`` is the :class:`~paperchat.ingest.records.StoreInfo` the caller would build the store with.
    Nothing is parsed and Chroma is not opened. Raises :class:`~paperchat.core.errors.StoreError` for a
    damaged store folder (never called unchanged).
    """
    from paperchat.ingest.manifest import unchanged
    from paperchat.ingest.records import StoreInfo

    state = read_state(store_dir)
    if state is None or not state.get("current") or not state.get("info"):
        return None
    if StoreInfo.from_metadata(state["info"]).differences(wanted)[0]:
        return None
    counts = unchanged(state.get("manifest") or {}, key)
    if counts is None:
        return None
    from paperchat.ingest.run import IngestReport
    from paperchat.store.opening import check_folder

    check_folder(store_dir, create=False)
    report = IngestReport(**counts)
    report.total_papers, report.total_chunks = state["counts"]
    return report


class ReadStore:
    """The store as readers use it: the snapshot while it is current, else the Chroma store (see the module docstring).

    Has the read methods of :class:`~paperchat.store.chroma.ChromaStore`
    (same arguments, same results, nearest neighbours exact); other
    attributes are looked up on the Chroma store, opened on first need by
    ``open_chroma()``.
    """

    def __init__(self, store_dir: Path, state: dict[str, Any], open_chroma):
        self.local_dir = Path(store_dir)
        self.remote = None
        self._open_chroma = open_chroma
        self._chroma = None
        self._snap: SnapshotFiles | None = SnapshotFiles(folder_of(store_dir), state)
        self._bm25 = None
        self._rows: tuple = (None, None, None, None)  # (snapshot, paper ids, chunk rows, sentence rows) of the last filter

    # -- which source ----------------------------------------------------------------
    @property
    def chroma(self):
        """The Chroma store (opened on first use)."""
        if self._chroma is None:
            self._chroma = self._open_chroma()
        return self._chroma

    @property
    def from_snapshot(self) -> bool:
        """Whether reads are served from the snapshot now."""
        return self._snap is not None

    def __getattr__(self, name: str):
        return getattr(self.chroma, name)

    def _part(self, name: str):
        """The snapshot's ``papers``, ``chunks`` or ``vectors``; ``None`` when reads go to Chroma.

        An unreadable snapshot file is a lost cache: one note on stderr, the snapshot
        is marked stale, and Chroma serves until an ingest rewrites it.
        """
        if self._snap is None:
            return None
        try:
            return getattr(self._snap, name)
        except UNREADABLE as exc:
            print(f"note: the read snapshot in {folder_of(self.local_dir)} cannot be read ({type(exc).__name__}); "
                  "reading Chroma instead (the next `paperchat ingest` rewrites it)", file=sys.stderr, flush=True)
            self._drop_snapshot()
            return None

    def _drop_snapshot(self) -> None:
        """Stop trusting the snapshot: mark it stale (later commands read Chroma quietly; an ingest rewrites it)."""
        mark_stale(self.local_dir)
        self._snap, self._bm25 = None, None

    def where(self) -> str:
        """The store folder, for messages."""
        return str(self.local_dir)

    @contextlib.contextmanager
    def guarded(self) -> Iterator[None]:
        """As :meth:`ChromaStore.guarded` (snapshot reads raise nothing of Chroma's)."""
        if self._snap is None:
            with self.chroma.guarded():
                yield
        else:
            yield

    def refresh(self) -> bool:
        """Re-read the snapshot's state; a new revision reloads it, a stale or missing one switches to Chroma."""
        state = read_state(self.local_dir)
        if state is None:
            had, self._snap, self._bm25 = self._snap is not None, None, None
            return self.chroma.refresh() or had
        old = self._snap.state.get("revision") if self._snap is not None else None
        if self._snap is None or state.get("revision") != old:
            self._snap = SnapshotFiles(folder_of(self.local_dir), state)
            self._bm25 = None
            return old is not None or self._chroma is not None
        return False

    # -- state -------------------------------------------------------------------------
    @property
    def current(self) -> int:
        return int(self._snap.state.get("current") or 0) if self._snap else self.chroma.current

    def revision(self) -> str:
        if self._snap is None:
            return self.chroma.revision()
        return str(self._snap.state.get("revision")) if self.current else "empty"

    def info(self, generation: int | None = None) -> StoreInfo | None:
        if self._snap is None or generation not in (None, self.current):
            return self.chroma.info(generation)
        meta = self._snap.state.get("info")
        return StoreInfo.from_metadata(meta) if meta else None

    def check_compatible(self, wanted: StoreInfo) -> None:
        """As :meth:`ChromaStore.check_compatible`: a snapshot that agrees with ``wanted`` answers; otherwise
        (an empty snapshot, or one that disagrees) Chroma, the store of record, decides and words the error."""
        if self._snap is not None and self.info() is not None and not self.info().differences(wanted)[0]:
            return None
        self.chroma.check_compatible(wanted)
        if self._snap is not None and self.info() is not None:  # Chroma agrees, the snapshot did not: it is wrong
            self._drop_snapshot()
        return None

    def counts(self) -> tuple[int, int]:
        if self._snap is None:
            return self.chroma.counts()
        papers, chunks = self._snap.state.get("counts") or (0, 0)
        return int(papers), int(chunks)

    # -- reading -------------------------------------------------------------------------
    def papers(self, ids: Sequence[str] | None = None, abstracts: bool = True,
               generation: int | None = None) -> dict[str, PaperRecord]:
        everything = self._part("papers") if self._snap is not None and generation in (None, self.current) else None
        if everything is None:
            return self.chroma.papers(ids, abstracts, generation)
        chosen = everything if ids is None else {pid: everything[pid] for pid in dict.fromkeys(ids) if pid in everything}
        if abstracts:
            return dict(chosen)
        from dataclasses import replace

        return {pid: replace(rec, abstract="") for pid, rec in chosen.items()}

    def aliases(self) -> dict[str, str]:
        return {alias: pid for pid, rec in self.papers(abstracts=False).items() for alias in rec.aliases}

    def chunk_texts(self, ids: Sequence[str]) -> dict[str, tuple[str, dict[str, Any]]]:
        chunks = self._part("chunks")
        if chunks is None:
            return self.chroma.chunk_texts(ids)
        return {cid: chunks[cid] for cid in ids if cid in chunks}

    def all_chunks(self) -> list[tuple[str, str, str]]:
        chunks = self._part("chunks")
        if chunks is None:
            return self.chroma.all_chunks()
        return [(cid, doc, str(meta.get("title") or "")) for cid, (doc, meta) in chunks.items()]

    def chunk_vectors(self, ids: Sequence[str]):
        vectors = self._part("vectors")
        if vectors is None:
            return self.chroma.chunk_vectors(ids)
        chunk_ids, vecs, *_ = vectors
        row = {cid: i for i, cid in enumerate(chunk_ids)}
        return {cid: vecs[row[cid]] for cid in ids if cid in row}

    def _filter_rows(self, vectors, paper_ids: frozenset[str]):
        """The chunk rows and sentence rows of ``paper_ids`` in the snapshot's vectors (the last set is cached)."""
        import numpy as np

        snap, ids, chunk_rows, sentence_rows = self._rows
        if snap is not self._snap or ids != paper_ids:
            from paperchat.ingest.chunking import paper_of

            chunk_ids, _cv, _sp, _sv, spans = vectors
            chunk_rows = np.asarray([i for i, cid in enumerate(chunk_ids) if paper_of(cid) in paper_ids], dtype=np.int64)
            starts = [spans[pid] for pid in paper_ids if pid in spans]
            sentence_rows = (np.concatenate([np.arange(first, first + k) for first, k in starts]) if starts
                             else np.zeros(0, dtype=np.int64))
            self._rows = (self._snap, paper_ids, chunk_rows, sentence_rows)
        return chunk_rows, sentence_rows

    def nearest_chunks(self, qvec, n: int, paper_ids: frozenset[str] | None = None) -> list[tuple[str, float]]:
        vectors = self._part("vectors")
        if vectors is None:
            return self.chroma.nearest_chunks(qvec, n, paper_ids)
        chunk_ids, vecs, *_ = vectors
        rows = None if paper_ids is None else self._filter_rows(vectors, paper_ids)[0]
        return [(chunk_ids[i], cos) for i, cos in _top(vecs, qvec, n, rows)]

    def sentence_vectors(self, ids: Sequence[str], generation: int | None = None):
        vectors = self._part("vectors") if self._snap is not None and generation in (None, self.current) else None
        if vectors is None:
            return self.chroma.sentence_vectors(ids, generation)
        _c, _v, _sp, vecs, spans = vectors
        hashes = self._snap.state.get("sentence_hashes") or {}
        return {pid: (hashes.get(pid, ""), vecs[spans[pid][0]: spans[pid][0] + spans[pid][1]])
                for pid in dict.fromkeys(ids) if pid in spans}

    def nearest_sentences(self, qvec, n: int, paper_ids: frozenset[str] | None = None) -> list[tuple[str, float]]:
        vectors = self._part("vectors")
        if vectors is None:
            return self.chroma.nearest_sentences(qvec, n, paper_ids)
        _c, _v, sent_papers, vecs, _s = vectors
        rows = None if paper_ids is None else self._filter_rows(vectors, paper_ids)[1]
        return [(str(sent_papers[i]), cos) for i, cos in _top(vecs, qvec, n, rows)]

    def bm25(self):
        """The BM25 index of the current revision (as :meth:`ChromaStore.bm25`)."""
        if self._snap is None:
            return self.chroma.bm25()
        from paperchat.store.bm25 import load_or_build

        revision = self.revision()
        if self._bm25 is None or self._bm25.revision != revision:
            self._bm25 = load_or_build(self.local_dir / "bm25", revision,
                                       lambda: [(pid, r.title, r.abstract) for pid, r in self.papers().items()])
        return self._bm25


def _top(vecs, qvec, n: int, rows=None) -> list[tuple[int, float]]:
    """Rows of ``vecs`` (unit vectors) with the ``n`` highest cosines to ``qvec``: ``(row, cosine)``, best first.

    ``rows`` (an integer array) restricts the search to those rows.
    """
    import numpy as np

    if n <= 0 or not len(vecs) or (rows is not None and not len(rows)):
        return []
    q = np.asarray(qvec, dtype=np.float32)
    q = q / (np.linalg.norm(q) or 1.0)
    sims = vecs @ q
    if rows is not None:
        sims = sims[rows]
    n = min(n, len(sims))
    best = np.argpartition(-sims, n - 1)[:n]
    best = best[np.argsort(-sims[best], kind="stable")]
    return [(int(i if rows is None else rows[i]), float(sims[i])) for i in best]
