"""Chat follow-ups that ask for more papers than the answer showed: more of a list, papers like one paper,
papers by the same authors (a reading-group session had "any others like that?" declined and "any others
by the same authors?" answered about a paper on social science methodology)."""

from __future__ import annotations

import json

import pytest
from conftest import ICML_JSONL

from paperchat.chat.more import MoreAsk, more_ask

BANDITSPEC = "ghkWIlliZ8"
RSD = "AVeskAAETB"  # Reward-Guided Speculative Decoding
COSD = "XCBYIfu9Fs"  # Speculate, then Collaborate (CoSD)


@pytest.mark.parametrize(
    "question, expected",
    [
        ("any others like that?", MoreAsk("topic")),
        ("any more?", MoreAsk("topic")),
        ("show me more", MoreAsk("topic")),
        ("more on this topic", MoreAsk("topic")),
        ("more like the second one", MoreAsk("paper", (2,))),
        ("papers similar to [3]", MoreAsk("paper", (3,))),
        ("similar papers to the last one", MoreAsk("paper", (-1,))),
        ("anything similar?", MoreAsk("paper")),
        ("any others by the same authors?", MoreAsk("authors")),
        ("what else have they published?", MoreAsk("authors")),
        ("same authors?", MoreAsk("authors")),
        ("other papers by the authors of the first one", MoreAsk("authors", (1,))),
        # a topic of its own, or a question about the paper: not a request for more papers
        ("more like the diffusion ones", None),
        ("more details on the second one", None),
        ("what are other methods for pruning?", None),
    ],
)
def test_which_questions_ask_for_more_papers(question, expected):
    assert more_ask(question) == expected


def _authors() -> dict[str, list[str]]:
    with open(ICML_JSONL, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return {r["id"]: r["authors"] for r in rows}


def test_more_papers_in_a_chat_at_conference_scale(icml_engine):
    from paperchat.chat.session import ChatSession

    chat = ChatSession(icml_engine, mode="extractive")
    listed = chat.handle("Which papers study speculative decoding?").answer.sources
    first = {s.paper_id for s in listed}
    assert BANDITSPEC in first and RSD in first
    # more of the list: none of the ten again, and a speculative-decoding paper the list missed
    more = chat.handle("any others like that?")
    ids = [s.paper_id for s in more.answer.sources]
    assert ids and not first & set(ids) and COSD in ids
    assert any("shown before left out" in line for line in more.stderr)
    # after one paper, papers like it: not that paper, the speculative-decoding papers first
    chat = ChatSession(icml_engine, mode="extractive")
    chat.handle("What does BanditSpec propose?")
    like = chat.handle("any others like that?").answer
    ids = [s.paper_id for s in like.sources]
    assert len(ids) == 5 and BANDITSPEC not in ids and RSD in ids
    assert "Speculative Decoding" in like.answer.splitlines()[0]
    # the same authors, from the stored metadata: every stored paper sharing an author with RSD
    assert chat.handle("who wrote the first one?").answer.sources[0].paper_id == RSD
    same = chat.handle("any others by the same authors?").answer
    authors = _authors()
    expected = {p for p, names in authors.items() if p != RSD and set(names) & set(authors[RSD])}
    assert expected and {s.paper_id for s in same.sources} == expected
    assert (
        '"Moirai-MoE: Empowering Time Series Foundation Models with Sparse Mixture of Experts" is by Junnan Li'
        in same.answer
    )


def test_more_papers_needs_papers_shown(bundled_engine):
    from paperchat.chat.session import ChatSession

    chat = ChatSession(bundled_engine, mode="extractive")
    listed = chat.handle("Which papers are about graphs?").answer.sources
    assert len(listed) >= 3
    reply = chat.handle("more like the ninth one")
    assert reply.answer is None and reply.text.startswith(
        "Cannot tell which paper you mean: the last list shows"
    )
    reply = chat.handle("any others by the same authors?")
    assert reply.text.startswith(f"Whose authors? The last answer cited {len(listed)} papers")


@pytest.mark.parametrize(
    "reply, cited, question",
    [
        ("numbers?", 1, "What results does it report?"),
        ("tl;dr", 1, "Summarize it."),
        ("eli5", 2, "Summarize both."),
        ("datasets used?", 2, "What datasets do they use?"),
        ("whats the speedup", 1, "What speedup does it report?"),
        ("who wrote that", 1, "Who wrote it?"),
        ("any limitations?", 1, "What are its limitations?"),
        ("which is better", 2, "Which one is better?"),
        # a notebook session: after DOLPHIN's answer, a new search of three unrelated papers
        ("how many benchmarks?", 1, "How many benchmarks does it use?"),
        ("how many params?", 2, "How many parameters do they have?"),
        ("which is better", 1, None),
        ("numbers?", 0, None),  # nothing cited before: a new question
        ("how fast is it", 1, None),  # a reference of its own: the follow-up rules read it
        ("what is grpo", 1, None),
        ("why", 1, None),
    ],
)
def test_terse_replies_spelled_out_as_questions_about_the_answer(reply, cited, question):
    from paperchat.chat.ellipsis import spelled_out

    assert spelled_out(reply, cited) == question


def test_terse_replies_ask_about_the_answers_paper(bundled_engine):
    from paperchat.chat.session import ChatSession

    chat = ChatSession(bundled_engine, mode="extractive")
    first = chat.handle("What does ConfPO use to pick preference-critical tokens?").answer
    confpo = first.sources[0].paper_id
    numbers = chat.handle("numbers?").answer
    assert [s.paper_id for s in numbers.sources] == [confpo]
    assert chat.turns[-1].question == "What results does it report?"
    who = chat.handle("who wrote that").answer
    assert [s.paper_id for s in who.sources] == [confpo] and who.answer.startswith('"ConfPO')
    # after a list, which paper is asked back
    listed = chat.handle("Which papers are about graphs?").answer.sources
    reply = chat.handle("numbers?")
    assert reply.answer is None
    assert reply.text == (
        f"Which paper do you mean? The last answer cited {len(listed)} papers; ask e.g. "
        '"What results does the first one report?" (or name the paper).'
    )
    assert chat.handle("help").text.startswith("Ask a question about the papers")
