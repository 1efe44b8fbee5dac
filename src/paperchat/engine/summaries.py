"""Cited summaries: of one stored paper, or of a topic (the papers retrieval finds for it).

:func:`summarize` reads TARGET as a paper id, label or title (or words only
one title holds), else as a topic; offline, a paper's summary is its own
problem, method and result sentences, a topic's the "which papers" answer.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import replace

from paperchat.core.commands import command
from paperchat.core.contract import EXTRACTIVE, LLM, Answer, Retrieved
from paperchat.core.errors import PaperchatError
from paperchat.core.text import clean_question
from paperchat.engine.answering import FALLS_BACK
from paperchat.engine.asking import ask as ask_question
from paperchat.engine.topic_writers import WRITTEN_TOPIC_MIN, topic_writers
from paperchat.ingest.corpus import P_ID
from paperchat.ingest.records import PaperRecord
from paperchat.retrieve.filters import Filters

OnToken = Callable[[str], None]


def summarize_record(
    engine, record: PaperRecord, mode: str = EXTRACTIVE, on_token: OnToken | None = None
) -> Answer:
    """A cited summary of one paper by ``engine`` (a :class:`paperchat.engine.Engine`): written by the LLM, or
    offline its own problem, method and result sentences."""
    t0 = time.perf_counter()
    if mode == LLM:
        from paperchat.answer.llm_answer import summarize_paper

        return summarize_paper(record, engine.settings, engine.checker, on_token)
    from paperchat.answer.offline import summary_answer

    answer = summary_answer(f"Summarize {record.name}", record, [], engine.store.chunk_texts)
    answer.retrieved = [Retrieved(record.paper_id, s.chunk_id, 1.0) for s in answer.sources]
    answer.timings["total_s"] = round(time.perf_counter() - t0, 4)
    return answer


def summarize(
    engine,
    target: str,
    top_k: int | None = None,
    mode: str | None = None,
    on_token: OnToken | None = None,
    filters: Filters | None = None,
) -> Answer:
    """A cited summary of TARGET: a paper (id, label, title or words of it, named in a note), else a topic (top-k
    papers; also when several papers fit TARGET though one title holds its words); with ``filters``, among the
    papers it lets through. ``engine`` is a :class:`paperchat.engine.Engine`.

    Raises :class:`PaperchatError` for an empty TARGET, a derived paper id
    (``p-`` and 12 hex digits) that no stored paper has, a filter that
    matches no paper, or a one-word TARGET that names no paper and finds no topic (offline).
    """
    from paperchat.answer.summaries import close_names, find_paper, papers_on_topic, title_note
    from paperchat.store.spellings import in_corpus_spelling

    if not (target or "").strip():
        raise PaperchatError("the summary target is empty; give a paper id, label, title or topic")
    target = clean_question(target)
    if not any(ch.isalnum() for ch in target):  # "?" or "-" had summarized an arbitrary paper
        raise PaperchatError(
            f"the summary target {target!r} holds no letter or digit; give a paper id, label, title or topic"
        )
    choice = engine.choose_mode(mode)
    answer_mode, fell_back = choice.mode, ""
    engine.store.refresh()
    engine.require_papers()
    ids = engine.paper_ids(filters)
    paper_id, how = find_paper(
        {p: r for p, r in engine.catalog().items() if not ids or p in ids},
        target,
        lambda t: [
            p
            for p in papers_on_topic(t, engine.store.bm25(), engine.store.papers)
            if not ids or p in ids
        ],
    )
    if paper_id is None and ids and find_paper(engine.catalog(), target, lambda t: [])[0]:
        # "summarize ConfPO --paper KVf2SFL1pi": a stored paper, kept out by the filters
        raise PaperchatError(
            f"{target!r} names a stored paper that the filters ({filters.describe()}) leave out"
        )
    if paper_id is None and len(titled := sorted(_titled(engine, target, ids))) > 1:
        # two stored papers of one title (a preprint and its "extended version"): which one, by id
        raise PaperchatError(
            f"{len(titled)} stored papers have the title {target!r} ({', '.join(titled[:3])}); "
            f"summarize one by its id: `{command(engine.settings, 'summarize', titled[0])}`"
        )
    if paper_id is None and (same := engine.content_ids([target]).get(target)):
        paper_id = same if not ids or same in ids else None  # a p-… id from another store
    if paper_id is None and P_ID.fullmatch(target):
        raise PaperchatError(
            f"no paper with id {target} in the store; `paperchat papers` lists them"
        )
    if paper_id is None and (named := _abstract_name(engine, target, ids)):
        paper_id, how = named, "abstract name"
    if paper_id is None and len(target.split()) == 1:
        lexicon = engine.store.bm25()
        unknown = all(not lexicon.df.get(t, 0) for t in lexicon.tokenize([target])[0])
        close = close_names(engine.catalog(), target) if unknown else []
        # a word no paper uses, spelled like a label ("banditspc"): not a topic to summarize
        if close:
            raise PaperchatError(
                f"no paper with id or label {target!r}; did you mean {' or '.join(close)}? "
                "`paperchat papers` lists them"
            )
    if paper_id is not None:
        record = engine.store.papers([paper_id])[paper_id]
        try:
            answer = engine.summarize_record(record, answer_mode, on_token)
        except FALLS_BACK as exc:  # --mode auto: the LLM cannot answer now
            if not choice.fallback:
                raise
            answer = engine.summarize_record(record, EXTRACTIVE)
            answer.notes.append(f"{exc}; answered offline by quoting the abstracts")
        answer.question = f"Summarize {target}"
        answer.notes += [note] if (note := title_note(target, record, how)) else []
        answer.notes += _same_title(engine, record, ids)
        if how == "label" and len(target.split()) >= 2:
            # "summarize "Best of Both Worlds"": one paper's label, the words of other titles too
            answer.notes += _titles_holding(engine, target, paper_id, ids)
        if how == "label":  # "summarize SD": one paper's label, which other papers write too
            bm25 = engine.store.bm25()
            label = bm25.tokenize([target])[0]  # one term, or no count
            others = max(0, bm25.holding(set(label)) - 1) if len(label) == 1 else 0
            answer.notes += (
                [
                    f"\"{target}\" read as the label of '{record.name}'; {others} other stored "
                    f'paper{"s" if others != 1 else ""} also write "{target}": '
                    f'`paperchat ask "How many papers are about {target}?"` counts them'
                ]
                if others
                else []
            )
        answer.target = target
        return answer
    # a topic in British spelling ("normalising flows": 3 papers write it, 11 "normalizing flows") or without
    # its accents ("Schrodinger bridge")
    target, respelled = in_corpus_spelling(engine.store.bm25(), target)
    if absent := _unwritten(engine.store.bm25(), target):
        # "cryptocurrency price prediction": no paper is on it, however near the retrieved ones rank
        close = close_names(engine.catalog(), " ".join(target.split()), titles=True)
        # one word: most likely an id or label this store lacks, an error as below
        if len(target.split()) == 1:
            hint = f"did you mean {' or '.join(close)}? " if close else ""
            raise PaperchatError(
                f"no paper with id or label {target!r}, and no paper on that topic; "
                f"{hint}`paperchat papers` lists them"
            )
        answer = Answer.abstention(
            f"Summarize {target}",
            EXTRACTIVE,
            notes=[
                f"no paper's title matches {target!r} and no stored paper is on that topic (none writes "
                f"{' or '.join(repr(w) for w in absent)})"
                + (f"; did you mean {' or '.join(close)}?" if close else "")
            ],
        )
        answer.target = target
        return answer
    writing, shorts = topic_writers(engine, target, ids)
    if ids and not writing and (everywhere := topic_writers(engine, target, None)[0]):
        # "summarize "world models" --author levine": papers of "real-world" and "models" had been summarized
        answer = Answer.abstention(
            f"Summarize {target}",
            EXTRACTIVE,
            notes=[
                f'{len(everywhere)} stored papers write "{target}", none of them among the papers the '
                f"filters ({filters.describe()}) leave"
            ],
        )
        answer.target = target
        return answer
    # no paper writes it as a phrase ("diffusion model alignment"): those holding every word of it, when
    # several do ("Hessian Geometry of Latent Space ...", with no form of "align", had been summarized)
    within = writing or _holding_all(engine, target, ids)
    if answer_mode == LLM:
        from paperchat.answer.llm_answer import summarize_topic

        hits = engine.retrieve(target, top_k, paper_ids=frozenset(within) or ids)
        records = engine.store.papers([h.paper_id for h in hits])
        try:
            answer = summarize_topic(
                target, hits, records, engine.settings, engine.checker, on_token
            )
        except FALLS_BACK as exc:  # --mode auto: the LLM cannot answer now
            if not choice.fallback:
                raise
            answer_mode, fell_back = EXTRACTIVE, f"{exc}; answered offline by quoting the abstracts"
    if answer_mode != LLM:
        scoped = replace(filters or Filters(), papers=tuple(sorted(within))) if within else filters
        # its own count of the papers writing the topic (below) stands for the list's
        answer = ask_question(
            engine,
            f"Which papers are about {target}?",
            top_k=top_k,
            mode=EXTRACTIVE,
            filters=scoped,
            count_note=not writing,
        )
        if answer.abstained and len(target.split()) == 1:  # most likely a mistyped id or label
            close = close_names(engine.catalog(), target)
            hint = f"did you mean {' or '.join(close)}? " if close else ""
            raise PaperchatError(
                f"no paper with id or label {target!r}, and no paper on that topic; "
                f"{hint}`paperchat papers` lists them"
            )
        if not answer.abstained and re.fullmatch(r"[A-Z][A-Za-z0-9-]*[A-Z][A-Za-z0-9-]*s?", target):
            # "summarize DRL": no paper is labelled so; say it was read as a topic (a break-it session)
            answer.notes.append(
                f'no stored paper is labelled "{target}": summarized as a topic, from the papers '
                "retrieval finds for it"
            )
        if answer.abstained:  # say what was looked for, not that a question went unanswered
            close = close_names(engine.catalog(), " ".join(target.split()), titles=True)
            answer.notes.append(
                f"no paper's title matches {target!r} and no stored paper is on that topic"
                + (f"; did you mean {' or '.join(close)}?" if close else "")
            )
        answer.notes += [fell_back] if fell_back else []
    answer.notes += [f"read {', '.join(respelled)}"] if respelled else []
    shown = len({s.paper_id for s in answer.sources})
    if writing and not answer.abstained:
        also = "".join(f' or "{x}"' for x in shorts)
        listed = f'; `paperchat ask "How many papers are about {target}?"` lists those writing "{target}"'
        answer.notes.append(
            f'{len(writing)} stored papers write "{target}"{also}: the summary keeps to them and cites '
            f"the {shown} retrieval ranks first" + (listed if len(writing) > shown else "")
        )
    # "summarize Flow Q Lerning": a topic summary of other flow papers; the paper meant may be a typo away
    near = close_names(engine.catalog(), target, n=1, titles=True, cutoff=0.85)
    if len(target.split()) >= 2 and near and not answer.abstained:
        answer.notes.append(f"summarized as a topic; did you mean {near[0]}?")
    answer.target = target
    return answer


def _holding_all(engine, target: str, ids) -> set[str]:
    """The stored papers (of ``ids`` when given) holding every word of ``target``, a topic of two or three
    words, when at least :data:`WRITTEN_TOPIC_MIN` do; else empty."""
    if not 2 <= len(target.split()) <= 3:
        return set()
    lexicon = engine.store.bm25()
    held = lexicon.holders(lexicon.terms_of(target))
    held = held & set(ids) if ids else held
    return held if len(held) >= WRITTEN_TOPIC_MIN else set()


def _titles_holding(engine, target: str, paper_id: str, ids) -> list[str]:
    """A note naming the other stored papers (of ``ids`` when given) whose titles write ``target``, a label of
    several words one paper has; none when no other title does."""
    others = sorted(pid for pid in _titled(engine, target, ids, within=True) if pid != paper_id)
    if not others:
        return []
    records = engine.catalog()
    shown = "; ".join(f"'{records[pid].title}' ({pid})" for pid in others[:3])
    shown += "; ..." if len(others) > 3 else ""
    return [
        f'{len(others)} other stored title{"s" if len(others) > 1 else ""} also write "{target}": {shown}; '
        "summarize one by its id"
    ]


def _abstract_name(engine, target: str, ids) -> str | None:
    """The one stored paper (of ``ids`` when given) whose title or abstract writes ``target``, a coined name
    of one word (:func:`~paperchat.core.terms.name_tokens`: "MorphKV"), when no other paper holds it; else
    ``None``. A reviewer's "summarize MorphKV" had been "summarized as a topic" from that one paper, whose
    title ("Dialogue Without Limits: ...") does not name it."""
    from paperchat.core.terms import name_tokens

    if len(target.split()) != 1 or not name_tokens(target):
        return None
    lexicon = engine.store.bm25()
    holders = lexicon.holders(lexicon.terms_of(target))
    holders = holders & set(ids) if ids else holders
    if len(holders) != 1:
        return None
    pid = next(iter(holders))
    written = re.compile(rf"(?<![\w-]){re.escape(target)}(?![\w-])")
    return pid if written.search(engine.store.papers([pid])[pid].full_text) else None


def _unwritten(lexicon, target: str) -> list[str]:
    """The words of a topic (four letters or more) that no stored paper writes, nor a slip of one
    (:meth:`~paperchat.store.bm25.BM25Index.unknown`): "cryptocurrency" in "cryptocurrency price prediction"
    (a related-work session had it summarized from papers on one-max search and conformal prediction)."""
    return [w for w in re.findall(r"[^\W_][\w-]*", target) if len(w) >= 4 and lexicon.unknown(w)]


def _same_title(engine, record, ids) -> list[str]:
    """A note when other stored papers (within ``ids``, when the filters restrict) share ``record``'s title:
    'another stored paper has this title (p-…): `paperchat summarize p-…` summarizes it' (an own-corpus
    session had one of two same-titled papers summarized with no word of the other)."""
    if not (record.title or "").strip():
        return []
    others = [pid for pid in _titled(engine, record.title, ids) if pid != record.paper_id]
    if not others:
        return []
    shown = ", ".join(others[:3]) + (" ..." if len(others) > 3 else "")
    return [
        f"{len(others)} other stored paper{'s have' if len(others) > 1 else ' has'} this title ({shown}): "
        f"`{command(engine.settings, 'summarize', others[0])}` summarizes {'one' if len(others) > 1 else 'it'}"
    ]


def _titled(engine, target: str, ids, within: bool = False) -> list[str]:
    """The stored papers (within ``ids`` when the filters restrict) whose title is ``target`` (``within``:
    holds it), any case and spacing, in store order."""
    want = " ".join(target.lower().split())
    found = []
    for pid, r in engine.catalog().items():
        title = " ".join((r.title or "").lower().split())
        if (not ids or pid in ids) and (want in title if within else want == title):
            found.append(pid)
    return found
