"""Reading a Chroma store's records: counts, paper records, chunk texts and vectors, sentence vectors, all
read in pages of at most :data:`READ_PAGE` rows.

:class:`ChromaReads` is a part of :class:`~paperchat.store.chroma.ChromaStore`
(which supplies ``collection(kind, generation)``, ``guarded()`` and ``current``);
the nearest-neighbour queries are :mod:`paperchat.store.nearest`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from paperchat.ingest.records import PaperRecord

#: Rows per Chroma read (a get by ids, or a page of a filtered get): Chroma turns a read into SQL with a
#: variable per row, and SQLite allows 32,766; a paper with 57,000 sentences once broke every read of it.
READ_PAGE = 2000


class ChromaReads:
    """The reads of :class:`~paperchat.store.chroma.ChromaStore` (see the module docstring)."""

    def counts(self) -> tuple[int, int]:
        """``(papers, chunks)`` in the store."""
        if not self.current:
            return 0, 0
        with self.guarded():
            return self.collection("papers").count(), self.collection("chunks").count()

    def pages(
        self,
        kind: str,
        include: list[str],
        ids: Sequence[str] | None = None,
        where: dict | None = None,
        generation: int | None = None,
    ) -> Iterator[dict[str, Any]]:
        """Chroma ``get`` results of a collection in pages of at most :data:`READ_PAGE` rows: by ``ids``, else
        every row (filtered by ``where``) by limit and offset. Call inside :meth:`guarded`; nothing when the
        store is empty."""
        col = self.collection(kind, generation)
        if col is None:
            return
        if ids is not None:
            ids = list(ids)
            for start in range(0, len(ids), READ_PAGE):
                yield col.get(ids=ids[start : start + READ_PAGE], include=include, where=where)
            return
        offset = 0
        while True:
            got = col.get(include=include, where=where, limit=READ_PAGE, offset=offset)
            yield got
            if len(got["ids"]) < READ_PAGE:
                return
            offset += READ_PAGE

    def _get(
        self,
        kind: str,
        ids: Sequence[str] | None,
        include: list[str],
        where: dict | None = None,
        generation: int | None = None,
    ) -> list[tuple[str, Any, Any]]:
        """``(id, document, metadata)`` rows of a collection (all rows when ``ids`` is ``None``), read in pages."""
        rows: list[tuple[str, Any, Any]] = []
        with self.guarded():
            for got in self.pages(kind, include, ids, where, generation):
                docs = got.get("documents") or [None] * len(got["ids"])
                metas = got.get("metadatas") or [None] * len(got["ids"])
                rows += list(zip(got["ids"], docs, metas))
        return rows

    def papers(
        self,
        ids: Sequence[str] | None = None,
        abstracts: bool = True,
        generation: int | None = None,
    ) -> dict[str, PaperRecord]:
        """Paper records by id (all papers when ``ids`` is ``None``); without abstracts when ``abstracts`` is false."""
        if ids is not None:
            ids = list(dict.fromkeys(ids))
        include = ["documents", "metadatas"] if abstracts else ["metadatas"]
        return {
            pid: PaperRecord.from_meta(pid, meta, doc or "")
            for pid, doc, meta in self._get("papers", ids, include, generation=generation)
        }

    def labelled(self, labels: Sequence[str]) -> dict[str, PaperRecord]:
        """Records (without abstracts) of the papers whose short label is one of ``labels``, exactly as written
        (one Chroma ``get`` with a metadata ``where``: about 2 ms at 2,740 papers)."""
        if not labels:
            return {}
        where = {"label": {"$in": list(dict.fromkeys(labels))}}
        return {
            pid: PaperRecord.from_meta(pid, meta, "")
            for pid, _doc, meta in self._get("papers", None, ["metadatas"], where=where)
        }

    def aliases(self) -> dict[str, str]:
        """Ids of merged near-duplicate copies -> the id of the paper the store kept."""
        return {
            alias: pid for pid, rec in self.papers(abstracts=False).items() for alias in rec.aliases
        }

    def chunk_texts(self, ids: Sequence[str]) -> dict[str, tuple[str, dict[str, Any]]]:
        """``{chunk id: (text, metadata)}`` for the given chunk ids (missing ones left out)."""
        return {
            cid: (doc or "", meta or {})
            for cid, doc, meta in self._get("chunks", list(ids), ["documents", "metadatas"])
        }

    def all_chunks(self) -> list[tuple[str, str, str]]:
        """``(chunk id, text, paper title)`` of every chunk."""
        return [
            (cid, doc or "", str((meta or {}).get("title") or ""))
            for cid, doc, meta in self._get("chunks", None, ["documents", "metadatas"])
        ]

    def chunk_vectors(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """``{chunk id: unit vector (dim,)}`` for the given chunk ids."""
        out: dict[str, np.ndarray] = {}
        with self.guarded():
            for got in self.pages("chunks", ["embeddings"], list(ids)):
                out.update(
                    (cid, np.asarray(vec, dtype=np.float32))
                    for cid, vec in zip(got["ids"], got["embeddings"])
                )
        return out

    def sentence_vectors(
        self, ids: Sequence[str], generation: int | None = None
    ) -> dict[str, tuple[str, np.ndarray]]:
        """Stored sentence vectors by paper id: ``(text hash, float32 (n_sentences, dim))`` in sentence order.

        Papers without stored sentences are left out.
        """
        col = self.collection("sentences", generation)
        ids = list(dict.fromkeys(ids))
        if col is None or not ids:
            return {}
        rows: dict[str, list[tuple[int, str, list[float]]]] = {}
        with self.guarded():
            for start in range(0, len(ids), 500):
                where = {"paper_id": {"$in": ids[start : start + 500]}}
                for got in self.pages(
                    "sentences", ["metadatas", "embeddings"], where=where, generation=generation
                ):
                    for meta, vec in zip(got["metadatas"], got["embeddings"]):
                        rows.setdefault(meta["paper_id"], []).append(
                            (int(meta["position"]), str(meta.get("text_hash", "")), vec)
                        )
        out = {}
        for pid, items in rows.items():
            items.sort(key=lambda x: x[0])
            if [pos for pos, _h, _v in items] == list(
                range(len(items))
            ):  # complete: every position once
                out[pid] = (items[0][1], np.asarray([v for _p, _h, v in items], dtype=np.float32))
        return out
