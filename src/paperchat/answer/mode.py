"""The answer mode, decided once per request: the configured LLM, or the offline extractive answerer.

``auto`` (the default) picks the LLM when one is configured (an API key, or
a base URL of a server other than api.openai.com), else the extractive
answerer; ``llm`` insists on the LLM (and fails clearly when it is not
usable); ``extractive`` never calls a model.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from paperchat.core.contract import EXTRACTIVE, LLM
from paperchat.core.errors import BadArgument, LLMConfigError, redact

OPENAI_URL = "https://api.openai.com/v1"


def host_of(settings) -> str:
    """The host the LLM requests go to (``api.openai.com`` without a base URL)."""
    return urlsplit(settings.llm_base_url or OPENAI_URL).hostname or ""


def llm_configured(settings) -> bool:
    """True when an LLM can be called: an API key, or a base URL of another host."""
    if settings.llm_api_key:
        return True
    return bool(settings.llm_base_url) and not host_of(settings).endswith("openai.com")


def check_llm_settings(settings) -> None:
    """Raise :class:`LLMConfigError` when the LLM settings cannot work (no network used)."""
    base = settings.llm_base_url
    if base:
        parts = urlsplit(base)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise LLMConfigError(
                f"LLM base URL {redact(base, settings.llm_api_key)!r} is not an http(s) URL"
            )
    if not settings.llm_api_key and host_of(settings).endswith("openai.com"):
        raise LLMConfigError(
            "no API key for api.openai.com: set OPENAI_API_KEY, or OPENAI_BASE_URL for an OpenAI-compatible server"
        )
    if not settings.llm_model:
        raise LLMConfigError(
            "no LLM model set (PAPERCHAT_LLM_MODEL or llm.model in the config file)"
        )


@dataclass(frozen=True)
class ModeChoice:
    """The answer mode of one request: ``mode`` is ``"llm"`` or ``"extractive"``; ``fallback`` is true when
    ``auto`` was asked, so an LLM that cannot be reached (or answers nothing) gives the offline answer."""

    mode: str
    fallback: bool


def choose_mode(settings, requested: str | None = None) -> ModeChoice:
    """The one place the answer mode is decided, for ``requested`` (``auto``/``llm``/``extractive``; default:
    the ``mode`` setting): ``auto`` means the LLM when one is configured (:func:`llm_configured`), else offline.

    Raises :class:`LLMConfigError` for ``llm`` without a usable configuration,
    :class:`BadArgument` (a :class:`PaperchatError` and a ``ValueError``) for an unknown mode.
    """
    mode = (requested or settings.mode or "auto").lower()
    if mode == "auto":
        return ModeChoice(LLM if llm_configured(settings) else EXTRACTIVE, True)
    if mode == LLM:
        check_llm_settings(settings)
        return ModeChoice(LLM, False)
    if mode == EXTRACTIVE:
        return ModeChoice(EXTRACTIVE, False)
    raise BadArgument(f"unknown mode {mode!r}: use auto, llm or extractive")


def decide_mode(settings, requested: str | None = None) -> str:
    """``"llm"`` or ``"extractive"`` for ``requested``: the mode of :func:`choose_mode`."""
    return choose_mode(settings, requested).mode
