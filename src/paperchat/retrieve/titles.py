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
title's own capitalisation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

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
    """
    exact, low = _run(question), _run(question).lower()
    found = []
    for pid, title in titles.items():
        words = _WORD.findall(title)
        if len(words) < 2:
            continue
        run = _run(title)
        if run in exact or (len(words) >= MIN_WORDS_ANY_CASE and run.lower() in low):
            found.append((len(words), pid))
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
