"""The checks a drafted question passes before ``paperchat eval draft`` keeps it (:class:`Checks`): gold
papers exist, facts occur in a gold abstract, no copied abstract words, no near-duplicate of a kept question."""

from __future__ import annotations

import re
from typing import Any

from paperchat.evaluation.authoring.corpus import Corpus, tokens

#: A question may not hold this many consecutive words of an abstract sentence.
NGRAM = 8


#: Two questions whose word sets overlap more than this (Jaccard) are near-duplicates.
NEAR_DUPLICATE = 0.8


def _windows(toks: list[str], size: int) -> set[int]:
    return {
        hash(tuple(toks[i : i + size])) for i in range(len(toks) - size + 1)
    }  # hashes: a third of the memory


def word_set(text: str) -> frozenset[str]:
    """The distinct lower-cased words of ``text`` (what near-duplicates are judged by)."""
    return frozenset(tokens(text))


def near_duplicate(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two word sets overlap more than :data:`NEAR_DUPLICATE` (Jaccard)."""
    return bool(a or b) and len(a & b) / len(a | b) > NEAR_DUPLICATE


class Checks:
    """The checks a drafted question must pass (see the module docstring), over ``corpus`` (a :class:`Corpus`)."""

    def __init__(self, corpus: Corpus):
        self.corpus = corpus
        self.grams: set[int] = set()
        self.short: set[int] = set()
        for paper in corpus.papers:
            for sent in paper.sentences:
                toks = tokens(sent)
                if len(toks) >= NGRAM:
                    self.grams |= _windows(toks, NGRAM)
                elif len(toks) >= 3:
                    self.short.add(hash(tuple(toks)))

    def copies(self, question: str) -> bool:
        """Whether ``question`` holds an abstract sentence verbatim, or :data:`NGRAM` consecutive words of one."""
        toks = tokens(question)
        if _windows(toks, NGRAM) & self.grams:
            return True
        return any(_windows(toks, size) & self.short for size in range(3, NGRAM))

    def reason(self, cand: dict[str, Any]) -> str | None:
        """Why ``cand`` cannot be kept (one short reason), or ``None``; prunes fact spellings no gold abstract holds."""
        gold = cand.get("gold", [])
        if any(pid not in self.corpus.by_id for pid in gold) or (cand["answerable"] != bool(gold)):
            return "gold paper missing from the store"
        texts = [self.corpus.abstract_lower[pid] for pid in gold]
        facts = []
        for group in cand.get("facts", []):
            kept = [
                v
                for v in group
                if isinstance(v, str) and v.strip() and any(v.lower() in t for t in texts)
            ]
            if not kept:
                return "a fact is not in the gold abstract"
            facts.append(kept)
        cand["facts"] = facts
        if self.copies(cand["question"]):
            return "copies an abstract sentence"
        absent = cand.get("absent")
        if absent and self.corpus.anywhere(absent):
            return "near-miss name occurs in the store"
        for name in cand.get("avoid", ()):
            if re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", cand["question"], re.I):
                return "paraphrase names its paper"
        return None
