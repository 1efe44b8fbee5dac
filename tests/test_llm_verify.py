"""The optional LLM verification pass (paperchat.answer.llm_verify) against the scripted stub server."""

from __future__ import annotations

from openai_stub import Fault, Reply, StubServer

from paperchat.answer.llm_verify import LLM_FLAG, parse_verdicts

QUESTION = "What does ConfPO use to pick preference-critical tokens?"
ANSWER = (
    "ConfPO identifies preference-critical tokens based on the training policy's confidence [1]. "
    "ConfPO requires no auxiliary models or compute [1]."
)


def _engine(store, server, tmp_path, monkeypatch):
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    monkeypatch.setattr("paperchat.answer.llm_verify.cache_dir", lambda: tmp_path / "verify-cache")
    return Engine(
        load_settings(
            {
                "store": str(store),
                "llm_base_url": server.base_url,
                "llm_model": "stub-model",
                "max_retries": 0,
                "verify_llm": True,
            }
        )
    )


def test_parse_verdicts_takes_the_first_verdict_per_sentence():
    assert parse_verdicts("S1: yes\nS2: NO\nS2: yes\n3) supported\nS9: no\nnonsense", 3) == {
        1: True,
        2: False,
        3: True,
    }
    assert parse_verdicts("I think they are all fine.", 2) == {}


def test_the_llm_can_add_a_flag_and_its_verdicts_are_cached(bundled_store, tmp_path, monkeypatch):
    with StubServer() as server:
        engine = _engine(bundled_store, server, tmp_path, monkeypatch)
        server.script(Reply(ANSWER), Reply("S1: yes\nS2: no"))
        answer = engine.ask(QUESTION, mode="llm")
        assert [s.supported for s in answer.sentences] == [True, False]
        assert answer.sentences[1].conflict == LLM_FLAG
        assert answer.notes[-2:] == [
            "LLM verifier: judged 2 of 2 sentence(s), flagged 1 the offline check had passed",
            # said in the notes too: an agent reading only `answer` and `notes` had not seen it (MCP)
            "the citation check did not support sentence(s) 2 of the answer by the source(s) they cite "
            "(see `sentences`)",
        ]
        verify_request = server.requests[1]["body"]["messages"]
        assert (
            "S2: ConfPO requires no auxiliary models or compute [1]. (cites [1])"
            in verify_request[-1]["content"]
        )
        assert "[1] ConfPO: Exploiting Policy Model Confidence" in verify_request[-1]["content"]
        # The same answer again: the verdicts come from the cache, one request fewer.
        server.script(Reply(ANSWER))
        again = engine.ask(QUESTION, mode="llm")
        assert server.count() == 3 and [s.supported for s in again.sentences] == [True, False]
        assert again.notes[-2].startswith("LLM verifier (cached): judged 2 of 2")


def test_a_garbled_verdict_leaves_the_offline_checks(bundled_store, tmp_path, monkeypatch):
    with StubServer() as server:
        engine = _engine(bundled_store, server, tmp_path, monkeypatch)
        server.script(Reply(ANSWER), Reply("Both sentences look right to me."))
        answer = engine.ask(QUESTION, mode="llm")
        assert [s.supported for s in answer.sentences] == [True, True]
        assert answer.notes[-1] == (
            "LLM verifier: judged 0 of 2 sentence(s), flagged 0 the offline check had passed; "
            "2 verdict(s) missing from its reply (the offline verdict stands)"
        )
        # a garbled reply is not kept: the same answer asks the verifier again, which now answers
        server.script(Reply(ANSWER), Reply("S1: yes\nS2: no"))
        again = engine.ask(QUESTION, mode="llm")
        assert server.count() == 4 and [s.supported for s in again.sentences] == [True, False]
        assert again.notes[-2].startswith("LLM verifier: judged 2 of 2")


def test_a_failed_verifier_request_keeps_the_finished_answer(bundled_store, tmp_path, monkeypatch):
    """The verifier is a second opinion: an HTTP 500 from it had turned the whole answer into an error."""
    with StubServer() as server:
        engine = _engine(bundled_store, server, tmp_path, monkeypatch)
        server.script(Reply(ANSWER), Fault(500))
        answer = engine.ask(QUESTION, mode="llm")
        assert answer.answer == ANSWER and [s.paper_id for s in answer.sources] == [
            "p-abe9274a3783"
        ]
        assert [s.supported for s in answer.sentences] == [True, True]
        assert answer.notes[-1].startswith("LLM verifier: the LLM at ")
        assert answer.notes[-1].endswith("(the offline verdicts stand)")


def test_an_exact_quote_stays_supported_whatever_the_llm_says(bundled_store, tmp_path, monkeypatch):
    # a chat break-it session: a small model's "S1: no" flagged a sentence that quotes its source exactly
    quote = (
        "In contrast to recent token-level methods that rely on credit-assignment models or AI annotators, "
        "raising concerns about scalability and reliability, ConfPO is simple, lightweight, and model-free [1]."
    )
    with StubServer() as server:
        engine = _engine(bundled_store, server, tmp_path, monkeypatch)
        server.script(Reply(quote), Reply("S1: no"))
        answer = engine.ask(QUESTION, mode="llm")
    assert [(s.supported, s.score) for s in answer.sentences] == [(True, 1.0)]
    assert (
        answer.notes[-1]
        == "LLM verifier: judged 1 of 1 sentence(s), flagged 0 the offline check had passed"
    )
