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
    r"\b(?:(?:published|publish|appeared|presented|accepted|released|came out)\s+(?:in\s+)?|(?:papers?|works?)\s+(?:(?:are|were|is|was)\s+)?"
    r"(?:from|of)\s+)(?P<year>(?:19|20)\d\d)\b"
    r"|\b(?P<lead>(?:19|20)\d\d)\s+(?:papers?|works?|articles?|publications?)\b"
    # "What did Sergey Levine publish before 2025?", "papers from after 2023" (an author session had the
    # 2025 papers listed for "before 2025")
    r"|\b(?:publish(?:ed)?|appeared|presented|released|wr(?:ote|itten|ite)|papers?|works?)\s+"
    r"(?:(?:anything|something|any\s+papers?|papers?)\s+)?(?:(?:from|in|at\s+ICML)\s+)?(?P<op>before|prior\s+to|earlier\s+than|after|later\s+than|since)\s+"
    r"(?P<bound>(?:19|20)\d\d)\b",
    re.I,
)
_OPS = {"prior to": "before", "earlier than": "before", "later than": "after"}


@dataclass(frozen=True)
class YearAsk:
    """A year a question restricts its papers to: ``year``, ``rest``, the question without it
    ("Which papers were published?" for "Which papers were published in 2024?"), and ``op``: "in" that
    year, or "before", "after" or "since" it."""

    year: int
    rest: str
    op: str = "in"

    def holds(self, year: int | None) -> bool:
        """Whether a paper of ``year`` (``None``: unknown, never) is of the years asked for."""
        if not year:
            return False
        return {
            "in": year == self.year,
            "before": year < self.year,
            "after": year > self.year,
            "since": year >= self.year,
        }[self.op]

    @property
    def said(self) -> str:
        """'in 2024', 'before 2025', 'after 2023', 'since 2024'."""
        return f"{self.op} {self.year}"


def asked_year(question: str) -> YearAsk | None:
    """The :class:`YearAsk` of ``question``, or ``None`` when it names no year of appearance."""
    m = _ASKS.search(question)
    if not m:
        return None
    if m.group("bound"):
        op = " ".join(m.group("op").lower().split())
        rest = (
            re.sub(r"\s+(?:from|in|at\s+ICML)\s*$", "", question[: m.start("op")])
            + question[m.end("bound") :]
        )
        return YearAsk(int(m.group("bound")), _tidy(rest), _OPS.get(op, op))
    year = m.group("year") or m.group("lead")
    return YearAsk(
        int(year), _tidy(re.sub(rf"\s*\b(?:in\s+|from\s+|of\s+)?{year}\b", "", question, count=1))
    )


def _tidy(rest: str) -> str:
    """The question without its year, spaced again ("Which papers were published?")."""
    return re.sub(r"\s+([?.!,;:])", r"\1", " ".join(rest.split()))


def year_note(when: YearAsk, years: list[int], by: str = "") -> str:
    """The abstention's note when no stored paper (``by``: of an author, 'by an author named "X"') is of
    the years asked for: 'no stored paper appeared in 2024 (stored years: 2025)'; ``years``: those of the
    papers looked at."""
    held = ", ".join(str(y) for y in sorted(set(years)) if y) or "none recorded"
    return f"no stored paper{f' by {by}' if by else ''} appeared {when.said} (stored years: {held})"
