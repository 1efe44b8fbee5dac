"""Answering one question over the whole store (:meth:`paperchat.engine.Engine.ask`).

The question is cleaned, the answer mode chosen, the filters resolved to paper ids, the question
embedded and retrieved (with more papers for a "which papers" list), and the hits answered
(:func:`paperchat.engine.answering.answer_from_hits`). Before that, a question is read for what the
stored metadata answers (:func:`_read`): an author's papers, or how many papers are on a topic. An
offline abstention offers the stored labels spelled like a name no paper writes (:func:`_did_you_mean`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from paperchat.core import phases
from paperchat.core.contract import EXTRACTIVE, LLM, Answer
from paperchat.core.terms import terms
from paperchat.core.text import clean_question

#: Papers retrieved for a question that asks for several ("Which papers ...?") when top-k is smaller and
#: was not chosen by the user (left at its default).
PLURAL_TOP_K = 10


@dataclass
class _Reading:
    """What is retrieved and answered for a question (see :func:`_read`)."""

    text: str  # the question as answered ("Which papers are about speculative decoding?")
    paper_ids: frozenset[str] | None  # the papers it may be answered from (None: every paper)
    notes: list[str] = field(
        default_factory=list
    )  # said of the answer, when it is not the abstention
    lead: str = ""  # the answer's first line ("12 stored papers have every word of ...")
    count: int | None = None  # the papers counted, when the question asks how many
    answer: Answer | None = None  # answered already, from the stored metadata
    whose: tuple[str, frozenset[str]] | None = None  # "Did X write Y?": X and X's papers


def _read(engine, question: str, paper_ids, mode: str) -> _Reading:
    """The :class:`_Reading` of ``question``: an author's papers listed from the stored metadata
    (:mod:`paperchat.answer.authorship`), a topic answered from that author's papers only, "Did X write Y?"
    asked as "Who wrote Y?", the papers of a year (:mod:`paperchat.answer.year_asks`), a count of the
    papers on a topic (:mod:`paperchat.answer.paper_counts`), or the question itself over ``paper_ids``."""
    from paperchat.answer.authorship import asks_for_author, author_in_question, author_listing
    from paperchat.answer.paper_counts import count_line, counted_topic, topic_forms
    from paperchat.answer.year_asks import asked_year, year_note

    reading = _Reading(question, paper_ids)
    author = (
        author_in_question(question, engine.author_index()) if asks_for_author(question) else None
    )
    if author:
        ids = author.ids if paper_ids is None else author.ids & paper_ids
        if author.whose:  # "Did X write Flow Q-Learning?": who wrote it, even when X wrote nothing
            reading.text, reading.whose = author.rest, (author.typed, ids)
        elif author.listing or not ids:  # "Which papers did Yoshua Bengio write?"
            records = engine.store.papers(sorted(ids), abstracts=False) if ids else {}
            reading.answer = author_listing(question, author, records)
            return reading
        else:  # "... on GFlowNets": answered from their papers only
            reading.text, reading.paper_ids = author.rest, frozenset(ids)
            s = "s" if len(ids) != 1 else ""
            reading.notes.append(
                f"answered from the {len(ids)} stored paper{s} by {author.who} "
                f"({', '.join(author.authors[:6])})"
            )
    when = asked_year(reading.text)
    if when:  # "Which papers were published in 2024?": that year's stored papers
        catalog = engine.catalog()
        held = {pid for pid, r in catalog.items() if r.year == when.year}
        held &= reading.paper_ids if reading.paper_ids is not None else held
        if not held:
            note = year_note(when.year, [r.year for r in catalog.values()])
            reading.answer = Answer.abstention(question, mode, notes=[note])
            return reading
        reading.text, reading.paper_ids = when.rest, frozenset(held)
        reading.notes.append(
            f"answered from the {len(held):,} stored papers that appeared in {when.year}"
        )
    topic = counted_topic(reading.text)
    if topic is not None:  # "How many papers are about X?": the papers holding every word of X
        bm25, held, forms = engine.store.bm25(), set(), []
        for form in topic_forms(topic):  # "LLMs", and "LLM" when some paper writes it
            found = bm25.holders(bm25.terms_of(form))
            held, forms = held | found, forms + [form] * bool(found or not forms)
        held &= reading.paper_ids if reading.paper_ids is not None else held
        if not held:
            note = f'no stored paper has every word of "{topic}" in its title or abstract'
            reading.answer = Answer.abstention(question, mode, notes=[note])
            return reading
        reading.text, reading.paper_ids = f"Which papers are about {topic}?", frozenset(held)
        reading.lead, reading.count = count_line(len(held), topic, forms), len(held)
    return reading


def ask(engine, question: str, top_k=None, mode=None, on_token=None, filters=None) -> Answer:
    """Answer ``question`` with ``engine`` (a :class:`paperchat.engine.Engine`; see :meth:`~paperchat.engine.Engine.ask`)."""
    from paperchat.answer.intent import FIND, read_question

    t0 = time.perf_counter()
    question = clean_question(question, engine.settings.llm_api_key)
    choice = engine.choose_mode(mode)
    answer_mode, fallback = choice.mode, choice.fallback
    if answer_mode == LLM:
        from paperchat.answer.llm_client import get_client

        get_client(engine.settings)  # starts importing openai while we retrieve
    engine.store.refresh()
    engine.retriever  # the store's settings are checked before anything is embedded  # noqa: B018
    paper_ids = engine.paper_ids(filters)
    phases.mark("store opened")
    engine.require_papers()  # an empty store says how to fill it before anything is read
    reading = _read(engine, question, paper_ids, answer_mode)
    if reading.answer is not None:
        reading.answer.timings["total_s"] = round(time.perf_counter() - t0, 4)
        return reading.answer
    asked, paper_ids = reading.text, reading.paper_ids
    qvec = engine.embedder.embed_one(asked)
    phases.mark("question embedded")
    k = top_k or engine.settings.top_k
    intent = read_question(asked)
    chosen = (
        engine.settings.origins.get("top_k", "default") != "default" or k != engine.settings.top_k
    )
    if intent.kind == FIND and intent.plural and not chosen:
        # "which papers ...": every paper above the bar, not only the first five (a top-k the user
        # chose, by flag, environment, file or argument, is kept)
        k = max(k, PLURAL_TOP_K)
    hits = engine.retrieve(asked, k, qvec=qvec, paper_ids=paper_ids)
    phases.mark("retrieved")
    answer = engine.answer_from_hits(
        asked, hits, qvec=qvec, mode=answer_mode, on_token=on_token, t0=t0, fallback=fallback
    )
    answer.question = question
    if reading.lead and not answer.abstained:
        answer.answer, answer.count = reading.lead + "\n" + answer.answer, reading.count
    answer.notes += reading.notes
    if (
        reading.whose and answer.sources
    ):  # "Did Sergey Levine write ConfPO?": say whether, in a note
        name, ids = reading.whose
        yes = answer.sources[0].paper_id in ids
        answer.notes.append(f"{name} is {'one of its authors' if yes else 'not among its authors'}")
    if answer.abstained and answer.mode == EXTRACTIVE:
        answer.notes += _did_you_mean(engine, question)  # "What does BanditSpc do?": BanditSpec?
    if (
        answer.abstained
        and answer.mode == EXTRACTIVE
        and paper_ids
        and len(paper_ids) == 1
        and not terms(asked)
    ):  # "What does it propose?" --paper ID: no content word, one paper
        answer = engine.summarize_record(
            engine.store.papers(list(paper_ids))[next(iter(paper_ids))]
        )
        answer.question, answer.notes = question, ["the filters let one paper through: its summary"]
    phases.mark("answered")
    return answer


def _did_you_mean(engine, question: str) -> list[str]:
    """For an abstention: the note that offers the stored labels spelled like a coined name of ``question``
    that no stored paper writes ('no stored paper writes "BanditSpc"; did you mean BanditSpec?', as
    ``summarize`` offers them: :func:`paperchat.answer.summaries.close_names`), or none. The name is not
    read as the label: a near name is as often a paper that is not stored ("What pass rate does
    ProofAugur achieve?" is not ProofAug's), whose figures the near paper's would misstate."""
    from paperchat.answer.summaries import close_names
    from paperchat.core.terms import name_tokens

    names = [n for n in name_tokens(question) if len(n) >= 5]
    if not names:
        return []
    bm25 = engine.store.bm25()
    notes = []
    for name in names:
        if any(bm25.df.get(term, 0) for term in bm25.terms_of(name)):
            continue  # a paper writes it
        close = [c for c in close_names(engine.catalog(), name) if c.lower() != name.lower()]
        if close:
            notes.append(f'no stored paper writes "{name}"; did you mean {" or ".join(close)}?')
    return notes
