"""What a failed store operation means, in one line: a server out of reach, a full disk, a read-only folder, damage.

Chroma reports these in many forms (an ``httpx.ConnectError`` from a stopped
server, an ``InternalError: Error in compaction …`` or SQLite's "database or
disk is full" when the disk fills, "attempt to write a readonly database"
for a read-only folder), and only damage calls for a rebuild. :func:`explain`
tells them apart, so every command words the same cause the same way and
never advises rebuilding a healthy store. :func:`store_error` gives the
exception to raise: :class:`StoreUnavailable` for a cause that is not damage.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

from paperchat.core.errors import StoreError

#: Below this many free bytes, a write that failed is taken to have failed for lack of space.
LOW_SPACE_BYTES = 16 * 1024 * 1024

_NET_ERRORS = {
    "ConnectError",
    "ConnectTimeout",
    "ReadError",
    "WriteError",
    "RemoteProtocolError",
    "NetworkError",
    "PoolTimeout",
    "ReadTimeout",
    "WriteTimeout",
    "TransportError",
    "ConnectionError",
    "ConnectionRefusedError",
    "ConnectionResetError",
    "ConnectionAbortedError",
    "RemoteDisconnected",
}
_FULL_TEXT = (
    "no space left on device",
    "database or disk is full",
    "disk is full",
    "os error 28",
    "enospc",
)
_READ_ONLY_TEXT = (
    "readonly database",
    "read-only file system",
    "os error 30",
    "erofs",
    "permission denied",
    "os error 13",
)


class StoreSwitched(StoreError):
    """The store's current generation changed while a command was reading the one before: a rebuild
    (``ingest --rebuild`` in another process) finished and dropped the collections the reader had opened.
    :class:`~paperchat.engine.Engine` reads again, once, from the new generation."""


class StoreUnavailable(StoreError):
    """The store cannot be reached or changed now (a server down, a full disk, a read-only folder); not damage."""


def _chain(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]


def _text(exc: BaseException) -> str:
    return " ".join(f"{type(e).__name__}: {e}" for e in _chain(exc)).lower()


def first_line(exc: BaseException, limit: int = 200) -> str:
    """``exc``'s message, first line, shortened (its type name when it has no message)."""
    return ((str(exc).splitlines() or [""])[0].strip() or type(exc).__name__)[:limit]


_TIMEOUTS = {"ReadTimeout", "WriteTimeout", "PoolTimeout", "TimeoutError", "timeout"}


def server_timeout() -> float:
    """Seconds a Chroma server may take to answer one request before the command fails with
    :func:`unreachable`: ``PAPERCHAT_CHROMA_TIMEOUT`` (default 120; chromadb's own HTTP client waits
    forever, so a server that accepts the connection and never replies had hung every command)."""
    try:
        value = float(os.environ.get("PAPERCHAT_CHROMA_TIMEOUT", "") or 120)
    except ValueError:
        return 120.0
    return value if value > 0 else 120.0


def unreachable(url: str, exc: BaseException) -> str:
    """The one line for a Chroma server that does not answer (it starts the same at open and mid-command): the
    error's own first line, or what it means when that says little (a web page: another server on that
    port; a bare exception name: no answer at all; an https URL: the server may speak plain http)."""
    detail = first_line(exc, 160)
    if any(type(e).__name__ in _TIMEOUTS for e in _chain(exc)) or detail == "timed out":
        detail = (
            f"no answer within {server_timeout():g} s (a stopped or overloaded server; "
            "PAPERCHAT_CHROMA_TIMEOUT sets the wait)"
        )
    elif detail.lstrip().startswith("<"):
        detail = "something answered, but not a Chroma server (an HTML page): check the port"
    elif detail == type(exc).__name__:
        detail = f"no answer ({detail})"
    if url.lower().startswith("https:") and is_unreachable(exc):
        detail += "; if the server speaks plain HTTP (as `chroma run` does), write http://"
    return f"cannot reach the Chroma server at {url}: {detail}"


def is_unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` (or what caused it) is a network failure talking to a server."""
    for e in _chain(exc):
        if type(e).__name__ in _NET_ERRORS or isinstance(e, ConnectionError):
            return True
        if (
            "could not connect to a chroma server" in str(e).lower()
            or "connection refused" in str(e).lower()
        ):
            return True
    return False


def _free_bytes(folder: Path) -> int | None:
    for candidate in (folder, *folder.parents):
        try:
            return shutil.disk_usage(candidate).free
        except OSError:
            continue
    return None


def is_disk_full(exc: BaseException, folder: Path | None = None) -> bool:
    """Whether ``exc`` says the disk is full (ENOSPC, SQLite's "disk is full"), or a failed write left
    ``folder``'s disk with under :data:`LOW_SPACE_BYTES` free."""
    if any(isinstance(e, OSError) and e.errno in (errno.ENOSPC, errno.EDQUOT) for e in _chain(exc)):
        return True
    if any(marker in _text(exc) for marker in _FULL_TEXT):
        return True
    free = _free_bytes(folder) if folder is not None else None
    return free is not None and free < LOW_SPACE_BYTES


def is_read_only(exc: BaseException | None, folder: Path | None = None) -> bool:
    """Whether ``exc`` says a file could not be written for lack of permission, or ``folder`` (a store
    folder) or its Chroma database cannot be written by this process."""
    if exc is not None:
        if any(
            isinstance(e, OSError) and e.errno in (errno.EROFS, errno.EACCES, errno.EPERM)
            for e in _chain(exc)
        ):
            return True
        if any(marker in _text(exc) for marker in _READ_ONLY_TEXT):
            return True
    if folder is None:
        return False
    targets = [folder, folder / "chroma", folder / "chroma" / "chroma.sqlite3"]
    return any(p.exists() and not os.access(p, os.W_OK) for p in targets) or _read_only_mount(
        folder
    )


def _read_only_mount(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False


def read_only_message(folder: Path | str) -> str:
    """The one line for a store folder this process cannot write."""
    return (
        f"the store folder {folder} is read-only here, and Chroma writes to its database even to read it. "
        "Make it writable, or copy it to a writable place and pass --store"
    )


def disk_full_message(folder: Path | str) -> str:
    """The one line for a write that failed because the disk is full."""
    free = _free_bytes(Path(folder))
    left = f" ({free // (1024 * 1024)} MB free)" if free is not None else ""
    return (
        f"the disk holding the store at {folder} is full{left}: no space left on device. Free some space and try "
        "again (an interrupted ingest resumes where it stopped; nothing stored is lost)"
    )


def damage_message(where: str, exc: BaseException) -> str:
    """The one line for a failure no other cause explains: what broke, and what to do."""
    return (
        f"the store at {where} is damaged or unreadable ({type(exc).__name__}: {first_line(exc)}); "
        "run `paperchat check` for details, then `paperchat ingest --rebuild FILES` (or restore a backup)"
    )


def store_error(
    exc: BaseException, local_dir: Path | None = None, remote: str | None = None
) -> StoreError:
    """The error to raise for ``exc``, raised by Chroma (or the file system under it) for the store in
    ``local_dir`` (embedded) or at ``remote`` (a server URL): a :class:`StoreUnavailable` naming the server,
    the full disk or the read-only folder, else a :class:`StoreError` about damage."""
    if remote:
        if is_unreachable(exc):
            return StoreUnavailable(unreachable(remote, exc))
        return StoreError(damage_message(remote, exc))
    assert local_dir is not None
    if is_disk_full(exc, local_dir):
        return StoreUnavailable(disk_full_message(local_dir))
    if is_read_only(exc, local_dir):
        return StoreUnavailable(read_only_message(local_dir))
    return StoreError(damage_message(str(local_dir), exc))


def explain(exc: BaseException, local_dir: Path | None = None, remote: str | None = None) -> str:
    """The one line of :func:`store_error`."""
    return str(store_error(exc, local_dir, remote))
