"""Written answers by an LLM: numbered sources -> streamed completion -> renumbered citations -> checks.

Sources are the retrieved papers in rank order, numbered 1..N, each with its
title (or label) and its abstract. The least relevant are left out until the
request fits ``settings.context_window`` with room for the answer
(:func:`paperchat.answer.llm_sources.fit_sources`); when the server still reports an overflow, the request
is retried with fewer sources (or within the window the server states).
Streamed pieces reach ``on_token`` with their markers already renumbered in
order of first use, as in the final answer. Every sentence is then checked
against the sources it cites (:class:`paperchat.cite.checker.SupportChecker`).

Answers, paper summaries and topic summaries all go through :func:`complete`.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import Any

from paperchat.answer.asks import reads_as_request
from paperchat.answer.llm_client import count_message_tokens, get_client
from paperchat.answer.llm_sources import (
    SAFETY_TOKENS,
    PromptSource,
    answer_budget,
    fit_sources,
    format_sources,
    prompt_sources,
)
from paperchat.answer.model_text import OwnSourcesCut, cut_own_sources, is_abstention
from paperchat.answer.prompts import load_prompt
from paperchat.cite.markers import StreamRenumber, renumber, strip_markers
from paperchat.core.contract import ABSTENTION, LLM, Answer, Source
from paperchat.core.errors import LLMContextOverflow, LLMEmptyAnswer, LLMError
from paperchat.core.sentences import split_sentences
from paperchat.ingest.records import PaperRecord

OnToken = Callable[[str], None]


def _timings(t0: float, prompt_s: float, completion, t_verify: float) -> dict[str, float | None]:
    first = completion.first_token_s
    return {
        "prompt_s": round(prompt_s, 4),
        "first_token_s": round(prompt_s + first, 4) if first is not None else None,
        "llm_s": round(completion.total_s, 4),
        "verify_s": round(time.perf_counter() - t_verify, 4),
        "total_s": round(time.perf_counter() - t0, 4),
    }


def complete(
    prompt_name: str,
    fields: dict[str, Any],
    sources: list[PromptSource],
    settings,
    question: str,
    checker,
    on_token: OnToken | None = None,
    retrieved=(),
) -> Answer:
    """Fit, send, stream and check one cited completion; the :class:`Answer` (mode ``llm``).

    ``fields`` fill the prompt's own placeholders (``sources``, ``n_sources``,
    ``abstention`` and ``abstract``, the first source's text, are filled here); ``checker`` is the
    :class:`~paperchat.cite.checker.SupportChecker` (the sources' sentence vectors, stored at ingest or else
    embedded, are gathered on a thread while the answer streams). On a context
    overflow reported by the server the request is retried with fewer
    sources. Raises :class:`paperchat.core.errors.LLMError` subclasses (:class:`LLMEmptyAnswer` for a reply
    with no text).
    """
    t0 = time.perf_counter()
    client = get_client(settings)  # starts the openai import in the background
    prompt = load_prompt(prompt_name)

    def render(srcs: list[PromptSource]) -> list[dict]:
        return prompt.render(
            **fields,
            sources=format_sources(srcs),
            n_sources=len(srcs),
            abstention=ABSTENTION,
            abstract=srcs[0].text if srcs else "",
        )

    window = int(settings.context_window or 8192)
    notes: list[str] = []
    offered = sources
    while True:
        messages, kept = fit_sources(render, sources, window)
        prompt_s = time.perf_counter() - t0
        renum = StreamRenumber(len(kept), on_token) if on_token else None
        # the model's own Sources list never shows
        own = OwnSourcesCut(renum.feed) if renum else None
        papers = [(s.record.paper_id, s.record.abstract) for s in kept]
        evidence = [
            Source.from_record(0, s.record, s.chunk_id, s.text).evidence for s in kept
        ]  # what is checked

        def warm(
            papers=papers, texts=evidence
        ) -> None:  # while the answer streams: vectors stored, else embedded
            checker.learn(papers)
            for text in texts:
                checker.source_vectors(text)

        prefetch = threading.Thread(target=warm, daemon=True)
        prefetch.start()
        try:
            completion = client.stream(
                messages, own.feed if own else None, max_tokens=answer_budget(window)
            )
        except LLMContextOverflow as exc:
            if len(kept) <= 1:
                raise
            stated = re.search(r"context length is (\d+)|n_ctx[^\d]{0,20}(\d+)", str(exc))
            size = int(stated.group(1) or stated.group(2)) if stated else None
            if size and size < window:  # the server states a smaller window
                window = size
            else:  # the server counts more tokens than we estimated
                sources = kept[: len(kept) // 2]
            notes.append(
                f"the server reported a context overflow; retried with at most {len(sources)} sources "
                f"within {window} tokens"
            )
            continue
        finally:
            prefetch.join()  # never leave onnxruntime running on a thread while the process exits
        if own and renum:
            own.close()
            renum.close()
        break
    if len(kept) < len(offered):
        notes.append(
            f"{len(offered) - len(kept)} least relevant source(s) left out to fit the context window"
        )
    elif kept and kept[-1] is not offered[len(kept) - 1]:
        notes.append("the source text was shortened to fit the context window")

    t_verify = time.perf_counter()
    raw, cut = cut_own_sources(completion.text.strip())
    if cut:
        notes.append(
            "the model's own list of sources was left out: the Sources below are paperchat's"
        )
    if not raw:
        raise LLMEmptyAnswer(
            f"the LLM at {client.base_url} returned an empty answer "
            f"(finish_reason {completion.finish_reason!r})"
        )
    answer = Answer(
        question,
        ABSTENTION,
        LLM,
        abstained=True,
        retrieved=list(retrieved),
        incomplete=completion.incomplete,
        sources_sent=len(kept),
        model=completion.model or settings.llm_model,
    )
    if not is_abstention(raw):
        text, order, invalid = renumber(raw, len(kept))
        cited = [kept[n - 1] for n in order]
        answer.answer, answer.abstained, answer.invalid_citations = text, False, invalid
        answer.sources = [
            Source.from_record(i, s.record, s.chunk_id, s.text) for i, s in enumerate(cited, 1)
        ]
        answer.sentences = (
            checker.verify_answer(
                text, {i: src.evidence for i, src in enumerate(answer.sources, 1)}
            )
            if text
            else []
        )
        if invalid:
            notes.append(
                "removed citations to sources that do not exist: "
                + ", ".join(f"[{n}]" for n in invalid)
            )
        if answer.sentences and getattr(settings, "verify_llm", False):
            from paperchat.answer.llm_verify import verify_with_llm

            evidence = {i: src.evidence for i, src in enumerate(answer.sources, 1)}
            try:
                answer.sentences, note = verify_with_llm(answer.sentences, evidence, settings)
            except LLMError as exc:
                # a second opinion: its failure must not lose the finished answer
                note = f"LLM verifier: {exc} (the offline verdicts stand)"
            notes.append(note)
    answer.notes = notes + completion.notes
    answer.timings = _timings(t0, prompt_s, completion, t_verify)
    return answer


def llm_answer(
    question: str,
    hits: list,
    records: dict[str, PaperRecord],
    settings,
    checker,
    on_token: OnToken | None = None,
) -> Answer:
    """Answer ``question`` from ``hits`` (rank order) with the LLM (``prompts/answer.txt``).

    With no usable hit the answer is the abstention and no request is sent.
    """
    retrieved = [h.retrieved() for h in hits]
    sources = prompt_sources(hits, records)
    if not sources:
        get_client(settings)  # still report configuration errors
        return Answer.abstention(
            question,
            LLM,
            retrieved,
            model=settings.llm_model,
            notes=["nothing was retrieved; the LLM was not asked"],
        )
    return complete(
        "answer", {"question": question}, sources, settings, question, checker, on_token, retrieved
    )


def summarize_paper(
    record: PaperRecord, settings, checker, on_token: OnToken | None = None
) -> Answer:
    """An LLM summary of one paper (``prompts/summarize_paper.txt``; its abstract is source [1])."""
    source = PromptSource(
        record, record.chunk_ids[0] if record.chunk_ids else "", " ".join(record.abstract.split())
    )
    return complete(
        "summarize_paper",
        {"title": record.name},
        [source],
        settings,
        f"Summarize {record.name}",
        checker,
        on_token,
    )


def summarize_topic(
    topic: str,
    hits: list,
    records: dict[str, PaperRecord],
    settings,
    checker,
    on_token: OnToken | None = None,
) -> Answer:
    """An LLM overview of what the retrieved papers say about ``topic`` (``prompts/summarize_topic.txt``)."""
    retrieved = [h.retrieved() for h in hits]
    sources = prompt_sources(hits, records)
    if not sources:
        return Answer.abstention(
            f"Summarize {topic}",
            LLM,
            retrieved,
            model=settings.llm_model,
            notes=["nothing was retrieved"],
        )
    return complete(
        "summarize_topic",
        {"topic": topic},
        sources,
        settings,
        f"Summarize {topic}",
        checker,
        on_token,
        retrieved,
    )


def condense_question(
    history: list[tuple[str, str]], question: str, settings, max_turns: int = 6
) -> str:
    """Rewrite a chat follow-up as a standalone question (for retrieval) with the LLM (``prompts/condense.txt``).

    ``history`` is a list of ``(role, text)`` pairs, oldest first (roles
    ``user`` / ``assistant``); only the last ``max_turns`` are sent, fewer when they do not fit the context
    window. Without history the question is returned as is and no request is made; an empty reply, or one
    that is not a single question or request of sensible length, falls back to it."""
    question = " ".join((question or "").split())
    turns = list(history or [])
    if not turns or not question:
        return question
    prompt = load_prompt("condense")
    window = int(settings.context_window or 8192)
    budget = window - answer_budget(window) - SAFETY_TOKENS
    turns = turns[-max_turns:]
    while True:
        lines = [
            f"{'User' if r == 'user' else 'Assistant'}: {' '.join(strip_markers(str(c)).split())[:2000]}"
            for r, c in turns
        ]
        messages = prompt.render(history="\n".join(lines), question=question)
        if count_message_tokens(messages) <= budget or len(turns) <= 1:
            break
        turns = turns[1:]
    completion = get_client(settings).stream(
        messages, None, max_tokens=min(256, answer_budget(window))
    )
    line = next((ln for ln in completion.text.strip().splitlines() if ln.strip()), "")
    line = (
        re.sub(r"^(standalone question|question)\s*:\s*", "", line.strip(), flags=re.I)
        .strip()
        .strip("\"'“”")
    )
    if (
        len(split_sentences(line)) > 1
        or len(line) > 2 * len(question) + 200
        or not reads_as_request(line)  # "The answer is: CROW", "CROW removes backdoors by ... [1]."
        or re.match(r"(?:user|assistant)\s*:", line, re.I)  # the history replayed
    ):
        return question  # not a rewritten question (a small model may answer or ramble instead): use the original
    return line or question
