"""Measure the citation checker (paperchat.cite.checker) on labelled claims: tune on dev, report test.

Each line of ``eval/claims/{dev,test}.jsonl`` is a sentence, the paper it
cites (``{"path", "index"}`` in the bundled corpus, or ``{"id"}`` of an ICML
2025 abstract in ../shared/data/icml2025_abstracts.jsonl), whether that
paper's abstract supports it, and the kind of claim: faithful, verbatim,
changed-number, negation, swapped-entity, unmentioned, wrong-source,
certainty. The test split was written by someone who had not read the
checker, before the checker was changed, and is only reported, never tuned on.

Every claim is checked as an answer sentence citing [1] = the whole abstract,
with :class:`paperchat.cite.checker.SupportChecker` as ``ask`` uses it. The
script prints accuracy, precision / recall / F1 for the class "unsupported"
(the checker's ⚠), the confusion by kind, and the warm time to check a
six-sentence answer.

    python eval/calibrate_checker.py                 # the test split
    python eval/calibrate_checker.py --split dev --show-errors
    python eval/calibrate_checker.py --split test --json > checker_test.json
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
KINDS = ("faithful", "verbatim", "changed-number", "negation", "swapped-entity", "unmentioned", "wrong-source",
         "certainty")


def load_claims(split: str) -> list[dict]:
    """The claims of ``split`` (``dev``, ``test`` or ``all``), with ``abstract`` (the cited paper's text) added."""
    from paperchat.ingest.corpus import bundled_corpus_files, load_file

    names = ("dev", "test") if split == "all" else (split,)
    claims = [json.loads(line) for name in names
              for line in (HERE / "claims" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    seeds = {(p.source_path, p.source_index): p.abstract for f in bundled_corpus_files() for p in load_file(f)[0]}
    conference: dict[str, str] = {}
    if any("id" in c["cited"] for c in claims):
        path = SHARED / "icml2025_abstracts.jsonl"
        if not path.is_file():
            sys.exit(f"error: {path} is missing (the conference claims cite its abstracts)")
        conference = {row["id"]: row["abstract"] for row in map(json.loads, path.read_text(encoding="utf-8").splitlines())}
    for c in claims:
        cited = c["cited"]
        c["abstract"] = conference[cited["id"]] if "id" in cited else seeds[(cited["path"], int(cited["index"]))]
        c["corpus"] = "conference" if "id" in cited else "bundled"
    return claims


def judge(claims: list[dict], checker) -> list[dict]:
    """Each claim with ``flagged`` (the checker's ⚠), ``score`` and ``missing`` added."""
    for c in claims:
        check = checker.check_sentence(c["sentence"].rstrip() + " [1]", [c["abstract"]])
        c.update(flagged=not check.supported, score=check.score, missing=check.missing)
    return claims


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
    return {"n": len(rows), "accuracy": (tp + tn) / len(rows) if rows else None, "precision": prec, "recall": rec,
            "f1": f1, "tp": tp, "fp": fp, "fn": fn, "tn": tn}


def answer_check_ms(claims: list[dict], checker, repeats: int = 20) -> float:
    """Median warm milliseconds to check a six-sentence answer citing two abstracts."""
    picked = claims[:6]
    sources = {1: picked[0]["abstract"], 2: picked[1]["abstract"]}
    answer = " ".join(c["sentence"].rstrip() + f" [{1 + i % 2}]" for i, c in enumerate(picked))
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
    ap.add_argument("--show-errors", action="store_true", help="List the claims the checker gets wrong.")
    ap.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    ap.add_argument("--llm", action="store_true", help="Also judge every claim with the configured LLM.")
    args = ap.parse_args()

    from paperchat.cite.checker import SupportChecker
    from paperchat.ingest.embedding import get_embedder

    checker = SupportChecker(get_embedder())
    rows = judge(load_claims(args.split), checker)
    by_kind: dict[str, list[dict]] = defaultdict(list)
    by_corpus: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_kind[r["kind"]].append(r)
        by_corpus[r["corpus"]].append(r)
    result = {
        "split": args.split,
        "overall": confusion(rows),
        "by_kind": {k: confusion(by_kind[k]) for k in KINDS if k in by_kind},
        "by_corpus": {k: confusion(v) for k, v in sorted(by_corpus.items())},
        "six_sentence_check_ms": round(answer_check_ms(rows, checker), 2),
    }
    if args.llm:
        judge_llm(rows)
        given = [dict(r, llm_flag=r["llm"] is False) for r in rows if r["llm"] is not None]
        result["llm"] = {"verdicts": len(given), "alone": confusion(given, "llm_flag") if given else None,
                         "combined": confusion(rows, "combined"),
                         "combined_by_kind": {k: confusion(by_kind[k], "combined") for k in KINDS if k in by_kind}}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    n_bad = sum(not r["supported"] for r in rows)
    print(f"{args.split}: {len(rows)} claims ({n_bad} unsupported, {len(rows) - n_bad} supported)")
    print(f"overall: {fmt(result['overall'])}")
    for name, stats in result["by_corpus"].items():
        print(f"  {name:12s} {fmt(stats)}  (n={stats['n']})")
    print(f"\n{'kind':16s} {'n':>4s} {'right':>6s} {'flagged':>8s}")
    for kind, group in by_kind.items():
        right = sum(r["flagged"] != r["supported"] for r in group)
        print(f"{kind:16s} {len(group):4d} {right:6d} {sum(r['flagged'] for r in group):8d}")
    print(f"\nchecking a six-sentence answer (warm): {result['six_sentence_check_ms']:.1f} ms (median of 20)")
    if args.llm:
        llm = result["llm"]
        print(f"\nLLM verifier: {llm['verdicts']} of {len(rows)} claims got a verdict")
        if llm["alone"]:
            print(f"  LLM alone (claims with a verdict): {fmt(llm['alone'])}")
        print(f"  offline or LLM flags:              {fmt(llm['combined'])}")
    if args.show_errors:
        print("\nwrong verdicts:")
        for r in rows:
            if r["flagged"] == r["supported"]:
                what = "flagged a supported claim" if r["flagged"] else "missed an unsupported claim"
                print(f"  {r['id']} {r['kind']:15s} {what}: score {r['score']:.3f} missing {r['missing']}\n"
                      f"      {r['sentence']}")


if __name__ == "__main__":
    main()
