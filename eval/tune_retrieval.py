"""Choose chunk settings, retriever and fusion by measurement on eval/questions.jsonl.

Builds a temporary store for each chunk setting from the bundled corpus and
prints Recall@1/@5 and MRR@10 of dense, BM25 and hybrid (RRF and weighted)
retrieval over the answerable questions, plus the extractive answerer's
relevance on answerable vs unanswerable questions (for the abstention threshold).

    python eval/tune_retrieval.py [--sizes 96/16,128/24,192/32,256/0]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from paperchat.core.settings import load_settings
from paperchat.engine import Engine
from paperchat.evaluation.measures import mrr_at_k, recall_at_k
from paperchat.ingest.chunking import ChunkSettings
from paperchat.ingest.corpus import bundled_corpus_files, load_file
from paperchat.retrieve.hybrid import HybridRetriever

HERE = Path(__file__).resolve().parent


def load_questions() -> tuple[list[dict], dict[tuple[str, int], str]]:
    ids = {}
    for f in bundled_corpus_files():
        for p in load_file(f)[0]:
            ids[(p.source_path, p.source_index)] = p.paper_id
    qs = [json.loads(line) for line in (HERE / "questions.jsonl").read_text().splitlines() if line.strip()]
    return qs, ids


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="96/16,128/24,192/32,256/0")
    args = ap.parse_args()
    qs, ids = load_questions()
    answerable = [q for q in qs if q["answerable"] and q["kind"] != "follow-up"]
    for spec in args.sizes.split(","):
        size, overlap = map(int, spec.split("/"))
        with tempfile.TemporaryDirectory() as tmp:
            engine = Engine(load_settings({"store": tmp}), chunk=ChunkSettings(size, overlap))
            engine.ingest(bundled_corpus_files())
            n_chunks = engine.store.counts()[1]
            rows = []
            for mode, fusion in (("dense", "rrf"), ("bm25", "rrf"), ("hybrid", "rrf"), ("hybrid", "weighted")):
                r = HybridRetriever(engine.store, engine.embedder, mode, fusion)
                r1 = r5 = mrr = 0.0
                for q in answerable:
                    gold = {ids[(g["path"], g["index"])] for g in q["gold"]}
                    ranked = [h.paper_id for h in r.retrieve(q["question"], 10)]
                    r1 += recall_at_k(ranked, gold, 1)
                    r5 += recall_at_k(ranked, gold, 5)
                    mrr += mrr_at_k(ranked, gold, 10)
                n = len(answerable)
                rows.append(f"  {mode:6s} {fusion:8s} R@1={r1/n:.3f} R@5={r5/n:.3f} MRR@10={mrr/n:.3f}")
            print(f"chunks {size}/{overlap}: {n_chunks} chunks, {len(answerable)} questions")
            print("\n".join(rows))
            rel = {True: [], False: []}
            for q in qs:
                if q["kind"] == "follow-up":
                    continue
                res = engine.ask(q["question"])
                rel[q["answerable"]].append((res.abstained, q["id"]))
            for key, vals in rel.items():
                abst = sum(a for a, _ in vals)
                print(f"  answerable={key}: abstained {abst}/{len(vals)}")


if __name__ == "__main__":
    main()
