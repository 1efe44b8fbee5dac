"""Whether a question that asks for a paper's metadata names the paper it was answered with.

"When was BERT published?" and "Who wrote Attention Is All You Need?" name papers no store of ICML 2025
abstracts holds; the retrieved paper that mentions BERT, or "Consensus Is All You Get", did not appear for
them, nor did its authors write them (a reading session had both answered with the nearest paper).
:func:`titled` reads whether the question's capitalised words are the paper's title or label;
:func:`names_another_paper` whether "Who wrote X?" names, as X, a paper other than the one found: X is
neither its title or label nor a name its abstract coins ("Who proposed SpargeAttention?").
"""

from __future__ import annotations

import re

from paperchat.answer import intent as it
from paperchat.answer.focus import PaperText

_NOT_TITLE_WORDS = frozenset(
    "when where which what who how the a an in on at was were did is does icml neurips iclr conference "
    "paper work published appear appeared presented venue year".split()
)


def titled(question: str, paper: PaperText) -> bool:
    """Whether the question names ``paper`` by its title or label: its capitalised words (the words of
    what it asks about) all occur in that title or label, and there is one; or it writes the title's words
    before its colon in any case, hyphens as spaces."""
    words = {
        w.lower()
        for w in re.findall(r"[A-Za-z][\w+-]*", it.retrieval_query(question))
        if w[0].isupper() and w.lower() not in _NOT_TITLE_WORDS
    }
    # (a title's non-breaking hyphen, U+2011, typed as "-": "Belief‑Driven Multi‑Agent ...", a verifier's)
    title = re.sub("[\u2010\u2011]", "-", f"{paper.title} {paper.label}")
    named = {w.lower() for w in re.findall(r"[\w+-]+", title)}
    if words and words <= named:
        return True
    # typed in lower case, hyphens as spaces: "when was flow q learning published" (a phone-style session)
    head = _loose(paper.title.split(":")[0] if paper.title else "")
    return bool(head) and f" {head} " in f" {_loose(question)} "


def _loose(text: str) -> str:
    return " ".join(re.sub(r"[-‐‑–—_?.!,;:]", " ", text.lower()).split())


#: "Who wrote X?", "Who are the authors of X?", "Who proposed X?": ``x``, the paper or method named.
_WHO_WROTE = re.compile(
    r"^\s*who\s+(?:wrote|authored|proposed|introduced|developed|created|invented|made|built|"
    r"(?:is|are)\s+behind|"
    r"are\s+the\s+(?:co-?)?authors\s+of|"
    r"is\s+the\s+(?:first\s+|last\s+|lead\s+)?author\s+of)\s+(?:the\s+)?(?:paper\s+)?"
    r"(?P<x>.+?)\s*[?.!]*\s*$",
    re.I,
)
#: The kind a question writes after a name ("the ImageNet dataset"), no part of it.
_KIND = re.compile(
    r"\s+(?:dataset|benchmark|model|architecture|method|algorithm|framework|paper|technique)s?$",
    re.I,
)
#: Words a title writes in lower case ("Attention Is All You Need" writes none, "Learning to Explore" one).
_SMALL = frozenset(
    "a an the of for and or to in on with by at from via is are as vs versus".split()
)
#: Verbs that coin a name in an abstract ("we propose SpargeAttention", "a method we call X").
_COINS = r"(?:propos|introduc|present|develop|call|dubb?|term|nam)\w*"


def names_another_paper(question: str, paper: PaperText) -> str:
    """The name a "Who wrote X?" question gives its paper (X: quoted, or every word of it capitalised
    but small words), when ``paper`` is not it; ``""`` when it is, or the question names none that way.

    ``paper`` is X when :func:`titled` says so, or when X is one word its abstract coins: "we introduce X",
    "this paper proposes a method X" (a few words between), "called X", "named X".
    """
    m = _WHO_WROTE.match(question)
    if not m:
        return ""
    # "the ImageNet dataset", "the Transformer architecture": the name, without its kind
    x = re.sub(_KIND, "", m.group("x").strip("\"'“”‘’ "))
    words = re.findall(r"[^\W_][\w+.'’-]*", x)
    quoted = m.group("x")[:1] in "\"'“‘"
    if not words or not (
        quoted or all(w[0].isupper() or not w[0].isalpha() or w.lower() in _SMALL for w in words)
    ):
        return ""  # "Who proposed the idea of reward shaping for LLMs?": a description, not a name
    if titled(question, paper):
        return ""
    if len(words) == 1:
        name = re.escape(words[0])
        # "we introduce DISCO", "this paper proposes a method called X"; not "LoRA (Hu et al.)" nor "we
        # propose X, which improves LoRA" (a verifier's "Who developed LoRA?" had named such a paper)
        coined = (
            rf"\b(?:we|this\s+(?:paper|work))\s+(?:\w+\s+){{0,2}}?{_COINS}\s+(?:[\w-]+\s+){{0,4}}?{name}\b"
            rf"|\b(?:called|named|dubbed|termed)\s+{name}\b"
        )
        if re.search(coined, paper.abstract or "", re.I):
            return ""
    return x
