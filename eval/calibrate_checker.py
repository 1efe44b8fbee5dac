"""Measure the citation checker (paperchat.cite.checker) on labelled claims: tune on dev, report test.

Each line of ``eval/claims/{dev,test}.jsonl`` is a sentence, the paper it
cites (``{"path", "index"}`` in the bundled corpus, or ``{"id"}`` of an ICML
2025 abstract in ../shared/data/icml2025_abstracts.jsonl), whether that
paper's abstract supports it, and the kind of claim: faithful, verbatim,
changed-number, negation, swapped-entity, unmentioned, wrong-source,
certainty. The test split was written by someone who had not read the
checker, before the checker was changed, and is only reported, never tuned on.

Every claim is checked as an answer sentence citing [1] = the whole abstract,
with :class:`paperchat.cite.checker.SupportChecker` as ``ask`` uses it
(``--checker lexical``: the earlier rules-only checker). The script prints
accuracy, precision / recall / F1 for the class "unsupported" (the checker's
⚠), each kind's recall, which layer decided (verbatim quote, missing fact,
learned verifier), the time to load the verifier and the warm time to check a
six-sentence answer. ``--curve`` prints the figures for every verifier
threshold (choose it on dev, never on test) and the coverage of "unsure"
bands around the threshold.

    python eval/calibrate_checker.py                 # the test split
    python eval/calibrate_checker.py --split dev --curve --show-errors
    python eval/calibrate_checker.py --file eval/claims/heldout.jsonl
    python eval/calibrate_checker.py --split test --checker lexical --json > checker_test.json
    OPENAI_BASE_URL=http://127.0.0.1:8080/v1 PAPERCHAT_LLM_MODEL=NAME python eval/calibrate_checker.py --llm

``--llm`` also asks the configured LLM (settings as for ``paperchat ask``) to
judge every claim with ``prompts/verify.txt``, one request per claim
(verdicts are cached), and reports the LLM alone and combined with the
offline checker (unsupported when either says so).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared" / "data"
KINDS = (
    "faithful",
    "verbatim",
    "changed-number",
    "negation",
    "swapped-entity",
    "unmentioned",
    "wrong-source",
    "certainty",
)


def load_claims(split: str, path: Path | None = None) -> list[dict]:
    """The claims of ``split`` (``dev``, ``test`` or ``all``), or of the claims file ``path``, with ``abstract``
    (the cited paper's text) and ``corpus`` added."""
    from paperchat.ingest.corpus import bundled_corpus_files, load_file

    paths = (
        [path]
        if path
        else [
            HERE / "claims" / f"{name}.jsonl"
            for name in (("dev", "test") if split == "all" else (split,))
        ]
    )
    claims = [
        json.loads(line)
        for p in paths
        for line in p.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    seeds = {
        (p.source_path, p.source_index): p.abstract
        for f in bundled_corpus_files()
        for p in load_file(f)[0]
    }
    conference: dict[str, str] = {}
    if any("id" in c["cited"] for c in claims):
        path = SHARED / "icml2025_abstracts.jsonl"
        if not path.is_file():
            sys.exit(f"error: {path} is missing (the conference claims cite its abstracts)")
        conference = {
            row["id"]: row["abstract"]
            for row in map(json.loads, path.read_text(encoding="utf-8").splitlines())
        }
    for c in claims:
        cited = c["cited"]
        c["abstract"] = (
            conference[cited["id"]]
            if "id" in cited
            else seeds[(cited["path"], int(cited["index"]))]
        )
        c["corpus"] = "conference" if "id" in cited else "bundled"
    return claims


def judge(claims: list[dict], checker) -> list[dict]:
    """Each claim with ``flagged`` (the checker's ⚠), ``score``, ``missing``, ``conflict``, ``layer`` (what
    decided: ``quote``; ``rules`` when the rules flag it (every claim of the rules-only checker); else
    ``verifier``) and ``p`` (the verifier's P(supported) for the claims it decides, else ``None``) added."""
    from paperchat.cite.checker import is_quote

    for c in claims:
        check = checker.check_sentence(c["sentence"].rstrip() + " [1]", [c["abstract"]])
        c.update(
            flagged=not check.supported,
            score=check.score,
            missing=check.missing,
            conflict=check.conflict,
            p=None,
        )
        by_verifier = (check.conflict or "").startswith("the learned verifier")
        if checker.learned and is_quote(c["sentence"], [c["abstract"]]):
            c["layer"] = "quote"
        elif not checker.learned or (c["flagged"] and not by_verifier):
            c["layer"] = "rules"
        else:
            c["layer"] = "verifier"
    passed = [c for c in claims if c["layer"] == "verifier"]
    for c, p in zip(
        passed,
        checker.verifier_scores([c["sentence"] for c in passed], [[c["abstract"]] for c in passed]),
    ):
        c["p"] = p
    return claims


def curve(
    rows: list[dict],
    thresholds=(0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9),
) -> list[dict]:
    """Figures for each verifier threshold ``t``: a claim the rules pass is flagged when ``p < t``."""
    out = []
    for t in thresholds:
        moved = [
            dict(r, flagged=r["flagged"] if r["layer"] != "verifier" else r["p"] < t) for r in rows
        ]
        out.append({"threshold": t, **confusion(moved)})
    return out


def unsure_bands(rows: list[dict], threshold: float, factors=(2, 3, 5)) -> list[dict]:
    """For each factor ``f``: the share of claims decided outside the band ``[threshold / f, threshold * f]``
    of the verifier's P(supported) (coverage) and the figures on those."""
    out = []
    for f in factors:
        lo, hi = threshold / f, min(1.0, threshold * f)
        sure = [r for r in rows if r["layer"] != "verifier" or not lo <= r["p"] <= hi]
        out.append(
            {
                "band": [round(lo, 4), round(hi, 4)],
                "coverage": len(sure) / len(rows),
                **confusion(sure),
            }
        )
    return out


def recall_by_kind(rows: list[dict]) -> dict[str, dict]:
    """Per kind: claims, right verdicts, flagged, and the share right (recall for unsupported kinds)."""
    kinds = [k for k in KINDS if any(r["kind"] == k for r in rows)] + sorted(
        {r["kind"] for r in rows} - set(KINDS)
    )
    out = {}
    for k in kinds:
        group = [r for r in rows if r["kind"] == k]
        right = sum(r["flagged"] != r["supported"] for r in group)
        out[k] = {
            "n": len(group),
            "right": right,
            "flagged": sum(r["flagged"] for r in group),
            "share_right": right / len(group),
            "supported": all(r["supported"] for r in group),
        }
    return out


def load_seconds() -> float:
    """Seconds to load the verifier's model and tokenizer (a fresh instance, as the first checked answer does)."""
    from paperchat.cite.verifier import Verifier

    t0 = time.perf_counter()
    Verifier().load()
    return time.perf_counter() - t0


def judge_llm(claims: list[dict]) -> list[dict]:
    """Each claim with ``llm`` (the LLM's verdict: ``True`` supported, ``False`` not, ``None`` no verdict) and
    ``combined`` (flagged by the offline checker or the LLM) added."""
    from paperchat.answer.llm_verify import llm_verdicts
    from paperchat.core.contract import SentenceCheck
    from paperchat.core.settings import load_settings

    settings = load_settings({})
    for c in claims:
        check = SentenceCheck(c["sentence"].rstrip() + " [1]", [1], True, 1.0)
        _judged, verdicts, _cached = llm_verdicts([check], {1: c["abstract"]}, settings)
        c["llm"] = verdicts.get(1)
        c["combined"] = c["flagged"] or c["llm"] is False
    return claims


def confusion(rows: list[dict], key: str = "flagged") -> dict:
    """Accuracy, and precision / recall / F1 for "unsupported" (a flagged sentence is a positive)."""
    tp = sum(r[key] and not r["supported"] for r in rows)
    fp = sum(r[key] and r["supported"] for r in rows)
    fn = sum(not r[key] and not r["supported"] for r in rows)
    tn = sum(not r[key] and r["supported"] for r in rows)
    prec = tp / (tp + fp) if tp + fp else None
    rec = tp / (tp + fn) if tp + fn else None
    f1 = 2 * prec * rec / (prec + rec) if prec and rec else None
    return {
        "n": len(rows),
        "accuracy": (tp + tn) / len(rows) if rows else None,
        "precision": prec,
        "recall": rec,
        "f1": f1,
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
    }


def answer_check_ms(claims: list[dict], checker, repeats: int = 20) -> float:
    """Median warm milliseconds to check a six-sentence answer, each sentence citing its own abstract.

    The sentences are the first six claims the learned verifier (not a rule) decides, the slow case."""
    picked = [c for c in claims if c["layer"] == "verifier"][:6] or claims[:6]
    sources = {i: c["abstract"] for i, c in enumerate(picked, 1)}
    answer = " ".join(c["sentence"].rstrip() + f" [{i}]" for i, c in enumerate(picked, 1))
    checker.verify_answer(answer, sources)  # warm: model loaded, source vectors cached
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        checker.verify_answer(answer, sources)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def fmt(s: dict) -> str:
    def f(x):
        return "  –  " if x is None else f"{x:.3f}"

    return f"accuracy {f(s['accuracy'])}  unsupported: precision {f(s['precision'])} recall {f(s['recall'])} F1 {f(s['f1'])}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("dev", "test", "all"), default="test")
    ap.add_argument(
        "--file",
        type=Path,
        help="A claims file to measure instead of a split (e.g. eval/claims/heldout.jsonl).",
    )
    ap.add_argument(
        "--checker",
        choices=("learned", "lexical"),
        default="learned",
        help="The checker as shipped (learned) or the earlier rules-only one (lexical).",
    )
    ap.add_argument(
        "--threshold",
        type=float,
        default=None,
        help="The verifier threshold (default: the checker's).",
    )
    ap.add_argument(
        "--curve",
        action="store_true",
        help="Print the figures at every verifier threshold and the coverage of unsure bands.",
    )
    ap.add_argument(
        "--show-errors", action="store_true", help="List the claims the checker gets wrong."
    )
    ap.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    ap.add_argument(
        "--llm", action="store_true", help="Also judge every claim with the configured LLM."
    )
    args = ap.parse_args()

    from paperchat.cite.checker import SupportChecker
    from paperchat.ingest.embedding import get_embedder

    if args.file and not args.file.is_file():
        sys.exit(f"error: {args.file} is not a file")
    learned = args.checker == "learned"
    seconds_to_load = load_seconds() if learned else None
    checker = SupportChecker(get_embedder(), learned=learned)
    if args.threshold is not None:
        checker.verifier_threshold = args.threshold
    name = str(args.file) if args.file else args.split
    rows = judge(load_claims(args.split, args.file), checker)
    by_kind: dict[str, list[dict]] = defaultdict(list)
    by_corpus: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_kind[r["kind"]].append(r)
        by_corpus[r["corpus"]].append(r)
    result = {
        "claims": name,
        "checker": args.checker,
        "threshold": checker.verifier_threshold if learned else checker.threshold,
        "overall": confusion(rows),
        "by_kind": recall_by_kind(rows),
        "by_corpus": {k: confusion(v) for k, v in sorted(by_corpus.items())},
        "by_layer": {
            k: confusion([r for r in rows if r["layer"] == k])
            for k in ("quote", "rules", "verifier")
            if any(r["layer"] == k for r in rows)
        },
        "verifier_load_s": None if seconds_to_load is None else round(seconds_to_load, 3),
        "six_sentence_check_ms": round(answer_check_ms(rows, checker), 2),
    }
    if args.curve and learned:
        result["curve"] = curve(rows)
        result["unsure"] = unsure_bands(rows, checker.verifier_threshold)
    if args.llm:
        judge_llm(rows)
        given = [dict(r, llm_flag=r["llm"] is False) for r in rows if r["llm"] is not None]
        result["llm"] = {
            "verdicts": len(given),
            "alone": confusion(given, "llm_flag") if given else None,
            "combined": confusion(rows, "combined"),
            "combined_by_kind": {k: confusion(by_kind[k], "combined") for k in by_kind},
        }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    report(result, rows, args.show_errors)


def report(result: dict, rows: list[dict], show_errors: bool) -> None:
    """Print ``result`` (from :func:`main`) as text."""
    n_bad = sum(not r["supported"] for r in rows)
    print(
        f"{result['claims']}: {len(rows)} claims ({n_bad} unsupported, {len(rows) - n_bad} supported); "
        f"checker {result['checker']}, threshold {result['threshold']}"
    )
    print(f"overall: {fmt(result['overall'])}")
    for name, stats in result["by_corpus"].items():
        print(f"  {name:12s} {fmt(stats)}  (n={stats['n']})")
    print(f"\n{'kind':16s} {'n':>4s} {'right':>6s} {'flagged':>8s}  share right")
    for kind, k in result["by_kind"].items():
        what = "kept" if k["supported"] else "recall"
        print(
            f"{kind:16s} {k['n']:4d} {k['right']:6d} {k['flagged']:8d}  {k['share_right']:.3f} ({what})"
        )
    print("\ndecided by:")
    for layer, stats in result["by_layer"].items():
        print(
            f"  {layer:9s} n={stats['n']:4d}  flagged {stats['tp'] + stats['fp']:4d}  right "
            f"{stats['tp'] + stats['tn']:4d}"
        )
    if "curve" in result:
        print("\nverifier threshold curve (claims the rules flag or quote keep their verdict):")
        print(f"  {'t':>6s} {'acc':>6s} {'prec':>6s} {'rec':>6s} {'F1':>6s} {'fp':>4s} {'fn':>4s}")
        for c in result["curve"]:
            print(
                f"  {c['threshold']:6.3f} {c['accuracy']:6.3f} {c['precision'] or 0:6.3f} {c['recall'] or 0:6.3f} "
                f"{c['f1'] or 0:6.3f} {c['fp']:4d} {c['fn']:4d}"
            )
        print("\nunsure band (verdicts inside it withheld): coverage and figures on the rest")
        for b in result["unsure"]:
            print(f"  {b['band']}: coverage {b['coverage']:.3f}  {fmt(b)}")
    if result["verifier_load_s"] is not None:
        print(f"\nloading the verifier: {result['verifier_load_s'] * 1000:.0f} ms")
    print(
        f"checking a six-sentence answer (warm): {result['six_sentence_check_ms']:.1f} ms (median of 20)"
    )
    if "llm" in result:
        llm = result["llm"]
        print(f"\nLLM verifier: {llm['verdicts']} of {len(rows)} claims got a verdict")
        if llm["alone"]:
            print(f"  LLM alone (claims with a verdict): {fmt(llm['alone'])}")
        print(f"  offline or LLM flags:              {fmt(llm['combined'])}")
    if show_errors:
        print("\nwrong verdicts:")
        for r in rows:
            if r["flagged"] == r["supported"]:
                what = (
                    "flagged a supported claim" if r["flagged"] else "missed an unsupported claim"
                )
                p = "" if r["p"] is None else f" P {r['p']:.3f}"
                print(
                    f"  {r['id']} {r['kind']:15s} {what} ({r['layer']}): score {r['score']:.3f}{p} missing "
                    f"{r['missing']} {r['conflict'] or ''}\n      {r['sentence']}"
                )


if __name__ == "__main__":
    main()
