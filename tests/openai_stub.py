"""A small OpenAI-compatible HTTP stub server for tests.

Only the standard library is used.  The server speaks enough of the OpenAI
REST API for the official ``openai`` Python client (which uses httpx with
HTTP/1.1 keep-alive) to talk to it:

* ``POST /v1/chat/completions`` -- streaming (SSE) and non-streaming
* ``GET  /v1/models`` and ``GET /v1/models/{id}``

Each chat request pops the next *scripted* action from a queue:

* :class:`Reply`      -- a normal answer (streamed word by word or in chunks)
* :class:`Fault`      -- an HTTP error with an OpenAI-style error body
* :class:`Drop`       -- the connection is closed in the middle of the answer
* :class:`Hang`       -- the server waits before answering (client timeouts)
* :class:`StreamError`-- an ``{"error": ...}`` event in the middle of a stream
* :class:`Malformed`  -- an event that is not JSON in the middle of a stream

``Reply("")`` is a valid stream with no content and ``finish_reason: stop``;
``Reply(text, finish_reason=None, done=False)`` a stream that ends (cleanly,
at the HTTP level) without a finish_reason and without ``data: [DONE]``;
``Fault(429, headers={"Retry-After": "15"})`` a rate limit with a wait.

Example::

    from openai_stub import StubServer, Reply, Fault

    with StubServer() as server:
        server.script(Fault(429, headers={"Retry-After": "0"}), Reply("Hi [1]."))
        client = openai.OpenAI(base_url=server.base_url, api_key="sk-test")
        ...
        assert server.count() == 2

A pytest fixture ``openai_stub`` is defined at the bottom of this module.
"""

from __future__ import annotations

import collections
import itertools
import json
import re
import socket
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

__all__ = [
    "DEFAULT_MODEL",
    "Reply",
    "Fault",
    "Drop",
    "Hang",
    "StreamError",
    "Malformed",
    "StubServer",
    "openai_stub",
]

#: Model id that ``GET /v1/models`` always lists.
DEFAULT_MODEL = "stub-model"

_CHAT_PATH = "/v1/chat/completions"
_SLEEP_STEP = 0.02


# --------------------------------------------------------------------------
# Scripted actions
# --------------------------------------------------------------------------


@dataclass
class Reply:
    """A normal assistant answer.

    ``content``        -- the assistant text.
    ``finish_reason``  -- e.g. ``"stop"`` or ``"length"``; ``None`` simulates a
                          faulty server that never sends a finish_reason
                          (``null`` in non-streaming, no final chunk in streams).
    ``chunk_size``     -- for streaming: characters per chunk; ``None`` means
                          word by word (whitespace stays attached to the word).
    ``chunk_delay``    -- for streaming: seconds to sleep between chunks.
    ``done``           -- for streaming: end with ``data: [DONE]`` (``False``
                          simulates a server or proxy that closes the stream
                          early but cleanly: no ``[DONE]``).
    """

    content: str
    finish_reason: str | None = "stop"
    chunk_size: int | None = None
    chunk_delay: float = 0.0
    done: bool = True


@dataclass
class Fault:
    """An HTTP error response.

    ``status``   -- HTTP status code (400, 401, 403, 404, 429, 500, 503, ...).
    ``body``     -- ``None`` for a default OpenAI-style error body matching the
                    status, a ``dict`` sent as JSON, or a ``str``/``bytes``
                    sent verbatim (``text/plain``) to simulate a non-JSON proxy
                    error page.
    ``headers``  -- extra response headers, e.g. ``{"Retry-After": "1"}``.
    ``message``/``code``/``type`` -- override fields of the default body.

    Default bodies: 400 ``context_length_exceeded``, 401 ``invalid_api_key``,
    403 ``permission_denied``, 404 ``model_not_found``, 429
    ``rate_limit_exceeded``, 500 ``server_error``, 503 ``overloaded``.
    """

    status: int
    body: Any = None
    headers: dict | None = None
    message: str | None = None
    code: str | None = None
    type: str | None = None
    content_type: str = (
        "text/plain; charset=utf-8"  # of a str/bytes body (e.g. "text/html" for a proxy page)
    )


@dataclass
class Drop:
    """A reply whose connection dies half-way.

    Streaming: the role chunk and the first ``after_chars`` characters of
    ``content`` are sent as chunks (``chunk_size`` as for :class:`Reply`), then
    the connection is closed abruptly -- no finish_reason, no ``[DONE]`` and no
    terminating HTTP chunk, so the client sees an incomplete body.
    Non-streaming: the connection is closed without any response.
    """

    content: str
    after_chars: int = 0
    chunk_size: int | None = None


@dataclass
class Hang:
    """Wait ``seconds`` before answering (to trigger client timeouts).

    The wait is done in small steps and is cut short when the server stops.
    Afterwards ``then`` (any action; default: the server's default reply) is
    performed.  If the client has gone away by then, the write error is
    ignored.
    """

    seconds: float
    then: Any = None


@dataclass
class StreamError:
    """Streaming: send ``after_chars`` characters, then an SSE event
    ``data: {"error": {...}}`` and end the stream normally.

    The openai client raises ``openai.APIError`` when it sees that event.
    Non-streaming requests get a 500 :class:`Fault` with the same message.
    """

    content: str = ""
    after_chars: int = 0
    message: str = "The server had an error while processing your request."
    type: str = "server_error"
    code: str | None = None


@dataclass
class Malformed:
    """Streaming: send ``after_chars`` characters of ``content`` (``chunk_size``
    as for :class:`Reply`), then ``event`` -- an SSE ``data:`` line that is not
    JSON -- then the rest of ``content``, a finish_reason and ``[DONE]``.

    The openai client raises ``json.JSONDecodeError`` on that event.
    Non-streaming requests get a 200 whose body is ``event``.
    """

    content: str = ""
    after_chars: int = 0
    chunk_size: int | None = None
    event: bytes = b'data: {"id": "chatcmpl-broken", "choices": [{"delta": {"content": "vi\n\n'


_FAULT_DEFAULTS = {
    400: (
        "invalid_request_error",
        "context_length_exceeded",
        "This model's maximum context length is 8192 tokens. However, your "
        "messages resulted in 9000 tokens. Please reduce the length of the "
        "messages.",
    ),
    401: (
        "invalid_request_error",
        "invalid_api_key",
        "Incorrect API key provided. You can find your API key at "
        "https://platform.openai.com/account/api-keys.",
    ),
    403: ("permission_denied", "permission_denied", "You are not allowed to access this resource."),
    404: (
        "invalid_request_error",
        "model_not_found",
        "The model `{model}` does not exist or you do not have access to it.",
    ),
    429: (
        "rate_limit_error",
        "rate_limit_exceeded",
        "Rate limit reached for requests. Please try again later.",
    ),
    500: (
        "server_error",
        "server_error",
        "The server had an error while processing your request. Sorry about that!",
    ),
    503: (
        "server_error",
        "overloaded",
        "The engine is currently overloaded, please try again later.",
    ),
}


def _split(text: str, chunk_size: int | None) -> list:
    """Split ``text`` into stream pieces; ``"".join(result) == text``."""
    if not text:
        return []
    if chunk_size:
        return [text[i : i + chunk_size] for i in range(0, len(text), chunk_size)]
    return re.findall(r"^\s+|\S+\s*", text)


def _count_tokens(body: Any) -> int:
    """Very rough prompt 'token' count: number of words in all messages."""
    n = 0
    if isinstance(body, dict):
        for m in body.get("messages") or []:
            c = m.get("content") if isinstance(m, dict) else None
            if isinstance(c, str):
                n += len(c.split())
            elif isinstance(c, list):
                for part in c:
                    if isinstance(part, dict) and isinstance(part.get("text"), str):
                        n += len(part["text"].split())
    return n


class _Headers(dict):
    """A dict of request headers with lower-case keys; lookups are
    case-insensitive (``h["Authorization"] == h["authorization"]``)."""

    def __getitem__(self, key):
        return super().__getitem__(key.lower())

    def __contains__(self, key):
        return isinstance(key, str) and super().__contains__(key.lower())

    def get(self, key, default=None):
        return super().get(key.lower(), default)


class _ClientGone(Exception):
    """Raised internally when the connection must be closed without more output."""


# --------------------------------------------------------------------------
# HTTP handler
# --------------------------------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "openai-stub/1.0"
    stub: StubServer  # set on a per-server subclass

    # -- plumbing ---------------------------------------------------------
    def setup(self):
        super().setup()
        self.stub._track(self.connection, True)

    def finish(self):
        try:
            super().finish()
        except OSError:
            pass
        finally:
            self.stub._track(self.connection, False)

    def log_message(self, format, *args):  # noqa: A002 - silence stderr logs
        pass

    def handle_one_request(self):
        try:
            super().handle_one_request()
        except (TimeoutError, _ClientGone, ConnectionError, OSError):
            self.close_connection = True

    def _read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length > 0 else b""
        if not raw:
            return raw, None
        try:
            return raw, json.loads(raw)
        except ValueError:
            return raw, None

    def _send_json(self, status: int, obj: Any, headers: dict | None = None):
        data = json.dumps(obj).encode()
        self._send_bytes(status, data, "application/json", headers)

    def _send_bytes(self, status, data: bytes, ctype: str, headers=None):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, str(v))
        self.end_headers()
        self.wfile.write(data)

    def _abort(self):
        """Close the connection without (further) output."""
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        raise _ClientGone()

    # -- dispatch ---------------------------------------------------------
    def do_GET(self):
        self._dispatch("GET")

    def do_POST(self):
        self._dispatch("POST")

    def do_DELETE(self):
        self._dispatch("DELETE")

    def do_PUT(self):
        self._dispatch("PUT")

    def _dispatch(self, method: str):
        path = urlsplit(self.path).path
        raw, body = self._read_body()
        self.stub._record(path, method, self.headers, body)

        key = self.stub.require_key
        if key is not None and self.headers.get("Authorization") != f"Bearer {key}":
            self._fault(Fault(401), body)
            return

        if method == "POST" and path.rstrip("/").endswith("/chat/completions"):
            self._chat(raw, body)
        elif method == "GET" and path.rstrip("/").endswith("/models"):
            self._send_json(
                200, {"object": "list", "data": [self._model_obj(m) for m in self.stub.models()]}
            )
        elif method == "GET" and "/models/" in path:
            model = path.split("/models/", 1)[1]
            if model in self.stub.models():
                self._send_json(200, self._model_obj(model))
            else:
                self._fault(Fault(404), {"model": model})
        else:
            self._fault(
                Fault(404, message=f"Unknown request URL: {method} {path}", code="unknown_url"),
                body,
            )

    @staticmethod
    def _model_obj(model: str) -> dict:
        return {"id": model, "object": "model", "created": 1700000000, "owned_by": "stub"}

    # -- actions ----------------------------------------------------------
    def _fault(self, fault: Fault, body: Any):
        headers = dict(fault.headers or {})
        if isinstance(fault.body, (str, bytes)):
            data = fault.body.encode() if isinstance(fault.body, str) else fault.body
            self._send_bytes(fault.status, data, fault.content_type, headers)
            return
        if isinstance(fault.body, dict):
            self._send_json(fault.status, fault.body, headers)
            return
        typ, code, msg = _FAULT_DEFAULTS.get(
            fault.status, ("api_error", None, f"HTTP {fault.status} from stub server")
        )
        model = body.get("model") if isinstance(body, dict) else None
        msg = (fault.message or msg).replace("{model}", str(model or DEFAULT_MODEL))
        err = {
            "error": {
                "message": msg,
                "type": fault.type or typ,
                "param": None,
                "code": fault.code or code,
            }
        }
        self._send_json(fault.status, err, headers)

    def _chat(self, raw: bytes, body: Any):
        if not isinstance(body, dict):
            self._fault(
                Fault(
                    400,
                    message="We could not parse the JSON body of your request.",
                    code="invalid_json",
                ),
                None,
            )
            return
        action = self.stub._next_action()
        stream = bool(body.get("stream"))
        self._perform(action, body, stream)

    def _perform(self, action: Any, body: dict, stream: bool):
        if isinstance(action, str):
            action = Reply(action)
        if isinstance(action, Hang):
            if self.stub._sleep(action.seconds):
                self._abort()  # server is stopping
            then = action.then if action.then is not None else self.stub.default
            self._perform(then, body, stream)
        elif isinstance(action, Fault):
            self._fault(action, body)
        elif isinstance(action, Drop):
            if not stream:
                self._abort()
            self._stream(
                body,
                action.content[: max(action.after_chars, 0)],
                action.chunk_size,
                0.0,
                finish=None,
                drop=True,
            )
        elif isinstance(action, StreamError):
            if not stream:
                self._fault(
                    Fault(500, message=action.message, type=action.type, code=action.code), body
                )
                return
            err = {
                "error": {
                    "message": action.message,
                    "type": action.type,
                    "param": None,
                    "code": action.code,
                }
            }
            self._stream(
                body,
                action.content[: max(action.after_chars, 0)],
                None,
                0.0,
                finish=None,
                error=err,
            )
        elif isinstance(action, Malformed):
            if not stream:
                self._send_bytes(200, action.event, "application/json")
                return
            cut = max(action.after_chars, 0)
            self._stream(
                body,
                action.content[:cut],
                action.chunk_size,
                0.0,
                finish="stop",
                malformed=(action.event, action.content[cut:]),
            )
        elif isinstance(action, Reply):
            if stream:
                self._stream(
                    body,
                    action.content,
                    action.chunk_size,
                    action.chunk_delay,
                    finish=action.finish_reason,
                    done=action.done,
                )
            else:
                self._completion(body, action)
        else:
            raise TypeError(f"unknown scripted action: {action!r}")

    def _usage(self, body: dict, content: str) -> dict:
        p, c = _count_tokens(body), len(content.split())
        return {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}

    def _completion(self, body: dict, reply: Reply):
        obj = {
            "id": self.stub._new_id(),
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model") or DEFAULT_MODEL,
            "system_fingerprint": "fp_stub",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply.content, "refusal": None},
                    "logprobs": None,
                    "finish_reason": reply.finish_reason,
                }
            ],
            "usage": self._usage(body, reply.content),
        }
        self._send_json(200, obj)

    def _write_chunk(self, data: bytes):
        """Write one HTTP/1.1 chunk (chunked transfer encoding)."""
        self.wfile.write(b"%X\r\n%s\r\n" % (len(data), data))

    def _stream(
        self,
        body: dict,
        content: str,
        chunk_size,
        delay: float,
        finish: str | None,
        drop: bool = False,
        error: dict | None = None,
        done: bool = True,
        malformed: tuple | None = None,
    ):
        cid = self.stub._new_id()
        created = int(time.time())
        model = body.get("model") or DEFAULT_MODEL
        opts = body.get("stream_options") or {}
        include_usage = isinstance(opts, dict) and bool(opts.get("include_usage"))

        def chunk(delta: dict, finish_reason=None, usage=None, choices=True) -> bytes:
            obj = {
                "id": cid,
                "object": "chat.completion.chunk",
                "created": created,
                "model": model,
                "system_fingerprint": "fp_stub",
                "choices": [
                    {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}
                ]
                if choices
                else [],
            }
            if include_usage:
                obj["usage"] = usage
            return b"data: " + json.dumps(obj).encode() + b"\n\n"

        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        self._write_chunk(chunk({"role": "assistant", "content": "", "refusal": None}))
        for piece in _split(content, chunk_size):
            if delay and self.stub._sleep(delay):
                self._abort()
            self._write_chunk(chunk({"content": piece}))
        if malformed is not None:  # (the bad event, the text after it)
            self._write_chunk(malformed[0])
            for piece in _split(malformed[1], chunk_size):
                self._write_chunk(chunk({"content": piece}))
        if drop:
            self._abort()
        if error is not None:
            self._write_chunk(b"data: " + json.dumps(error).encode() + b"\n\n")
        else:
            if finish is not None:
                self._write_chunk(chunk({}, finish_reason=finish))
            if include_usage:
                self._write_chunk(chunk({}, usage=self._usage(body, content), choices=False))
        if done:
            self._write_chunk(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")


# --------------------------------------------------------------------------
# Server
# --------------------------------------------------------------------------


class StubServer:
    """An OpenAI-compatible HTTP server on ``127.0.0.1`` (free port).

    Use as a context manager (``with StubServer() as s: ...``) or call
    :meth:`start` / :meth:`stop`.

    ``require_key``  -- if set, every request whose ``Authorization`` header is
                        not ``Bearer <require_key>`` gets a 401 fault (the
                        scripted queue is not consumed).
    ``default``      -- action used when the script queue is empty
                        (default ``Reply("OK [1].")``).

    Attributes: ``base_url`` (``http://127.0.0.1:PORT/v1``), ``port``,
    ``requests`` (list of recorded request dicts, see :meth:`count`).
    """

    def __init__(self, require_key: str | None = None, default: Any = None):
        self.require_key = require_key
        self.default = default if default is not None else Reply("OK [1].")
        #: Every request received: dicts with keys ``path``, ``method``,
        #: ``headers`` (dict, case-insensitive lookups), ``body`` (parsed JSON
        #: or None) and ``time`` (``time.time()``), in arrival order.
        self.requests: list = []
        self._lock = threading.Lock()
        self._queue: collections.deque = collections.deque()
        self._models: list = [DEFAULT_MODEL]
        self._ids = itertools.count(1)
        self._stop_event = threading.Event()
        self._conns: set = set()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.port: int | None = None

    # -- lifecycle --------------------------------------------------------
    def start(self) -> StubServer:
        """Bind 127.0.0.1 on a free port and serve in a daemon thread."""
        if self._httpd is not None:
            return self
        self._stop_event.clear()
        handler = type("StubHandler", (_Handler,), {"stub": self})
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        httpd.daemon_threads = True
        httpd.block_on_close = False
        self._httpd = httpd
        self.port = httpd.server_address[1]
        self._thread = threading.Thread(
            target=httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"openai-stub:{self.port}",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, cut open connections and release the port."""
        httpd = self._httpd
        if httpd is None:
            return
        self._stop_event.set()
        httpd.shutdown()
        with self._lock:
            conns = list(self._conns)
        for conn in conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> StubServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1`` -- pass as ``base_url`` to ``openai.OpenAI``."""
        if self.port is None:
            raise RuntimeError("StubServer not started")
        return f"http://127.0.0.1:{self.port}/v1"

    # -- scripting --------------------------------------------------------
    def script(
        self, *replies: Reply | Fault | Drop | Hang | StreamError | Malformed | str
    ) -> StubServer:
        """Append actions to the queue; each chat request pops one.

        A plain ``str`` is shorthand for ``Reply(str)``.  When the queue is
        empty the ``default`` action (``Reply("OK [1].")``) is used.
        """
        with self._lock:
            self._queue.extend(replies)
        return self

    def pending(self) -> int:
        """Number of scripted actions not yet consumed."""
        with self._lock:
            return len(self._queue)

    def reset(self) -> None:
        """Clear the script queue and the recorded requests."""
        with self._lock:
            self._queue.clear()
            self.requests.clear()

    # -- inspection -------------------------------------------------------
    def count(self, path: str | None = _CHAT_PATH, method: str | None = None) -> int:
        """Number of recorded requests to ``path`` (``None``: any path),
        optionally only those with HTTP ``method``."""
        with self._lock:
            return sum(
                1
                for r in self.requests
                if (path is None or r["path"] == path) and (method is None or r["method"] == method)
            )

    def last_request(self, path: str | None = _CHAT_PATH) -> dict | None:
        """The most recent recorded request to ``path`` (``None``: any), or None."""
        with self._lock:
            for r in reversed(self.requests):
                if path is None or r["path"] == path:
                    return r
        return None

    def models(self) -> list:
        """Model ids listed by ``GET /v1/models``: ``stub-model`` plus every
        model seen in a request body."""
        with self._lock:
            return list(self._models)

    # -- internals --------------------------------------------------------
    def _record(self, path, method, headers, body) -> None:
        hdrs = _Headers((k.lower(), v) for k, v in headers.items())
        entry = {"path": path, "method": method, "headers": hdrs, "body": body, "time": time.time()}
        with self._lock:
            self.requests.append(entry)
            model = body.get("model") if isinstance(body, dict) else None
            if isinstance(model, str) and model and model not in self._models:
                self._models.append(model)

    def _next_action(self):
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        return self.default

    def _new_id(self) -> str:
        return f"chatcmpl-stub{next(self._ids):06d}"

    def _sleep(self, seconds: float) -> bool:
        """Sleep in small steps; return True if the server is stopping."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return self._stop_event.is_set()
            if self._stop_event.wait(min(_SLEEP_STEP, left)):
                return True

    def _track(self, conn, add: bool) -> None:
        with self._lock:
            if add:
                self._conns.add(conn)
            else:
                self._conns.discard(conn)


# --------------------------------------------------------------------------
# pytest fixture
# --------------------------------------------------------------------------

try:  # pragma: no cover - depends on the environment
    import pytest as _pytest
except ImportError:  # the module must import without pytest
    _pytest = None

if _pytest is not None:

    @_pytest.fixture
    def openai_stub():
        """A started :class:`StubServer`, stopped after the test."""
        with StubServer() as s:
            yield s

else:  # pragma: no cover

    def openai_stub():
        """Placeholder: pytest is not installed, so no fixture is available."""
        raise RuntimeError("pytest is not installed")
