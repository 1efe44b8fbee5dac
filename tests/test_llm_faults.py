"""What a broken or hostile LLM server gets: one line, the key masked, an offline answer under --mode auto."""

from __future__ import annotations

import json
import socket

import pytest
from cli_env import run_cli
from openai_stub import Fault, Reply, StubServer

KEY = "sk-test-SECRET-0123456789abcdef"
QUESTION = "What does ConfPO use to pick preference-critical tokens?"


def run(store, base_url, *args, key=KEY):
    env = {
        "PAPERCHAT_STORE": str(store),
        "OPENAI_BASE_URL": base_url,
        "PAPERCHAT_LLM_MODEL": "stub-model",
        "PAPERCHAT_MAX_RETRIES": "3",
        "PAPERCHAT_TIMEOUT": "5",
    }
    if key:
        env["OPENAI_API_KEY"] = key
    return run_cli(*args, env=env)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_html_page_is_one_line_and_exit_1(bundled_store):
    page = (
        "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"
    )
    with StubServer() as server:
        for args in (("ask", QUESTION, "--mode", "llm"), ("summarize", "ConfPO", "--mode", "llm")):
            server.script(Fault(200, body=page, content_type="text/html"))
            out = run(bundled_store, server.base_url, *args)
            assert out.returncode == 1 and out.stdout == ""
            assert out.stderr.strip().splitlines() == [
                f"error: the LLM at {server.base_url} did not answer with a Chat Completions stream "
                "(HTTP 200, text/html: '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>')"
            ]


def test_a_refused_connection_fails_fast_and_auto_answers_offline(bundled_store):
    url = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    out = run(bundled_store, url, "ask", QUESTION, "--mode", "llm")
    assert out.returncode == 1  # no retries: no "retrying" note on stderr, only the error
    assert out.stderr.strip() == (
        f"error: cannot reach the LLM at {url}: connection refused "
        "(is the server running, and is the URL right?)"
    )
    auto = run(bundled_store, url, "ask", QUESTION, "--json")
    assert auto.returncode == 0, auto.stderr
    data = json.loads(auto.stdout)
    assert data["mode"] == "extractive" and data["sources"][0]["paper_id"] == "p-abe9274a3783"
    assert data["notes"] == [
        f"cannot reach the LLM at {url}: connection refused (is the server running, and is the "
        "URL right?); answered offline by quoting the abstracts"
    ]


def test_a_refused_connection_in_process_takes_no_retries(monkeypatch):
    from paperchat.answer.llm_client import LLMClient
    from paperchat.core.errors import LLMConnectionError
    from paperchat.core.settings import load_settings

    client = LLMClient(
        load_settings(
            {
                "llm_base_url": f"http://127.0.0.1:{free_port()}/v1",
                "llm_model": "m",
                "max_retries": 5,
            }
        )
    )
    waits: list[int] = []
    monkeypatch.setattr(LLMClient, "_wait", lambda self, exc, attempt: waits.append(attempt))
    with pytest.raises(LLMConnectionError, match="connection refused"):
        client.stream([{"role": "user", "content": "hi"}])
    assert waits == []  # refused is final: no backoff, no retry


def test_a_host_name_that_does_not_resolve_takes_no_retries_and_says_so(monkeypatch):
    # it had been "connection dropped", retried three times, then "Connection error."
    import socket

    from paperchat.answer.llm_client import LLMClient
    from paperchat.core.errors import LLMConnectionError
    from paperchat.core.settings import load_settings

    def no_dns(*args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    client = LLMClient(
        load_settings(
            {"llm_base_url": "http://no-such-host.invalid/v1", "llm_model": "m", "max_retries": 5}
        )
    )
    waits: list[int] = []
    monkeypatch.setattr(LLMClient, "_wait", lambda self, exc, attempt: waits.append(attempt))
    with pytest.raises(LLMConnectionError) as info:
        client.stream([{"role": "user", "content": "hi"}])
    assert str(info.value) == (
        "cannot reach the LLM at http://no-such-host.invalid/v1: its host name does not resolve "
        "(a typo in the URL, or no network)"
    )
    assert waits == []


def test_a_501_is_not_retried():
    from paperchat.answer.llm_client import LLMClient
    from paperchat.core.errors import LLMServerError
    from paperchat.core.settings import load_settings

    with StubServer() as server:
        server.script(*[Fault(501, message="Not Implemented")] * 3)
        client = LLMClient(
            load_settings(
                {"llm_base_url": server.base_url, "llm_model": "stub-model", "max_retries": 3}
            )
        )
        try:
            client.stream([{"role": "user", "content": "hi"}])
        except LLMServerError as exc:
            assert "HTTP 501" in str(exc)
        assert server.count() == 1


def test_a_server_that_echoes_the_key_never_gets_it_shown(bundled_store, tmp_path):
    with StubServer() as server:
        echo = f"ConfPO picks tokens by the policy's confidence [1]. Your key is {KEY} [1]."
        server.script(Reply(echo, chunk_size=7))  # the key arrives split across pieces
        out = run(bundled_store, server.base_url, "ask", QUESTION, "--mode", "llm")
        assert out.returncode == 0, out.stderr
        assert KEY not in out.stdout + out.stderr and "Your key is *** [1]." in out.stdout
        server.script(Reply(echo))
        data = json.loads(
            run(bundled_store, server.base_url, "ask", QUESTION, "--mode", "llm", "--json").stdout
        )
        assert KEY not in json.dumps(data) and "Your key is ***" in data["answer"]


EMPTY_STREAM = Fault(200, body="", content_type="text/event-stream")


def _client(server, **overrides):
    from paperchat.answer.llm_client import LLMClient
    from paperchat.core.settings import load_settings

    return LLMClient(
        load_settings(
            {
                "llm_base_url": server.base_url,
                "llm_model": "stub-model",
                "max_retries": 0,
                **overrides,
            }
        )
    )


def test_an_empty_stream_is_asked_again_without_streaming():
    # llama-cpp-python's server answers some failures with HTTP 200 and no events at all.
    with StubServer() as server:
        server.script(EMPTY_STREAM, Reply("Unstreamed answer [1]."))
        seen: list[str] = []
        completion = _client(server).stream([{"role": "user", "content": "hi"}], seen.append)
        assert completion.text == "Unstreamed answer [1]." and "".join(seen) == completion.text
        assert completion.notes == [
            "the server's answer stream was empty; the answer was fetched again without streaming"
        ]
        assert [r["body"]["stream"] for r in server.requests] == [True, False]


def test_an_empty_stream_hiding_a_context_overflow_trims_the_sources(bundled_engine):
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    with StubServer() as server:
        overflow = Fault(
            400,
            message="This model's maximum context length is 1024 tokens. However, you requested "
            "2931 tokens (2931 in the messages, None in the completion).",
        )
        server.script(
            EMPTY_STREAM, overflow, Reply("ConfPO picks tokens by the policy's confidence [1].")
        )
        engine = Engine(
            load_settings(
                {
                    "store": str(bundled_engine.settings.store_path),
                    "llm_base_url": server.base_url,
                    "llm_model": "stub-model",
                    "max_retries": 0,
                }
            )
        )
        answer = engine.ask(QUESTION, top_k=10, mode="llm")
        assert answer.answer == "ConfPO picks tokens by the policy's confidence [1]."
        assert answer.notes[0].startswith(
            "the server reported a context overflow; retried with at most 10 sources "
            "within 1024 tokens"
        )
        assert len(server.requests[2]["body"]["messages"][-1]["content"]) < len(
            server.requests[0]["body"]["messages"][-1]["content"]
        )
        assert server.requests[2]["body"]["max_tokens"] == 256


def test_a_window_with_no_room_for_a_source_is_one_line(bundled_store):
    with StubServer() as server:
        out = run(
            bundled_store,
            server.base_url,
            "ask",
            QUESTION,
            "--mode",
            "llm",
            "--context-window",
            "512",
        )
        assert out.returncode == 1 and server.count() == 0
        # how large a window would do (a local-LLM session had tried 512 again, as "larger" said nothing)
        assert out.stderr.strip() == (
            "error: a context window of 512 tokens leaves no room for a source after the prompt "
            "and the answer; use a model with a context window of 768 tokens or more (and state it "
            "with PAPERCHAT_CONTEXT_WINDOW)"
        )
        # --mode auto answers offline, with the same words in a note, as for a server that cannot answer now
        auto = run(bundled_store, server.base_url, "ask", QUESTION, "--context-window", "512")
        assert auto.returncode == 0 and server.count() == 0
        assert "ConfPO" in auto.stdout
        assert "note: a context window of 512 tokens leaves no room" in auto.stderr
        assert "answered offline by quoting the abstracts" in auto.stderr


def test_a_bare_connection_error_says_what_happened():
    # a break-it session: a server killed mid-request gave "cannot reach the LLM at URL: Connection error."
    # and, under auto, "Connection error.; answered offline"
    import httpx
    import openai

    from paperchat.answer.llm_errors import translate_error

    exc = openai.APIConnectionError(request=httpx.Request("POST", "http://127.0.0.1:8799/v1/chat"))
    err = translate_error(exc, "http://127.0.0.1:8799/v1", "m", "", 5.0, 0)
    assert str(err) == (
        "cannot reach the LLM at http://127.0.0.1:8799/v1: the connection closed before an answer "
        "(did the server stop?)"
    )


def test_config_probe_of_a_server_that_answers_no_model_list():
    # an LLM session: `config` on a server sending an HTML page printed the client's parse error
    # ("'str' object has no attribute '_set_private_attributes'")
    import http.server
    import threading

    from paperchat.answer.llm_client import probe
    from paperchat.core.settings import load_settings

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = b"<html>a web page</html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/v1"
    try:
        line = probe(load_settings({"llm_base_url": url, "llm_model": "m"}))
    finally:
        server.shutdown()
    assert line == (
        f"does not answer: {url}/models gave no OpenAI model list (is it an OpenAI-compatible server?)"
    )


def test_the_config_probe_names_its_own_wait_not_the_answer_timeout(monkeypatch):
    # a chat break-it session: with `timeout = 120` the probe gave up after 10 s and said "did not answer
    # within 120 s (raise --timeout ...)", and raising --timeout changed nothing
    import socket

    from paperchat.answer import llm_client
    from paperchat.core.settings import load_settings

    monkeypatch.setattr(llm_client, "PROBE_WAIT_S", 0.5)
    silent = socket.socket()  # accepts connections, never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen(4)
    url = f"http://127.0.0.1:{silent.getsockname()[1]}/v1"
    try:
        line = llm_client.probe(
            load_settings({"llm_base_url": url, "llm_model": "m", "timeout": 120})
        )
    finally:
        silent.close()
    assert line == (
        f"does not answer: {url}/models gave nothing within 0.5 s (this check waits at most 0.5 s; "
        "answers wait 120 s, --timeout)"
    )
