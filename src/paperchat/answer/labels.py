"""The clauses of a comparison that ask about one of its papers by label or order.

"Both papers run a picture generator backwards. How much faster is the first one ..., and which math
tool does the second use to shrink errors?" describes its two papers only where it asks about them;
"Paper A makes ...; Paper B erases .... What does A use to limit which weights change, and what does B
use instead of the missing data?" adds to each description in its ask. :func:`labelled_clauses` reads
those clauses off: each clause of the question (a sentence, or its part after a comma or "and" that
opens a new ask) that points at exactly one paper, by an ordinal ("the first", "the second one's") or
by a letter the question labels its papers with ("Paper A ... B"), is that paper's.

:func:`paperchat.answer.subjects.complete_hits` searches each described paper with its clauses too
(the ask says what the paper's abstract holds: "which local statistics does A compare"), and a
question that says it is about several papers but describes them only in its asks gets one mention a
label (:func:`label_mentions`).
"""

from __future__ import annotations

import re

from paperchat.answer.mention_lists import MIN_DESCRIPTION_TERMS, Mention, trim
from paperchat.core.terms import terms

#: Ordinal labels and the paper (0-based, in the question's order) each points at.
_ORDINALS = {"first": 0, "former": 0, "second": 1, "latter": 1, "third": 2, "fourth": 3}
_ORDINAL = re.compile(
    r"\b(?:the|a)\s+(first|former|second|latter|third|fourth)\b"
    r"(?:\s+(?:one|paper|study|work|method|approach)\b)?(?:['’]s\b)?"
    # not a step of one method: "the first stage", "the second term"
    r"(?!\s+(?:stages?|phases?|steps?|terms?|loss|layers?|rounds?|epochs?|parts?|half|components?|"
    r"modules?|experiments?|settings?|tasks?|cases?|blocks?|levels?|iterations?|pass|passes|variants?|"
    r"versions?)\b)",
    re.I,
)
#: A question that labels its papers by letter: "Paper A ...", "Study B ...".
_LETTERED = re.compile(r"\b(?:[Pp]aper|[Ss]tudy|[Ww]ork|[Mm]ethod)\s+[AB]\b")
#: A letter label: "Paper A", or a bare capital A-D inside a clause ("what does B use"), not an article
#: opening a sentence ("A second ...").
_LETTER = re.compile(
    r"(?:\b(?:[Pp]aper|[Ss]tudy|[Ww]ork|[Mm]ethod)\s+|(?<=[a-z,]\s))([A-D])(?:['’]s)?(?![\w'’-])"
)
#: An enumerator the question counts its papers with, "(i)" or "(a)", and the paper each points at (also
#: :mod:`paperchat.answer.mentions`, which reads enumerated papers).
ENUMERATOR = r"\((i{1,3}|iv|[a-d])\)"
_ENUMERATOR = re.compile(ENUMERATOR, re.I)
_ENUMERATED = {"i": 0, "ii": 1, "iii": 2, "iv": 3, "a": 0, "b": 1, "c": 2, "d": 3}
#: Where a clause ends: a sentence, a semicolon or a colon, or a comma or "and" before a new ask ("..., and what
#: does the second ...").
_CLAUSE_BREAK = re.compile(
    r"[.?!;:](?:\s|$)|\s[-—–]\s"
    r"|,\s+(?:and\s+|but\s+|while\s+)?(?=(?:what|which|how|why|where|who|when|does|do|did|is|are|was|were)\b)"
    r"|\s+(?:and|but|while)\s+(?=(?:what|which|how|why|where|who|when)\b)",
    re.I,
)


def _clauses(question: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each clause of ``question`` (see :data:`_CLAUSE_BREAK`)."""
    spans, at = [], 0
    for m in _CLAUSE_BREAK.finditer(question):
        spans.append((at, m.start()))
        at = m.end()
    spans.append((at, len(question)))
    return [(s, e) for s, e in spans if e > s]


def _clause_labels(question: str) -> list[tuple[int, int, list[tuple[int, int, int]]]]:
    """Each clause of ``question`` (:func:`_clauses`) as ``(start, end, labels)``, ``labels`` the
    ``(paper index, start, end)`` of each label inside it.

    Enumerators label papers only in a question with two or more of them ("(i) ..., (ii) ...": "in (b)" is
    the second paper's), letters only in one that labels its papers by letter (:data:`_LETTERED`).
    """
    enumerated = len(set(_ENUMERATOR.findall(question))) >= 2
    lettered = _LETTERED.search(question) is not None
    out = []
    for start, end in _clauses(question):
        labels = [
            (_ORDINALS[m.group(1).lower()], m.start(), m.end())
            for m in _ORDINAL.finditer(question, start, end)
        ]
        if enumerated:
            labels += [
                (_ENUMERATED[m.group(1).lower()], m.start(), m.end())
                for m in _ENUMERATOR.finditer(question, start, end)
            ]
        if lettered:
            labels += [
                ("ABCD".index(m.group(1)), m.start(), m.end())
                for m in _LETTER.finditer(question, start, end)
            ]
        out.append((start, end, labels))
    return out


def labelled_clauses(question: str, skip: list[Mention] = ()) -> dict[int, str]:
    """The text each labelled paper's clauses say of it: ``{paper index: text}``, 0-based in the
    question's order, labels removed ("What does A use to limit which weights change" -> "What does
    use to limit which weights change").

    A clause with labels of two papers ("Paper A and Paper B both ...") is no one's; a clause that
    overlaps a mention in ``skip`` (already that paper's description) is left out. Empty when no
    clause is labelled.
    """
    out: dict[int, list[str]] = {}
    for start, end, labels in _clause_labels(question):
        if any(m.start < end and start < m.end for m in skip):
            continue
        if len({i for i, _s, _e in labels}) != 1:
            continue
        text, at = [], start
        for _i, s, e in sorted(labels, key=lambda x: x[1]):
            text.append(question[at:s])
            at = e
        text.append(question[at:end])
        out.setdefault(labels[0][0], []).append(" ".join("".join(text).split()))
    return {i: " ".join(parts) for i, parts in sorted(out.items())}


def label_mentions(question: str) -> list[Mention]:
    """One :class:`~paperchat.answer.mention_lists.Mention` a labelled paper, for a question that
    describes its papers only where it asks about them (its first labelled clause, labels kept, is the
    mention's span). Empty unless two or more papers are labelled, from the first on, each with a
    clause of :data:`~paperchat.answer.mention_lists.MIN_DESCRIPTION_TERMS` content terms.
    """
    spans: dict[int, tuple[int, int]] = {}
    for start, end, found in _clause_labels(question):
        labels = {i for i, _s, _e in found}
        if len(labels) == 1 and (i := labels.pop()) not in spans:
            spans[i] = trim(question, start, end)
    if len(spans) < 2 or sorted(spans) != list(range(len(spans))):
        return []
    texts = labelled_clauses(question)
    if any(len(terms(texts.get(i, ""))) < MIN_DESCRIPTION_TERMS for i in spans):
        return []
    return [Mention(question[s:e], None, s, e, asks=True) for _i, (s, e) in sorted(spans.items())]
