"""The Chroma store: reading one generation of collections, opening, damage reported in one line.

Layout (embedded mode; ``<store>`` is ``--store`` / ``PAPERCHAT_STORE`` / the
user data folder)::

    <store>/paperchat.json   marks the folder as a paperchat store (format version)
    <store>/chroma/          Chroma's persistent database
    <store>/bm25/            the BM25 index, a cache (rebuilt whenever the store's revision changes)
    <store>/ingest-manifest.json  what recorded ingests read, at a revision (:mod:`paperchat.ingest.manifest`)
    <store>/write.lock       held by the one process that writes
    <store>/open.lock        held briefly while Chroma opens (creates, migrates) the folder

Collections: ``paperchat_meta`` holds the store's state in its metadata
(``current``: the generation readers use, ``pending``: one being built,
``revision``: changes on every write). A *generation* ``g`` is three
collections, all in cosine space:

* ``paperchat_g<g>_chunks``: one record per chunk (text, vector, the paper's
  fields); its metadata records the :class:`~paperchat.ingest.records.StoreInfo`;
* ``paperchat_g<g>_papers``: one record per paper (the abstract, the mean of
  its chunk vectors, :meth:`~paperchat.ingest.records.PaperRecord.to_meta`);
* ``paperchat_g<g>_sentences``: one record per abstract sentence (id
  ``<paper id>#s<position>``, the sentence, its vector; metadata ``paper_id``,
  ``position``, ``text_hash``), queried for sentence-level max-similarity
  and read by the answerer, so answering embeds only the question.

A rebuild (and the very first ingest) writes a new generation while
readers keep using the current one, then switches ``current`` in one write
(:mod:`paperchat.store.writer`). Chroma caches vector indexes in memory, so
when the revision changes (another process wrote) an embedded store reopens
its client (:meth:`ChromaStore.refresh`).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from paperchat.core.errors import StoreError
from paperchat.ingest.records import StoreInfo
from paperchat.store.bm25 import BM25Index, load_or_build, write_json_atomic
from paperchat.store.chroma_reads import READ_PAGE, ChromaReads
from paperchat.store.failures import (
    StoreSwitched,
    damage_message,
    is_unreachable,
    store_error,
)
from paperchat.store.nearest import NearestQueries

__all__ = [
    "ChromaStore",
    "READ_PAGE",
    "collection_name",
    "damage_message",
    "raise_if_incompatible",
]

META = "paperchat_meta"
KINDS = ("chunks", "papers", "sentences")
LEGACY = ("paperchat_chunks", "paperchat_papers", "paperchat_sentences")  # format 2 and before
MARKER = "paperchat.json"
FORMAT = 3
#: Chroma's largest write batch is capped at this.
PAGE = 5000
#: One reconnect at a time in a process (two threads' refreshes had cleared Chroma's client cache under
#: each other: a KeyError from chromadb).
_RECONNECT = threading.Lock()


def collection_name(generation: int, kind: str) -> str:
    """The Chroma collection of one kind (``chunks``, ``papers``, ``sentences``) in a generation."""
    return f"paperchat_g{generation}_{kind}"


def raise_if_incompatible(where: str, have: StoreInfo, wanted: StoreInfo) -> None:
    """Raise :class:`StoreError` naming each setting the store was built with that differs from ``wanted``."""
    diffs, choosable = have.differences(wanted)
    if diffs:
        raise StoreError(
            f"the store at {where} was built with "
            + "; ".join(diffs)
            + ". Run `paperchat ingest --rebuild FILES` (your corpus files; none for the bundled corpus) to rebuild it"
            + (" with the new settings, or use the old ones." if choosable else ".")
        )


class ChromaStore(ChromaReads, NearestQueries):
    """An open paperchat store (an embedded Chroma folder, or a Chroma server).

    Open with :func:`paperchat.store.opening.open_store`. ``local_dir`` holds the BM25
    index and the locks (in server mode, a per-URL cache folder).
    """

    def __init__(self, connect: Callable[[], Any], local_dir: Path, remote: str | None = None):
        self._connect = connect
        self.client = connect()
        self.local_dir = local_dir
        self.remote = remote
        self.lease_token: str | None = None  # while this process holds a server's write lease
        self._state: dict[str, Any] | None = None
        self._cols: dict[tuple[int, str], Any] = {}
        self._bm25: BM25Index | None = None
        self._marker_failed = False

    def where(self) -> str:
        """Where the store lives (folder or server URL), for messages."""
        return self.remote or str(self.local_dir)

    @contextlib.contextmanager
    def guarded(self) -> Iterator[None]:
        """Turn Chroma's errors inside the block into one-line :class:`StoreError` s
        (:func:`paperchat.store.failures.explain`: unreachable server, full disk, read-only folder, damage)."""
        try:
            yield
        except StoreError:
            raise
        except Exception as exc:
            ours = (
                type(exc).__module__.split(".")[0] == "chromadb"
                or isinstance(exc, OSError)
                or (self.remote is not None and is_unreachable(exc))
            )
            if not ours:
                raise
            self.raise_if_switched(exc)
            raise store_error(exc, self.local_dir, self.remote) from None

    def raise_if_switched(self, exc: BaseException) -> None:
        """Raise :class:`~paperchat.store.failures.StoreSwitched` when ``exc`` came while the current generation
        changed since this store read its state (a rebuild finished in another process and dropped the
        collections it had opened). Chroma reports a collection dropped under a reader as "does not exist",
        or, caught halfway through the drop, as an ``InternalError`` ("Missing metadata segment", "Error
        executing plan"), so any error of Chroma's counts when the generation changed."""
        chroma = type(exc).__module__.split(".")[0] == "chromadb"
        if not (chroma or "does not exist" in str(exc)) or self._state is None:
            return
        try:
            now = int(self.read_meta().get("current") or 0)
        except StoreError:
            return
        if now != self.current:
            raise StoreSwitched(
                f"the store at {self.where()} was rebuilt while this command read it; run it again"
            ) from None

    # -- state --------------------------------------------------------------
    def read_meta(self) -> dict[str, Any]:
        """The store's state (``current``, ``pending``, ``revision``, ...) as stored now; ``{}`` for a new store."""
        with self.guarded():
            try:
                col = self.client.get_collection(META)
            except Exception as exc:  # NotFoundError, or ValueError in older clients
                if type(exc).__name__ in (
                    "NotFoundError",
                    "ValueError",
                    "InvalidCollectionException",
                ):
                    return {}
                raise
            return dict(col.metadata or {})

    def write_meta(self, **changes: Any) -> None:
        """Update the store's state (creating ``paperchat_meta`` on first use)."""
        with self.guarded():
            col = self.client.get_or_create_collection(
                META, metadata={"format": FORMAT}, embedding_function=None
            )
            meta = {**(col.metadata or {}), "format": FORMAT, **changes}
            col.modify(metadata=meta)
        if not self.remote and not self._marker_failed:
            try:
                write_json_atomic(self.local_dir / MARKER, {"format": FORMAT})
            except OSError as exc:  # the write to Chroma went through; say (once) what did not
                self._marker_failed = True
                from paperchat.core.notes import note

                note(
                    f"note: could not write {self.local_dir / MARKER} ({exc.strerror or exc}); the store "
                    "itself was written"
                )

    def runs(self) -> dict[str, str]:
        """Ingests under way or interrupted in this store: ``{run key: command}`` (:mod:`paperchat.store.runs`)."""
        from paperchat.store.runs import runs_of

        return runs_of(self.read_meta())

    def refresh(self) -> bool:
        """Re-read the state; when another process wrote since, reopen what is cached. Returns whether it changed."""
        meta = self.read_meta()
        changed = self._state is not None and meta.get("revision") != self._state.get("revision")
        if changed and not self.remote:
            from chromadb.api.client import SharedSystemClient

            with _RECONNECT, self.guarded():  # Chroma's client cache is the whole process's
                SharedSystemClient.clear_system_cache()  # the in-memory vector indexes are stale
                self.client = self._connect()
        if changed or self._state is None:
            self._cols.clear()
        self._state = meta
        return changed

    def forget_collections(self) -> None:
        """Drop the cached collection handles (after collections were deleted)."""
        self._cols.clear()

    @property
    def current(self) -> int:
        """The generation readers use (0: the store is empty); an earlier paperchat's interrupted first ingest
        (a pending generation and no current one) is read as the store, partial as it is."""
        if self._state is None:
            self.refresh()
        state = self._state or {}
        return int(state.get("current") or 0) or int(state.get("pending") or 0)

    def revision(self) -> str:
        """An id that changes on every write to the store, by any process (``"empty"`` for an empty store)."""
        return str((self._state or {}).get("revision") or "0") if self.current else "empty"

    def has_legacy_collections(self) -> bool:
        """Whether the store holds collections written by paperchat before store format 3."""
        with self.guarded():
            names = {getattr(c, "name", c) for c in self.client.list_collections()}
        return any(name in names for name in LEGACY)

    def collection(self, kind: str, generation: int | None = None):
        """The collection of ``kind`` in ``generation`` (default: the current one), or ``None``."""
        gen = self.current if generation is None else generation
        if not gen:
            return None
        key = (gen, kind)
        if key not in self._cols:
            with self.guarded():
                try:
                    self._cols[key] = self.client.get_collection(collection_name(gen, kind))
                except Exception as exc:
                    if type(exc).__name__ not in (
                        "NotFoundError",
                        "ValueError",
                        "InvalidCollectionException",
                    ):
                        raise
                    if generation is None:
                        self.raise_if_switched(exc)
                    raise StoreError(
                        f"the store at {self.where()} is missing its {kind} collection "
                        f"(generation {gen}); run `paperchat ingest --rebuild FILES`"
                    ) from None
        return self._cols[key]

    def info(self, generation: int | None = None) -> StoreInfo | None:
        """The settings the store (or ``generation``) was built with, or ``None`` when it is empty."""
        col = self.collection("chunks", generation)
        return None if col is None else StoreInfo.from_metadata(col.metadata or {})

    def check_compatible(self, wanted: StoreInfo) -> None:
        """Raise :class:`StoreError` when the store was built with other settings or by an earlier paperchat."""
        have = self.info()
        if have is None:
            if self.has_legacy_collections():
                raise StoreError(
                    f"the store at {self.where()} was built by an earlier paperchat; "
                    "run `paperchat ingest --rebuild FILES` (your corpus files) to rebuild it"
                )
            return
        raise_if_incompatible(self.where(), have, wanted)

    def llamaindex_vector_store(self, name: str):
        """A plain LlamaIndex ``ChromaVectorStore`` over collection ``name`` of this Chroma (the bench baseline)."""
        from llama_index.vector_stores.chroma import ChromaVectorStore

        with self.guarded():
            col = self.client.get_or_create_collection(
                name, configuration={"hnsw": {"space": "cosine"}}
            )
        return ChromaVectorStore(chroma_collection=col)

    def bm25(self) -> BM25Index:
        """The paper-level BM25 index of the current revision (loaded from the cache folder, or rebuilt)."""
        revision = self.revision()
        if self._bm25 is None or self._bm25.revision != revision:
            self._bm25 = load_or_build(
                self.local_dir / "bm25",
                revision,
                lambda: [(pid, r.title, r.abstract) for pid, r in self.papers().items()],
            )
        return self._bm25

    def close(self) -> None:
        """Let go of the Chroma client and the vector indexes it holds in memory (embedded stores: every embedded
        client of this process, as Chroma caches them together). Open the store again to use it."""
        self._cols.clear()
        self._bm25 = None
        if not self.remote:
            from chromadb.api.client import SharedSystemClient

            SharedSystemClient.clear_system_cache()
