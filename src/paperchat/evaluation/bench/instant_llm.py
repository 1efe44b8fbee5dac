"""An instant OpenAI-compatible server on loopback, to time what an LLM answer costs paperchat itself (``bench``).

:class:`InstantLLM` answers every ``POST …/chat/completions`` at once with
one short answer citing ``[1]``, streamed as Server-Sent Events (or whole,
without ``stream``), and keeps how long each answer took it
(:attr:`InstantLLM.server_s`, seconds from the request's first byte read to
its last byte written). A fresh ``paperchat ask --mode llm`` against it then
takes the offline ``ask``'s work, plus the openai client, the request and
the citation check: the bench's target is the offline ``ask`` + 0.5 s + the
server's own time. Standard library only; nothing leaves the machine.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

#: what the server answers (the bench asks about ConfPO, the first source)
ANSWER = "ConfPO selects preference-critical tokens by the training policy's confidence [1]."


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    owner: InstantLLM

    def log_message(self, format, *args):  # noqa: A002 - no request log on stderr
        pass

    def do_POST(self) -> None:  # noqa: N802 - the http.server name
        t0 = time.perf_counter()
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        model = body.get("model") or "bench-model"
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send(404, "application/json", b'{"error": {"message": "not found"}}')
        elif body.get("stream"):
            words = ANSWER.split(" ")
            pieces = [{"role": "assistant", "content": ""}] + [
                {"content": w + (" " if i < len(words) - 1 else "")} for i, w in enumerate(words)
            ]
            events = [self._chunk(model, delta, None) for delta in pieces] + [
                self._chunk(model, {}, "stop")
            ]
            data = (
                b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events)
                + b"data: [DONE]\n\n"
            )
            self._send(200, "text/event-stream", data)
        else:
            reply = {
                "id": "bench",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": ANSWER},
                        "finish_reason": "stop",
                    }
                ],
            }
            self._send(200, "application/json", json.dumps(reply).encode())
        self.owner.server_s.append(time.perf_counter() - t0)

    @staticmethod
    def _chunk(model: str, delta: dict, finish: str | None) -> dict:
        return {
            "id": "bench",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    def _send(self, status: int, kind: str, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class InstantLLM:
    """The server, as a context manager: ``with InstantLLM() as llm: … llm.base_url …``."""

    def __init__(self) -> None:
        self.server_s: list[float] = []
        handler = type("InstantHandler", (_Handler,), {"owner": self})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="paperchat-bench-llm",
            daemon=True,
        )

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> InstantLLM:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)
