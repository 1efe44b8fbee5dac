"""Arguments of the Python API checked as the CLI checks its flags, and the first use's progress line.

Each check raises :class:`~paperchat.core.errors.PaperchatError` with a one-line message.
"""

from __future__ import annotations

import functools
import numbers
import os
import re
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
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
    (re.compile(r"--year (-?\d+)"), r"year=\1"),
    (re.compile(r"\(--paper\)"), "(given in papers=)"),
    (re.compile(r"--paper\b"), "papers="),
    (re.compile(r"`paperchat papers` lists"), "Paperchat.papers() lists"),
    (re.compile(r"`paperchat ask (\"[^\"]*\")`"), r"Paperchat.ask(\1)"),
    (re.compile(r"`paperchat remove ([^`]*)`"), r'Paperchat.remove("\1")'),
    (re.compile(r"setting (\w+) from flag: (\S+) is"), r"\1=\2 is"),
    # an ingest's: "fix it or pass --on-error skip", "(--encoding cp1252)"
    (re.compile(r"--on-error (\w+)"), r'on_error="\1"'),
    (re.compile(r"--encoding ([\w-]+)"), r'encoding="\1"'),
    (
        re.compile(
            r"run `paperchat(?: --store \S+)? ingest`(?: \(the bundled corpus\) or `[^`]*`)? first"
        ),
        "call .ingest(paths) first (no paths: the bundled corpus)",
    ),
)


def for_python(message: str) -> str:
    """An engine message (written for the command line) as a Python caller reads it: ``--year 2019`` as
    ``year=2019``, ``(--paper)`` as ``(given in papers=)``, "`paperchat papers` lists them" as ``Paperchat.papers()``,
    "run `paperchat ... ingest` first" as ``.ingest(paths)``."""
    for pattern, repl in _CLI_WORDS:
        message = pattern.sub(repl, message)
    return message


#: One API call at a time in a process, whichever object and thread makes it: Chroma's embedded clients share
#: a process-wide cache, which a store's refresh after another object's write resets (a notebook's four
#: threads asking after a re-run cell's ingest had hit chromadb's KeyError about every other run).
ONE_CALL = threading.RLock()


def python_errors(method: Callable) -> Callable:
    """``method`` whose :class:`PaperchatError` messages and returned answer's ``notes`` name the API's
    arguments and methods, not the CLI's flags and commands (:func:`for_python`); the exception's class is
    kept. An instance whose ``cli_messages`` is true (the MCP
    server's: an agent runs the CLI) keeps the CLI's words. Calls from several threads run one at a
    time (:data:`ONE_CALL`)."""

    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        # the MCP server's instance keeps the CLI's words
        cli = bool(args) and getattr(args[0], "cli_messages", False)
        try:
            with ONE_CALL:
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


def ingest_args(rebuild: Any, metadata: Any, encoding: Any, progress: Any, on_error: Any) -> None:
    """Refuse, before any work, :meth:`~paperchat.api.Paperchat.ingest`'s arguments of the wrong type with a
    :class:`BadArgument` naming the argument: a notebook session's ``rebuild="False"`` had rebuilt the store
    (dropping papers), ``metadata=5`` and ``encoding=5`` raised internal errors, ``progress=5`` failed midway."""
    if not isinstance(rebuild, bool):
        raise BadArgument(f"rebuild must be True or False, not {rebuild!r}"[:120])
    if metadata is not None and not isinstance(metadata, (str, os.PathLike)):
        raise BadArgument(f"metadata must be a path, not {type(metadata).__name__}")
    if encoding is not None and not isinstance(encoding, str):
        raise BadArgument(
            f"encoding must be a codec name such as 'latin-1', not {encoding!r}"[:120]
        )
    if progress is not None and not callable(progress):
        raise BadArgument(
            f"progress must be a function of (done, total), not {type(progress).__name__}"
        )
    if on_error not in ("stop", "skip"):
        raise BadArgument(f"on_error must be 'stop' or 'skip', not {on_error!r}"[:120])


def cited_paper_ids(papers: Any) -> list[str]:
    """The paper ids of what :meth:`~paperchat.api.Paperchat.bibtex` takes: an answer (its cited papers), a
    paper id, a :class:`~paperchat.ingest.records.PaperRecord` or a search hit, or a list of them; a
    :class:`BadArgument` for anything else."""
    from paperchat.api.results import SearchHit
    from paperchat.core.contract import Answer
    from paperchat.ingest.records import PaperRecord

    if isinstance(papers, Answer):
        return [s.paper_id for s in papers.sources]
    items = [papers] if isinstance(papers, (str, PaperRecord, SearchHit)) else papers
    if not isinstance(items, Iterable) or isinstance(items, Mapping):
        raise BadArgument(
            f"papers must be an answer, a paper id or a list of them, not {type(papers).__name__}"
        )
    ids = []
    for item in items:
        pid = item if isinstance(item, str) else getattr(item, "paper_id", None)
        if not isinstance(pid, str):
            raise BadArgument(
                f"cannot cite {type(item).__name__}: give paper ids, papers or search hits"
            )
        # " G3grccIXIg " as an agent copies it, as pc.paper reads it
        ids.append(" ".join(pid.split()))
    return ids


def filter_args(author: Any, venue: Any, year: Any, papers: Any) -> tuple:
    """``(author, venue, year, paper ids)`` checked for :meth:`~paperchat.api.Paperchat.filters`: a
    :class:`BadArgument` for a value of the wrong type, or one given but empty or without a letter or digit
    (``author=""``, ``author="..."``, ``papers=[]``), which the CLI refuses too rather than search every paper."""
    from paperchat.retrieve.filters import unusable_value

    for name, value in (("author", author), ("venue", venue)):
        if value is not None and not isinstance(value, str):
            raise BadArgument(f"{name} must be a string, not {type(value).__name__}")
        # "..." or "-" had matched every paper (a notebook session)
        if value is not None and (why := unusable_value(name, value, f"{name}={value!r}")):
            raise BadArgument(why)
    if year is not None and (isinstance(year, bool) or not isinstance(year, numbers.Integral)):
        raise BadArgument(f"year must be a whole number such as 2025, not {year!r}")
    year = None if year is None else int(year)  # numpy's int64 from a DataFrame too
    ids = [papers] if isinstance(papers, str) else papers
    if ids is not None:
        ids = list(ids) if isinstance(ids, Iterable) else None
        if ids is None or not all(isinstance(p, str) for p in ids):
            raise BadArgument("papers must be a paper id or a list of paper ids (strings)")
        if not any(p.strip() for p in ids):
            raise BadArgument("papers is empty; leave it out to search every paper")
    return author, venue, year, ids
