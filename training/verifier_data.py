"""Synthetic (claim, cited abstract) pairs for the citation verifier, from the ICML 2025 abstracts.

Supported claims: a verbatim sentence, a third-person rewording, a
compression, a fusion of two sentences of one abstract. Unsupported claims:
negation (antonyms, removed or added negation), a swapped number, swapped
entities of one abstract, a swapped comparison, inflated certainty, an added
detail the abstract lacks, a true sentence cited to a similar but wrong
abstract. Half the claims of each abstract are supported. Papers that any
labelled claim set cites (``eval/claims/*.jsonl``, bundled papers mapped to
their OpenReview ids with ``data/seed_metadata.jsonl``) and the papers in
``training/excluded_papers.txt`` (kept for held-out claims) are left out.
"""

from __future__ import annotations

import json
import random
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

from training import claim_edits as ed

SUPPORTED_KINDS = {
    "verbatim": 0.08,
    "reworded": 0.22,
    "compressed": 0.2,
    "fused": 0.22,
    "restated": 0.1,
    "summarised": 0.18,
}
UNSUPPORTED_KINDS = {
    "negation": 0.2,
    "swapped-entity": 0.17,
    "comparison": 0.1,
    "certainty": 0.14,
    "unmentioned": 0.17,
    "changed-number": 0.08,
    "wrong-source": 0.14,
}


@dataclass(frozen=True)
class Claim:
    """A synthetic claim: its sentence, the paper it cites (whose abstract is the evidence), label and kind."""

    sentence: str
    cited: str
    supported: bool
    kind: str


def excluded_ids(root: Path) -> set[str]:
    """OpenReview ids of papers the training data must not use (see the module docstring)."""
    seeds = {
        (m["seed_file"], int(m["index"])): m["openreview_id"]
        for m in map(
            json.loads,
            (root / "data" / "seed_metadata.jsonl").read_text(encoding="utf-8").splitlines(),
        )
        if m.get("openreview_id")
    }
    out = set(seeds.values())  # every bundled paper: the eval questions and claims are about them
    for path in sorted((root / "eval" / "claims").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                cited = json.loads(line)["cited"]
                out.add(
                    cited["id"]
                    if "id" in cited
                    else seeds.get((cited["path"], int(cited["index"])), "")
                )
    listed = root / "training" / "excluded_papers.txt"
    out |= set(listed.read_text(encoding="utf-8").split())
    return out - {""}


def usable(sentence: str) -> bool:
    """A sentence fit to become a claim: 8 to 50 words, starts with a capital, little LaTeX."""
    words = sentence.split()
    return (
        8 <= len(words) <= 50
        and sentence[:1].isupper()
        and sentence.count("$") <= 2
        and "http" not in sentence
    )


def _pick(rng: random.Random, weights: dict[str, float]) -> str:
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def claims_for(
    paper: dict,
    sentences: list[str],
    neighbours: list[str],
    sentences_of: dict[str, list[str]],
    per_paper: int,
    seed: int,
) -> list[Claim]:
    """``per_paper`` claims citing ``paper`` (half supported, alternating), each made by one rule; ``neighbours`` are the ids
    of similar papers (donors of wrong-source claims and added details)."""
    from paperchat.cite.facts import names

    rng = random.Random(seed ^ zlib.crc32(paper["id"].encode()))
    abstract = paper["abstract"]
    good = [s for s in sentences if usable(s)]
    if len(good) < 2:
        return []
    entities = sorted(names(abstract))
    out: list[Claim] = []
    for n in range(per_paper):
        supported = (
            n + zlib.crc32(paper["id"].encode())
        ) % 2 == 0  # odd counts alternate across papers
        kind = _pick(rng, SUPPORTED_KINDS if supported else UNSUPPORTED_KINDS)
        candidates = rng.sample(good, len(good))
        if kind == "changed-number":
            candidates.sort(key=lambda x: not re.search(r"\d", x))  # sentences with numbers first
        for s in candidates[:6]:
            if supported:
                claim = _supported(kind, s, good, rng)
            else:
                base = _base(s, good, rng)
                donor_id = rng.choice(neighbours) if neighbours else None
                claim = _unsupported(kind, base, abstract, entities, donor_id, sentences_of, rng)
                if claim and clean(claim).rstrip(".") == clean(base).rstrip("."):
                    claim = None
            if claim and claim.strip() and all(claim != c.sentence for c in out):
                out.append(Claim(claim, paper["id"], supported, kind))
                break
    return out


def _base(s: str, good: list[str], rng: random.Random) -> str:
    """What an unsupported claim is edited from: made the way supported claims are (so that rewording alone
    never tells the label): the sentence itself, reworded, compressed, restated or fused with another."""
    roll = rng.random()
    if roll < 0.15:
        return s
    if roll < 0.35:
        return ed.compress(s, rng) or ed.reword(s, rng)
    if roll < 0.45:
        return ed.restate(s) or ed.reword(s, rng, strength=0.9)
    if roll < 0.65:
        other = rng.choice(good)
        fused = other != s and ed.fuse(
            *((s, other) if good.index(s) < good.index(other) else (other, s)), rng
        )
        if fused:
            return ed.reword(fused, rng, strength=0.9)
    return ed.reword(s, rng, strength=rng.choice([0.5, 0.9]))


def _supported(kind: str, s: str, good: list[str], rng: random.Random) -> str | None:
    if kind == "verbatim":
        return s
    if kind == "reworded":
        return ed.reword(s, rng, strength=0.7)
    if kind == "compressed":
        short = ed.compress(s, rng)
        return short and (ed.reword(short, rng) if rng.random() < 0.7 else short)
    if kind == "restated":
        again = ed.restate(s) or ed.restate(ed.reword(s, rng, strength=0.0))
        return again and ed.reword(again, rng, strength=0.9)
    i = good.index(s)
    j = i + 1 if i + 1 < len(good) and rng.random() < 0.6 else rng.randrange(len(good))
    if j == i:
        return None
    a, b = sorted((i, j))
    if (
        kind == "summarised"
    ):  # both sentences compressed (or restated), then fused and reworded strongly
        first = ed.restate(good[a]) or ed.compress(good[a], rng) or good[a]
        second = ed.compress(good[b], rng) or ed.restate(good[b]) or good[b]
        fused = ed.fuse(first, second, rng)
        return fused and ed.reword(fused, rng, strength=0.9)
    fused = ed.fuse(good[a], good[b], rng)
    return fused and ed.reword(fused, rng)


def _unsupported(
    kind: str,
    base: str,
    abstract: str,
    entities: list[str],
    donor_id: str | None,
    sentences_of: dict[str, list[str]],
    rng: random.Random,
) -> str | None:
    if kind == "negation":
        return ed.negate(base, rng)
    if kind == "swapped-entity":
        return ed.swap_entity(base, entities, rng)
    if kind == "comparison":
        return ed.swap_comparison(base, rng)
    if kind == "certainty":
        return ed.inflate(base, abstract, rng)
    if kind == "changed-number":
        return ed.swap_number(base, abstract, rng)
    if donor_id is None:
        return None
    donor = [s for s in sentences_of[donor_id] if usable(s)]
    if not donor:
        return None
    if kind == "unmentioned":
        return ed.add_detail(base, rng.choice(donor), abstract, rng)
    moved = rng.choice(donor)  # wrong-source: true of the donor, cited to this paper
    return moved if rng.random() < 0.3 else ed.reword(moved, rng)


def build(
    papers: list[dict],
    sentences_of: dict[str, list[str]],
    neighbours: dict[str, list[str]],
    per_paper: int,
    seed: int,
) -> list[Claim]:
    """Claims for every paper, in paper order (deterministic for a seed)."""
    out: list[Claim] = []
    for p in papers:
        out += claims_for(
            p, sentences_of[p["id"]], neighbours[p["id"]], sentences_of, per_paper, seed
        )
    return out


def clean(text: str) -> str:
    """Whitespace collapsed (the abstracts' line breaks and double spaces)."""
    return re.sub(r"\s+", " ", text).strip()
