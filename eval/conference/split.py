#!/usr/bin/env python3
"""Split questions.jsonl once into dev/test (50/50), stratified.

Strata: kind for answerable questions; for unanswerable questions the sub-type
at the start of the note (off-topic / near-miss / false-premise). Within each
stratum (processed in sorted order) the questions are shuffled with
random.Random(20261202); the first half goes to dev, the rest to test. For an
odd-sized stratum the extra question alternates between dev and test from one
odd stratum to the next, so the totals stay balanced.
Writes dev.jsonl and test.jsonl (question order as in questions.jsonl, plus a
"split" field). Stdlib only. Usage: python3 split.py
"""

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import HERE

SEED = 20261202


def stratum(q):
    if q["kind"] == "unanswerable":
        return "unanswerable/" + q.get("note", "").split(":")[0].strip()
    return q["kind"]


def main():
    rng = random.Random(SEED)
    with open(os.path.join(HERE, "questions.jsonl"), encoding="utf-8") as f:
        qs = [json.loads(line) for line in f if line.strip()]
    strata = {}
    for q in qs:
        strata.setdefault(stratum(q), []).append(q["id"])
    assign = {}
    extra_to_dev = True
    for name in sorted(strata):
        ids = list(strata[name])
        rng.shuffle(ids)
        n_dev = len(ids) // 2
        if len(ids) % 2:
            if extra_to_dev:
                n_dev += 1
            extra_to_dev = not extra_to_dev
        for i, qid in enumerate(ids):
            assign[qid] = "dev" if i < n_dev else "test"
    for part in ("dev", "test"):
        with open(os.path.join(HERE, f"{part}.jsonl"), "w", encoding="utf-8") as f:
            for q in qs:
                if assign[q["id"]] == part:
                    out = dict(q)
                    out["split"] = part
                    f.write(json.dumps(out, ensure_ascii=False) + "\n")
    for name in sorted(strata):
        d = sum(assign[i] == "dev" for i in strata[name])
        print(f"{name:28s} dev {d:3d}  test {len(strata[name]) - d:3d}")
    print(
        "total dev",
        sum(v == "dev" for v in assign.values()),
        "test",
        sum(v == "test" for v in assign.values()),
    )


if __name__ == "__main__":
    main()
