"""Hybrid retrieval: dense (the store's vector index) + BM25, fused, grouped by paper.

* Dense: the question's embedding against the chunk vectors (cosine).
* BM25: the store's BM25 index over chunk text plus title (:mod:`paperchat.store.bm25`).
* Fusion: ``weighted`` (default) or ``rrf`` (:mod:`paperchat.retrieve.fusion`);
  weighted fusion measured better on the eval questions (README, "Retrieval settings").
* Grouping: hits are grouped by paper, each paper keeping its best chunk, so
  one paper does not fill every slot. Top-k is capped at the number of papers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from paperchat.core.contract import Retrieved
from paperchat.ingest.chunking import paper_of
from paperchat.retrieve import fusion

RETRIEVERS = ("hybrid", "dense", "bm25")


@dataclass
class Hit:
    """One retrieved paper with its best chunk.

    ``score`` is the fused score (its scale depends on the fusion mode),
    ``dense`` the cosine similarity of the best chunk to the question (``None``
    when dense retrieval did not return it), ``bm25`` its BM25 score (or
    ``None``); ``meta`` is the chunk's metadata, ``chunk_ids`` the paper's
    retrieved chunks, best first.
    """

    paper_id: str
    chunk_id: str
    score: float
    text: str
    meta: dict[str, Any]
    dense: float | None = None
    bm25: float | None = None
    chunk_ids: list[str] = field(default_factory=list)

    def retrieved(self) -> Retrieved:
        """The hit as an entry of the answer's ``retrieved`` list."""
        return Retrieved(self.paper_id, self.chunk_id, self.score)


class HybridRetriever:
    """Hybrid retriever over a :class:`paperchat.store.PaperStore`.

    ``retrieve(question, top_k)`` returns up to ``top_k`` :class:`Hit` s, one per
    paper, best first. ``mode`` is ``hybrid`` (default), ``dense`` or ``bm25``;
    ``fusion`` is ``weighted`` (default) or ``rrf``. ``embedder`` embeds the
    question (:class:`paperchat.ingest.embedding.Embedder`).
    """

    def __init__(self, store, embedder, mode: str = "hybrid", fusion_mode: str = "weighted"):
        if mode not in RETRIEVERS:
            raise ValueError(f"unknown retriever {mode!r}")
        if fusion_mode not in fusion.FUSION_MODES:
            raise ValueError(f"unknown fusion {fusion_mode!r}")
        self.store = store
        self.embedder = embedder
        self.mode = mode
        self.fusion = fusion_mode
        self._texts: dict[str, tuple[str, dict[str, Any]]] = {}
        self.last_timings: dict[str, float] = {}

    def _fetch(self, ids: list[str]) -> None:
        missing = [i for i in ids if i not in self._texts]
        if missing:
            self._texts.update(self.store.chunk_texts(missing))

    def retrieve(self, question: str, top_k: int = 5, qvec: np.ndarray | None = None) -> list[Hit]:
        """Up to ``top_k`` papers for ``question``, best first (see the module docstring).

        ``qvec`` is the question's embedding when the caller has it already.
        """
        n_papers, n_chunks = self.store.counts()
        if not n_chunks:
            return []
        top_k = max(1, min(top_k, n_papers))
        depth = min(n_chunks, max(top_k * 6, 30))
        timings: dict[str, float] = {}

        dense_hits: list[tuple[str, float]] = []
        if self.mode in ("hybrid", "dense") or qvec is not None:  # a given qvec also gives bm25 hits their cosines
            t = time.perf_counter()
            if qvec is None:
                qvec = self.embedder.embed_one(question)
            timings["embed_s"] = time.perf_counter() - t
            t = time.perf_counter()
            dense_hits = self.store.nearest_chunks(qvec, depth)
            timings["dense_s"] = time.perf_counter() - t
        bm25_hits: list[tuple[str, float]] = []
        if self.mode in ("hybrid", "bm25"):
            t = time.perf_counter()
            bm25_hits = self.store.bm25().search(question, depth)
            timings["bm25_s"] = time.perf_counter() - t
        dense_scores, bm25_scores = dict(dense_hits), dict(bm25_hits)

        if self.mode == "dense":
            fused = dense_scores
        elif self.mode == "bm25":
            fused = bm25_scores
        elif self.fusion == "rrf":
            fused = fusion.rrf([c for c, _ in dense_hits], [c for c, _ in bm25_hits])
        else:
            fused = fusion.weighted(dense_scores, bm25_scores)

        groups: dict[str, list[tuple[str, float]]] = {}
        for cid, score in sorted(fused.items(), key=lambda kv: -kv[1]):
            groups.setdefault(paper_of(cid), []).append((cid, score))
        t = time.perf_counter()
        self._fetch([group[0][0] for group in list(groups.values())[: top_k * 2]])
        timings["fetch_s"] = time.perf_counter() - t
        hits: list[Hit] = []
        for pid, group in groups.items():
            cid, score = group[0]
            if cid not in self._texts:  # removed since the query (a concurrent ingest)
                continue
            doc, meta = self._texts[cid]
            hits.append(Hit(meta.get("paper_id", pid), cid, float(score), doc, meta, dense_scores.get(cid),
                            bm25_scores.get(cid), [c for c, _ in group]))
            if len(hits) == top_k:
                break
        self.last_timings = timings
        return hits

    def score_papers(self, paper_ids: list[str], qvec: np.ndarray) -> list[Hit]:
        """Hits for the given papers only, each scored by the cosine of its best chunk to ``qvec``, best first.

        A paper without stored chunks still gets a hit (score 0, its abstract
        as text), so a follow-up about it can be answered from the abstract.
        """
        records = self.store.papers(paper_ids)
        ids = [c for pid in paper_ids if pid in records for c in records[pid].chunk_ids]
        vectors = self.store.chunk_vectors(ids)
        self._fetch(list(vectors))
        qvec = np.asarray(qvec, dtype=np.float32)
        best: dict[str, Hit] = {}
        for cid, cos in sorted(((c, float(v @ qvec)) for c, v in vectors.items()), key=lambda x: -x[1]):
            pid = paper_of(cid)
            if pid in best:
                best[pid].chunk_ids.append(cid)
            elif cid in self._texts:
                doc, meta = self._texts[cid]
                best[pid] = Hit(pid, cid, cos, doc, meta, dense=cos, chunk_ids=[cid])
        for pid in paper_ids:
            if pid in records and pid not in best:
                best[pid] = Hit(pid, "", 0.0, records[pid].abstract, {}, dense=0.0)
        return sorted(best.values(), key=lambda h: -h.score)
