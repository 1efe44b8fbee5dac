"""Arguments of the Python API checked as the CLI checks its flags, and the first use's progress line.

Each check raises :class:`~paperchat.core.errors.PaperchatError` with a one-line message.
"""

from __future__ import annotations

import functools
import numbers
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from paperchat.core.errors import BadArgument, PaperchatError
from paperchat.core.settings import BY_NAME


def text_arg(value: Any, what: str) -> str:
    """``value`` when it is a string, else :class:`BadArgument` (the engine says what an empty one means)."""
    if not isinstance(value, str):
        raise BadArgument(f"the {what} must be a string, not {type(value).__name__}")
    return value


def top_k_arg(value: Any, default: int | None) -> int | None:
    """``value`` (``None``: ``default``) checked as the CLI's ``--top-k`` is: a whole number in its range
    (numpy's integers too: a notebook's ``df["k"]`` value)."""
    low, high = int(BY_NAME["top_k"].low), int(BY_NAME["top_k"].high)
    if value is None:
        return default
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Integral)
        or not low <= value <= high
    ):
        raise BadArgument(f"top_k must be a whole number from {low} to {high}, not {value!r}")
    return int(value)


#: The CLI's words in an engine message, and what the Python API calls them.
_CLI_WORDS = (
    (re.compile(r"`paperchat papers --author (\"[^\"]*\")`"), r"Paperchat.papers(author=\1)"),
    (re.compile(r"--(author|venue) (\"[^\"]*\")"), r"\1=\2"),
    (re.compile(r"--year (\d+)"), r"year=\1"),
    (re.compile(r"\(--paper\)"), "(papers=)"),
    (re.compile(r"--paper\b"), "papers="),
    (re.compile(r"`paperchat papers` lists"), "Paperchat.papers() lists"),
    (re.compile(r"`paperchat ask (\"[^\"]*\")`"), r"Paperchat.ask(\1)"),
    (re.compile(r"`paperchat remove ([^`]*)`"), r'Paperchat.remove("\1")'),
    (re.compile(r"setting (\w+) from flag: (\S+) is"), r"\1=\2 is"),
    (
        re.compile(r"run `paperchat(?: --store \S+)? ingest` first"),
        "call .ingest(paths) first (no paths: the bundled corpus)",
    ),
)


def for_python(message: str) -> str:
    """An engine message (written for the command line) as a Python caller reads it: ``--year 2019`` as
    ``year=2019``, ``(--paper)`` as ``(papers=)``, "`paperchat papers` lists them" as ``Paperchat.papers()``,
    "run `paperchat ... ingest` first" as ``.ingest(paths)``."""
    for pattern, repl in _CLI_WORDS:
        message = pattern.sub(repl, message)
    return message


def python_errors(method: Callable) -> Callable:
    """``method`` whose :class:`PaperchatError` messages and returned answer's ``notes`` name the API's
    arguments and methods, not the CLI's flags and commands (:func:`for_python`); the exception's class is
    kept. An instance whose ``cli_messages`` is true (the MCP
    server's: an agent runs the CLI) keeps the CLI's words."""

    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        # the MCP server's instance keeps the CLI's words
        cli = bool(args) and getattr(args[0], "cli_messages", False)
        try:
            result = method(*args, **kwargs)
        except PaperchatError as exc:
            if not cli and exc.args and isinstance(exc.args[0], str):
                exc.args = (for_python(exc.args[0]), *exc.args[1:])
            raise
        # an answer's notes too ("`paperchat ask \"How many papers ...\"` lists them": Paperchat.ask(...))
        if not cli and isinstance(getattr(result, "notes", None), list):
            result.notes = [for_python(n) if isinstance(n, str) else n for n in result.notes]
        return result

    return wrapper


def paths_arg(paths: Any, if_empty: str) -> list:
    """``paths`` (one path or a list of them) as a non-empty list; :class:`PaperchatError` for another type,
    or for an empty list, whose message ends with ``if_empty``."""
    items = [paths] if isinstance(paths, (str, os.PathLike)) else paths
    if not isinstance(items, (list, tuple)) or not all(
        isinstance(p, (str, os.PathLike)) for p in items
    ):
        raise BadArgument(f"paths must be a path or a list of paths, not {type(paths).__name__}")
    if not items:
        raise BadArgument(f"no files given (an empty list); {if_empty}")
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


def python_api(cls: type) -> type:
    """``cls`` with :func:`python_errors` around ``__init__`` and every public method."""
    for name, attr in list(vars(cls).items()):
        if callable(attr) and (name == "__init__" or not name.startswith("_")):
            setattr(cls, name, python_errors(attr))
    return cls
