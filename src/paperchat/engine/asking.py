"""Answering one question over the whole store (:meth:`paperchat.engine.Engine.ask`).

The question is cleaned, the answer mode chosen, the filters resolved to paper ids, the question
embedded and retrieved (with more papers for a "which papers" list), and the hits answered
(:func:`paperchat.engine.answering.answer_from_hits`). Before that, a question is read for what the
stored metadata answers (:func:`paperchat.engine.metadata_reads.read_metadata`): an author's papers, a
year's papers, or how many papers are on a topic. An
offline abstention offers the stored labels spelled like a name no paper writes (:func:`_did_you_mean`).
"""

from __future__ import annotations

import re
import time

from paperchat.cite.markers import cite_sentence
from paperchat.core import phases
from paperchat.core.contract import EXTRACTIVE, LLM, Answer, Source
from paperchat.core.errors import PaperchatError
from paperchat.core.terms import terms
from paperchat.core.text import clean_question
from paperchat.engine.introduced import introduced_list
from paperchat.engine.metadata_reads import ANSWERED_FROM, counted_listing, read_metadata

#: Papers holding a list's topic words past which they are counted without reading for the phrase (_more_listed)
MAX_PHRASE_READ = 150
#: The most papers the filters may let through for "compare them" to mean all of them (_about_filtered)
MAX_FILTERED_REFERRED = 5
#: Papers retrieved for a question that asks for several ("Which papers ...?") when top-k is smaller and
#: was not chosen by the user (left at its default).
PLURAL_TOP_K = 10


#: The note of an answer the stored metadata gave in LLM mode, without asking the LLM.
METADATA_NOTE = "answered from the stored metadata (titles, authors, venues), not by the LLM"
QUOTED_NOTE = "listed with the abstracts' own sentences, not by the LLM"


def metadata_asked(question: str, kind: str) -> bool:
    """Whether ``question`` (read as ``kind``, :func:`paperchat.answer.intent.read_question`) asks what the
    stored metadata says (who wrote a paper, its title, where or when it appeared): every mode answers it
    from the metadata, with :data:`METADATA_NOTE` in LLM mode, never the LLM (`ask` and chat follow-ups)."""
    from paperchat.answer.intent import AUTHORS, TITLE
    from paperchat.answer.offline import asks_where_published

    return kind in (AUTHORS, TITLE) or asks_where_published(question)


def ask(
    engine, question: str, top_k=None, mode=None, on_token=None, filters=None, count_note=True
) -> Answer:
    """Answer ``question`` with ``engine`` (a :class:`paperchat.engine.Engine`; see :meth:`~paperchat.engine.Engine.ask`).
    ``count_note``: say when a list is shorter than its topic (:func:`_more_listed`; a topic summary that
    counts its papers itself asks without it)."""
    from paperchat.answer.intent import FIND, SUMMARY, read_question
    from paperchat.answer.summaries import topic_summary

    t0 = time.perf_counter()
    question = clean_question(question, engine.settings.llm_api_key)
    if topic := topic_summary(question):
        # "Summarize the related work on X": the papers on X, as `paperchat summarize X` writes it, not one abstract
        try:
            answer = engine.summarize(topic, top_k, mode, on_token, filters)
        except PaperchatError:
            pass  # no paper and no topic by that name: answered as any question is
        else:
            answer.question = question
            answer.notes.append(
                f'read as a summary of the papers on "{topic}" (`paperchat summarize "{topic}"`)'
            )
            return answer
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
    # "reinforcment lerning from human feedbak": a slip no paper writes is read as the word they write
    asked, fixes = engine.store.bm25().respell(
        question, lambda w: engine.author_index().has_word(w)
    )
    reading = read_metadata(engine, asked, paper_ids)
    reading.notes += (fixed := [f"read {', '.join(fixes)}"] if fixes else [])
    if reading.answer is not None:
        reading.answer.notes += fixed
        reading.answer.timings["total_s"] = round(time.perf_counter() - t0, 4)
        if answer_mode == LLM:  # the README's promise: said when the LLM was not asked
            reading.answer.notes.append(METADATA_NOTE)
        return reading.answer
    asked, paper_ids = reading.text, reading.paper_ids
    # "Which papers introduce a benchmark for X?": those on X that say they introduce one
    if (introduced := introduced_list(engine, question, asked, paper_ids)) is not None:
        introduced.notes = reading.notes + introduced.notes
        if answer_mode == LLM:  # the README's promise: said when the LLM was not asked
            introduced.notes.append(QUOTED_NOTE)
        introduced.timings["total_s"] = round(time.perf_counter() - t0, 4)
        return introduced
    if unwritten := _unwritten(engine, asked):
        # "asdf", "zxcv": no stored paper writes a word of it, and the nearest abstract is no answer
        answer = Answer.abstention(question, answer_mode, notes=reading.notes + [unwritten])
        answer.timings["total_s"] = round(time.perf_counter() - t0, 4)
        return answer
    intent = read_question(asked)
    if (
        answer_mode == LLM
        and intent.kind == SUMMARY
        and (summary := _one_paper_summary(engine, asked, paper_ids, mode, on_token))
    ):
        # "summarize CROW" with an LLM: CROW's summary as `paperchat summarize CROW` writes it, not the
        # answer prompt over CROW and four other papers
        summary.question, summary.notes = question, summary.notes + reading.notes
        return summary
    qvec = engine.embedder.embed_one(asked)
    phases.mark("question embedded")
    k = top_k or engine.settings.top_k
    # given as an argument (the Python API, MCP, eval --top-k) or by flag, environment or file; a caller
    # that passes the setting's own value has chosen it too (a notebook's top_k=5 had listed ten papers)
    chosen = top_k is not None or engine.settings.origins.get("top_k", "default") != "default"
    if intent.kind == FIND and intent.plural and not chosen:
        # "which papers ...": every paper above the bar, not only the first five (a top-k the user
        # chose, by flag, environment, file or argument, is kept)
        k = max(k, PLURAL_TOP_K)
    # "Who wrote ConfPO?", "When was it published?": the stored metadata says, the abstracts do not
    # "How many papers are about X?": counted from the store, its papers listed as counted
    if answer_mode == LLM and (
        metadata_asked(asked, intent.kind) or reading.whose or reading.count is not None
    ):
        answer_mode = EXTRACTIVE
        reading.notes.append(METADATA_NOTE)
    hits = engine.retrieve(asked, k, qvec=qvec, paper_ids=paper_ids)
    phases.mark("retrieved")
    # a count's answer gets its first line, or becomes a listing: shown whole, not streamed
    if reading.lead:
        on_token = None
    answer = engine.answer_from_hits(
        asked, hits, qvec=qvec, mode=answer_mode, on_token=on_token, t0=t0, fallback=fallback
    )
    answer.question = question
    if reading.count is not None and answer.abstained:  # counted, yet no abstract sentence to quote
        answer = counted_listing(engine, question, reading, [h.paper_id for h in hits])
    if reading.lead and not answer.abstained and answer.count is None:
        answer.answer, answer.count = reading.lead + "\n" + answer.answer, reading.count
        if reading.count is not None:
            _list_every_counted(engine, answer, [h.paper_id for h in hits], reading)
    # "What speedup does ghkWIlliZ8 report?" declined: the id was read as that paper, nothing answered from it
    said = ANSWERED_FROM, "read as that paper"
    answer.notes += [n.replace(*said) if answer.abstained else n for n in reading.notes]
    # "Did Sergey Levine write ConfPO?": say whether, in a note
    if reading.whose and answer.sources:
        name, ids = reading.whose
        yes = answer.sources[0].paper_id in ids
        answer.notes.append(f"{name} is {'one of its authors' if yes else 'not among its authors'}")
    if intent.kind == FIND and not intent.plural and not answer.abstained:
        answer.notes += _figure_unstated(engine, asked, answer)
    listing = intent.kind == FIND and intent.plural and count_note
    if listing and not answer.abstained and reading.count is None:
        answer.notes += _more_listed(engine, asked, [s.paper_id for s in answer.sources], paper_ids)
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
    if answer.abstained and answer.mode == EXTRACTIVE and paper_ids and len(paper_ids) > 1:
        # "Compare them." --paper A --paper B: the papers the filters let through, as chat reads "them"
        # after an answer citing them (a course TA's session: it had abstained)
        answer = _about_filtered(engine, question, asked, paper_ids) or answer
    phases.mark("answered")
    return answer


def _more_listed(engine, asked: str, listed: list[str], paper_ids) -> list[str]:
    """The note for a "which papers ..." list that shows fewer papers than the store holds on its topic,
    counted as "How many papers ...?" counts them (:mod:`paperchat.answer.paper_counts`), else none: a
    literature-review session's list of 9 sparse-autoencoder papers had not said that 19 write it. Past
    :data:`MAX_PHRASE_READ` papers holding the topic's words, those are counted without reading their
    abstracts for the phrase (about 0.1 ms a paper)."""
    from paperchat.answer.paper_counts import listed_topic, phrase_holders, topic_holders

    topic, shown = listed_topic(asked), len(listed)
    if not topic or not shown:
        return []
    bm25 = engine.store.bm25()
    held, forms = topic_holders(topic, bm25)
    held &= set(paper_ids) if paper_ids is not None else held
    if len(held) <= shown and held <= set(listed):
        return []
    phrased = (
        phrase_holders(forms, held, engine.store.papers, bm25)
        if len(held) <= MAX_PHRASE_READ
        else set()
    )
    n = len(phrased) if phrased else len(held)
    # how many of the listed papers are of them: a long chat session's "7 write 'test-time scaling'; this
    # list shows 4" had read as four of the seven, where one of the four writes it
    of = len(set(listed) & (phrased or held))
    # a list as long as the count that leaves some of them out says so too (a survey author's 10 on graph
    # transformers had held 3 that do not write it, and no note)
    if n <= shown and of >= n:
        return []
    # the count's own listing keeps to those papers (a bare --top-k had padded the list with papers
    # that do not write the topic; the verifying session)
    writing = "writing" if phrased else "holding"
    also = f", {of} of them {writing} it" if of < shown else ""
    one = n == 1
    verb = (
        ("writes" if one else "write") if phrased else ("has" if one else "have") + " every word of"
    )
    return [
        f'{n:,} stored paper{"" if one else "s"} {verb} "{topic}" in {"its" if one else "their"} title or '
        f'abstract; this list shows {shown}, the most relevant{also} (`paperchat ask "How many papers are '
        f'about {topic}?" --top-k {min(n, 50)}`{" lists them)" if n <= 50 else " lists 50 of them)"}'
    ]


def _about_filtered(engine, question: str, asked: str, paper_ids) -> Answer | None:
    """The offline answer to ``asked`` from the ``paper_ids`` the filters let through (at most
    :data:`MAX_FILTERED_REFERRED`, each answering for itself, as chat answers "compare them" after an
    answer citing them), when it refers to them (:data:`_THEM`: "compare them", "how do they differ?",
    "what do both propose?"); else ``None``."""
    from paperchat.core.resolution import RESTRICT, Resolution

    cue = _THEM.search(asked)
    if cue is None or len(paper_ids) > MAX_FILTERED_REFERRED:
        return None
    res = Resolution(asked, asked, RESTRICT, sorted(paper_ids), cue=cue.group(), note="filtered")
    answer = engine.ask_followup(res, [], mode=EXTRACTIVE).answer
    if answer.abstained:
        return None
    answer.question = question
    answer.notes.append(f"read as about the {len(paper_ids)} papers the filters let through")
    return answer


#: how a question refers to the papers the filters let through
_THEM = re.compile(r"\b(?:they|them|their|both|these|those|the (?:two|three|four|five))\b", re.I)


def _one_paper_summary(engine, question: str, paper_ids, mode, on_token) -> Answer | None:
    """The LLM's summary of the one stored paper a summary request ("Summarize CROW.", as the offline
    answerer reads one: :func:`paperchat.answer.intent.read_question`) names (its id, label or title, as
    ``paperchat summarize`` reads TARGET: :func:`paperchat.answer.summaries.find_paper`), falling back
    offline as an answer does under ``--mode auto`` (``mode`` as asked, streamed to ``on_token``); ``None``
    for a TARGET that is a topic. TARGET is the request without its instruction words (``retrieval_query``)."""
    from paperchat.answer.intent import retrieval_query
    from paperchat.answer.summaries import find_paper

    target = retrieval_query(question).strip(" .?!")  # "Summarize CROW." -> "CROW"
    if not target or target == question:
        return None
    catalog = engine.catalog()
    records = catalog if paper_ids is None else {p: catalog[p] for p in paper_ids if p in catalog}
    paper_id, _how = find_paper(records, target)
    if paper_id is None:
        return None
    return engine.summarize(paper_id, mode=mode, on_token=on_token)


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


def _unwritten(engine, question: str) -> str:
    """The note for a question no word of which a stored paper writes, nor a slip of one, nor an author's
    name (:meth:`paperchat.store.bm25.BM25Index.unknown`), nor is English: 'no stored paper writes "asdf"';
    else ``""``. A phone-style session had "asdf" and "zxcv" answered with the nearest abstracts' sentences."""
    words = terms(question)
    if not words:
        return ""
    from paperchat.ingest.english import is_english

    bm25, authors = engine.store.bm25(), engine.author_index()
    # an English word a small store's papers happen not to write ("When was this published?") is no sign
    if any(not bm25.unknown(w) or authors.has_word(w) or is_english(w) for w in words):
        return ""
    shown = ", ".join(f'"{w}"' for w in words[:3]) + (" ..." if len(words) > 3 else "")
    return f"no stored paper writes any word of the question ({shown})"


def _list_every_counted(engine, answer: Answer, retrieved: list[str], reading) -> None:
    """Add to a count's answer, each on a line of its own after the quoted ones, the retrieved papers it
    counted (``reading.paper_ids``) that it did not quote ('36 stored papers write "optimal transport"'
    with ``--top-k 36`` had listed 31: a notebook session's grep found the other four): each with its
    sentence writing the topic (:func:`paperchat.answer.paper_counts.topic_sentence`), else by title and
    authors."""
    from paperchat.answer.lists import leans
    from paperchat.answer.offline import evidence_chunk, paper_name
    from paperchat.answer.paper_counts import topic_sentence
    from paperchat.answer.paper_lists import metadata_source, paper_line

    cited = {s.paper_id for s in answer.sources}
    counted = reading.paper_ids or ()
    missing = [p for p in retrieved if p in counted and p not in cited]
    records = engine.store.papers(missing) if missing else {}
    for pid in missing:
        record, n = records.get(pid), len(answer.sources) + 1
        if record is None:
            continue
        said = (
            topic_sentence(record.abstract or "", reading.forms, leans) if reading.forms else None
        )
        if said is None:
            answer.answer += f"\n{paper_line(record, n)}"
            answer.sources.append(metadata_source(n, record))
            continue
        answer.answer += f"\n{paper_name(record)}: {cite_sentence(said, n)}"
        chunk_id, text = evidence_chunk(record, [said], [], engine.store.chunk_texts)
        answer.sources.append(Source.from_record(n, record, chunk_id, text))


def _figure_unstated(engine, question: str, answer: Answer) -> list[str]:
    """A note when a "which paper" question gives a figure ("a 5x speedup") that no cited paper states: the
    answer is the closest paper, not one reporting that figure (the verifying helper: SPHNet states 7x, and
    "a 5x speedup for Hamiltonian prediction" had cited TraceGrad with no word of it)."""
    from paperchat.answer.figures import given_figures, states_figures

    figures = given_figures(question)
    if not figures or not answer.sources:
        return []
    records = engine.store.papers([s.paper_id for s in answer.sources])
    if any(states_figures(r.full_text, figures) for r in records.values()):
        return []
    shown = ", ".join(n + ("%" if u == "%" else "x") for n, u in figures)
    return [f"no cited paper states {shown}: check the figure the question gives"]
