"""`paperchat ask` / `summarize` / `config` in LLM mode, as subprocesses against the loopback OpenAI stub."""

from __future__ import annotations

import json

from cli_env import run_cli
from openai_stub import Fault, Reply, StubServer

KEY = "sk-test-SECRET-0123456789abcdef"
QUESTION = "What does ConfPO use to pick preference-critical tokens?"


def run(store, server, *args):
    env = {
        "PAPERCHAT_STORE": str(store),
        "OPENAI_API_KEY": KEY,
        "OPENAI_BASE_URL": server.base_url,
        "PAPERCHAT_LLM_MODEL": "stub-model",
        "PAPERCHAT_MAX_RETRIES": "1",
        "PAPERCHAT_TIMEOUT": "5",
    }
    return run_cli(*args, env=env)


def test_llm_answer_streams_checks_and_cites(bundled_store):
    with StubServer(require_key=KEY) as server:
        server.script(
            Reply(
                "ConfPO selects tokens by the training policy's confidence [1]. It improves AlpacaEval 2 by 95% [1]. Also [7]."
            )
        )
        out = run(bundled_store, server, "ask", QUESTION)
        assert out.returncode == 0, out.stderr
        assert out.stdout.startswith(
            "ConfPO selects tokens by the training policy's confidence [1]."
        )
        assert (
            "Citation checks:" in out.stdout
            and "⚠ sentence 2 ([1]" in out.stdout
            and "95%" in out.stdout
        )
        assert (
            "Sources:\n  [1] ConfPO: Exploiting Policy Model Confidence for Critical Token Selection in Preference Optimization — p-abe9274a3783 — 000_215d12c2ee2986f8.txt #3  https://openreview.net/forum?id=ZG7bkp6ScT"
            in out.stdout
        )
        assert "removed citations to sources that do not exist: [7]" in out.stderr
        # the terminal's note points at what it shows, not at --json's field (a local-LLM session)
        assert (
            "sentence(s) 2, 3 of the answer by the source(s) they cite (see Citation checks)"
            in out.stderr
        )
        assert KEY not in out.stdout + out.stderr
        body = server.requests[-1]["body"]
        assert body["model"] == "stub-model" and body["stream"] is True


def test_llm_json_has_mode_sentences_and_no_key(bundled_store):
    with StubServer() as server:
        server.script(
            Reply(
                "ConfPO uses the policy model's confidence to find preference-critical tokens [1]."
            )
        )
        out = run(bundled_store, server, "ask", QUESTION, "--json")
        data = json.loads(out.stdout)
        assert data["mode"] == "llm" and data["abstained"] is False
        assert data["sources"][0]["paper_id"] == "p-abe9274a3783" and data["sources"][0]["n"] == 1
        assert data["sentences"][0]["citations"] == [1]
        assert KEY not in out.stdout


def test_off_topic_question_abstains_without_calling_the_llm(bundled_store):
    with StubServer() as server:
        out = run(bundled_store, server, "ask", "What is the boiling point of ethanol?", "--json")
        data = json.loads(out.stdout)
        assert data["abstained"] is True and data["sources"] == []
        assert server.count() == 0


def test_llm_errors_are_one_line(bundled_store):
    with StubServer() as server:
        server.script(Fault(401))
        out = run(bundled_store, server, "ask", QUESTION)
        assert out.returncode == 1
        assert out.stderr.strip().startswith("error: the LLM at") and "401" in out.stderr
        assert "Traceback" not in out.stderr and KEY not in out.stderr


def test_config_shows_origins_and_probes_without_the_key(bundled_store):
    with StubServer() as server:
        out = run(bundled_store, server, "config", "--json")
        data = json.loads(out.stdout)
        assert data["settings"]["llm_base_url"] == {
            "value": server.base_url,
            "from": "env:OPENAI_BASE_URL",
        }
        assert data["settings"]["llm_api_key"]["from"] == "env:OPENAI_API_KEY"
        assert data["llm"].startswith(f"answers at {server.base_url}")
        assert KEY not in out.stdout


def test_config_says_a_refused_llm_as_ask_does(bundled_store):
    # `config` had said "Connection error." where `ask` says "connection refused"
    import socket

    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    out = run_cli("config", "--json", "--base-url", url, store=bundled_store)
    assert (
        json.loads(out.stdout)["llm"]
        == f"does not answer: cannot reach the LLM at {url}: connection refused"
    )
    # a health check's exit status (a lab engineer's cron job had read 0 while every `ask` failed); the
    # settings alone (--no-check) and offline answers are no failure
    assert out.returncode == 1 and out.stderr == ""
    assert run_cli("config", "--no-check", "--base-url", url, store=bundled_store).returncode == 0
    assert run_cli("config", store=bundled_store).returncode == 0


def test_summarize_paper_offline_is_cited(bundled_store):
    out = run_cli("summarize", "ConfPO", "--json", store=bundled_store)
    data = json.loads(out.stdout)
    assert data["mode"] == "extractive" and data["sources"][0]["paper_id"] == "p-abe9274a3783"
    assert data["answer"].startswith("We introduce ConfPO") and data["answer"].count("[1]") >= 2


def test_a_password_in_the_base_url_is_masked_in_config_and_messages(bundled_store):
    import socket

    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        url = f"http://bob:hunter2@127.0.0.1:{sock.getsockname()[1]}/v1"
    out = run_cli("config", "--json", "--base-url", url, store=bundled_store)
    assert "hunter2" not in out.stdout
    data = json.loads(out.stdout)
    assert data["settings"]["llm_base_url"]["value"] == url.replace("hunter2", "***")
    asked = run_cli(
        "ask", "What is ConfPO?", "--mode", "llm", "--base-url", url, store=bundled_store
    )
    assert asked.returncode == 1 and "hunter2" not in asked.stderr and "bob:***@" in asked.stderr


def test_summarize_takes_quiet_as_ask_does(bundled_store):
    # `summarize -q` had been "No such option '-q'" while `ask -q` works
    quiet = run_cli("summarize", "ConfPO", "-q", store=bundled_store)
    assert quiet.returncode == 0 and quiet.stderr == ""
    assert quiet.stdout.startswith("We introduce ConfPO")


def test_config_under_mode_llm_without_an_llm_says_ask_fails(bundled_store):
    # it had said "offline extractive answers", which --mode llm never gives
    out = run_cli(
        "config", "--json", "--mode", "llm", store=bundled_store, env={"OPENAI_API_KEY": ""}
    )
    assert json.loads(out.stdout)["llm"] == (
        "not configured: with --mode llm, ask fails (set OPENAI_API_KEY or --base-url)"
    )


def eval_llm(store, server, out, limit: int):
    """``paperchat eval --mode llm`` of the first ``limit`` bundled questions into ``out``, unverified."""
    args = ("eval", "--mode", "llm", "--limit", str(limit), "--out", str(out), "--no-verify")
    return run(store, server, *args)


def test_eval_in_llm_mode_goes_on_past_one_failed_question(bundled_store, tmp_path):
    # a 5xx after every retry on the second question had ended the whole run with nothing written
    with StubServer() as server:
        server.script(
            Reply("ConfPO picks tokens by the policy model's confidence [1]."),
            Fault(500),
            Fault(500),
        )
        out = eval_llm(bundled_store, server, tmp_path, 3)
        assert out.returncode == 0, out.stderr
        assert "1 of 3 questions got no LLM answer and are left out of the figures" in out.stdout
        assert "first, q002: " in out.stdout
        results = json.loads((tmp_path / "results.json").read_text())
        assert [f["id"] for f in results["failed"]] == ["q002"]
        assert [r["id"] for r in results["questions"]] == ["q001", "q003"]
        assert results["config"]["failed"] == 1 and results["config"]["questions"] == 2
        assert "1 questions got no LLM answer" in (tmp_path / "report.md").read_text()


def test_eval_in_llm_mode_ends_when_questions_fail_in_a_row(bundled_store, tmp_path):
    with StubServer(default=Fault(503)) as server:
        out = eval_llm(bundled_store, server, tmp_path, 8)
        assert out.returncode == 1
        assert "error: 5 questions in a row got no LLM answer, the last: " in out.stderr, out.stderr
        assert "Traceback" not in out.stderr


def test_eval_in_llm_mode_ends_at_once_on_a_refused_key(bundled_store, tmp_path):
    with StubServer(require_key="sk-other") as server:
        out = eval_llm(bundled_store, server, tmp_path, 8)
        assert out.returncode == 1 and server.count() == 1
