"""A technique a question takes as used that its paper's abstract never mentions: "How does PEINR use an
LSTM to capture long-range temporal dependencies?" where PEINR's abstract names no LSTM.

A question that presupposes its claim (:data:`paperchat.answer.number_premises.ASSUMING`: "how does X
...", "why did X ...") and says the paper uses, needs, relies on, combines or builds on a thing, or needs
to train or fine-tune one ("Why does CRANE need to fine-tune the LLM ...?", :data:`_USES`,
the words up to the next preposition or clause break) is a false premise when no content word of that
thing, nor a hyphen-joined part of one, nor a word sharing its first :data:`PREFIX` letters ("compressed"
for "compression"), is in the paper's title or abstract. Words that name no technique ("the model",
"data", "specific") do not count (:data:`_GENERIC`); a thing that begins with a pronoun or a question word
("use it commercially", "use what they know") is not read.

From a fact-checker's question set (``eval/generalization/aa_factchecker.jsonl``, a tuning set, thirty-fifth
round): 24 false premises, of which 8 presuppose a technique the paper does not use; every one had been
answered with the sentence nearest the technique. Scanned before any code on the tuning sets' 425
answerable questions about one paper: none whose asker names or describes a paper fires.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from paperchat.answer.number_premises import ASSUMING
from paperchat.core.terms import terms

#: Letters two words share at the start to count as one word ("compressed" and "compression").
PREFIX = 5

_USES = re.compile(
    r"\b(?:use[sd]?|using|need(?:s|ed)?(?P<train>\s+to(?=\s+(?:fine-?tune|re-?train|pre-?train|train|distill)\b))?|"
    r"rel(?:y|ies|ied)\s+on|employ(?:s|ed)?|leverag(?:e|es|ed)|"
    r"combin(?:e|es|ed)|incorporat(?:e|es|ed)|builds?\s+on|adopt(?:s|ed)?|appl(?:y|ies|ied))\s+"
    r"(?P<thing>(?:(?!\b(?:to|for|in|so|when|and|that|which|with|on|by|from|of|into|over|at|as)\b)[^,?;.:!])+)",
    re.I,
)
_NOT_A_THING = re.compile(
    r"\s*(?:(?:an?|the)\s+)?(?:at|what|how|which|who|whom|it|its|them|they|this|these|those|that|"
    r"such|any|some|each|all|showing|compared)\b",
    re.I,
)
#: The asker as the subject: "How can I parallelize ... using graphics cards?" presupposes nothing about the
#: paper (the bundled set's q034, the one answer the first version changed).
_ASKER = re.compile(
    r"\s*(?:how|why)\s+(?:can|could|should|would|might|may|do|did)\s+(?:i|we|you|one|someone|people)\b",
    re.I,
)
_GENERIC = frozenset(
    terms(
        "model models method methods approach framework technique data network training learning paper "
        "authors specific kind sort exactly particular way ways new novel extra additional big large small "
        "simple standard existing"
    )
)


def unused_thing(question: str, text: str, df: Callable[[str], int] | None = None) -> str | None:
    """The thing ``question`` presupposes its paper uses (as the question writes it) when ``text`` (the
    paper's title and abstract) does not mention it; else ``None``. With ``df`` (a word's count of papers
    in the store), the thing is mentioned when its rarest word is ("a graph neural network" where only
    "neural" is written is not); without, when any of its words is."""
    if not ASSUMING.search(question) or _ASKER.match(question):
        return None
    written = {part for word in terms(text) for part in (word, *word.split("-"))}
    prefixes = {word[:PREFIX] for word in written if len(word) >= PREFIX}
    for match in _USES.finditer(question):
        thing = match.group("thing").strip()
        if _NOT_A_THING.match(thing):
            continue
        # "need to fine-tune the LLM": the training the question presupposes, not what is trained
        read = thing.split()[0] if match.group("train") else thing
        words = [
            part
            for word in terms(read)
            for part in word.split("-")
            if len(part) >= 3 and part not in _GENERIC
        ]
        if df is not None and words:
            words = [min(words, key=df)]
        if words and not any(
            w in written or (len(w) >= PREFIX and w[:PREFIX] in prefixes) for w in words
        ):
            return thing
    return None


def technique_note(question: str, paper, name: str, df: Callable[[str], int] | None = None) -> str:
    """The note for a thing ``question`` presupposes ``paper`` (``full_text``) uses that its abstract never
    mentions (:func:`unused_thing`, with ``df``), naming the paper as ``name``; ``""`` when there is none."""
    thing = unused_thing(question, paper.full_text, df)
    if not thing:
        return ""
    return f"the abstract of {name} never mentions '{thing}': check the question's premise"
