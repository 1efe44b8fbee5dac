"""What a command line runs in: its streams, whether they are terminals, the width, the clock, the variables.

:class:`Environment` is httpie's ``Environment`` for paperchat: :func:`paperchat.cli.main` runs a command line
in one (the process's own by default), the warm daemon builds one per forwarded request from the client's
terminal, and tests build one from ``io.StringIO`` streams, a fixed width and a fake clock. While a command
runs, :func:`current` returns its environment.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import shutil
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO


class Clock:
    """The time as commands read it: wall-clock seconds, monotonic seconds, and a sleep (tests pass a fake)."""

    def time(self) -> float:
        """Seconds since the epoch (``time.time``)."""
        return time.time()

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (``time.monotonic``), for deadlines."""
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (``time.sleep``)."""
        time.sleep(seconds)


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


@dataclass
class Environment:
    """The streams and surroundings of one command line.

    ``stdin``/``stdout``/``stderr`` are text streams (default: the process's);
    the ``*_isatty`` flags default to asking the streams. ``terminal_width``
    is the columns to wrap at before the CLI's own cap (``None``: the
    terminal's, ``$COLUMNS`` first, 88 when there is none). ``environ`` holds
    the variables the command sees (settings such as ``PAPERCHAT_STORE``);
    ``None`` keeps the process's. ``prog_name`` is the name shown in usage
    lines (``None``: Click's, from ``sys.argv[0]``).
    """

    stdin: IO[str] = field(default_factory=lambda: sys.stdin)
    stdout: IO[str] = field(default_factory=lambda: sys.stdout)
    stderr: IO[str] = field(default_factory=lambda: sys.stderr)
    stdin_isatty: bool | None = None
    stdout_isatty: bool | None = None
    stderr_isatty: bool | None = None
    terminal_width: int | None = None
    clock: Clock = field(default_factory=Clock)
    environ: Mapping[str, str] | None = None
    prog_name: str | None = None

    def __post_init__(self) -> None:
        if self.stdin_isatty is None:
            self.stdin_isatty = _isatty(self.stdin)
        if self.stdout_isatty is None:
            self.stdout_isatty = _isatty(self.stdout)
        if self.stderr_isatty is None:
            self.stderr_isatty = _isatty(self.stderr)

    def columns(self) -> int:
        """The terminal's width in columns (``terminal_width``, else ``$COLUMNS`` or the terminal, else 88)."""
        if self.terminal_width is not None:
            return self.terminal_width
        return shutil.get_terminal_size((88, 24)).columns

    @contextlib.contextmanager
    def applied(self) -> Iterator[Environment]:
        """Make this the running environment: ``sys.stdin/stdout/stderr`` and (when given) ``os.environ`` are
        this environment's inside the block (Click, ``print`` and tqdm write to ``sys`` streams), and
        restored after it."""
        saved_streams = sys.stdin, sys.stdout, sys.stderr
        saved_env = dict(os.environ) if self.environ is not None else None
        token = _CURRENT.set(self)
        try:
            if self.environ is not None:
                os.environ.clear()
                os.environ.update(self.environ)
            sys.stdin, sys.stdout, sys.stderr = self.stdin, self.stdout, self.stderr
            yield self
        finally:
            sys.stdin, sys.stdout, sys.stderr = saved_streams
            if saved_env is not None:
                os.environ.clear()
                os.environ.update(saved_env)
            _CURRENT.reset(token)


_CURRENT: contextvars.ContextVar[Environment | None] = contextvars.ContextVar(
    "paperchat_environment", default=None
)


def current() -> Environment:
    """The environment of the running command line (the process's own outside :func:`paperchat.cli.main`)."""
    return _CURRENT.get() or Environment()
