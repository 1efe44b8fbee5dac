"""Retrieval metrics over ranked paper ids and a gold set (binary relevance).

* Recall@k: share of gold papers among the first ``k`` retrieved.
* MRR@k: reciprocal rank of the first gold paper within ``k`` (0 if none);
  Voorhees, TREC-8 QA track (1999).
* nDCG@k: DCG with gain 1 and discount ``1 / log2(rank + 1)``, divided by the
  ideal DCG of the *gold set* (all gold papers ranked first), not of the
  retrieved list; Järvelin & Kekäläinen (2002).

All return floats in [0, 1]; with an empty gold set they return 0.0 (such
questions are unanswerable and are scored by abstention instead).
"""

from __future__ import annotations

import math
from typing import Sequence


def recall_at_k(ranked: Sequence[str], gold: set[str], k: int) -> float:
    """Share of ``gold`` found in ``ranked[:k]``."""
    if not gold:
        return 0.0
    return len(set(ranked[:k]) & gold) / len(gold)


def mrr_at_k(ranked: Sequence[str], gold: set[str], k: int = 10) -> float:
    """``1 / rank`` of the first gold id within the top ``k``, else 0."""
    for rank, pid in enumerate(ranked[:k], 1):
        if pid in gold:
            return 1.0 / rank
    return 0.0


def ndcg_at_k(ranked: Sequence[str], gold: set[str], k: int = 10) -> float:
    """nDCG@k with binary gains; the ideal DCG ranks all of ``gold`` (up to ``k``) first."""
    if not gold:
        return 0.0
    seen: set[str] = set()
    dcg = 0.0
    for rank, pid in enumerate(ranked[:k], 1):
        if pid in gold and pid not in seen:
            dcg += 1.0 / math.log2(rank + 1)
            seen.add(pid)
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(len(gold), k) + 1))
    return dcg / ideal
