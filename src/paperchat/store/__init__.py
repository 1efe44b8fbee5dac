"""The store: the only package that imports ``chromadb``, behind the small :class:`PaperStore` interface.

:func:`open_store` opens an embedded Chroma folder or a Chroma server;
:func:`open_writer` is the one way to write (ingest, rebuild). Everything
else reads through :class:`PaperStore`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from paperchat.ingest.records import PaperRecord, StoreInfo
from paperchat.store.bm25 import BM25Index
from paperchat.store.chroma import ChromaStore
from paperchat.store.opening import open_store
from paperchat.store.writer import StoreWriter, open_writer

__all__ = ["PaperStore", "ChromaStore", "StoreWriter", "open_store", "open_writer", "BM25Index"]


class PaperStore(Protocol):
    """Everything code outside ``store/`` may ask of the store (:class:`ChromaStore` implements it)."""

    def where(self) -> str: ...  # folder or server URL, for messages
    def refresh(self) -> bool: ...  # see writes made by other processes
    def revision(self) -> str: ...  # changes on every write, any process
    def counts(self) -> tuple[int, int]: ...  # (papers, chunks)
    def info(self) -> StoreInfo | None: ...  # what it was built with
    def check_compatible(self, wanted: StoreInfo) -> None: ...
    def papers(
        self, ids: Sequence[str] | None = None, abstracts: bool = True
    ) -> dict[str, PaperRecord]: ...
    def labelled(self, labels: Sequence[str]) -> dict[str, PaperRecord]: ...  # by exact short label
    def aliases(self) -> dict[str, str]: ...  # merged duplicate id -> kept id
    def chunk_texts(self, ids: Sequence[str]) -> dict[str, tuple[str, dict[str, Any]]]: ...
    def chunk_vectors(self, ids: Sequence[str]) -> dict[str, np.ndarray]: ...
    # (chunk id, cosine) / (paper id, cosine); paper_ids: only those papers' chunks or sentences
    def nearest_chunks(
        self, qvec: np.ndarray, n: int, paper_ids: frozenset[str] | None = None
    ) -> list[tuple[str, float]]: ...
    def nearest_sentences(
        self, qvec: np.ndarray, n: int, paper_ids: frozenset[str] | None = None
    ) -> list[tuple[str, float]]: ...
    def sentence_vectors(
        self, ids: Sequence[str]
    ) -> dict[str, tuple[str, np.ndarray]]: ...  # (text hash, vectors)
    def bm25(self) -> BM25Index: ...
