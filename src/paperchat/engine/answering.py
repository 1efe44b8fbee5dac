"""Answering from retrieved hits: the LLM gate (is anything relevant enough to ask it?), the LLM answer with
its offline fallback, and the offline extractive answer.

:meth:`paperchat.engine.Engine.answer_from_hits` delegates here; ``ask``,
``ask_followup`` and the eval call it with the hits they retrieved.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from paperchat.core.contract import EXTRACTIVE, LLM, Answer
from paperchat.core.errors import (
    LLMBadResponse,
    LLMConnectionError,
    LLMContextOverflow,
    LLMEmptyAnswer,
    LLMRateLimited,
    LLMServerError,
    LLMTimeout,
)
from paperchat.ingest.records import PaperRecord

#: LLM faults ``--mode auto`` answers offline after, with a note: the server cannot answer now (unreachable,
#: timed out, failing after its retries, rate limited past the longest wait, a reply that is no Chat
#: Completions stream, such as a proxy's "Bad gateway" page, an empty answer, or a context window with no
#: room for a source). A wrong key, an unknown model or a bad URL stay errors: they need the user's fix.
FALLS_BACK = (
    LLMContextOverflow,
    LLMConnectionError,
    LLMEmptyAnswer,
    LLMTimeout,
    LLMServerError,
    LLMRateLimited,
    LLMBadResponse,
)

OnToken = Callable[[str], None]

#: In LLM mode, the LLM is not asked when no retrieved chunk reaches this cosine
#: similarity to the question (off-topic questions score 0.08-0.16 on the eval set,
#: answerable ones 0.24 and up), or when the question names something no retrieved
#: abstract mentions.
LLM_MIN_COSINE = 0.2


def answer_from_hits(
    engine,
    question: str,
    hits: list,
    records: dict[str, PaperRecord] | None = None,
    qvec=None,
    mode: str = EXTRACTIVE,
    on_token: OnToken | None = None,
    t0: float | None = None,
    fallback: bool = False,
    referred: bool = False,
) -> Answer:
    """Answer ``question`` from the given hits (rank order) only, in ``mode`` (``llm`` or ``extractive``),
    with ``engine`` (a :class:`paperchat.engine.Engine`). ``referred``: the hits are the papers a chat
    follow-up points at ("summarize the second one"), so the LLM is asked however weakly the words match.

    ``records`` are the hits' paper records (read when ``None``), ``qvec``
    the question's embedding (computed when ``None``). In LLM mode the LLM
    is not asked when retrieval found nothing relevant (:data:`LLM_MIN_COSINE`,
    or a name no retrieved abstract mentions). ``fallback`` (``--mode auto``):
    an LLM that cannot be reached, or that returns an empty answer, gives the
    offline answer, with a note, instead of an error.
    """
    from paperchat.answer.offline import offline_answer
    from paperchat.answer.subjects import missing_names

    t0 = time.perf_counter() if t0 is None else t0
    if records is None:
        records = engine.retriever.records([h.paper_id for h in hits])
    if qvec is None:
        qvec = engine.embedder.embed_one(question)
    if mode == LLM:
        relevant = [h for h in hits if h.paper_id in records]
        best = max((h.dense or 0.0 for h in relevant), default=0.0)
        texts = [records[h.paper_id].full_text for h in relevant]
        if relevant and (referred or best >= LLM_MIN_COSINE) and not missing_names(question, texts):
            from paperchat.answer.llm_answer import llm_answer

            try:
                answer = llm_answer(
                    question, hits, records, engine.settings, engine.checker, on_token=on_token
                )
            except FALLS_BACK as exc:
                if not fallback:
                    raise
                answer = answer_from_hits(engine, question, hits, records, qvec, EXTRACTIVE, t0=t0)
                answer.notes.append(f"{exc}; answered offline by quoting the abstracts")
                return answer
            answer.timings["pipeline_total_s"] = round(time.perf_counter() - t0, 4)
            # an answer citing nothing: say what it was given, as Sources would
            if not answer.sources and not answer.abstained:
                sent = relevant[: answer.sources_sent or len(relevant)]
                given = "; ".join(f"{records[h.paper_id].name} ({h.paper_id})" for h in sent[:5])
                more = f"; and {len(sent) - 5} more" if len(sent) > 5 else ""
                answer.notes.append(
                    f"the answer cites none of the papers it was given: {given}{more}"
                )
            # an agent reading only `answer` and `notes` (MCP) had not seen a sentence's wrong citation
            if unsupported := [i for i, s in enumerate(answer.sentences, 1) if not s.supported]:
                answer.notes.append(
                    f"the citation check did not support sentence(s) {', '.join(map(str, unsupported))} "
                    "of the answer by the source(s) they cite (see `sentences`)"
                )
            return answer
        answer = Answer.abstention(
            question,
            LLM,
            [h.retrieved() for h in hits],
            model=engine.settings.llm_model,
            notes=["nothing retrieved answers the question; the LLM was not asked"],
        )
        if on_token:
            on_token(answer.answer)
    else:
        bm25 = engine.store.bm25()
        answer = offline_answer(
            question,
            qvec,
            hits,
            records,
            engine.sentences,
            engine.store.chunk_texts,
            n_papers=len(bm25.ids),
            lexicon=bm25,
        )
    answer.timings["total_s"] = round(time.perf_counter() - t0, 4)
    return answer
