"""The sources an LLM is given: one per retrieved paper (its abstract), numbered in rank order, and as many
of them as fit the context window with room for the answer (:func:`fit_sources`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from paperchat.answer.llm_client import count_message_tokens
from paperchat.cite.markers import quotable
from paperchat.core.errors import LLMContextOverflow
from paperchat.ingest.records import PaperRecord

#: tokens kept free for the answer: min(MAX_ANSWER_TOKENS, context_window // 4)
MAX_ANSWER_TOKENS = 1024
#: extra tokens kept free for the chat template of the server
SAFETY_TOKENS = 32


@dataclass(frozen=True)
class PromptSource:
    """A numbered source as sent to the LLM: its paper record, the chunk it stands for, and its text."""

    record: PaperRecord
    chunk_id: str
    text: str


def prompt_sources(hits: list, records: dict[str, PaperRecord]) -> list[PromptSource]:
    """One source per hit (rank order) whose paper is in ``records``: the whole abstract (else the hit's chunk)."""
    out = []
    for h in hits:
        rec = records.get(h.paper_id)
        if rec is not None:
            out.append(
                PromptSource(rec, h.chunk_id, " ".join((rec.abstract or h.text or "").split()))
            )
    return out


def format_sources(sources: list[PromptSource]) -> str:
    """The sources block of the prompt: ``[n] Title`` then the text (:func:`~paperchat.cite.markers.quotable`: the
    source's own "[5]" would read as source 5), a blank line between."""
    return "\n\n".join(
        f"[{n}] {s.record.name}\n{quotable(s.text)}" for n, s in enumerate(sources, 1)
    )


def answer_budget(context_window: int) -> int:
    """Tokens reserved for the answer (``max_tokens`` of the request)."""
    return max(64, min(MAX_ANSWER_TOKENS, context_window // 4))


def fit_sources(
    render: Callable[[list[PromptSource]], list[dict]],
    sources: list[PromptSource],
    context_window: int,
) -> tuple[list[dict], list[PromptSource]]:
    """The messages and sources that fit ``context_window`` (tokens) with room for the answer.

    Leaves out the least relevant (last) sources first; a single source that
    is still too long is cut at a word boundary. Token counts are the
    conservative estimates of :func:`paperchat.answer.llm_client.count_message_tokens`.
    Raises :class:`LLMContextOverflow` when not even part of one source fits (or, with no
    sources, the bare prompt does not).
    """
    limit = context_window - answer_budget(context_window) - SAFETY_TOKENS
    kept = list(sources)
    while kept:
        messages = render(kept)
        if count_message_tokens(messages) <= limit:
            return messages, kept
        if len(kept) == 1:
            break
        kept.pop()
    if sources:  # one source left: the longest part of it that fits
        first = sources[0]
        words = first.text.split()

        def cut(n: int, tail: str = " …") -> PromptSource:
            return PromptSource(first.record, first.chunk_id, " ".join(words[:n]) + tail)

        lo, hi = 0, len(words)
        while lo < hi:  # the longest prefix that fits
            mid = (lo + hi + 1) // 2
            if count_message_tokens(render([cut(mid)])) <= limit:
                lo = mid
            else:
                hi = mid - 1
        if lo > 0:
            return render([cut(lo)]), [cut(lo)]
        # a prompt without any of its sources could only answer from outside them. The least window (a
        # multiple of 256) holding the prompt, 40 words of a source and a quarter for the answer ("a larger
        # window" alone had not said how large: a local-LLM session tried 512 again)
        need = count_message_tokens(render([cut(40, "")])) + SAFETY_TOKENS
        least = -(-need * 4 // 3 // 256) * 256
        raise LLMContextOverflow(
            f"a context window of {context_window} tokens leaves no room for a source after the prompt and the "
            f"answer; use a model with a context window of {least:,} tokens or more (and state it with "
            "PAPERCHAT_CONTEXT_WINDOW)"
        )
    messages = render([])
    if count_message_tokens(messages) <= limit:
        return messages, []
    raise LLMContextOverflow(
        f"the context window of {context_window} tokens is too small for the prompt (raise PAPERCHAT_CONTEXT_WINDOW)"
    )
