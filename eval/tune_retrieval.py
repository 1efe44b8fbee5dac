"""Measure retrieval settings on the dev questions (never the test split): fusion weights and modes.

Runs paperchat's own retriever over stores you built, with the weights of
``paperchat.retrieve.hybrid.WEIGHTS`` (chunk cosine, sentence cosine, BM25 /
its upper bound) set to each candidate, and prints Recall@1/5 and MRR@10 on

* the conference dev questions over a store holding the 2,732 ICML 2025 abstracts, and
* the bundled questions over a store holding the bundled corpus,

plus how many "Which papers are about <keyword>?" questions lose one of the
two papers that hold a two-abstract keyword from the top 5 (BM25 alone ranks
both in its top 3). This is how the weights in ``hybrid.py`` were chosen.

    paperchat --store conf-store ingest && paperchat --store conf-store ingest ../shared/data/icml2025_abstracts.jsonl
    paperchat --store bundled-store ingest
    python eval/tune_retrieval.py --conference-store conf-store --bundled-store bundled-store \\
        --weights 0.5,0.5,1.5 0.6,0.4,1.5 0.5,0.5,2.0 [--fusion rrf]
"""

from __future__ import annotations

import argparse
import random
import re
from collections import defaultdict

from paperchat.core.settings import load_settings
from paperchat.engine import Engine
from paperchat.evaluation import questions as qs
from paperchat.evaluation.measures import retrieval_scores
from paperchat.retrieve import hybrid


def gold_questions(engine: Engine, set_name: str) -> list[tuple[str, set[str]]]:
    records = engine.store.papers(abstracts=False)
    origins = {
        **{(r.source_path, r.source_index): pid for pid, r in records.items()},
        **qs.origin_map(),
    }
    aliases = engine.store.aliases()
    rows = [
        q for path in qs.resolve_set(set_name) for q in qs.load_questions(path) if q["answerable"]
    ]
    by_id = {q["id"]: q for q in rows}
    return [(qs.asked_question(q, by_id), set(qs.gold_ids(q, origins, aliases))) for q in rows]


def keyword_questions(engine: Engine, n: int = 60) -> list[tuple[str, set[str]]]:
    """Questions about keywords that exactly two papers hold, where BM25 alone ranks both in its top 3."""
    bm25 = engine.store.bm25()
    holders: dict[str, set[str]] = defaultdict(set)
    for pid, rec in engine.store.papers().items():
        for word in set(re.findall(r"\b[a-z]{7,}\b", (rec.title + " " + rec.abstract).lower())):
            holders[word].add(pid)
    words = [
        w
        for w, s in holders.items()
        if len(s) == 2 and bm25.tokenize([w])[0] and bm25.df.get(bm25.tokenize([w])[0][0]) == 2
    ]
    random.Random(1).shuffle(words)
    out = []
    for word in words:
        question = f"Which papers study {word}?"
        if holders[word] <= {pid for pid, _ in bm25.search(question, 3)}:
            out.append((question, holders[word]))
        if len(out) == n:
            break
    return out


def measure(engine: Engine, questions: list[tuple[str, set[str]]]) -> dict[str, float]:
    total = {"recall@1": 0.0, "recall@5": 0.0, "mrr@10": 0.0}
    for question, gold in questions:
        scores = retrieval_scores([h.paper_id for h in engine.retrieve(question, 10)], gold)
        for key in total:
            total[key] += scores[key] / len(questions)
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--conference-store", required=True)
    ap.add_argument("--bundled-store", required=True)
    ap.add_argument("--weights", nargs="+", default=["0.5,0.5,1.5"])
    ap.add_argument("--fusion", choices=["weighted", "rrf"], default="weighted")
    args = ap.parse_args()
    conf = Engine(load_settings({"store": args.conference_store}), fusion=args.fusion)
    b38 = Engine(load_settings({"store": args.bundled_store}), fusion=args.fusion)
    dev, bundled, keywords = (
        gold_questions(conf, "conference-dev"),
        gold_questions(b38, "bundled"),
        keyword_questions(conf),
    )
    for spec in args.weights:
        hybrid.WEIGHTS = tuple(float(x) for x in spec.split(","))
        conf._retriever = b38._retriever = None
        a, b = measure(conf, dev), measure(b38, bundled)
        lost = sum(
            1
            for question, gold in keywords
            if not gold <= {h.paper_id for h in conf.retrieve(question, 5)}
        )
        print(
            f"weights {spec:14s} dev "
            + " ".join(f"{k} {v:.3f}" for k, v in a.items())
            + " | bundled "
            + " ".join(f"{k} {v:.3f}" for k, v in b.items())
            + f" | keyword pairs lost {lost}/{len(keywords)}"
        )


if __name__ == "__main__":
    main()
