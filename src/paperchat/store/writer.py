"""Writing the store: one process at a time, one generation at a time, readers never see half a rebuild.

:func:`open_writer` takes the write lock and hands out a :class:`StoreWriter`
for the generation to write:

* an ingest into a store that has a current generation writes into it (a
  run stopped part-way leaves the papers it finished; the next run embeds
  only the rest), and bumps the revision;
* the first ingest into an empty store (``--rebuild`` or not) makes a new
  generation current at once, then writes into it: there is no old store
  to keep, and readers see the papers finished so far;
* a rebuild (``ingest --rebuild``) of a store that holds a generation
  writes a new *pending* generation while readers keep the current one;
  when the writer finishes, ``current`` points at it in one write and the
  old generation is deleted. A rebuild stopped part-way leaves the old
  store as it was.

An ingest that writes in place records itself in the store's state first
and removes itself when it ends well (:mod:`paperchat.store.runs`), so a
store an ingest was interrupted in is known to be partial. Index folders
Chroma leaves behind for dropped collections are deleted whenever the
writer opens and after a rebuild.

After the commit the writer saves the ingest manifest the engine hands over
in ``StoreWriter.manifest`` (:mod:`paperchat.ingest.manifest`, in
``<store>/ingest-manifest.json``), stamped with the store's revision, and
removes the ``snapshot/`` folder earlier paperchats kept beside the store.
A file that cannot be written is a note in ``StoreWriter.notes`` (the
ingest reports it), never an error: the store itself is committed.
"""

from __future__ import annotations

import contextlib
import shutil
import time
from collections.abc import Iterator, Sequence

import numpy as np

from paperchat.core.errors import StoreError
from paperchat.ingest.chunking import ChunkText
from paperchat.ingest.records import PaperRecord, StoreInfo
from paperchat.store import chroma as chroma_module
from paperchat.store.chroma import KINDS, LEGACY, PAGE, ChromaStore, collection_name
from paperchat.store.hnsw import HNSW, widen_search
from paperchat.store.integrity import remove_leftovers
from paperchat.store.locks import file_lock
from paperchat.store.runs import UNKNOWN, UNKNOWN_COMMAND, encode, runs_of

LOCK_WAIT_S = 10.0
#: the read snapshot earlier paperchats kept beside the store (and its temporary folders): never read now
OLD_SNAPSHOT = ("snapshot", "snapshot.tmp", "snapshot.old")


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
            page = chroma_module.READ_PAGE
            for start in range(0, len(ids), page):
                self._col(kind).delete(ids=ids[start : start + page])

    def _delete_sentences(self, paper_ids: Sequence[str]) -> None:
        self._delete_ids("sentences", self._ids_where("sentences", "paper_id", list(paper_ids)))

    def delete_chunks(self, ids: Sequence[str]) -> None:
        """Remove chunks by id."""
        if ids:
            self._begin()
            self._delete_ids("chunks", ids)
            self.changed = True

    def delete_papers(self, paper_ids: Sequence[str]) -> int:
        """Remove papers with their chunks and sentence vectors; returns the chunks removed."""
        if paper_ids:
            self._begin()
        removed = 0
        for start in range(0, len(paper_ids), 500):
            batch = list(paper_ids[start : start + 500])
            chunk_ids = sorted(self.chunk_ids_of(batch))
            self.delete_chunks(chunk_ids)
            removed += len(chunk_ids)
            self._delete_ids("papers", batch)
            self._delete_sentences(batch)
        self.changed = self.changed or bool(paper_ids)
        return removed

    def update_papers(self, records: Sequence[PaperRecord]) -> None:
        """Write new metadata for papers (their chunks get the paper-level fields), embedding nothing."""
        if records:
            self._begin()
        with self.store.guarded():
            for rec in records:
                chunk_meta = rec.chunk_meta()
                for got in self.store.pages(
                    "chunks",
                    ["metadatas"],
                    where={"paper_id": rec.paper_id},
                    generation=self.generation,
                ):
                    if got["ids"]:
                        self._col("chunks").update(
                            ids=got["ids"],
                            metadatas=[{**m, **chunk_meta} for m in got["metadatas"]],
                        )
                self._col("papers").update(ids=[rec.paper_id], metadatas=[rec.to_meta()])
        self.changed = self.changed or bool(records)

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
        self.changed = True
        return len(ids)


def _create_generation(store: ChromaStore, generation: int, info: StoreInfo) -> None:
    cfg = {"hnsw": dict(HNSW)}
    with store.guarded():
        for kind in KINDS:
            store.client.get_or_create_collection(
                collection_name(generation, kind),
                metadata=info.as_metadata(),
                configuration=cfg,
                embedding_function=None,
            )


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


def _tidy(store: ChromaStore) -> None:
    """Delete index folders Chroma left behind for dropped collections, and the read snapshot earlier
    paperchats kept (``<store>/snapshot/``, unused now), in embedded stores; the write lock is held."""
    if not store.remote:
        try:
            remove_leftovers(store.local_dir / "chroma")
        except OSError:
            pass  # left for the next writer; `paperchat check` lists them
        for name in OLD_SNAPSHOT:
            shutil.rmtree(
                store.local_dir / name, ignore_errors=True
            )  # what stays, `paperchat check` names


@contextlib.contextmanager
def open_writer(
    store: ChromaStore,
    info: StoreInfo,
    rebuild: bool = False,
    wait_s: float | None = None,
    wait_note: str | None = None,
    run: tuple[str, str] | None = None,
) -> Iterator[StoreWriter]:
    """Hold the store's write lock and yield the :class:`StoreWriter` (see the module docstring).

    Waits up to ``wait_s`` seconds (default :data:`LOCK_WAIT_S`) for another writer. ``run`` is
    ``(key, command)`` of the ingest (:mod:`paperchat.store.runs`). Raises :class:`StoreError` when the
    store is locked, read-only, or (without ``rebuild``) built with other settings.
    """
    busy = f"another paperchat process is writing the store at {store.where()}; try again when it has finished"
    with file_lock(
        store.local_dir / "write.lock", LOCK_WAIT_S if wait_s is None else wait_s, busy, wait_note
    ):
        store.refresh()
        meta = store.read_meta()
        current, pending = int(meta.get("current") or 0), int(meta.get("pending") or 0)
        _tidy(store)
        if rebuild and current:
            yield from _rebuild(store, info, meta, current, pending, run)
            return
        if not current and not rebuild and store.has_legacy_collections():
            store.check_compatible(info)  # raises: built by an earlier paperchat
        created = not current
        if created:
            current = _first_generation(store, info, meta, pending, rebuild, run)
        else:
            store.check_compatible(info)
            widen_search(store, current)
        runs = runs_of(store.read_meta())
        before = _manifest_runs(store)
        writer = StoreWriter(store, current, info, run, runs)
        try:
            yield writer
        finally:
            if writer.changed:
                store.write_meta(revision=_new_revision())
                store.refresh()
        if (
            writer.began or writer.run[0] in runs
        ):  # this run wrote, or finished an interrupted run of itself
            done = {writer.run[0], UNKNOWN} if writer.began else {writer.run[0]}
            store.write_meta(
                writing=encode({k: v for k, v in writer.runs.items() if k not in done})
            )
        if created:
            _drop(store, LEGACY)
        # A run that changed the store voids the other recorded runs: it may have removed papers they added.
        _publish(store, writer, {} if writer.changed else before)


def _first_generation(
    store: ChromaStore,
    info: StoreInfo,
    meta: dict,
    pending: int,
    rebuild: bool,
    run: tuple[str, str] | None,
) -> int:
    """The generation an ingest into an empty store writes, made current at once (there is no old store to keep
    for readers, and they should see the papers finished so far); returns it.

    An earlier paperchat's interrupted first ingest (a pending generation with these settings) is taken over.
    """
    if pending and not rebuild and _info_or_none(store, pending) == info:
        runs = runs_of(meta)
        store.write_meta(current=pending, pending=0, writing=encode(runs), revision=_new_revision())
        store.refresh()
        return pending
    if pending:
        _drop_generation(store, pending)
        _tidy(store)
    generation = max(pending, int(meta.get("last") or 0)) + 1
    _create_generation(store, generation, info)
    key, command = run or ("(unnamed)", UNKNOWN_COMMAND)
    store.write_meta(
        current=generation,
        pending=0,
        last=generation,
        writing=encode({key: command}),
        revision=_new_revision(),
    )
    store.refresh()
    return generation


def _rebuild(
    store: ChromaStore,
    info: StoreInfo,
    meta: dict,
    current: int,
    pending: int,
    run: tuple[str, str] | None,
) -> Iterator[StoreWriter]:
    """Write a new generation aside while readers keep ``current``; switch to it when the writer is done."""
    if pending:
        _drop_generation(store, pending)
        _tidy(store)
    pending = max(current, int(meta.get("last") or 0)) + 1
    _create_generation(store, pending, info)
    store.write_meta(pending=pending, last=pending)
    writer = StoreWriter(store, pending, info, run)
    writer.began = (
        True  # an interrupted rebuild leaves the current generation as it was: nothing to record
    )
    yield writer  # an exception leaves the pending generation for the next rebuild to drop
    store.write_meta(
        current=pending, pending=0, writing="", revision=_new_revision()
    )  # the files, exactly
    _drop_generation(store, current)
    _drop(store, LEGACY)
    _tidy(store)
    store.refresh()
    _publish(store, writer, {})


def _manifest_runs(store: ChromaStore) -> dict:
    """The runs of the saved ingest manifest when it was written at the store's committed revision, else ``{}``
    (a manifest of another revision says nothing about what the store holds now)."""
    if store.remote:
        return {}
    from paperchat.ingest import manifest

    saved = manifest.load(store.local_dir)
    return (
        dict(saved["runs"]) if saved is not None and saved["revision"] == store.revision() else {}
    )


def _publish(store: ChromaStore, writer: StoreWriter, earlier: dict) -> None:
    """After a committed write of an embedded store: save the ingest manifest (``earlier`` runs still true,
    then this writer's run) at the store's revision. A failure is a note in ``writer.notes``."""
    if store.remote:
        return
    from paperchat.ingest import manifest

    runs = dict(earlier)
    for key, entry in writer.manifest.items():
        runs = manifest.merge(runs, key, entry)
    info = store.info()
    try:
        manifest.save(
            store.local_dir,
            store.revision(),
            info.as_metadata() if info else None,
            store.counts(),
            runs,
        )
    except OSError as exc:
        writer.notes.append(
            f"the ingest manifest {manifest.path_of(store.local_dir)} could not be written "
            f"({exc.strerror or type(exc).__name__}); the next unchanged `paperchat ingest` "
            "re-reads its files"
        )
