"""Questions in several clauses: each clause gets its own best sentence.

"Which paper re-tests GCN, GIN and GatedGCN with residual connections, and finds them ranking first on
most datasets?" describes two things; the sentence that best matches the whole question usually answers
one of them, and the answerer keeps only sentences near that best score (``KEEP_RATIO``), so the other
clause goes unanswered. :func:`clause_cover` splits the question at its clause breaks (:data:`CLAUSE`),
scores the paper's sentences against each clause as the answerer scores them against a question
(cosine and term overlap) and adds each clause's best sentence. Answering each part of a decomposed
question is the idea of least-to-most prompting and self-ask (Zhou et al. 2023; Press et al. 2023),
here without a model.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from paperchat.core.terms import term_coverage, terms

#: Where a question's clauses part: ";", a dash, ", and / but / then / while", or "and" before a verb of
#: what a paper does ("... and finds that ...").
CLAUSE = re.compile(
    r"\s*(?:;|\s[—–]\s|\s-\s|,\s*(?:and|but|then|while|whereas)\b"
    r"|\b(?:and|but)\s+(?=(?:\w+ ){0,2}?(?:finds?|shows?|argues?|observes?|claims?|reports?|proves?"
    r"|demonstrates?|uses?|achieves?|gets?|reaches?|introduces?|proposes?)\b))\s*",
    re.I,
)
MIN_CLAUSE_TERMS = 3  # content terms a clause needs to be answered on its own (not tuned)


def split_clauses(question: str) -> list[str]:
    """The clauses of ``question`` (:data:`CLAUSE`) with at least :data:`MIN_CLAUSE_TERMS` content terms each."""
    return [p for p in CLAUSE.split(question) if p and len(set(terms(p))) >= MIN_CLAUSE_TERMS]


def clause_cover(
    question: str,
    picked: list,
    own: list,
    embed_one: Callable[[str], np.ndarray],
    room: int,
    floor: float,
    duplicate_cos: float,
) -> list:
    """Each clause's best sentence of one paper, for a question of two clauses or more, when ``picked`` lacks it.

    ``own`` are the paper's candidate sentences (with ``text``, ``vec`` (unit-norm), ``role``), ``picked``
    those already chosen; ``embed_one(text) -> (dim,)`` embeds a clause. A clause's sentence scores
    ``0.55 * cosine + 0.30 * term overlap``, as the answerer scores sentences against a question; it is
    added when it scores at least ``floor``, is no code link, is no near-duplicate (cosine above
    ``duplicate_cos``) of a sentence chosen, and the answer has room (``room`` sentences in all).
    """
    parts = split_clauses(question)
    if len(parts) < 2 or not own:
        return []
    added: list = []
    vecs = np.stack([c.vec for c in own])
    for part in parts:
        if len(picked) + len(added) >= room:
            break
        cos = vecs @ embed_one(part)
        part_terms = set(terms(part))
        score = [
            0.55 * float(c) + 0.30 * (term_coverage(part_terms, cand.text) or 0.0)
            for c, cand in zip(cos, own)
        ]
        best = own[int(np.argmax(score))]
        if max(score) < floor or best.role == "resource":
            continue
        if any(best is p or float(best.vec @ p.vec) > duplicate_cos for p in picked + added):
            continue
        added.append(best)
    return added
