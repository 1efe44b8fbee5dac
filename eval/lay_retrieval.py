"""Retrieval of papers described in everyday words: recall@k and MRR by writing style, on a conference store.

The 1,215 descriptions in ``training/data/lay_queries.jsonl`` (one a paper, of the ICML 2025 papers no
eval question has as gold; written by twelve helpers from the abstracts in six styles: half-remembered,
search-box terse with typos, a hobbyist's plain words, an engineer's need, a question about one detail,
a reviewer's paraphrase) are each searched with paperchat's own retriever (hybrid, as ``ask`` searches);
the paper a description was written for is its one gold paper. Prints recall@1/5/10 and MRR@10 per
style and for all, or JSON with ``--json`` (with nDCG@10 too).

The figures measure generalization only for a question encoder not trained on these descriptions: the
shipped one is not (``training/query_encoder.py --lay`` trains on them; eval/generalization/TUNING.md,
twenty-second round).

    paperchat --store conf-store ingest && paperchat --store conf-store ingest ../shared/data/icml2025_abstracts.jsonl
    python eval/lay_retrieval.py --store conf-store [--json]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from paperchat.core.settings import load_settings
from paperchat.engine import Engine
from paperchat.evaluation.measures import retrieval_scores

QUERIES = Path(__file__).resolve().parents[1] / "training" / "data" / "lay_queries.jsonl"
#: papers retrieved per search (the measures read the top 10)
DEPTH = 10


def mean_scores(rows: list[dict[str, float]]) -> dict[str, float]:
    """The mean of each measure over per-query :func:`~paperchat.evaluation.measures.retrieval_scores`, and ``n``."""
    return {"n": len(rows), **{k: round(sum(r[k] for r in rows) / len(rows), 3) for k in rows[0]}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", required=True, help="a store holding the ICML 2025 abstracts")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    engine = Engine(load_settings({"store": args.store}))
    held = set(engine.store.papers(abstracts=False))
    rows = [json.loads(line) for line in QUERIES.read_text(encoding="utf-8").splitlines() if line]
    rows = [r for r in rows if r["id"] in held]
    if not rows:
        raise SystemExit(
            f"error: {args.store} holds none of the described papers; ingest the ICML 2025 abstracts"
        )
    scores: dict[str, list[dict[str, float]]] = defaultdict(list)
    for row in rows:
        ranked = [hit.paper_id for hit in engine.retrieve(row["text"], DEPTH)]
        one = retrieval_scores(ranked, {row["id"]})
        scores[row["style"]].append(one)
        scores["all"].append(one)
    figures = {style: mean_scores(s) for style, s in sorted(scores.items())}
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"{'style':16} {'n':>5} {'R@1':>6} {'R@5':>6} {'R@10':>6} {'MRR@10':>7}")
    for style, f in figures.items():
        print(
            f"{style:16} {f['n']:5d} {f['recall@1']:6.3f} {f['recall@5']:6.3f} "
            f"{f['recall@10']:6.3f} {f['mrr@10']:7.3f}"
        )


if __name__ == "__main__":
    main()
