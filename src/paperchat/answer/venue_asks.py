"""Papers asked for by where they appeared: "Which papers appeared at NeurIPS?", "How many ICML papers ...?".

No abstract says where its paper appeared: such a question had been answered by retrieval, listing the
papers whose abstracts happened to match ("Which papers appeared at NeurIPS?" listed 3 of a store's 8
NeurIPS papers, an own-corpus session found). :func:`asked_venue` reads a stored venue a question restricts
its papers to ("at NeurIPS", "from NeurIPS", "NeurIPS papers"), and the question without it; the engine
answers that question from the stored papers of that venue (their ``venue`` metadata, as ``--venue`` does).
A store of one venue is never restricted: there the venue's name is the topic's word, if anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class VenueAsk:
    """A stored venue a question restricts its papers to: ``venue`` as stored, and ``rest``, the question
    without it ("Which papers appeared?" for "Which papers appeared at NeurIPS?")."""

    venue: str
    rest: str


def asked_venue(question: str, venues: set[str]) -> VenueAsk | None:
    """The :class:`VenueAsk` of ``question`` among the stored ``venues`` (two or more), or ``None``."""
    if len(venues) < 2:
        return None
    for venue in sorted(venues, key=len, reverse=True):
        name = re.escape(venue)
        m = re.search(
            rf"\b(?:(?:appeared|published|presented|accepted)\s+)?(?:at|in|from)\s+(?:the\s+)?{name}"
            rf"(?:\s+(?P<year>(?:19|20)\d\d))?\b"
            rf"|\b{name}(?:\s+(?P<lead>(?:19|20)\d\d))?(?=\s+(?:papers?|works?|articles?|submissions?)\b)",
            question,
            re.I,
        )
        if m:
            # a year after the venue stays, as the year reading takes it ("... from 2024")
            year = m.group("year") or m.group("lead")
            kept = f" from {year} " if m.group("year") else f" {year} " if year else " "
            rest = (question[: m.start()] + kept + question[m.end() :]).strip()
            return VenueAsk(venue, re.sub(r"\s+([?.!,;:])", r"\1", " ".join(rest.split())))
    return None


def venue_topic(topic: str, venues: set[str]) -> tuple[str, int | None] | None:
    """``(venue as stored, year or None)`` when a count's topic (:func:`paperchat.answer.paper_counts.counted_topic`)
    is only where the papers appeared ("at ICML 2025" in "How many papers were accepted at ICML 2025?"), a
    stored venue, in a store of one venue too; else ``None``. A store of ICML papers had counted the 1 paper
    whose abstract writes "ICML"."""
    m = re.fullmatch(
        r"(?:at|to|in|from)\s+(?:the\s+)?(.+?)(?:\s+((?:19|20)\d\d))?", topic.strip(), re.I
    )
    stored = {v.lower(): v for v in venues}
    if not m or m.group(1).lower() not in stored:
        return None
    return stored[m.group(1).lower()], int(m.group(2)) if m.group(2) else None
