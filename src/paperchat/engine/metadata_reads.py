"""Reading a question for what the stored metadata answers, before anything is retrieved.

An author's papers ("Which papers did Sergey Levine write?"), a topic asked of one author's papers, "Did X
write Y?", the papers of a year ("Which papers were published in 2024?") and how many papers there are
on a topic or in all ("How many papers are about LLMs?", "How many papers are there?") and superlatives
("Which paper has the most authors?", "Who has the most papers?") are answered
from the stored titles, authors and years (:mod:`paperchat.answer.authorship`,
:mod:`paperchat.answer.year_asks`, :mod:`paperchat.answer.paper_counts`,
:mod:`paperchat.answer.superlatives`, listed by
:mod:`paperchat.answer.paper_lists`), or narrow the papers the question is then answered from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from paperchat.core.contract import EXTRACTIVE, Answer
from paperchat.engine.presented import (  # noqa: F401 (PRESENTATION_NOTE: read here by tests)
    PRESENTATION_NOTE,
    presentation_notes,
    restrict_to_presentation,
)

#: Questions about what the stored metadata does not record, and what the answer then says: how papers were
#: presented (a notebook session's "Which oral papers are about RL?" listed posters, saying nothing), who the
#: corresponding author is (the authors are stored in order, nothing more).
_CORRESPONDING = re.compile(r"\b(?:corresponding|contact|senior)\s+authors?\b", re.I)
CORRESPONDING_NOTE = (
    "the store lists a paper's authors in order; it does not record who the corresponding or senior "
    "author is"
)
#: How a note on a paper named by its id ends when the question was answered from that paper.
ANSWERED_FROM = "answered from that paper"


#: "What did the authors of ConfPO publish besides ConfPO?", "other papers by the authors of X", "Did the
#: authors of X write anything else?"
_BY_ITS_AUTHORS = re.compile(
    r"\b(?:papers?|works?|else|other)\b.{0,40}?\b(?:by|from|did|have|has)\s+(?:the\s+)?(?:same\s+)?authors?\s+of\b"
    r"|\bauthors?\s+of\s+.{1,80}?\s+(?:also\s+)?(?:publish|write|wrote|written|published)\b"
    r"(?=.*\b(?:else|other|besides|beside|apart from|except|more)\b)",
    re.I,
)


_AUTHORS_OF = re.compile(
    r"\bauthors?\s+of\s+(?:the\s+paper\s+)?[\"'“‘]?(?P<name>.+?)[\"'”’]?(?=\s+(?:also\s+)?(?:publish|write|wrote|"
    r"written|published)\b|\s+(?:besides|beside|apart|except)\b|\s*[?.!]|\s*$)",
    re.I,
)


def _paper_of_authors(engine, question: str):
    """The stored paper "the authors of NAME" names: the one whose short label is NAME (any case), else the
    one whose title starts with it; ``None`` when none or several do."""
    m = _AUTHORS_OF.search(question)
    name = m.group("name").strip().lower() if m else ""
    if not name:
        return None
    records = list(engine.catalog().values())
    found = [r for r in records if r.label and r.label.lower() == name] or [
        r for r in records if r.title and r.title.lower().startswith(name)
    ]
    return found[0] if len(found) == 1 else None


@dataclass
class Reading:
    """What is retrieved and answered for a question (see :func:`read_metadata`)."""

    text: str  # the question as answered ("Which papers are about speculative decoding?")
    paper_ids: frozenset[str] | None  # the papers it may be answered from (None: every paper)
    # said of the answer, when it is not the abstention
    notes: list[str] = field(default_factory=list)
    lead: str = ""  # the answer's first line ("12 stored papers have every word of ...")
    count: int | None = None  # the papers counted, when the question asks how many
    answer: Answer | None = None  # answered already, from the stored metadata
    whose: tuple[str, frozenset[str]] | None = None  # "Did X write Y?": X and X's papers
    forms: list[str] = field(default_factory=list)  # a counted topic's forms ("LLMs", "LLM")


def read_metadata(engine, question: str, paper_ids) -> Reading:
    """The :class:`Reading` of ``question``: a superlative answered (:func:`superlative_answer`), an author's
    papers (or two authors' shared ones) listed from the stored metadata
    (:mod:`paperchat.answer.authorship`), a topic answered from that author's papers only, "Did X write Y?"
    asked as "Who wrote Y?", the papers of a year (:mod:`paperchat.answer.year_asks`: listed when nothing
    else is asked), how many papers there are on a topic or in all (:mod:`paperchat.answer.paper_counts`),
    or the question itself over ``paper_ids`` (the filters' papers; ``None``: every paper)."""
    from paperchat.answer.authorship import (
        asks_for_author,
        author_in_question,
        author_listing,
        bare_author,
        joint_author,
    )
    from paperchat.answer.coauthors import asks_for_coauthors, coauthor_ask, coauthors_answer
    from paperchat.answer.named_papers import ids_named, short_label
    from paperchat.answer.offline import asks_where_published
    from paperchat.answer.paper_counts import (
        count_line,
        counted_topic,
        listed_name,
        topic_holders,
        topic_papers,
    )
    from paperchat.answer.paper_lists import listed_answer, only_listing
    from paperchat.answer.unrecorded import affiliation_caveat, unrecorded_note
    from paperchat.answer.venue_asks import VenueAsk, asked_venue, venue_topic
    from paperchat.answer.year_asks import YearAsk, asked_year, year_note

    named = ids_named(question, engine.catalog(), engine.aliases())
    ids = frozenset(named.values())
    # the filters may leave every named paper out
    said = ANSWERED_FROM if paper_ids is None or ids & paper_ids else "the filters leave it out"
    notes = []
    for typed, pid in named.items():  # "What does KVf2SFL1pi propose?": that paper, by its name
        record = engine.catalog()[pid]
        question = question.replace(typed, short_label(record) or record.name)
        notes.append(f"{typed} is the id of '{record.name}': {said}")
    if named:
        paper_ids = ids if paper_ids is None else ids & paper_ids
    reading = Reading(question, paper_ids, notes)
    # (not under filters, which that listing would not keep to)
    if (
        paper_ids is None
        and _BY_ITS_AUTHORS.search(question)
        and (record := _paper_of_authors(engine, question))
    ):
        # "What did the authors of ConfPO publish besides ConfPO?": their other papers, as chat's "any
        # others by the same authors?" lists them (an author session had only ConfPO's authors)
        from paperchat.engine.shared_authors import same_authors

        reading.answer = same_authors(engine, question, [record], set())
        return reading
    notes += presentation_notes(engine, question) + affiliation_caveat(question)
    notes += [CORRESPONDING_NOTE] if _CORRESPONDING.search(question) else []
    # "Where was ICML 2025 held?", "What did researchers from Google DeepMind present?": not in the store
    if said := unrecorded_note(
        question, lambda: _years(engine, paper_ids), lambda: _venues(engine)
    ):
        reading.answer = Answer.abstention(question, EXTRACTIVE, notes=[said])
        return reading
    if answer := superlative_answer(engine, question, paper_ids):
        reading.answer = answer  # "Which paper has the most authors?", "Who has the most papers?"
        return reading
    if asks_for_coauthors(question) and (co := coauthor_ask(question, engine.author_index())):
        # "Who are Sergey Levine's co-authors?": from the stored author lists (an author session's abstained)
        ids = co.ids if paper_ids is None else co.ids & paper_ids
        if co.topic:  # "... collaborate with on GFlowNets?": their papers holding it
            ids &= topic_holders(co.topic, engine.store.bm25())[0]
        records = engine.store.papers(sorted(ids), abstracts=False) if ids else {}
        reading.answer = coauthors_answer(question, co, records)
        return reading
    author = (
        author_in_question(question, engine.author_index())
        if asks_for_author(question)
        else bare_author(question, engine.author_index())
    )
    # "... by Mang Ye and Wenke Huang together": the papers they share
    author = author and joint_author(question, author, engine.author_index())
    if author:
        ids = author.ids if paper_ids is None else author.ids & paper_ids
        if author.whose:  # "Did X write Flow Q-Learning?": who wrote it, even when X wrote nothing
            reading.text, reading.whose = author.rest, (author.typed, ids)
        elif author.summary and ids:  # "Summarize Martin Vechev's work": each paper summarized
            reading.answer = _author_summary(engine, question, author, ids)
            return reading
        elif author.listing or not ids:  # "Which papers did Yoshua Bengio write?"
            # "What did Sergey Levine publish before 2025?": of those years only
            if ids and (when := asked_year(author.rest)):
                catalog = engine.catalog()
                years = [catalog[pid].year for pid in ids if pid in catalog]
                ids = frozenset(
                    pid for pid in ids if pid in catalog and when.holds(catalog[pid].year)
                )
                if not ids:
                    note = year_note(when, years, author.who)
                    reading.answer = Answer.abstention(question, EXTRACTIVE, notes=[note])
                    return reading
            records = engine.store.papers(sorted(ids), abstracts=False) if ids else {}
            reading.answer = author_listing(question, author, records)
            # "papers by Sergei Levine": a misspelt name is offered the stored ones spelled like it
            if not author.ids and reading.answer.notes:
                from paperchat.ingest.authors import close_names

                close = close_names(author.typed, engine.author_index().names())
                if close:
                    shown = " or ".join(f'"{c}"' for c in close)
                    reading.answer.notes[-1] += f"; did you mean {shown}?"
            return reading
        else:  # "... on GFlowNets": answered from their papers only
            reading.text, reading.paper_ids = author.rest, frozenset(ids)
            s = "s" if len(ids) != 1 else ""
            reading.notes.append(
                f"answered from the {len(ids)} stored paper{s} by {author.who} "
                f"({', '.join(author.authors[:6])})"
            )
    # "Is ConfPO a NeurIPS 2024 paper?" asks where one paper appeared: its venue answers, not 2024's papers
    where = (
        None if asks_where_published(reading.text) else asked_venue(reading.text, _venues(engine))
    )
    if where:  # "Which papers appeared at NeurIPS?": that venue's stored papers
        held = {pid for pid, r in engine.catalog().items() if r.venue == where.venue}
        held &= reading.paper_ids if reading.paper_ids is not None else held
        reading.text, reading.paper_ids = where.rest, frozenset(held)
        reading.notes.append(
            f"answered from the {len(held):,} stored papers that appeared at {where.venue}"
        )
    when = None if asks_where_published(reading.text) else asked_year(reading.text)
    if when:  # "Which papers were published in 2024?": that year's stored papers
        catalog = engine.catalog()
        held = {pid for pid, r in catalog.items() if when.holds(r.year)}
        held &= reading.paper_ids if reading.paper_ids is not None else held
        if not held:
            note = year_note(when, [r.year for r in catalog.values()])
            reading.answer = Answer.abstention(question, EXTRACTIVE, notes=[note])
            return reading
        reading.text, reading.paper_ids = when.rest, frozenset(held)
        reading.notes.append(
            f"answered from the {len(held):,} stored papers that appeared {when.said}"
        )
    # "Which unlearning papers were orals?": the stored orals
    if (shown := restrict_to_presentation(engine, reading, question)) and reading.answer:
        return reading
    topic = counted_topic(reading.text)
    if topic is None:  # "Which papers report results on GSM8K?": each paper writing it, as counted
        topic = listed_name(reading.text, engine.store.bm25, engine.store.papers, reading.paper_ids)
    if topic and not where and (only := venue_topic(topic, _venues(engine))):
        # "How many papers were accepted at ICML 2025?" in a store of ICML papers: all of them, not the
        # papers whose abstracts write "ICML"
        held = {
            pid
            for pid, r in engine.catalog().items()
            if r.venue == only[0] and (only[1] is None or r.year == only[1])
        }
        held &= reading.paper_ids if reading.paper_ids is not None else held
        if not held and only[1] is not None:
            note = year_note(YearAsk(only[1], ""), [r.year for r in engine.catalog().values()])
            reading.answer = Answer.abstention(question, EXTRACTIVE, notes=[note])
            return reading
        reading.paper_ids, topic = frozenset(held), ""
        where, when = VenueAsk(only[0], ""), when or (only[1] and YearAsk(only[1], ""))
    at = f" at {where.venue}" if where else ""
    if topic == "":  # "How many papers are there?", "How many papers appeared in 2025?"
        held = reading.paper_ids if reading.paper_ids is not None else frozenset(engine.catalog())
        n, s = len(held), "s" if len(held) != 1 else ""
        said = (
            f"{n:,} stored paper{s} {_had(n, at, when, shown)}."
            if when or where or shown
            else f"The store holds {n:,} paper{s}."
            if paper_ids is None and reading.paper_ids is None
            else f"{n:,} stored paper{s} pass{'es' if n == 1 else ''} the filters."
        )
        reading.answer = Answer(question, said, EXTRACTIVE, count=n)
        return reading
    if (when or where or shown) and topic is None and only_listing(reading.text):  # "... in 2019?"
        catalog = engine.catalog()
        records = sorted(
            (catalog[pid] for pid in reading.paper_ids if pid in catalog),
            key=lambda r: (r.source_path, r.source_index),
        )
        n, s = len(records), "s" if len(records) != 1 else ""
        reading.answer = listed_answer(
            question,
            records,
            [],
            lead=f"{n:,} stored paper{s} {_had(n, at, when, shown)}:",
            more=f"`paperchat papers{f' --venue {where.venue}' if where else ''}"
            f"{f' --year {when.year}' if when and when.op == 'in' else ''}"
            f"{' --json` gives the presentation of each' if shown else '` lists them all'}",
        )
        return reading
    # "How many papers are about X?": the papers holding every word of X (or writing it as a phrase)
    if topic is not None:
        bm25 = engine.store.bm25()
        # "LLMs", and "LLM" when some paper writes it; "quantum computing": those writing its words in a row
        held, phrased, forms = topic_papers(topic, bm25, engine.store.papers, reading.paper_ids)
        if not held:
            note = f'no stored paper has every word of "{topic}" in its title or abstract'
            reading.answer = Answer.abstention(question, EXTRACTIVE, notes=[note])
            return reading
        # the papers writing its words in a row, when fewer than hold them ("quantum computing": 2 of 9)
        words, held = (len(held), phrased) if phrased and len(phrased) < len(held) else (0, held)
        reading.text, reading.paper_ids = f"Which papers are about {topic}?", frozenset(held)
        reading.lead, reading.count = count_line(len(held), topic, forms, words), len(held)
        reading.forms = forms
    return reading


def superlative_answer(engine, question: str, paper_ids) -> Answer | None:
    """The answer to a superlative over the stored metadata (:mod:`paperchat.answer.superlatives`) among
    ``paper_ids`` (``None``: every paper), narrowed to the year the question names, the author it names
    ("Which of Sergey Levine's papers has the most authors?") or the topic whose words its papers must hold
    ("Who has the most papers on diffusion?"); ``None`` for another question."""
    from paperchat.answer import superlatives as sup
    from paperchat.answer.authorship import asks_for_author, author_in_question
    from paperchat.answer.offline import asks_where_published
    from paperchat.answer.paper_counts import topic_holders
    from paperchat.answer.year_asks import asked_year

    asked = sup.superlative_in(question)
    if asked is None:
        return None
    catalog = engine.catalog()
    held = set(catalog) if paper_ids is None else set(paper_ids) & set(catalog)
    when = None if asks_where_published(question) else asked_year(question)
    year = when.year if when else sup.year_in(question)
    scope = f" from {year}" if year else ""
    if when and when.op != "in":  # "the longest title published before 2025"
        held, scope = (
            {pid for pid in held if when.holds(catalog[pid].year)},
            f" published {when.said}",
        )
    elif year:
        held = {pid for pid in held if catalog[pid].year == year}
    author = None
    if asked.kind != sup.MOST_PAPERS and asks_for_author(question):
        author = author_in_question(question, engine.author_index())
    if author:
        held &= set(author.ids)
        scope = f" by {author.typed}{scope}"
    if asked.topic:
        held &= topic_holders(asked.topic, engine.store.bm25())[0]
        scope += f' holding "{asked.topic}"' if asked.kind != sup.MOST_PAPERS else ""
    if not held:
        note = (
            f'no stored paper has every word of "{asked.topic}"'
            if asked.topic
            else f"no stored paper{scope or ' passes the filters'}"
        )
        return Answer.abstention(question, EXTRACTIVE, notes=[note])
    records = {pid: catalog[pid] for pid in held}
    if asked.kind == sup.MOST_PAPERS:
        return sup.prolific_answer(question, records, asked.topic, scope, asked.first)
    return sup.author_count_answer(question, asked.kind, records, scope)


#: An author's papers summarized at most (the rest are named in a note with the command listing them).
MAX_SUMMARIZED = 10


def _author_summary(engine, question: str, author, ids) -> Answer:
    """Each of ``author``'s papers (``ids``) summarized on a line of its own from its abstract
    (:func:`paperchat.answer.offline.summaries_answer`), at most :data:`MAX_SUMMARIZED`, in the order of
    their source files and rows; the notes say whose papers they are and how many were left out."""
    from paperchat.answer.offline import summaries_answer

    records = engine.store.papers(sorted(ids))
    ordered = sorted(records.values(), key=lambda r: (r.source_path, r.source_index))
    answer = summaries_answer(question, ordered[:MAX_SUMMARIZED], [], engine.store.chunk_texts)
    n, s = len(ordered), "s" if len(ordered) != 1 else ""
    answer.notes.append(
        f"summarized the {n} stored paper{s} by {author.who} ({', '.join(author.authors[:6])})"
        if n <= MAX_SUMMARIZED
        else f"summarized {MAX_SUMMARIZED} of the {n} stored papers by {author.who}: "
        f'`paperchat papers --author "{author.typed}"` lists them all'
    )
    return answer


def counted_listing(engine, question: str, reading: Reading, ranked: list[str]) -> Answer:
    """The papers a count counted (``reading.paper_ids``), listed from the stored metadata after the count
    line, when the "which papers" answer over them abstained: a paper may hold the topic in its title
    only ("How many papers are about pruning?"). ``ranked``: the retrieved ids, listed first."""
    from paperchat.answer.paper_lists import listed_answer

    catalog = engine.catalog()
    held = reading.paper_ids or frozenset()
    order = [p for p in ranked if p in held] + sorted(held - set(ranked))
    records = [catalog[pid] for pid in order if pid in catalog]
    return listed_answer(question, records, [], lead=reading.lead, count=reading.count)


def _had(n: int, at: str, when, shown) -> str:
    """What ``n`` stored papers had in common: 'appeared at ICML in 2025 and were presented as orals'."""
    appeared = f"appeared{at}{f' {when.said}' if when else ''}" if at or when else ""
    how = f"{'was' if n == 1 else 'were'} {shown.said}" if shown else ""
    return " and ".join(filter(None, (appeared, how)))


def _years(engine, paper_ids) -> set:
    """The years of the stored papers (of ``paper_ids`` when given)."""
    catalog = engine.catalog()
    return {catalog[p].year for p in (catalog if paper_ids is None else paper_ids) if p in catalog}


def _venues(engine) -> set[str]:
    """The stored papers' venues."""
    return {r.venue for r in engine.catalog().values() if r.venue}
