"""The client's side of the daemon: a read-only one-shot command (ask, summarize, papers) hands its work to the
warm daemon of its store, and prints what comes back as if it had run here.

:func:`forward` is called inside the command once its settings are resolved
(so the store, and with it the daemon, is the one the command would read).
It returns when the command should run in this process: the ``daemon``
setting is ``off``, the store does not exist yet (the first run ingests
here), no daemon runs (``auto`` then starts one for the next command, after
this one), the daemon is busy with another command (it serves one at a time),
or the daemon failed before writing anything (stale socket, refused, died,
other code). Otherwise it ends the command with the daemon's
exit status.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time

import click

from paperchat.cli import daemon_link as link

#: the command line's arguments (set by :func:`paperchat.cli.main`; ``None``: not run from a command line, never forwarded)
ARGV: list[str] | None = None
#: set in the daemon's own process: the commands it runs never forward again
SERVING = False
#: how long ``daemon = on`` waits for the daemon it started to answer
START_WAIT_S = 120.0


def _note(text: str) -> None:
    from paperchat.core.errors import debug_enabled

    if debug_enabled():
        click.echo(f"note: daemon: {text}", err=True)


def _umask() -> int:
    """This process's umask (read by setting it and back: the only way POSIX offers)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _request(ctx: click.Context) -> dict:
    width, lines = shutil.get_terminal_size((88, 24))  # what the command would see here
    env = dict(os.environ)
    env.setdefault("COLUMNS", str(width))
    env.setdefault("LINES", str(lines))
    out, err = sys.stdout, sys.stderr
    return {
        "kind": "run",
        "stamp": link.code_stamp(),
        "argv": ARGV,
        "prog": ctx.find_root().info_name,
        "cwd": os.getcwd(),
        "umask": _umask(),  # files the command writes (--bibtex) get this process's modes
        "env": env,
        "terminal": {
            "stdout_tty": out.isatty(),
            "stderr_tty": err.isatty(),
            "stdout_encoding": out.encoding,
            "stdout_errors": out.errors,
            "stderr_encoding": err.encoding,
            "stderr_errors": err.errors,
        },
    }


def connect(files: link.DaemonFiles) -> socket.socket | None:
    """A connection to the store's daemon, or ``None`` (none runs, a stale socket file, refused)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(str(files.socket))
    except OSError as exc:
        sock.close()
        if not isinstance(exc, FileNotFoundError):
            _note(f"cannot connect to {files.socket} ({exc.strerror or exc}); running here")
        return None
    return sock


def _relay(sock: socket.socket, request: dict) -> int | None:
    """Send ``request``, write what comes back to stdout/stderr; the exit status, or ``None`` to run here."""
    stream = sock.makefile("rb")
    outputs = {b"O": sys.stdout, b"E": sys.stderr}
    started, last = False, b"\n"
    try:
        link.send(sock, b"Q", json.dumps(request).encode("utf-8"))
        while True:
            frame = link.receive(stream)
            if frame is None:
                if not started:
                    _note("the daemon closed the connection before answering; running here")
                    return None
                raise click.ClickException(
                    "the paperchat daemon stopped mid-answer; run the command again "
                    "(PAPERCHAT_DAEMON=off runs it without the daemon)"
                )
            kind, payload = frame
            if kind in outputs:
                started = True
                target = outputs[kind]
                target.flush()
                target.buffer.write(payload)
                target.buffer.flush()
                last = payload[-1:] if kind == b"O" else last
            elif kind == b"X":
                return int(json.loads(payload))
            else:
                _note(
                    json.loads(payload)
                    if kind == b"M"
                    else f"unexpected frame {kind!r}; running here"
                )
                return None
    except KeyboardInterrupt:  # closing the socket abandons the request in the daemon
        if last != b"\n":
            click.echo("")
        raise
    except OSError as exc:
        if started:
            raise
        _note(f"the daemon failed ({exc}); running here")
        return None
    finally:
        stream.close()
        sock.close()


def spawn(settings, files: link.DaemonFiles) -> subprocess.Popen | None:
    """Start the store's daemon detached from this process (its output to its log file), unless one holds the
    store's lock (runs or is starting). Returns the process, or ``None``."""
    import fcntl

    try:
        with open(files.lock, "a") as lock:
            fcntl.flock(
                lock, fcntl.LOCK_EX | fcntl.LOCK_NB
            )  # released at once: only asking whether one runs
    except OSError:
        return None
    where = (
        ["--chroma-url", settings.chroma_url]
        if settings.chroma_url
        else ["--store", str(settings.store_path.resolve())]
    )
    argv = [
        sys.executable,
        "-m",
        "paperchat",
        *where,
        "--embed-model",
        settings.embed_model,
        "daemon",
        "start",
        "--foreground",
    ]
    try:
        with open(files.log, "ab") as log:
            return subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                cwd=files.folder,
                start_new_session=True,
                close_fds=True,
            )
    except OSError as exc:
        _note(f"cannot start a daemon ({exc})")
        return None


def wait_for(
    files: link.DaemonFiles, proc: subprocess.Popen | None, timeout: float = START_WAIT_S
) -> bool:
    """Wait until the store's daemon accepts connections (``False`` when ``proc`` exited or time ran out)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        sock = connect(files)
        if sock is not None:
            sock.close()
            return True
        if proc is not None and proc.poll() is not None and files.read_info() is None:
            return False
        time.sleep(0.05)
    return False


def forward(obj) -> None:
    """Run the current command in the daemon of its store and end it with the daemon's exit status; return
    instead when it should run here (see the module docstring). ``obj`` is the :class:`AppContext`."""
    settings = obj.settings
    if SERVING or ARGV is None or settings.daemon == "off":
        return
    if not settings.chroma_url and not (settings.store_path / "chroma").is_dir():
        return  # no store yet: the first run ingests in this process
    files = link.daemon_files(settings)
    if files is None:
        _note("no private runtime folder with a short enough path; running here")
        return
    # it serves one command at a time: this one runs here rather than queue behind it
    if _busy(files):
        _note("busy with another command; running here")
        return
    ctx = click.get_current_context()
    status = _try(files, ctx)
    if status is None and settings.daemon == "on" and wait_for(files, spawn(settings, files)):
        status = _try(files, ctx)
    if status is not None:
        ctx.exit(status)
    # after this command, so the next one is fast; not after a refused one
    if settings.daemon == "auto":
        ctx.call_on_close(lambda: None if sys.exc_info()[0] else _started(settings, files))


def _started(settings, files: link.DaemonFiles) -> None:
    """:func:`spawn` the store's daemon; at a terminal, say so once, with how it ends (an own-corpus session
    found fifteen daemons, one per store tried, holding 4.9 GB, which nothing had mentioned)."""
    if spawn(settings, files) is not None and sys.stderr.isatty():
        click.echo(
            f"note: started a background daemon for {settings.chroma_url or settings.store_path.resolve()} "
            f"so the next command is fast; it exits after {round(settings.daemon_idle / 60)} min idle "
            "(`paperchat daemon stop` ends it, --daemon off starts none)",
            err=True,
        )


def _busy(files: link.DaemonFiles) -> bool:
    """Whether the store's daemon says it is running a command (its info file's ``state``)."""
    info = files.read_info()
    return isinstance(info, dict) and info.get("state") == "busy"


def _try(files: link.DaemonFiles, ctx: click.Context) -> int | None:
    """The exit status of the command run by the store's daemon; ``None`` when none ran it."""
    sock = connect(files)
    return None if sock is None else _relay(sock, _request(ctx))
