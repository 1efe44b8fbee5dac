"""LLM answers through the real openai client against the OpenAI-compatible stub server."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from openai_stub import Drop, Fault, Hang, Reply, StreamError, StubServer  # noqa: E402

from paperchat.answer.llm_answer import condense_question, llm_answer, summarize_paper  # noqa: E402
from paperchat.answer.llm_client import count_message_tokens, get_client  # noqa: E402
from paperchat.answer.llm_stream import CUT_NOTE  # noqa: E402
from paperchat.answer.prompts import load_prompt, parse_prompt  # noqa: E402
from paperchat.core.contract import ABSTENTION  # noqa: E402
from paperchat.core.errors import (  # noqa: E402
    LLMAuthError,
    LLMConfigError,
    LLMModelNotFound,
    LLMServerError,
    LLMTimeout,
    PaperchatError,
)
from paperchat.core.settings import load_settings  # noqa: E402

KEY = "sk-test-SECRETabcdef0123456789"
QUESTION = "How many graph-level datasets were used to re-evaluate classic GNNs with GNN+?"
FAST_RETRY = {
    "Retry-After": "0.01"
}  # the client honours it; "0" would fall back to its 0.5 s backoff


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch, tmp_path):
    (tmp_path / "no-config.toml").write_text("", encoding="utf-8")
    monkeypatch.setenv("PAPERCHAT_CONFIG", str(tmp_path / "no-config.toml"))
    for var in (
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "PAPERCHAT_LLM_MODEL",
        "PAPERCHAT_TIMEOUT",
        "PAPERCHAT_MAX_RETRIES",
        "PAPERCHAT_CONTEXT_WINDOW",
    ):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(scope="module")
def engine(bundled_store):
    """An Engine on the shared bundled store (read-only use)."""
    from paperchat.engine import Engine

    return Engine(load_settings({"store": str(bundled_store)}))


@pytest.fixture(scope="module")
def retrieved(engine):
    hits = engine.retrieve(QUESTION)
    records = engine.store.papers([h.paper_id for h in hits])
    return hits, records


@pytest.fixture(scope="module")
def gnn_n(retrieved) -> int:
    """The source number the GNN+ paper gets in the prompt (its rank)."""
    hits, records = retrieved
    return next(i for i, h in enumerate(hits, 1) if records[h.paper_id].label == "GNN+")


@pytest.fixture
def server():
    with StubServer() as s:
        yield s


def settings_for(server, **over):
    flags = {
        "llm_base_url": server.base_url,
        "llm_api_key": KEY,
        "llm_model": "stub-model",
        "timeout": 0.5,
        "max_retries": 2,
        **over,
    }
    return load_settings(flags)


def ask(server, retrieved, engine, *script, on_token=None, **over):
    server.script(*script)
    hits, records = retrieved
    return llm_answer(
        QUESTION, hits, records, settings_for(server, **over), engine.checker, on_token=on_token
    ).to_json(timings=True)


def no_key(obj) -> bool:
    text = obj if isinstance(obj, str) else json.dumps(obj)
    return KEY not in text and "SECRET" not in text


# -- answers ---------------------------------------------------------------


def test_well_cited_answer(server, retrieved, engine, gnn_n):
    hits, records = retrieved
    tokens: list[str] = []
    r = ask(
        server,
        retrieved,
        engine,
        Reply(
            f"GNN+ integrates six widely used techniques [{gnn_n}]. "
            f"Classic GNNs enhanced by GNN+ were re-evaluated across 14 well-known graph-level datasets [{gnn_n}]."
        ),
        on_token=tokens.append,
    )
    assert r["answer"] == (
        "GNN+ integrates six widely used techniques [1]. "
        "Classic GNNs enhanced by GNN+ were re-evaluated across 14 well-known graph-level datasets [1]."
    )
    assert "".join(tokens) == r["answer"]
    assert r["mode"] == "llm" and r["abstained"] is False and r["incomplete"] is False
    assert r["invalid_citations"] == [] and r["model"] == "stub-model" and r["notes"] == []
    assert [s["n"] for s in r["sources"]] == [1]
    src = r["sources"][0]
    assert src["paper_id"] == hits[gnn_n - 1].paper_id and src["label"] == "GNN+"
    assert src["origin"] == {"path": "000_215d12c2ee2986f8.txt", "index": 1}
    assert (
        src["chunk_id"] == hits[gnn_n - 1].chunk_id
        and "14 well-known graph-level datasets" in src["text"]
    )
    assert [(s["citations"], s["supported"]) for s in r["sentences"]] == [([1], True), ([1], True)]
    assert all(0.6 <= s["score"] <= 1 for s in r["sentences"])
    assert r["retrieved"] == [
        {"paper_id": h.paper_id, "chunk_id": h.chunk_id, "score": round(h.score, 6)} for h in hits
    ]
    assert r["sources_sent"] == len(hits)
    assert set(r["timings"]) == {"prompt_s", "first_token_s", "llm_s", "verify_s", "total_s"}
    body = server.last_request()["body"]
    assert body["model"] == "stub-model" and body["stream"] is True and body["temperature"] == 0.0
    user = body["messages"][1]["content"]
    assert (
        f"[{gnn_n}] Can Classic GNNs Be Strong Baselines for Graph-level Tasks?" in user
        and user.endswith(f"Question: {QUESTION}")
    )
    assert ABSTENTION in body["messages"][0]["content"]
    assert no_key(r)


def test_out_of_range_citation_removed_and_reported(server, retrieved, engine, gnn_n):
    r = ask(
        server,
        retrieved,
        engine,
        Reply(
            f"GNN+ integrates six widely used techniques [7]. Classic GNNs achieve first place in eight datasets [{gnn_n}, 7]."
        ),
    )
    assert len(retrieved[0]) == 5
    assert (
        r["answer"]
        == "GNN+ integrates six widely used techniques. Classic GNNs achieve first place in eight datasets [1]."
    )
    assert r["invalid_citations"] == [7]
    assert r["notes"] == ["removed citations to sources that do not exist: [7]"]
    assert [s["n"] for s in r["sources"]] == [1]
    assert [(s["text"], s["citations"], s["supported"]) for s in r["sentences"]] == [
        ("GNN+ integrates six widely used techniques.", [], False),
        ("Classic GNNs achieve first place in eight datasets [1].", [1], True),
    ]


def test_renumbered_by_first_use(server, retrieved, engine, gnn_n):
    other = 1 if gnn_n != 1 else 2
    r = ask(
        server,
        retrieved,
        engine,
        Reply(
            f"GNN+ integrates six techniques [{gnn_n}]. Another paper is cited too [{other}, {gnn_n}]."
        ),
    )
    assert r["answer"] == "GNN+ integrates six techniques [1]. Another paper is cited too [2, 1]."
    assert [s["paper_id"] for s in r["sources"]] == [
        retrieved[0][gnn_n - 1].paper_id,
        retrieved[0][other - 1].paper_id,
    ]


def test_number_not_in_source_is_unsupported(server, retrieved, engine, gnn_n):
    r = ask(
        server,
        retrieved,
        engine,
        Reply(f"GNN+ was evaluated on 17 well-known graph-level datasets [{gnn_n}]."),
    )
    assert r["answer"] == "GNN+ was evaluated on 17 well-known graph-level datasets [1]."
    [s] = r["sentences"]
    assert s["supported"] is False and s["citations"] == [1] and s["missing"] == ["17"]


def test_no_citations_is_unsupported(server, retrieved, engine):
    r = ask(server, retrieved, engine, Reply("GNN+ was evaluated on 14 graph-level datasets."))
    assert r["answer"] == "GNN+ was evaluated on 14 graph-level datasets."
    assert r["sources"] == [] and r["abstained"] is False
    assert r["sentences"] == [
        {
            "text": "GNN+ was evaluated on 14 graph-level datasets.",
            "citations": [],
            "supported": False,
            "score": 0.0,
            "missing": [],
            "conflict": None,
        }
    ]


def test_abstention(server, retrieved, engine):
    r = ask(server, retrieved, engine, Reply(ABSTENTION))
    assert r["abstained"] is True and r["answer"] == ABSTENTION
    assert r["sources"] == [] and r["sentences"] == [] and r["invalid_citations"] == []
    assert len(r["retrieved"]) == 5


def test_missing_finish_reason_is_complete_with_note(server, retrieved, engine, gnn_n):
    r = ask(
        server,
        retrieved,
        engine,
        Reply(f"GNN+ integrates six techniques [{gnn_n}].", finish_reason=None),
    )
    assert r["incomplete"] is False and r["answer"] == "GNN+ integrates six techniques [1]."
    assert r["notes"] == ["the server sent no finish_reason; the answer was treated as complete"]


def test_length_finish_reason_is_incomplete(server, retrieved, engine, gnn_n):
    r = ask(
        server,
        retrieved,
        engine,
        Reply(f"GNN+ integrates six techniques [{gnn_n}]", finish_reason="length"),
    )
    assert r["incomplete"] is True and r["notes"] == [CUT_NOTE]
    # the check marks give the same reason (they had said "the stream broke off")
    from paperchat.core.contract import Answer

    marks = Answer("q", "a", "llm", incomplete=True, notes=r["notes"]).check_marks()
    assert marks == ["⚠ the answer is incomplete: it was cut at the token limit"]


# -- faults ----------------------------------------------------------------


def test_rate_limit_then_success(server, retrieved, engine, gnn_n):
    r = ask(
        server,
        retrieved,
        engine,
        Fault(429, headers=FAST_RETRY),
        Reply(f"GNN+ integrates six techniques [{gnn_n}]."),
    )
    assert server.count() == 2
    assert r["answer"] == "GNN+ integrates six techniques [1]."


def test_server_error_until_retries_spent(server, retrieved, engine):
    with pytest.raises(LLMServerError) as info:
        ask(server, retrieved, engine, *[Fault(500, headers=FAST_RETRY)] * 5, max_retries=2)
    assert server.count() == 3
    msg = str(info.value)
    assert msg == (
        f"the LLM at {server.base_url} failed (HTTP 500) after 3 attempts: "
        "The server had an error while processing your request. Sorry about that!"
    )
    assert "\n" not in msg and no_key(msg)


def test_dropped_stream_keeps_partial_answer(server, retrieved, engine, gnn_n):
    text = (
        f"GNN+ integrates six widely used techniques [{gnn_n}]. Classic GNNs were re-evaluated on"
    )
    tokens: list[str] = []
    r = ask(
        server,
        retrieved,
        engine,
        Drop(text + " 14 datasets.", after_chars=len(text)),
        on_token=tokens.append,
    )
    assert server.count() == 1
    assert r["incomplete"] is True
    assert (
        r["answer"]
        == "GNN+ integrates six widely used techniques [1]. Classic GNNs were re-evaluated on"
    )
    assert "".join(tokens) == r["answer"]
    assert len(r["notes"]) == 1 and r["notes"][0].endswith("the answer is partial")
    # not "closed before an answer", with part of it on screen (a local-LLM session)
    assert r["notes"][0] == (
        f"the answer stream broke off (the LLM at {server.base_url} closed the connection after part of "
        "the answer (did the server stop?)); the answer is partial"
    )
    assert [s["supported"] for s in r["sentences"]] == [True, False]


def test_stream_error_event_keeps_partial_answer(server, retrieved, engine, gnn_n):
    text = f"GNN+ integrates six widely used techniques [{gnn_n}]."
    r = ask(server, retrieved, engine, StreamError(text + " More.", after_chars=len(text)))
    assert (
        r["incomplete"] is True and r["answer"] == "GNN+ integrates six widely used techniques [1]."
    )


def test_hung_server_times_out(server, retrieved, engine):
    with pytest.raises(LLMTimeout) as info:  # the 0.5 s timeout, not the 5 s hang, ended it
        ask(server, retrieved, engine, Hang(5), Hang(5), timeout=0.5, max_retries=0)
    assert server.count() == 1
    assert (
        str(info.value)
        == f"the LLM at {server.base_url} did not answer within 0.5 s (raise --timeout or PAPERCHAT_TIMEOUT)"
    )


@pytest.mark.parametrize(
    "fault, error, text",
    [
        (
            Fault(401, message=f"Incorrect API key provided: {KEY}."),
            LLMAuthError,
            "rejected the API key (HTTP 401)",
        ),
        (
            Fault(403),
            LLMAuthError,
            "denied access (HTTP 403): You are not allowed to access this resource.",
        ),
        (Fault(404), LLMModelNotFound, "model 'stub-model' not found at"),
        # a web server that is no OpenAI API (`python -m http.server`): its 404 page names no model (a
        # newcomer's break-it session: the message told them to change the model)
        (
            Fault(404, body="<html>404 File not found</html>", content_type="text/html"),
            LLMModelNotFound,
            "has no Chat Completions endpoint (HTTP 404 with no API error): check that --base-url is an "
            "OpenAI-compatible API (it often ends in /v1)",
        ),
        # llama-cpp-python's and vLLM's FastAPI answer a path they do not serve (a --base-url without /v1)
        # with {"detail": "Not Found"}: it had been read as a wrong model name
        (
            Fault(404, body={"detail": "Not Found"}),
            LLMModelNotFound,
            "has no Chat Completions endpoint (HTTP 404 with no API error)",
        ),
    ],
)
def test_http_errors_are_one_line(server, retrieved, engine, fault, error, text):
    with pytest.raises(error) as info:
        ask(server, retrieved, engine, fault)
    msg = str(info.value)
    assert text in msg and "\n" not in msg and no_key(msg)
    assert server.count() == 1  # not retried


def test_missing_key_for_openai_host():
    settings = load_settings({"llm_model": "gpt-4o-mini"})
    with pytest.raises(LLMConfigError) as info:
        get_client(settings)
    assert str(info.value) == (
        "no API key for api.openai.com: set OPENAI_API_KEY, "
        "or OPENAI_BASE_URL for an OpenAI-compatible server"
    )


def test_base_url_without_key_sends_dummy_key(server, retrieved, engine, gnn_n):
    r = ask(
        server,
        retrieved,
        engine,
        Reply(f"GNN+ integrates six techniques [{gnn_n}]."),
        llm_api_key=None,
    )
    assert r["answer"] == "GNN+ integrates six techniques [1]."
    assert server.last_request()["headers"]["Authorization"] == "Bearer not-needed"


def test_sources_trimmed_to_context_window(server, retrieved, engine):
    r = ask(server, retrieved, engine, Reply("Short answer [1]."), context_window=900)
    assert 1 <= r["sources_sent"] < 5
    assert (
        r["notes"][0]
        == f"{5 - r['sources_sent']} least relevant source(s) left out to fit the context window"
    )
    body = server.last_request()["body"]
    assert count_message_tokens(body["messages"]) + body["max_tokens"] <= 900
    assert body["max_tokens"] == 225


def test_context_overflow_from_server_retries_with_fewer_sources(server, retrieved, engine):
    r = ask(server, retrieved, engine, Fault(400), Reply("Short answer [1]."))
    assert server.count() == 2
    assert r["answer"] == "Short answer [1]." and r["sources_sent"] == 2
    assert (
        r["notes"][0]
        == "the server reported a context overflow; retried with at most 2 sources within 8192 tokens"
    )
    assert len(server.requests[1]["body"]["messages"][1]["content"]) < len(
        server.requests[0]["body"]["messages"][1]["content"]
    )


def test_nothing_leaks_the_key(server, retrieved, engine, gnn_n):
    r = ask(server, retrieved, engine, Reply(f"GNN+ integrates six techniques [{gnn_n}]."))
    assert no_key(r)
    client = get_client(settings_for(server))
    assert no_key(repr(client)) and no_key(str(vars(client).get("base_url")))
    for fault in (
        Fault(401, message=f"Incorrect API key provided: {KEY[:7]}****{KEY[-4:]}"),
        Fault(400, message=f"bad key {KEY}", code="invalid_request"),
        Fault(500, message=f"upstream said {KEY}"),
    ):
        server.script(*[fault] * 3)
        with pytest.raises(PaperchatError) as info:
            llm_answer(QUESTION, *retrieved, settings_for(server), engine.checker)
        assert no_key(str(info.value)) and "****" not in str(info.value)
        assert info.value.__cause__ is None and info.value.__suppress_context__


# -- other prompts -----------------------------------------------------------


def test_condense_question(server):
    settings = settings_for(server)
    assert condense_question([], "What is GNN+?", settings) == "What is GNN+?"
    assert server.count() == 0
    server.script(Reply("Standalone question: How many datasets did GNN+ use?\n"))
    history = [("user", "What is GNN+?"), ("assistant", "GNN+ is a framework [1].")]
    assert (
        condense_question(history, "How many datasets did it use?", settings)
        == "How many datasets did GNN+ use?"
    )
    user = server.last_request()["body"]["messages"][1]["content"]
    assert "User: What is GNN+?\nAssistant: GNN+ is a framework." in user
    # a small model's non-questions are not used (a break-it session)
    # nor its answers or statements put where the question goes (a chat break-it session: "The answer is:
    # CROW" had replaced the user's question)
    for reply in (
        "The answer to this question is:",
        "User: What is the best way to measure it?",
        "The answer is: CROW",
        "CROW removes backdoors from LLMs by enforcing consistency.",
        "Answer: CROW uses regularization [1].",
    ):
        server.script(Reply(reply))
        assert condense_question(history, "Who wrote it?", settings) == "Who wrote it?"


def test_summarize_paper(server, retrieved, engine, gnn_n):
    hits, records = retrieved
    record = records[hits[gnn_n - 1].paper_id]
    server.script(
        Reply("GNN+ integrates six widely used techniques [1]. It matches Graph Transformers [2].")
    )
    r = summarize_paper(record, settings_for(server), engine.checker).to_json()
    assert (
        r["answer"]
        == "GNN+ integrates six widely used techniques [1]. It matches Graph Transformers."
    )
    assert r["invalid_citations"] == [2] and [s["paper_id"] for s in r["sources"]] == [
        record.paper_id
    ]


# -- prompt files --------------------------------------------------------------


def test_bundled_prompts_load():
    for name in ("answer", "summarize_paper", "summarize_topic", "condense"):
        assert load_prompt(name).system


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "[system]\nUse {sources}.\n[user]\n{question} {bogus} {abstention}",
            "unknown placeholder {bogus}",
        ),
        (
            "[system]\nUse {sources}.\n[user]\n{abstention}",
            "required placeholder {question} is missing",
        ),
        ("[system]\nUse {sources.\n[user]\n{question} {abstention}", "malformed placeholder"),
        (
            "[system]\nUse {sources!r}.\n[user]\n{question} {abstention}",
            "placeholder {sources!r} is not a plain {name}",
        ),
        ("[user]\n{question} {sources} {abstention}", "missing or empty [system] section"),
    ],
)
def test_broken_prompt_file(tmp_path, text, message):
    path = tmp_path / "answer.txt"
    path.write_text(text)
    with pytest.raises(PaperchatError) as info:
        load_prompt("answer", tmp_path)
    assert message in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(PaperchatError):
        parse_prompt("answer", text, path)
