"""Hybrid retrieval: dense (Chroma) + BM25 (bm25s), fused, grouped by paper.

* Dense: the question's embedding against the chunk collection (cosine).
* BM25: Okapi BM25 (Robertson & Zaragoza 2009) over chunk text plus title,
  with the ``bm25s`` library (Lù 2024), English stopwords and the Snowball
  stemmer (PyStemmer). The index is saved in ``<store>/bm25/`` with the store
  revision it was built from, and rebuilt from the chunks in Chroma whenever
  the revision differs, so it works on a store reopened after a restart.
* Fusion: ``weighted`` (default), a convex mix ``0.6 * dense + 0.4 * bm25`` of
  min-max normalised scores (as LlamaIndex's ``relative_score`` fusion), or
  ``rrf``, reciprocal rank fusion ``sum 1/(60 + rank)`` (Cormack, Clarke &
  Büttcher 2009). Weighted fusion measured better on the eval questions
  (README, "Retrieval settings").
* Grouping: hits are grouped by paper, each paper keeping its best chunk, so
  one paper does not fill every slot. Top-k is capped at the number of papers.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from paperchat.embeddings import Embedder
from paperchat.store import Store, write_json_atomic

RRF_K = 60
FUSION_MODES = ("rrf", "weighted")
RETRIEVERS = ("hybrid", "dense", "bm25")
WEIGHTED_ALPHA = 0.6  # weight of the dense score in "weighted" fusion


@dataclass
class Hit:
    """One retrieved paper with its best chunk.

    ``score`` is the fused score (its scale depends on the fusion mode),
    ``dense`` the cosine similarity of the best chunk to the question (or
    ``None`` when dense retrieval did not return it) and ``bm25`` its BM25
    score (or ``None``). ``meta`` is the chunk's metadata.
    """

    paper_id: str
    chunk_id: str
    score: float
    text: str
    meta: dict[str, Any]
    dense: float | None = None
    bm25: float | None = None
    chunk_ids: list[str] = field(default_factory=list)


class BM25Index:
    """A bm25s index over the store's chunks, persisted beside the store."""

    def __init__(self, retriever, ids: list[str], revision: str):
        self.retriever = retriever
        self.ids = ids
        self.revision = revision
        self.vocab = set(retriever.vocab_dict.keys()) if getattr(retriever, "vocab_dict", None) else set()

    @staticmethod
    def _stemmer():
        import Stemmer

        return Stemmer.Stemmer("english")

    @classmethod
    def tokenize(cls, texts: list[str]) -> list[list[str]]:
        """bm25s tokens (lower-cased, English stopwords removed, Snowball-stemmed)."""
        import bm25s

        return bm25s.tokenize(texts, stopwords="en", stemmer=cls._stemmer(), return_ids=False, show_progress=False)

    @classmethod
    def build(cls, ids: list[str], texts: list[str], revision: str) -> "BM25Index":
        import bm25s

        retriever = bm25s.BM25()
        if texts:
            retriever.index(cls.tokenize(texts), show_progress=False)
        return cls(retriever, ids, revision)

    def save(self, folder: Path) -> None:
        tmp = folder.with_name(folder.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        self.retriever.save(str(tmp), show_progress=False)
        write_json_atomic(tmp / "paperchat.json", {"revision": self.revision, "ids": self.ids})
        shutil.rmtree(folder, ignore_errors=True)
        tmp.rename(folder)

    @classmethod
    def load(cls, folder: Path, revision: str) -> "BM25Index | None":
        import bm25s

        try:
            info = json.loads((folder / "paperchat.json").read_text(encoding="utf-8"))
            if info.get("revision") != revision:
                return None
            retriever = bm25s.BM25.load(str(folder), show_progress=False, verbosity=0)
        except (OSError, ValueError, KeyError):
            return None
        return cls(retriever, info["ids"], revision)

    def search(self, question: str, k: int) -> list[tuple[str, float]]:
        """Top-``k`` ``(chunk id, BM25 score)`` pairs with a positive score."""
        if not self.ids:
            return []
        tokens = [t for t in self.tokenize([question])[0] if t in self.vocab]
        if not tokens:
            return []
        k = min(k, len(self.ids))
        docs, scores = self.retriever.retrieve([tokens], k=k, show_progress=False, n_threads=1)
        return [(self.ids[int(d)], float(s)) for d, s in zip(docs[0], scores[0]) if s > 0]


def bm25_text(text: str, meta: dict[str, Any]) -> str:
    """What BM25 indexes for a chunk: the paper's title (when known) and the chunk text."""
    title = meta.get("title") or ""
    return f"{title}\n{text}" if title else text


class Retriever:
    """Hybrid retriever over an open :class:`~paperchat.store.Store`.

    ``retrieve(question, top_k)`` returns up to ``top_k`` :class:`Hit` s, one per
    paper, best first. ``mode`` is ``hybrid`` (default), ``dense`` or ``bm25``;
    ``fusion`` is ``weighted`` (default) or ``rrf``.
    """

    def __init__(self, store: Store, embedder: Embedder, mode: str = "hybrid", fusion: str = "weighted"):
        if mode not in RETRIEVERS:
            raise ValueError(f"unknown retriever {mode!r}")
        if fusion not in FUSION_MODES:
            raise ValueError(f"unknown fusion {fusion!r}")
        self.store = store
        self.embedder = embedder
        self.mode = mode
        self.fusion = fusion
        self._bm25: BM25Index | None = None
        self._texts: dict[str, tuple[str, dict[str, Any]]] = {}
        self.last_timings: dict[str, float] = {}

    # -- BM25 -------------------------------------------------------------
    def bm25(self) -> BM25Index:
        """The BM25 index for the store's current revision (loaded or rebuilt)."""
        revision = self.store.revision()
        if self._bm25 is not None and self._bm25.revision == revision:
            return self._bm25
        folder = self.store.local_dir / "bm25"
        index = BM25Index.load(folder, revision)
        if index is None:
            ids, docs, metas = self.store.all_chunks()
            index = BM25Index.build(ids, [bm25_text(d, m) for d, m in zip(docs, metas)], revision)
            try:
                index.save(folder)
            except OSError:
                pass  # a read-only store still answers; the index is rebuilt next time
        self._bm25 = index
        return index

    # -- retrieval --------------------------------------------------------
    def _dense(self, qvec: np.ndarray, n: int) -> list[tuple[str, float]]:
        """Top-``n`` ``(chunk id, cosine)`` pairs; texts are fetched later, only for the hits kept."""
        res = self.store.chunks.query(query_embeddings=[qvec.tolist()], n_results=n, include=["distances"])
        return [(cid, 1.0 - float(dist)) for cid, dist in zip(res["ids"][0], res["distances"][0])]

    def _fetch(self, ids: list[str]) -> None:
        missing = [i for i in ids if i not in self._texts]
        if missing:
            got = self.store.chunks.get(ids=missing, include=["documents", "metadatas"])
            for cid, doc, meta in zip(got["ids"], got["documents"], got["metadatas"]):
                self._texts[cid] = (doc, meta or {})

    def retrieve(self, question: str, top_k: int = 5, qvec: np.ndarray | None = None) -> list[Hit]:
        """Up to ``top_k`` papers for ``question``, best first (see the module docstring)."""
        import time

        chunks = self.store.chunks
        if chunks is None:
            return []
        n_chunks = chunks.count()
        n_papers = self.store.papers.count() if self.store.papers is not None else n_chunks
        top_k = max(1, min(top_k, n_papers))
        depth = min(n_chunks, max(top_k * 6, 30))
        timings: dict[str, float] = {}

        dense_hits: list[tuple[str, float]] = []
        if self.mode in ("hybrid", "dense") or qvec is not None:
            t = time.perf_counter()
            if qvec is None:
                qvec = self.embedder.embed_one(question)
            timings["embed_s"] = time.perf_counter() - t
            t = time.perf_counter()
            dense_hits = self._dense(qvec, depth) if depth else []
            timings["dense_s"] = time.perf_counter() - t
        dense_scores = dict(dense_hits)

        bm25_hits: list[tuple[str, float]] = []
        if self.mode in ("hybrid", "bm25"):
            t = time.perf_counter()
            bm25_hits = self.bm25().search(question, depth)
            timings["bm25_s"] = time.perf_counter() - t
        bm25_scores = dict(bm25_hits)

        if self.mode == "dense":
            fused = dict(dense_hits)
        elif self.mode == "bm25":
            fused = dict(bm25_hits)
        elif self.fusion == "rrf":
            fused = {}
            for rank, (cid, _) in enumerate(dense_hits, 1):
                fused[cid] = fused.get(cid, 0.0) + 1.0 / (RRF_K + rank)
            for rank, (cid, _) in enumerate(bm25_hits, 1):
                fused[cid] = fused.get(cid, 0.0) + 1.0 / (RRF_K + rank)
        else:
            fused = _weighted(dense_scores, bm25_scores, WEIGHTED_ALPHA)

        # Group by paper (chunk ids are "paper id:position:hash"), best chunk first.
        ranked = sorted(fused.items(), key=lambda kv: -kv[1])
        groups: dict[str, list[tuple[str, float]]] = {}
        for cid, score in ranked:
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
            hits.append(Hit(
                paper_id=meta.get("paper_id", pid),
                chunk_id=cid,
                score=float(score),
                text=doc,
                meta=meta,
                dense=dense_scores.get(cid),
                bm25=bm25_scores.get(cid),
                chunk_ids=[c for c, _ in group],
            ))
            if len(hits) == top_k:
                break
        self.last_timings = timings
        return hits


def paper_of(chunk_id: str) -> str:
    """The paper id in a chunk id (:func:`paperchat.chunks.chunk_id`: ``paper id:position:hash``)."""
    return chunk_id.rsplit(":", 2)[0]


def _weighted(dense: dict[str, float], bm25: dict[str, float], alpha: float) -> dict[str, float]:
    def norm(scores: dict[str, float]) -> dict[str, float]:
        if not scores:
            return {}
        lo, hi = min(scores.values()), max(scores.values())
        span = hi - lo or 1.0
        return {k: (v - lo) / span for k, v in scores.items()}

    nd, nb = norm(dense), norm(bm25)
    return {cid: alpha * nd.get(cid, 0.0) + (1 - alpha) * nb.get(cid, 0.0) for cid in set(nd) | set(nb)}
