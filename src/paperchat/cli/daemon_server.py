"""The daemon's side: warm up on one store, then run forwarded commands one at a time until idle for too long.

A request is run as the same command line (:func:`paperchat.cli.main`), in this
process, in an :class:`~paperchat.cli.environment.Environment` built from the
client's variables, working folder and terminal (whether stdout/stderr are
terminals, their encodings, the width); what the command writes to stdout and
stderr goes back over the socket as it is written (a streamed LLM answer
streams), then the exit status. A client that went away (Ctrl-C) abandons the
request: a watcher thread sees the socket close and signals the main thread,
which raises :class:`ClientGone` even while it waits on an LLM (and the next
write would raise it too).
"""

from __future__ import annotations

import fcntl
import io
import json
import os
import select
import signal
import socket
import sys
import threading
import time

from paperchat.cli import daemon_link as link
from paperchat.cli.environment import Environment

#: how long the daemon waits for a connected client's request
REQUEST_WAIT_S = 10.0
#: seconds a daemon whose store failed to open waits for another request before it exits
BROKEN_IDLE_S = 30.0
#: how long a starting daemon waits for one that is exiting (its lock) before giving up
LOCK_WAIT_S = 5.0


class ClientGone(BaseException):
    """The client closed the socket mid-request (a BaseException, so no command's ``except Exception`` keeps going)."""


class _Channel(io.RawIOBase):
    """A writable binary stream whose writes go to the client as frames of one kind."""

    def __init__(self, sock: socket.socket, kind: bytes, tty: bool):
        super().__init__()
        self.sock, self.kind, self.tty = sock, kind, tty

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self.tty

    def write(self, data) -> int:
        data = bytes(data)
        if data:
            try:
                link.send(self.sock, self.kind, data)
            except OSError:
                raise ClientGone() from None
        return len(data)


def _text_stream(sock, kind: bytes, tty: bool, encoding: str, errors: str) -> io.TextIOWrapper:
    return io.TextIOWrapper(
        _Channel(sock, kind, tty), encoding=encoding, errors=errors, write_through=True
    )


def request_environment(sock: socket.socket, request: dict, stdin) -> Environment:
    """The :class:`Environment` of one forwarded request: the client's variables and terminal (tty flags,
    encodings; the width comes in ``$COLUMNS``), its stdout/stderr written to the socket as they come."""
    term = request["terminal"]
    return Environment(
        stdin=stdin,
        stdout=_text_stream(
            sock, b"O", term["stdout_tty"], term["stdout_encoding"], term["stdout_errors"]
        ),
        stderr=_text_stream(
            sock, b"E", term["stderr_tty"], term["stderr_encoding"], term["stderr_errors"]
        ),
        stdin_isatty=False,
        stdout_isatty=term["stdout_tty"],
        stderr_isatty=term["stderr_tty"],
        environ=request["env"],
        prog_name=request["prog"],
    )


#: whether a hang-up signal may cancel what the main thread runs (only while it runs a request)
_CANCELLABLE = threading.Event()
#: the signal the watcher sends the main thread when the client hangs up
HANGUP_SIGNAL = signal.SIGUSR1


def _on_hangup(signum, frame) -> None:
    """The client hung up (Ctrl-C): abandon the request, even one waiting on an LLM, at once."""
    if _CANCELLABLE.is_set():
        raise ClientGone()


def _watch_hangup(sock: socket.socket, done: threading.Event, main_id: int) -> None:
    """Until ``done``: when the client closes its end, signal the main thread (a blocked read of the LLM's
    answer is interrupted by the signal; a hung-up client had kept the daemon busy until the LLM answered)."""
    while not done.is_set():
        if not select.select([sock], [], [], 0.2)[0]:
            continue
        try:
            data = sock.recv(1, socket.MSG_PEEK)
        except OSError:
            data = b""
        if data:  # a client sends nothing after its request; something else is no hang-up
            time.sleep(0.2)
            continue
        if not done.is_set():
            signal.pthread_kill(main_id, HANGUP_SIGNAL)
        return


def run_request(sock: socket.socket, request: dict) -> None:
    """Run one forwarded command line (:func:`paperchat.cli.main`) in the request's environment and folder;
    send its exit status. A client that hangs up cancels it (:func:`_watch_hangup`)."""
    from paperchat.cli import main

    saved_cwd = os.getcwd()
    # the client's umask for what the command writes (a lab engineer's session: `--bibtex` through the
    # daemon had written 0644 under umask 077); one command runs at a time, so the process's is set
    saved_umask = os.umask(int(request.get("umask", 0o022)) & 0o777)
    stdin = open(os.devnull, encoding="utf-8")
    done = threading.Event()
    try:
        env = request_environment(sock, request, stdin)
        os.chdir(request["cwd"])
        watcher = threading.Thread(
            target=_watch_hangup, args=(sock, done, threading.get_ident()), daemon=True
        )
        try:
            _CANCELLABLE.set()
            watcher.start()
            status = main(request["argv"], env)
        except ClientGone:
            raise
        except BaseException as exc:  # PAPERCHAT_DEBUG re-raises: the traceback goes to the client
            import traceback

            traceback.print_exception(exc, file=env.stderr)
            status = 1
        finally:
            _CANCELLABLE.clear()
            done.set()
        link.send(sock, b"X", json.dumps(int(status)).encode())
    except (ClientGone, OSError):
        pass  # the client is gone: the request is abandoned
    finally:
        stdin.close()
        os.chdir(saved_cwd)
        os.umask(saved_umask)


def warm_up(settings) -> None:
    """Open the store, load the embedding model, the indexes and the answer code once, by answering a question."""
    from paperchat.engine import Engine

    engine = Engine(settings)
    engine.open_store()
    mode = engine.mode()
    engine.preload(mode)
    if engine.store.counts()[0]:
        engine.ask("What problem does this paper address?", mode="extractive")
        engine.papers()
    import paperchat.cli.render  # noqa: F401  (what printing an answer imports)


def store_identity(settings) -> tuple[int, int, str] | None:
    """The identity of the embedded store the daemon serves (:func:`paperchat.store.committed.store_identity`);
    ``None`` for a Chroma server or when there is no store."""
    from paperchat.store.committed import store_identity as of_folder

    return None if settings.chroma_url else of_folder(settings.store_path)


class Daemon:
    """One store's daemon: its files, its info and the serving loop (see the module docstring)."""

    def __init__(self, files: link.DaemonFiles, settings, stamp: str):
        self.files, self.settings, self.stamp = files, settings, stamp
        self.idle_s = float(settings.daemon_idle)
        self.requests = 0
        self.started = self.last = time.time()
        self.state = "starting"
        #: the identity of the store it opened (:func:`store_identity`)
        self.identity: tuple[int, int, str] | None = None

    def write_info(self) -> None:
        """Write the info file ``daemon status`` reads (atomically)."""
        from paperchat import __version__

        info = {
            "pid": os.getpid(),
            # the URL as the daemon was started with ("loopback" is the key's, no usable address)
            "store": self.settings.chroma_url or self.files.key.split(":", 1)[1],
            "version": __version__,
            "stamp": self.stamp,
            "state": self.state,
            "started": self.started,
            "requests": self.requests,
            "last_request": self.last,
            "idle_s": self.idle_s,
            "socket": str(self.files.socket),
            "log": str(self.files.log),
        }
        tmp = self.files.info.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(info), encoding="utf-8")
        os.replace(tmp, self.files.info)

    def _remove_files(self) -> None:
        for path in (self.files.socket, self.files.info):
            try:
                path.unlink()
            except FileNotFoundError:
                pass

    def run(self) -> int:
        """Serve until idle for ``daemon_idle`` seconds, stopped, or asked by a client with other code; returns 0.

        Returns 1 at once when another daemon holds this store's lock.
        """
        lock = open(self.files.lock, "a")
        deadline = time.monotonic() + LOCK_WAIT_S
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                if time.monotonic() > deadline:
                    print(f"a daemon already serves {self.files.key}", file=sys.stderr)
                    return 1
                time.sleep(0.1)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        signal.signal(HANGUP_SIGNAL, _on_hangup)
        try:
            self.write_info()  # "starting": `daemon stop` can stop it while it warms up
            from paperchat.engine.warm import keep_warm

            keep_warm()
            try:
                warm_up(self.settings)
            except Exception as exc:
                # a broken or unreachable store still gets served (each request then reports it), but the
                # daemon does not linger after the command that failed: it idles out soon
                print(f"warm-up: {exc}", file=sys.stderr, flush=True)
                self.idle_s = min(self.idle_s, BROKEN_IDLE_S)
            self.identity = store_identity(self.settings)
            self._serve()
        finally:
            self._remove_files()
            lock.close()
        return 0

    def _serve(self) -> None:
        if self.files.socket.exists():  # a daemon that was killed left it; this one holds the lock
            self.files.socket.unlink()
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old_mask = os.umask(0o177)
        try:
            server.bind(str(self.files.socket))  # mode 0600
        finally:
            os.umask(old_mask)
        server.listen(16)
        self.state, self.last = "serving", time.time()
        self.write_info()
        print(
            f"serving {self.files.key} on {self.files.socket} (pid {os.getpid()})",
            file=sys.stderr,
            flush=True,
        )
        with server:
            while True:
                left = self.last + self.idle_s - time.time()
                if left <= 0:
                    print("idle: exiting", file=sys.stderr, flush=True)
                    return
                server.settimeout(left)
                try:
                    conn, _ = server.accept()
                except TimeoutError:
                    continue
                with conn:
                    if not self._handle(conn):
                        return

    def _handle(self, conn: socket.socket) -> bool:
        """Serve one connection; ``False`` when the daemon should exit."""
        conn.settimeout(REQUEST_WAIT_S)
        try:
            frame = link.receive(conn.makefile("rb"))
            request = json.loads(frame[1]) if frame and frame[0] == b"Q" else None
        except (OSError, ValueError):
            request = None
        if not isinstance(request, dict):
            return True
        conn.settimeout(None)
        if request.get("kind") == "stop":
            _try_send(conn, b"X", b"0")
            print("stopped by a client", file=sys.stderr, flush=True)
            return False
        if request.get("stamp") != self.stamp:
            _try_send(
                conn,
                b"M",
                json.dumps(f"daemon runs {self.stamp}, client {request.get('stamp')}").encode(),
            )
            print(
                f"a client runs other code ({request.get('stamp')}): exiting",
                file=sys.stderr,
                flush=True,
            )
            return False
        now = store_identity(self.settings)
        if self.identity is not None and now != self.identity:
            # its open files are the old store's: the client runs the command itself, and a new daemon opens
            # the store that is there now
            _try_send(conn, b"M", json.dumps("the store was replaced, moved or deleted").encode())
            print("the store was replaced, moved or deleted: exiting", file=sys.stderr, flush=True)
            return False
        self.state = "busy"  # a client that finds it so runs its command itself
        self.write_info()
        try:
            run_request(conn, request)
        finally:
            self.state = "serving"
        self.identity = self.identity or store_identity(self.settings)
        self.requests += 1
        self.last = time.time()
        self.write_info()
        return True


def _try_send(conn: socket.socket, kind: bytes, payload: bytes) -> None:
    try:
        link.send(conn, kind, payload)
    except OSError:
        pass
