"""The ``shared-term`` template of ``paperchat eval draft`` (kind ``multi-paper``): a coined name, an
acronym's expansion or a technical word pair held by 2 to 5 papers, every one of them gold (every title and
abstract is searched)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable

from paperchat.core.terms import STOPWORDS, name_tokens
from paperchat.evaluation.authoring.corpus import (
    FILLER,
    TOKEN,
    VERB_CUE,
    VERBS,
    WORD,
    Corpus,
    DraftPaper,
    cand,
    coined,
)


# -- topics several papers share --------------------------------------------------------------------------------
def _phrases(paper: DraftPaper) -> Iterable[tuple[int, str, int]]:
    """``(priority, phrase, sentence)``: acronym expansions (0), coined names (1), technical word pairs (2)."""
    for idx, sent in enumerate(paper.plain):
        for m in re.finditer(r"((?:[A-Za-z][\w-]*\s+){1,5}?)\(([A-Z][A-Za-z0-9]*?)s?\)", sent):
            letters = [c for c in m.group(2) if c.isupper()]
            ws = m.group(1).split()[-len(letters) :] if letters else []
            if len(ws) == len(letters) >= 2 and all(w[0].upper() == c for w, c in zip(ws, letters)):
                yield 0, " ".join(ws).lower(), idx
        yield from ((1, name, idx) for name in name_tokens(sent) if coined(name))
        for piece in re.split(r"[.,;:()\[\]\u2014\u2013]", sent.lower()):
            ws = ["we"] + WORD.findall(piece)
            for before, a, b in zip(ws, ws[1:], ws[2:]):
                if (
                    len(a) > 4
                    and len(b) > 4
                    and not {a, b} & (STOPWORDS | FILLER | VERBS | VERB_CUE)
                    and before not in VERB_CUE
                    and a.rstrip("s") not in VERBS
                    and not re.search(r"\d", a + b)
                    and not a.endswith(("ly", "ing", "ed", "izes", "ises", "ize", "ify"))
                    and not b.endswith(("ly", "ed", "es"))
                ):
                    yield 2, f"{a} {b}", idx


def _stem(phrase: str) -> str:
    """A phrase without its plural ``s`` ("backdoor attacks" -> "backdoor attack"; "similarities" stays)."""
    return phrase[:-1] if phrase.endswith("s") and not phrase.endswith(("ss", "ies")) else phrase


def shared(
    corpus: Corpus,
    rng: random.Random,
    papers: list[DraftPaper] | None = None,
    limit: int | None = None,
    low: int = 2,
    high: int = 5,
) -> list[dict]:
    """``shared-term`` questions: a phrase that ``low``..``high`` papers hold, with all of them as gold.

    Phrases are read from ``papers`` (default: all) in order until ``limit`` paper groups are found; each
    phrase is searched in every stored title and abstract, and must be in each abstract it names.
    """
    best: dict[frozenset[str], tuple[int, str, str, str, int]] = {}
    seen: set[str] = set()
    for paper in papers if papers is not None else corpus.papers:
        if limit is not None and len(best) >= limit:
            break
        for prio, phrase, idx in _phrases(paper):
            key = _stem(phrase.lower()) if prio != 1 else phrase.lower()
            toks = TOKEN.findall(key)
            if (
                key in seen
                or not toks
                or min(len(corpus.postings.get(t, ())) for t in toks[:-1] or toks) < low
            ):
                continue
            seen.add(key)
            hits = corpus.papers_with(phrase, plural=prio != 1)
            if (
                not low <= len(hits) <= high
                or not all(key in corpus.abstract_lower[h] for h in hits)
                or (prio == 1 and not all(phrase in corpus.by_id[h].abstract for h in hits))
            ):
                continue  # too rare or common, in a title only, or an ordinary word capitalised ("Fine-Tuning")
            group = frozenset(hits)
            if group not in best or (prio, -len(phrase)) < (best[group][0], -len(best[group][1])):
                shown = re.search(
                    r"(?<![^\W_])" + re.escape(key) + r"(?:s|es)?(?![^\W_])", paper.plain[idx], re.I
                )
                best[group] = (prio, shown.group(0) if shown else phrase, key, paper.paper_id, idx)
    out = []
    for group, (prio, phrase, _key, pid, idx) in sorted(
        best.items(), key=lambda kv: (kv[1][:2], sorted(kv[0]))
    ):
        verb = rng.choice(
            ["mention", "use", "involve"] if prio == 1 else ["deal with", "involve", "mention"]
        )
        out.append(
            cand(
                "multi-paper",
                "shared-term",
                f"Which papers {verb} {phrase}?",
                sorted(group),
                [],  # the term itself is in the question: any answer on topic would hold it
                pid,
                idx,
                f"every paper whose title or abstract holds '{phrase}' ({len(group)})",
                priority=prio,
            )
        )
    return out
