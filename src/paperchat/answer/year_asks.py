"""Papers asked for by the year they appeared: "Which papers were published in 2024?".

No abstract says when its paper appeared, and a year written in one ("the 2024 election") is no answer:
such a question had listed papers whose abstracts wrote "2024". :func:`asked_year` reads the year a
question restricts the papers to ("published in 2024", "from 2023", "2025 papers") and the question
without it; the engine answers that question from the stored papers of that year (their ``year``
metadata, as ``--year`` does), or abstains naming the years the store holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ASKS = re.compile(
    r"\b(?:(?:published|appeared|presented|accepted|released|came out)\s+(?:in\s+)?|(?:papers?|works?)\s+(?:(?:are|were|is|was)\s+)?"
    r"(?:from|of)\s+)(?P<year>(?:19|20)\d\d)\b"
    r"|\b(?P<lead>(?:19|20)\d\d)\s+(?:papers?|works?|articles?|publications?)\b",
    re.I,
)


@dataclass(frozen=True)
class YearAsk:
    """A year a question restricts its papers to: ``year``, and ``rest``, the question without it
    ("Which papers were published?" for "Which papers were published in 2024?")."""

    year: int
    rest: str


def asked_year(question: str) -> YearAsk | None:
    """The :class:`YearAsk` of ``question``, or ``None`` when it names no year of appearance."""
    m = _ASKS.search(question)
    if not m:
        return None
    year = m.group("year") or m.group("lead")
    rest = re.sub(rf"\s*\b(?:in\s+|from\s+|of\s+)?{year}\b", "", question, count=1)
    return YearAsk(int(year), re.sub(r"\s+([?.!,;:])", r"\1", " ".join(rest.split())))


def year_note(year: int, years: list[int]) -> str:
    """The abstention's note when no stored paper is of ``year``: 'no stored paper appeared in 2024
    (stored years: 2025)'."""
    held = ", ".join(str(y) for y in sorted(set(years)) if y) or "none recorded"
    return f"no stored paper appeared in {year} (stored years: {held})"
