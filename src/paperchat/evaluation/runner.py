"""The eval run: every question of a set through the pipeline a user gets, measured.

:func:`run_eval` asks each question with :meth:`paperchat.engine.Engine.ask`
and measures, overall and per question kind (means with bootstrap 95%
intervals, :mod:`paperchat.evaluation.stats`):

* **retrieval** (answerable questions): Recall@1/5/10, MRR@10 and nDCG@10 of
  the paper ranking at ``RETRIEVAL_K`` (10), with the retriever ``ask`` uses;
  and, side by side, BM25 only, dense only and hybrid on the same store.
  ``ask``'s own ``retrieved`` list (top-k, 5) is kept as ``answer_retrieved``;
* **citations** (answered questions): sentences with a citation,
  out-of-range markers, ALCE citation recall and precision (support judged
  by the checker against each source's ``text``, the chunk the user sees),
  cited papers that are gold, gold papers cited;
* **answers**: ``gold_cited`` (a gold paper among the citations) and
  ``first_cited_gold`` (the first cited paper is gold), over answerable
  questions (an abstention scores 0); over answerable questions with facts,
  ``fact_recall``, the share of required fact groups the answer holds, and
  ``all_facts``;
* **abstention**: abstention rate on unanswerable questions, false
  abstentions on answerable ones, precision (correct / answered) and
  accuracy (correct / all), where an answerable question is answered
  correctly when the answer cites a gold paper and holds every fact group,
  and an unanswerable one when the pipeline abstains.

Follow-ups (``follow_up_of``) are asked as ``"<previous question> <follow-up>"``.
Every figure is deterministic for a given store and code; only ``timing`` varies.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from paperchat.core.errors import PaperchatError
from paperchat.evaluation import questions as qs
from paperchat.evaluation.failed_answers import FailedAnswers
from paperchat.evaluation.gold_origins import GoldOrigins
from paperchat.evaluation.measures import (
    CachedSupport,
    citation_scores,
    facts_found,
    first_gold_rank,
    retrieval_scores,
)
from paperchat.evaluation.stats import (
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    METRICS,
    aggregate,
    kinds_in,
)
from paperchat.evaluation.sweep import abstention_sweep

RETRIEVAL_K = 10
BASELINE_RETRIEVERS = ("bm25", "dense", "hybrid")

Progress = Callable[[int, int], None]


class CachedEmbedder:
    """Wraps an embedder so each distinct text is embedded once per eval run (seeded with known vectors).

    ``embed(texts)`` -> float32 ``(len(texts), dim)``; other attributes are
    the wrapped embedder's.
    """

    def __init__(self, inner, known: dict[str, np.ndarray] | None = None):
        self._inner = inner
        self._vecs: dict[str, np.ndarray] = dict(known or {})
        self._queries: dict[str, np.ndarray] = {}

    def __getattr__(self, name: str):
        return getattr(self._inner, name)

    def embed(self, texts: Sequence[str], *args, **kwargs) -> np.ndarray:
        texts = list(texts)
        new = [t for t in dict.fromkeys(texts) if t not in self._vecs]
        if new:
            for t, v in zip(new, self._inner.embed(new)):
                self._vecs[t] = v
        if not texts:
            return self._inner.embed([])
        return np.stack([self._vecs[t] for t in texts])

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]

    def embed_query(self, text: str) -> np.ndarray:
        """A search query's vector (the wrapped embedder's question encoder), embedded once per run."""
        if text not in self._queries:
            self._queries[text] = self._inner.embed_query(text)
        return self._queries[text]

    def remember(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Vectors the same model already made for ``texts`` (an abstract's sentences, stored at ingest)."""
        self._vecs.update(zip(texts, vectors))


#: Question kinds whose gold papers are compared: a correct answer cites every one (``all_gold_cited``).
COMPARISON_KINDS = frozenset({"compare", "comparison"})


def compares(kind: str, gold: set[str]) -> bool:
    """Whether a question of ``kind`` with ``gold`` papers is a comparison, which a correct answer cites
    every paper of: a kind of :data:`COMPARISON_KINDS` in any case ("Compare" had been scored as a lookup,
    an eval session found) and two gold papers or more."""
    return kind.lower() in COMPARISON_KINDS and len(gold) > 1


def _correct(row: dict[str, Any]) -> bool:
    """Whether the row's answer is right: an unanswerable question abstained; an answerable one cites a gold
    paper (a comparison: every one, :data:`COMPARISON_KINDS`) and holds every required fact."""
    if not row["answerable"]:
        return row["abstained"]
    if row["abstained"]:
        return False
    if row.get("all_gold_cited") == 0.0:  # a comparison citing one of its papers compares nothing
        return False
    return bool(set(row["cited"]) & set(row["gold"])) and all(row["facts_found"])


def _failure(row: dict[str, Any]) -> str:
    """Why a question counts as failed ('' when correct)."""
    if not row["answerable"]:
        return "" if row["abstained"] else "answered an unanswerable question"
    if row["abstained"]:
        return "abstained"
    why = []
    cited_gold = set(row["cited"]) & set(row["gold"])
    if not cited_gold:
        why.append("cites no gold paper")
    elif row.get("all_gold_cited") == 0.0:
        why.append(f"cites {len(cited_gold)} of the {len(row['gold'])} compared papers")
    missing = [g[0] for g, ok in zip(row["facts"], row["facts_found"]) if not ok]
    if missing:
        why.append("missing facts: " + ", ".join(missing))
    return "; ".join(why)


def _row(
    q: dict[str, Any], asked: str, gold: list[str], answer, ranked: list[str], support
) -> dict[str, Any]:
    gold_set = set(gold)
    row: dict[str, Any] = {
        "id": q["id"],
        "kind": q["kind"],
        "answerable": q["answerable"],
        "question": q["question"],
        "asked": asked,
        "follow_up_of": q.get("follow_up_of"),
        "gold": gold,
        "facts": q["facts"],
        "ranked": ranked,
        "answer_retrieved": [r.paper_id for r in answer.retrieved],
        "first_gold_rank": first_gold_rank(ranked, gold_set) if gold_set else None,
        "abstained": answer.abstained,
        "answer": answer.answer,
        "mode": answer.mode,
        "evidence": answer.evidence,
    }
    if q.get("split"):
        row["split"] = q["split"]
    if q["answerable"]:
        row.update(retrieval_scores(ranked, gold_set))
    found = facts_found("" if answer.abstained else answer.answer, q["facts"])
    row["facts_found"] = found
    row["fact_recall"] = (sum(found) / len(found) if found else None) if q["answerable"] else None
    row["all_facts"] = (float(all(found)) if found else None) if q["answerable"] else None
    if answer.abstained:
        row.update({"cited": [], "unsupported": []})
    else:
        row.update(citation_scores(answer, gold_set, support))
    if q["answerable"]:  # what a user sees: a gold paper among the citations, and cited first
        row["gold_cited"] = float(bool(set(row["cited"]) & gold_set))
        row["first_cited_gold"] = float(bool(row["cited"]) and row["cited"][0] in gold_set)
        if compares(q["kind"], gold_set):  # a comparison needs each of its papers
            row["all_gold_cited"] = float(gold_set <= set(row["cited"]))
    row["correct"] = _correct(row)
    row["failure"] = _failure(row)
    return row


def lacks_own_store(settings, corpus: Sequence) -> bool:
    """Whether a user's own eval set would run on a store folder that holds no store, with no ``corpus``
    files to fill it and no Chroma server: an error (a mistyped ``--store`` is never filled with the
    bundled corpus), said by the CLI and the Python API each in its own words."""
    return not corpus and not settings.chroma_url and not (settings.store_path / "chroma").exists()


def run_eval(
    engine,
    set_path: str | Path | None = None,
    top_k: int | None = None,
    mode: str = "extractive",
    baselines: Sequence[str] = BASELINE_RETRIEVERS,
    check_support: bool = True,
    limit: int | None = None,
    progress: Progress | None = None,
    ingest_progress: Progress | None = None,
    corpus: Sequence[Path] = (),
    seed_bundled: bool = True,
) -> dict[str, Any]:
    """Run the eval set through ``engine`` (a :class:`paperchat.engine.Engine`) and measure it.

    ``set_path`` is a file or a named set (:data:`paperchat.evaluation.questions.NAMED_SETS`;
    default ``bundled``, ``eval/questions.jsonl``); ``top_k`` (papers given
    to the answerer) to the setting; ``mode`` is ``extractive`` (offline,
    deterministic) or ``llm``; ``baselines`` names the retrievers measured
    side by side; ``check_support`` judges citation support; ``limit`` keeps
    the first N questions; ``progress(done, total)`` is called after each
    question. The bundled corpus is ingested first when the store is empty
    (unless ``seed_bundled`` is false: a user's own set), and ``corpus`` files too
    (e.g. the 2,732 ICML 2025 abstracts).

    Returns a JSON-ready dict: ``config``, ``overall`` and ``by_kind``
    (``{metric: {value, ci, n}}``), ``baselines`` and ``baselines_by_kind``,
    ``questions`` (one row per question) and ``timing``.
    """
    from paperchat.cite.checker import SupportChecker
    from paperchat.retrieve.hybrid import HybridRetriever

    t0 = time.perf_counter()
    paths = qs.resolve_set(set_path)
    questions = [q for path in paths for q in qs.load_questions(path)]
    if len({q["id"] for q in questions}) != len(questions):
        raise PaperchatError(
            "the eval set's files share question ids; give each question its own id"
        )
    if limit is not None:
        questions = questions[:limit]
    by_id = {q["id"]: q for q in questions}
    if seed_bundled:
        engine.ensure_corpus(progress=ingest_progress)
    if corpus:
        engine.ingest(list(corpus), progress=ingest_progress)
    records = engine.store.papers(abstracts=False)
    bundled = qs.origin_map()
    origins = GoldOrigins(records, bundled)
    # merged duplicates' ids, and p-… ids of another store
    aliases = engine.id_aliases(
        {g["id"] for q in questions for g in q.get("gold", []) if "id" in g}
    )
    golds = {q["id"]: qs.gold_ids(q, origins, aliases) for q in questions}
    missing = sorted({pid for g in golds.values() for pid in g} - set(records))
    if missing:
        # which question names it: a misspelt id is fixed there, a missing corpus by ingesting it
        asking = next(qid for qid, g in golds.items() if missing[0] in g)
        raise PaperchatError(
            f"the store lacks {len(missing)} gold paper(s) of the eval set (e.g. {missing[0]}, gold of "
            f"question {asking}); check the id, or ingest the corpus the questions are about first "
            "(`paperchat ingest FILE`, or --corpus FILE)"
        )
    given, top_k = top_k, top_k or engine.settings.top_k
    cached = CachedEmbedder(engine.embedder)
    support = CachedSupport(SupportChecker(cached)) if check_support else None
    base_retrievers = {
        m: HybridRetriever(engine.store, cached, mode=m, fusion_mode=engine.fusion)
        for m in baselines
    }
    rows: list[dict[str, Any]] = []
    failed = FailedAnswers()
    base_rows: dict[str, list[dict[str, Any]]] = {m: [] for m in baselines}
    for i, q in enumerate(questions, 1):
        asked = qs.asked_question(q, by_id)
        gold = golds[q["id"]]
        if progress and i > 1:
            progress(i - 1, len(questions))
        answer = failed.ask(engine, q, asked, given, mode)
        # the LLM failed on this question alone: recorded, left out of the figures
        if answer is None:
            continue
        # the cited abstracts' stored sentence vectors, for the citation check
        for pid in {s.paper_id for s in answer.sources}:
            known = engine.sentences.cached(pid)
            if known is not None:
                cached.remember(*known)
        ranked = [h.paper_id for h in engine.retrieve(asked, top_k=RETRIEVAL_K)]
        rows.append(_row(q, asked, gold, answer, ranked, support))
        for base_mode, retriever in base_retrievers.items():
            if q["answerable"]:
                base_ranked = [h.paper_id for h in retriever.retrieve(asked, RETRIEVAL_K)]
                base_rows[base_mode].append(
                    {
                        "kind": q["kind"],
                        "answerable": True,
                        **retrieval_scores(base_ranked, set(gold)),
                    }
                )
    if progress and questions:
        progress(len(questions), len(questions))

    retrieval_only = [m for m in METRICS if m[0].startswith("retrieval.")]
    kinds = kinds_in(rows)
    splits = sorted({r["split"] for r in rows if r.get("split")})
    return {
        "config": {
            "set": " + ".join(qs.display_path(p) for p in paths),
            "shipped": qs.is_shipped(paths),
            "questions": len(rows),
            "answerable": sum(r["answerable"] for r in rows),
            "mode": mode,
            # which LLM answered (an LLM session: two models' runs could not be told apart)
            "llm": {k: engine.settings.redacted()[k] for k in ("llm_model", "llm_base_url")}
            if mode == "llm"
            else None,
            "retriever": engine.retriever_mode,
            "fusion": engine.fusion,
            "top_k": top_k,
            "retrieval_k": RETRIEVAL_K,
            "embed_model": engine.settings.embed_model,
            "store_papers": len(records),
            "extra_papers": len(set(records) - set(bundled.values())),
            "support_checker": "paperchat.cite.checker" if support is not None else None,
            "bootstrap": {"resamples": BOOTSTRAP_RESAMPLES, "seed": BOOTSTRAP_SEED, "level": 0.95},
            "follow_ups": "asked as '<previous question> <follow-up>'",
            "limit": limit,
            # questions the LLM failed on alone, left out of every figure (listed in "failed")
            "failed": len(failed.failed),
        },
        "overall": aggregate(rows),
        "by_kind": {k: aggregate([r for r in rows if r["kind"] == k]) for k in kinds},
        "by_split": {
            s: {
                "overall": aggregate(part),
                "by_kind": {
                    k: aggregate([r for r in part if r["kind"] == k]) for k in kinds_in(part)
                },
            }
            for s in splits
            for part in [[r for r in rows if r.get("split") == s]]
        },
        "sweep": {
            "all": abstention_sweep(rows),
            **{s: abstention_sweep([r for r in rows if r.get("split") == s]) for s in splits},
        },
        "baselines": {m: aggregate(base_rows[m], retrieval_only) for m in baselines},
        "baselines_by_kind": {
            m: {
                k: aggregate([r for r in base_rows[m] if r["kind"] == k], retrieval_only)
                for k in kinds
                if k != "unanswerable"
            }
            for m in baselines
        },
        "questions": rows,
        "failed": failed.failed,
        "timing": {
            "wall_s": round(time.perf_counter() - t0, 2),
            "per_question_s": round((time.perf_counter() - t0) / len(rows), 3),
        },
    }
