"""Reading one streamed chat completion: its text (the API key masked as it streams), how it ended, what broke.

:func:`read_stream` walks the ``openai`` client's stream of chunks and
returns a :class:`Completion`. A stream ends well with a ``finish_reason``
and ``data: [DONE]``. The answer is kept but marked *incomplete* when the
stream breaks off after some text: the connection dropped or stalled past
the timeout, an error event, an event that is not JSON, or an end with
neither a finish_reason nor ``[DONE]`` (a server or proxy that closed it
early); also when it was cut at the token limit (``length``) or by a
content filter. ``[DONE]`` without a finish_reason (some servers never send
one) counts as complete, with a note. Before any text arrived, a break is an
:class:`~paperchat.core.errors.LLMError` naming the server.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from paperchat.core.errors import (
    LLMBadResponse,
    LLMConnectionError,
    LLMError,
    LLMServerError,
    LLMTimeout,
    secret_to_mask,
)
from paperchat.core.text import strip_controls

#: The note of an answer cut at the token limit: a server whose context window is smaller than the one
#: paperchat assumes fills it with the prompt (a grounding skeptic's 4,096-token server left 21 tokens).
CUT_NOTE = (
    "the answer was cut at the token limit; if the server's context window is smaller than "
    "--context-window (PAPERCHAT_CONTEXT_WINDOW), set it to the server's so the sources leave room"
)


@dataclass
class Completion:
    """The result of one streamed chat completion.

    ``text`` is everything received (also when the stream dropped);
    ``incomplete`` is true when the stream broke off (see the module
    docstring) or was cut at the token limit (``finish_reason == "length"``);
    ``notes`` are one-line remarks for the user (e.g. a missing
    ``finish_reason``). Times are seconds from the call.
    """

    text: str
    finish_reason: str | None
    incomplete: bool
    model: str
    notes: list[str] = field(default_factory=list)
    first_token_s: float | None = None
    total_s: float = 0.0


def key_prefix_tail(text: str, key: str) -> int:
    """Length of the longest tail of ``text`` that is a proper prefix of ``key`` (0 without a key): what could
    still become the key when more text arrives."""
    if not key:
        return 0
    for start in range(max(0, len(text) - len(key) + 1), len(text)):
        if key.startswith(text[start:]):
            return len(text) - start
    return 0


class KeyGuard:
    """Passes streamed text on with the API key masked, even when the key is split across pieces.

    It holds back only a tail of the text that could still become the key
    (:func:`key_prefix_tail`: "s", "sk-", "sk-proj-ab" for a key starting so)
    until more text, or :meth:`close`, settles it; everything else is passed
    on as it arrives.
    """

    def __init__(self, key: str | None, emit: Callable[[str], None] | None):
        self.key = secret_to_mask(key)
        self.emit = emit
        self._held = ""

    def clean(self, text: str) -> str:
        """``text`` with the key masked."""
        return text.replace(self.key, "***") if self.key else text

    def feed(self, piece: str) -> None:
        """Take the next streamed piece; emit what can no longer become the key."""
        if self.emit is None:
            return
        text = self.clean(self._held + piece)
        hold = key_prefix_tail(text, self.key)
        self._held = text[len(text) - hold :] if hold else ""
        if len(text) > hold:
            self.emit(text[: len(text) - hold])

    def close(self) -> None:
        """The stream ended: emit what was held back (it did not become the key)."""
        if self.emit is not None and self._held:
            self.emit(self.clean(self._held))
        self._held = ""


class _DoneWatch:
    """Wraps the stream's event decoder to see whether ``data: [DONE]`` arrived (the client stops there silently)."""

    def __init__(self, decoder):
        self.decoder = decoder
        self.seen = False

    def iter_bytes(self, iterator):
        for event in self.decoder.iter_bytes(iterator):
            if str(getattr(event, "data", "")).startswith("[DONE]"):
                self.seen = True
            yield event

    def __getattr__(self, name: str) -> Any:
        return getattr(self.decoder, name)


def _watch_done(stream) -> _DoneWatch | None:
    """Watch ``stream`` for ``[DONE]``; ``None`` when this openai version reads events some other way (then
    whether ``[DONE]`` came is unknown, and a stream without a finish_reason counts as complete, with a note)."""
    decoder = getattr(stream, "_decoder", None)  # openai's Stream reads its events through it
    if decoder is None or not hasattr(decoder, "iter_bytes"):
        return None
    watch = _DoneWatch(decoder)
    stream._decoder = watch
    return watch


def _not_json(exc: json.JSONDecodeError) -> str:
    return f"an event that is not JSON ({exc.msg}: line {exc.lineno} column {exc.colno})"


def read_stream(
    stream,
    guard: KeyGuard,
    base_url: str,
    translate: Callable[[BaseException], LLMError],
    model: str,
    t0: float,
) -> Completion | None:
    """Read ``stream`` (an ``openai`` chat-completion stream) to its end; ``None`` when it held no chunk at all.

    Pieces of the first choice go to ``guard`` (and so, key masked, to the
    caller's ``on_token``); ``translate`` turns an ``openai`` exception into
    an :class:`LLMError`; ``t0`` is when the request started
    (``time.perf_counter()``). Raises :class:`LLMTimeout` /
    :class:`LLMServerError` / :class:`LLMConnectionError` when the stream
    broke before any text, :class:`LLMBadResponse` for an unreadable event
    before any text.
    """
    import openai

    done = _watch_done(stream)
    pieces: list[str] = []
    finish: str | None = None
    first: float | None = None
    notes: list[str] = []
    broke = False
    chunks = 0
    try:
        with stream:
            for chunk in stream:
                chunks += 1
                model = getattr(chunk, "model", None) or model
                for choice in getattr(chunk, "choices", None) or []:
                    if choice.index not in (0, None):
                        continue
                    piece = getattr(choice.delta, "content", None) if choice.delta else None
                    if piece:
                        if first is None:
                            first = time.perf_counter() - t0
                        pieces.append(piece)
                        # no control character from the server reaches the reader's terminal; the answer drops
                        # whole escape sequences (one may be split across pieces)
                        guard.feed(strip_controls(piece))
                    if choice.finish_reason:
                        finish = choice.finish_reason
    except openai.OpenAIError as exc:
        err = translate(exc)
        if not pieces:
            if isinstance(err, LLMTimeout | LLMServerError):
                raise err from None
            raise LLMConnectionError(
                f"the answer stream from {base_url} dropped before any text arrived"
            ) from None
        broke = True
        # mid-answer, the server closed the connection after part of it, not "before an answer"
        said = (
            f"the LLM at {base_url} closed the connection after part of the answer (did the server stop?)"
            if "closed before an answer" in str(err)
            else str(err)
        )
        notes.append(f"the answer stream broke off ({said}); the answer is partial")
    except json.JSONDecodeError as exc:  # the client parses each event's data as JSON
        if not pieces:
            raise LLMBadResponse(
                f"the LLM at {base_url} sent {_not_json(exc)} before any text"
            ) from None
        broke = True
        notes.append(
            f"the answer stream from {base_url} broke off: it sent {_not_json(exc)}; the answer is partial"
        )
    if not chunks and not broke:
        return None
    guard.close()
    if not broke and finish is None and done is not None and not done.seen:
        if not pieces:
            raise LLMConnectionError(
                f"the answer stream from {base_url} ended before any text arrived "
                "(no finish_reason, no [DONE])"
            )
        broke = True
        notes.append(
            f"the answer stream from {base_url} ended without a finish_reason or [DONE]; "
            "the answer may be partial"
        )
    elif not broke:
        if finish is None:
            notes.append("the server sent no finish_reason; the answer was treated as complete")
        elif finish == "length":
            notes.append(CUT_NOTE)
        elif finish == "content_filter":
            notes.append("the server's content filter stopped the answer")
    incomplete = broke or finish in ("length", "content_filter")
    return Completion(
        guard.clean(strip_controls("".join(pieces))),
        finish,
        incomplete,
        model,
        [guard.clean(n) for n in notes],
        first,
        time.perf_counter() - t0,
    )
