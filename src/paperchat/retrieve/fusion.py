"""Score fusion for hybrid retrieval: weighted min-max fusion and reciprocal rank fusion.

* ``weighted``: a mix of the cosines and of BM25 divided by its upper bound
  for the question (:func:`bounded`); :func:`weighted_many` is the convex mix
  of min-max normalised scores of LlamaIndex's ``relative_score`` fusion
  (``QueryFusionRetriever``), which measured worse;
* ``rrf``: reciprocal rank fusion, ``sum 1 / (k + rank)`` (Cormack, Clarke &
  Büttcher 2009, k = 60).

Both take ``{id: score}`` maps (or ranked lists) and return ``{id: fused score}``.
"""

from __future__ import annotations

from collections.abc import Sequence

RRF_K = 60
FUSION_MODES = ("weighted", "rrf")


def min_max(scores: dict[str, float]) -> dict[str, float]:
    """Scores rescaled to [0, 1]; when they are all equal (one candidate, say), each is the best: 1."""
    if not scores:
        return {}
    lo, hi = min(scores.values()), max(scores.values())
    if hi == lo:
        return {k: 1.0 for k in scores}
    return {k: (v - lo) / (hi - lo) for k, v in scores.items()}


def weighted_many(
    signals: Sequence[dict[str, float]], weights: Sequence[float]
) -> dict[str, float]:
    """``sum_i weights[i] * minmax(signals[i])`` over the union of ids (a missing score counts 0)."""
    norm = [min_max(s) for s in signals]
    keys = set().union(*norm) if norm else set()
    return {k: sum(w * n.get(k, 0.0) for w, n in zip(weights, norm)) for k in keys}


def bounded(
    dense: dict[str, float],
    sentence: dict[str, float],
    bm25: dict[str, float],
    bm25_bound: float,
    weights: Sequence[float],
) -> dict[str, float]:
    """``w0 * chunk cosine + w1 * sentence cosine + w2 * BM25 / its upper bound`` over the union of ids.

    Cosines are kept as they are and BM25 is divided by the best score any
    paper could get for the question (:meth:`paperchat.store.bm25.BM25Index.upper_bound`),
    so no signal is stretched: with min-max normalisation a weak, flat BM25
    list still gives its top paper full weight. A paper a dense list missed
    gets that list's lowest score.
    """
    floor_d = min(dense.values(), default=0.0)
    floor_s = min(sentence.values(), default=0.0)
    bound = bm25_bound if bm25_bound > 0 else 1.0
    keys = set(dense) | set(sentence) | set(bm25)
    return {
        k: weights[0] * dense.get(k, floor_d)
        + weights[1] * sentence.get(k, floor_s)
        + weights[2] * min(1.0, bm25.get(k, 0.0) / bound)
        for k in keys
    }


def rrf(*rankings: Sequence[str], k: int = RRF_K) -> dict[str, float]:
    """Reciprocal rank fusion of ranked id lists."""
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, cid in enumerate(ranking, 1):
            fused[cid] = fused.get(cid, 0.0) + 1.0 / (k + rank)
    return fused
