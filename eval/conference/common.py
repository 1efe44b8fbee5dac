"""Shared helpers (stdlib only) for the conference eval set."""

import glob
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "..", "shared")  # the repository's sibling folder ../shared
DATA = os.path.join(SHARED, "data", "icml2025_abstracts.jsonl")
SEEDMETA = os.path.join(SHARED, "data", "seed_metadata.jsonl")
SEEDS = os.path.join(SHARED, "seeds", "*.txt")


def norm(s):
    return re.sub(r"[^a-z0-9]", "", s.lower())


def load_papers():
    with open(DATA, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def seed_abstracts():
    out = []
    for fn in sorted(glob.glob(SEEDS)):
        txt = open(fn, encoding="utf-8").read()
        lines = txt.split("\n", 1)
        body = lines[1] if len(lines) > 1 else ""
        for chunk in re.split(r"\n\s*\n", body):
            if chunk.strip():
                out.append(chunk.strip())
    return out


def bundled_ids(papers=None):
    """Ids to exclude: seed_metadata openreview_ids + papers whose normalized abstract equals a seed abstract."""
    papers = papers or load_papers()
    ids = set()
    with open(SEEDMETA, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                ids.add(json.loads(line)["openreview_id"])
    seeds = {norm(a) for a in seed_abstracts()}
    for p in papers:
        if norm(p["abstract"]) in seeds:
            ids.add(p["id"])
    return ids
