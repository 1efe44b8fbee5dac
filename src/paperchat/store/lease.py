"""The write lease of a store on a Chroma server: one writer at a time across machines, best effort.

The write lock (:func:`paperchat.store.locks.file_lock`) is a file on this machine, so two machines (or two
users) writing one server did not see each other, and a rebuild could drop an ingest's papers while both
reported success. Chroma has no lock of its own, so a writer also records a lease in the store's state
(``writer_lease`` in the ``paperchat_meta`` metadata: ``token|host|pid|expiry``), renews it with every
batch it writes (:meth:`~paperchat.store.batch_writes.StoreWriter._wrote`, with the revision) and clears it at the end. A
writer that finds another's unexpired lease is refused with a message naming that writer; a lease left by
a writer that was killed expires after :data:`LEASE_S`, or at once when it ran on this machine and its
process is gone. Taking a lease is a read, a write and a read back
(the last of two racing writers keeps it, the other backs off), not an atomic compare-and-set: it closes
the window between writers minutes apart, not one of milliseconds.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
import uuid
from collections.abc import Iterator

from paperchat.core.errors import StoreError

#: Seconds a lease lasts without renewal (a batch of 64 papers takes well under this to embed and write).
LEASE_S = 300.0
FIELD = "writer_lease"


def _parse(value) -> tuple[str, str, str, float] | None:
    try:
        token, host, pid, until = str(value).split("|")
        return token, host, pid, float(until)
    except ValueError:
        return None


def _live_other(store, token: str | None) -> tuple[str, str, str, float] | None:
    """The lease of ``store`` another writer than ``token`` holds and that still runs (not expired, not a
    gone process of this machine: :func:`_gone`), parsed; else ``None``."""
    held = _parse(store.read_meta().get(FIELD) or "")
    if held and held[0] != token and held[3] > time.time() and not _gone(held[1], held[2]):
        return held
    return None


def _refuse_if_held(store, token: str) -> None:
    if held := _live_other(store, token):
        _token, host, pid, until = held
        raise StoreError(
            f"another paperchat process (pid {pid} on {host}) is writing the store at {store.where()}; try "
            f"again when it has finished (its lease runs out in {max(1, round(until - time.time()))} s "
            "if it was stopped)"
        )


def _gone(host: str, pid: str) -> bool:
    """Whether the lease's writer is a process of this machine that no longer runs (its lease is stale: a
    writer whose server went away mid-ingest exits without clearing it, and the resume had to wait
    :data:`LEASE_S`). A writer on another machine is never known to be gone."""
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # it runs, under another user
        return False
    return False


def other_writer(store, token: str | None = None) -> str | None:
    """ "pid N on HOST" of a writer other than ``token`` that holds a live lease of ``store`` (a server: not
    expired, not a gone process of this machine), else ``None``. ``paperchat check`` on another machine reads
    it: an ingest there holds no lock file here, and its recorded run had read as interrupted."""
    held = _live_other(store, token)
    return f"pid {held[2]} on {held[1]}" if held else None


def stalled(store) -> str | None:
    """ "pid N on HOST, S s past its lease" of a writer whose lease of ``store`` ran out though its process
    still runs (stopped with SIGSTOP, a suspended job, hung on a dead server), else ``None``: such a writer
    still holds the write lock on its machine, where ``paperchat check`` had read it as writing now,
    forever (a lab engineer's cron check), while other machines read the store as interrupted."""
    held = _parse(store.read_meta().get(FIELD) or "")
    if not held or held[3] > time.time() or _gone(held[1], held[2]):
        return None
    return f"pid {held[2]} on {held[1]}, {round(time.time() - held[3])} s past its lease"


def lost_to(store, token: str) -> str | None:
    """ "pid N on HOST" of the writer that took the lease ``token`` held (another token is recorded: this
    writer was stopped past :data:`LEASE_S`, a laptop suspended, and another took the store), else ``None``."""
    held = _parse(store.read_meta().get(FIELD) or "")
    return f"pid {held[2]} on {held[1]}" if held and held[0] != token else None


def lease_value(token: str) -> str:
    """The lease of this process under ``token``, running :data:`LEASE_S` from now, as stored in ``FIELD``."""
    return f"{token}|{socket.gethostname()}|{os.getpid()}|{time.time() + LEASE_S}"


@contextlib.contextmanager
def server_lease(store) -> Iterator[str | None]:
    """Hold the write lease of ``store`` when it is on a server (yields its token; ``None`` for an embedded
    store, whose file lock suffices). Raises :class:`StoreError` when another writer holds it."""
    if not store.remote:
        yield None
        return
    token = uuid.uuid4().hex
    _refuse_if_held(store, token)
    store.write_meta(**{FIELD: lease_value(token)})
    _refuse_if_held(store, token)  # read back: a writer that wrote its lease after ours keeps it
    store.lease_token = token  # what StoreWriter renews
    try:
        yield token
    finally:
        store.lease_token = None
        with contextlib.suppress(Exception):  # a server gone now is reported by what failed before
            held = _parse(store.read_meta().get(FIELD) or "")
            if held and held[0] == token:
                store.write_meta(**{FIELD: ""})
