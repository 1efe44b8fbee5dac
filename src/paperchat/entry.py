"""The ``paperchat`` console script: :func:`paperchat.cli.main`, and a Ctrl-C while the command line is still
being imported (its first fraction of a second) ends as a later one does, ``interrupted`` and status 130,
not a traceback."""

from __future__ import annotations

import sys


def main() -> int:
    """Import and run the command line; its exit status (130 when interrupted while importing)."""
    try:
        from paperchat.cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
    return run()
