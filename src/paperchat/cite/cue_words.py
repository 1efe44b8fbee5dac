"""The word lists the contradiction cues (:mod:`paperchat.cite.cues`) read: universal quantifiers, proof and
requirement words, negators, contrast and modal phrases, antonym pairs, and the stemmer that matches them."""

from __future__ import annotations

import re
from functools import lru_cache

TOKEN = re.compile(r"[A-Za-z][A-Za-z\-']*|[,;:()—–]")


def tokenize(text: str) -> list[str]:
    """Lower-cased words (hyphens and apostrophes kept inside) and clause punctuation of ``text``, in order."""
    return [t.lower() for t in TOKEN.findall(text.replace("’", "'"))]


BREAK = {
    "—",  # "without requiring clean reference models—only a small clean dataset"
    "–",
    ",",
    ";",
    ":",
    "(",
    ")",
    "but",
    "while",
    "whereas",
    "although",
    "though",
    "which",
    "yet",
    "however",
    "so",
    "thus",
    "and",
}


#: words a claim may not add when the cited text never uses them
UNIVERSAL = frozenset(
    {
        "always",
        "all",
        "every",
        "unconditionally",
        "guarantee",
        "guarantees",
        "guaranteed",
        "must",
        "never",
        "completely",
        "entirely",
        "universally",
        "regardless",
        "whatever",
    }
)


PROVE = frozenset({"prove", "proves", "proven", "proved", "provably"})


THEORY_STEMS = (
    "prov",
    "proof",
    "theorem",
    "theoret",
    "guarante",
    "establish",
    "bound",
    "certifi",
    "formal",
    "lemma",
)


REQ_VERB = re.compile(
    r"^(requir|need|reli|depend|assum|necessit|use|using|employ|leverag|exploit|enforc|adopt)"
)


WITHOUT = frozenset({"without", "no", "neither", "nor", "avoid", "avoids", "avoiding", "avoided"})


NEGATORS = frozenset(
    {
        "without",
        "no",
        "not",
        "never",
        "neither",
        "nor",
        "avoid",
        "avoids",
        "avoiding",
        "eliminating",
        "eliminates",
        "eliminate",
        "free",
        "unlike",
        "instead",
        "rather",
        "cannot",
        "removing",
        "removes",
        "bypassing",
        "bypasses",
        "dispensing",
        "obviating",
        "obviates",
    }
)


LIKE = ("like", "as in", "similar to", "as with", "just as", "following")


UNLIKE = (
    "unlike",
    "in contrast to",
    "in contrast with",
    "contrary to",
    "as opposed to",
    "different from",
)


MODAL_POS = frozenset({"can", "could", "does", "do", "will", "is able to", "are able to"})


MODAL_NEG = (
    "cannot",
    "can not",
    "could not",
    "does not",
    "do not",
    "will not",
    "is unable to",
    "are unable to",
    "fails to",
    "fail to",
    "can't",
    "doesn't",
    "don't",
)


ANTONYM_PAIRS = [
    ("faster", "slower"),
    ("more", "fewer"),
    ("more", "less"),
    ("higher", "lower"),
    ("high", "low"),
    ("increase", "decrease"),
    ("increases", "decreases"),
    ("improves", "degrades"),
    ("improve", "degrade"),
    ("improves", "hurts"),
    ("outperforms", "underperforms"),
    ("better", "worse"),
    ("larger", "smaller"),
    ("efficient", "inefficient"),
    ("effective", "ineffective"),
    ("stronger", "weaker"),
    ("succeeds", "fails"),
    ("accurate", "inaccurate"),
    ("stable", "unstable"),
    ("consistent", "inconsistent"),
    ("easier", "harder"),
    ("cheaper", "costlier"),
    ("surpass", "short"),
    ("exceed", "short"),
    ("outperform", "short"),
    ("beat", "short"),
    ("minor", "major"),
    ("sparse", "dense"),
    ("encoder-only", "decoder-only"),
    ("encoder", "decoder"),
    ("offline", "online"),
    ("supervised", "unsupervised"),
    ("upper", "lower"),
    ("captures", "fails"),
    ("effectively", "fails"),
    ("reproduce", "fails"),
    ("absolute", "relative"),
    ("static", "dynamic"),
    ("deterministic", "stochastic"),
    ("discrete", "continuous"),
    ("convex", "nonconvex"),
    ("linear", "nonlinear"),
]


COMPARATIVE = re.compile(
    r"\b(outperform(?:s|ed)?|beat(?:s)?|surpass(?:es|ed)?|exceed(?:s|ed)?|better than|faster than)\b"
)


@lru_cache(maxsize=1)
def stemmer():
    import Stemmer  # PyStemmer: the Snowball English stemmer (also BM25's)

    return Stemmer.Stemmer("english")


def stem(word: str) -> str:
    return stemmer().stemWord(word.lower())


@lru_cache(maxsize=1)
def antonyms() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for a, b in ANTONYM_PAIRS:
        out.setdefault(stem(a), set()).add(stem(b))
        out.setdefault(stem(b), set()).add(stem(a))
    return {k: frozenset(v) for k, v in out.items()}
