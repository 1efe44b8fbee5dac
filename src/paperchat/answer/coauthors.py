"""Who an author wrote with: "Who are Sergey Levine's co-authors?", "Who has Jun Zhu collaborated with?",
"the collaborators of Mihaela van der Schaar", "How many co-authors does Bo Li have?".

An author session had each of these abstain: the answer is in no abstract, but in the stored author
lists. :func:`coauthor_ask` finds the stored author such a question names (the name looked up as
:mod:`paperchat.answer.authorship` looks it up); :func:`coauthors_answer` lists their co-authors from
their papers' metadata, those on most papers first, each name cited with the papers it shares (the
citations' evidence the title and author list, :func:`paperchat.answer.paper_lists.metadata_source`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from paperchat.answer.author_names import AuthorIndex, name_words
from paperchat.answer.authorship import NAME, NAME_LAZY, leading_words
from paperchat.answer.paper_lists import metadata_listing, only_listing
from paperchat.core.contract import EXTRACTIVE, Answer
from paperchat.ingest.authors import OTHERS
from paperchat.ingest.records import PaperRecord

_WITH = r"(?:co-?authors?|coauthors?|collaborators?)"
_DID = (
    r"(?:co-?authored|coauthored|collaborated|worked|written|wrote|published|co-?author|collaborate|"
    r"work|write|publish)"
)
_PEOPLE = r"(?:researchers|people|persons|authors|scientists|colleagues)"
#: The phrases that ask for an author's co-authors, the name in their ``name`` group.
_ASKS = (
    re.compile(rf"(?<![\w'’]){NAME_LAZY}['’]s\s+(?:\w+\s+){{0,2}}?{_WITH}\b", re.I),
    re.compile(rf"\b{_WITH}\s+(?:of|for)\s+{NAME}", re.I),
    re.compile(
        rf"\bwho\s+(?:has|have|did|does|do)\s+{NAME_LAZY}\s+{_DID}\s+(?:\w+\s+){{0,2}}?with\b", re.I
    ),
    re.compile(
        rf"\bwho\s+(?:has\s+|have\s+)?{_DID}\s+(?:(?:papers?|a\s+paper|together)\s+)?with\s+{NAME}",
        re.I,
    ),
    re.compile(
        rf"\bhow\s+many\s+{_WITH}\s+(?:does|did|has)\s+{NAME_LAZY}\s+(?:have|had|got)\b", re.I
    ),
    # "Which researchers worked with X?", "How many people has X co-authored with?" (a verifier's)
    re.compile(
        rf"\b(?:which|what|how\s+many)\s+{_PEOPLE}\s+(?:have\s+|has\s+)?{_DID}\s+(?:papers?\s+)?"
        rf"with\s+{NAME}",
        re.I,
    ),
    re.compile(
        rf"\b(?:which|what|how\s+many)\s+{_PEOPLE}\s+(?:has|have|did|does)\s+{NAME_LAZY}\s+{_DID}\s+"
        r"(?:papers?\s+)?with\b",
        re.I,
    ),
)
#: Words that only qualify the co-authors asked for ("frequent collaborators", "main co-authors").
_QUALIFIERS = frozenset(
    "collaborator collaborators co-authors coauthors frequent frequently main most often close closest "
    "usual top have has had people researchers persons scientists colleagues worked".split()
)


def _topic(rest: str) -> bool:
    """Whether the question, its name taken out (``rest``), asks about something beside the co-authors
    ("Who did Yoshua Bengio collaborate with on GFlowNets?": left to the author reading)."""
    kept = [w for w in rest.split() if w.lower().strip("?.,!;:'’s") not in _QUALIFIERS]
    return not only_listing(" ".join(kept))


#: The words that open a topic after the co-author phrase ("... with on GFlowNets?").
_TOPIC = re.compile(r"\s*(?:on|about|regarding)\s+(?=\S)", re.I)

#: Co-authors named one per line at most; the note counts the rest.
MAX_COAUTHORS = 15


@dataclass(frozen=True)
class CoauthorAsk:
    """A question for an author's co-authors: ``typed``, the name as written; ``author``, the stored
    author it matches with the most papers; ``others``, further stored authors it matches; ``ids``,
    ``author``'s papers; ``count``: the question asks how many; ``topic``: what the papers it asks about
    hold, written after the co-author phrase ("on GFlowNets"), else ``""``."""

    typed: str
    author: str
    others: tuple[str, ...]
    ids: frozenset[str]
    count: bool
    #: "on GFlowNets": only their papers holding this topic's words count ("": all their papers)
    topic: str = ""


def asks_for_coauthors(question: str) -> bool:
    """Whether ``question`` has a phrase that asks for someone's co-authors (no store read)."""
    return any(pattern.search(question) for pattern in _ASKS)


def coauthor_ask(question: str, index: AuthorIndex) -> CoauthorAsk | None:
    """The :class:`CoauthorAsk` of ``question``, or ``None`` when it asks for no one's co-authors or no
    stored author has the name (the longest run of the phrase's capitalised words that a stored author's
    name holds, after words such as "What is")."""
    for pattern in _ASKS:
        for m in pattern.finditer(question):
            words = m.group("name").split()
            # the longest run of words a stored name holds ("Who are Sergey Levine's co-authors?")
            spans = sorted(
                (
                    (i, n)
                    for i in range(leading_words(words), len(words))
                    for n in range(i + 1, len(words) + 1)
                ),
                key=lambda span: (span[0] - span[1], span[0]),
            )
            for i, n in spans:
                typed = " ".join(words[i:n]).strip(".,;:!?'’")
                if not typed[:1].isupper():
                    continue
                found = index.papers_of(name_words(typed))
                if not found:
                    continue
                # "Who did Yoshua Bengio collaborate with on GFlowNets?": on the papers holding that topic
                # (after the name when the phrase ends with it: "the co-authors of X on GFlowNets")
                end = m.end()
                if m.end("name") == m.end():
                    end = question.find(typed, m.start("name")) + len(typed)
                on = _TOPIC.match(question, end)
                topic = question[on.end() :].strip(" ?.!") if on else ""
                if topic or not _topic(question[: m.start()] + " " + question[end:]):
                    ranked = sorted(found, key=lambda a: (-len(found[a]), a))
                    return CoauthorAsk(
                        typed,
                        ranked[0],
                        tuple(ranked[1:]),
                        frozenset(found[ranked[0]]),
                        bool(re.match(r"\s*how\s+many\b", question, re.I)),
                        topic,
                    )
    return None


def coauthors_answer(question: str, ask: CoauthorAsk, records: Mapping[str, PaperRecord]) -> Answer:
    """The answer naming ``ask.author``'s co-authors on ``records`` (their papers the filters let through):
    a lead line with the counts, then one line per co-author, most shared papers first (ties in the order
    of the papers), each citing those papers: "Kevin Frans: 2 papers [1][3]." At most
    :data:`MAX_COAUTHORS` lines; the notes count the rest and name other stored authors the name matched.
    ``records`` holds only the papers holding ``ask.topic`` when it is given (the engine reads them). The
    abstention when none of the papers is among ``records``. ``count`` is the number of co-authors."""
    papers = sorted(
        (records[pid] for pid in ask.ids if pid in records),
        key=lambda r: (r.source_path, r.source_index),
    )
    if not papers:
        why = f'holds every word of "{ask.topic}"' if ask.topic else "passes the filters"
        return Answer.abstention(question, EXTRACTIVE, notes=[f'no paper by "{ask.author}" {why}'])
    shared: dict[str, list[int]] = {}
    for n, record in enumerate(papers, 1):
        for name in record.authors:
            if name not in (ask.author, OTHERS):
                shared.setdefault(name, []).append(n)
    ranked = sorted(shared, key=lambda a: (-len(shared[a]), shared[a][0]))
    s, p = "s" if len(ranked) != 1 else "", "s" if len(papers) != 1 else ""
    holding = f' holding "{ask.topic}"' if ask.topic else ""
    lines = [
        f"{ask.author} has {len(ranked)} co-author{s} on {len(papers)} stored paper{p}{holding}:"
    ]
    for name in ranked[:MAX_COAUTHORS]:
        k = len(shared[name])
        cites = "".join(f"[{n}]" for n in shared[name])
        lines.append(f"{name}: {k} paper{'s' if k != 1 else ''} {cites}.")
    notes = []
    if len(ranked) > MAX_COAUTHORS:
        most = len(shared[ranked[MAX_COAUTHORS]])  # the most papers one left out shares
        each = f"at most {most} papers" if most > 1 else "1 paper"
        notes.append(
            f"{len(ranked) - MAX_COAUTHORS} more co-authors not listed, each on {each} (`paperchat papers "
            f'--author "{ask.author}"` lists the papers)'
        )
    if ask.others:
        notes.append(
            f'"{ask.typed}" also names {", ".join(ask.others[:5])}{", …" if len(ask.others) > 5 else ""}: '
            f"answered for {ask.author}, who has the most stored papers"
        )
    return metadata_listing(
        question, "\n".join(lines), papers, notes, len(ranked) if ask.count else None
    )
