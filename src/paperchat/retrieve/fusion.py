"""Score fusion for hybrid retrieval: weighted min-max fusion and reciprocal rank fusion.

* ``weighted``: a convex mix ``alpha * dense + (1 - alpha) * bm25`` of
  min-max normalised scores, as LlamaIndex's ``relative_score`` fusion
  (``QueryFusionRetriever``);
* ``rrf``: reciprocal rank fusion, ``sum 1 / (k + rank)`` (Cormack, Clarke &
  Büttcher 2009, k = 60).

Both take ``{id: score}`` maps (or ranked lists) and return ``{id: fused score}``.
"""

from __future__ import annotations

from typing import Sequence

RRF_K = 60
WEIGHTED_ALPHA = 0.6  # weight of the dense score in weighted fusion
FUSION_MODES = ("weighted", "rrf")


def min_max(scores: dict[str, float]) -> dict[str, float]:
    """Scores rescaled to [0, 1] (all 0 when they are equal)."""
    if not scores:
        return {}
    lo, hi = min(scores.values()), max(scores.values())
    span = hi - lo or 1.0
    return {k: (v - lo) / span for k, v in scores.items()}


def weighted(dense: dict[str, float], bm25: dict[str, float], alpha: float = WEIGHTED_ALPHA) -> dict[str, float]:
    """``alpha * minmax(dense) + (1 - alpha) * minmax(bm25)`` over the union of ids (a missing score counts 0)."""
    nd, nb = min_max(dense), min_max(bm25)
    return {cid: alpha * nd.get(cid, 0.0) + (1 - alpha) * nb.get(cid, 0.0) for cid in set(nd) | set(nb)}


def rrf(*rankings: Sequence[str], k: int = RRF_K) -> dict[str, float]:
    """Reciprocal rank fusion of ranked id lists."""
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, cid in enumerate(ranking, 1):
            fused[cid] = fused.get(cid, 0.0) + 1.0 / (k + rank)
    return fused
