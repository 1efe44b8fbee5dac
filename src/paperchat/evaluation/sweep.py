"""The abstention decision as a curve: how much is answered against how much of it is right.

An offline answer carries an ``evidence`` score (the relevance of its best
sentence, :attr:`paperchat.core.contract.Answer.evidence`). Raising a
threshold on it answers fewer questions; :func:`abstention_sweep` shows, for
each threshold, the share answered (*coverage*) and the share of those that
are right (*selective accuracy*): the risk-coverage curve of selective
prediction (El-Yaniv & Wiener 2010, "On the Foundations of Noise-free
Selective Classification"; Geifman & El-Yaniv 2017). The threshold the
answerer uses is read off this curve on the tuning sets, not set by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: Thresholds the report shows (units: the evidence score, a weighted cosine + term overlap, about 0..1).
SWEEP_THRESHOLDS = (0.0, 0.2, 0.25, 0.27, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)


def abstention_sweep(
    rows: Sequence[dict[str, Any]], thresholds: Sequence[float] = SWEEP_THRESHOLDS
) -> list[dict[str, Any]]:
    """Coverage and selective accuracy of the eval ``rows`` when answers with ``evidence`` below each threshold abstain.

    A row needs ``answerable``, ``abstained``, ``correct`` and ``evidence``
    (``None`` counts as 0). A question is *answered* at threshold ``t`` when
    the pipeline answered it and its evidence is at least ``t``; it is then
    right when ``correct`` (an answerable question citing gold with every
    fact; an answered unanswerable one is wrong). An abstention is right for
    an unanswerable question. Returns one dict per threshold: ``threshold``,
    ``answered`` (share of all rows), ``selective_accuracy`` (right among
    answered; ``None`` when nothing is answered), ``accuracy`` (right among
    all, abstentions included) and ``n``; an empty list for no rows.
    """
    if not rows:
        return []
    out = []
    for t in thresholds:
        answers = [not r["abstained"] and (r.get("evidence") or 0.0) >= t for r in rows]
        answered = [r for r, a in zip(rows, answers) if a]
        right_answered = sum(1 for r in answered if r["correct"])
        right_abstained = sum(1 for r, a in zip(rows, answers) if not a and not r["answerable"])
        out.append(
            {
                "threshold": t,
                "answered": round(len(answered) / len(rows), 4),
                "selective_accuracy": round(right_answered / len(answered), 4)
                if answered
                else None,
                "accuracy": round((right_answered + right_abstained) / len(rows), 4),
                "n": len(rows),
            }
        )
    return out


def sweep_table(sweep: dict[str, list[dict[str, Any]]]) -> tuple[list[str], list[list[str]]]:
    """A header and rows for the report: one row per threshold, answered / selective accuracy per split."""
    names = [n for n in sweep if sweep[n]]
    header = ["threshold", *[f"{n}: answered / right" for n in names]]
    rows = []
    for points in zip(*(sweep[n] for n in names)):  # one point per series, same threshold
        cells = [
            f"{p['answered']:.2f} / "
            + ("–" if p["selective_accuracy"] is None else f"{p['selective_accuracy']:.2f}")
            for p in points
        ]
        rows.append([f"{points[0]['threshold']:.2f}", *cells])
    return header, rows
