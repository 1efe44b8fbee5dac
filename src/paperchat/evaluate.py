"""The eval runner: answer grounding, retrieval and abstention on ``eval/questions.jsonl``.

:func:`run_eval` puts every question of the eval set through the pipeline a
user gets (:meth:`paperchat.pipeline.Engine.ask` on the bundled corpus) and
measures, overall and per question kind, each figure with a percentile
bootstrap 95% confidence interval over questions (Efron & Tibshirani 1993;
``BOOTSTRAP_RESAMPLES`` resamples, fixed seed ``BOOTSTRAP_SEED``, so a run is
reproducible):

* **retrieval** (answerable questions): Recall@1/5/10, MRR@10 and nDCG@10
  (:mod:`paperchat.metrics`) of the paper ranking of
  :meth:`Engine.retrieve` with ``top_k = RETRIEVAL_K`` (10), the same
  retriever ``ask`` uses; and, side by side, of three baseline retrievers built
  on the same store: ``bm25`` only, ``dense`` only and ``hybrid``
  (:class:`paperchat.retrieval.Retriever`). ``ask``'s own ``retrieved``
  list holds only the papers given to the answerer (top-k, 5) and is kept
  per question as ``answer_retrieved``;
* **citations** (answered questions, i.e. not abstained), in the spirit of
  ALCE (Gao et al. 2023, "Enabling Large Language Models to Generate Text
  with Citations"), per answer then averaged over answers:

  - ``sentence_citation_rate``: share of answer sentences with at least one ``[n]``;
  - ``out_of_range_share``: share of ``[n]`` markers whose ``n`` is not a
    source number (``1..len(sources)``);
  - ``recall`` (ALCE citation recall): share of answer sentences that the
    concatenated texts of their cited sources support;
  - ``precision`` (ALCE citation precision): share of citations that are
    relevant, a citation being irrelevant when it alone does not support its
    sentence *and* the sentence's other citations support it without it;
  - support is judged by the checker :func:`paperchat.verify.check_sentence`
    (embedding similarity + term overlap + numbers and names must occur)
    against each source's ``text`` (the evidence chunk the user sees); when
    :mod:`paperchat.verify` is missing the two figures are left out;
  - ``cited_gold_share`` (answered answerable questions): share of the cited
    papers that are gold papers; ``gold_cited_share``: share of the gold
    papers that are cited;
* **answers** (answerable questions with facts): ``fact_recall``, the share
  of required fact groups the answer holds (a group is a list of variants; it
  is satisfied when any variant occurs in the answer, case-insensitively; an
  abstention satisfies none) and ``all_facts``, the share of answers holding
  every group;
* **abstention**: ``abstention_rate`` on unanswerable questions,
  ``false_abstention_rate`` on answerable ones, ``precision`` = correct
  answers / answered questions and ``accuracy`` = correct / all questions,
  where an answerable question is answered *correctly* when the answer is not
  an abstention, cites at least one gold paper and satisfies every fact group,
  and an unanswerable one is correct when the pipeline abstains.

Follow-up questions (``kind: "follow-up"`` with ``follow_up_of``) are asked
as ``"<previous question> <follow-up>"``: the offline stand-in for the chat
REPL's follow-up resolution until that exists.

Gold papers are given as ``{path, index}`` (corpus file name, 1-based
position) and mapped to paper ids with :func:`paperchat.corpus.load_file`
over :func:`paperchat.corpus.bundled_corpus_files`.

Every figure is deterministic for a given store and code; only the
``timing`` entry of the results varies between runs.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

import paperchat
from paperchat.citations import find_citations
from paperchat.errors import PaperchatError
from paperchat.metrics import mrr_at_k, ndcg_at_k, recall_at_k

RETRIEVAL_K = 10
BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 20251130
BASELINE_RETRIEVERS = ("bm25", "dense", "hybrid")
KIND_ORDER = ("lookup", "paraphrase", "multi-paper", "comparison", "summary", "follow-up", "unanswerable")

Progress = Callable[[int, int], None]

# -- metrics: (name, subset the mean is taken over, per-question field, higher is better) --
_ANSWERABLE = "answerable"
_UNANSWERABLE = "unanswerable"
_ANSWERED = "answered"
_ANSWERED_ANSWERABLE = "answered answerable"
_WITH_FACTS = "answerable with facts"
_ALL = "all"

RETRIEVAL_METRICS = ("recall@1", "recall@5", "recall@10", "mrr@10", "ndcg@10")

METRICS: list[tuple[str, str, str, bool]] = [
    *[(f"retrieval.{m}", _ANSWERABLE, m, True) for m in RETRIEVAL_METRICS],
    ("citations.sentence_citation_rate", _ANSWERED, "sentence_citation_rate", True),
    ("citations.out_of_range_share", _ANSWERED, "out_of_range_share", False),
    ("citations.recall", _ANSWERED, "citation_recall", True),
    ("citations.precision", _ANSWERED, "citation_precision", True),
    ("citations.cited_gold_share", _ANSWERED_ANSWERABLE, "cited_gold_share", True),
    ("citations.gold_cited_share", _ANSWERED_ANSWERABLE, "gold_cited_share", True),
    ("answers.fact_recall", _WITH_FACTS, "fact_recall", True),
    ("answers.all_facts", _WITH_FACTS, "all_facts", True),
    ("abstention.abstention_rate", _UNANSWERABLE, "abstained", True),
    ("abstention.false_abstention_rate", _ANSWERABLE, "abstained", False),
    ("abstention.precision", _ANSWERED, "correct", True),
    ("abstention.accuracy", _ALL, "correct", True),
]


# -- locating files ----------------------------------------------------------
def repo_eval_dir() -> Path:
    """The ``eval/`` folder of the source checkout paperchat runs from (may not exist)."""
    return Path(paperchat.__file__).resolve().parents[2] / "eval"


def eval_data_dir() -> Path:
    """Where the eval set and baseline are read from: the checkout's ``eval/``, else the copy
    installed with the package (``paperchat/_bundled/eval``)."""
    if repo_eval_dir().is_dir():
        return repo_eval_dir()
    return Path(paperchat.__file__).resolve().parent / "_bundled" / "eval"


def default_question_set() -> Path:
    """``eval/questions.jsonl`` (see :func:`eval_data_dir`); :class:`PaperchatError` when absent."""
    path = eval_data_dir() / "questions.jsonl"
    if not path.is_file():
        raise PaperchatError(f"eval set not found at {path}; reinstall paperchat or pass --set FILE")
    return path


def default_baseline() -> Path:
    """``eval/baseline.json`` of the checkout (the committed minimum figures)."""
    return eval_data_dir() / "baseline.json"


def default_out_dir() -> Path:
    """``eval/out/`` of the checkout when it has an ``eval/`` folder, else ``./eval-out``."""
    return repo_eval_dir() / "out" if repo_eval_dir().is_dir() else Path("eval-out")


# -- the eval set ------------------------------------------------------------
def load_questions(path: str | Path) -> list[dict[str, Any]]:
    """Read an eval set (JSONL) and check it.

    Each line: ``{id, question, kind, answerable, gold: [{path, index}],
    facts: [[variant, ...], ...], follow_up_of?, note?}``. Raises
    :class:`PaperchatError` naming ``file:line`` for a malformed line, a
    duplicate id or a ``follow_up_of`` that names no earlier question.
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise PaperchatError(f"cannot read the eval set {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise PaperchatError(f"the eval set {path} is not UTF-8 text (JSONL expected)") from None
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        try:
            q = json.loads(line)
        except json.JSONDecodeError as exc:
            raise PaperchatError(f"{where}: not JSON ({exc.msg})") from None
        if not isinstance(q, dict):
            raise PaperchatError(f"{where}: not a JSON object")
        for key in ("id", "question"):
            if not isinstance(q.get(key), str) or not q[key].strip():
                raise PaperchatError(f"{where}: missing or empty {key!r}")
        if q["id"] in seen:
            raise PaperchatError(f"{where}: duplicate id {q['id']!r}")
        q.setdefault("kind", "lookup")
        q["answerable"] = bool(q.get("answerable", bool(q.get("gold"))))
        gold = q.setdefault("gold", [])
        if not isinstance(gold, list) or any(not isinstance(g, dict) or "path" not in g or "index" not in g for g in gold):
            raise PaperchatError(f"{where}: 'gold' must be a list of {{path, index}}")
        if q["answerable"] and not gold:
            raise PaperchatError(f"{where}: an answerable question needs gold papers")
        facts = q.setdefault("facts", [])
        if not isinstance(facts, list) or any(not isinstance(g, list) or not g for g in facts):
            raise PaperchatError(f"{where}: 'facts' must be a list of non-empty lists of variants")
        prev = q.get("follow_up_of")
        if prev is not None and prev not in seen:
            raise PaperchatError(f"{where}: follow_up_of {prev!r} names no earlier question")
        seen.add(q["id"])
        out.append(q)
    if not out:
        raise PaperchatError(f"the eval set {path} holds no questions")
    return out


def gold_id_map(files: Iterable[Path] | None = None) -> dict[tuple[str, int], str]:
    """Paper ids by ``(corpus file name, 1-based position)`` (default: the bundled corpus)."""
    from paperchat.corpus import bundled_corpus_files, load_file

    ids: dict[tuple[str, int], str] = {}
    for f in files if files is not None else bundled_corpus_files():
        for p in load_file(f)[0]:
            ids[(p.source_path, p.source_index)] = p.paper_id
    return ids


def gold_ids(question: dict[str, Any], ids: dict[tuple[str, int], str]) -> list[str]:
    """The question's gold paper ids (in the order given); :class:`PaperchatError` for an unknown origin."""
    out = []
    for g in question.get("gold", []):
        key = (str(g["path"]), int(g["index"]))
        if key not in ids:
            raise PaperchatError(f"question {question['id']}: gold paper {key[0]} #{key[1]} is not in the corpus")
        if ids[key] not in out:
            out.append(ids[key])
    return out


def asked_question(question: dict[str, Any], by_id: dict[str, dict[str, Any]]) -> str:
    """The text actually asked: a follow-up is prefixed with the question it follows (recursively)."""
    parts = [question["question"].strip()]
    seen = {question["id"]}
    prev = question.get("follow_up_of")
    while prev and prev in by_id and prev not in seen:
        seen.add(prev)
        parts.insert(0, by_id[prev]["question"].strip())
        prev = by_id[prev].get("follow_up_of")
    return " ".join(parts)


# -- per-question measures -----------------------------------------------------
def facts_found(answer: str, facts: Sequence[Sequence[str]]) -> list[bool]:
    """For each fact group (list of variants): whether any variant occurs in ``answer`` (case-insensitive)."""
    low = answer.lower()
    return [any(str(v).lower() in low for v in group) for group in facts]


def fact_recall(answer: str, facts: Sequence[Sequence[str]]) -> float | None:
    """Share of fact groups satisfied by ``answer`` (0..1); ``None`` without fact groups."""
    if not facts:
        return None
    found = facts_found(answer, facts)
    return sum(found) / len(found)


def first_gold_rank(ranked: Sequence[str], gold: set[str]) -> int | None:
    """1-based rank of the first gold paper in ``ranked`` (``None`` when none is there)."""
    for rank, pid in enumerate(ranked, 1):
        if pid in gold:
            return rank
    return None


def retrieval_scores(ranked: Sequence[str], gold: set[str]) -> dict[str, float]:
    """Recall@1/5/10, MRR@10, nDCG@10 of a paper ranking against a gold set (binary relevance)."""
    return {
        "recall@1": recall_at_k(ranked, gold, 1),
        "recall@5": recall_at_k(ranked, gold, 5),
        "recall@10": recall_at_k(ranked, gold, 10),
        "mrr@10": mrr_at_k(ranked, gold, 10),
        "ndcg@10": ndcg_at_k(ranked, gold, 10),
    }


def split_answer(answer: str) -> list[str]:
    """Answer sentences, each keeping its ``[n]`` markers (the checker's splitter when available)."""
    try:
        from paperchat.verify import answer_sentences
    except ImportError:
        from paperchat.text import split_sentences as answer_sentences
    return answer_sentences(answer)


class CachedEmbedder:
    """Wraps an embedder so each distinct text is embedded once per eval run.

    ``embed(texts)`` -> float32 ``(len(texts), dim)``; ``embed_one(text)`` ->
    ``(dim,)``. Texts not seen before are embedded together in one call to the
    wrapped embedder; other attributes are the wrapped embedder's.
    """

    def __init__(self, inner):
        self._inner = inner
        self._vecs: dict[str, np.ndarray] = {}
        self._seen_papers: set[str] = set()

    def __getattr__(self, name: str):
        return getattr(self._inner, name)

    def _adopt_answerer_cache(self) -> None:
        """Reuse the abstract-sentence vectors the extractive answerer already computed.

        They come from the same embedder (a paper's sentences embedded
        together), so a quoted sentence is not embedded twice.
        """
        try:
            from paperchat.extractive import _SENT_CACHE
        except ImportError:
            return
        prefix = f"{getattr(self._inner, 'model_id', '')}:"
        for key, entry in list(_SENT_CACHE.items()):
            if key in self._seen_papers or not key.startswith(prefix):
                continue
            self._seen_papers.add(key)
            try:
                sents, vecs = entry
                for t, v in zip(sents, vecs):
                    self._vecs.setdefault(t, np.asarray(v, dtype=np.float32))
            except (TypeError, ValueError):
                continue

    def embed(self, texts: Sequence[str], *args, **kwargs) -> np.ndarray:
        """Vectors of ``texts`` (cached per text)."""
        texts = list(texts)
        new = [t for t in dict.fromkeys(texts) if t not in self._vecs]
        if new:
            self._adopt_answerer_cache()
            new = [t for t in new if t not in self._vecs]
        if new:
            for t, v in zip(new, self._inner.embed(new)):
                self._vecs[t] = v
        if not texts:
            return self._inner.embed([])
        return np.stack([self._vecs[t] for t in texts])

    def embed_one(self, text: str) -> np.ndarray:
        """One text's vector, shape ``(dim,)``."""
        return self.embed([text])[0]


class SupportChecker:
    """Judges whether texts support a sentence, with :func:`paperchat.verify.check_sentence` (cached).

    ``supports(sentence, texts)`` -> bool; ``available`` is false when
    :mod:`paperchat.verify` is missing (then nothing is judged).
    """

    def __init__(self, embedder):
        self.embedder = embedder
        self._cache: dict[tuple[str, tuple[str, ...]], bool] = {}
        try:
            from paperchat import verify
        except ImportError:
            verify = None
        self._verify = verify
        self.available = verify is not None and hasattr(verify, "check_sentence")

    def supports(self, sentence: str, texts: Sequence[str]) -> bool:
        """Whether ``texts`` jointly support ``sentence`` (markers are ignored by the checker)."""
        if not texts:
            return False
        key = (sentence, tuple(texts))
        if key not in self._cache:
            self._cache[key] = bool(self._verify.check_sentence(sentence, list(texts), self.embedder).supported)
        return self._cache[key]


def citation_scores(result: dict[str, Any], gold: set[str], checker: SupportChecker | None) -> dict[str, Any]:
    """Citation figures of one answered result (the ``ask --json`` contract).

    Returns ``{sentences, sentence_citation_rate, markers, out_of_range,
    out_of_range_share, cited: [paper ids], cited_gold_share,
    gold_cited_share, citation_recall, citation_precision, unsupported:
    [sentence]}``; the gold shares are ``None`` without gold papers, the ALCE
    figures ``None`` without a checker. An answer with no sentences scores 0.
    """
    sources = {int(s["n"]): s for s in result.get("sources", [])}
    sentences = split_answer(result.get("answer", ""))
    markers = 0
    out_of_range = 0
    with_citation = 0
    cited: list[str] = []
    recall_hits = 0
    relevant = 0
    n_citations = 0
    unsupported: list[str] = []
    judge = checker is not None and checker.available
    for sent in sentences:
        numbers = find_citations(sent)
        markers += len(numbers)
        out_of_range += sum(1 for n in numbers if n not in sources)
        valid = [n for n in dict.fromkeys(numbers) if n in sources]
        if numbers:
            with_citation += 1
        for n in valid:
            if sources[n]["paper_id"] not in cited:
                cited.append(sources[n]["paper_id"])
        if not judge:
            continue
        texts = [sources[n].get("text", "") for n in valid]
        joint = checker.supports(sent, texts) if texts else False
        recall_hits += joint
        if not joint:
            unsupported.append(sent)
        # ALCE precision: a citation is irrelevant when it alone does not support the sentence
        # and the remaining citations still do without it.
        n_citations += len(numbers)  # out-of-range citations count as irrelevant
        for i, n in enumerate(valid):
            if len(valid) == 1:
                alone = joint
                rest = False
            else:
                alone = checker.supports(sent, [texts[i]])
                rest = checker.supports(sent, texts[:i] + texts[i + 1 :]) if joint and not alone else False
            relevant += bool(alone or (joint and not rest))
    n_sent = len(sentences)
    cited_set = set(cited)
    return {
        "sentences": n_sent,
        "sentence_citation_rate": with_citation / n_sent if n_sent else 0.0,
        "markers": markers,
        "out_of_range": out_of_range,
        "out_of_range_share": out_of_range / markers if markers else 0.0,
        "cited": cited,
        "cited_gold_share": (len(cited_set & gold) / len(cited_set) if cited_set else 0.0) if gold else None,
        "gold_cited_share": len(cited_set & gold) / len(gold) if gold else None,
        "citation_recall": (recall_hits / n_sent if n_sent else 0.0) if judge else None,
        "citation_precision": (relevant / n_citations if n_citations else 0.0) if judge else None,
        "unsupported": unsupported,
    }


# -- statistics --------------------------------------------------------------
def bootstrap_ci(
    values: Sequence[float], resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED, level: float = 0.95
) -> tuple[float, float] | None:
    """Percentile bootstrap confidence interval of the mean of ``values``.

    Draws ``resamples`` samples of ``len(values)`` with replacement (numpy
    ``default_rng(seed)``, so the interval is reproducible) and returns the
    ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles of their means;
    ``(v, v)`` for a constant list, ``None`` for an empty one.
    """
    vals = np.asarray(list(values), dtype=float)
    if vals.size == 0:
        return None
    if np.all(vals == vals[0]):
        return float(vals[0]), float(vals[0])
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, vals.size, size=(resamples, vals.size))
    means = vals[idx].mean(axis=1)
    lo, hi = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return float(lo), float(hi)


def summarize(values: Sequence[float]) -> dict[str, Any]:
    """``{"value": mean, "ci": [low, high], "n": count}`` (rounded to 4 places; value ``None`` when empty)."""
    vals = [float(v) for v in values]
    if not vals:
        return {"value": None, "ci": None, "n": 0}
    ci = bootstrap_ci(vals)
    return {"value": round(sum(vals) / len(vals), 4), "ci": [round(ci[0], 4), round(ci[1], 4)], "n": len(vals)}


def _in_subset(row: dict[str, Any], subset: str) -> bool:
    if subset == _ALL:
        return True
    if subset == _ANSWERABLE:
        return row["answerable"]
    if subset == _UNANSWERABLE:
        return not row["answerable"]
    if subset == _ANSWERED:
        return not row["abstained"]
    if subset == _ANSWERED_ANSWERABLE:
        return row["answerable"] and not row["abstained"]
    if subset == _WITH_FACTS:
        return row["answerable"] and bool(row["facts"])
    raise ValueError(subset)


def aggregate(rows: list[dict[str, Any]], metrics=METRICS) -> dict[str, dict[str, Any]]:
    """Each metric's mean over its subset of ``rows`` with a bootstrap CI: ``{name: {value, ci, n}}``."""
    out = {}
    for name, subset, field, _higher in metrics:
        vals = [r[field] for r in rows if _in_subset(r, subset) and r.get(field) is not None]
        out[name] = summarize([float(v) for v in vals])
    return out


def _kinds(rows: list[dict[str, Any]]) -> list[str]:
    present = list(dict.fromkeys(r["kind"] for r in rows))
    return [k for k in KIND_ORDER if k in present] + [k for k in present if k not in KIND_ORDER]


# -- the run -----------------------------------------------------------------
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
) -> dict[str, Any]:
    """Run the eval set through ``engine`` (a :class:`paperchat.pipeline.Engine`) and measure it.

    ``set_path`` defaults to the repository's ``eval/questions.jsonl``;
    ``top_k`` (papers given to the answerer) to the engine's setting;
    ``mode`` is the answer mode passed to ``ask`` (``extractive``, offline and
    deterministic, or ``llm``, which needs a configured model);
    ``baselines`` names the retrievers measured side by side;
    ``check_support`` judges citation support with :mod:`paperchat.verify`;
    ``limit`` keeps the first N questions; ``progress(done, total)`` is
    called after each question. The bundled corpus is ingested first when the
    store is empty (``ingest_progress`` reports it); ``corpus`` files are
    ingested too (e.g. the 2,732 ICML 2025 abstracts as distractors). Gold
    papers merged into another copy on ingest (near-duplicates) are scored
    under the id of the copy the store kept.

    Returns a JSON-ready dict: ``config``, ``overall`` and ``by_kind``
    (``{metric: {value, ci, n}}``), ``baselines`` and ``baselines_by_kind``
    (retrieval metrics per retriever), ``questions`` (one row per question)
    and ``timing`` (``wall_s``, the only non-deterministic entry).
    """
    t0 = time.perf_counter()
    path = Path(set_path) if set_path else default_question_set()
    questions = load_questions(path)
    if limit is not None:
        questions = questions[:limit]
    by_id = {q["id"]: q for q in questions}
    engine.ensure_corpus(progress=ingest_progress)
    if corpus:
        engine.ingest(list(corpus), progress=ingest_progress)
    ids = gold_id_map()
    stored = {p["paper_id"] for p in engine.papers()}
    alias = engine.alias_map()
    golds = {q["id"]: [alias.get(pid, pid) for pid in gold_ids(q, ids)] for q in questions}
    missing = sorted({pid for g in golds.values() for pid in g} - stored)
    if missing:
        raise PaperchatError(
            f"the store lacks {len(missing)} gold paper(s) of the eval set (e.g. {missing[0]}); "
            "run `paperchat ingest` (the bundled corpus) first"
        )
    top_k = top_k or engine.settings.top_k
    cached = CachedEmbedder(engine.embedder)
    checker = SupportChecker(cached) if check_support else None

    from paperchat.retrieval import Retriever

    base_retrievers = {m: Retriever(engine.store, cached, mode=m, fusion=engine.fusion) for m in baselines}
    rows: list[dict[str, Any]] = []
    base_rows: dict[str, list[dict[str, Any]]] = {m: [] for m in baselines}
    for i, q in enumerate(questions, 1):
        asked = asked_question(q, by_id)
        gold = golds[q["id"]]
        gold_set = set(gold)
        result = engine.ask(asked, top_k=top_k, mode=mode)
        ranked = [h.paper_id for h in engine.retrieve(asked, top_k=RETRIEVAL_K)]
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
            "answer_retrieved": [r["paper_id"] for r in result.get("retrieved", [])],
            "first_gold_rank": first_gold_rank(ranked, gold_set) if gold_set else None,
            "abstained": bool(result.get("abstained")),
            "answer": result.get("answer", ""),
            "mode": result.get("mode"),
        }
        if q["answerable"]:
            row.update(retrieval_scores(ranked, gold_set))
        found = facts_found("" if row["abstained"] else row["answer"], q["facts"])
        row["facts_found"] = found
        row["fact_recall"] = (sum(found) / len(found) if found else None) if q["answerable"] else None
        row["all_facts"] = (float(all(found)) if found else None) if q["answerable"] else None
        if not row["abstained"]:
            row.update(citation_scores(result, gold_set, checker))
        else:
            row.update({"cited": [], "unsupported": []})
        row["correct"] = _correct(row)
        row["failure"] = _failure(row)
        rows.append(row)
        for base_mode, retriever in base_retrievers.items():
            if q["answerable"]:
                base_ranked = [h.paper_id for h in retriever.retrieve(asked, RETRIEVAL_K)]
                base_rows[base_mode].append({"kind": q["kind"], "answerable": True, **retrieval_scores(base_ranked, gold_set)})
        if progress:
            progress(i, len(questions))

    retrieval_only = [m for m in METRICS if m[0].startswith("retrieval.")]
    kinds = _kinds(rows)
    results = {
        "config": {
            "set": _display_path(path),
            "questions": len(rows),
            "answerable": sum(r["answerable"] for r in rows),
            "mode": mode,
            "retriever": engine.retriever_mode,
            "fusion": engine.fusion,
            "top_k": top_k,
            "retrieval_k": RETRIEVAL_K,
            "embed_model": engine.settings.embed_model,
            "store_papers": len(stored),
            "extra_papers": len(stored - set(ids.values())),
            "support_checker": "paperchat.verify" if checker is not None and checker.available else None,
            "bootstrap": {"resamples": BOOTSTRAP_RESAMPLES, "seed": BOOTSTRAP_SEED, "level": 0.95},
            "follow_ups": "asked as '<previous question> <follow-up>'",
        },
        "overall": aggregate(rows),
        "by_kind": {k: aggregate([r for r in rows if r["kind"] == k]) for k in kinds},
        "baselines": {m: aggregate(base_rows[m], retrieval_only) for m in baselines},
        "baselines_by_kind": {
            m: {k: aggregate([r for r in base_rows[m] if r["kind"] == k], retrieval_only) for k in kinds if k != "unanswerable"}
            for m in baselines
        },
        "questions": rows,
        "timing": {"wall_s": round(time.perf_counter() - t0, 2), "per_question_s": round((time.perf_counter() - t0) / len(rows), 3)},
    }
    return results


def _display_path(path: Path) -> str:
    """``path`` relative to the repository when inside it (so results do not depend on the clone's folder)."""
    try:
        return str(path.resolve().relative_to(repo_eval_dir().parent))
    except ValueError:
        return str(path)


def _correct(row: dict[str, Any]) -> bool:
    if not row["answerable"]:
        return row["abstained"]
    if row["abstained"]:
        return False
    return bool(set(row["cited"]) & set(row["gold"])) and all(row["facts_found"])


def _failure(row: dict[str, Any]) -> str:
    """Why a question counts as failed ('' when correct)."""
    if not row["answerable"]:
        return "" if row["abstained"] else "answered an unanswerable question"
    if row["abstained"]:
        return "abstained"
    why = []
    if not set(row["cited"]) & set(row["gold"]):
        why.append("cites no gold paper")
    missing = [g[0] for g, ok in zip(row["facts"], row["facts_found"]) if not ok]
    if missing:
        why.append("missing facts: " + ", ".join(missing))
    return "; ".join(why)


# -- baseline gate -------------------------------------------------------------
