"""The papers a comparison names: each one retrieved on its own, so an answer can cite every one.

"How do FlatQuant and HDRQ differ?" names two papers. One search for the
whole question ranks the paper whose abstract shares most of its words first
and may leave the other out of the top-k. :func:`~paperchat.answer.intent.comparison_subjects` reads
the names a comparison gives (coined names such as ``FlatQuant``, and quoted
phrases such as 'mechanistic unlearning'), and :func:`complete_hits` searches
each name with the clause around it and puts the first paper that mentions
the name among the hits (query decomposition, as in multi-hop retrieval:
Min et al. 2019, "Multi-hop Reading Comprehension through Question
Decomposition and Rescoring").
"""

from __future__ import annotations

import dataclasses
import re
from typing import Callable

from paperchat.answer.extractive import mentions
from paperchat.answer.intent import comparison_subjects

_CLAUSE_BREAK = re.compile(r"\s*(?:[,;:()?]|\.\s|\s-\s|\s—\s|\band\b|\bvs\.?\b|\bversus\b|\bwhile\b|\bwhereas\b)\s*", re.I)
#: Papers searched per named subject; the first that mentions the name is taken.
SUBJECT_TOP_K = 5


def clause_of(question: str, name: str) -> str:
    """The clause of ``question`` that holds ``name``: the name with the words around it up to a break."""
    at = question.find(name)
    if at < 0:
        return name
    starts = [m.end() for m in _CLAUSE_BREAK.finditer(question, 0, at)]
    ends = [m.start() for m in _CLAUSE_BREAK.finditer(question, at + len(name))]
    start, end = (starts[-1] if starts else 0), (ends[0] if ends else len(question))
    return question[start:end].strip() or name


def complete_hits(question: str, hits: list, retrieve: Callable[[str, int], list], text_of: Callable[[str], str],
                  top_k: int) -> list:
    """``hits`` with a paper for every name the comparison gives, named papers first (in the question's order).

    ``retrieve(query, k)`` returns hits (objects with ``paper_id``);
    ``text_of(paper_id)`` a paper's title and abstract. A name already held
    by one of ``hits`` keeps that paper; otherwise the name's clause is
    searched, and the first of its :data:`SUBJECT_TOP_K` papers whose text
    mentions the name is added (the name alone is searched first, then its clause). Other hits follow, to ``top_k`` papers
    (never fewer than the named ones). Questions that are not comparisons
    get ``hits`` unchanged.
    """
    subjects = comparison_subjects(question)
    if not subjects:
        return hits
    top = max((h.score for h in hits), default=1.0)
    named: list = []
    for name in subjects:
        holder = next((h for h in hits if mentions(text_of(h.paper_id), name)), None)
        for query in ([name, clause_of(question, name)] if holder is None else []):
            found = retrieve(query, SUBJECT_TOP_K)
            holder = next((h for h in found if mentions(text_of(h.paper_id), name)), None)
            if holder is not None:
                break
            if holder is not None:  # its score came from another query: rank it with the question's best
                holder = dataclasses.replace(holder, score=top)
        if holder is not None and all(h.paper_id != holder.paper_id for h in named):
            named.append(holder)
    if len(named) < 2:
        return hits
    rest = [h for h in hits if all(h.paper_id != n.paper_id for n in named)]
    return named + rest[:max(0, top_k - len(named))]
