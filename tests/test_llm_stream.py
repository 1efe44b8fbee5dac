"""An LLM stream that ends badly (issue 18, items 6-10): the real openai client against the loopback stub."""

from __future__ import annotations

import json

import pytest
from cli_env import run_cli
from openai_stub import Fault, Malformed, Reply, StubServer

KEY = "sk-test-SECRET-0123456789abcdef"
QUESTION = "What does ConfPO use to pick preference-critical tokens?"
ANSWER = "ConfPO picks tokens by the policy's confidence [1]."


def run(store, server, *args, key=KEY, retries="3"):
    env = {
        "PAPERCHAT_STORE": str(store),
        "OPENAI_BASE_URL": server.base_url,
        "PAPERCHAT_LLM_MODEL": "stub-model",
        "PAPERCHAT_MAX_RETRIES": retries,
        "PAPERCHAT_TIMEOUT": "5",
    }
    if key:
        env["OPENAI_API_KEY"] = key
    return run_cli(*args, env=env)


def client_for(server, key=None, **over):
    from paperchat.answer.llm_client import LLMClient
    from paperchat.core.settings import load_settings

    return LLMClient(
        load_settings(
            {
                "llm_base_url": server.base_url,
                "llm_model": "stub-model",
                "max_retries": 0,
                "llm_api_key": key,
                **over,
            }
        )
    )


HI = [{"role": "user", "content": "hi"}]


# -- 6: an empty answer ------------------------------------------------------------------------------------------
def test_an_empty_answer_is_an_error_under_llm_and_an_offline_answer_under_auto(bundled_store):
    with StubServer() as server:
        server.script(Reply(""))
        out = run(bundled_store, server, "ask", QUESTION, "--mode", "llm")
        assert out.returncode == 1 and out.stdout == ""
        assert (
            out.stderr.strip()
            == f"error: the LLM at {server.base_url} returned an empty answer (finish_reason 'stop')"
        )
        server.script(Reply("  \n"))
        auto = run(bundled_store, server, "ask", QUESTION, "--json")
        assert auto.returncode == 0, auto.stderr
        data = json.loads(auto.stdout)
        assert data["mode"] == "extractive" and data["sources"][0]["paper_id"] == "p-abe9274a3783"
        assert data["notes"] == [
            f"the LLM at {server.base_url} returned an empty answer (finish_reason 'stop'); "
            "answered offline by quoting the abstracts"
        ]
        assert server.count() == 2
        # not as JSON: a whitespace reply had been taken for the streamed answer, so the offline text never
        # showed (an LLM break-it session)
        server.script(Reply("   \n\n  "))
        shown = run(bundled_store, server, "ask", QUESTION)
        assert shown.returncode == 0, shown.stderr
        assert data["answer"][:40] in shown.stdout
        assert "\nSources:\n  [1] ConfPO" in shown.stdout


# -- 7: a stream that just stops ------------------------------------------------------------------------------------
def test_a_stream_without_done_or_finish_reason_is_incomplete():
    with StubServer() as server:
        server.script(Reply(ANSWER, finish_reason=None, done=False))
        completion = client_for(server).stream(HI)
        assert completion.text == ANSWER and completion.incomplete is True
        assert completion.notes == [
            f"the answer stream from {server.base_url} ended without a finish_reason or "
            "[DONE]; the answer may be partial"
        ]
        # [DONE] without a finish_reason (some servers) still counts as complete, with a note
        server.script(Reply(ANSWER, finish_reason=None))
        completion = client_for(server).stream(HI)
        assert completion.incomplete is False
        assert completion.notes == [
            "the server sent no finish_reason; the answer was treated as complete"
        ]
        # a finish_reason without [DONE] is complete
        server.script(Reply(ANSWER, done=False))
        completion = client_for(server).stream(HI)
        assert completion.incomplete is False and completion.notes == []


# -- 8: a malformed event -------------------------------------------------------------------------------------------
def test_a_malformed_event_keeps_the_partial_answer_and_names_the_server():
    from paperchat.core.errors import LLMBadResponse

    with StubServer() as server:
        server.script(Malformed(ANSWER + " It also works across layers.", after_chars=len(ANSWER)))
        seen: list[str] = []
        completion = client_for(server).stream(HI, seen.append)
        assert (
            completion.text == ANSWER and "".join(seen) == ANSWER and completion.incomplete is True
        )
        assert completion.notes == [
            f"the answer stream from {server.base_url} broke off: it sent an event that is "
            "not JSON (Unterminated string starting at: line 1 column 61); the answer is partial"
        ]
        server.script(Malformed(ANSWER, after_chars=0))
        with pytest.raises(LLMBadResponse) as info:
            client_for(server).stream(HI)
        assert str(info.value) == (
            f"the LLM at {server.base_url} sent an event that is not JSON (Unterminated string "
            "starting at: line 1 column 61) before any text"
        )


def test_a_malformed_event_in_the_cli_is_a_partial_answer_then_a_note(bundled_store):
    with StubServer() as server:
        server.script(Malformed(ANSWER + " It also works across layers.", after_chars=len(ANSWER)))
        out = run(bundled_store, server, "ask", QUESTION, "--mode", "llm")
        assert out.returncode == 0, out.stderr
        assert out.stdout.startswith(ANSWER + "\n")
        assert (
            f"note: the answer stream from {server.base_url} broke off: it sent an event that is not JSON"
            in out.stderr
        )
        assert "error" not in out.stderr and "JSONDecodeError" not in out.stderr


def test_a_failure_after_streamed_text_starts_on_a_new_line_and_keeps_the_answer(bundled_store):
    with StubServer() as server:
        server.script(
            Reply(ANSWER), Fault(403)
        )  # the answer streams, then the --verify-llm request fails: a note, the answer stays
        out = run(bundled_store, server, "ask", QUESTION, "--mode", "llm", "--verify-llm")
        assert out.returncode == 0
        assert out.stdout.startswith(ANSWER + "\n\nSources:\n  [1] ConfPO")
        assert (
            f"note: LLM verifier: the LLM at {server.base_url} denied access (HTTP 403): You are not "
            "allowed to access this resource. (the offline verdicts stand)\n"
        ) in out.stderr


# -- 9: key redaction without a lag ---------------------------------------------------------------------------------
def test_the_key_guard_holds_back_only_what_could_still_become_the_key():
    from paperchat.answer.llm_stream import KeyGuard

    out: list[str] = []
    guard = KeyGuard(KEY, out.append)
    feeds = [
        "ConfPO ",
        "picks ",
        "tokens",
        " by ",
        "s",
        "k-",
        "test",
        " and ",
        KEY[:10],
        KEY[10:],
        " done.",
    ]
    emitted = []
    for piece in feeds:
        guard.feed(piece)
        emitted.append("".join(out))
        out.clear()
    guard.close()
    # Only a tail that could still start the key waits ("s", "sk-", "sk-test"); nothing else does.
    assert emitted == [
        "ConfPO ",
        "picks ",
        "token",
        "s by ",
        "",
        "",
        "",
        "sk-test and ",
        "",
        "***",
        " done.",
    ]
    assert out == []


def test_streamed_pieces_arrive_without_a_lag_and_the_key_never_shows():
    text = f"ConfPO ranks tokens by confidence [1]. My key: {KEY} [1]. Done."
    with StubServer() as server:
        server.script(Reply(text, chunk_size=5), Reply("Yes [1].", chunk_size=4))
        seen: list[str] = []
        completion = client_for(server, key=KEY).stream(HI, seen.append)
        short: list[str] = []
        client_for(server, key=KEY).stream(HI, short.append)
    masked = "ConfPO ranks tokens by confidence [1]. My key: *** [1]. Done."
    assert completion.text == masked and "".join(seen) == masked
    # Each 5-character piece is passed on as it arrives; only "sk-…" waits until it is known to be the key. (A
    # fixed lag of len(key) - 1 characters would pass on the same text, but the last 30 characters in one piece.)
    assert seen == [
        "ConfP",
        "O ran",
        "ks to",
        "kens ",
        "by co",
        "nfide",
        "nce [",
        "1]. M",
        "y key",
        ": ",
        "*** [",
        "1]. D",
        "one.",
    ]
    assert short == ["Yes ", "[1]."]  # not held back until the end


# -- 10: a rate limit with Retry-After ------------------------------------------------------------------------------
def test_a_rate_limit_says_how_long_it_waits(bundled_store):
    with StubServer() as server:
        server.script(Fault(429, headers={"Retry-After": "1"}), Reply(ANSWER))
        out = run(bundled_store, server, "ask", QUESTION, "--mode", "llm")
        assert out.returncode == 0, out.stderr
        assert out.stdout.startswith(ANSWER)
        assert out.stderr.splitlines()[0] == (
            f"note: rate limited; retrying in 1 s (HTTP 429 from the LLM at "
            f"{server.base_url}; retry 1 of 3)"
        )
        assert server.count() == 2


@pytest.mark.parametrize("after", ["3600", "Wed, 21 Oct 2099 07:28:00 GMT"])
def test_a_server_asking_for_a_long_wait_is_not_hammered(bundled_store, after):
    # Retry-After: 3600 (or an HTTP date) had been retried after 0.5, 1 and 2 s
    with StubServer() as server:
        server.script(Fault(429, headers={"Retry-After": after}), Reply(ANSWER))
        out = run(bundled_store, server, "ask", QUESTION, "--mode", "llm")
        assert out.returncode == 1 and server.count() == 1
        assert "retrying" not in out.stderr
        assert out.stderr.startswith(
            f"error: the LLM at {server.base_url} is rate limiting (HTTP 429)"
        )
        assert "before another try (Retry-After), so paperchat did not retry" in out.stderr


def test_a_failure_after_streamed_text_in_chat_starts_on_a_new_line(bundled_store, tmp_path):
    import shutil

    store = tmp_path / "store"
    shutil.copytree(bundled_store, store)
    with StubServer() as server:
        server.script(
            Reply(ANSWER), Fault(403)
        )  # the answer streams, then the verification request fails
        result = run_cli(
            "chat",
            "--mode",
            "llm",
            "--verify-llm",
            input=QUESTION + "\n",
            store=store,
            env={
                "OPENAI_BASE_URL": server.base_url,
                "PAPERCHAT_LLM_MODEL": "stub-model",
                "PAPERCHAT_HISTORY": "0",
            },
        )
    # the streamed line is ended on stdout (the transcript), which goes on to the Sources; the note is on stderr
    assert result.returncode == 0
    assert result.stdout.startswith(f"> {QUESTION}\n{ANSWER}\n\nSources:\n  [1] ConfPO")
    assert (
        f"note: LLM verifier: the LLM at {server.base_url} denied access (HTTP 403): You are not allowed to "
        "access this resource. (the offline verdicts stand)\n"
    ) in result.stderr


def test_escape_sequences_from_the_server_never_reach_the_terminal_or_the_answer():
    # a newcomer's break-it session: a server's colour codes reached stdout, and the checker then read
    # "mCROW" as a name the source lacks
    with StubServer() as server:
        server.script(Reply("\x1b[31mCROW\x1b[0m removes backdoors [1].\x1b]0;owned\x07"))
        shown: list[str] = []
        completion = client_for(server).stream(HI, on_token=shown.append)
        assert completion.text == "CROW removes backdoors [1]."
        assert "\x1b" not in "".join(shown) and "CROW" in "".join(shown)


def test_a_question_with_escape_sequences_is_read_without_them():
    from paperchat.core.text import clean_question

    assert clean_question("What is \x1b[1;31mCROW\x1b[0m?") == "What is CROW?"


def test_a_reply_typed_json_that_is_none_is_one_line_naming_the_server():
    """HTTP 200, application/json, "{not json at all": it had surfaced as a bare JSONDecodeError (in the CLI,
    ``error: JSONDecodeError: ...``; from the Python API, not even a PaperchatError)."""
    from paperchat.core.errors import LLMBadResponse

    with StubServer() as server:
        server.script(*[Fault(200, body="{not json at all", content_type="application/json")] * 2)
        with pytest.raises(LLMBadResponse) as info:
            client_for(server).stream(HI)
        assert str(info.value).startswith(
            f"the LLM at {server.base_url} sent a reply that is not a Chat Completions answer (JSONDecodeError: "
        )


@pytest.mark.parametrize("chunk", [1, 5, None])
def test_the_models_own_list_of_sources_never_shows(bundled_store, chunk):
    """A small model ends with its own "Sources:" list: the output had held two lists whose [1] named
    different papers, and the check had read the model's list as a sentence."""
    own = ANSWER + "\n\n**Sources:**\n  [1] Fake paper — p-000000000000\n  [2] Another — p-1"
    with StubServer() as server:
        server.script(Reply(own, chunk_size=chunk))
        out = run(bundled_store, server, "ask", QUESTION, "--mode", "llm", "--json")
    data = json.loads(out.stdout)
    assert data["answer"] == ANSWER
    assert [s["paper_id"] for s in data["sources"]] == ["p-abe9274a3783"]
    assert len(data["sentences"]) == 1
    assert (
        "the model's own list of sources was left out: the Sources below are paperchat's"
        in data["notes"]
    )
    with StubServer() as server:
        server.script(Reply(own, chunk_size=chunk))
        shown = run(bundled_store, server, "ask", QUESTION, "--mode", "llm")
    assert "Fake paper" not in shown.stdout and shown.stdout.count("Sources:") == 1


# -- a break-it session: metadata questions asked of the LLM, which sees abstracts only ----------------------
@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (
            "When was ConfPO published?",
            '"ConfPO: Exploiting Policy Model Confidence for Critical Token Selection in Preference '
            'Optimization" appeared at ICML 2025 [1].',
        ),
        (
            "Who wrote ConfPO?",
            '"ConfPO: Exploiting Policy Model Confidence for Critical Token Selection in Preference '
            'Optimization" is by Hee Suk Yoon, Eunseop Yoon, Mark A. Hasegawa-Johnson, Sungwoong Kim and '
            "Chang D. Yoo [1].",
        ),
    ],
)
def test_metadata_questions_are_answered_from_the_metadata_with_an_llm(
    bundled_store, question, answer
):
    with StubServer() as server:
        server.script(Reply("The document is published in 2019."))
        out = run(bundled_store, server, "ask", question, "--mode", "llm", "--json")
        assert out.returncode == 0, out.stderr
        got = json.loads(out.stdout)
        assert got["answer"] == answer and got["mode"] == "extractive"
        assert [s["paper_id"] for s in got["sources"]] == ["p-abe9274a3783"]
        assert got["notes"][-1] == (
            "answered from the stored metadata (titles, authors, venues), not by the LLM"
        )
        assert server.count() == 0  # the LLM was not asked


def test_a_count_with_an_llm_is_answered_from_the_store(bundled_store):
    # a break-it session: the count line was added after the stream, so the terminal never showed it; a
    # chat break-it session: the LLM was then asked, though the README says counts are not (mode "llm")
    with StubServer() as server:
        server.script(Reply("Two papers study backdoors [1] [2]."))
        out = run(
            bundled_store,
            server,
            "ask",
            "How many papers are about backdoor attacks?",
            "--mode",
            "llm",
            "--json",
        )
        assert out.returncode == 0, out.stderr
        got = json.loads(out.stdout)
        assert got["answer"].startswith(
            '2 stored papers have every word of "backdoor attacks" in their title or abstract; '
            "the most relevant:\n"
        )
        assert (got["mode"], got["count"], len(got["sources"])) == (
            "extractive",
            2,
            2,
        )  # both listed
        assert (
            "answered from the stored metadata (titles, authors, venues), not by the LLM"
            in got["notes"]
        )
        assert server.count() == 0
        total = json.loads(
            run(bundled_store, server, "ask", "How many papers are there?", "--json").stdout
        )
        assert total["answer"] == "The store holds 38 papers." and total["mode"] == "extractive"
        assert total["notes"] == [
            "answered from the stored metadata (titles, authors, venues), not by the LLM"
        ]
        assert server.count() == 0


def test_summarize_asked_of_one_paper_uses_the_summary_prompt(bundled_store):
    # a chat break-it session: `ask "summarize CROW"` sent the answer prompt with CROW and four unrelated
    # papers, where `paperchat summarize CROW` sends CROW alone with the summary prompt
    with StubServer() as server:
        server.script(
            Reply("ConfPO selects preference-critical tokens by the policy's confidence [1].")
        )
        out = run(bundled_store, server, "ask", "Summarize ConfPO.", "--mode", "llm", "--json")
        assert out.returncode == 0, out.stderr
        got = json.loads(out.stdout)
        body = server.last_request()["body"]
    assert body["messages"][0]["content"].startswith(
        "You summarize research papers for a busy reader"
    )
    assert [s["paper_id"] for s in got["sources"]] == ["p-abe9274a3783"] and got["mode"] == "llm"
    assert got["question"] == "Summarize ConfPO."


def test_an_answer_citing_nothing_names_the_papers_it_was_given(bundled_store):
    # a chat break-it session: SmolLM2 mostly writes uncited text, and then no Sources list showed which
    # papers it had been given
    with StubServer() as server:
        server.script(Reply("ConfPO is a preference learning method."))
        out = run(bundled_store, server, "ask", QUESTION, "--mode", "llm", "--json")
        assert out.returncode == 0, out.stderr
        got = json.loads(out.stdout)
    assert got["sources"] == [] and not got["abstained"]
    note = next(
        n
        for n in got["notes"]
        if n.startswith("the answer cites none of the papers it was given: ")
    )
    assert "ConfPO: Exploiting Policy Model Confidence" in note and "(p-abe9274a3783)" in note


def test_the_blank_lines_before_the_model_s_own_sources_list_go_with_it():
    # a README audit: a stub's "...[Source 1].\n\nSources:\n[1] CROW paper" left three blank lines where
    # the list had stood; blank lines between paragraphs stay
    from paperchat.answer.model_text import OwnSourcesCut

    def streamed(pieces):
        out = []
        cut = OwnSourcesCut(out.append)
        for piece in pieces:
            cut.feed(piece)
        cut.close()
        return "".join(out), cut.cut

    assert streamed(["CROW removes backdoors [1].", "\n", "\n", "Sources:\n", "[1] CROW\n"]) == (
        "CROW removes backdoors [1].\n",
        True,
    )
    assert streamed(["A [1].", "\n", "\n", "B [2]."]) == ("A [1].\n\nB [2].", False)
    assert streamed(["A [1].\n\n", "Bib", "liography:\n", "[1] x"]) == ("A [1].\n", True)
