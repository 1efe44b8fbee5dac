#!/usr/bin/env python3
"""Seeded, stratified sample of ICML 2025 papers for the eval question set.

Strata: presentation (oral / spotlight / poster) x file block (10 equal blocks by
line position). Bundled (seed) papers are excluded. Target: 170 papers, with
15 orals, 20 spotlights (floors above their proportional share) and the rest
posters. Within a presentation type, the quota is spread over the 10 blocks in
proportion to how many eligible papers of that type each block holds (largest
remainder), then drawn with random.sample inside each cell. The final list is
shuffled with the same RNG: that shuffled order is "the sample's order" used
when writing questions.
Stdlib only. Usage: python3 sample.py  -> prints ids, writes sample.json
"""

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import HERE, bundled_ids, load_papers

SEED = 20261201
TOTAL = 170
FLOORS = {"oral": 15, "spotlight": 20}
NBLOCKS = 10


def largest_remainder(weights, total):
    s = sum(weights)
    raw = [w * total / s for w in weights]
    base = [int(r) for r in raw]
    rest = total - sum(base)
    order = sorted(range(len(raw)), key=lambda i: (-(raw[i] - base[i]), i))
    for i in order[:rest]:
        base[i] += 1
    return base


def main():
    rng = random.Random(SEED)
    papers = load_papers()
    excl = bundled_ids(papers)
    n = len(papers)
    cells = {}  # (pres, block) -> list of (pos, paper)
    for pos, p in enumerate(papers):
        if p["id"] in excl:
            continue
        block = pos * NBLOCKS // n
        cells.setdefault((p["presentation"], block), []).append((pos, p))
    pres_counts = {}
    for (pr, _b), lst in cells.items():
        pres_counts[pr] = pres_counts.get(pr, 0) + len(lst)
    eligible = sum(pres_counts.values())
    # quotas per presentation: proportional, with floors
    quota = {
        pr: max(FLOORS.get(pr, 0), round(TOTAL * c / eligible)) for pr, c in pres_counts.items()
    }
    quota["poster"] = TOTAL - sum(v for k, v in quota.items() if k != "poster")
    sample = []
    for pr in sorted(quota):
        weights = [len(cells.get((pr, b), [])) for b in range(NBLOCKS)]
        alloc = largest_remainder(weights, quota[pr])
        for b in range(NBLOCKS):
            pool = cells.get((pr, b), [])
            k = min(alloc[b], len(pool))
            for pos, p in rng.sample(pool, k):
                sample.append(
                    {
                        "id": p["id"],
                        "position": pos,
                        "block": b,
                        "presentation": pr,
                        "title": p["title"],
                    }
                )
    rng.shuffle(sample)
    for i, s in enumerate(sample):
        s["order"] = i
    out = {
        "seed": SEED,
        "total": len(sample),
        "quota": quota,
        "excluded_bundled": sorted(excl),
        "papers": sample,
    }
    with open(os.path.join(HERE, "sample.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
    for s in sample:
        print(s["id"])
    from collections import Counter

    print(
        "quota",
        quota,
        "blocks",
        sorted(Counter(s["block"] for s in sample).items()),
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
