"""Process-level reuse of opened stores, for the daemon (``paperchat daemon``): one place that keeps them warm.

In an ordinary one-shot process every :class:`~paperchat.engine.Engine` opens
its own store (:func:`open_engine_store` passes straight through). The daemon
calls :func:`keep_warm` once; from then on each opened Chroma store is kept,
keyed by where it lives (the resolved folder, or the server URL), and handed
to the next Engine that asks for the same store after :meth:`refresh` (so
writes by other processes, an ``ingest`` running in its own process, are
seen). Opening a store is what a warm daemon saves: importing ``chromadb``,
connecting, loading the HNSW indexes and the BM25 index.

The embedding model needs nothing here: :func:`paperchat.ingest.embedding.get_embedder`
already keeps one embedder per process for each (model, key, base URL).
"""

from __future__ import annotations

from typing import Any

from paperchat.core.settings import Settings

_KEEP = False
_STORES: dict[str, Any] = {}


def keep_warm() -> None:
    """From now on, keep every store this process opens and reuse it (the daemon calls this once)."""
    global _KEEP
    _KEEP = True


def store_key(settings: Settings) -> str:
    """Which store ``settings`` name: ``url:<chroma url>`` or ``dir:<resolved store folder>``."""
    if settings.chroma_url:
        return f"url:{settings.chroma_url}"
    return f"dir:{settings.store_path.resolve()}"


def open_engine_store(settings: Settings, allow_damaged: bool = False):
    """The :class:`~paperchat.store.ChromaStore` for ``settings``: opened now, or (in the daemon) the one
    opened before, refreshed. ``allow_damaged`` (a rebuild) always opens afresh and keeps nothing.

    Raises :class:`~paperchat.core.errors.StoreError` as :func:`paperchat.store.open_store` does.
    """
    from paperchat.store import open_store

    if not _KEEP or allow_damaged:
        return open_store(settings.store_path, settings.chroma_url, allow_damaged=allow_damaged)
    key = store_key(settings)
    store = _STORES.get(key)
    if store is None:
        store = _STORES[key] = open_store(settings.store_path, settings.chroma_url)
        _keep_paper_lists(store)
    store.refresh()
    return store


def _keep_paper_lists(store) -> None:
    """Make ``store.papers()`` (every paper) read Chroma once per store revision: listing 2,700 papers' metadata
    costs 0.3-0.4 s, more than the rest of a warm ``paperchat papers``. Reads of given ids are not kept."""
    read = store.papers
    kept: dict[tuple[str, bool], dict] = {}

    def papers(ids=None, abstracts: bool = True, generation: int | None = None):
        if ids is not None or generation is not None:
            return read(ids, abstracts, generation=generation)
        key = (store.revision(), abstracts)
        if key not in kept:
            if any(k[0] != key[0] for k in kept):
                kept.clear()  # an older revision's
            kept[key] = read(None, abstracts)
        return dict(kept[key])

    papers.__doc__ = read.__doc__
    store.papers = papers  # this store only; the class is untouched
