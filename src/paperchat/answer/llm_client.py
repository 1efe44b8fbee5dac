"""The LLM: chat completions through the ``openai`` client, streamed, with clear errors.

Works with OpenAI or any OpenAI-compatible server (vLLM, llama.cpp, Ollama,
LM Studio) given by base URL. Settings used (:class:`paperchat.core.settings.Settings`):
``llm_model``, ``llm_base_url``, ``llm_api_key``, ``temperature``, ``timeout``
(seconds, per request and between streamed bytes), ``max_retries``.

* ``openai`` is imported lazily (it costs about 1.3 s) on a background thread
  started by :func:`get_client`, so the import overlaps retrieval; the client
  is created once per process and settings.
* 429 and 5xx answers, timeouts and connection errors are retried by the
  openai client itself with exponential backoff (0.5 s doubling, at most 8 s)
  honouring ``Retry-After`` / ``retry-after-ms``, ``max_retries`` times.
* Every failure becomes an :class:`LLMError` subclass with a one-line message;
  the API key never appears in one (:func:`redact`).
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from paperchat.answer.mode import OPENAI_URL, check_llm_settings
from paperchat.core.errors import (
    DUMMY_KEY,
    LLMAuthError,
    LLMConfigError,
    LLMConnectionError,
    LLMContextOverflow,
    LLMError,
    LLMModelNotFound,
    LLMRateLimited,
    LLMServerError,
    LLMTimeout,
    redact,
)


def count_tokens(text: str) -> int:
    """A conservative (high) estimate of the tokens ``text`` takes for any common tokenizer.

    ASCII: one token per 3 characters (BPE tokenizers average about 4 on
    English prose, fewer on LaTeX and numbers); other characters: one token
    per 2 UTF-8 bytes (CJK characters take 1 to 2 tokens each). Never less
    than the number of words.
    """
    ascii_chars = sum(1 for ch in text if ord(ch) < 128)
    other_bytes = len(text.encode("utf-8")) - ascii_chars
    return max(math.ceil(ascii_chars / 3 + other_bytes / 2), len(text.split()))


def count_message_tokens(messages: list[dict[str, str]]) -> int:
    """Estimated prompt tokens of chat ``messages`` (contents plus 8 tokens a message)."""
    return sum(count_tokens(m["content"]) + 8 for m in messages) + 4


@dataclass
class Completion:
    """The result of one streamed chat completion.

    ``text`` is everything received (also when the stream dropped);
    ``incomplete`` is true when the stream broke off (connection dropped,
    stalled past the timeout, error event) or was cut at the token limit
    (``finish_reason == "length"``); ``notes`` are one-line remarks for the
    user (e.g. a missing ``finish_reason``). Times are seconds from the call.
    """

    text: str
    finish_reason: str | None
    incomplete: bool
    model: str
    notes: list[str] = field(default_factory=list)
    first_token_s: float | None = None
    total_s: float = 0.0


class LLMClient:
    """A chat-completion client for one set of LLM settings (see the module docstring).

    Construction checks the settings (:func:`paperchat.answer.mode.check_llm_settings`) and starts the
    lazy ``openai`` import on a daemon thread; no request is made.
    """

    def __init__(self, settings):
        check_llm_settings(settings)
        self.model: str = settings.llm_model
        self.base_url: str = settings.llm_base_url or OPENAI_URL
        self.temperature: float = float(settings.temperature if settings.temperature is not None else 0.0)
        self.timeout: float = float(settings.timeout or 60.0)
        self.max_retries: int = max(0, int(settings.max_retries if settings.max_retries is not None else 3))
        self._key: str = settings.llm_api_key or DUMMY_KEY
        self._client = None
        self._error: BaseException | None = None
        self._ready = threading.Event()
        threading.Thread(target=self._build, name="paperchat-openai-import", daemon=True).start()

    def __repr__(self) -> str:  # never show the key
        return f"LLMClient(model={self.model!r}, base_url={self.base_url!r})"

    def _build(self) -> None:
        try:
            import openai

            self._client = openai.OpenAI(
                api_key=self._key, base_url=self.base_url, timeout=self.timeout, max_retries=self.max_retries
            )
        except BaseException as exc:  # re-raised (redacted) on first use
            self._error = exc
        finally:
            self._ready.set()

    @property
    def client(self):
        """The ``openai.OpenAI`` client (waits for the background import)."""
        self._ready.wait()
        if self._client is None:
            raise LLMConfigError(f"cannot create the openai client: {redact(self._error, self._key)}")
        return self._client

    def stream(
        self,
        messages: list[dict[str, str]],
        on_token: Callable[[str], None] | None = None,
        max_tokens: int | None = None,
    ) -> Completion:
        """Stream one chat completion, calling ``on_token(piece)`` for each text piece.

        Returns a :class:`Completion`. A stream that breaks off after some
        text returns that text with ``incomplete=True``. Raises an
        :class:`LLMError` subclass when no text arrived (see the classes).
        """
        t0 = time.perf_counter()
        client = self.client
        import openai

        kwargs: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": self.temperature, "stream": True}
        if max_tokens:
            kwargs["max_tokens"] = int(max_tokens)
        try:
            stream = client.chat.completions.create(**kwargs)
        except openai.OpenAIError as exc:
            raise self.translate(exc) from None
        pieces: list[str] = []
        finish: str | None = None
        first: float | None = None
        notes: list[str] = []
        model = self.model
        broke = False
        try:
            with stream:
                for chunk in stream:
                    model = getattr(chunk, "model", None) or model
                    for choice in chunk.choices or []:
                        if choice.index not in (0, None):
                            continue
                        piece = getattr(choice.delta, "content", None) if choice.delta else None
                        if piece:
                            if first is None:
                                first = time.perf_counter() - t0
                            pieces.append(piece)
                            if on_token is not None:
                                on_token(piece)
                        if choice.finish_reason:
                            finish = choice.finish_reason
        except openai.OpenAIError as exc:
            err = self.translate(exc, retried=False)
            if not pieces:
                if isinstance(err, LLMTimeout | LLMServerError):
                    raise err from None
                raise LLMConnectionError(f"the answer stream from {self.base_url} dropped before any text arrived") from None
            broke = True
            notes.append(f"the answer stream broke off ({err}); the answer is partial")
        if not broke:
            if finish is None:
                notes.append("the server sent no finish_reason; the answer was treated as complete")
            elif finish == "length":
                notes.append("the answer was cut at the token limit")
            elif finish == "content_filter":
                notes.append("the server's content filter stopped the answer")
        incomplete = broke or finish in ("length", "content_filter")
        return Completion("".join(pieces), finish, incomplete, model, notes, first, time.perf_counter() - t0)

    def translate(self, exc: BaseException, retried: bool = True) -> LLMError:
        """The :class:`LLMError` for an ``openai`` exception (one line, key redacted)."""
        import openai

        where = f"{self.base_url}"
        detail = redact(_server_message(exc), self._key)[:300]
        tries = f" after {self.max_retries + 1} attempts" if self.max_retries and retried else ""
        if isinstance(exc, openai.APITimeoutError):
            return LLMTimeout(f"the LLM at {where} did not answer within {self.timeout:g} s{tries} (raise --timeout or PAPERCHAT_TIMEOUT)")
        if isinstance(exc, openai.APIConnectionError):
            return LLMConnectionError(f"cannot reach the LLM at {where}{tries}: {detail or 'connection error'}")
        if isinstance(exc, openai.AuthenticationError):
            return LLMAuthError(f"the LLM at {where} rejected the API key (HTTP 401): check OPENAI_API_KEY")
        if isinstance(exc, openai.PermissionDeniedError):
            return LLMAuthError(f"the LLM at {where} denied access (HTTP 403): {detail or 'permission denied'}")
        if isinstance(exc, openai.NotFoundError):
            return LLMModelNotFound(
                f"model {self.model!r} not found at {where} (HTTP 404): set PAPERCHAT_LLM_MODEL to a model the server lists"
            )
        if isinstance(exc, openai.RateLimitError):
            return LLMRateLimited(f"the LLM at {where} is rate limiting (HTTP 429){tries}: {detail or 'try again later'}")
        if isinstance(exc, openai.BadRequestError) and _is_context_overflow(exc):
            return LLMContextOverflow(f"the request exceeds the model's context window (HTTP 400): {detail}")
        if isinstance(exc, openai.APIStatusError):
            retried = tries if exc.status_code >= 500 else ""
            return LLMServerError(f"the LLM at {where} failed (HTTP {exc.status_code}){retried}: {detail or 'no details'}")
        return LLMServerError(f"the LLM at {where} failed: {detail or type(exc).__name__}")


def _server_message(exc: BaseException) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])
        if isinstance(err, str):
            return err
    return str(getattr(exc, "message", "") or exc)


def _is_context_overflow(exc: BaseException) -> bool:
    body = getattr(exc, "body", None)
    err = body.get("error", body) if isinstance(body, dict) else None
    code = str(err.get("code") or "") if isinstance(err, dict) else ""
    text = (code + " " + _server_message(exc)).lower()
    return "context_length" in text or "context length" in text or "maximum context" in text or "too many tokens" in text


_CLIENTS: dict[tuple, LLMClient] = {}
_LOCK = threading.Lock()


def get_client(settings) -> LLMClient:
    """The :class:`LLMClient` for ``settings`` (one per process and settings).

    Call it early (e.g. before retrieval) so the ``openai`` import runs in the
    background. Raises :class:`LLMConfigError` for unusable settings.
    """
    key = (settings.llm_model, settings.llm_base_url, settings.llm_api_key, settings.temperature,
           settings.timeout, settings.max_retries)
    with _LOCK:
        if key not in _CLIENTS:
            _CLIENTS[key] = LLMClient(settings)
        return _CLIENTS[key]


def probe(settings) -> str:
    """One line saying whether the configured LLM endpoint answers (``GET /models``), key redacted."""
    try:
        client = get_client(settings)
        listed = [m.id for m in client.client.with_options(max_retries=0, timeout=min(client.timeout, 10.0)).models.list()]
    except LLMError as exc:
        return f"not usable: {exc}"
    except Exception as exc:  # openai errors: translate to the same one-liners
        try:
            return f"does not answer: {client.translate(exc, retried=False)}"
        except Exception:
            return f"does not answer: {type(exc).__name__}"
    have = "listed" if settings.llm_model in listed else f"NOT listed ({', '.join(listed[:5])}{'…' if len(listed) > 5 else ''})"
    return f"answers at {client.base_url}; model {settings.llm_model!r} {have}"
