"""What the daemon and its clients share: where a store's daemon lives, the code stamp, and the wire format.

A daemon serves one store. Its files sit in a per-user runtime folder (mode
0700): ``$XDG_RUNTIME_DIR/paperchat``, else ``<temp dir>/paperchat-<uid>``,
named by a short hash of the store (its resolved folder, or its server URL)
so socket paths stay under the 107-byte limit of Unix sockets:
``<hash>.sock`` (the socket, mode 0600), ``<hash>.json`` (pid, store,
version, started, requests served, last request: what ``daemon status``
shows), ``<hash>.lock`` (held while a daemon runs) and ``<hash>.log`` (its
output).

On the socket, both ways, a message is a frame: one kind byte, a 4-byte
big-endian length, then the payload. The client sends one ``Q`` frame (JSON:
kind run/stop, versions, argv, cwd, environment, terminals); the daemon answers
a run with ``O`` (stdout bytes) and ``E`` (stderr bytes) frames as the command
writes them, then ``X`` (the exit status, JSON); ``M`` (JSON reason) when it
refuses the request because its code differs from the client's (it then exits).
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path

from paperchat import __version__

#: a Unix socket path must fit in sun_path (108 bytes with its terminating zero on Linux)
MAX_SOCKET_PATH = 107
_HEADER = struct.Struct(">cI")


def runtime_folder() -> Path:
    """The per-user folder for daemon files, created with mode 0700; raises OSError when it is not ours alone."""
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    base = (
        Path(xdg) / "paperchat"
        if xdg and Path(xdg).is_dir()
        else Path(tempfile.gettempdir()) / f"paperchat-{os.getuid()}"
    )
    base.mkdir(mode=0o700, parents=True, exist_ok=True)
    st = base.stat()
    if st.st_uid != os.getuid():
        raise OSError(f"{base} belongs to another user")
    if st.st_mode & 0o077:
        os.chmod(base, 0o700)
    return base


@dataclass(frozen=True)
class DaemonFiles:
    """The files of the daemon for one store (see the module docstring)."""

    key: str
    folder: Path

    def _path(self, suffix: str) -> Path:
        return self.folder / (hashlib.sha256(self.key.encode("utf-8")).hexdigest()[:16] + suffix)

    @property
    def socket(self) -> Path:
        return self._path(".sock")

    @property
    def info(self) -> Path:
        return self._path(".json")

    @property
    def lock(self) -> Path:
        return self._path(".lock")

    @property
    def log(self) -> Path:
        return self._path(".log")

    def read_info(self) -> dict | None:
        """The running daemon's info (``None`` when there is none, or its process is gone)."""
        try:
            info = json.loads(self.info.read_text(encoding="utf-8"))
            os.kill(int(info["pid"]), 0)
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return info


def daemon_files(settings) -> DaemonFiles | None:
    """The daemon files for the store ``settings`` name; ``None`` when no private folder or short path exists."""
    key = (
        f"url:{_server(settings.chroma_url)}"
        if settings.chroma_url
        else f"dir:{settings.store_path.resolve()}"
    )
    try:
        files = DaemonFiles(key, runtime_folder())
    except OSError:
        return None
    return files if len(os.fsencode(files.socket)) <= MAX_SOCKET_PATH else None


def _server(url: str) -> str:
    """One name for a server URL however it is spelled (``localhost``, ``127.0.0.1``, a trailing slash), so
    those spellings share one daemon (each had started its own, about 300 MB each); the URL as given when
    it cannot be read (the daemon then reports the error)."""
    from paperchat.store.opening import server_key

    try:
        return server_key(url)
    except Exception:
        return url


def code_stamp() -> str:
    """paperchat's version, where its code lives and the newest mtime of its ``.py`` files: a client and a
    daemon talk only when their stamps are equal, so an edited checkout never talks to a stale daemon."""
    package = Path(__file__).resolve().parent.parent
    newest = 0
    for folder, _dirs, names in os.walk(package):
        for name in names:
            if name.endswith(".py"):
                try:
                    newest = max(newest, os.stat(os.path.join(folder, name)).st_mtime_ns)
                except OSError:
                    pass
    return f"{__version__}:{package}:{newest}"


def send(sock: socket.socket, kind: bytes, payload: bytes) -> None:
    """Send one frame (raises OSError when the peer is gone)."""
    sock.sendall(_HEADER.pack(kind, len(payload)) + payload)


def receive(stream) -> tuple[bytes, bytes] | None:
    """Read one frame ``(kind, payload)`` from a binary file of the socket; ``None`` at the end of the stream."""
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        return None
    kind, size = _HEADER.unpack(header)
    payload = stream.read(size)
    return (kind, payload) if len(payload) == size else None
