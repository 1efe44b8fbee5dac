"""Arguments of the Python API checked as the CLI checks its flags, and the first use's progress line.

Each check raises :class:`~paperchat.core.errors.PaperchatError` with a one-line message.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from paperchat.core.errors import PaperchatError
from paperchat.core.settings import BY_NAME


def text_arg(value: Any, what: str) -> str:
    """``value`` when it is a string, else :class:`PaperchatError` (the engine says what an empty one means)."""
    if not isinstance(value, str):
        raise PaperchatError(f"the {what} must be a string, not {type(value).__name__}")
    return value


def top_k_arg(value: Any, default: int) -> int:
    """``value`` (``None``: ``default``) checked as the CLI's ``--top-k`` is: a whole number in its range."""
    low, high = int(BY_NAME["top_k"].low), int(BY_NAME["top_k"].high)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise PaperchatError(f"top_k must be a whole number from {low} to {high}, not {value!r}")
    return value


def paths_arg(paths: Any, if_empty: str) -> list:
    """``paths`` (one path or a list of them) as a non-empty list; :class:`PaperchatError` for another type,
    or for an empty list, whose message ends with ``if_empty``."""
    items = [paths] if isinstance(paths, (str, os.PathLike)) else paths
    if not isinstance(items, (list, tuple)) or not all(
        isinstance(p, (str, os.PathLike)) for p in items
    ):
        raise PaperchatError(f"paths must be a path or a list of paths, not {type(paths).__name__}")
    if not items:
        raise PaperchatError(f"no files given (an empty list); {if_empty}")
    return list(items)


class FirstRun:
    """Progress of the first use's bundled-corpus ingest on stderr (10-20 s): one line when it starts, the end
    of it when done, so a notebook does not sit silent (stdout stays the caller's)."""

    def __init__(self, store: Path):
        self.store, self.started = store, False

    def __call__(self, done: int, total: int) -> None:
        if not self.started:
            self.started = True
            print(
                f"paperchat: first use: embedding the bundled corpus into {self.store} ...",
                end="",
                file=sys.stderr,
                flush=True,
            )
        if total and done >= total:
            print(f" done ({total} chunks)", file=sys.stderr, flush=True)
