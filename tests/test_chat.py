"""The chat REPL as a user runs it: piped stdin in-process (``main(args, env)``), a real process on a
pseudo-terminal for the keys, offline."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import sys
import time

import pytest
from cli_env import Ran, run_cli
from conftest import ROOT, SEED_000, sigint_default

from paperchat.chat.followup import BOOST, RESTRICT, STANDALONE, UnresolvedReference, resolve
from paperchat.core.contract import Source

LIGHTGTS_Q = "Which paper proposes a lightweight general time series forecasting model built around periodicity?"
FOLLOW_UP = "Which two techniques does it introduce?"
CONFPO_Q = "What does ConfPO use to pick preference-critical tokens?"
LIGHTGTS_SOURCE = "[1] LightGTS: A Lightweight General Time Series Forecasting Model — p-34c64e0fe1f8 — 000_215d12c2ee2986f8.txt #14  https://openreview.net/forum?id=Z5FJsp1U3Z"
CONFPO_SOURCE = "[1] ConfPO: Exploiting Policy Model Confidence for Critical Token Selection in Preference Optimization — p-abe9274a3783 — 000_215d12c2ee2986f8.txt #3  https://openreview.net/forum?id=ZG7bkp6ScT"


#: ``paperchat`` whose chat waits 1.5 s before answering each question, so a Ctrl-C can land during an answer
#: (a subclass in the test's own process; production code has no hook for it)
SLOW_ANSWERS = """
import sys, time
from paperchat.chat import session
from paperchat.cli import main

class SlowAnswers(session.ChatSession):
    def handle(self, line, *args, **kwargs):
        if not line.startswith("/"):
            time.sleep(1.5)
        return super().handle(line, *args, **kwargs)

session.ChatSession = SlowAnswers
sys.exit(main())
"""


@pytest.fixture(scope="module")
def chat_store(bundled_store, tmp_path_factory):
    """A private copy of the bundled store, so this module's chat history is its own."""
    folder = tmp_path_factory.mktemp("chat") / "store"
    shutil.copytree(bundled_store, folder)
    return folder


def _env(store, **extra) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "PAPERCHAT_MODE", "PAPERCHAT_HISTORY")
    }
    env.update(
        {"PAPERCHAT_STORE": str(store), "PAPERCHAT_CONFIG": os.environ["PAPERCHAT_CONFIG"], **extra}
    )
    return env


def run_chat(store, lines: list[str], *args: str, **extra_env) -> Ran:
    """``paperchat chat ARGS`` in-process (``main(args, env)``) with ``lines`` piped in."""
    return run_cli("chat", *args, input="\n".join(lines) + "\n", store=store, env=extra_env)


def blocks(stdout: str) -> list[tuple[str, str]]:
    """Piped output as (input line, output) pairs: every input is echoed as ``> line``."""
    out: list[tuple[str, str]] = []
    for line in stdout.splitlines():
        if line.startswith("> "):
            out.append((line[2:], ""))
        elif out:
            out[-1] = (out[-1][0], out[-1][1] + line + "\n")
    return [(q, a.strip("\n")) for q, a in out]


def source_lines(text: str) -> list[str]:
    return [
        ln.strip().lstrip("- ").strip()
        for ln in text.splitlines()
        if re.match(r"^\s*(?:- )?\[\d+\] ", ln)
    ]


def answer_markers(text: str) -> list[str]:
    body = text.split("Sources:")[0]
    return re.findall(r"\[\d+\]", body)


def test_followup_rules_without_a_model():
    ctx = [
        Source(1, "p-1", "", "LightGTS", "", "a.txt", 1, "p-1:0:x", ""),
        Source(2, "p-2", "", "CROW", "", "a.txt", 2, "p-2:0:x", ""),
    ]
    r = resolve(FOLLOW_UP, ctx)
    assert (r.kind, r.target_ids, r.query) == (
        RESTRICT,
        ["p-1"],
        "Which two techniques does LightGTS introduce?",
    )
    assert resolve("What dataset does the second one use?", ctx).target_ids == ["p-2"]
    assert resolve("How do they differ?", ctx).target_ids == ["p-1", "p-2"]
    # a chat break-it session: these were new questions over all papers, answered from unrelated ones
    assert resolve("which one is faster?", ctx).query == "which of LightGTS and CROW is faster?"
    # a reading-group session: "which of these ...?" had been a new search over all papers
    assert resolve("which of these is the most recent?", ctx).query == (
        "which of LightGTS and CROW is the most recent?"
    )
    assert (
        resolve("which of those papers uses RL?", ctx).query
        == "which of LightGTS and CROW uses RL?"
    )
    # "its" beside a description of another paper is that paper (a reading-group session: "going back to
    # the chain-of-thought paper, what are its three findings?" had been asked of the last answer's paper)
    texts = {"p-1": "We pretrain a lightweight time series model.", "p-2": "We remove backdoors."}
    back = resolve("going back to the chain-of-thought paper, what are its findings?", ctx, texts)
    assert back.kind == STANDALONE and back.query.startswith("going back to the chain-of-thought")
    described = resolve("does the time series paper need labels? is it pretrained?", ctx, texts)
    assert (described.kind, described.target_ids) == (RESTRICT, ["p-1"])
    for plural in (
        "do both use a draft model?",
        "how do the two differ?",
        "which of the two is newer?",
    ):
        assert (resolve(plural, ctx).kind, resolve(plural, ctx).target_ids) == (
            RESTRICT,
            ["p-1", "p-2"],
        )
    assert resolve("Which papers use both vision and language?", ctx).kind == STANDALONE
    assert resolve("How does it compare to ConfPO?", ctx).kind == BOOST
    for standalone in (
        CONFPO_Q,
        "Which papers study pseudo-labeling?",
        "How is fairness measured in job scheduling?",
        "Which paper proposes a periodic model and what does it achieve?",
        "Is it possible to train GNNs without labels?",
        "Where does SENSEI get its interestingness reward signal from?",
    ):
        assert resolve(standalone, ctx).kind == STANDALONE, standalone
    assert resolve(FOLLOW_UP, []).kind == STANDALONE
    with pytest.raises(UnresolvedReference):
        resolve("What does the fifth one do?", ctx)
    # past "tenth", an ordinal was no reference at all and got the plain abstention (a break-it session)
    for beyond in ("What does the 99th one propose?", "What does the eleventh one propose?"):
        with pytest.raises(UnresolvedReference) as err:
            resolve(beyond, ctx)
        assert str(err.value).endswith(
            f"the last list shows {len(ctx)} papers; use a number from 1 to {len(ctx)}"
        )


@pytest.mark.parametrize(
    "question, targets, query",
    [
        ("compare the first and the second", ["p-1", "p-2"], "compare LightGTS and CROW"),
        (
            "How do the first and third ones differ?",
            ["p-1", "p-3"],
            "How do LightGTS and KEA differ?",
        ),
        ("compare the first two", ["p-1", "p-2"], "compare LightGTS and CROW"),
        ("What do the last two report?", ["p-2", "p-3"], "What do CROW and KEA report?"),
        ("How does [1] compare with [3]?", ["p-1", "p-3"], "How does LightGTS compare with KEA?"),
        ("What does [2] say about robustness?", ["p-2"], "What does CROW say about robustness?"),
        # two ordinals apart, each in place (an area chair's follow-up had been read as the second alone)
        (
            "how does the second one differ from the first?",
            ["p-2", "p-1"],
            "how does CROW differ from LightGTS?",
        ),
        ("Is the last one faster than the first?", ["p-3", "p-1"], "Is KEA faster than LightGTS?"),
        # "the first one" refers whatever verb follows ("save" had left the question unresolved)
        (
            "How much memory does the first one save?",
            ["p-1"],
            "How much memory does LightGTS save?",
        ),
    ],
)
def test_a_followup_may_point_at_several_earlier_papers(question, targets, query):
    # before, only the first ordinal was read: "compare LightGTS and the second", one paper cited
    ctx = [
        Source(i, f"p-{i}", "", label, "", "a.txt", i, f"p-{i}:0:x", "")
        for i, label in enumerate(["LightGTS", "CROW", "KEA"], start=1)
    ]
    r = resolve(question, ctx)
    assert (r.kind, r.target_ids, r.query) == (RESTRICT, targets, query)
    with pytest.raises(UnresolvedReference):
        resolve("compare the second and the fifth", ctx)


@pytest.mark.parametrize(
    ("question", "query"),
    [
        ("compare it with the first", "compare CROW with LightGTS"),
        ("how does it compare to the first one?", "how does CROW compare to LightGTS?"),
        ("compare this paper with the third one", "compare CROW with KEA"),
        ("does its method beat the first one?", "does CROW's method beat LightGTS?"),
    ],
)
def test_it_beside_an_ordinal_is_the_paper_just_discussed(question, query):
    # a break-it session: after "the second one", "compare it with the first" was "compare RSD with RSD"
    ctx = [
        Source(i, f"p-{i}", "", label, "", "a.txt", i, f"p-{i}:0:x", "")
        for i, label in enumerate(["LightGTS", "CROW", "KEA"], start=1)
    ]
    r = resolve(question, ctx, current=[ctx[1]])
    ordinal = 3 if "third" in question else 1
    assert (r.kind, r.target_ids, r.query) == (RESTRICT, ["p-2", f"p-{ordinal}"], query)
    assert "to the paper the answer before was about (CROW)" in r.note
    # the paper just discussed is the ordinal's own: asked back (a methods reader's chat had compared
    # SpecPrefill with itself)
    with pytest.raises(UnresolvedReference, match='"it" and "the first" are both LightGTS'):
        resolve("compare it with the first", ctx, current=[ctx[0]])


def test_them_after_an_answer_about_one_paper_of_the_list_is_the_list(bundled_engine):
    # a newcomer's conversation: "compare them" had been read as "compare CROW" and cited CROW alone
    from paperchat.chat.session import ChatSession

    chat = ChatSession(bundled_engine)
    listed = chat.handle("Which papers study backdoor attacks?").answer
    assert [s.paper_id for s in listed.sources] == ["p-3c67db56192f", "p-f951bc7f7256"]
    assert [s.paper_id for s in chat.handle("what about the second one?").answer.sources] == [
        "p-f951bc7f7256"
    ]
    compared = chat.handle("compare them").answer
    assert chat.last.resolution.target_ids == ["p-3c67db56192f", "p-f951bc7f7256"]
    # each referred paper is quoted, by its own citation
    assert sorted(s.paper_id for s in compared.sources) == ["p-3c67db56192f", "p-f951bc7f7256"]
    assert set(answer_markers(compared.answer)) == {"[1]", "[2]"}


def test_whether_someone_wrote_the_paper_discussed_is_answered_from_the_metadata(bundled_engine):
    # a break-it session: "did Yoshua Bengio write it?" was answered from the abstract, which abstained
    from paperchat.chat.session import ChatSession

    chat = ChatSession(bundled_engine)
    chat.handle("What does ConfPO use to pick preference-critical tokens?")
    for question, verdict in [
        ("did Hee Suk Yoon write it?", "one of its authors"),
        ("was it written by Raman Arora?", "not among its authors"),
    ]:
        answer = chat.handle(question).answer
        assert answer.answer.startswith(
            '"ConfPO: Exploiting Policy Model Confidence'
        ) and answer.answer.endswith("Chang D. Yoo [1].")
        assert [s.paper_id for s in answer.sources] == ["p-abe9274a3783"]
        assert answer.notes[-1].endswith(verdict)
        assert "answered from the stored metadata" in chat.last.resolution.note


def test_a_detail_the_referred_papers_do_not_give_is_declined_not_searched_for(bundled_engine):
    # a reader's "what GPU did they use?" after a two-paper answer had been answered as a new question,
    # from two papers about GPUs that had nothing to do with the conversation
    from paperchat.chat.session import ChatSession

    chat = ChatSession(bundled_engine)
    chat.handle("Which papers study backdoor attacks?")
    answer = chat.handle("what GPU did they use?").answer
    assert answer.abstained and answer.sources == []
    assert chat.last.resolution.target_ids == ["p-3c67db56192f", "p-f951bc7f7256"]
    assert "answered as a new one" not in chat.last.resolution.note


def test_piped_conversation_followup_topic_switch_commands_and_save(chat_store, tmp_path):
    saved = tmp_path / "chat.md"
    lines = [
        LIGHTGTS_Q,
        FOLLOW_UP,
        "/why",
        CONFPO_Q,
        "/show 1",
        "/summarize 1",
        "/bogus",
        "x" * 2500,
        "/sources",
        f"/save {saved}",
        "/quit",
        "never answered",
    ]
    out = run_chat(chat_store, lines)
    assert out.returncode == 0, out.stderr
    got = dict(blocks(out.stdout))
    assert "never answered" not in got
    # the follow-up is read against the LightGTS answer and cites the LightGTS abstract only
    assert LIGHTGTS_SOURCE in got[LIGHTGTS_Q]
    assert source_lines(got[FOLLOW_UP]) == [LIGHTGTS_SOURCE]
    assert answer_markers(got[FOLLOW_UP]) and set(answer_markers(got[FOLLOW_UP])) == {"[1]"}
    assert (
        "Which two techniques does LightGTS introduce?" in got["/why"]
        and "restricted" in got["/why"]
    )
    assert "p-34c64e0fe1f8" in got["/why"] and "score" in got["/why"]
    # a new, self-contained question is not dragged back to LightGTS
    assert source_lines(got[CONFPO_Q]) == [CONFPO_SOURCE]
    assert "LightGTS" not in got[CONFPO_Q]
    # /show 1 prints the whole ConfPO abstract
    paragraphs = (ROOT / "data" / SEED_000).read_text(encoding="utf-8").split("\n\n")
    abstract = " ".join(paragraphs[3].split())
    assert abstract in " ".join(got["/show 1"].split())
    # /summarize 1: sentences of that abstract, each cited [1]
    summary = got["/summarize 1"].split("Sources:")[0]
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", " ".join(summary.split())) if s]
    assert len(sentences) >= 2 and all(s.rstrip(".").endswith("[1]") for s in sentences)
    assert source_lines(got["/summarize 1"]) == [CONFPO_SOURCE]
    assert "Unknown command /bogus" in got["/bogus"] and "/help" in got["/bogus"]
    # a turn that fails says so on stderr (stdout stays a clean transcript) and the chat goes on
    assert got["x" * 200 + "… (2500 characters)"] == ""
    assert (
        "error: the question is 2500 characters long; the limit is 2000 (the question was not answered)"
        in out.stderr.splitlines()
    )
    assert source_lines(got["/sources"]) == [CONFPO_SOURCE]
    # the transcript holds what was shown: same questions, same markers, same source lines
    md = saved.read_text(encoding="utf-8")
    sections = re.split(r"^## \d+\. ", md, flags=re.M)[1:]
    shown = [
        (q, a)
        for q, a in blocks(out.stdout)
        if q in (LIGHTGTS_Q, FOLLOW_UP, CONFPO_Q, "/summarize 1")
    ]
    assert [s.splitlines()[0] for s in sections] == [q for q, _ in shown]
    for section, (_q, answer) in zip(sections, shown):
        assert answer_markers(section) == answer_markers(answer)
        assert source_lines(section.split("*Read as")[0]) == source_lines(answer)
        assert " ".join(answer.split("Sources:")[0].split()) in " ".join(section.split())


def test_history_search_json_and_continue(bundled_store, tmp_path):
    chat_store = (
        tmp_path / "store"
    )  # its own store and history: this test does not lean on another's turns
    shutil.copytree(bundled_store, chat_store)
    assert run_chat(chat_store, [LIGHTGTS_Q, FOLLOW_UP, CONFPO_Q, "/summarize 1"]).returncode == 0
    out = run_cli("history", "-q", "LightGTS", store=chat_store)
    assert out.returncode == 0, out.stderr
    assert (
        FOLLOW_UP in out.stdout
        and "read as: Which two techniques does LightGTS introduce?" in out.stdout
    )
    out = run_cli("history", "--json", "-q", "does it introduce", store=chat_store)
    rows = json.loads(out.stdout)
    assert [r["question"] for r in rows] == [FOLLOW_UP]
    row = rows[0]
    assert (
        row["mode"] == "extractive"
        and row["model"] is None
        and row["conversation_id"].startswith("c-")
    )
    assert [s["paper_id"] for s in row["sources"]] == ["p-34c64e0fe1f8"]
    assert (
        row["retrieved"][0]["paper_id"] == "p-34c64e0fe1f8" and "first_output_s" in row["timings"]
    )
    # --continue: the last turn (the ConfPO summary) is the context of "it"
    out = run_chat(chat_store, ["Which alignment benchmarks was it evaluated on?"], "--continue")
    assert out.returncode == 0, out.stderr
    assert "continuing conversation " + row["conversation_id"] in out.stderr
    assert source_lines(blocks(out.stdout)[0][1]) == [CONFPO_SOURCE]
    # after /reset, --continue starts afresh: it does not bring back the forgotten conversation
    assert run_chat(chat_store, ["/reset"], "--continue").returncode == 0
    out = run_chat(chat_store, ["/history"], "--continue")
    assert "the last conversation was reset (/reset); starting a new one" in out.stderr
    assert "continuing conversation" not in out.stderr
    # --no-history logs nothing
    before = len(json.loads(run_cli("history", "--json", "-n", "1000", store=chat_store).stdout))
    out = run_chat(chat_store, [CONFPO_Q], "--no-history")
    assert out.returncode == 0 and CONFPO_SOURCE in out.stdout
    after = len(json.loads(run_cli("history", "--json", "-n", "1000", store=chat_store).stdout))
    assert after == before


def test_terminal_keys_ctrl_c_and_ctrl_d(chat_store):
    pexpect = pytest.importorskip("pexpect")
    pytest.importorskip("prompt_toolkit")
    env = _env(chat_store, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm-256color")
    child = pexpect.spawn(
        sys.executable,
        ["-c", SLOW_ANSWERS, "chat"],
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(40, 120),
        preexec_fn=sigint_default,
    )
    try:
        child.expect("Ctrl-D to leave")
        child.expect_exact("paperchat>")
        child.sendline(LIGHTGTS_Q)
        child.expect_exact("Model — p-34c64e0fe1f8")
        child.expect_exact("paperchat>")
        # Ctrl-C at the prompt clears the line
        child.send("xyzzy plugh")
        time.sleep(0.3)
        child.sendintr()
        time.sleep(0.3)
        child.sendline(FOLLOW_UP)
        child.expect_exact("Model — p-34c64e0fe1f8")
        child.expect_exact("paperchat>")
        # Ctrl-C during an answer cancels it; the conversation goes on without it
        child.sendline("Which alignment benchmarks was ConfPO evaluated on?")
        time.sleep(0.8)
        child.sendintr()
        child.expect("cancelled")
        child.expect_exact("paperchat>")
        child.sendline("/sources")
        child.expect_exact("Model — p-34c64e0fe1f8")
        child.expect_exact("paperchat>")
        child.sendline(CONFPO_Q)
        child.expect_exact("Optimization — p-abe9274a3783")
        child.expect_exact("paperchat>")
        child.sendeof()  # Ctrl-D
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0, child.before
    with sqlite3.connect(chat_store / "history.sqlite3") as db:
        cid = db.execute("SELECT conversation_id FROM turns ORDER BY id DESC LIMIT 1").fetchone()[0]
        turns = db.execute(
            "SELECT turn, question, answer, sources FROM turns WHERE conversation_id = ? ORDER BY id",
            (cid,),
        ).fetchall()
    assert [t[1] for t in turns] == [LIGHTGTS_Q, FOLLOW_UP, CONFPO_Q]
    assert [t[0] for t in turns] == [1, 2, 3]
    assert all(t[2] and json.loads(t[3]) for t in turns)
    assert "xyzzy" not in (chat_store / "chat_history.txt").read_text(encoding="utf-8")
    assert FOLLOW_UP in (chat_store / "chat_history.txt").read_text(encoding="utf-8")


def test_a_follow_up_citing_the_lists_papers_in_another_order_is_the_list_then():
    """A break-it session: after a list, "what GPU did they use?" cited the ten papers again in another order,
    and "summarize the fourth one" then summarized the fourth of the first list, not the [4] on screen."""
    from types import SimpleNamespace

    from paperchat.chat.session import ChatSession

    def turn(ids, followup=True, question="compare the first and the third"):
        sources = [SimpleNamespace(paper_id=i) for i in ids]
        resolution = SimpleNamespace(is_followup=followup)
        return SimpleNamespace(sources=sources, resolution=resolution, question=question)

    def listed(*turns):
        return ChatSession.list_turn.fget(SimpleNamespace(turns=list(turns)))

    first = turn(["a", "b", "c", "d"], followup=False)
    in_order, one, reordered = turn(["a", "c"]), turn(["d"]), turn(["c", "a", "d"])
    assert listed(first, in_order) is first  # "compare the first and the third": the list stays
    assert listed(first, one) is first  # "summarize the fourth one"
    assert listed(first, turn(["a", "b"], question="which of them use diffusion?")) is first
    assert listed(first, reordered) is reordered  # its own numbers are what is on screen
    assert listed(first, turn(["a", "e"])) is not first  # a paper from outside the list
    # a domain scientist's: "which of them use diffusion?" citing the 1st, 3rd and 4th as [1] [2] [3]
    picked = turn(["a", "c", "d"], question="which of them use diffusion?")
    assert listed(first, picked) is picked  # "the second one" is then c, shown [2]


def test_which_of_these_selects_by_the_words_after_its_verb_and_a_ranking_selects_nothing(
    bundled_engine,
):
    from paperchat.engine.selections import select

    ids = ["p-abe9274a3783", "p-f951bc7f7256"]  # ConfPO, CROW
    texts = {pid: r.full_text for pid, r in bundled_engine.store.papers(ids).items()}
    lexicon = bundled_engine.store.bm25()
    chosen = select("which of these remove backdoors?", ids, texts, lexicon)
    assert (chosen.kept, chosen.words) == (["p-f951bc7f7256"], "backdoors")
    assert select("which of them study quantum annealing?", ids, texts, lexicon).kept == []
    # a ranking compares the papers, which all answer; "is" asks something else
    assert select("which of these achieves the highest accuracy?", ids, texts, lexicon) is None
    assert select("which of these is the most recent?", ids, texts, lexicon) is None
    # a passive selects as an active verb: an area chair's "which of these are evaluated on Atari?" had
    # quoted every paper of the list, where "which of these use Atari?" said none writes it
    chosen = select("which of these are evaluated on Atari?", ids, texts, lexicon)
    assert (chosen.kept, chosen.words) == ([], "Atari")
    chosen = select("which of these are focused on backdoors?", ids, texts, lexicon)
    assert chosen.kept == ["p-f951bc7f7256"]
