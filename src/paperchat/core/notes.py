"""Notes for the user from the stages below the CLI (a lock being waited for, an index that could not be saved).

A stage calls :func:`note` instead of printing: the line goes to the
``paperchat.notes`` logger, which the CLI shows on the running command's stderr
as it is (:func:`paperchat.cli.progress.show_notes`). Outside the CLI (the
Python API) no handler is installed and :mod:`logging`'s last-resort handler
prints the same line on stderr.
"""

from __future__ import annotations

import logging

#: the logger notes go to; it does not pass them on to ``paperchat`` (whose warnings the CLI shows as ``note: …``)
LOGGER = logging.getLogger("paperchat.notes")
LOGGER.propagate = False


def note(line: str) -> None:
    """Tell the user ``line`` (one line of text, shown as it is, at once: e.g. before waiting for a lock)."""
    LOGGER.warning(line)
