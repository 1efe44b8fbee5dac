"""The stored papers that write a topic, or the abbreviation its writers define for it.

A topic summary (``paperchat summarize "partial differential equations"``) keeps to these papers
(:func:`topic_writers`): those writing its words as written, and those writing only the abbreviation the
writers define ("PDE"; definitions read as Schwartz and Hearst 2003 read them, "A simple algorithm for
identifying abbreviation definitions in biomedical text": the short form is the long form's initials). Apart
from :mod:`paperchat.engine.summaries` to keep that module small. A count ("How many papers are about ...?")
keeps to the phrase: counting the abbreviation too was tried in the forty-fourth round and reverted, since
"CP" also names CANDECOMP/PARAFAC.
"""

from __future__ import annotations

import re

from paperchat.ingest.records import PaperRecord

#: Papers at least that must write a topic for its summary to keep to them.
WRITTEN_TOPIC_MIN = 3


def topic_writers(engine, target: str, ids) -> tuple[set[str], list[str]]:
    """The stored papers (of ``ids`` when given) that write ``target``, a topic of one to three words, as
    written (:func:`~paperchat.answer.paper_counts.phrase_holders`: "conformal prediction", not papers on
    molecular conformers, whose stem it shares) or the abbreviation they define for it ("RL"), when at least
    :data:`WRITTEN_TOPIC_MIN` do, and those abbreviations; else empty.
    A reviewer's session had "conformal prediction" summarized from six papers that never write it."""
    from paperchat.answer.paper_counts import topic_papers

    if not 1 <= len(target.split()) <= 3:
        return set(), []
    lexicon = engine.store.bm25()
    # each abstract read once: to find the writers, then the abbreviations they define
    read: dict[str, PaperRecord] = {}

    def read_papers(wanted: list[str]) -> dict[str, PaperRecord]:
        if missing := [p for p in wanted if p not in read]:
            read.update(engine.store.papers(missing))
        return {p: read[p] for p in wanted if p in read}

    def writers(topic: str) -> set[str]:
        return topic_papers(topic, lexicon, read_papers, ids or None)[1]

    writing = writers(target)
    if re.fullmatch(r"[A-Z][A-Z0-9-]*[A-Z0-9]s?", target.strip()):
        # an abbreviation in its capitals: "MU" is not the "\mu" of a formula (a science writer's count, 11
        # where 4 write it)
        texts = read_papers(sorted(writing))
        written = re.compile(rf"(?<![\w\\]){re.escape(target.strip().rstrip('s'))}s?(?!\w)")
        writing = {pid for pid, r in texts.items() if written.search(r.full_text)}
    # the abbreviation its writers define ("reinforcement learning (RL)"): a paper writing "offline RL" only
    # is on the topic too (definitions read as Schwartz & Hearst 2003 read them: "RL" is its initials)
    phrase = r"[\s-]+".join(map(re.escape, re.split(r"[\s-]+", target.strip())))
    defined = re.compile(rf"\b(?i:{phrase})s?\s*\(([A-Z][A-Za-z]*[A-Z])s?\)")
    initials = "".join(w[0] for w in re.split(r"[\s-]+", target.strip()) if w).upper()
    texts = read_papers(sorted(writing)) if len(target.split()) > 1 else {}
    shorts = {m[1] for r in texts.values() for m in defined.finditer(r.full_text)}
    shorts = sorted(x for x in shorts if x.upper() == initials)
    for short in shorts:
        # in its capitals, and not defined as something else: "MU" had counted papers on muP ("μP" is
        # "mup" to BM25) and "SD" papers on Stable Diffusion (a literature-review session: 22 "machine
        # unlearning" papers said where 14 write it)
        held = read_papers(sorted(writers(short) - writing))
        writing |= {pid for pid, r in held.items() if _uses(r.full_text, short, defined)}
    return (writing, shorts) if len(writing) >= WRITTEN_TOPIC_MIN else (set(), [])


def _uses(text: str, short: str, defined: re.Pattern) -> bool:
    """Whether ``text`` writes the abbreviation ``short`` in its capitals (a plural "s" allowed) and defines
    it, if at all, as the topic (``defined`` matches the topic's own definition)."""
    if not re.search(rf"(?<![\w-]){re.escape(short)}s?(?![\w\-\u2010-\u2015])", text):
        return False
    defs = list(re.finditer(rf"\({re.escape(short)}s?\)", text))
    return not defs or any(defined.search(text[max(0, m.start() - 80) : m.end()]) for m in defs)
