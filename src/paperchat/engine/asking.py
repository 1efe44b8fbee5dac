"""Answering one question over the whole store (:meth:`paperchat.engine.Engine.ask`).

The question is cleaned, the answer mode chosen, the filters resolved to paper ids, the question
embedded and retrieved (with more papers for a "which papers" list), and the hits answered
(:func:`paperchat.engine.answering.answer_from_hits`). A question that asks for an author's papers
(:mod:`paperchat.answer.authorship`) is answered from the stored metadata, or from that author's
papers only.
"""

from __future__ import annotations

import time

from paperchat.core import phases
from paperchat.core.contract import EXTRACTIVE, LLM, Answer
from paperchat.core.terms import terms
from paperchat.core.text import clean_question

#: Papers retrieved for a question that asks for several ("Which papers ...?") when top-k is smaller and
#: was not chosen by the user (left at its default).
PLURAL_TOP_K = 10


def ask(engine, question: str, top_k=None, mode=None, on_token=None, filters=None) -> Answer:
    """Answer ``question`` with ``engine`` (a :class:`paperchat.engine.Engine`; see :meth:`~paperchat.engine.Engine.ask`)."""
    from paperchat.answer.authorship import asks_for_author, author_in_question, author_listing
    from paperchat.answer.intent import FIND, read_question
    from paperchat.answer.paper_counts import count_line

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
    asked, author = question, None
    if asks_for_author(asked):
        author = author_in_question(asked, engine.author_index())
        if author:
            # "Which papers did Yoshua Bengio write?": their papers, from the stored metadata
            ids = author.ids if paper_ids is None else author.ids & paper_ids
            if author.listing or not ids:
                records = engine.store.papers(sorted(ids), abstracts=False) if ids else {}
                answer = author_listing(question, author, records)
                answer.timings["total_s"] = round(time.perf_counter() - t0, 4)
                return answer
            if author.whose:  # "Did X write Flow Q-Learning?": who wrote that paper
                asked, author = author.rest, None
            else:  # "... on GFlowNets": answered from their papers only
                asked, paper_ids = author.rest, frozenset(ids)
    count = _counted(
        engine, asked, paper_ids
    )  # "How many papers are about X?": the papers holding X
    if count is not None and not count[1]:
        note = f'no stored paper has every word of "{count[0]}" in its title or abstract'
        return Answer.abstention(question, answer_mode, notes=[note])
    if count is not None:
        asked, paper_ids = f"Which papers are about {count[0]}?", count[1]
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
    if count is not None and not answer.abstained:
        answer.answer = count_line(len(count[1]), count[0]) + "\n" + answer.answer
    if answer.abstained and answer.mode == EXTRACTIVE:
        answer.notes += _did_you_mean(engine, question)  # "What does BanditSpc do?": BanditSpec?
    if author:
        answer.notes.append(
            f"answered from the {len(paper_ids)} stored paper{'s' if len(paper_ids) != 1 else ''} "
            f'by an author named "{author.typed}" ({", ".join(author.authors[:6])})'
        )
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


def _counted(engine, question: str, paper_ids) -> tuple[str, frozenset[str]] | None:
    """For "How many papers are about X?": X and the ids of the stored papers (of ``paper_ids`` when the
    filters give some) whose title or abstract holds every word of X
    (:mod:`paperchat.answer.paper_counts`), none when no paper holds it; ``None`` for another question."""
    from paperchat.answer.paper_counts import counted_topic

    topic = counted_topic(question)
    if topic is None:
        return None
    bm25 = engine.store.bm25()
    held = bm25.holders(bm25.terms_of(topic))
    if paper_ids is not None:
        held &= paper_ids
    return topic, frozenset(held)
