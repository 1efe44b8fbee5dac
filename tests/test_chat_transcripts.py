"""The chat REPL in-process (``paperchat.cli.main(args, env)``, stdout and stderr apart): follow-ups, every slash
command, and the LLM path against the stub.

Each test starts from its own copy of the bundled store and its own history setting, so none depends on another.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest
from cli_env import run_cli
from openai_stub import Fault, Reply, StubServer

CONFPO = "ConfPO: Exploiting Policy Model Confidence for Critical Token Selection in Preference Optimization"
CROW = (
    "CROW: Eliminating Backdoors from Large Language Models via Internal Consistency Regularization"
)
BACKDOOR = "Backdoor Attacks in Token Selection of Attention Mechanism"
KEY = "sk-test-SECRET-0123456789abcdef"


@pytest.fixture
def store(bundled_store, tmp_path):
    folder = tmp_path / "store"
    shutil.copytree(bundled_store, folder)
    return folder


def chat_run(store, lines, *args, **env):
    """``paperchat chat ARGS`` with ``lines`` piped in: the exit status, the whole stdout and stderr."""
    return run_cli("chat", *args, input="\n".join(lines) + "\n", store=store, env=env)


def chat(store, lines, *args, **env):
    """The transcript (stdout) of a chat that exits 0."""
    result = chat_run(store, lines, *args, **env)
    assert result.returncode == 0, result.stderr
    return result.stdout


def turns(output: str) -> dict[str, str]:
    """``{input line: what was printed for it}`` (each input is echoed as ``> line``)."""
    out: dict[str, str] = {}
    current = None
    for line in output.splitlines():
        if line.startswith("> "):
            current = line[2:]
            out[current] = ""
        elif current is not None:
            out[current] += line + "\n"
    return {k: v.strip("\n") for k, v in out.items()}


def titles(block: str) -> list[str]:
    return re.findall(r"^\s*\[\d+\] (.+?) — p-", block, flags=re.M)


def test_ordinals_resolve_against_the_last_list_shown(store):
    lines = [
        "Which papers study backdoor attacks?",
        "summarize the second one",
        "what does the first one propose?",
        "What is the boiling point of tungsten?",
        "what about the second one?",
        "/sources",
        "/reset",
        "what datasets did it use?",
    ]
    seen = turns(chat(store, lines, PAPERCHAT_HISTORY="0"))
    assert titles(seen[lines[0]]) == [BACKDOOR, CROW]
    assert titles(seen[lines[1]]) == [CROW]
    # "the first one" is the first of the list the user saw, not of the summary's single source.
    assert titles(seen[lines[2]]) == [BACKDOOR]
    assert seen[lines[3]] == "The indexed abstracts do not contain an answer to this question."
    # After an abstention, an ordinal still means the last list shown; /sources agrees with what was answered.
    assert titles(seen[lines[4]]) == [CROW] and titles(seen["/sources"]) == [CROW]
    assert seen["/reset"] == "Conversation reset: follow-ups now start afresh."
    assert seen[lines[7]] == (
        'Which paper do you mean by "it"? No earlier answer showed papers to refer to; ask with '
        "the paper's name, or ask a question first."
    )


def test_it_after_a_list_and_them_with_nothing_shown_are_asked_back(store):
    # a chat break-it session: "summarize it" after a list of nine summarized the first, with no word of
    # it, and "compare them" as a first question compared two papers retrieval happened to find
    # "summarize that paper" after a seven-paper comparison summarized source [1] (a chat session)
    lines = [
        "compare them",
        "Which papers study large language models?",
        "summarize it",
        "summarize that paper",
    ]
    seen = turns(chat(store, lines, PAPERCHAT_HISTORY="0"))
    assert seen[lines[0]] == (
        'Which papers do you mean by "them"? No earlier answer showed papers to refer to; ask with the '
        "papers' names, or ask a question first."
    )
    listed = titles(seen[lines[1]])
    assert len(listed) >= 3
    for line, said in ((lines[2], "it"), (lines[3], "that paper")):
        assert seen[line] == (
            f'Which paper do you mean by "{said}"? The last answer cited {len(listed)} papers; say "the '
            'first one" (or its number), or name the paper.'
        )


def test_an_abstention_does_not_hide_the_one_paper_shown_before_it(store):
    lines = [
        "What does ConfPO use to pick preference-critical tokens?",
        "What is the boiling point of tungsten?",
        "/show 1",
        "summarize the first one",
    ]
    seen = turns(chat(store, lines, PAPERCHAT_HISTORY="0"))
    assert titles(seen[lines[0]]) == [CONFPO]
    assert seen[lines[1]] == "The indexed abstracts do not contain an answer to this question."
    assert seen["/show 1"].startswith(f"[1] {CONFPO}\n")
    assert titles(seen[lines[3]]) == [CONFPO]


def test_show_n_and_ordinals_count_one_list(store):
    """Issue 18, item 13: after an unrelated question, "the first one" and /show 1 mean the same paper: the first
    source of the last answer that cited papers; a follow-up about a paper of that list keeps the list."""
    lines = [
        "Which papers study backdoor attacks?",
        "What does ConfPO use to pick preference-critical tokens?",
        "/show 1",
        "summarize the first one",
    ]
    seen = turns(chat(store, lines, PAPERCHAT_HISTORY="0"))
    assert titles(seen[lines[0]]) == [BACKDOOR, CROW]
    assert titles(seen[lines[1]]) == [CONFPO]
    assert seen["/show 1"].startswith(f"[1] {CONFPO}\n")
    assert titles(seen[lines[3]]) == [
        CONFPO
    ]  # not BACKDOOR, the first of the list two answers back

    lines = [
        "Which papers study backdoor attacks?",
        "summarize the second one",
        "/show 1",
        "/summarize 2",
    ]
    seen = turns(chat(store, lines, PAPERCHAT_HISTORY="0"))
    assert titles(seen[lines[1]]) == [CROW]
    # /show 1 counts the same list as "the first one" would, and says which list that is
    assert seen["/show 1"].startswith(f'[1] {BACKDOOR}\n(source 1 of the answer to "{lines[0]}")\n')
    assert titles(seen["/summarize 2"]) == [CROW]


def test_slash_commands_before_and_after_a_question(store):
    lines = [
        "/sources",
        "/show 1",
        "/history",
        "/frobnicate",
        "/help",
        "/papers",
        "What does ConfPO use to pick preference-critical tokens?",
        "/save --force",
    ]
    seen = turns(chat(store, lines, PAPERCHAT_HISTORY="0"))
    # a bare --force names no file (it had written a file called "--force")
    assert seen["/save --force"] == "Give a file name, e.g. /save chat.md"
    assert seen["/sources"] == seen["/show 1"] == "No sources yet: ask a question first."
    assert seen["/history"] == "No questions yet in this conversation."
    assert seen["/frobnicate"] == "Unknown command /frobnicate. Type /help for the commands."
    assert [ln.split()[0] for ln in seen["/help"].splitlines() if ln.startswith("  /")] == [
        "/sources",
        "/show",
        "/summarize",
        "/why",
        "/papers",
        "/history",
        "/save",
        "/export",
        "/reset",
        "/help",
        "/quit",
    ]
    listing = seen["/papers"].splitlines()
    assert listing[-3] == "38 papers, 73 chunks from 2 files:"
    assert [ln.rsplit("/", 1)[-1] for ln in listing[-2:]] == [
        "000_215d12c2ee2986f8.txt: 19 papers",
        "003_0d78137218bc382c.txt: 19 papers",
    ]
    answer = seen[lines[6]]
    assert titles(answer)[0] == CONFPO and "[1]" in answer.split("Sources:")[0]


def test_show_summarize_why_and_history_after_an_answer(store):
    question = "What does ConfPO use to pick preference-critical tokens?"
    out = chat(
        store,
        [question, "/show 1", "/summarize 3", "/why", "/summarize 1", "/history"],
        PAPERCHAT_HISTORY="0",
    )
    # Keyed by input line: the last occurrence of a repeated command wins, so read them in order instead.
    blocks = re.split(r"^> ", out, flags=re.M)[1:]
    show, bad, why, summary, history = (b.split("\n", 1)[1].strip("\n") for b in blocks[1:6])
    assert show.splitlines()[:2] == [f"[1] {CONFPO}", "Label: ConfPO"]
    assert "URL: https://openreview.net/forum?id=ZG7bkp6ScT" in show
    assert bad == "The last answer has 1 source: /summarize 1."
    assert titles(summary) == [CONFPO] and summary.count("[1]") >= 2
    assert why.splitlines()[0] == f"Question: {question}"
    assert why.splitlines()[4].startswith(f"  1. {CONFPO} — p-abe9274a3783 — score ")
    assert history.splitlines()[1].strip() == f"1. {question}  → [1] {CONFPO}"


def test_llm_chat_condenses_follow_ups_and_shows_the_citation_checks(store, tmp_path):
    transcript = tmp_path / "talk.md"
    with StubServer(require_key=KEY) as server:
        server.script(
            Reply(
                "ConfPO selects tokens by the training policy's confidence [1]. "
                "It improves AlpacaEval 2 by 95% [1]."
            )
        )
        server.script(Reply("What else does ConfPO do?"))  # the condensed follow-up
        server.script(Reply("It avoids overoptimization [1]."))
        out = chat(
            store,
            [
                "What does ConfPO use to pick preference-critical tokens?",
                "What else does it do?",
                f"/save {transcript}",
                "/history",
            ],
            OPENAI_API_KEY=KEY,
            OPENAI_BASE_URL=server.base_url,
            PAPERCHAT_LLM_MODEL="stub-model",
        )
        bodies = [r["body"] for r in server.requests]
    seen = turns(out)
    first = seen["What does ConfPO use to pick preference-critical tokens?"]
    assert first.startswith(
        "ConfPO selects tokens by the training policy's confidence [1]. It improves AlpacaEval 2 by 95% [1]."
    )
    assert "Citation checks:" in first
    assert "⚠ sentence 2 ([1], support" in first and "not in the cited source: 95" in first
    assert titles(first) == [CONFPO]
    # The follow-up was condensed with the conversation so far, then answered from the paper it names.
    condense = bodies[1]["messages"]
    assert (
        "standalone question" in condense[0]["content"]
        and "What else does it do?" in condense[-1]["content"]
    )
    assert "What else does ConfPO do?" in bodies[2]["messages"][-1]["content"]
    assert titles(seen["What else does it do?"]) == [CONFPO]
    saved = transcript.read_text(encoding="utf-8")
    assert (
        "- ⚠ sentence 2 ([1], support" in saved and "*Read as: What else does ConfPO do?*" in saved
    )
    assert KEY not in out + saved


def test_a_rewrite_that_names_none_of_the_referred_papers_is_not_used(store):
    # a break-it session with a small model: "summarize the first two" was rewritten as an unrelated
    # question, and the answer was about that; "The answer to this question is:" was used as a question
    with StubServer() as server:
        server.script(Reply("ConfPO selects tokens by the training policy's confidence [1]."))
        server.script(Reply("What is the best way to measure the effectiveness of a new AI model?"))
        server.script(Reply("It avoids overoptimization [1]."))
        out = chat(
            store,
            [
                "What does ConfPO use to pick preference-critical tokens?",
                "What else does it do?",
                "/why",
            ],
            OPENAI_BASE_URL=server.base_url,
            PAPERCHAT_LLM_MODEL="stub-model",
            PAPERCHAT_HISTORY="0",
        )
        bodies = [r["body"] for r in server.requests]
    assert "What else does ConfPO do?" in bodies[2]["messages"][-1]["content"]
    assert "measure the effectiveness" not in bodies[2]["messages"][-1]["content"]
    assert titles(turns(out)["What else does it do?"]) == [CONFPO]
    assert "named none of the referred papers and was not used" in out


def test_a_failed_rewrite_keeps_the_rules_reading_and_auto_falls_back_offline(store):
    # a chat break-it session: in --mode auto a follow-up ended in "error:" when the rewrite request failed
    # (the rules had found the paper), and a server sending an HTML page was not "unreachable"
    with StubServer() as server:
        server.script(Reply("ConfPO selects tokens by the training policy's confidence [1]."))
        server.script(Fault(404))  # the rewrite: an unknown model, say
        server.script(Fault(200, "<html>Bad gateway</html>", content_type="text/html"))
        ran = chat_run(
            store,
            [
                "What does ConfPO use to pick preference-critical tokens?",
                "What else does it do?",
                "/why",
            ],
            OPENAI_BASE_URL=server.base_url,
            PAPERCHAT_LLM_MODEL="stub-model",
            PAPERCHAT_HISTORY="0",
        )
    assert ran.returncode == 0, ran.stderr
    follow = turns(ran.stdout)["What else does it do?"]
    assert titles(follow) == [CONFPO] and "[1]" in follow  # quoted offline from ConfPO's abstract
    assert "answered offline by quoting the abstracts" in ran.stderr
    assert "the LLM could not rewrite the follow-up" in ran.stdout  # /why says so


def test_a_referred_paper_is_sent_alone_to_the_llm_however_weak_the_words(store):
    # a chat break-it session: "summarize the second one" was refused ("nothing retrieved answers the
    # question; the LLM was not asked"), and a rewrite naming the paper widened the sources to four others
    with StubServer() as server:
        server.script(Reply("Summarize ConfPO."))  # the rewrite names the referred paper only
        server.script(Reply("ConfPO picks tokens by confidence [1]."))
        out = chat(store, ["Which papers study preference optimization?"], "--mode", "extractive")
        first = turns(out)["Which papers study preference optimization?"]
        assert titles(first)[0] == CONFPO
        llm = chat(
            store,
            ["summarize the first one"],
            "--continue",
            OPENAI_BASE_URL=server.base_url,
            PAPERCHAT_LLM_MODEL="stub-model",
        )
        bodies = [r["body"] for r in server.requests]
    assert "nothing retrieved answers" not in llm
    sent = bodies[-1]["messages"][-1]["content"]
    assert CONFPO in sent and sent.count("[2]") == 0  # one source: the referred paper
    assert titles(turns(llm)["summarize the first one"]) == [CONFPO]


def test_a_short_placeholder_key_is_not_masked_inside_words(store):
    with StubServer() as server:
        server.script(Reply("ConfPO selects tokens by the training policy's confidence [1]."))
        out = chat(
            store,
            ["What does ConfPO use to pick preference-critical tokens?"],
            OPENAI_API_KEY="k",
            OPENAI_BASE_URL=server.base_url,
            PAPERCHAT_LLM_MODEL="stub-model",
            PAPERCHAT_HISTORY="0",
        )
    assert "selects tokens by" in out and "***" not in out


def test_chat_history_keeps_the_checks_and_can_be_turned_off(store):
    with StubServer(require_key=KEY) as server:
        server.script(Reply("ConfPO improves AlpacaEval 2 by 95% [1]."))
        server.script(Reply("What else does ConfPO do?"))  # the condensed follow-up
        server.script(Reply("ConfPO picks tokens by confidence [1].", finish_reason="length"))
        chat(
            store,
            [
                "What does ConfPO use to pick preference-critical tokens?",
                "And what else does it do?",
            ],
            OPENAI_API_KEY=KEY,
            OPENAI_BASE_URL=server.base_url,
            PAPERCHAT_LLM_MODEL="stub-model",
        )
    listed = run_cli("history", "--json", store=store)
    assert (listed.returncode, listed.stderr) == (0, "")
    stored = json.loads(listed.stdout)
    assert [t["question"] for t in stored] == [
        "What does ConfPO use to pick preference-critical tokens?",
        "And what else does it do?",
    ]
    assert [(s["citations"], s["supported"]) for s in stored[0]["sentences"]] == [([1], False)]
    assert stored[0]["sentences"][0]["missing"] == ["95"]
    # an answer cut at the token limit is marked so (history had no such flag)
    assert [t["incomplete"] for t in stored] == [False, True]
    # With history off, nothing more is stored.
    chat(store, ["What does ConfPO use?"], PAPERCHAT_HISTORY="0")
    again = json.loads(run_cli("history", "--json", store=store).stdout)
    assert len(again) == 2


def test_an_unreachable_llm_in_auto_mode_answers_offline_with_a_note(store):
    ran = chat_run(
        store,
        ["What does ConfPO use to pick preference-critical tokens?"],
        OPENAI_API_KEY=KEY,
        OPENAI_BASE_URL="http://127.0.0.1:9/v1",
        PAPERCHAT_LLM_MODEL="stub-model",
        PAPERCHAT_HISTORY="0",
    )
    answer = turns(ran.stdout)["What does ConfPO use to pick preference-critical tokens?"]
    assert ran.returncode == 0 and titles(answer)[0] == CONFPO and "[1]" in answer
    assert ran.stderr == (
        "note: cannot reach the LLM at http://127.0.0.1:9/v1: connection refused (is the server running, "
        "and is the URL right?); answered offline by quoting the abstracts\n"
    )


def test_a_garbled_history_file_is_named_and_the_chat_goes_on(store):
    (store / "history.sqlite3").write_text("garbage, not a database", encoding="utf-8")
    out = run_cli("history", store=store)
    assert (out.returncode, out.stdout, out.stderr) == (
        1,
        "",
        f"error: the chat history {store / 'history.sqlite3'} cannot be read (file is not a database); move it "
        "aside to start a new one (`chat --no-history` skips it)\n",
    )
    seen = turns(chat(store, ["What does ConfPO use to pick preference-critical tokens?"]))
    assert titles(next(iter(seen.values()))) == [CONFPO]


def test_a_failed_turn_says_why_on_stderr_and_the_transcript_goes_on(store):
    question = "What does ConfPO use to pick preference-critical tokens?"
    out = chat_run(
        store,
        [question, "/papers"],
        PAPERCHAT_MODE="llm",
        OPENAI_API_KEY=KEY,
        OPENAI_BASE_URL="http://127.0.0.1:9/v1",
        PAPERCHAT_LLM_MODEL="stub-model",
        PAPERCHAT_HISTORY="0",
    )
    # the error is on stderr; stdout stays a clean transcript: the question, an empty reply, the next turn
    assert out.returncode == 0
    assert out.stderr == (
        "error: cannot reach the LLM at http://127.0.0.1:9/v1: connection refused (is the server running, "
        "and is the URL right?)\n"
    )
    assert out.stdout.startswith(
        f"> {question}\n\n> /papers\nid              label / title"
    ) and out.stdout.endswith("19 papers\n\n")


def test_a_thing_the_paper_names_keeps_the_follow_up_on_that_paper(store):
    """ "Does AlpacaEval 2 show a gain for it?" names AlpacaEval, which ConfPO's abstract names: a thing of
    the paper, not a paper of its own, so "it" is still ConfPO (it had been read as a new question)."""
    lines = [
        "What does ConfPO use to pick preference-critical tokens?",
        "On AlpacaEval 2, what does it show?",
        "/why",
    ]
    seen = turns(chat(store, lines, PAPERCHAT_HISTORY="0"))
    assert titles(seen[lines[1]]) == [CONFPO]
    assert "AlpacaEval 2 and Arena-Hard" in " ".join(seen[lines[1]].split())
    assert 'follow-up: "it" refers to source [1] of the previous answer' in seen["/why"]


def test_after_an_abstained_follow_up_it_still_means_the_paper_before(store):
    lines = [
        "What does ConfPO use to pick preference-critical tokens?",
        "How many GPUs did it need?",  # the abstract does not say: an abstention with no sources
        "which benchmarks did it use?",
    ]
    seen = turns(chat(store, lines, PAPERCHAT_HISTORY="0"))
    assert seen[lines[1]] == "The indexed abstracts do not contain an answer to this question."
    assert titles(seen[lines[2]]) == [CONFPO] and "AlpacaEval 2" in " ".join(seen[lines[2]].split())


def test_a_key_pasted_into_a_question_reaches_neither_the_llm_nor_the_history(store, tmp_path):
    saved = tmp_path / "t.md"
    question = f"What does ConfPO use to pick tokens, and is {KEY} my key?"
    with StubServer(require_key=KEY) as server:
        server.script(Reply("ConfPO selects tokens by the training policy's confidence [1]."))
        chat(
            store,
            [question, f"/save {saved}", "/why"],
            OPENAI_API_KEY=KEY,
            OPENAI_BASE_URL=server.base_url,
            PAPERCHAT_LLM_MODEL="stub-model",
        )
        sent = json.dumps(server.requests[0]["body"])
    assert KEY not in sent and "is *** my key?" in sent
    assert KEY not in saved.read_text(encoding="utf-8")
    assert KEY.encode() not in (store / "history.sqlite3").read_bytes()


def test_the_no_llm_note_is_for_auto_mode_only(store):
    # with --mode extractive the user chose offline answers: the note had claimed no LLM was configured
    lines = ["What does ConfPO use to pick preference-critical tokens?"]
    chosen = chat_run(store, lines, "--mode", "extractive", PAPERCHAT_HISTORY="0")
    default = chat_run(store, lines, PAPERCHAT_HISTORY="0")
    assert "no LLM configured" not in chosen.stderr
    assert default.stderr.startswith("note: no LLM configured")
    assert chosen.stdout == default.stdout


def test_after_an_unrelated_abstention_it_still_means_the_paper_before(store):
    lines = [
        "What does ConfPO use to pick preference-critical tokens?",
        "What is the boiling point of tungsten?",
        "which benchmarks did it use?",
    ]
    seen = turns(chat(store, lines, PAPERCHAT_HISTORY="0"))
    assert seen[lines[1]] == "The indexed abstracts do not contain an answer to this question."
    assert titles(seen[lines[2]]) == [CONFPO]


def test_comparing_the_paper_before_with_a_named_one_names_each_on_its_own_line(store):
    # "Compare it with CROW" had quoted both papers run together, unnamed, where `ask` names each
    lines = ["What does ConfPO use to pick preference-critical tokens?", "Compare it with CROW."]
    seen = turns(chat(store, lines, PAPERCHAT_HISTORY="0"))
    answer = seen[lines[1]].split("\n\nSources:")[0]
    assert titles(seen[lines[1]]) == [CONFPO, CROW]
    assert answer.startswith("ConfPO: Exploiting Policy Model Confidence")  # named, first line
    assert "\nCROW: Eliminating Backdoors" in answer  # the second paper starts a line of its own


def test_chat_papers_shows_the_first_fifty_of_a_conference():
    # a break-it session: /papers printed all 2,740 rows of a conference store (326 KB)
    from paperchat.chat.session import Reply
    from paperchat.cli.terminal import render_reply
    from paperchat.ingest.records import PaperRecord

    papers = [
        PaperRecord(f"p{i:04d}", "x", title=f"Paper {i}", source_path="c.jsonl", source_index=i)
        for i in range(1, 2741)
    ]
    text = render_reply(Reply(papers=papers))
    assert "p0050" in text and "p0051" not in text
    assert text.endswith(
        "… and 2,690 more (`paperchat papers` lists them all; FILTERS narrow them)"
    )


def test_it_after_an_llm_answer_that_cited_nothing_is_the_paper_it_was_given(store):
    # an LLM break-it session: a small model's answer cited nothing, and "does it need a reward model?"
    # then had "nothing to refer to" and searched reward-model papers
    with StubServer() as server:
        server.script(Reply("ConfPO uses the policy's confidence."))  # no citation
        server.script(Reply("Does ConfPO need a reward model?"))  # the condensed follow-up
        server.script(Reply("No, it needs no auxiliary model [1]."))
        out = chat(
            store,
            [
                "What does ConfPO use to pick preference-critical tokens?",
                "does it need a reward model?",
                "/why",
            ],
            OPENAI_BASE_URL=server.base_url,
            PAPERCHAT_LLM_MODEL="stub-model",
            PAPERCHAT_HISTORY="0",
        )
    assert titles(turns(out)["does it need a reward model?"]) == [CONFPO]
    assert (
        f'follow-up: "it" refers to source [1] of the previous answer ({CONFPO.split(":")[0]}'
        in out
    )


def test_who_wrote_it_in_an_llm_chat_is_answered_from_the_stored_metadata(store):
    # a chat break-it session: "who wrote it?" read as "who wrote ConfPO?" went to the LLM (a small model
    # invented a year), while `ask "Who wrote ConfPO?"` answers from the metadata in every mode
    with StubServer() as server:
        server.script(Reply("ConfPO picks preference-critical tokens by confidence [1]."))
        server.script(Reply("who wrote ConfPO?"), Reply("It was written in 2018 by Google [1]."))
        result = chat_run(
            store,
            ["What does ConfPO use to pick tokens?", "who wrote it?"],
            "--mode",
            "llm",
            OPENAI_BASE_URL=server.base_url,
            PAPERCHAT_LLM_MODEL="stub-model",
        )
        answers = [r for r in server.requests if "Sources" in str(r["body"]["messages"][-1])]
    assert result.returncode == 0, result.stderr
    authors = " ".join(
        turns(result.stdout)["who wrote it?"].split()
    )  # the terminal's wrapping undone
    assert authors.startswith(f'"{CONFPO}') and "Hee Suk Yoon" in authors and "2018" not in authors
    assert (
        "answered from the stored metadata (titles, authors, venues), not by the LLM"
        in " ".join((result.stdout + result.stderr).split())
    )
    assert len(answers) == 1  # the first question's answer only


def test_an_ordinal_after_an_llm_answer_that_cited_nothing_counts_the_papers_it_was_given(store):
    # a local-LLM session: a small model listed two papers without markers, and "what does the second one
    # propose?" was refused ("No earlier answer showed papers"), while "it" said "The last answer cited 3"
    with StubServer() as server:
        server.script(Reply(f"1. {CROW}\n2. {BACKDOOR}"))  # no citation
        server.script(Reply(f"What does {BACKDOOR} propose?"))  # the condensed follow-up
        server.script(Reply("It studies backdoor attacks on token selection [1]."))
        out = chat(
            store,
            ["Which papers study backdoor attacks?", "what does the second one propose?", "/why"],
            "--top-k",
            "2",
            OPENAI_BASE_URL=server.base_url,
            PAPERCHAT_LLM_MODEL="stub-model",
            PAPERCHAT_HISTORY="0",
        )
    # the second of the papers it was given, in the prompt's order (the README's rule), which the model's own
    # numbering may not follow
    prompt = server.requests[0]["body"]["messages"][-1]["content"]
    second = re.findall(r"^\[2\] (?:Title: )?(.+)$", prompt, flags=re.M)
    assert "No earlier answer showed papers" not in out
    assert titles(turns(out)["what does the second one propose?"]) == second
