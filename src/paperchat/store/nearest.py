"""Nearest-neighbour queries against a Chroma store: the chunks or abstract sentences nearest to a query
vector, optionally only of some papers (a filter on many papers is queried a page of papers at a time and
the pages' results merged).

:class:`NearestQueries` is a part of :class:`~paperchat.store.chroma.ChromaStore`
(which supplies ``collection(kind)`` and ``guarded()``).
"""

from __future__ import annotations

import numpy as np

import paperchat.store.chroma_reads as chroma_reads


class NearestQueries:
    """The nearest-neighbour queries of :class:`~paperchat.store.chroma.ChromaStore` (see the module
    docstring); cosines in [-1, 1], best first."""

    def nearest_chunks(
        self, qvec: np.ndarray, n: int, paper_ids: frozenset[str] | None = None
    ) -> list[tuple[str, float]]:
        """The ``n`` chunks nearest to the unit vector ``qvec``: ``(chunk id, cosine)``, best first.

        ``paper_ids``: only chunks of these papers (a ``where`` on their ``paper_id``).
        """
        return self._nearest("chunks", qvec, n, paper_ids)

    def _nearest(
        self, kind: str, qvec: np.ndarray, n: int, paper_ids: frozenset[str] | None
    ) -> list[tuple[str, float]]:
        """``(record id, cosine)`` of the ``n`` records of ``kind`` nearest to ``qvec`` (of ``paper_ids`` only, when given).

        A filter on more than :data:`~paperchat.store.chroma_reads.READ_PAGE` papers is queried a page of papers at a time (Chroma turns
        the ``$in`` into one SQL variable per id) and the pages' results are merged: the ``n`` best of the union.
        """
        col = self.collection(kind)
        if col is None or n <= 0 or (paper_ids is not None and not paper_ids):
            return []
        query = np.asarray(qvec, dtype=np.float32).tolist()
        ids = sorted(paper_ids) if paper_ids is not None else None
        pages = (
            [None]
            if ids is None
            else [
                ids[i : i + chroma_reads.READ_PAGE]
                for i in range(0, len(ids), chroma_reads.READ_PAGE)
            ]
        )
        found: list[tuple[float, str]] = []
        # no count first: Chroma returns what it holds when asked for more
        with self.guarded():
            for page in pages:
                where = None if page is None else {"paper_id": {"$in": page}}
                res = col.query(
                    query_embeddings=[query], n_results=n, where=where, include=["distances"]
                )
                found += [
                    (float(dist), rid) for rid, dist in zip(res["ids"][0], res["distances"][0])
                ]
        if len(pages) > 1:
            found.sort()
        return [(rid, 1.0 - dist) for dist, rid in found[:n]]

    def nearest_sentences(
        self, qvec: np.ndarray, n: int, paper_ids: frozenset[str] | None = None
    ) -> list[tuple[str, float]]:
        """The ``n`` abstract sentences nearest to ``qvec``: ``(paper id, cosine)``, best first (of ``paper_ids`` only)."""
        return [
            (sid.rsplit("#s", 1)[0], cos)
            for sid, cos in self._nearest("sentences", qvec, n, paper_ids)
        ]
