"""Work started on daemon threads so it overlaps the main thread (loading the model while the store opens).

:func:`join_background` is called by the CLI before the process exits: a
process that exits while onnxruntime is still creating its session on a
daemon thread is aborted by the C++ runtime ("terminate called without an
active exception").
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

_THREADS: list[threading.Thread] = []


def background(target: Callable[[], None], name: str) -> None:
    """Run ``target`` on a daemon thread; its errors are ignored (the main thread meets them again)."""

    def run() -> None:
        try:
            target()
        except BaseException:
            pass

    thread = threading.Thread(target=run, name=name, daemon=True)
    _THREADS.append(thread)
    thread.start()


def join_background(timeout_s: float = 10.0) -> None:
    """Wait (at most ``timeout_s`` seconds in all) for the background loaders to finish.

    A process that exits while onnxruntime is still creating its session on
    a daemon thread is aborted by the C++ runtime ("terminate called without
    an active exception"), so the CLI calls this before it exits.
    """
    deadline = time.monotonic() + timeout_s
    for thread in list(_THREADS):
        thread.join(max(0.0, deadline - time.monotonic()))
