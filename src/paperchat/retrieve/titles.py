"""A question that quotes a paper's title is about that paper: put it first.

Pasting a title is how a reader names a paper they saw in a programme or a
reference list. Fused scores usually rank it first already, but not always:
"Understanding the Logic of Direct Preference Alignment through Logic" ranked
a paper about direct preference alignment above it, and "Inverse problems with
experiment-guided AlphaFold?" ranked it fourth (3 of every 100 sampled titles
of the conference, asked bare or inside "What does ... propose?"). A title
matches when its words occur in the question as one run (any case, any
punctuation between words). Titles of two or three words ("Flow Q-Learning",
"Graph World Model") are common phrases too, so they match only in the
title's own capitalisation. So does a title's head, the words before its colon, which a reader quotes as the
paper's name ("Who wrote Dialogue Without Limits?" for "Dialogue Without Limits: Constant-Sized KV Caches
for ...": retrieval had ranked "Aligning Spoken Dialogue Models ..." first and answered for it), unless two
titles open with it.

A question may also name a paper by the name its title opens with ("What is WATCH?" for "WATCH:
Adaptive Monitoring for AI Deployments via ..."), which its abstract need not repeat
(:func:`head_names`, :func:`named_by_head`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from paperchat.core.terms import looks_like_name

#: titles with fewer words match only in their own capitalisation
MIN_WORDS_ANY_CASE = 4

_WORD = re.compile(r"[^\W_]+")


def _run(text: str) -> str:
    """``text``'s words joined by single spaces, each framed so that a run matches only whole words."""
    return " " + " ".join(_WORD.findall(text)) + " "


def titled(question: str, titles: Mapping[str, str]) -> list[str]:
    """Ids of ``titles`` (``{paper id: title}``) that ``question`` quotes, the longest title first.

    >>> titled("What does Flow Q-Learning propose?", {"a": "Flow Q-Learning", "b": "Flow"})
    ['a']
    >>> titled("a flow q-learning method", {"a": "Flow Q-Learning"})
    []
    >>> titled("Who wrote Dialogue Without Limits?", {"b": "Dialogue Without Limits: Constant-Sized KV ..."})
    ['b']
    """
    exact, low = _run(question), _run(question).lower()
    heads: dict[str, list[str]] = {}
    for pid, title in titles.items():
        head, colon, _rest = title.partition(":")
        if colon:
            heads.setdefault(_run(head), []).append(pid)
    found = []
    for pid, title in titles.items():
        head, colon, _rest = title.partition(":")
        # a head two titles share names neither ("Mind the Gap: ..."); a one-word head ("Ex-VAD: ...") is a
        # name, which a comparison may give beside other papers (named_by_head)
        named_by = colon and heads[_run(head)] == [pid] and len(head.split()) >= 2
        for text in (title, head) if named_by else (title,):
            words, run = _WORD.findall(text), _run(text)
            if len(words) >= 2 and (
                run in exact or (len(words) >= MIN_WORDS_ANY_CASE and run.lower() in low)
            ):
                found.append((len(words), pid))
                break
    return [pid for _n, pid in sorted(found, key=lambda x: -x[0])]


def bare_title(question: str, titles: Mapping[str, str]) -> str | None:
    """The id of the paper whose title is the whole of ``question`` (any case and punctuation), else ``None``.

    A bare title asks what the paper is about: the answerer summarizes it.

    >>> titles = {"qzM37nOy3N": "Inverse problems with experiment-guided AlphaFold"}
    >>> bare_title("inverse problems with experiment-guided AlphaFold?", titles)
    'qzM37nOy3N'
    >>> bare_title("What does Inverse problems with experiment-guided AlphaFold do?", titles) is None
    True
    """
    whole = _run(question).lower()
    return next((pid for pid, t in titles.items() if _run(t).lower() == whole), None)


#: A word of a question as a name is written: no white space, quotes, brackets or closing punctuation.
_NAME_WORD = re.compile(r"[^\s,;:!?()\[\]\"'“”‘’]+")


def head_names(question: str) -> list[str]:
    """Words of ``question`` that may be a paper's short name, in order: those with a capital letter (a
    sentence's first word only when it looks like a coined name, not a capitalised question word), each
    also without a closing full stop ("WATCH." and "R.I.P.").

    >>> head_names("What is WATCH? Compare it with R.I.P.")
    ['WATCH', 'R.I.P.', 'R.I.P']
    """
    words = [
        (
            m.group(),
            not question[: m.start()].strip() or question[: m.start()].rstrip()[-1] in ".?!",
            m,
        )
        for m in _NAME_WORD.finditer(question)
    ]
    capital = [
        any(c.isupper() for c in w) and (not opens or looks_like_name(w)) for w, opens, _ in words
    ]

    def joined(a: int, b: int) -> bool:  # two name words with only spaces between: one longer name
        gap = question[words[a][2].end() : words[b][2].start()]
        return capital[a] and capital[b] and gap.strip() == "" and not words[a][0].endswith(".")

    out: dict[str, None] = {}
    for i, (word, _opens, _m) in enumerate(words):
        longer = i + 1 < len(words) and joined(i, i + 1) or i > 0 and joined(i - 1, i)
        if capital[i] and not longer:  # "CAT Merging" names neither "CAT" nor "Merging"
            out.update(dict.fromkeys(w for w in (word, word.rstrip(".")) if w))
    return list(out)


def head_label(record) -> str:
    """``record``'s label when its title opens with it ("WATCH: Adaptive ..."), else ``""``."""
    head, colon, _ = (getattr(record, "title", "") or "").partition(":")
    label = getattr(record, "label", "") or ""
    return label if colon and head.strip() == label else ""


def named_by_head(names: list[str], records: Mapping) -> list[str]:
    """Ids of ``records`` (``{paper id: record}`` with ``label`` and ``title``) named by one of ``names``: the
    record's label is the name its title opens with ("WATCH: ..."), and no other title opens with that
    label (a label derived from another abstract does not count). In the order of ``names``."""
    by_head: dict[str, list[str]] = {}
    for pid, rec in records.items():
        by_head.setdefault(head_label(rec), []).append(pid)
    return [ids[0] for name in names if name and len(ids := by_head.get(name, [])) == 1]
