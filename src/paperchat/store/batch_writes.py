"""Batch writes into one generation of the store: papers, their chunks and sentence vectors added,
updated and removed, in Chroma's largest batches, recording the ingest run before the first change.

:class:`StoreWriter` is what :func:`paperchat.store.writer.open_writer` hands out (it holds the
write lock and chooses the generation); :func:`paperchat.ingest.run.run_ingest` drives it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

import paperchat.store.chroma_reads as chroma_reads
from paperchat.core.errors import StoreError
from paperchat.ingest.chunking import ChunkText, paper_of
from paperchat.ingest.records import PaperRecord, StoreInfo
from paperchat.store.chroma import PAGE, ChromaStore
from paperchat.store.lease import FIELD as LEASE_FIELD
from paperchat.store.lease import lease_value, lost_to
from paperchat.store.runs import UNKNOWN_COMMAND, encode

#: Papers whose metadata one read and one write update (BatchWrites.update_papers)
UPDATE_BATCH = 256


def new_revision() -> str:
    """A fresh store revision (:meth:`~paperchat.store.chroma.ChromaStore.revision`): the time in ns, in hex."""
    return f"{time.time_ns():x}"


def _unit_mean(vectors: np.ndarray) -> list[float]:
    mean = np.asarray(vectors, dtype=np.float32).mean(axis=0)
    return (mean / max(float(np.linalg.norm(mean)), 1e-12)).tolist()


class StoreWriter:
    """Writes one generation of a store (see the module docstring); ``changed`` says whether it wrote.

    ``run``: ``(key, command)`` of the ingest writing (:mod:`paperchat.store.runs`), recorded in the
    store's state before the first change; ``runs``: the runs recorded when the writer opened.
    """

    def __init__(
        self,
        store: ChromaStore,
        generation: int,
        info: StoreInfo,
        run: tuple[str, str] | None = None,
        runs: dict[str, str] | None = None,
    ):
        self.store = store
        self.generation = generation
        self.info = info
        self.changed = False
        self.run = run or ("(unnamed)", UNKNOWN_COMMAND)
        self.runs = dict(runs or {})
        self.began = False
        #: manifest entries of the files this ingest read (:mod:`paperchat.ingest.manifest`), set by the caller
        self.manifest: dict[str, dict] = {}
        #: what could not be done after the commit (a file beside the store not written), for the report
        self.notes: list[str] = []

    def _wrote(self) -> None:
        """Mark the store changed; a write readers see (the current generation) bumps the revision at once, so a
        run killed before its end (``kill -9``, a server gone) still leaves readers a revision to notice
        (a daemon's paper list, the BM25 cache); a rebuild's pending generation waits for its switch."""
        self.changed = True
        changes = {"revision": new_revision()} if self.generation == self.store.current else {}
        if self.store.lease_token:  # a server's write lease, renewed in the same write
            taker = lost_to(self.store, self.store.lease_token)
            if taker:  # resumed after another writer took the store: two writers must not go on
                raise StoreError(
                    f"this ingest lost the write lease of the store at {self.store.where()} while it was "
                    f"stopped ({taker} took it); run it again when that one has finished (it resumes)"
                )
            changes[LEASE_FIELD] = lease_value(self.store.lease_token)
        if changes:
            self.store.write_meta(**changes)

    def _col(self, kind: str):
        return self.store.collection(kind, self.generation)

    def _begin(self) -> None:
        """Record this run in the store's state before its first change (an interrupted run stays recorded)."""
        if self.began:
            return
        self.began = True
        if self.run[0] not in self.runs:
            self.runs[self.run[0]] = self.run[1]
            self.store.write_meta(writing=encode(self.runs))

    def drop_runs(self, keys: set[str]) -> None:
        """Forget the recorded runs ``keys``: interrupted ingests with nothing left to finish (their files
        ``paperchat remove`` took out, or an ingest of those files among others has read them whole)."""
        if keys & set(self.runs):
            self.runs = {k: v for k, v in self.runs.items() if k not in keys}
            self.store.write_meta(writing=encode(self.runs))

    def fresh_for(self, key: str) -> bool:
        """Whether the generation holds nothing but what run ``key`` wrote: no papers, or an interrupted ``key``."""
        if set(self.runs) - {key}:
            return False
        if key in self.runs:
            return True
        with self.store.guarded():
            return self._col("papers").count() == 0

    @property
    def max_batch(self) -> int:
        """Chroma's largest write batch (capped at 5,000)."""
        with self.store.guarded():
            return max(1, min(int(self.store.client.get_max_batch_size()), PAGE))

    def records(self) -> dict[str, PaperRecord]:
        """Every paper record of the generation (without abstracts)."""
        return self.store.papers(abstracts=False, generation=self.generation)

    def _ids_where(self, kind: str, field: str, values: Sequence[str]) -> list[str]:
        """Ids of the records of ``kind`` whose ``field`` is one of ``values`` (read in pages)."""
        out: list[str] = []
        with self.store.guarded():
            for start in range(0, len(values), 500):
                where = {field: {"$in": list(values[start : start + 500])}}
                for got in self.store.pages(kind, [], where=where, generation=self.generation):
                    out += got["ids"]
        return out

    def chunk_ids_of(self, paper_ids: Sequence[str]) -> set[str]:
        """The stored chunk ids of the given papers."""
        return set(self._ids_where("chunks", "paper_id", list(paper_ids)))

    def sentence_vectors(self, paper_ids: Sequence[str]) -> dict[str, tuple[str, np.ndarray]]:
        """Stored sentence vectors of the given papers: ``{paper id: (text hash, (n, dim))}``."""
        return self.store.sentence_vectors(paper_ids, generation=self.generation)

    def _delete_ids(self, kind: str, ids: Sequence[str]) -> None:
        ids = list(ids)
        with self.store.guarded():
            page = chroma_reads.READ_PAGE
            for start in range(0, len(ids), page):
                self._col(kind).delete(ids=ids[start : start + page])

    def _delete_sentences(self, paper_ids: Sequence[str]) -> None:
        self._delete_ids("sentences", self._ids_where("sentences", "paper_id", list(paper_ids)))

    def delete_chunks(self, ids: Sequence[str]) -> None:
        """Remove chunks by id."""
        if ids:
            self._begin()
            self._delete_ids("chunks", ids)
            self._wrote()

    def drop_orphans(self) -> int:
        """Remove the chunks no stored paper lists and the sentence vectors of papers not stored: what an
        ingest stopped part-way wrote before its papers (``check``'s "no orphan chunks"). Returns the chunks
        removed. ``paperchat remove`` of an interrupted ingest's files calls it: 125 such chunks had stayed,
        and ``check`` failed with no file left to rebuild from (a README audit)."""
        records = self.records()
        wanted = {cid for r in records.values() for cid in r.chunk_ids}
        chunks: list[str] = []
        sentences: list[str] = []
        with self.store.guarded():
            for got in self.store.pages("chunks", [], generation=self.generation):
                chunks += [cid for cid in got["ids"] if cid not in wanted]
            for got in self.store.pages("sentences", ["metadatas"], generation=self.generation):
                sentences += [
                    sid
                    for sid, meta in zip(got["ids"], got["metadatas"])
                    if (meta or {}).get("paper_id") not in records
                ]
        if chunks or sentences:
            self._begin()
            self._delete_ids("chunks", chunks)
            self._delete_ids("sentences", sentences)
            self._wrote()
        return len(chunks)

    def delete_papers(self, paper_ids: Sequence[str]) -> int:
        """Remove papers with their chunks and sentence vectors; returns the chunks removed."""
        if paper_ids:
            self._begin()
        removed = 0
        for start in range(0, len(paper_ids), 500):
            batch = list(paper_ids[start : start + 500])
            chunk_ids = sorted(self.chunk_ids_of(batch))
            self._delete_ids("chunks", chunk_ids)  # one new revision for the whole removal, below
            removed += len(chunk_ids)
            self._delete_ids("papers", batch)
            self._delete_sentences(batch)
        if paper_ids:
            self._wrote()
        return removed

    def update_papers(self, records: Sequence[PaperRecord]) -> None:
        """Write new metadata for papers (their chunks get the paper-level fields), embedding nothing: per
        :data:`UPDATE_BATCH` papers, one read of their chunks and one write of each (a row deleted near a
        file's top renumbers every later paper: one paper at a time, that took 0.15 s a paper on a Chroma
        server, 88 s for 579 papers in a lab engineer's session)."""
        if not records:
            return
        self._begin()
        with self.store.guarded():
            for start in range(0, len(records), UPDATE_BATCH):
                batch = {rec.paper_id: rec for rec in records[start : start + UPDATE_BATCH]}
                wanted = {pid: rec.chunk_meta() for pid, rec in batch.items()}
                pages = list(
                    self.store.pages(
                        "chunks",
                        ["metadatas"],
                        where={"paper_id": {"$in": list(wanted)}},
                        generation=self.generation,
                    )
                )
                for got in pages:
                    if got["ids"]:
                        self._col("chunks").update(
                            ids=got["ids"],
                            metadatas=[
                                {**m, **wanted[m.get("paper_id") or paper_of(cid)]}
                                for cid, m in zip(got["ids"], got["metadatas"])
                            ],
                        )
                self._col("papers").update(
                    ids=list(batch), metadatas=[rec.to_meta() for rec in batch.values()]
                )
        self._wrote()

    def write(
        self,
        records: Sequence[PaperRecord],
        chunks: dict[str, list[tuple[ChunkText, np.ndarray]]],
        sentences: dict[str, tuple[np.ndarray, str]],
    ) -> int:
        """Write papers: their missing chunks (with vectors), their sentence vectors, then their records.

        ``chunks`` maps paper id -> ``[(chunk, unit vector)]`` (every chunk of
        the paper; the ones already stored are not written again),
        ``sentences`` paper id -> ``(sentences, sentence vectors (n, dim), text hash)``
        for papers whose sentences were embedded now. The record goes last: a
        stored paper record means all its chunks are stored. Returns the
        number of chunks written.
        """
        self._begin()
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
                self._col("chunks").add(
                    ids=ids[b : b + step],
                    documents=docs[b : b + step],
                    embeddings=vecs[b : b + step],
                    metadatas=metas[b : b + step],
                )
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
                    self._col("sentences").add(
                        ids=sids[b : b + step],
                        documents=sdocs[b : b + step],
                        embeddings=svecs[b : b + step],
                        metadatas=smetas[b : b + step],
                    )
            self._col("papers").upsert(
                ids=[r.paper_id for r in records],
                documents=[r.abstract for r in records],
                embeddings=[
                    _unit_mean(np.stack([v for _c, v in chunks[r.paper_id]])) for r in records
                ],
                metadatas=[r.to_meta() for r in records],
            )
        self._wrote()
        return len(ids)
