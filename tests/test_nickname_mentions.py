"""How a hurried comparison mentions its papers (issue 17, fourteenth round, general-p).

"... vs the polytope one" points at a paper by a nickname of one word; "the paper showing PPO and GRPO are
one estimator" is one description, both names in it; "the text/audio gen paper that ..." is one
description, not two; and "GraphX, the paper that prunes edges ..., and the one that ..." lists three
papers when the set-off clause does not find GraphX's paper. Questions written for these tests (none
is in an eval set); pure functions, and a stand-in retriever for the set-off clause.
"""

from __future__ import annotations

import pytest

from paperchat.answer.mentions import split_mentions
from paperchat.answer.subjects import complete_hits
from paperchat.retrieve.hybrid import Hit


def _mentions(question: str) -> list[tuple[str | None, str]]:
    return [(m.name, m.text) for m in split_mentions(question)]


def test_a_nickname_of_one_word_is_a_described_paper():
    question = (
        "Sparse attention for long inputs: the sliding-window one vs the routing one — which is "
        "cheaper to serve?"
    )
    assert _mentions(question) == [(None, "the sliding-window one"), (None, "the routing one")]


@pytest.mark.parametrize(
    "question",
    [
        # a baseline, not a paper: "as opposed to the zero-shot one"
        "For the ICL study, how much higher was accuracy vs the random baseline, as opposed to the "
        "zero-shot one?",
        # a choice between papers, not a nickname
        "Of FlashMask and SplitAttn, is the other one cheaper?",
    ],
)
def test_a_baseline_or_a_choice_is_no_nickname(question):
    assert all(name is not None or "one" not in text for name, text in _mentions(question))


def test_names_joined_inside_a_description_are_part_of_it():
    question = (
        "the paper showing PPO and GRPO are one policy-gradient estimator vs the one that weights "
        "rollouts by verifier scores: which is easier to add?"
    )
    assert _mentions(question) == [
        (None, "the paper showing PPO and GRPO are one policy-gradient estimator"),
        (None, "the one that weights rollouts by verifier scores"),
    ]


def test_a_pointer_inside_a_description_is_part_of_it():
    question = (
        "memory: FooNet vs the text/audio gen paper that shares layers across denoising steps, how "
        "does each save memory?"
    )
    assert _mentions(question) == [
        ("FooNet", "FooNet"),
        (None, "the text/audio gen paper that shares layers across denoising steps"),
    ]


_QUESTION = (
    "GraphX, the paper that prunes edges by curvature, and the one that rewires graphs with "
    "diffusion: how do they differ?"
)
_TEXTS = {
    "gx": "GraphX: message passing at scale. We present GraphX, a sampler for large graphs.",
    "curv": "We prune edges whose Ricci curvature is most negative, curing over-squashing.",
    "diff": "We rewire graphs with a diffusion model over adjacency matrices.",
}


def _hit(pid: str, score: float) -> Hit:
    return Hit(pid, f"{pid}#0", score, _TEXTS[pid], {})


def _complete(clause_finds: list[str]) -> list[tuple[str, str]]:
    """complete_hits on :data:`_QUESTION`, where searching the set-off clause finds ``clause_finds``."""

    def retrieve(query: str, k: int) -> list[Hit]:
        if "curvature" in query and "GraphX" not in query:
            return [_hit(pid, 1.0 - i / 10) for i, pid in enumerate(clause_finds)]
        if "diffusion" in query:
            return [_hit("diff", 1.0)]
        return [_hit("gx", 1.0)]

    def read_papers(ids):
        return {pid: type("R", (), {"full_text": _TEXTS[pid]})() for pid in ids}

    hits = complete_hits(_QUESTION, [_hit("gx", 1.0)], retrieve, read_papers, 5)
    return [(h.paper_id, h.mention) for h in hits]


def test_a_set_off_clause_that_finds_another_paper_is_a_paper_of_its_own():
    assert _complete(["curv", "diff"]) == [
        ("gx", "GraphX"),
        ("curv", "the paper that prunes edges by curvature"),
        ("diff", "the one that rewires graphs with diffusion"),
    ]


def test_a_set_off_clause_that_finds_the_named_paper_describes_it():
    assert _complete(["gx", "curv"]) == [
        ("gx", "GraphX, the paper that prunes edges by curvature"),
        ("diff", "the one that rewires graphs with diffusion"),
    ]
