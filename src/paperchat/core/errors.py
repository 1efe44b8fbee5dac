"""Errors users see, and the exit statuses they map to.

Every failure a user can cause or meet (bad input, a store problem, an LLM
fault) is a :class:`PaperchatError`: its message is printed as one line and
the process exits with its :class:`ExitStatus`. The CLI's single error
boundary (:func:`paperchat.cli.invoke`, run by :func:`paperchat.cli.main`) is the only place that turns exceptions
into exit statuses; :func:`describe` gives the one line for any exception,
so the chat loop reports a failed turn the same way.
"""

from __future__ import annotations

import os
import re
from enum import IntEnum


class ExitStatus(IntEnum):
    """Process exit statuses (as httpie's ``ExitStatus``)."""

    OK = 0
    ERROR = 1  # a PaperchatError, or anything unexpected
    USAGE = 2  # Click usage errors
    INTERRUPTED = 130  # 128 + SIGINT


class PaperchatError(Exception):
    """A user-facing error: the message is printed as one line, the exit status is ``exit_status``.

    Raised for bad input (missing, empty or binary files, malformed lines,
    missing columns), store problems (not writable, locked, settings
    mismatch, damaged) and configuration mistakes.
    """

    exit_status: ExitStatus = ExitStatus.ERROR

    def __init__(self, message: str, exit_status: ExitStatus | None = None):
        super().__init__(message)
        if exit_status is not None:
            self.exit_status = exit_status


class ReportedFailure(PaperchatError):
    """The command failed and has already said why on its output (failed checks, a regression, no daemon):
    the CLI exits with ``exit_status`` and adds no ``error:`` line."""

    def __init__(self, exit_status: ExitStatus = ExitStatus.ERROR):
        super().__init__("", exit_status)


class BadArgument(PaperchatError, ValueError):
    """An argument of the Python API that the CLI would refuse as a flag (a wrong type, a value out of range);
    also a :class:`ValueError`, so ``except ValueError`` catches it as Python code expects."""


class StoreError(PaperchatError):
    """The store cannot be opened, read or written as asked (locked, read-only, damaged, other settings)."""


class LLMError(PaperchatError):
    """Any LLM failure (one-line message, API key redacted)."""


class LLMConfigError(LLMError):
    """The LLM is not usable as configured (no API key for api.openai.com, bad base URL)."""


class LLMAuthError(LLMError):
    """The server refused the key (HTTP 401) or the access (HTTP 403)."""


class LLMModelNotFound(LLMError):
    """The server does not know the model (HTTP 404)."""


class LLMRateLimited(LLMError):
    """HTTP 429 after every retry was spent."""


class LLMServerError(LLMError):
    """HTTP 5xx (after every retry), another HTTP error, or an error event in the stream."""


class LLMTimeout(LLMError):
    """No answer (or no next piece of a stream) within ``timeout`` seconds, after the retries."""


class LLMConnectionError(LLMError):
    """The server could not be reached, or the stream dropped before any text arrived."""


class LLMEmptyAnswer(LLMError):
    """A well-formed reply that holds no answer text (``--mode auto`` then answers offline, with a note)."""


class LLMContextOverflow(LLMError):
    """The request exceeds the model's context window (the server said so, or it cannot fit)."""


class LLMBadResponse(LLMError):
    """The server answered, but not with a Chat Completions response (an HTML page, say)."""


DEBUG_ENV = "PAPERCHAT_DEBUG"


def debug_enabled() -> bool:
    """Whether ``PAPERCHAT_DEBUG`` asks for tracebacks instead of one-line errors."""
    return bool(os.environ.get(DEBUG_ENV))


def describe(exc: BaseException) -> str:
    """The one line shown for ``exc`` (without the ``error:`` prefix)."""
    if isinstance(exc, PaperchatError):
        return " ".join(str(exc).split())
    lines = str(exc).splitlines()
    first = lines[0] if lines else ""
    return f"{type(exc).__name__}: {first} (set {DEBUG_ENV}=1 for details)"


#: the key sent to servers that need none (a base URL without a key).
DUMMY_KEY = "not-needed"
_KEYLIKE = re.compile(r"\b(sk|pk|rk|key)-[A-Za-z0-9_\-*.]{6,}")
_MASKED = re.compile(r"[A-Za-z0-9_\-]*\*{3,}[A-Za-z0-9_\-]*")


# Placeholder keys for local servers ("ollama", "none", "x") are not secrets, and masking them would mangle
# ordinary words in answers ("tokens" → "to***ens" for the key "k"): only keys this long are masked.
MIN_SECRET_LEN = 8


def secret_to_mask(key: str | None) -> str:
    """``key`` when it is worth masking (set, not the dummy key, at least ``MIN_SECRET_LEN`` characters), else ``""``."""
    return key if key and key != DUMMY_KEY and len(key) >= MIN_SECRET_LEN else ""


def hide_password(url: str) -> str:
    """``url`` with the password of its user part masked: ``http://bob:***@host/v1`` (for messages; the
    client keeps the real URL)."""
    return re.sub(r"^([a-zA-Z][\w+.-]*://[^/@:\s]*):[^/@\s]*@", r"\1:***@", url or "")


def shown_setting(setting, value):
    """A setting's value as displayed: a secret (``setting.secret``) as ``sk-…(set)``, a URL's password masked."""
    if setting.secret and value:
        return "sk-…(set)"
    return hide_password(value) if isinstance(value, str) and "://" in value else value


def redact(text: object, secret: str | None = None) -> str:
    """``text`` on one line with ``secret`` and anything shaped like an API key masked (messages, logs, JSON)."""
    text = " ".join(str(text).split())
    secret = secret_to_mask(secret)
    if secret:
        text = text.replace(secret, "***")
    text = _MASKED.sub("***", text)  # servers echo a masked key such as "sk-abc***wxyz"
    return _KEYLIKE.sub(lambda m: m.group(1) + "-***", text)
