"""Progress on stderr for long work (ingest, eval): a tqdm bar on a terminal, plain lines in a log; and the
stages' warnings while a command waits (:func:`show_notes`)."""

from __future__ import annotations

import logging
import math
import os
import sys
import time
from collections.abc import Callable

LOG_EVERY_S = 10.0  # PAPERCHAT_PROGRESS_INTERVAL overrides it (seconds; 0: a line per batch)


def _log_interval() -> float:
    """``PAPERCHAT_PROGRESS_INTERVAL`` in seconds (default :data:`LOG_EVERY_S`); raises
    :class:`~paperchat.core.errors.PaperchatError` for a value that is no number of seconds, 0 or more (an
    operator's "abc" and "-1" had been taken silently, where every other setting is checked)."""
    from paperchat.core.errors import PaperchatError

    raw = os.environ.get("PAPERCHAT_PROGRESS_INTERVAL", "").strip()
    try:
        value = float(raw) if raw else LOG_EVERY_S
    except ValueError:
        value = -1.0
    if not 0 <= value < math.inf:
        raise PaperchatError(
            f"PAPERCHAT_PROGRESS_INTERVAL must be a number of seconds, 0 or more, not {raw!r}"
        )
    return value


def _log_lines(desc: str, unit: str) -> Callable[[int, int], None]:
    """Progress for a stderr that is not a terminal (logs, CI): a plain line at most every
    ``PAPERCHAT_PROGRESS_INTERVAL`` seconds (default 10), and one at the end."""
    state = {"start": time.perf_counter(), "last": 0.0, "total": None}
    every = _log_interval()

    def callback(done: int, total: int) -> None:
        now = time.perf_counter()
        if done == 0 or total != state["total"]:
            state.update(start=now, last=now, total=total)
            return
        if done < total and now - state["last"] < every:
            return
        state["last"] = now
        rate = done / max(now - state["start"], 1e-9)
        # rounded up: "about 0 s left" mid-run read as done (a newcomer's break-it session)
        eta = (
            f", about {math.ceil((total - done) / rate)} s left"
            if done < total and rate > 0
            else ""
        )
        print(
            f"{desc}: {done}/{total} {unit}s ({100 * done // max(total, 1)}%), {rate:.1f} {unit}/s{eta}",
            file=sys.stderr,
            flush=True,
        )

    return callback


def progress_bar(
    desc: str, unit: str = "chunk", quiet: bool = False
) -> Callable[[int, int], None] | None:
    """A progress callback ``(done, total)`` drawing a tqdm bar (rate, ETA) on stderr; ``None`` when quiet.

    When stderr is not a terminal (a log file, CI), plain lines are written
    instead: at most one every ``LOG_EVERY_S`` seconds, and one at the end.

    The callback may serve several runs in a row (e.g. two ingests): a new
    bar starts whenever ``done`` goes back to 0 or the total changes.
    """
    if quiet:
        return None
    from paperchat.cli.environment import current

    if not current().stderr_isatty:
        return _log_lines(desc, unit)
    state: dict = {}

    def callback(done: int, total: int) -> None:
        bar = state.get("bar")
        if bar is None or done < bar.n or total != bar.total:
            if bar is not None:
                bar.close()
            from tqdm import tqdm

            bar = state["bar"] = tqdm(
                total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True
            )
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return callback


class NoteHandler(logging.Handler):
    """Shows warnings from the stages below (the ``paperchat`` logger: a wait before retrying a rate-limited LLM
    request) as ``note: …`` lines on stderr while the command runs."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            print(f"note: {record.getMessage()}", file=sys.stderr, flush=True)
        except Exception:
            self.handleError(record)


class LineHandler(logging.Handler):
    """Shows the stages' notes for the user (:func:`paperchat.core.notes.note`: a lock being waited for, an
    index that could not be saved) on the running command's stderr, each line as it is, ``--quiet`` or not."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            print(record.getMessage(), file=sys.stderr, flush=True)
        except Exception:
            self.handleError(record)


NOTES = NoteHandler()
LINES = LineHandler(logging.WARNING)


def show_notes(on: bool = True) -> None:
    """Print the stages' warnings on stderr (``on``), or not (``--quiet``); their notes for the user
    (:mod:`paperchat.core.notes`) are printed either way."""
    from paperchat.core.notes import LOGGER

    logger = logging.getLogger("paperchat")
    if NOTES not in logger.handlers:
        logger.addHandler(NOTES)
    if LINES not in LOGGER.handlers:
        LOGGER.addHandler(LINES)
    NOTES.setLevel(logging.WARNING if on else logging.CRITICAL + 1)
