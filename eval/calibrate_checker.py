"""Calibrate and measure the citation checker (paperchat.cite.checker) on eval/claims.jsonl.

Each line of claims.jsonl is a sentence, the paper it cites ({path, index} in
the bundled corpus), whether the paper supports it, and the kind of claim
(faithful, verbatim, changed-number, swapped-entity, unsupported-detail,
wrong-source, contradiction). The cited text is the paper's whole abstract.

The script computes, per claim, the embedding cosine, the term overlap and
the hard rule (numbers and names must occur in the cited text), then

1. for each EMBED_WEIGHT prints the SUPPORT_THRESHOLD with the best accuracy
   and a 5-fold cross-validated accuracy (threshold refit on 4/5 of the
   claims, scored on the rest);
2. prints the hard rule alone and the score alone;
3. prints accuracy and precision/recall/F1 for the class "unsupported"
   with the constants currently in paperchat.cite.checker, and a per-kind breakdown.

    python eval/calibrate_checker.py [--claims eval/claims.jsonl]
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from pathlib import Path

import numpy as np

from paperchat.cite import checker as verify
from paperchat.core.text import split_sentences
from paperchat.ingest.corpus import bundled_corpus_files, load_file
from paperchat.ingest.embedding import get_embedder

HERE = Path(__file__).resolve().parent


def load_claims(path: Path) -> tuple[list[dict], dict[tuple[str, int], str]]:
    abstracts = {}
    for f in bundled_corpus_files():
        for p in load_file(f)[0]:
            abstracts[(p.source_path, p.source_index)] = p.abstract
    claims = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return claims, abstracts


def features(claims: list[dict], abstracts: dict, embedder) -> list[dict]:
    rows = []
    for c in claims:
        text = abstracts[(c["cited"]["path"], int(c["cited"]["index"]))]
        sent_vec = embedder.embed([c["sentence"]])[0]
        cos = float(np.max(embedder.embed(split_sentences(text)) @ sent_vec))
        rows.append(
            {
                "id": c["id"],
                "kind": c["kind"],
                "supported": bool(c["supported"]),
                "cos": cos,
                "overlap": verify.term_overlap(c["sentence"], text),
                "missing": verify.missing_facts(c["sentence"], text),
            }
        )
    return rows


def predict(row: dict, weight: float, threshold: float, hard: bool = True) -> bool:
    score = weight * row["cos"] + (1 - weight) * row["overlap"]
    return (not hard or not row["missing"]) and score >= threshold


def scores(rows: list[dict], weight: float, threshold: float, hard: bool = True) -> dict:
    """Accuracy and precision/recall/F1 for the class "unsupported"."""
    tp = fp = fn = tn = 0
    for r in rows:
        flagged = not predict(r, weight, threshold, hard)
        bad = not r["supported"]
        tp += flagged and bad
        fp += flagged and not bad
        fn += (not flagged) and bad
        tn += (not flagged) and not bad
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    return {"accuracy": (tp + tn) / len(rows), "precision": prec, "recall": rec, "f1": f1, "n": len(rows)}


def best_threshold(rows: list[dict], weight: float, hard: bool = True) -> float:
    """The threshold (0.30..0.95, step 0.01) with the best accuracy; ties go to the one nearest 0.6."""
    grid = [round(float(t), 2) for t in np.arange(0.30, 0.951, 0.01)]
    return max(grid, key=lambda t: (round(scores(rows, weight, t, hard)["accuracy"], 6), -abs(t - 0.6)))


def cross_validate(rows: list[dict], weight: float, folds: int = 5, seed: int = 0) -> dict:
    """5-fold cross-validation: the threshold is refit on 4/5 of the claims and scored on the rest."""
    idx = list(range(len(rows)))
    random.Random(seed).shuffle(idx)
    held = []
    for k in range(folds):
        test = set(idx[k::folds])
        t = best_threshold([rows[i] for i in idx if i not in test], weight)
        held += [dict(rows[i], cv_ok=predict(rows[i], weight, t)) for i in sorted(test)]
    tp = sum((not p["cv_ok"]) and not p["supported"] for p in held)
    fp = sum((not p["cv_ok"]) and p["supported"] for p in held)
    fn = sum(p["cv_ok"] and not p["supported"] for p in held)
    acc = sum(p["cv_ok"] == p["supported"] for p in held) / len(held)
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    return {"accuracy": acc, "precision": prec, "recall": rec}


def fmt(s: dict) -> str:
    return "accuracy {accuracy:.3f}  unsupported: precision {precision:.3f} recall {recall:.3f}".format(**s) + (
        f" F1 {s['f1']:.3f}" if "f1" in s else ""
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--claims", type=Path, default=HERE / "claims.jsonl")
    ap.add_argument("--show-errors", action="store_true", help="List the claims the current constants get wrong.")
    args = ap.parse_args()
    claims, abstracts = load_claims(args.claims)
    rows = features(claims, abstracts, get_embedder())
    n_bad = sum(not r["supported"] for r in rows)
    print(f"{len(rows)} claims ({n_bad} unsupported, {len(rows) - n_bad} supported)")

    print("\nEMBED_WEIGHT  best threshold  accuracy  5-fold CV accuracy (threshold refit per fold)")
    for w in (0.0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0):
        t = best_threshold(rows, w)
        print(f"  {w:4.2f}          {t:4.2f}           {scores(rows, w, t)['accuracy']:.3f}     "
              f"{cross_validate(rows, w)['accuracy']:.3f}")
    print(f"hard rule only (numbers and names must occur): {fmt(scores(rows, 0.0, 0.0))}")
    wn = verify.EMBED_WEIGHT
    print(f"score only, no hard rule (weight {wn}): {fmt(scores(rows, wn, best_threshold(rows, wn, False), hard=False))}")
    cw, ct = verify.EMBED_WEIGHT, verify.SUPPORT_THRESHOLD
    print(f"\ncurrent constants EMBED_WEIGHT={cw} SUPPORT_THRESHOLD={ct}: {fmt(scores(rows, cw, ct))}")
    print(f"  5-fold cross-validation (threshold refit per fold): {fmt(cross_validate(rows, cw))}")
    by_kind: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_kind[r["kind"]].append(r)
    for kind, group in sorted(by_kind.items()):
        right = sum(predict(r, cw, ct) == r["supported"] for r in group)
        print(f"  {kind:20s} {right:3d}/{len(group):<3d} right")
    if args.show_errors:
        for r in rows:
            if predict(r, cw, ct) != r["supported"]:
                score = cw * r["cos"] + (1 - cw) * r["overlap"]
                print(f"  wrong {r['id']} {r['kind']:18s} score {score:.3f} cos {r['cos']:.3f} "
                      f"overlap {r['overlap']:.3f} missing {r['missing']}")


if __name__ == "__main__":
    main()
