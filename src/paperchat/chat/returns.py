"""Turns that go back to an earlier topic of the conversation, and lead-ins that only change the topic.

"Back to the test-time scaling papers: which one is cheapest?" refers to the papers of the earlier answer
about test-time scaling, not to the last list (a long chat session's "which one" had chosen among the
speculative-decoding papers asked about in between); "Now a different topic: ..." and "Let's switch: ..."
lead into a new question whose words they are not (their "topic" and "switch" had been searched for).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from paperchat.core.terms import terms

#: "back to the test-time scaling papers: ...", "Going back to unlearning, which of those ...?"
_BACK_TO = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|so|now|and)[,\s]+)?(?:let'?s\s+)?(?:go(?:ing)?\s+|get(?:ting)?\s+|coming\s+|come\s+)?"
    r"back\s+to\s+(?:the\s+)?(?P<topic>[^:;,?]+?)(?:\s+(?:papers|ones|works|list|topic))?\s*[:;,]\s*(?P<rest>\S.*)$",
    re.I,
)
#: "Now a different topic: ...", "Let's switch: ...", "New topic - ...", "Switching gears, ..."
_LEAD_IN = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|so|now|alright)[,\s]+)?(?:(?:a\s+|on\s+(?:to\s+)?a\s+)?(?:different|new|another|other)\s+"
    r"(?:topic|question|subject)|let'?s\s+(?:switch|change)(?:\s+(?:topics?|subjects?|gears))?|"
    r"switch(?:ing)?\s+(?:topics?|gears|subjects?)|changing\s+(?:the\s+)?(?:topic|subject)|"
    r"(?:an?\s+)?(?:unrelated|separate|quick|new|different|another|other)\s+(?:question|topic|one))\s*[:;,.\-–—]+\s*(?P<rest>\S.*)$",
    re.I,
)


def without_lead_in(question: str) -> str:
    """``question`` without a lead-in that only says the topic changes ("Now a different topic: which papers
    ...?" -> "which papers ...?"); as it is otherwise."""
    m = _LEAD_IN.match(question)
    return m.group("rest") if m else question


#: "the first question", "the previous list", "the second answer": an earlier turn by its place.
_PLACE = re.compile(
    r"^(?:the\s+|my\s+)?(?P<place>first|second|third|previous|last|earlier|original)"
    r"(?:\s+(?:question|answer|list|topic|one|search)s?)?$",
    re.I,
)
_PLACES = {"first": 0, "original": 0, "second": 1, "third": 2}


def returns_to(
    question: str, earlier: Callable[[], Sequence[tuple[str, Sequence[str]]]]
) -> tuple[str, int | None, str] | None:
    """``(rest, index, topic)`` when ``question`` goes back to a topic ("Back to the test-time scaling papers:
    which one is cheapest?"): ``earlier()`` gives each turn's question and the texts (titles, abstracts) of
    the papers it cited, oldest first (read only for a question that goes back); the turn returned to (its ``index``) is the newest whose question or
    every cited paper writes every word of the topic, or the one a place names ("going back to the first
    question, ..."; turns that cited papers counted); ``index`` is ``None`` when no earlier turn had it
    (the session then says so rather than answer from the last list). ``rest`` is the question after the
    lead. ``None`` for another question."""
    m = _BACK_TO.match(question)
    if not m:
        return None
    topic, rest = m.group("topic").strip(), m.group("rest")
    # "going back to the chain-of-thought paper, ...": one paper described, which "its" then refers to
    if re.search(r"\b(?:paper|work|study|article)$", topic, re.I):
        return None
    earlier = earlier()
    cited = [i for i, (_q, texts) in enumerate(earlier) if texts]
    if place := _PLACE.match(topic):
        word = place.group("place").lower()
        at = _PLACES.get(word, -2 if word in ("previous", "last", "earlier") else -1)
        return rest, (cited[at] if -len(cited) <= at < len(cited) else None), topic
    wanted = set(terms(topic))
    if not wanted:
        return None
    for i in range(len(earlier) - 1, -1, -1):
        asked, texts = earlier[i]
        if wanted <= set(terms(asked)) or (texts and all(wanted <= set(terms(t)) for t in texts)):
            return rest, i, topic
    return rest, None, topic
