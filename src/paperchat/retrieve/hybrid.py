"""Hybrid retrieval: three signals per paper, fused so that a rare exact term is never drowned.

For a question, each paper gets three scores from the store:

* **dense chunk**: the cosine of its best chunk to the question's search embedding
  (:meth:`paperchat.ingest.embedding.Embedder.embed_query`: the fine-tuned question
  encoder of the offline default);
* **dense sentence**: the cosine of its best abstract sentence (max-similarity
  over sentences, as ColBERT's MaxSim does over tokens, Khattab & Zaharia 2020):
  a question that paraphrases one finding matches that sentence better than
  the chunk's mean;
* **BM25** over its title and abstract (:mod:`paperchat.store.bm25`).

Each signal keeps its top ``depth`` candidates. ``weighted`` fusion (default)
adds ``0.5 * chunk cosine + 0.5 * sentence cosine + 1.5 * BM25 / its upper
bound`` (the best BM25 score any paper could get for the question): no
signal is stretched, so a weak, flat lexical match counts little and a match
on a rare term (high idf, so a large share of the bound) counts a lot. With
min-max normalisation instead (LlamaIndex's ``relative_score``), a topic whose
keyword occurs in two abstracts could lose both to papers that were merely
close in embedding space. ``rrf`` sums reciprocal ranks
(:mod:`paperchat.retrieve.fusion`). Each paper is reported with its best chunk.

The weights and depth were measured on the conference dev questions at 2,740
papers and on the bundled questions at 38 (README, "Retrieval").
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from paperchat.core.contract import Retrieved
from paperchat.ingest.chunking import paper_of
from paperchat.retrieve import fusion
from paperchat.retrieve.titles import capitalized_runs, head_names, named_by_head, titled

RETRIEVERS = ("hybrid", "dense", "bm25")
#: weights of (chunk cosine, sentence cosine, BM25 / its upper bound) in weighted fusion
WEIGHTS = (0.5, 0.5, 1.5)
#: Paper records the retriever keeps (the most recently read; all are dropped when the store's revision changes)
RECORD_CACHE = 4096
#: BM25 hits per run of capitalised words whose titles a question may quote (_title_first)
RUN_DEPTH = 20


@dataclass
class Hit:
    """One retrieved paper with its best chunk.

    ``score`` is the fused score (its scale depends on the fusion mode),
    ``dense`` the cosine similarity of the best chunk to the question (``None``
    when dense retrieval did not return it), ``bm25`` its BM25 score (or
    ``None``); ``meta`` is the chunk's metadata, ``chunk_ids`` the paper's
    retrieved chunks, best first. ``mention`` is set on the papers a comparison is about: how
    the question mentions this one (its name or description; :func:`paperchat.answer.subjects.complete_hits`).
    """

    paper_id: str
    chunk_id: str
    score: float
    text: str
    meta: dict[str, Any]
    dense: float | None = None
    bm25: float | None = None
    chunk_ids: list[str] = field(default_factory=list)
    mention: str = ""

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
        # what the retriever keeps of one store revision (_revision): the counts and the last paper records read
        self._revision: str | None = None
        self._counts: tuple[int, int] | None = None  # (papers, chunks)
        self._records: OrderedDict[str, Any] = OrderedDict()  # paper id -> record
        self.last_timings: dict[str, float] = {}

    def _current(self) -> None:
        """Drop what was kept of an older store revision (another process or an ingest wrote since)."""
        revision = self.store.revision()
        if revision != self._revision:
            self._revision, self._counts = revision, None
            self._records.clear()

    def records(self, ids: list[str]) -> dict:
        """The stored :class:`~paperchat.ingest.records.PaperRecord` s of ``ids`` (missing ones left out), with
        their abstracts, as ``store.papers(ids)`` gives them: the last :data:`RECORD_CACHE` read are kept for
        the store's current revision (a comparison reads its papers' records four or five times per question)."""
        self._current()
        missing = [pid for pid in dict.fromkeys(ids) if pid not in self._records]
        if missing:
            self._records.update(self.store.papers(missing))
        out = {}
        for pid in ids:
            if pid in self._records:
                self._records.move_to_end(pid)
                out[pid] = self._records[pid]
        while len(self._records) > RECORD_CACHE:
            self._records.popitem(last=False)
        return out

    def _store_counts(self) -> tuple[int, int]:
        """``(papers, chunks)`` in the store, read once per store revision (a comparison retrieves up to
        six times per question, and each count is a Chroma call)."""
        self._current()
        if self._counts is None:
            self._counts = self.store.counts()
        return self._counts

    def _fetch(self, ids: list[str]) -> None:
        missing = [i for i in ids if i not in self._texts]
        if missing:
            self._texts.update(self.store.chunk_texts(missing))

    def _best_chunks(
        self, paper_ids: list[str], qvec: np.ndarray | None
    ) -> dict[str, tuple[str, float | None]]:
        """The best chunk of each paper (by cosine to ``qvec``; the first chunk without one): ``{paper: (chunk, cos)}``."""
        records = self.records(paper_ids)
        ids = [c for pid in paper_ids if pid in records for c in records[pid].chunk_ids]
        out: dict[str, tuple[str, float | None]] = {}
        if qvec is not None and ids:
            for cid, vec in self.store.chunk_vectors(ids).items():
                cos = float(vec @ qvec)
                pid = paper_of(cid)
                if pid not in out or cos > (out[pid][1] or -2.0):
                    out[pid] = (cid, cos)
        for pid in paper_ids:
            if pid not in out and pid in records and records[pid].chunk_ids:
                out[pid] = (records[pid].chunk_ids[0], None)
        return out

    def _fuse(self, question: str, signals: list[dict[str, float]]) -> dict[str, float]:
        if self.fusion == "rrf":
            return fusion.rrf(*[sorted(s, key=lambda k: -s[k]) for s in signals if s])
        dense, sentence, bm25 = signals
        bound = self.store.bm25().upper_bound(question) if bm25 else 1.0
        return fusion.bounded(dense, sentence, bm25, bound, WEIGHTS)

    def retrieve(
        self,
        question: str,
        top_k: int = 5,
        qvec: np.ndarray | None = None,
        paper_ids: frozenset[str] | None = None,
    ) -> list[Hit]:
        """Up to ``top_k`` papers for ``question``, best first (see the module docstring).

        ``qvec`` is the question's embedding (``embed_one``) when the caller has it already
        (given, it also gives BM25-only modes their papers' cosines). The dense searches use
        ``embed_query``; each hit's ``dense`` cosine and chunk are ``qvec``'s, as the answer stage
        expects.
        ``paper_ids`` (:func:`paperchat.retrieve.filters.matching_ids`) restricts
        every search to those papers, so the top-k is filled from them.
        """
        n_papers, n_chunks = self._store_counts()
        if not n_chunks or (paper_ids is not None and not paper_ids):
            return []
        top_k = max(1, min(top_k, n_papers if paper_ids is None else len(paper_ids)))
        depth = min(n_chunks, max(top_k * 6, 30))
        timings: dict[str, float] = {}
        chunk_best: dict[str, tuple[str, float]] = {}
        sentence_best: dict[str, float] = {}
        bm25: dict[str, float] = {}
        search = qvec
        if self.mode in ("hybrid", "dense") or qvec is not None:
            t = time.perf_counter()
            if qvec is None:
                qvec = self.embedder.embed_one(question)
            search = self.embedder.embed_query(question) if self.mode != "bm25" else qvec
            timings["embed_s"] = time.perf_counter() - t
            t = time.perf_counter()
            for cid, cos in self.store.nearest_chunks(search, depth, paper_ids):
                chunk_best.setdefault(paper_of(cid), (cid, cos))
            for pid, cos in self.store.nearest_sentences(search, depth * 2, paper_ids):
                sentence_best.setdefault(pid, cos)
            timings["dense_s"] = time.perf_counter() - t
        if self.mode in ("hybrid", "bm25"):
            t = time.perf_counter()
            bm25 = dict(self.store.bm25().search(question, depth, paper_ids))
            timings["bm25_s"] = time.perf_counter() - t
        dense = {pid: cos for pid, (_cid, cos) in chunk_best.items()}
        if self.mode == "bm25":
            fused = bm25
        elif self.mode == "dense":
            fused = self._fuse(question, [dense, sentence_best, {}])
        else:
            fused = self._fuse(question, [dense, sentence_best, bm25])
        ranked = sorted(fused.items(), key=lambda kv: -kv[1])[: top_k * 2]
        ranked = self._head_named_first(question, ranked, paper_ids)
        t = time.perf_counter()
        if search is qvec or np.array_equal(
            search, qvec
        ):  # one vector for the searches and the hits
            missing = [pid for pid, _ in ranked if pid not in chunk_best]
            chunks = {**self._best_chunks(missing, qvec), **chunk_best}
        else:  # searched with the question encoder: each hit's chunk and cosine are the document encoder's
            chunks = self._best_chunks([pid for pid, _ in ranked], qvec)
        self._fetch([chunks[pid][0] for pid, _ in ranked if pid in chunks])
        timings["fetch_s"] = time.perf_counter() - t
        ranked = self._title_first(question, ranked, chunks, qvec, paper_ids)
        hits: list[Hit] = []
        for pid, score in ranked:
            cid, cos = chunks.get(pid, ("", None))
            if cid not in self._texts:  # removed since the query (a concurrent ingest)
                continue
            doc, meta = self._texts[cid]
            hits.append(Hit(pid, cid, float(score), doc, meta, cos, bm25.get(pid), [cid]))
            if len(hits) == top_k:
                break
        self.last_timings = timings
        return hits

    def _head_named_first(
        self, question: str, ranked: list[tuple[str, float]], paper_ids: frozenset[str] | None
    ) -> list[tuple[str, float]]:
        """``ranked`` with the papers the question names by their title's opening name
        (:func:`paperchat.retrieve.titles.named_by_head`) first, given the best score so far, found by
        label in the store when the searches missed them ("What is WATCH?": the abstract never says it)."""
        names = head_names(question)
        named = named_by_head(names, self.store.labelled(names)) if names else []
        named = [pid for pid in named if paper_ids is None or pid in paper_ids]
        return _to_front(ranked, named) if named else ranked

    def _title_first(
        self,
        question: str,
        ranked: list[tuple[str, float]],
        chunks: dict[str, tuple[str, Any]],
        qvec: np.ndarray | None = None,
        paper_ids: frozenset[str] | None = None,
    ) -> list[tuple[str, float]]:
        """``ranked`` with the candidates whose title the question quotes moved to the front
        (:mod:`paperchat.retrieve.titles`), each given the best score so far so scores stay in order.

        When no candidate's title is quoted, each run of capitalised words (:func:`capitalized_runs`) is
        searched by itself with BM25 and its top hits' titles tried too: "Who wrote Clients Collaborate?"
        ranked FL papers whose abstracts write "clients" and "collaborate", not the paper whose title opens
        with them (a course TA's session); ``chunks`` gains the added papers' best chunks."""
        titles = {
            pid: str(self._texts[chunks[pid][0]][1].get("title") or "")
            for pid, _ in ranked
            if pid in chunks and chunks[pid][0] in self._texts
        }
        first = titled(question, titles)
        if not first and qvec is not None and (runs := capitalized_runs(question)):
            bm25 = self.store.bm25()
            more = [pid for run in runs for pid, _s in bm25.search(run, RUN_DEPTH, paper_ids)]
            records = self.records([pid for pid in more if pid not in titles])
            quoted = titled(question, {pid: rec.title for pid, rec in records.items()})
            chunks.update(self._best_chunks([pid for pid in quoted if pid not in chunks], qvec))
            self._fetch([chunks[pid][0] for pid in quoted if pid in chunks])
            first = [pid for pid in quoted if pid in chunks]
        if not first or first[0] == ranked[0][0]:
            return ranked
        return _to_front(ranked, first)

    def score_papers(self, paper_ids: list[str], qvec: np.ndarray) -> list[Hit]:
        """Hits for the given papers only, each scored by the cosine of its best chunk to ``qvec``, best first.

        A paper without stored chunks still gets a hit (score 0, its abstract
        as text), so a follow-up about it can be answered from the abstract.
        """
        records = self.records(paper_ids)
        ids = [c for pid in paper_ids if pid in records for c in records[pid].chunk_ids]
        vectors = self.store.chunk_vectors(ids)
        self._fetch(list(vectors))
        qvec = np.asarray(qvec, dtype=np.float32)
        best: dict[str, Hit] = {}
        for cid, cos in sorted(
            ((c, float(v @ qvec)) for c, v in vectors.items()), key=lambda x: -x[1]
        ):
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


def _to_front(ranked: list[tuple[str, float]], first: list[str]) -> list[tuple[str, float]]:
    """``ranked`` (``(paper id, score)``, best first) with the papers ``first`` ahead, in its order, each given
    the best score so far, so the scores stay in order."""
    top = ranked[0][1] if ranked else 1.0
    return [(pid, top) for pid in first] + [(p, s) for p, s in ranked if p not in first]
