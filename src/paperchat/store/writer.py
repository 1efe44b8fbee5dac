"""Writing the store: one process at a time, one generation at a time, readers never see half a rebuild.

:func:`open_writer` takes the write lock and hands out a :class:`StoreWriter`
for the generation to write:

* an ingest into a store that has a current generation writes into it (a
  run stopped part-way leaves the papers it finished; the next run embeds
  only the rest), and bumps the revision with every batch it writes;
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

This module switches generations; the writes themselves are
:class:`~paperchat.store.batch_writes.StoreWriter`'s (:mod:`paperchat.store.batch_writes`).
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator, Sequence

from paperchat.core.errors import StoreError
from paperchat.ingest.records import StoreInfo
from paperchat.store.batch_writes import StoreWriter, new_revision
from paperchat.store.chroma import KINDS, LEGACY, ChromaStore, collection_name
from paperchat.store.hnsw import HNSW, widen_search
from paperchat.store.integrity import remove_leftovers
from paperchat.store.lease import server_lease
from paperchat.store.locks import file_lock
from paperchat.store.runs import BUILDING, UNKNOWN, UNKNOWN_COMMAND, encode, runs_of

LOCK_WAIT_S = 10.0
#: the read snapshot earlier paperchats kept beside the store (and its temporary folders): never read now
OLD_SNAPSHOT = ("snapshot", "snapshot.tmp", "snapshot.old")


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
    with (
        file_lock(
            store.local_dir / "write.lock",
            LOCK_WAIT_S if wait_s is None else wait_s,
            busy,
            # said at once, not only after the wait (a reliability engineer's 30 silent seconds)
            wait_note or "waiting for another paperchat process that is writing this store…",
        ),
        server_lease(store),  # a server's writers on other machines (paperchat.store.lease)
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
        except Exception:
            # an error before its first write (an id conflict, no key for the embeddings) leaves nothing to
            # resume; an interrupt (Ctrl-C) stays recorded, so the empty store is not taken for a new one
            if created and not writer.began:
                store.write_meta(
                    writing=encode({k: v for k, v in runs.items() if k != writer.run[0]})
                )
            raise
        finally:
            if writer.changed:
                store.write_meta(revision=new_revision())
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
        if created or meta.get(BUILDING):  # the store's first ingest, or the run that finished it
            store.write_meta(**{BUILDING: 0})
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
        store.write_meta(current=pending, pending=0, writing=encode(runs), revision=new_revision())
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
        revision=new_revision(),
        building=generation,  # readers wait for it (paperchat.store.runs.building_message)
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
        current=pending, pending=0, writing="", revision=new_revision()
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
