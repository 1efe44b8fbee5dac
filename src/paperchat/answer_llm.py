"""Written answers by an LLM: numbered sources -> streamed completion -> citations -> checks.

:func:`llm_answer` returns the ``ask --json`` contract (see
:mod:`paperchat.pipeline`) with ``mode == "llm"`` and these extra keys::

    "sentences": [{"text", "citations", "supported", "score", "missing"}],
    "invalid_citations": [int],      # cited numbers outside 1..N, removed
    "incomplete": bool,              # the stream broke off (or hit the token limit)
    "notes": [str],                  # one-line remarks (trimmed sources, no finish_reason, ...)
    "sources_sent": int,             # sources that fitted the context window
    "model": str,
    "timings": {"prompt_s", "first_token_s", "llm_s", "verify_s", "total_s"}

Sources are the retrieved papers in rank order, numbered 1..N, each with its
title (or label) and its abstract (the hit's chunk when the record has no
abstract). The least relevant are left out until the request fits
``settings.context_window`` with room for the answer (:func:`fit_sources`).
Streamed pieces reach ``on_token`` with their markers already renumbered in
order of first use, as in the final answer.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from paperchat.citations import ABSTENTION, parse_marker, renumber, source_entry
from paperchat.llm import LLMContextOverflow, count_message_tokens, get_client
from paperchat.prompts import load_prompt
from paperchat.verify import source_vectors, strip_markers, verify_answer

#: tokens kept free for the answer: min(MAX_ANSWER_TOKENS, context_window // 4)
MAX_ANSWER_TOKENS = 1024
#: extra tokens kept free for the chat template of the server
SAFETY_TOKENS = 32

OnToken = Callable[[str], None]


@dataclass
class Source:
    """A numbered source as sent to the LLM: its paper record, chunk id and text."""

    record: dict[str, Any]
    chunk_id: str
    text: str

    @property
    def name(self) -> str:
        """The title, else the label, else the paper id."""
        r = self.record
        return r.get("title") or r.get("label") or r["paper_id"]


def make_sources(hits: list, records: dict[str, dict[str, Any]], use_abstract: bool = True) -> list[Source]:
    """One :class:`Source` per hit (rank order) whose paper is in ``records``."""
    out = []
    for h in hits:
        rec = records.get(h.paper_id)
        if rec is None:
            continue
        text = (rec.get("abstract") if use_abstract else None) or h.text or rec.get("abstract") or ""
        out.append(Source(rec, h.chunk_id, " ".join(text.split())))
    return out


def format_sources(sources: list[Source]) -> str:
    """The sources block of the prompt: ``[n] Title`` then the text, blank line between."""
    return "\n\n".join(f"[{n}] {s.name}\n{s.text}" for n, s in enumerate(sources, 1))


def answer_budget(context_window: int) -> int:
    """Tokens reserved for the answer (``max_tokens`` of the request)."""
    return max(64, min(MAX_ANSWER_TOKENS, context_window // 4))


def fit_sources(render: Callable[[list[Source]], list[dict]], sources: list[Source], context_window: int) -> tuple[list[dict], list[Source]]:
    """The messages and sources that fit ``context_window`` (tokens) with room for the answer.

    Leaves out the least relevant (last) sources first; a single source that
    is still too long is cut at a word boundary. Token counts are the
    conservative estimates of :func:`paperchat.llm.count_message_tokens`.
    Raises :class:`LLMContextOverflow` when even the bare prompt does not fit.
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
    if kept:
        words = kept[0].text.split()
        lo, hi = 0, len(words)
        while lo < hi:  # the longest prefix that fits
            mid = (lo + hi + 1) // 2
            trial = Source(kept[0].record, kept[0].chunk_id, " ".join(words[:mid]) + " …")
            if count_message_tokens(render([trial])) <= limit:
                lo = mid
            else:
                hi = mid - 1
        if lo > 0:
            trial = Source(kept[0].record, kept[0].chunk_id, " ".join(words[:lo]) + " …")
            return render([trial]), [trial]
    messages = render([])
    if count_message_tokens(messages) <= limit:
        return messages, []
    raise LLMContextOverflow(
        f"the context window of {context_window} tokens is too small for the prompt (raise PAPERCHAT_CONTEXT_WINDOW)"
    )


_OPEN = re.compile(r"\[[\d\s,\-–]*")
_FULL = re.compile(r"\[(\d+(?:\s*[-–,]\s*\d+)*)\]")


class StreamRenumber:
    """Renumbers ``[n]`` markers in streamed text as :func:`paperchat.citations.renumber` does.

    ``feed(piece)`` passes text on to ``emit`` with complete markers renumbered
    in order of first use (out-of-range numbers dropped) and holds back a
    marker that is still open; ``close()`` flushes what is held back.
    """

    def __init__(self, n_sources: int, emit: OnToken):
        self.n_sources = n_sources
        self.emit = emit
        self.order: list[int] = []
        self._held = ""

    def _marker(self, body: str) -> str:
        nums = []
        for n in parse_marker(body):
            if 1 <= n <= self.n_sources:
                if n not in self.order:
                    self.order.append(n)
                new = self.order.index(n) + 1
                if new not in nums:
                    nums.append(new)
        return "[" + ", ".join(map(str, nums)) + "]" if nums else ""

    def feed(self, piece: str) -> None:
        """Take one streamed piece."""
        text, self._held = self._held + piece, ""
        out, i = [], 0
        while i < len(text):
            j = text.find("[", i)
            if j < 0:
                out.append(text[i:])
                break
            out.append(text[i:j])
            k = text.find("]", j)
            if k < 0:
                if _OPEN.fullmatch(text[j:]) and len(text) - j < 40:
                    self._held = text[j:]
                else:
                    out.append(text[j:])
                break
            m = _FULL.fullmatch(text, j, k + 1)
            if m:
                out.append(self._marker(m.group(1)))
                i = k + 1
            else:
                out.append("[")
                i = j + 1
        if "".join(out):
            self.emit("".join(out))

    def close(self) -> None:
        """Flush held-back text (an unfinished marker at the end of the stream)."""
        if self._held:
            self.emit(self._held)
            self._held = ""


def is_abstention(text: str) -> bool:
    """True when ``text`` is the abstention sentence (markers, quotes and case ignored)."""
    norm = lambda s: re.sub(r"[\s\"'“”.]+", " ", s).strip().lower()  # noqa: E731
    return norm(strip_markers(text)) == norm(ABSTENTION)


def _prefetch(kept: list[Source], embedder) -> threading.Thread | None:
    """Embed the sources' sentences for the checks on a thread while the answer streams."""
    if embedder is None or not kept:
        return None
    texts = [s.text for s in kept]
    thread = threading.Thread(target=lambda: [source_vectors(t, embedder) for t in texts], daemon=True)
    thread.start()
    return thread


def _complete(
    prompt_name: str,
    fields: dict[str, Any],
    sources: list[Source],
    settings,
    on_token: OnToken | None,
    embedder=None,
) -> tuple[Any, list[Source], list[str], float]:
    """Fit, send and stream one cited completion; retries with fewer sources on context overflow."""
    t0 = time.perf_counter()
    client = get_client(settings)  # starts the openai import in the background
    prompt = load_prompt(prompt_name)

    def render(srcs: list[Source]) -> list[dict]:
        return prompt.render(**fields, sources=format_sources(srcs), n_sources=len(srcs), abstention=ABSTENTION)

    window = int(settings.context_window or 8192)
    notes: list[str] = []
    offered = sources
    while True:
        messages, kept = fit_sources(render, sources, window)
        prompt_s = time.perf_counter() - t0
        renum = StreamRenumber(len(kept), on_token) if on_token else None
        prefetch = _prefetch(kept, embedder)
        try:
            completion = client.stream(messages, renum.feed if renum else None, max_tokens=answer_budget(window))
        except BaseException as exc:
            if prefetch is not None:  # never leave onnxruntime running on a thread while the process exits
                prefetch.join()
                prefetch = None
            if not isinstance(exc, LLMContextOverflow):
                raise
            if len(kept) <= 1:
                raise
            stated = re.search(r"context length is (\d+)", str(exc))
            if stated and int(stated.group(1)) < window:  # the server states a smaller window
                window = int(stated.group(1))
            else:  # the server counts more tokens than we estimated
                sources = kept[: len(kept) // 2]
            notes.append(f"the server reported a context overflow; retried with at most {len(sources)} sources "
                         f"within {window} tokens")
            continue
        if renum:
            renum.close()
        break
    if prefetch is not None:
        prefetch.join()
    if len(kept) < len(offered):
        notes.append(f"{len(offered) - len(kept)} least relevant source(s) left out to fit the context window")
    elif kept and kept[-1] is not offered[len(kept) - 1]:
        notes.append("the source text was shortened to fit the context window")
    return completion, kept, notes, prompt_s


def _cited_result(completion, kept: list[Source], embedder) -> dict[str, Any]:
    """Renumbered answer, cited sources, sentence checks (the shared part of the results)."""
    raw = completion.text.strip()
    if is_abstention(raw):
        return {"answer": ABSTENTION, "abstained": True, "sources": [], "sentences": [], "invalid_citations": []}
    text, order, invalid = renumber(raw, len(kept))
    cited = [kept[n - 1] for n in order]
    sources = [source_entry(i, s.record, s.chunk_id, s.text) for i, s in enumerate(cited, 1)]
    sentences = verify_answer(text, {i: s.text for i, s in enumerate(cited, 1)}, embedder) if text else []
    return {"answer": text, "abstained": False, "sources": sources, "sentences": sentences, "invalid_citations": invalid}


def llm_answer(question: str, hits: list, records: dict, settings, embedder, on_token: OnToken | None = None) -> dict:
    """Answer ``question`` from ``hits`` (rank order) with the LLM; the ``ask --json`` contract.

    ``records`` maps paper id -> paper record (``Store.paper_records``);
    ``embedder`` is the one retrieval used (for the sentence checks);
    ``on_token(piece)`` receives the streamed answer (markers renumbered).
    With no usable hit the answer is the abstention and no request is sent.
    Raises :class:`paperchat.llm.LLMError` subclasses (one-line messages).
    """
    t0 = time.perf_counter()
    question = " ".join((question or "").split())
    retrieved = [{"paper_id": h.paper_id, "chunk_id": h.chunk_id, "score": round(float(h.score), 6)} for h in hits]
    sources = make_sources(hits, records)
    base = {"question": question, "mode": "llm", "retrieved": retrieved, "model": settings.llm_model}
    if not sources:
        get_client(settings)  # still report configuration errors
        return {**base, "answer": ABSTENTION, "abstained": True, "sources": [], "sentences": [], "invalid_citations": [],
                "incomplete": False, "notes": ["nothing was retrieved; the LLM was not asked"], "sources_sent": 0,
                "timings": {"total_s": round(time.perf_counter() - t0, 4)}}
    completion, kept, notes, prompt_s = _complete("answer", {"question": question}, sources, settings, on_token, embedder)
    t_verify = time.perf_counter()
    result = _cited_result(completion, kept, embedder)
    if result["invalid_citations"]:
        notes.append("removed citations to sources that do not exist: " + ", ".join(f"[{n}]" for n in result["invalid_citations"]))
    return {
        **base,
        **result,
        "model": completion.model or settings.llm_model,
        "incomplete": completion.incomplete,
        "notes": notes + completion.notes,
        "sources_sent": len(kept),
        "timings": _timings(t0, prompt_s, completion, t_verify),
    }


def _timings(t0: float, prompt_s: float, completion, t_verify: float) -> dict[str, float | None]:
    first = completion.first_token_s
    return {
        "prompt_s": round(prompt_s, 4),
        "first_token_s": round(prompt_s + first, 4) if first is not None else None,
        "llm_s": round(completion.total_s, 4),
        "verify_s": round(time.perf_counter() - t_verify, 4),
        "total_s": round(time.perf_counter() - t0, 4),
    }


def summarize_paper(record: dict[str, Any], settings, embedder, on_token: OnToken | None = None) -> dict:
    """An LLM summary of one paper (its abstract is source [1]).

    Returns ``{paper_id, answer, mode, abstained, sources, sentences,
    invalid_citations, incomplete, notes, model, timings}``.
    """
    t0 = time.perf_counter()
    chunk_ids = str(record.get("chunk_ids") or "").split()
    src = Source(record, chunk_ids[0] if chunk_ids else "", " ".join(str(record.get("abstract") or "").split()))
    prompt = load_prompt("summarize_paper")
    window = int(settings.context_window or 8192)

    def render(srcs: list[Source]) -> list[dict]:
        s = srcs[0] if srcs else Source(record, src.chunk_id, "")
        return prompt.render(title=src.name, abstract=s.text, abstention=ABSTENTION)

    messages, kept = fit_sources(render, [src], window)
    prompt_s = time.perf_counter() - t0
    renum = StreamRenumber(1, on_token) if on_token else None
    completion = get_client(settings).stream(messages, renum.feed if renum else None, max_tokens=answer_budget(window))
    if renum:
        renum.close()
    t_verify = time.perf_counter()
    result = _cited_result(completion, kept or [src], embedder)
    return {"paper_id": record["paper_id"], "mode": "llm", **result, "incomplete": completion.incomplete,
            "notes": completion.notes, "model": completion.model or settings.llm_model,
            "timings": _timings(t0, prompt_s, completion, t_verify)}


def summarize_topic(topic: str, hits: list, records: dict, settings, embedder, on_token: OnToken | None = None) -> dict:
    """An LLM overview of what the retrieved papers say about ``topic`` (same shape as :func:`llm_answer`, ``topic`` for ``question``)."""
    t0 = time.perf_counter()
    topic = " ".join((topic or "").split())
    retrieved = [{"paper_id": h.paper_id, "chunk_id": h.chunk_id, "score": round(float(h.score), 6)} for h in hits]
    sources = make_sources(hits, records)
    base = {"topic": topic, "mode": "llm", "retrieved": retrieved}
    if not sources:
        return {**base, "answer": ABSTENTION, "abstained": True, "sources": [], "sentences": [], "invalid_citations": [],
                "incomplete": False, "notes": ["nothing was retrieved"], "model": settings.llm_model,
                "sources_sent": 0, "timings": {"total_s": round(time.perf_counter() - t0, 4)}}
    completion, kept, notes, prompt_s = _complete("summarize_topic", {"topic": topic}, sources, settings, on_token, embedder)
    t_verify = time.perf_counter()
    result = _cited_result(completion, kept, embedder)
    return {**base, **result, "incomplete": completion.incomplete, "notes": notes + completion.notes,
            "model": completion.model or settings.llm_model, "sources_sent": len(kept),
            "timings": _timings(t0, prompt_s, completion, t_verify)}


def condense_question(history: list, question: str, settings, max_turns: int = 6) -> str:
    """Rewrite a chat follow-up as a standalone question (for retrieval) with the LLM.

    ``history`` is a list of ``(role, text)`` pairs or ``{"role", "content"}``
    dicts, oldest first (roles ``user`` / ``assistant``); only the last
    ``max_turns`` are sent. Without history the question is returned as is
    and no request is made. Falls back to ``question`` on an empty reply.
    """
    question = " ".join((question or "").split())
    turns = [(t["role"], t["content"]) if isinstance(t, dict) else (t[0], t[1]) for t in history or []]
    if not turns or not question:
        return question
    prompt = load_prompt("condense")
    window = int(settings.context_window or 8192)
    budget = window - answer_budget(window) - SAFETY_TOKENS
    turns = turns[-max_turns:]
    while True:
        lines = [f"{'User' if r == 'user' else 'Assistant'}: {' '.join(strip_markers(str(c)).split())[:2000]}" for r, c in turns]
        messages = prompt.render(history="\n".join(lines), question=question)
        if count_message_tokens(messages) <= budget or len(turns) <= 1:
            break
        turns = turns[1:]
    completion = get_client(settings).stream(messages, None, max_tokens=min(256, answer_budget(window)))
    line = next((ln for ln in completion.text.strip().splitlines() if ln.strip()), "")
    line = re.sub(r"^(standalone question|question)\s*:\s*", "", line.strip(), flags=re.I).strip().strip("\"'“”")
    return line or question
