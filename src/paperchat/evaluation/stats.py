"""Aggregating per-question rows: the metric table, subsets, means with percentile bootstrap 95% intervals.

Each metric is the mean of a per-question field over a subset of questions
(answerable, unanswerable, answered, ...), with a percentile bootstrap
confidence interval over questions (Efron & Tibshirani 1993;
``BOOTSTRAP_RESAMPLES`` resamples, fixed seed ``BOOTSTRAP_SEED``, so a run
is reproducible).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 20251130
KIND_ORDER = (
    "lookup",
    "paraphrase",
    "multi-paper",
    "comparison",
    "summary",
    "metadata",
    "follow-up",
    "unanswerable",
)

_ANSWERABLE = "answerable"
_UNANSWERABLE = "unanswerable"
_ANSWERED = "answered"
_ANSWERED_ANSWERABLE = "answered answerable"
_WITH_FACTS = "answerable with facts"
_ALL = "all"

RETRIEVAL_METRICS = ("recall@1", "recall@5", "recall@10", "mrr@10", "ndcg@10")

# metric | the questions its mean is over | the per-question field | + higher is better, - lower is
_TABLE = """
citations.sentence_citation_rate  | answered              | sentence_citation_rate | +
citations.out_of_range_share      | answered              | out_of_range_share     | -
citations.recall                  | answered              | citation_recall        | +
citations.precision               | answered              | citation_precision     | +
citations.cited_gold_share        | answered answerable   | cited_gold_share       | +
citations.gold_cited_share        | answered answerable   | gold_cited_share       | +
answers.gold_cited                | answerable            | gold_cited             | +
answers.first_cited_gold          | answerable            | first_cited_gold       | +
answers.all_compared_cited        | answerable            | all_gold_cited         | +
answers.fact_recall               | answerable with facts | fact_recall            | +
answers.all_facts                 | answerable with facts | all_facts              | +
abstention.abstention_rate        | unanswerable          | abstained              | +
abstention.false_abstention_rate  | answerable            | abstained              | -
abstention.precision              | answered              | correct                | +
abstention.accuracy               | all                   | correct                | +
"""

#: Every metric: (name, subset the mean is taken over, per-question field, higher is better).
METRICS: list[tuple[str, str, str, bool]] = [
    *[(f"retrieval.{m}", _ANSWERABLE, m, True) for m in RETRIEVAL_METRICS],
    *[
        (name, subset, field, sign == "+")
        for name, subset, field, sign in (
            tuple(cell.strip() for cell in row.split("|")) for row in _TABLE.strip().splitlines()
        )
    ],
]


def bootstrap_ci(
    values: Sequence[float],
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    level: float = 0.95,
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
    return {
        "value": round(sum(vals) / len(vals), 4),
        "ci": [round(ci[0], 4), round(ci[1], 4)],
        "n": len(vals),
    }


def in_subset(row: dict[str, Any], subset: str) -> bool:
    """Whether a per-question row belongs to the subset a metric is averaged over (see :data:`METRICS`)."""
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
        vals = [r[field] for r in rows if in_subset(r, subset) and r.get(field) is not None]
        out[name] = summarize([float(v) for v in vals])
    return out


def kinds_in(rows: list[dict[str, Any]]) -> list[str]:
    """The question kinds present in ``rows``, in :data:`KIND_ORDER` (unknown kinds last)."""
    present = list(dict.fromkeys(r["kind"] for r in rows))
    return [k for k in KIND_ORDER if k in present] + [k for k in present if k not in KIND_ORDER]
