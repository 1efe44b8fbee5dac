"""Phase marks for ``paperchat bench``: when ``PAPERCHAT_PHASES=FILE`` is set, a command records when it reached
each phase (wall-clock ``time.time()``), and writes ``{"marks": [[name, t], ...]}`` to FILE as it exits.

The bench starts the command in a fresh process, notes when it spawned it,
and turns the marks into a per-phase breakdown (interpreter and imports up
to the CLI, opening the store, embedding the question, retrieval, answer,
printing). Unset, :func:`mark` costs one dictionary lookup.
"""

from __future__ import annotations

import json
import os
import time

_MARKS: list[tuple[str, float]] = []


def mark(name: str) -> None:
    """Record that the process reached phase ``name`` now (only under ``PAPERCHAT_PHASES``)."""
    if "PAPERCHAT_PHASES" in os.environ:
        _MARKS.append((name, time.time()))


def write() -> None:
    """Write the marks to ``$PAPERCHAT_PHASES`` (called once, as the CLI exits)."""
    path = os.environ.get("PAPERCHAT_PHASES")
    if path:
        mark("exit")
        try:
            with open(path, "w", encoding="utf-8") as fh:
                json.dump({"marks": _MARKS}, fh)
        except OSError:
            pass
