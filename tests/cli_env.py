"""Run a paperchat command line in-process through ``paperchat.cli.main(args, env)`` and keep what it printed.

``run_cli("ask", "q", store=path)`` returns a :class:`Ran` with the exit status and the whole stdout and
stderr, each on its own (a subprocess's ``returncode``/``stdout``/``stderr`` names), so tests assert exact
transcripts without starting a Python process.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass

from paperchat.cli import main
from paperchat.cli.environment import Clock, Environment


@dataclass
class Ran:
    """What one command line did: its exit status and everything written to stdout and stderr."""

    returncode: int
    stdout: str
    stderr: str


class FakeClock(Clock):
    """A clock that starts at ``now`` (epoch seconds) and moves only when slept on."""

    def __init__(self, now: float = 1_750_000_000.0):
        self.now = now

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def environment(input: str | None = None, store=None, env=None, tty=False, width=88, clock=None):
    """An :class:`Environment` over in-memory streams: ``input`` as stdin, the test's variables plus ``env``
    (and ``PAPERCHAT_STORE=store``), stdin/stdout/stderr terminals or not (``tty``), ``width`` columns."""
    environ = {**os.environ, **(env or {})}
    if store is not None:
        environ["PAPERCHAT_STORE"] = str(store)
    return Environment(
        stdin=io.StringIO(input or ""),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
        stdin_isatty=tty,
        stdout_isatty=tty,
        stderr_isatty=tty,
        terminal_width=width,
        clock=clock or FakeClock(),
        environ=environ,
        prog_name="paperchat",
    )


def run_cli(*args: str, input: str | None = None, store=None, env=None, **kw) -> Ran:
    """Run ``paperchat ARGS`` in this process (see :func:`environment` for the keywords)."""
    e = environment(input, store, env, **kw)
    status = main(list(args), e)
    return Ran(int(status), e.stdout.getvalue(), e.stderr.getvalue())
