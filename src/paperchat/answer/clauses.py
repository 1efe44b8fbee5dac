"""Questions in several clauses: each clause gets its own best sentence.

"Which paper re-tests GCN, GIN and GatedGCN with residual connections, and finds them ranking first on
most datasets?" describes two things; the sentence that best matches the whole question usually answers
one of them, and the answerer keeps only sentences near that best score (``KEEP_RATIO``), so the other
clause goes unanswered. :func:`clause_cover` splits the question at its clause breaks (:data:`CLAUSE`),
scores the paper's sentences against each clause as the answerer scores them against a question
(cosine and term overlap) and adds each clause's best sentence. Answering each part of a decomposed
question is the idea of least-to-most prompting and self-ask (Zhou et al. 2023; Press et al. 2023),
here without a model.

The same rule gives each paper a comparison describes ("the one that trains its flow hot and then cools it
down") the sentence that best fits its description (:func:`parts_cover`), and a picked sentence that points
back ("the two techniques above") brings the sentences before it (:func:`with_antecedents`).
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


#: Where an ask of several questions parts: a sentence end, ";", or a question word after a comma or "and"
#: ("How many queries does the flipper need, what's added to the fake chats, and how fast is the helper?").
_ASK_BREAK = re.compile(
    r"\s*(?:[.?!;](?:\s|$)|(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or)\s+)(?=(?:what|which|how|where|when|who|why)\b))\s*",
    re.I,
)
_QUESTION_WORD = re.compile(r"\b(?:what|which|how|where|when|who|whom|whose|why)\b", re.I)


def ask_clauses(ask: str, min_terms: int = 2) -> list[str]:
    """The questions an ask holds: its pieces between sentence ends, ";" and a question word after a comma
    or "and" (:data:`_ASK_BREAK`) that hold a question word and at least ``min_terms`` content terms
    ("Two agent-safety benchmarks:" before the ask is none). One ask gives one clause."""
    return [
        p
        for p in _ASK_BREAK.split(ask)
        if p and _QUESTION_WORD.search(p) and len(set(terms(p))) >= min_terms
    ]


def clause_cover(question: str, *rest) -> list:
    """Each clause's best sentence of one paper, for a question of two clauses or more (:func:`split_clauses`),
    when the picked ones lack it: :func:`parts_cover` of the clauses, with its other arguments."""
    parts = split_clauses(question)
    return parts_cover(parts, *rest) if len(parts) >= 2 else []


def parts_cover(
    parts: list[str],
    picked: list,
    own: list,
    embed_one: Callable[[str], np.ndarray],
    room: int,
    floor: float,
    duplicate_cos: float,
) -> list:
    """Each of ``parts``' best sentence among ``own`` when ``picked`` lacks it: a question's clauses
    (:func:`clause_cover`), or the description a comparison gives of a paper ("the one that trains its
    flow hot and then cools it down"), whose sentence is part of what that paper answers.

    ``own`` are the paper's candidate sentences (with ``text``, ``vec`` (unit-norm), ``role``), ``picked``
    those already chosen; ``embed_one(text) -> (dim,)`` embeds a part. A part's sentence scores
    ``0.55 * cosine + 0.30 * term overlap``, as the answerer scores sentences against a question; it is
    added when it scores at least ``floor``, is no code link, is no near-duplicate (cosine above
    ``duplicate_cos``) of a sentence chosen, and the answer has room (``room`` sentences in all).
    Returns the added candidates, at most ``room - len(picked)``.
    """
    if not own:
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


_ANAPHOR = re.compile(
    r"\b(?:above|aforementioned|former|latter)\b|^(?:These|Such|Both|Based on (?:these|the|this|both))\b"
)


def with_antecedents(picked: list, cands: list) -> list:
    """``picked`` and the two sentences before each that points back ("the two techniques above", "These ...").

    ``cands`` are the candidates (with ``paper_id``, ``position``, ``text``) the antecedents are taken from.
    """
    by_pos = {(c.paper_id, c.position): c for c in cands}
    out = list(picked)
    have = {(c.paper_id, c.position) for c in out}
    for cand in picked:
        if not _ANAPHOR.search(cand.text):
            continue
        for back in (1, 2):
            key = (cand.paper_id, cand.position - back)
            if key in by_pos and key not in have:
                out.append(by_pos[key])
                have.add(key)
    return out
