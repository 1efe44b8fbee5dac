"""Questions about who wrote what: "Which papers did Yoshua Bengio write?", "Levine's papers on offline RL".

:func:`author_in_question` finds an author that a question names in a phrase asking for that author's
papers ("papers by NAME", "written by NAME", "NAME's papers", "What did NAME publish?", "with NAME as
an author", "NAME et al.'s papers", which names a first author; for a stored person's whole name only,
"Did NAME work on X?" and "the research of NAME") and that the stored metadata holds
(:func:`paperchat.answer.author_names.AuthorIndex`: one word is a surname, several are one person, any
case and accents, an initial standing for a word; "Levine, Sergey" surname first). A person's name no stored author
has, or a capitalised name asked for nothing but its papers, is an ask without papers, which the
engine answers with the abstention (:func:`_nobody`); "papers by Google on protein folding" stays a
topic question. The engine then either lists that author's papers
from the stored metadata (:func:`author_listing`, each title cited, its evidence the title and author
list) when the question asks for nothing else, or answers the rest of the question from their papers
only (:attr:`AuthorAsk.rest`, retrieval restricted to :attr:`AuthorAsk.ids`), or, asked to summarize
them ("Summarize Martin Vechev's work"), summarizes each (:attr:`AuthorAsk.summary`).

"Did NAME write X?", "Was X written by NAME?" and "Is NAME an author of X?" are asked as "Who wrote X?"
(:attr:`AuthorAsk.whose`), the engine saying in a note whether NAME is among its authors.
The same metadata evidence (:func:`paperchat.answer.paper_lists.metadata_source`) backs "Who wrote X?"
answers (:func:`paperchat.answer.offline.metadata_answer`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass

from paperchat.answer.author_names import AuthorIndex, name_words
from paperchat.answer.paper_lists import listed_answer, only_listing
from paperchat.core.contract import EXTRACTIVE, Answer
from paperchat.core.text import fold
from paperchat.ingest.authors import PARTICLES
from paperchat.ingest.records import PaperRecord

_TOKEN = r"[^\W\d_][\w.'’-]*"
#: A name phrase of up to five words (``name`` group), greedy and lazy: the phrases that ask for an author
#: here and in :mod:`paperchat.answer.coauthors` frame it.
NAME = rf"(?P<name>{_TOKEN}(?:\s+{_TOKEN}){{0,4}})"
NAME_LAZY = rf"(?P<name>{_TOKEN}(?:\s+{_TOKEN}){{0,4}}?)"
_VERBS = r"(?:co-?)?(?:write|wrote|written|publish|published|author|authored|present|presented|submit|submitted|collaborate|collaborated)"
#: The phrases that ask for an author's papers; ``name`` is followed by the rest of the question in the first.
_ASKS = (
    re.compile(
        r"\b(?:papers?|works?|articles?|publications?|submissions?|contributions?|research|"
        rf"(?:co-?)?authored|written|published|presented|submitted)(?:\s+at\s+ICML(?:\s+2025)?)?"
        rf"(?:\s+(?:are|were|is|was))?\s+(?:by|from)\s+{NAME}",
        re.I,
    ),
    re.compile(rf"\b(?:did|has|have|does)\s+{NAME_LAZY}\s+{_VERBS}\b", re.I),
    re.compile(
        rf"\b(?:with|having)\s+{NAME_LAZY}\s+as\s+(?:an?\s+|the\s+)?(?:co-?|first\s+|last\s+)?authors?\b",
        re.I,
    ),
    re.compile(
        rf"(?<![\w'’]){NAME_LAZY}['’]s\s+(?:\w+\s+){{0,2}}?(?:papers?|works?|publications?|submissions?|research)\b",
        re.I,
    ),
)
#: "Did Bo Li work on red teaming?", "What does Taiji Suzuki work on?": only for a stored author (a title
#: may "work on" something too: "Does Flow Matching work on graphs?"), so :func:`_nobody` never reads it.
_WORKS = re.compile(
    rf"\b(?:did|has|have|does|do)\s+{NAME_LAZY}\s+(?:work|worked|works|working|research|researched)\b",
    re.I,
)
#: "Tell me about the research of Bo Li": only for a stored author ("the work of Transformers" is none).
_OF = re.compile(rf"\bthe\s+(?:research|work|works|papers|publications)\s+of\s+{NAME}", re.I)
#: Words before an author's name that are no part of it ("What is Taiji Suzuki's research about?",
#: "Summarize Martin Vechev's work").
_LEADING = frozenset(
    "what is was are were summarize summarise summary show list give me tell describe explain find please "
    "overview of an about so and now".split()
)
#: What an author's summary asks beside their papers ("Summarize the papers by Taiji Suzuki").
_SUMMARY = frozenset("summarize summarise summary summarization overview describe tell".split())
#: "Which papers did Sergey Levine write about offline RL?": "did ... write about" reads as "are about".
_WROTE_ABOUT = re.compile(
    r"\b(?:did|do|does|have|has)\s+(?:co-?)?(?:write|written|publish|published|author|authored)\s+"
    r"(?:(?:papers?|anything)\s+)?(?:about|on)\b",
    re.I,
)
#: "Song et al.'s papers", "How many papers did Song et al. write?": the papers whose first author has that
#: name, when the question asks for nothing else. With a topic, or when no stored first author has the
#: name, the phrase is no author ask: "the attack of Zou et al." names prior work that abstracts cite.
_ET_AL = re.compile(
    r"(?P<name>(?:(?!(?:Did|Does|Do|Is|Are|Was|Were|Has|Have|Had|Can|Could|Would|Should|What|Which|How|Why|"
    r"When|Where|Who|In|On|By|From|For|The|A|An|And|Or|Compare|Summarize|Show|List|Find|Per)\b)"
    r"[A-Z][\w'’-]*\s+)?[A-Z][\w'’-]*)\s+et\s+al\b\.?(?:['’]s\b)?"
)
#: Yes/no questions whether someone wrote a paper named by its title (capitalised or quoted), answered by
#: who wrote it: "Was Flow Q-Learning written by Sergey Levine?", "Is Sergey Levine an author of ConfPO?".
_WHOSE = (
    re.compile(
        r"^\s*(?:[Ii]s|[Ww]as)\s+(?P<title>[\"'“‘A-Z].*?)\s+(?:(?:co-?)?(?:written|authored)\s+)?by\s+"
        rf"{NAME}\s*[?.!]*\s*$"
    ),
    re.compile(
        rf"^\s*(?:is|was)\s+{NAME_LAZY}\s+(?:an?\s+|the\s+|one\s+of\s+the\s+)?(?:co-?|first\s+|last\s+)?"
        r"authors?\s+(?:of|on)\s+(?P<title>(?-i:[\"'“‘A-Z]).*?)\s*[?.!]*\s*$",
        re.I,
    ),
)
#: Words of an author phrase that are never a name (the lazy patterns stop before them).
_NOT_NAMES = frozenset(
    "the a an this that these those their its his her they he she it which what who any all other others "
    "someone anyone people researchers authors author team group lab paper papers work recent icml".split()
)


#: A word written as a person's name: capitalised then lower case ("Jordan", "O'Donnell"), or an initial.
_PERSON_WORD = re.compile(r"(?:[^\W\d_](?<=[A-ZÀ-ÞĀ-ſ])[^\W\d_A-Z]*(?:['’-][^\W\d_]+)*|[A-Z]\.?)$")


@dataclass(frozen=True)
class AuthorAsk:
    """An author a question asks about (see the module docstring).

    ``typed``: the name as the question writes it; ``authors``: the stored author names it matches,
    by paper count; ``ids``: the papers with one of them as an author (none when no stored author has
    the name and the question asks only for their papers); ``rest``: the question without
    the name ("Which papers on GFlowNets?"); ``listing``: true when the question asks for nothing
    beyond the author's papers; ``whose``: a yes/no question whether they wrote a paper, answered by who
    wrote it (``rest`` is then "Who wrote Flow Q-Learning?", over all papers).
    """

    typed: str
    authors: tuple[str, ...]
    ids: frozenset[str]
    rest: str
    listing: bool
    whose: bool = False
    first: bool = False  # "Song et al.": only papers whose first author has the name
    #: "Mang Ye and Wenke Huang together": the second name, whose papers these are too
    also: str = ""
    #: "Summarize Martin Vechev's work": their papers summarized, not listed by title
    summary: bool = False

    @property
    def who(self) -> str:
        """'an author named "Song"', or 'a first author named "Song"' for "Song et al.", or 'authors named
        "Mang Ye" and "Wenke Huang" together'."""
        if self.also:
            return f'authors named "{self.typed}" and "{self.also}" together'
        return f'{"a first" if self.first else "an"} author named "{self.typed}"'


def asks_for_author(question: str) -> bool:
    """Whether ``question`` has a phrase that asks for someone's papers (no store read: the engine builds
    the :class:`AuthorIndex` only then)."""
    return any(
        not all(w in _NOT_NAMES for w in name_words(m.group("name")))
        for pattern in (_ET_AL,) + _WHOSE + _ASKS + (_WORKS, _OF)
        for m in pattern.finditer(question)
    )


def author_in_question(question: str, index: AuthorIndex) -> AuthorAsk | None:
    """The author ``question`` asks for the papers of, found in ``index``; ``None`` when no phrase asks
    for an author's papers or no stored author has the name (see the module docstring)."""
    for pattern in (_ET_AL,) + _WHOSE + _ASKS + (_WORKS, _OF):
        for m in pattern.finditer(question):
            words = m.group("name").split()
            lead = leading_words(words)
            for n in range(len(words), lead, -1):  # the longest run of words that names an author
                if n < len(words) and _PERSON_WORD.match(words[n].strip(".,;:!?")):
                    continue  # "Michael Jordan": not "Michael" alone, with "Jordan" left over as a topic
                typed = " ".join(words[lead:n]).strip(".,;:!?'’")
                folded = name_words(typed)
                if (
                    not folded
                    or all(w in _NOT_NAMES for w in folded)
                    or not _name_like(typed, pattern)
                    # "Does Adam work well for transformers?": a person's whole name works on something
                    or (pattern in (_WORKS, _OF) and not is_person(typed))
                ):
                    continue
                typed, found = _surname_first(question, m, typed, folded, pattern, index)
                ask = _ask(question, m, typed, found) if found else None
                if ask and (pattern is not _ET_AL or ask.listing):
                    return ask
    return _nobody(question)


def leading_words(words: list[str]) -> int:
    """How many of a name phrase's first ``words`` are no part of the name ("What is Taiji Suzuki's research
    about?", "Summarize Martin Vechev's work"); the last word is always kept."""
    lead = 0
    while lead < len(words) - 1 and fold(words[lead]).lower() in _LEADING:
        lead += 1
    return lead


def _span(question: str, m: re.Match, typed: str) -> tuple[int, int]:
    """Where ``typed`` (the name, read from ``m``'s name group without its leading words) is in ``question``."""
    start = max(question.find(typed, m.start("name")), m.start("name"))
    return start, start + len(typed)


def _surname_first(question, m, typed, folded, pattern, index) -> tuple[str, dict]:
    """``(typed, papers)``: "papers by Levine, Sergey" is Sergey Levine's (the name as typed, with its
    given name after the comma), else the papers of ``folded`` as they are."""
    start, end = _span(question, m, typed)
    given = re.match(r",\s*([^\W\d_][\w.'’-]*(?:\s+[A-Z][\w.'’-]*)?)", question[end:])
    if pattern is _ASKS[0] and given:
        swapped = index.papers_of(name_words(given.group(1)) + folded)
        if swapped:
            return question[start : end + given.end()], swapped
    return typed, index.papers_of(folded, first=pattern is _ET_AL)


_CO_AUTHOR = re.compile(
    r"\s*(?:(?i:co-?author(?:ed)?|wr(?:ote|itten|ite))\s+)?(?i:and|&|with)\s+(?P<name>[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){0,3})\s*(?i:together|jointly)?"
)


def joint_author(question: str, ask: AuthorAsk, index: AuthorIndex) -> AuthorAsk:
    """``ask`` narrowed to the papers it shares with a second author the question joins to its name
    ("papers written by Mang Ye and Wenke Huang together": those with both), listing them; ``ask`` itself
    when no stored author has the second name, or the question joins none."""
    at = question.find(ask.typed)
    m = _CO_AUTHOR.match(question, at + len(ask.typed)) if at >= 0 else None
    if not m:
        return ask
    other = index.papers_of(name_words(m.group("name")))
    if not other:
        return ask
    ids = ask.ids & frozenset(pid for pids in other.values() for pid in pids)
    rest = " ".join((question[:at] + question[m.end() :]).split())
    return dataclasses.replace(
        ask, ids=ids, rest=rest, listing=only_listing(rest), also=m.group("name")
    )


def _name_like(typed: str, pattern: re.Pattern) -> bool:
    """Whether ``typed`` is written as a person's name: no word in capitals ("AI" in "has AI write tests" is
    not an author "Ai Han"), and capitalised where a verb phrase frames it ("Did Sergey Levine write ...?");
    after "papers by" or before "'s papers" a name typed in lower case ("bengio") is a name."""
    words = typed.split()
    if any(len(w.strip(".")) > 1 and w.strip(".").isupper() for w in words):
        return False
    return pattern in (_ASKS[0], _ASKS[3]) or words[0][0].isupper()


#: A name's particles, written in lower case between its first word and its last ("Mihaela van der Schaar"):
#: a surname's (:data:`paperchat.ingest.authors.PARTICLES`), and Portuguese "dos", "das".
_PARTICLES = frozenset(PARTICLES) | {"dos", "das"}


def is_person(typed: str) -> bool:
    """Whether ``typed`` is written as a person's name of two words or more ("Michael Jordan", "Mihaela van
    der Schaar": lower-case particles between its first and last words)."""
    words = typed.split()
    return (
        len(words) >= 2
        and all(_PERSON_WORD.match(w) for w in (words[0], words[-1]))
        and all(_PERSON_WORD.match(w) or w in _PARTICLES for w in words[1:-1])
    )


def _nobody(question: str) -> AuthorAsk | None:
    """ "Which papers were written by Google?", "papers by Michael Jordan on conformal prediction": a
    capitalised name no stored author has (an :class:`AuthorAsk` without papers), asked for nothing but
    its papers, or written as a person's name of two words or more; ``None`` for anything else ("papers
    by Google on protein folding" stays a topic question)."""
    for m in (m for pattern in _WHOSE + _ASKS for m in pattern.finditer(question)):
        words = m.group("name").split()
        words = words[leading_words(words) :]  # "Summarize Martin Vechv's work"
        if m.re is not _ASKS[0] and not is_person(" ".join(words)):
            continue  # "Which papers did Geoffrey Hinton write?" too, but "did AI write" is no name
        n = next((i for i, w in enumerate(words) if not w[0].isupper()), len(words))
        typed = " ".join(words[:n]).strip(".,;:!?'’")
        if typed and not all(w in _NOT_NAMES for w in name_words(typed)):
            ask = _ask(question, m, typed, {})
            if ask.listing or is_person(typed):
                return ask
    return None


def _ask(question: str, m: re.Match, typed: str, found: dict[str, list[str]]) -> AuthorAsk:
    start, end = _span(question, m, typed)  # after "What is", "Summarize"
    if m.re is _ET_AL:  # "What did Song et al. propose?": "et al." goes with the name
        end = m.end()
    before = question[:start]
    if m.re in (_ASKS[0], _OF):
        before = re.sub(r"\s+(?:by|from|of)\s*$", " ", before, flags=re.I)
    rest = " ".join((before + question[end:]).replace("'s ", " ").replace("’s ", " ").split())
    rest = re.sub(r"\s+([?.!,;:])", r"\1", rest)
    rest = _WROTE_ABOUT.sub("are about", rest)
    listing = only_listing(rest)
    asked = {w for w in re.findall(r"[a-z]+", rest.lower()) if w in _SUMMARY}
    # "Summarize the papers by Taiji Suzuki", "Give me an overview of Quanquan Gu's research"
    summary = bool(asked) and only_listing(
        " ".join(w for w in rest.split() if w.lower() not in _SUMMARY | _LEADING)
    )
    authors = tuple(sorted(found, key=lambda a: (-len(found[a]), a)))
    ids = frozenset(pid for pids in found.values() for pid in pids)
    tail = question[m.end() :].strip()
    if m.re in _WHOSE:  # "Was Flow Q-Learning written by Sergey Levine?"
        return AuthorAsk(typed, authors, ids, f"Who wrote {m.group('title')}?", False, True)
    if m.re is _ASKS[1] and not question[: m.start()].strip() and re.match(r"[\"'“‘A-Z]", tail):
        # "Did Sergey Levine write Flow Q-Learning?": who wrote that paper, whoever it was
        return AuthorAsk(typed, authors, ids, "Who wrote " + tail, False, True)
    return AuthorAsk(
        typed, authors, ids, rest, listing or summary, first=m.re is _ET_AL, summary=summary
    )


def author_listing(question: str, ask: AuthorAsk, records: Mapping[str, PaperRecord]) -> Answer:
    """The answer listing the papers of ``ask``'s author among ``records`` (those the filters let through),
    one line each: '"Title" is by Yoshua Bengio and 6 co-authors [1].' At most :data:`paperchat.answer.paper_lists.MAX_LISTED`
    papers, the most prolific matching author's first; the notes say which stored authors the name
    matched and how many papers were left out. The abstention when none of them is among ``records``."""
    chosen = [records[pid] for pid in sorted(ask.ids) if pid in records]
    if not chosen:
        why = f"no stored paper has {ask.who}" + (
            "" if is_person(ask.typed) else " (authors are stored by name, without affiliations)"
        )
        if ask.ids:
            why = f"no paper by {ask.who} passes the filters"
        return Answer.abstention(question, EXTRACTIVE, notes=[why])
    rank = {a: i for i, a in enumerate(ask.authors)}

    def first_match(record: PaperRecord) -> str:
        return min((a for a in record.authors if a in rank), key=rank.__getitem__)

    chosen.sort(key=lambda r: (rank[first_match(r)], r.source_path, r.source_index))
    # "How many papers did Sergey Levine write?"
    how_many = re.match(r"\s*how many\b", question, re.I)
    s = "s" if len(chosen) != 1 else ""
    return listed_answer(
        question,
        chosen,
        [
            f"{len(chosen)} stored paper{s} by {ask.who} "
            f"({', '.join(ask.authors[:6])}{', …' if len(ask.authors) > 6 else ''}"
            # "Mang Ye and Wenke Huang together" had named Mang Ye alone (a README audit)
            f"{f' with {ask.also}' if ask.also else ''})"
        ],
        lead=f"{len(chosen)} stored paper{s} by {ask.who}:" if how_many else "",
        more=f'`paperchat papers --author "{ask.typed}"` lists the papers of every author with the name '
        f'"{ask.typed}" as a first, middle or last name',
        count=len(chosen) if how_many else None,
        who=first_match,
    )


#: A question that is nothing but a person's name, perhaps with "papers": "sergey levine", "Yoshua Bengio's
#: papers?" (a phone-style session had "sergey levine" declined though he has 11 stored papers).
_BARE = re.compile(
    r"^\s*(?P<name>[^\W\d_][\w.'’-]*(?:\s+[^\W\d_][\w.'’-]*){1,3}?)(?:['’]s)?"
    r"(?:\s+(?:papers?|works?|publications?|pubs))?\s*[?.!]*\s*$",
    re.I,
)


def bare_author(question: str, index: AuthorIndex) -> AuthorAsk | None:
    """The :class:`AuthorAsk` listing the papers of a stored author whose whole name (two words or more, any
    case and accents) is all ``question`` writes, "papers" aside; ``None`` otherwise."""
    m = _BARE.match(question)
    folded = name_words(m.group("name")) if m else []
    if len(folded) < 2 or any(w in _NOT_NAMES for w in folded):
        return None
    found = {a: p for a, p in index.papers_of(folded).items() if len(name_words(a)) == len(folded)}
    if not found:
        return None
    authors = tuple(sorted(found, key=lambda a: (-len(found[a]), a)))
    ids = frozenset(pid for pids in found.values() for pid in pids)
    return AuthorAsk(m.group("name"), authors, ids, "", True)
