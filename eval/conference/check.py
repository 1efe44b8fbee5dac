#!/usr/bin/env python3
"""Checks questions.jsonl (and dev.jsonl / test.jsonl if present).

Verifies:
 - ids cq001.. in file order, required fields, kinds, minimum counts, >=20% unanswerable;
 - every gold id exists in the abstracts file and is not bundled (seed) paper;
 - answerable questions: every fact group has a variant (case-insensitive substring)
   in the gold abstract (metadata: in title/authors); facts short (<=4 words);
 - no run of 8+ consecutive words shared by a question and its gold abstract(s)
   (also the named paper of a false-premise question);
 - near-miss names occur nowhere in the file (case-insensitive, whole token);
 - off-topic 'verify-regex' patterns have zero hits in titles+abstracts;
 - multi-paper gold sets have 2-6 distinct papers;
 - single-paper questions come from sample.json;
 - dev/test: disjoint, union = questions, split field, ~50% per kind/sub-type;
 - prints counts by kind (and sub-type) and split.
Stdlib only. Exit code 1 on any failure.
"""

import json
import os
import re
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import HERE, bundled_ids, load_papers

MIN = {
    "lookup": 50,
    "paraphrase": 40,
    "multi-paper": 25,
    "summary": 25,
    "metadata": 10,
    "unanswerable": 50,
}
MIN_SUB = {"off-topic": 15, "near-miss": 15, "false-premise": 15}
errors = []


def err(msg):
    errors.append(msg)


def words(s):
    return re.findall(r"[a-z0-9]+", s.lower())


def ngrams(ws, n=8):
    return {tuple(ws[i : i + n]) for i in range(len(ws) - n + 1)}


def subtype(q):
    if q["kind"] != "unanswerable":
        return q["kind"]
    return q.get("note", "").split(":")[0].strip()


def load(fn):
    with open(os.path.join(HERE, fn), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def main():
    papers = load_papers()
    P = {p["id"]: p for p in papers}
    bundled = bundled_ids(papers)
    corpus = "\n".join(p["title"] + "\n" + p["abstract"] for p in papers)
    sample = json.load(open(os.path.join(HERE, "sample.json"), encoding="utf-8"))
    sample_ids = {s["id"] for s in sample["papers"]}
    qs = load("questions.jsonl")

    for i, q in enumerate(qs, 1):
        qid = q.get("id")
        if qid != f"cq{i:03d}":
            err(f"{qid}: expected id cq{i:03d}")
        for k in ("question", "kind", "answerable", "gold", "facts"):
            if k not in q:
                err(f"{qid}: missing field {k}")
        kind = q["kind"]
        if kind not in MIN:
            err(f"{qid}: unknown kind {kind}")
        gold = [g["id"] for g in q["gold"]]
        for g in gold:
            if g not in P:
                err(f"{qid}: gold id {g} not in file")
            elif g in bundled:
                err(f"{qid}: gold id {g} is a bundled paper")
        if q["answerable"]:
            if kind == "unanswerable":
                err(f"{qid}: unanswerable kind marked answerable")
            if not gold:
                err(f"{qid}: answerable without gold")
            if kind == "multi-paper":
                if not (2 <= len(set(gold)) <= 6):
                    err(f"{qid}: multi-paper gold size {len(set(gold))}")
            else:
                if len(gold) != 1:
                    err(f"{qid}: single-paper kind with {len(gold)} gold")
                if gold and gold[0] not in sample_ids:
                    err(f"{qid}: gold {gold[0]} not in sample.json")
                if not q["facts"]:
                    err(f"{qid}: no facts")
            for grp in q["facts"]:
                if not grp:
                    err(f"{qid}: empty fact group")
                for v in grp:
                    if len(v.split()) > 4:
                        err(f"{qid}: fact variant too long: {v!r}")
                ok = False
                for g in gold:
                    if g not in P:
                        continue
                    p = P[g]
                    hay = (
                        (p["title"] + " " + " ".join(p["authors"]))
                        if kind == "metadata"
                        else p["abstract"]
                    )
                    if any(v.lower() in hay.lower() for v in grp):
                        ok = True
                if not ok:
                    err(
                        f"{qid}: fact group {grp} not found in gold {'title/authors' if kind == 'metadata' else 'abstract'}"
                    )
        else:
            if gold or q["facts"]:
                err(f"{qid}: unanswerable must have empty gold and facts")
            st = subtype(q)
            if st not in MIN_SUB:
                err(f"{qid}: unanswerable note must start with a sub-type, got {st!r}")
        # 8-word overlap with gold abstracts (and false-premise target paper)
        check_ids = list(gold)
        if subtype(q) == "false-premise":
            m = re.search(r"real paper (\S+)", q.get("note", ""))
            if not m or m.group(1) not in P:
                err(f"{qid}: false-premise note lacks a real paper id")
            else:
                check_ids.append(m.group(1))
                if m.group(1) in bundled:
                    err(f"{qid}: false-premise paper is bundled")
        qg = ngrams(words(q["question"]))
        for g in check_ids:
            if g in P:
                ov = qg & ngrams(words(P[g]["abstract"]))
                if ov:
                    err(f"{qid}: 8-word overlap with {g}: {' '.join(sorted(ov)[0])}")
        # near-miss
        if subtype(q) == "near-miss":
            m = re.search(r"made-up name:\s*(\S+)", q.get("note", ""))
            if not m:
                err(f"{qid}: near-miss note lacks the made-up name")
            else:
                name = m.group(1)
                if name.lower() not in q["question"].lower():
                    err(f"{qid}: near-miss name {name} not in question")
                pat = r"(?<![A-Za-z0-9])" + re.escape(name) + r"(?![A-Za-z0-9])"
                hits = re.findall(pat, corpus, re.I)
                if hits:
                    err(f"{qid}: near-miss name {name} occurs {len(hits)}x in file")
        if subtype(q) == "off-topic":
            m = re.search(r"verify-regex:\s*(.+)$", q.get("note", ""))
            if m:
                hits = [
                    p["id"]
                    for p in papers
                    if re.search(m.group(1), p["title"] + "\n" + p["abstract"], re.I)
                ]
                if hits:
                    err(f"{qid}: off-topic regex {m.group(1)!r} hits {hits[:5]}")

    kinds = Counter(q["kind"] for q in qs)
    subs = Counter(subtype(q) for q in qs if q["kind"] == "unanswerable")
    for k, n in MIN.items():
        if kinds[k] < n:
            err(f"kind {k}: {kinds[k]} < {n}")
    for k, n in MIN_SUB.items():
        if subs[k] < n:
            err(f"unanswerable/{k}: {subs[k]} < {n}")
    if kinds["unanswerable"] < 0.2 * len(qs):
        err(f"unanswerable share {kinds['unanswerable']}/{len(qs)} < 20%")
    if len(qs) < 200:
        err(f"only {len(qs)} questions")
    # duplicate questions
    dup = [k for k, v in Counter(q["question"] for q in qs).items() if v > 1]
    if dup:
        err(f"duplicate questions: {dup}")

    # splits
    split_counts = defaultdict(Counter)
    have_split = all(os.path.exists(os.path.join(HERE, f)) for f in ("dev.jsonl", "test.jsonl"))
    if have_split:
        dev, test = load("dev.jsonl"), load("test.jsonl")
        byid = {q["id"]: q for q in qs}
        seen = set()
        for name, part in (("dev", dev), ("test", test)):
            for q in part:
                if q.get("split") != name:
                    err(f"{q['id']}: split field {q.get('split')} in {name}.jsonl")
                if q["id"] in seen:
                    err(f"{q['id']}: in both splits")
                seen.add(q["id"])
                base = {k: v for k, v in q.items() if k != "split"}
                if byid.get(q["id"]) != base:
                    err(f"{q['id']}: differs from questions.jsonl")
                split_counts[subtype(q)][name] += 1
        if seen != set(byid):
            err("dev+test do not cover questions.jsonl exactly")
        for st, c in split_counts.items():
            if abs(c["dev"] - c["test"]) > 1:
                err(f"split imbalance for {st}: {dict(c)}")
    else:
        err("dev.jsonl/test.jsonl missing (run split.py)")

    print(f"questions: {len(qs)}; unanswerable share {kinds['unanswerable'] / len(qs):.1%}")
    print(f"{'kind/sub-type':16s} {'total':>5s} {'dev':>5s} {'test':>5s}")
    for k in ["lookup", "paraphrase", "multi-paper", "summary", "metadata"]:
        print(f"{k:16s} {kinds[k]:5d} {split_counts[k]['dev']:5d} {split_counts[k]['test']:5d}")
    for k in ["off-topic", "near-miss", "false-premise"]:
        print(
            f"{'unans/' + k:16s} {subs[k]:5d} {split_counts[k]['dev']:5d} {split_counts[k]['test']:5d}"
        )
    tot_dev = sum(c["dev"] for c in split_counts.values())
    tot_test = sum(c["test"] for c in split_counts.values())
    print(f"{'ALL':16s} {len(qs):5d} {tot_dev:5d} {tot_test:5d}")
    lk = Counter(q["note"].split(";")[0] for q in qs if q["kind"] == "lookup")
    print("lookup sub-types:", dict(lk))
    if errors:
        print(f"\nFAILED: {len(errors)} problem(s)")
        for e in errors:
            print(" -", e)
        sys.exit(1)
    print("\nALL CHECKS PASSED")


if __name__ == "__main__":
    main()
