"""The LLM: chat completions through the ``openai`` client, streamed, with clear errors.

Works with OpenAI or any OpenAI-compatible server (vLLM, llama.cpp, Ollama,
LM Studio) given by base URL. Settings used (:class:`paperchat.core.settings.Settings`):
``llm_model``, ``llm_base_url``, ``llm_api_key``, ``temperature``, ``timeout``
(seconds, per request and between streamed bytes), ``max_retries``.

* ``openai`` is imported lazily (about 0.7 s of CPU) on a background thread
  started by :func:`get_client`, with the chat-completions resource the first
  request needs, so the import overlaps opening the store and retrieval; the
  client is created once per process and settings.
* 429, 408/409 and 500/502/503/504 answers, timeouts and dropped connections
  are retried ``max_retries`` times with exponential backoff (0.5 s doubling,
  at most 8 s) honouring ``Retry-After`` / ``retry-after-ms``, each wait
  announced as a warning on the ``paperchat`` logger ("rate limited; retrying
  in 15 s", the CLI prints it as a note); a refused connection, 501 and the
  other statuses fail at once (:meth:`LLMClient._open`);
* a reply that is not a Chat Completions stream (an HTML page) is an
  :class:`~paperchat.core.errors.LLMBadResponse`;
* the stream is read by :func:`paperchat.answer.llm_stream.read_stream`, with
  the configured key masked in everything the server sends back (:class:`KeyGuard`).
* Every failure becomes an :class:`LLMError` subclass with a one-line message;
  the API key never appears in one (:func:`redact`).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from typing import Any

from paperchat.answer.llm_errors import (
    MAX_ASKED_WAIT_S,
    RETRY_STATUS,
    UNREACHABLE_HINTS,
    asked_wait,
    refused,
    retry_delay,
    retry_notice,
    translate_error,
    unreachable,
)
from paperchat.answer.llm_stream import CUT_NOTE, Completion, KeyGuard, read_stream
from paperchat.answer.mode import OPENAI_URL, check_llm_settings
from paperchat.core.errors import (
    DUMMY_KEY,
    LLMBadResponse,
    LLMConfigError,
    LLMConnectionError,
    LLMError,
    hide_password,
    redact,
)
from paperchat.core.text import strip_controls


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


class LLMClient:
    """A chat-completion client for one set of LLM settings (see the module docstring).

    Construction checks the settings (:func:`paperchat.answer.mode.check_llm_settings`) and starts the
    lazy ``openai`` import on a daemon thread; no request is made.
    """

    def __init__(self, settings):
        check_llm_settings(settings)
        self.model: str = settings.llm_model
        self._url: str = settings.llm_base_url or OPENAI_URL  # the client's; messages show base_url
        self.base_url: str = hide_password(self._url)
        self.temperature: float = float(
            settings.temperature if settings.temperature is not None else 0.0
        )
        self.timeout: float = float(settings.timeout or 60.0)
        self.max_retries: int = max(
            0, int(settings.max_retries if settings.max_retries is not None else 3)
        )
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

            client = openai.OpenAI(  # retries are ours (_open): not for refused connections or 501
                api_key=self._key, base_url=self._url, timeout=self.timeout, max_retries=0
            )
            client.chat.completions  # imported on first use (0.3 s): here, not on the caller's path  # noqa: B018
            self._client = client
        except BaseException as exc:  # re-raised (redacted) on first use
            self._error = exc
        finally:
            self._ready.set()

    @property
    def client(self):
        """The ``openai.OpenAI`` client (waits for the background import)."""
        self._ready.wait()
        if self._client is None:
            raise LLMConfigError(
                f"cannot create the openai client: {redact(self._error, self._key)}"
            )
        return self._client

    def _open(self, kwargs: dict[str, Any]):
        """Send the request, retrying what may pass (429, 408/409, 500/502/503/504, timeouts, dropped
        connections) with backoff that honours ``Retry-After``; a refused connection or another status fails at once."""
        import openai

        for attempt in range(self.max_retries + 1):
            try:
                stream = self.client.chat.completions.create(**kwargs)
            except openai.APIStatusError as exc:
                if exc.status_code not in RETRY_STATUS or attempt == self.max_retries:
                    raise self.translate(exc, retried=attempt > 0) from None
                asked = asked_wait(exc)
                if asked is not None and asked > MAX_ASKED_WAIT_S:  # sooner would not help
                    err = self.translate(exc, retried=attempt > 0)
                    raise type(err)(
                        f"{err}; it asks to wait {asked:.0f} s before another try (Retry-After), so "
                        "paperchat did not retry"
                    ) from None
                self._wait(exc, attempt)
                continue
            except openai.APIConnectionError as exc:  # timeouts too
                why = unreachable(exc)
                if why:
                    raise LLMConnectionError(
                        f"cannot reach the LLM at {self.base_url}: {why} ({UNREACHABLE_HINTS[why]})"
                    ) from None
                if attempt == self.max_retries:
                    raise self.translate(exc, retried=attempt > 0) from None
                self._wait(exc, attempt)
                continue
            except openai.OpenAIError as exc:
                raise self.translate(exc, retried=False) from None
            kind = (stream.response.headers.get("content-type") or "").split(";")[0].strip().lower()
            if kind not in ("text/event-stream", "application/json", "application/x-ndjson", ""):
                body = ""
                try:
                    body = " ".join(stream.response.read()[:120].decode("utf-8", "replace").split())
                except Exception:  # the body is only for the message
                    pass
                stream.close()
                raise LLMBadResponse(
                    f"the LLM at {self.base_url} did not answer with a Chat Completions stream "
                    f"(HTTP {stream.response.status_code}, {kind}: {redact(body, self._key)[:100]!r})"
                )
            return stream
        raise AssertionError("unreachable")

    def _wait(self, exc: BaseException, attempt: int) -> None:
        """Wait before retry ``attempt + 1``, saying so on the ``paperchat`` logger (the CLI shows it on stderr)."""
        delay = retry_delay(exc, attempt)
        logging.getLogger("paperchat").warning(
            retry_notice(exc, delay, self.base_url, attempt, self.max_retries)
        )
        time.sleep(delay)

    def stream(
        self,
        messages: list[dict[str, str]],
        on_token: Callable[[str], None] | None = None,
        max_tokens: int | None = None,
    ) -> Completion:
        """Stream one chat completion, calling ``on_token(piece)`` for each text piece (the API key masked).

        Returns a :class:`Completion`. A stream that breaks off after some
        text returns that text with ``incomplete=True``. Raises an
        :class:`LLMError` subclass when no text arrived (see the classes), and
        :class:`LLMBadResponse` for a reply that is not a Chat Completions
        stream (an HTML page, say).
        """
        t0 = time.perf_counter()
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "temperature": self.temperature,
            "stream": True,
        }
        if max_tokens:
            kwargs["max_tokens"] = int(max_tokens)
        stream = self._open(kwargs)
        guard = KeyGuard(self._key, on_token)
        try:
            completion = read_stream(
                stream,
                guard,
                self.base_url,
                lambda exc: self.translate(exc, retried=False),
                self.model,
                t0,
            )
            return completion if completion is not None else self._unstreamed(kwargs, guard, t0)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            # a body typed JSON that is none, a chunk whose content is a number: the server's fault, said so
            raise LLMBadResponse(
                f"the LLM at {self.base_url} sent a reply that is not a Chat Completions answer "
                f"({type(exc).__name__}: {redact(str(exc), self._key)[:80]})"
            ) from None

    def _unstreamed(self, kwargs: dict[str, Any], guard: KeyGuard, t0: float) -> Completion:
        """The same request without streaming, after a stream that ended before its first chunk.

        llama-cpp-python's server, for one, answers a prompt longer than its
        context window with HTTP 200 and an empty event stream, and reports
        the error only to a request that does not stream. Its error is raised
        (a context overflow as :class:`LLMContextOverflow`, so the caller
        trims its sources); an answer is returned whole, with a note; a reply
        that holds no message is :class:`LLMBadResponse`.
        """
        import openai

        for attempt in range(
            2
        ):  # the server may close the kept-alive connection after its failed stream
            try:
                reply = self.client.chat.completions.create(**{**kwargs, "stream": False})
                break
            except openai.APIConnectionError as exc:
                if attempt or refused(exc):
                    raise self.translate(exc, retried=False) from None
            except openai.OpenAIError as exc:
                raise self.translate(exc, retried=False) from None
        choice = (getattr(reply, "choices", None) or [None])[0]
        text = (
            getattr(getattr(choice, "message", None), "content", None)
            if choice is not None
            else None
        )
        if not isinstance(text, str):
            raise LLMBadResponse(
                f"the LLM at {self.base_url} sent no Chat Completions chunks (an empty or foreign reply)"
            )
        elapsed = time.perf_counter() - t0
        # no escape sequence from the server reaches the reader's terminal
        text = strip_controls(text)
        guard.feed(text)
        guard.close()
        finish = getattr(choice, "finish_reason", None)
        notes = [
            "the server's answer stream was empty; the answer was fetched again without streaming"
        ]
        if finish == "length":
            notes.append(CUT_NOTE)
        return Completion(
            guard.clean(text),
            finish,
            finish in ("length", "content_filter"),
            getattr(reply, "model", None) or self.model,
            notes,
            elapsed,
            elapsed,
        )

    def translate(self, exc: BaseException, retried: bool = True) -> LLMError:
        """The :class:`LLMError` for an ``openai`` exception (one line, key redacted)."""
        return translate_error(
            exc,
            self.base_url,
            self.model,
            self._key,
            self.timeout,
            self.max_retries if retried else 0,
        )


_CLIENTS: dict[tuple, LLMClient] = {}
_LOCK = threading.Lock()


def get_client(settings) -> LLMClient:
    """The :class:`LLMClient` for ``settings`` (one per process and settings).

    Call it early (e.g. before retrieval) so the ``openai`` import runs in the
    background. Raises :class:`LLMConfigError` for unusable settings.
    """
    key = (
        settings.llm_model,
        settings.llm_base_url,
        settings.llm_api_key,
        settings.temperature,
        settings.timeout,
        settings.max_retries,
    )
    with _LOCK:
        if key not in _CLIENTS:
            _CLIENTS[key] = LLMClient(settings)
        return _CLIENTS[key]


#: Seconds `paperchat config` waits for the LLM's model list (at most the answer timeout).
PROBE_WAIT_S = 10.0


def probe(settings) -> str:
    """One line saying whether the configured LLM endpoint answers (``GET /models``), key redacted."""
    import openai

    try:
        client = get_client(settings)
        wait = min(client.timeout, PROBE_WAIT_S)
        listed = [
            m.id for m in client.client.with_options(max_retries=0, timeout=wait).models.list()
        ]
    except LLMError as exc:
        return f"not usable: {exc}"
    except openai.APITimeoutError:
        # it had said "did not answer within 120 s (raise --timeout ...)" after 10 s (a chat break-it session)
        return (
            f"does not answer: {client.base_url}/models gave nothing within {wait:g} s (this check waits "
            f"at most {PROBE_WAIT_S:g} s; answers wait {client.timeout:g} s, --timeout)"
        )
    except Exception as exc:  # openai errors: translate to the same one-liners `ask` gives
        why = unreachable(exc)
        if why:
            return f"does not answer: cannot reach the LLM at {client.base_url}: {why}"
        if isinstance(exc, (AttributeError, TypeError, KeyError, ValueError)):
            # a 200 page that is no model list (an HTML page): the client's parse error said nothing useful
            return (
                f"does not answer: {client.base_url}/models gave no OpenAI model list "
                "(is it an OpenAI-compatible server?)"
            )
        try:
            return f"does not answer: {client.translate(exc, retried=False)}"
        except Exception:
            return f"does not answer: {type(exc).__name__}"
    have = (
        "listed"
        if settings.llm_model in listed
        else f"NOT listed ({', '.join(listed[:5])}{'…' if len(listed) > 5 else ''})"
    )
    return f"answers at {client.base_url}; model {settings.llm_model!r} {have}"
