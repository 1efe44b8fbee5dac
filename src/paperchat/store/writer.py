"""Writing the store: one process at a time, one generation at a time, readers never see half a rebuild.

:func:`open_writer` takes the write lock and hands out a :class:`StoreWriter`
for the generation to write:

* an ingest into a store that has a current generation writes into it (a
  run stopped part-way leaves the papers it finished; the next run embeds
  only the rest), and bumps the revision;
* a rebuild (``ingest --rebuild``), and the first ingest into an empty
  store, write a new *pending* generation while readers keep the current
  one (or see an empty store); when the writer finishes, ``current`` points
  at it in one write and the old generation is deleted. A rebuild stopped
  part-way leaves the old store as it was; an interrupted first ingest is
  resumed by the next ingest.

An embedded store's snapshot (:mod:`paperchat.store.snapshot`) is marked
stale before readers could see a change and rewritten after the commit,
with the ingest manifest the engine hands over in ``StoreWriter.manifest``.
"""

from __future__ import annotations

import contextlib
import time
from typing import Iterator, Sequence

import numpy as np

from paperchat.core.errors import StoreError
from paperchat.ingest.chunking import ChunkText
from paperchat.ingest.records import PaperRecord, StoreInfo
from paperchat.store.chroma import KINDS, LEGACY, PAGE, ChromaStore, collection_name
from paperchat.store.locks import file_lock
from paperchat.store.snapshot import mark_stale, read_state, update_manifest, write_snapshot

LOCK_WAIT_S = 10.0


def _unit_mean(vectors: np.ndarray) -> list[float]:
    mean = np.asarray(vectors, dtype=np.float32).mean(axis=0)
    return (mean / max(float(np.linalg.norm(mean)), 1e-12)).tolist()


class StoreWriter:
    """Writes one generation of a store (see the module docstring); ``changed`` says whether it wrote."""

    def __init__(self, store: ChromaStore, generation: int, info: StoreInfo):
        self.store = store
        self.generation = generation
        self.info = info
        self.changed = False
        #: manifest entries of the files this ingest read (:mod:`paperchat.ingest.manifest`), set by the caller
        self.manifest: dict[str, dict] = {}

    def _col(self, kind: str):
        return self.store.collection(kind, self.generation)

    @property
    def max_batch(self) -> int:
        """Chroma's largest write batch (capped at 5,000)."""
        with self.store.guarded():
            return max(1, min(int(self.store.client.get_max_batch_size()), PAGE))

    def records(self) -> dict[str, PaperRecord]:
        """Every paper record of the generation (without abstracts)."""
        return self.store.papers(abstracts=False, generation=self.generation)

    def chunk_ids_of(self, paper_ids: Sequence[str]) -> set[str]:
        """The stored chunk ids of the given papers."""
        out: set[str] = set()
        with self.store.guarded():
            for start in range(0, len(paper_ids), 500):
                batch = list(paper_ids[start:start + 500])
                out |= set(self._col("chunks").get(where={"paper_id": {"$in": batch}}, include=[])["ids"])
        return out

    def sentence_vectors(self, paper_ids: Sequence[str]) -> dict[str, tuple[str, np.ndarray]]:
        """Stored sentence vectors of the given papers: ``{paper id: (text hash, (n, dim))}``."""
        return self.store.sentence_vectors(paper_ids, generation=self.generation)

    def _delete_sentences(self, paper_ids: Sequence[str]) -> None:
        with self.store.guarded():
            for start in range(0, len(paper_ids), 500):
                self._col("sentences").delete(where={"paper_id": {"$in": list(paper_ids[start:start + 500])}})

    def delete_chunks(self, ids: Sequence[str]) -> None:
        if ids:
            with self.store.guarded():
                self._col("chunks").delete(ids=list(ids))
            self.changed = True

    def delete_papers(self, paper_ids: Sequence[str]) -> int:
        """Remove papers with their chunks and sentence vectors; returns the chunks removed."""
        removed = 0
        for start in range(0, len(paper_ids), 500):
            batch = list(paper_ids[start:start + 500])
            chunk_ids = sorted(self.chunk_ids_of(batch))
            self.delete_chunks(chunk_ids)
            removed += len(chunk_ids)
            with self.store.guarded():
                self._col("papers").delete(ids=batch)
            self._delete_sentences(batch)
        self.changed = self.changed or bool(paper_ids)
        return removed

    def update_papers(self, records: Sequence[PaperRecord]) -> None:
        """Write new metadata for papers (their chunks get the paper-level fields), embedding nothing."""
        with self.store.guarded():
            for rec in records:
                got = self._col("chunks").get(where={"paper_id": rec.paper_id}, include=["metadatas"])
                if got["ids"]:
                    chunk_meta = rec.chunk_meta()
                    self._col("chunks").update(ids=got["ids"], metadatas=[{**m, **chunk_meta} for m in got["metadatas"]])
                self._col("papers").update(ids=[rec.paper_id], metadatas=[rec.to_meta()])
        self.changed = self.changed or bool(records)

    def write(self, records: Sequence[PaperRecord], chunks: dict[str, list[tuple[ChunkText, np.ndarray]]],
              sentences: dict[str, tuple[np.ndarray, str]]) -> int:
        """Write papers: their missing chunks (with vectors), their sentence vectors, then their records.

        ``chunks`` maps paper id -> ``[(chunk, unit vector)]`` (every chunk of
        the paper; the ones already stored are not written again),
        ``sentences`` paper id -> ``(sentences, sentence vectors (n, dim), text hash)``
        for papers whose sentences were embedded now. The record goes last: a
        stored paper record means all its chunks are stored. Returns the
        number of chunks written.
        """
        have = self.chunk_ids_of([r.paper_id for r in records])
        ids, docs, vecs, metas = [], [], [], []
        for rec in records:
            meta = rec.chunk_meta()
            for chunk, vec in chunks[rec.paper_id]:
                if chunk.chunk_id in have:
                    continue
                ids.append(chunk.chunk_id)
                docs.append(chunk.text)
                vecs.append(np.asarray(vec, dtype=np.float32).tolist())
                metas.append({**meta, "chunk_index": chunk.position})
        step = self.max_batch
        with self.store.guarded():
            for b in range(0, len(ids), step):
                self._col("chunks").add(ids=ids[b:b + step], documents=docs[b:b + step], embeddings=vecs[b:b + step],
                                        metadatas=metas[b:b + step])
            if sentences:
                self._delete_sentences(list(sentences))
                sids, sdocs, svecs, smetas = [], [], [], []
                for pid, (texts, vecs, text_hash) in sentences.items():
                    for i, (text, vec) in enumerate(zip(texts, vecs)):
                        sids.append(f"{pid}#s{i}")
                        sdocs.append(text)
                        svecs.append(np.asarray(vec, dtype=np.float32).tolist())
                        smetas.append({"paper_id": pid, "position": i, "text_hash": text_hash})
                for b in range(0, len(sids), step):
                    self._col("sentences").add(ids=sids[b:b + step], documents=sdocs[b:b + step],
                                               embeddings=svecs[b:b + step], metadatas=smetas[b:b + step])
            self._col("papers").upsert(
                ids=[r.paper_id for r in records],
                documents=[r.abstract for r in records],
                embeddings=[_unit_mean(np.stack([v for _c, v in chunks[r.paper_id]])) for r in records],
                metadatas=[r.to_meta() for r in records],
            )
        self.changed = True
        return len(ids)


def _create_generation(store: ChromaStore, generation: int, info: StoreInfo) -> None:
    cfg = {"hnsw": {"space": "cosine"}}
    with store.guarded():
        for kind in KINDS:
            store.client.get_or_create_collection(collection_name(generation, kind), metadata=info.as_metadata(),
                                                  configuration=cfg, embedding_function=None)


def _drop(store: ChromaStore, names: Sequence[str]) -> None:
    store.forget_collections()
    for name in names:
        try:
            store.client.delete_collection(name)
        except Exception:  # already gone
            pass


def _drop_generation(store: ChromaStore, generation: int) -> None:
    if generation:
        _drop(store, [collection_name(generation, kind) for kind in KINDS])


def _info_or_none(store: ChromaStore, generation: int) -> StoreInfo | None:
    try:
        return store.info(generation)
    except StoreError:
        return None


def _new_revision() -> str:
    return f"{time.time_ns():x}"


@contextlib.contextmanager
def open_writer(store: ChromaStore, info: StoreInfo, rebuild: bool = False,
                wait_s: float | None = None, wait_note: str | None = None) -> Iterator[StoreWriter]:
    """Hold the store's write lock and yield the :class:`StoreWriter` (see the module docstring).

    Waits up to ``wait_s`` seconds (default :data:`LOCK_WAIT_S`) for another writer. Raises
    :class:`StoreError` when the store is locked, read-only, or (without
    ``rebuild``) built with other settings.
    """
    busy = f"another paperchat process is writing the store at {store.where()}; try again when it has finished"
    with file_lock(store.local_dir / "write.lock", LOCK_WAIT_S if wait_s is None else wait_s, busy, wait_note):
        store.refresh()
        meta = store.read_meta()
        current, pending = int(meta.get("current") or 0), int(meta.get("pending") or 0)
        if current and not rebuild:
            store.check_compatible(info)
            before = read_state(store.local_dir) if not store.remote else None
            if not store.remote:
                mark_stale(store.local_dir)
            writer = StoreWriter(store, current, info)
            try:
                yield writer
            finally:
                if writer.changed:
                    store.write_meta(revision=_new_revision())
                    store.refresh()
            # A run that changed the store voids the other recorded runs: it may have removed papers they added.
            earlier = {} if writer.changed else ((before or {}).get("manifest") or {})
            _publish(store, {**earlier, **writer.manifest}, None if writer.changed else before)
            return
        if not current and not rebuild and store.has_legacy_collections():
            store.check_compatible(info)  # raises: built by an earlier paperchat
        if pending and (rebuild or _info_or_none(store, pending) != info):
            _drop_generation(store, pending)
            pending = 0
        if not pending:
            pending = max(current, int(meta.get("last") or 0)) + 1
            _create_generation(store, pending, info)
            store.write_meta(pending=pending, last=pending)
        writer = StoreWriter(store, pending, info)
        yield writer  # an exception leaves the pending generation for a resume (or the next rebuild to drop)
        if not store.remote:
            mark_stale(store.local_dir)
        store.write_meta(current=pending, pending=0, revision=_new_revision())
        _drop_generation(store, current)
        _drop(store, LEGACY)
        store.refresh()
        _publish(store, dict(writer.manifest))


def _publish(store: ChromaStore, manifest: dict, unchanged: dict | None = None) -> None:
    """Write the snapshot readers use after a committed write (embedded stores only; see the module docstring).

    ``unchanged``: the snapshot's state from before a run that wrote nothing; then only its manifest is updated.
    """
    if store.remote:
        return
    try:
        if unchanged is not None:
            update_manifest(store.local_dir, unchanged, manifest)
        else:
            write_snapshot(store, manifest)
    except (OSError, StoreError):
        pass  # the marker stays: readers use Chroma until a write succeeds
