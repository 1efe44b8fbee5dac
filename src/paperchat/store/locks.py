"""File locks (``filelock``) for the store: one helper for every lock paperchat takes.

* ``write.lock``: held by the one process that writes the store (ingest, rebuild);
* ``open.lock``: held briefly while a process opens (creates, migrates) the
  embedded Chroma folder, so two first opens do not both run Chroma's
  schema migrations.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from paperchat.core.errors import StoreError
from paperchat.core.notes import note
from paperchat.store.failures import StoreUnavailable, read_only_message


@contextlib.contextmanager
def file_lock(
    path: Path, timeout_s: float, busy: str, wait_note: str | None = None
) -> Iterator[None]:
    """Hold the lock file ``path`` for the duration of the ``with`` block.

    Waits up to ``timeout_s`` seconds for another process to release it, then
    raises :class:`StoreError` with the message ``busy``; ``wait_note``, when
    given, is a note for the user (:func:`paperchat.core.notes.note`) once if the lock is not free at once. A folder
    that cannot be written is opened without a lock (a read-only store is
    read, never written).
    """
    from filelock import FileLock, Timeout

    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise StoreUnavailable(read_only_message(path.parent))
    lock = FileLock(str(path))
    try:
        try:
            lock.acquire(timeout=0)
        except Timeout:
            if wait_note:
                note(wait_note)
            lock.acquire(timeout=timeout_s)
    except Timeout:
        raise StoreError(busy) from None
    except PermissionError:
        raise StoreUnavailable(read_only_message(path.parent)) from None
    try:
        yield
    finally:
        lock.release()


@contextlib.contextmanager
def open_guard(store_dir: Path, timeout_s: float) -> Iterator[None]:
    """Serialize opening the embedded Chroma folder (``<store>/open.lock``); no lock on a read-only folder."""
    if not os.access(store_dir, os.W_OK | os.X_OK):
        yield
        return
    with file_lock(
        store_dir / "open.lock",
        timeout_s,
        f"another paperchat process is opening the store at {store_dir}; try again",
    ):
        yield
