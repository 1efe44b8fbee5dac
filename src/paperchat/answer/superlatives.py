"""Superlatives over the stored metadata: "Which paper has the most authors?", "Who has the most papers?".

No abstract states them: they are read off the stored author lists of the papers the question may be
answered from (the filters' papers, a year's, or those holding a topic's words: "Who has the most papers
on diffusion?"). Each answer names the number, and every paper it names is cited to its stored title and
author list (:func:`paperchat.answer.paper_lists.metadata_source`), so it can be checked. Authors are
counted by their stored name: two spellings of one person's name count apart (a note says so).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from paperchat.answer.paper_lists import MAX_LISTED, listed_answer, metadata_source
from paperchat.cite.markers import cite_sentence
from paperchat.core.contract import EXTRACTIVE, Answer
from paperchat.ingest.authors import OTHERS
from paperchat.ingest.records import PaperRecord

MOST_AUTHORS, FEWEST_AUTHORS, MOST_PAPERS = "most_authors", "fewest_authors", "most_papers"

_PAPER = r"(?:paper|papers|work|works|article|articles|submission|submissions|abstract|abstracts)"
_AUTHOR = r"(?:co-?)?(?:authors?|researchers?|people|persons?|scientists?|names?)"
_MOST = r"(?:the\s+)?(?:most|largest\s+number\s+of|highest\s+number\s+of|greatest\s+number\s+of|biggest\s+number\s+of|longest\s+list\s+of)"
_FEWEST = (
    r"(?:the\s+)?(?:fewest|least|smallest\s+number\s+of|lowest\s+number\s+of|shortest\s+list\s+of)"
)
#: "Which paper has the most authors?", "the paper with the largest number of co-authors", "longest author list".
_PAPER_AUTHORS = re.compile(
    rf"\b{_PAPER}\b[^?.]*?\b(?:has|have|had|with|lists?|listing|by)\s+(?P<which>{_MOST}|{_FEWEST})\s+(?:co-?)?authors?\b"
    rf"|\b(?P<which2>largest|biggest|longest|smallest|shortest)\s+(?:author\s+list|number\s+of\s+(?:co-?)?authors)\b",
    re.I,
)
#: "Who has the most papers?", "Which author wrote the most papers at ICML 2025?", "the most prolific authors",
#: "top 10 authors by number of papers".
_AUTHOR_PAPERS = re.compile(
    rf"\b(?:who|whom|which\s+(?:\w+\s+)?{_AUTHOR})\b[^?.]*?\b{_MOST}\s+(?:[\w-]+\s+)?{_PAPER}\b"
    rf"|\bwho\s+(?:wrote|published|authored|co-?authored|submitted|presented|has|had)\s+the\s+most\b"
    rf"|\bmost\s+prolific\s+{_AUTHOR}"
    rf"|\btop\s+(?:\d+\s+|ten\s+|five\s+|twenty\s+)?{_AUTHOR}\b",
    re.I,
)
#: What narrows the papers to a topic: "... papers on diffusion models", "... about RL".
_TOPIC = re.compile(
    rf"\b{_PAPER}\s+(?:on|about|in|regarding|concerning)\s+(?P<topic>[^?]+?)\s*(?:\bat\s+icml\b.*|\bin\s+\d{{4}}\b.*)?\??\s*$",
    re.I,
)
#: The topic of an author-count superlative: "Which paper on diffusion models has the most authors?",
#: "Which diffusion paper has ...", "the RL paper with ...".
_PAPER_TOPIC = re.compile(
    rf"\b{_PAPER}\s+(?:on|about|regarding|concerning)\s+(?P<after>.+?)\s+(?:has|have|had|with|lists?|listing)\b"
    rf"|\b(?:which|what|the)\s+(?P<before>(?!one\b|single\b)[\w-]+(?:\s+[\w-]+){{0,2}}?)\s+{_PAPER}\b",
    re.I,
)
#: "Which papers have only one author?", "single-authored papers", "How many papers have a single author?"
_ONE_AUTHOR = re.compile(
    r"\b(?:only|just|exactly|a)\s+(?:one|a\s+single|single|1)\s+(?:co-?)?author\b|\bsingle[- ]author(?:ed)?\b"
    r"|\bsolo[- ]author(?:ed)?\b|\bone[- ]author\b",
    re.I,
)
ONE_AUTHOR = "one_author"
_NOT_TOPIC = re.compile(
    r"^(?:the\s+)?(?:store|corpus|index|icml(?:\s+\d{4})?|\d{4}|total|all)$", re.I
)
#: Authors named beside the most prolific one.
RUNNERS_UP = 4


@dataclass(frozen=True)
class Superlative:
    """What a superlative question asks: ``kind`` (:data:`MOST_AUTHORS`, :data:`FEWEST_AUTHORS`,
    :data:`MOST_PAPERS`) and the ``topic`` its papers must hold (``""``: every paper)."""

    kind: str
    topic: str = ""
    first: bool = False  # "the most first-author papers": first authors only


def superlative_in(question: str) -> Superlative | None:
    """The :class:`Superlative` ``question`` asks, or ``None``."""
    if m := _PAPER_AUTHORS.search(question):
        which = (m.group("which") or m.group("which2")).lower()
        fewest = re.match(r"(?:the\s+)?(?:fewest|least|smallest|lowest|shortest)", which)
        return Superlative(FEWEST_AUTHORS if fewest else MOST_AUTHORS, _paper_topic(question))
    if _ONE_AUTHOR.search(question) and re.search(rf"\b{_PAPER}\b|\bauthored\b", question, re.I):
        return Superlative(ONE_AUTHOR, _paper_topic(question))
    if _AUTHOR_PAPERS.search(question):
        t = _TOPIC.search(question)
        topic = t.group("topic").strip(" ,.;:") if t else ""
        first = bool(re.search(r"\bfirst[- ]author", question, re.I))
        return Superlative(MOST_PAPERS, "" if _NOT_TOPIC.match(topic) else topic, first)
    return None


def _paper_topic(question: str) -> str:
    """The topic an author-count question narrows its papers to ("diffusion models", "RL"), or ``""``."""
    m = _PAPER_TOPIC.search(question)
    topic = ((m.group("after") or m.group("before")) if m else "") or ""
    topic = re.sub(r"^(?:the|a|an|stored|icml|accepted)\s+", "", topic.strip(" ,.;:"), flags=re.I)
    return "" if _NOT_TOPIC.match(topic) or topic.lower() in ("paper", "papers") else topic


def author_count_answer(
    question: str, kind: str, records: Mapping[str, PaperRecord], scope: str = ""
) -> Answer:
    """The paper(s) with the most or fewest authors among ``records`` (paper id -> record), or with one
    author (:data:`ONE_AUTHOR`): one cited sentence naming the paper and the number, or a listing of the
    papers (at most :data:`~paperchat.answer.paper_lists.MAX_LISTED`, a note saying how many more).
    ``count`` is how many papers that is. ``scope`` says what narrowed the papers (' by Sergey Levine',
    ' from 2024', ' holding "diffusion"'). Papers with no stored authors are left out (a note says how
    many); the abstention when none has any, or (one author) when no paper has one."""
    known = [r for r in records.values() if r.authors]
    unknown = len(records) - len(known)
    notes = [f"{unknown:,} stored papers have no authors and are left out"] if unknown else []
    if not known:
        return Answer.abstention(question, EXTRACTIVE, notes=["no stored paper has its authors"])
    sizes = [len(r.authors) for r in known]
    n = 1 if kind == ONE_AUTHOR else max(sizes) if kind == MOST_AUTHORS else min(sizes)
    tied = sorted(
        (r for r in known if len(r.authors) == n), key=lambda r: (r.source_path, r.source_index)
    )
    of = f"Of the {len(known):,} stored papers{scope}" + (" with authors" if unknown else "")
    if kind == ONE_AUTHOR:
        if not tied:
            note = f"no stored paper{scope} has a single author (the fewest is {min(sizes)})"
            return Answer.abstention(question, EXTRACTIVE, notes=notes + [note])
        lead = f"{of}, {len(tied):,} {'has' if len(tied) == 1 else 'have'} a single author:"
        return listed_answer(question, tied, notes, lead=lead, count=len(tied))
    word = "most" if kind == MOST_AUTHORS else "fewest"
    if len(tied) == 1:
        text = cite_sentence(f'{of}, "{tied[0].name}" has the {word} authors: {n}.', 1)
        return Answer(
            question, text, EXTRACTIVE, sources=[metadata_source(1, tied[0])], notes=notes, count=1
        )
    lead = f"{of}, {len(tied):,} have the {word} authors, {n} author{'s' if n != 1 else ''} each:"
    return listed_answer(question, tied, notes, lead=lead, count=len(tied))


def prolific_answer(
    question: str,
    records: Mapping[str, PaperRecord],
    topic: str = "",
    scope: str = "",
    first: bool = False,
) -> Answer:
    """The author(s) with the most papers among ``records``: a lead line with the number and the
    :data:`RUNNERS_UP` next authors, then the top author's papers listed and cited (for a tie, each tied
    author's; a tie of more than :data:`RUNNERS_UP` authors is the lead line alone). ``topic`` (said in the lead) and ``scope`` (' from 2024') say what the papers were narrowed
    to; ``first`` counts first authors only. The abstention when no paper has stored authors."""
    tally = Counter(
        a
        for r in records.values()
        for a in dict.fromkeys(r.authors[:1] if first else r.authors)
        if a
        != OTHERS  # BibTeX's "and others" names no one (a verifier's "others has the most papers")
    )
    if not tally:
        return Answer.abstention(question, EXTRACTIVE, notes=["no stored paper has its authors"])
    ranked = sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))
    most = ranked[0][1]
    top = [a for a, c in ranked if c == most]
    rest = [f"{a} ({c})" for a, c in ranked[len(top) : len(top) + RUNNERS_UP]]
    on = (f' on "{topic}"' if topic else "") + scope
    what = "first-author papers" if first else "papers"
    if len(top) == 1:
        lead = f"{top[0]} has the most stored {what}{on}: {most}"
    elif len(top) <= RUNNERS_UP:
        lead = f"{', '.join(top[:-1])} and {top[-1]} have the most stored {what}{on}: {most} each"
    else:
        lead = f"{len(top):,} authors have the most stored {what}{on}: {most} each"
    lead += f"; next: {', '.join(rest)}." if rest and len(top) <= RUNNERS_UP else "."
    notes = [
        f"authors are counted by their stored name over {len(records):,} papers"
        + (f' holding "{topic}"' if topic else "")
        + ": two spellings of one name count apart, two people of one name count as one"
    ]
    if len(top) > RUNNERS_UP:  # "180 authors have the most stored papers: 1 each.": no one to list
        return Answer(question, lead, EXTRACTIVE, notes=notes, count=most)
    named = top
    chosen = sorted(
        (r for r in records.values() if any(a in named for a in r.authors[: 1 if first else None])),
        key=lambda r: (
            min(named.index(a) for a in r.authors if a in named),
            r.source_path,
            r.source_index,
        ),
    )
    answer = listed_answer(
        question,
        chosen,
        notes,
        lead=lead,
        count=most,
        who=lambda r: next(a for a in named if a in r.authors),
    )
    if len(chosen) > MAX_LISTED:
        answer.notes[-1] += f' (`paperchat papers --author "{named[0]}"` lists {named[0]}\'s)'
    return answer


_YEAR = re.compile(r"\b(?:in|from|during|of)\s+((?:19|20)\d\d)\b", re.I)


def year_in(question: str) -> int | None:
    """The year a superlative is narrowed to ("... the most authors in 2024?"), or ``None``."""
    m = _YEAR.search(question)
    return int(m.group(1)) if m else None
