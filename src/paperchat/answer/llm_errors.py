"""What an LLM server's failure means: which statuses to retry, how long to wait, and the one-line error.

Used by :class:`paperchat.answer.llm_client.LLMClient`: 429, 408/409 and
500/502/503/504 are retried (:data:`RETRY_STATUS`) after
:func:`retry_delay`, announced by :func:`retry_notice`; a refused connection (:func:`refused`) is not; every
``openai`` exception becomes an :class:`~paperchat.core.errors.LLMError`
subclass with a one-line, key-free message (:func:`translate_error`).
"""

from __future__ import annotations

import email.utils
import socket
import time
from collections.abc import Callable

from paperchat.core.errors import (
    LLMAuthError,
    LLMConnectionError,
    LLMContextOverflow,
    LLMError,
    LLMModelNotFound,
    LLMRateLimited,
    LLMServerError,
    LLMTimeout,
    redact,
)

#: statuses worth retrying (the request may pass later); others (400, 401, 403, 404, 501, ...) fail at once
RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})


#: the longest wait a server may ask for (``Retry-After``) that paperchat makes; a longer one ends the command
MAX_ASKED_WAIT_S = 60.0


def asked_wait(exc: BaseException) -> float | None:
    """Seconds the server asks to wait (``retry-after-ms``, ``Retry-After`` in seconds or as an HTTP date),
    or ``None`` when it asks for nothing."""
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        raw = headers.get(name)
        try:
            return max(0.0, float(raw) * scale)
        except (TypeError, ValueError):
            pass
        if name == "retry-after" and raw:
            try:
                when = email.utils.parsedate_to_datetime(str(raw))
                return max(0.0, when.timestamp() - time.time())
            except (TypeError, ValueError, IndexError):
                pass
    return None


def retry_delay(exc: BaseException, attempt: int) -> float:
    """Seconds before retry ``attempt + 1``: what the server asks (:func:`asked_wait`, up to
    :data:`MAX_ASKED_WAIT_S`), else 0.5 s doubling (at most 8 s)."""
    asked = asked_wait(exc)
    if asked is not None and asked <= MAX_ASKED_WAIT_S:
        return asked
    return min(8.0, 0.5 * 2**attempt)


def retry_notice(
    exc: BaseException, delay: float, base_url: str, attempt: int, retries: int
) -> str:
    """The line announcing a wait of ``delay`` seconds before retry ``attempt + 1`` of ``retries``.

    E.g. "rate limited; retrying in 15 s (HTTP 429 from the LLM at URL; retry 1 of 3)".
    """
    status = getattr(exc, "status_code", None)
    if status == 429:
        what, why = "rate limited", "HTTP 429"
    elif status is not None:
        what, why = "the server failed", f"HTTP {status}"
    else:
        what, why = (
            "no answer",
            "timeout" if "timeout" in type(exc).__name__.lower() else "connection dropped",
        )
    return f"{what}; retrying in {delay:g} s ({why} from the LLM at {base_url}; retry {attempt + 1} of {retries})"


def _in_chain(exc: BaseException | None, hit: Callable[[BaseException, str], bool]) -> bool:
    """Whether ``hit(e, lower-cased message)`` holds for ``exc`` or an exception it came from (its cause or
    context, down the chain)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if hit(exc, str(exc).lower()):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def refused(exc: BaseException) -> bool:
    """Whether a connection error is a refused connection (nothing listens there: no use retrying)."""
    return _in_chain(
        exc,
        lambda e, text: (
            isinstance(e, ConnectionRefusedError)
            or "connection refused" in text
            or "errno 111" in text
        ),
    )


#: what resolvers say of a host name that does not resolve
_UNRESOLVED = (
    "name or service not known",
    "nodename nor servname",
    "getaddrinfo failed",
    "temporary failure in name resolution",
    "no address associated",
)


def unresolved(exc: BaseException) -> bool:
    """Whether a connection error is a host name that does not resolve (a typo, or no network and no DNS:
    no use retrying)."""
    return _in_chain(
        exc,
        lambda e, text: isinstance(e, socket.gaierror) or any(c in text for c in _UNRESOLVED),
    )


#: a connection no retry can make, by why it fails: what to check
UNREACHABLE_HINTS = {
    "connection refused": "is the server running, and is the URL right?",
    "its host name does not resolve": "a typo in the URL, or no network",
}


def unreachable(exc: BaseException) -> str | None:
    """Why a connection error is final (a key of :data:`UNREACHABLE_HINTS`: refused, or a host name that does
    not resolve), else ``None`` (it may pass on a retry)."""
    if refused(exc):
        return "connection refused"
    if unresolved(exc):
        return "its host name does not resolve"
    return None


def translate_error(
    exc: BaseException, base_url: str, model: str, key: str, timeout: float, retries: int
) -> LLMError:
    """The :class:`LLMError` for an ``openai`` exception: one line, ``key`` redacted, naming ``base_url``.

    ``retries`` is how many retries were spent (0: the message does not say
    "after N attempts"); ``timeout`` (seconds) is named in a timeout's message.
    """
    import openai

    where = base_url
    detail = redact(_server_message(exc), key)[:300]
    tries = f" after {retries + 1} attempts" if retries else ""
    if isinstance(exc, openai.APITimeoutError):
        return LLMTimeout(
            f"the LLM at {where} did not answer within {timeout:g} s{tries} (raise --timeout or PAPERCHAT_TIMEOUT)"
        )
    if isinstance(exc, openai.APIConnectionError):
        if not detail or detail.strip(" .").lower() == "connection error":
            # the openai client's bare "Connection error.": the server closed the connection before answering
            detail = "the connection closed before an answer (did the server stop?)"
        return LLMConnectionError(f"cannot reach the LLM at {where}{tries}: {detail.rstrip('.')}")
    if isinstance(exc, openai.AuthenticationError):
        return LLMAuthError(
            f"the LLM at {where} rejected the API key (HTTP 401): check OPENAI_API_KEY"
        )
    if isinstance(exc, openai.PermissionDeniedError):
        return LLMAuthError(
            f"the LLM at {where} denied access (HTTP 403): {detail or 'permission denied'}"
        )
    if isinstance(exc, openai.NotFoundError):
        body = getattr(exc, "body", None)
        # a web page, or a web framework's {"detail": "Not Found"} (FastAPI: llama-cpp-python, vLLM) for a path
        # it does not serve, is no API's error about a model
        if not (isinstance(body, dict) and {"message", "error", "code", "type"} & set(body)):
            return LLMModelNotFound(
                f"the server at {where} has no Chat Completions endpoint (HTTP 404 with no API error): check "
                "that --base-url is an OpenAI-compatible API (it often ends in /v1)"
            )
        return LLMModelNotFound(
            f"model {model!r} not found at {where} (HTTP 404): set PAPERCHAT_LLM_MODEL to a model the server lists"
        )
    if isinstance(exc, openai.RateLimitError):
        return LLMRateLimited(
            f"the LLM at {where} is rate limiting (HTTP 429){tries}: {detail or 'try again later'}"
        )
    if isinstance(exc, openai.BadRequestError) and _is_context_overflow(exc):
        return LLMContextOverflow(
            f"the request exceeds the model's context window (HTTP 400): {detail}"
        )
    if isinstance(exc, openai.APIStatusError):
        retried = tries if exc.status_code >= 500 else ""
        return LLMServerError(
            f"the LLM at {where} failed (HTTP {exc.status_code}){retried}: {detail or 'no details'}"
        )
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
    return (
        "context_length" in text
        or "context length" in text
        or "maximum context" in text
        or "too many tokens" in text
    )
