"""The sentences that say how a paper's method works, for "How does X work?" questions, and the one that names it.

Abstracts make a few moves in a fixed order (Swales 1990, "create a research space"; Teufel & Moens
2002, argumentative zoning): background, the gap, the proposal ("We introduce X, ..."), how X works
("Specifically, we first ...; next, ..."), then the results. A question about how a method works is
answered by the sentences of the fourth move. They share few words with the question (they name the
method's parts, not the method), so in a ranking by similarity the proposal sentence, which repeats the
method's name, wins and they are left out: the answer said what X is, not how it works.

:func:`method_span` takes them by position instead: the paper's proposal sentence (its first sentence
of role ``definition``, :func:`paperchat.answer.roles.sentence_role`, or that names the method) and the
sentences after it up to its first reported evaluation, skipping background and code links. Their similarity to the
question is not asked: the paper was chosen by it already, and a method's steps share no words with
"how does it work".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from paperchat.answer.clauses import CLAUSE
from paperchat.answer.subjects import mentions


def asks_how_named(intent: Any, paper: Any) -> bool:
    """Whether the question asks how the method it names works and ``paper`` (title, abstract) holds that name.

    Such a question ("How does SpargeAttn get its speedup?") is about that paper whatever its words score,
    so the answerer does not decline it as not relevant enough. ``intent`` is an
    :class:`paperchat.answer.intent.Intent`.
    """
    return bool(intent.how and intent.subject and mentions(paper.full_text, intent.subject))


#: Roles a sentence of the method move never has.
_NOT_METHOD = frozenset({"background", "resource"})
#: A result that reports an evaluation ends the method move; one that says what a step achieves
#: ("GraFT reduces the complexity of both tasks by restricting ...") is part of it.
_EVALUATION = re.compile(
    r"\b(?:experiments?|experimental|empirical(?:ly)?|evaluations?|results?|outperform\w*|surpass\w*|"
    r"state-of-the-art|benchmarks?|we (?:prove|show|demonstrate|find))\b|\d+(?:\.\d+)?\s*(?:%|\\%|×|x\b)",
    re.I,
)


def method_span(
    own: Sequence[Any], picked: Sequence[Any], limit: int, name: str | None = None
) -> list[Any]:
    """The sentences of one paper's method move not yet in ``picked``, in the abstract's order.

    ``own`` are the candidates of one paper (:class:`paperchat.answer.candidates.Candidate`: ``position``,
    ``role``, ``text``; any order). The move starts at its proposal: the first
    sentence of role ``definition`` or holding ``name`` (the method the question names, any case), else
    the first picked sentence; it ends before the next ``result`` sentence that reports an evaluation. Sentences join until
    ``picked`` and the added ones number ``limit``. Returns ``[]`` when there is no room.
    """
    ordered = sorted(own, key=lambda c: c.position)
    key = (name or "").lower()
    anchor = next(
        (c for c in ordered if c.role == "definition" or (key and key in c.text.lower())), None
    )
    start = (
        anchor.position
        if anchor is not None
        else min((c.position for c in picked if c in own), default=0)
    )
    room = limit - len(picked)
    added: list[Any] = []
    for cand in ordered:
        if len(added) >= room:
            break
        if cand.position < start:
            continue
        if cand.role == "result" and cand.position > start and _EVALUATION.search(cand.text):
            break  # picked or not, an evaluation ends the move
        if cand in picked:
            continue
        if cand.role not in _NOT_METHOD:
            added.append(cand)
    return added


#: A clause that opens by asking which one paper or method ("Which interactive imitation-learning method ...").
_WHICH_ONE = re.compile(
    r"\s*(?:which|what)\s+(?:[\w-]+\s+){0,3}?(?:paper|work|study|article|method|approach|framework|technique|"
    r"algorithm|system)\b(?!s)",
    re.I,
)


#: An ask for a name: "what is the protocol called", "dataset name", "the name of the method" (contractions
#: written out: :func:`paperchat.answer.asks.plain_question`).
_NAME_ASK = re.compile(
    r"\bwhat(?: is| was| are)? (?:it|this|that|they|the [\w -]{1,30}?) (?:called|named)\b|\bname\b",
    re.I,
)


def asks_which_one(question: str) -> bool:
    """Whether some clause of ``question`` asks which one paper or method it is, though the question as a whole
    may ask for more ("Which ... method lets the robot decide when ..., and how much does it improve on
    Thrifty-DAgger?": a quantity, and the method's name). Contractions written out first
    (:func:`paperchat.answer.asks.plain_question`)."""
    return _NAME_ASK.search(question) is not None or any(
        _WHICH_ONE.match(part) for part in CLAUSE.split(question) if part
    )


#: A sentence that gives the method its name where no sentence proposes it ("our new method, named Dynamic
#: Transition VIN (DT-VIN), scales to ...", "a framework dubbed X").
_NAMING = re.compile(r"\b(?:named|called|dubbed|termed|coined)\s+(?:as\s+)?[`'\"“\\]?[A-Z\\]")


def proposal(own: Sequence[Any], picked: Sequence[Any]) -> list[Any]:
    """The paper's proposal sentence (its first of role ``definition``: "We introduce X, ...") as a list of one,
    or ``[]`` when it is picked already or the abstract has none. With no sentence of role ``definition``, the
    first that names the method (:data:`_NAMING`: "named Dynamic Transition VIN (DT-VIN)") stands in.

    A "which paper ...?" answer quotes the sentence that matches the asker's description; the proposal
    adds what the paper calls its method, which that sentence often lacks (Swales' third move, above).
    ``own`` as for :func:`method_span`.
    """
    ordered = sorted(own, key=lambda c: c.position)
    first = next((c for c in ordered if c.role == "definition"), None)
    first = first or next((c for c in ordered if _NAMING.search(c.text)), None)
    return [] if first is None or first in picked else [first]
