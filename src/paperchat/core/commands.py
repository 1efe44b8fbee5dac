"""Commands for the reader to copy: what an error or ``paperchat check`` tells them to run.

A command to copy must do what it says from any folder and on the store the message is about: it names the
store (``--store`` as an absolute path, or ``--chroma-url``) and an embedding model other than the default,
and its files as absolute paths (:func:`paperchat.ingest.manifest.repeat_command`).
"""

from __future__ import annotations

import shlex

from paperchat.core.settings import BY_NAME, Settings


def store_options(settings: Settings) -> list[str]:
    """The global flags that select ``settings``' store: ``["--store", "/abs/dir"]`` (or ``["--chroma-url",
    URL]``), then ``["--embed-model", NAME]`` for a model other than the default; empty for the default store
    and model."""
    out = ["--chroma-url", settings.chroma_url] if settings.chroma_url else []
    if settings.store and not settings.chroma_url:
        out += ["--store", str(settings.store_path.resolve())]
    if settings.embed_model != BY_NAME["embed_model"].default:
        out += ["--embed-model", settings.embed_model]
    return out


def command(settings: Settings, *words: str) -> str:
    """``paperchat [store options] WORDS``: a command on ``settings``' store (:func:`store_options`)."""
    return shlex.join(["paperchat", *store_options(settings), *words])


def ingest_command(settings: Settings) -> str:
    """``paperchat [store options] ingest``: the command that fills ``settings``' store (:func:`store_options`)."""
    return command(settings, "ingest")
