"""Sentence splitting of scientific prose (abstracts, answers): a rule-based splitter every stage shares."""

from __future__ import annotations

import re

_WS = re.compile(r"\s+")

# Abbreviations after which a period does not end a sentence.
_ABBREV = (
    "e.g.",
    "i.e.",
    "et al.",
    "etc.",
    "vs.",
    "cf.",
    "Fig.",
    "Eq.",
    "Sec.",
    "resp.",
    "approx.",
    "w.r.t.",
)
_SENT_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[$\\*]?[A-Z0-9])|(?<=[。！？])\s*(?=\S)")


#: A dollar sign that opens or closes inline math; an escaped one (\$0.88) is a price.
_DOLLAR = re.compile(r"(?<!\\)\$")


def split_sentences(text: str) -> list[str]:
    """Split an abstract into sentences.

    A rule-based splitter for scientific prose: a sentence ends at ``.``, ``!``
    or ``?`` followed by white space and a capital letter, digit, ``$``, ``*`` or
    an opening bracket, except after common abbreviations (``e.g.``, ``et al.``)
    and inside inline math (``$...$``; an escaped ``\\$`` is no math); and at the full-width ``。！？`` of
    Chinese and Japanese text. Returns the non-empty sentences, stripped, in order.
    """
    text = _WS.sub(" ", text).strip()
    if not text:
        return []
    pieces: list[str] = []
    start = 0
    for match in _SENT_END.finditer(text):
        candidate = text[start : match.start()]
        if len(_DOLLAR.findall(candidate)) % 2 == 1:  # inside inline math
            continue
        if any(candidate.endswith(a) for a in _ABBREV):
            continue
        pieces.append(candidate.strip())
        start = match.end()
    pieces.append(text[start:].strip())
    return [p for p in pieces if p]
