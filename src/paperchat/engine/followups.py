"""Answering a chat follow-up: retrieval restricted to (or boosted towards) the papers it refers to, a retry
with the words as asked, and the fall back to a new question when the referred paper has nothing on it.

The chat resolves what a question refers to (:func:`paperchat.chat.followup.resolve`,
a :class:`~paperchat.core.resolution.Resolution`) and keeps the turns;
:meth:`paperchat.engine.Engine.ask_followup` (this module) decides how to retrieve and answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from paperchat.core.contract import EXTRACTIVE, LLM, Answer, Retrieved
from paperchat.core.errors import LLMError
from paperchat.core.resolution import BOOST, RESTRICT, STANDALONE, Resolution
from paperchat.retrieve.filters import Filters

OnToken = Callable[[str], None]


@dataclass
class FollowupAnswer:
    """What :func:`ask_followup` returns: the ``answer`` and the ranking it was answered from, one row per
    paper (``paper_id``, ``label``, ``chunk_id``, ``score``; follow-ups add ``dense``, ``bm25`` and
    ``referred``), for the chat's ``/why`` and turn log."""

    answer: Answer
    hits: list[dict[str, Any]] = field(default_factory=list)


def ask_followup(
    engine,
    res: Resolution,
    recent_turns: list[tuple[str, str]],
    mode: str,
    top_k: int | None = None,
    fallback: bool = False,
    on_token: OnToken | None = None,
    filters: Filters | None = None,
) -> FollowupAnswer:
    """Answer a chat question by its resolution ``res`` with ``engine`` (a :class:`paperchat.engine.Engine`).

    ``recent_turns`` are the last ``(question, answer text)`` pairs, oldest first: with an LLM (``mode``
    ``llm``) the follow-up is rewritten from them as a standalone question (the ``condense`` prompt).
    A ``standalone`` question is :meth:`~paperchat.engine.Engine.ask`; ``restrict`` answers from
    ``res.target_ids`` only; ``boost`` retrieves over all papers (those ``filters`` lets through) with
    the referred ones first, up to ``top_k`` (default: the setting). Offline, an abstention is retried
    with the words as asked, and a weak reference ("the method") whose paper has nothing on it is
    answered as a new question. ``res`` is updated in place (the query used, its kind, the note).
    ``fallback``: the mode was ``auto`` (an unreachable LLM gives offline answers).
    Raises what :meth:`~paperchat.engine.Engine.ask` raises.
    """
    from paperchat.answer.authorship import asks_for_author

    history = [
        (role, text)
        for question, answer in recent_turns
        for role, text in (("user", question), ("assistant", answer))
    ]
    try:
        condensed = engine.condense(history, res.question, mode)
    except LLMError as exc:
        # the rewrite is optional: the rules' reading stands (the answer may fall back)
        condensed = None
        res.note += (
            f"; the LLM could not rewrite the follow-up ({exc}), so the rules' reading was used"
        )
    rewritten = bool(condensed) and condensed != res.question
    # the referred papers, read once for both checks of the rewrite
    referred = engine.store.papers(list(res.target_ids)) if rewritten and res.target_ids else {}
    if rewritten and res.target_ids and not _names_referred(referred, condensed):
        # "summarize the first two" rewritten by a small model as "What is the best way to measure ...":
        # the rules' reading, which names the papers, is kept
        res.note += (
            f'; the LLM\'s rewrite "{condensed}" named none of the referred papers and was not used'
        )
        condensed = None
    if condensed and condensed != res.question:
        res.query = condensed
        res.note += f'; rewritten by the LLM as "{condensed}"'
        if res.kind == RESTRICT and _names_beyond(referred, condensed):
            # "Compare it with MxMoE" rewritten as "Compare FloE with MxMoE": MxMoE must be searched for
            res.kind = BOOST
            res.note += ", retrieval over all papers with the referred ones first"
    engine.store.refresh()
    if res.kind != STANDALONE and asks_for_author(res.query):
        # "did Sergey Levine write it?" asked as "did Sergey Levine write Flow Q-Learning?": the stored
        # metadata answers who wrote it (the referred abstract does not say)
        res.kind = STANDALONE
        res.note += "; an authorship question, answered from the stored metadata"
    if res.kind == STANDALONE:
        return _as_new_question(engine, res, mode, top_k, fallback, on_token, filters)
    return _referred(engine, res, mode, top_k, fallback, on_token, filters)


def _names_referred(records: dict, condensed: str) -> bool:
    """Whether ``condensed`` names one of the referred papers' ``records`` (its label or title)."""
    text = condensed.lower()
    return any(
        name and name.lower() in text for r in records.values() for name in (r.label, r.title)
    )


def _names_beyond(records: dict, condensed: str) -> bool:
    """Whether the LLM's rewrite ``condensed`` names something the referred papers' ``records`` do not
    write (a coined name, :func:`~paperchat.core.terms.name_tokens`): only then is it searched over all
    papers (a rewrite that only spells out the referred paper had added four unrelated ones to its
    sources)."""
    from paperchat.core.terms import name_tokens

    text = " ".join(f"{r.title} {r.label} {r.abstract}" for r in records.values()).lower()
    return any(name.lower() not in text for name in name_tokens(condensed))


def _as_new_question(engine, res, mode, top_k, fallback, on_token, filters) -> FollowupAnswer:
    answer = engine.ask(
        res.query, top_k, mode="auto" if fallback else mode, on_token=on_token, filters=filters
    )
    return FollowupAnswer(answer, retrieved_rows(engine, answer.retrieved))


def _referred(engine, res, mode, top_k, fallback, on_token, filters) -> FollowupAnswer:
    """Answer from the referred papers (``restrict``), or from all papers with them first (``boost``)."""
    from paperchat.answer.intent import read_question
    from paperchat.answer.subjects import missing_names

    vecs: dict[str, Any] = {}

    def embed(text: str):
        if text not in vecs:
            vecs[text] = engine.embedder.embed_one(text)
        return vecs[text]

    qvec = embed(res.query)
    targets = engine.retriever.score_papers(res.target_ids, qvec)
    if len(res.target_ids) >= 2:
        # "the first two": in the order referred to (ranked by score, they had been cited [2] and [1])
        order = {pid: i for i, pid in enumerate(res.target_ids)}
        targets = sorted(targets, key=lambda h: order.get(h.paper_id, len(order)))
    hits = list(targets)
    if res.kind == BOOST:
        k = top_k or engine.settings.top_k
        seen = {h.paper_id for h in hits}
        ids = engine.paper_ids(filters)
        found = engine.retrieve(res.query, k, qvec=qvec, paper_ids=ids)
        # "Compare it with MxMoE" is searched as "Compare FloE with MxMoE": the search marks each paper the
        # comparison mentions, the referred one too, so each answers for itself, named
        marked = {h.paper_id: h.mention for h in found if h.mention}
        for h in hits:
            h.mention = h.mention or marked.get(h.paper_id, "")
        more = [h for h in found if h.paper_id not in seen]
        hits += more[: max(0, k - len(hits))]
    records = engine.store.papers([h.paper_id for h in hits])
    if (
        len(res.target_ids) >= 2
    ):  # "compare the first and the third": each referred paper answers for itself
        for h in targets:
            if h.paper_id in records:
                # by the name the rewritten query gives it ("compare ALKN and IRM"), so a question that
                # only asks to compare them is one (it had been declined as not relevant enough)
                label = records[h.paper_id].label
                named = label and re.search(rf"(?<![\w-]){re.escape(label)}(?![\w-])", res.query)
                h.mention = label if named else records[h.paper_id].name
    picked = _selected(engine, res, records)
    if picked and not picked.kept:
        return FollowupAnswer(Answer(res.question, picked.none_text(), EXTRACTIVE, abstained=True))
    if picked and len(picked.kept) < len(picked.referred):
        hits = [h for h in hits if h.paper_id in picked.kept]
        targets = [h for h in targets if h.paper_id in picked.kept]
    question = res.query
    # "who wrote it?", "when was it published?" read as "who wrote BanditSpec?": the stored metadata says, in
    # every mode, as `ask` does (with an LLM the chat had asked it and shown an invented year)
    from paperchat.engine.asking import METADATA_NOTE, metadata_asked

    metadata = mode == LLM and metadata_asked(res.query, read_question(res.query).kind)
    mode = EXTRACTIVE if metadata else mode
    abstracts = [records[h.paper_id].full_text for h in targets if h.paper_id in records]
    if missing_names(res.query, abstracts) and not missing_names(res.question, abstracts):
        question = res.question  # a title put in the query that the abstract does not spell out
    answer = engine.answer_from_hits(
        question,
        hits,
        records,
        qvec=embed(question),
        mode=mode,
        on_token=on_token,
        fallback=fallback,
        # "summarize the second one": that paper, however the words match
        referred=res.kind == RESTRICT,
    )
    answer.notes += [METADATA_NOTE] if metadata else []
    answer.notes += [picked.note()] if picked and len(picked.kept) < len(picked.referred) else []
    streams = mode == LLM
    if answer.abstained and question != res.question and not streams:
        retry = engine.answer_from_hits(
            res.question, hits, records, qvec=embed(res.question), mode=mode
        )
        if not retry.abstained:
            answer = retry  # the words as asked may match better
    if (
        answer.abstained
        and res.kind == RESTRICT
        and res.weak
        and not streams
        and not read_question(
            res.question
        ).detail  # "what GPU did they use?": the papers do not say
    ):
        # "the method", "they": the referred paper has nothing on it; maybe a new topic after all
        res.kind, res.query = STANDALONE, res.question
        res.note += (
            "; it had no answer there, so the question was answered as a new one over all papers"
        )
        referred = list(res.target_ids)
        new = _as_new_question(engine, res, mode, top_k, fallback, on_token, filters)
        if not new.answer.abstained:
            # said beside the answer, not only in /why: a literature-review session read a logic paper's
            # "limitation" sentence as the speculative-decoding papers' own
            n = len(referred)
            which = "the paper referred to says" if n == 1 else f"the {n} papers referred to say"
            new.answer.notes.append(
                f"{which} nothing on this: answered as a new question over all papers"
            )
        return new
    rows = [
        {
            "paper_id": h.paper_id,
            "label": records[h.paper_id].name if h.paper_id in records else h.paper_id,
            "chunk_id": h.chunk_id,
            "score": round(float(h.score), 4),
            "dense": None if h.dense is None else round(float(h.dense), 4),
            "bm25": None if h.bm25 is None else round(float(h.bm25), 4),
            "referred": h.paper_id in res.target_ids,
        }
        for h in hits
    ]
    return FollowupAnswer(answer, rows)


def _selected(engine, res, records):
    """The :class:`~paperchat.engine.selections.Selection` a restricted follow-up makes ("which of these use
    diffusion?"), else ``None``."""
    from paperchat.engine.selections import select

    if res.kind != RESTRICT:
        return None
    texts = {pid: r.full_text for pid, r in records.items()}
    return select(res.question, list(res.target_ids), texts, engine.store.bm25())


def retrieved_rows(engine, retrieved: list[Retrieved]) -> list[dict[str, Any]]:
    """The retrieved list with labels (for /why and the log)."""
    records = engine.store.papers([r.paper_id for r in retrieved], abstracts=False)
    return [
        {
            **r.to_json(),
            "label": records[r.paper_id].name if r.paper_id in records else r.paper_id,
        }
        for r in retrieved
    ]
