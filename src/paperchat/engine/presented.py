"""Questions naming how papers were presented, answered from the stored papers of that kind.

The engine side of :mod:`paperchat.answer.presentations`: "Which oral papers are about diffusion?" is asked
over the stored orals; a store whose corpus files gave no presentation says so in a note instead.
"""

from __future__ import annotations

import re

from paperchat.core.contract import EXTRACTIVE, Answer

_PRESENTATION = re.compile(r"\b(?:orals?|spotlights?|posters?)\b", re.I)
#: For a store whose corpus files gave no presentation (the ICML 2025 file gives it)
PRESENTATION_NOTE = (
    "the store does not record whether a paper was an oral, a spotlight or a poster: the answer is not "
    "restricted to one kind"
)


def presentation_notes(engine, question: str) -> list[str]:
    """``[PRESENTATION_NOTE]`` when ``question`` names a presentation kind and no stored paper has one."""
    if not _PRESENTATION.search(question):
        return []
    return [] if any(r.presentation for r in engine.catalog().values()) else [PRESENTATION_NOTE]


def restrict_to_presentation(engine, reading, question: str):
    """Narrow ``reading`` (:class:`paperchat.engine.metadata_reads.Reading`) to the stored papers of the
    presentation kind its text names (:func:`paperchat.answer.presentations.asked_presentation`), its text to
    the question without the kind, with a note; the abstention when a list's topic is held by none of them
    ("Which oral papers are about machine unlearning?": no oral is; the nearest orals had been quoted). The
    :class:`~paperchat.answer.presentations.PresentationAsk`, or ``None`` (``reading`` unchanged) when the
    text names no kind or no stored paper has one."""
    from paperchat.answer.paper_counts import listed_topic, topic_holders
    from paperchat.answer.presentations import asked_presentation

    shown = asked_presentation(reading.text)
    if not shown:
        return None
    catalog = engine.catalog()
    if not any(r.presentation for r in catalog.values()):
        return None
    held = {pid for pid, r in catalog.items() if shown.holds(r.presentation)}
    held &= reading.paper_ids if reading.paper_ids is not None else held
    reading.text, reading.paper_ids = shown.rest, frozenset(held)
    among = f"the {len(held):,} stored papers {shown.said}"
    topic = listed_topic(shown.rest)
    if topic and not topic_holders(topic, engine.store.bm25())[0] & held:
        note = f'none of {among} has every word of "{topic}" in its title or abstract'
        reading.answer = Answer.abstention(question, EXTRACTIVE, notes=[note])
    reading.notes.append(f"answered from {among}")
    return shown
