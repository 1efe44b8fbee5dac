"""Scoring the retrieved abstracts' sentences against a question, and picking the ones to quote.

Every sentence of the top papers is scored against the question (:func:`score_sentences`):
``0.55 * cosine(question, sentence) + 0.30 * term overlap + 0.15 * paper cosine`` (term overlap: the
share of the question's content terms the sentence holds); a question that describes its paper before
it asks (:mod:`paperchat.answer.asks`) adds ``ASK_WEIGHT`` x the share of the ask's terms the sentence
holds, so the sentence that answers outranks the ones that restate the description; then moved by what
the question asks (:func:`paperchat.answer.roles.role_shift`). :func:`focus_paper` chooses the paper a
one-paper answer quotes, :func:`pick` its sentences, best first, skipping near-duplicates of a picked
sentence (cosine above ``DUPLICATE_COS``: maximal marginal relevance in the spirit of Carbonell &
Goldstein 1998) and another paper's sentence unless it scores nearly as well (``OTHER_PAPER_RATIO``).
What to do with the picked sentences, and when to abstain, is :mod:`paperchat.answer.extractive`'s.
The constants were set on the tuning sets (eval/generalization/TUNING.md, "Tuned constants").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from paperchat.answer import intent as it
from paperchat.answer.asks import ask_overlap, split_ask
from paperchat.answer.focus import PaperText
from paperchat.answer.roles import role_shift, sentence_role
from paperchat.answer.sentences import SentenceIndex
from paperchat.core.terms import term_coverage, terms

#: a focus-paper sentence is kept when its score is at least this share of the best one's
KEEP_RATIO = 0.8
#: another paper's sentence is kept when its relevance is at least this share of the focus paper's best
OTHER_PAPER_RATIO = 0.95
#: a sentence this close (cosine) to a picked one is a near-duplicate and skipped
DUPLICATE_COS = 0.85
#: sentences of one paper an answer quotes, at most
MAX_PER_PAPER = 3
#: Weight of the ask's term overlap in ordering sentences, when a question describes its paper before it asks
#: (:mod:`paperchat.answer.asks`): the description found the paper; the ask picks the sentence.
ASK_WEIGHT = 0.4
#: How much the retrieval rank counts in choosing the paper a one-paper answer quotes.
FOCUS_SHARE_WEIGHT = 0.5


@dataclass(eq=False)
class Candidate:
    """A sentence of a retrieved abstract with its scores (cosines in [-1, 1], overlap in [0, 1]).

    ``base`` is the relevance score, ``score`` the same moved by what the
    question asks (it orders sentences; ``base`` decides which papers answer). Candidates compare by
    identity (``vec`` is an array); a sentence is ``(paper_id, position)``.
    """

    paper_id: str
    position: int
    text: str
    cos: float
    overlap: float
    base: float
    score: float
    vec: np.ndarray
    role: str = "other"


def term_overlap(question_terms: set[str], sentence: str) -> float:
    """Share of the question's content terms that occur in ``sentence`` (0..1; 0 for a question without terms)."""
    share = term_coverage(question_terms, sentence)
    return 0.0 if share is None else share


def score_sentences(
    question: str,
    qvec: np.ndarray,
    papers: list[PaperText],
    index: SentenceIndex,
    intent: it.Intent,
) -> list[Candidate]:
    """Every sentence of ``papers`` scored against ``question`` (``qvec``: its embedding, ``(dim,)``), best
    ``score`` first (the module docstring gives the score); an abstract without stored or computable
    sentences adds none."""
    qterms = set(terms(question)) - (it.how_terms(question) if intent.how else set())
    ask = split_ask(question)
    ask_weight = ASK_WEIGHT if ask.described else 0.0
    found = index.get([(p.paper_id, p.abstract) for p in papers])
    cands: list[Candidate] = []
    for paper in papers:
        sents, vecs = found.get(paper.paper_id, ([], None))
        if not sents:
            continue
        for i, (sent, c) in enumerate(zip(sents, vecs @ qvec)):
            ov = term_overlap(qterms, sent)
            base = 0.55 * float(c) + 0.30 * ov + 0.15 * float(paper.cos or 0.0)
            role = sentence_role(sent, i)
            cand = Candidate(paper.paper_id, i, sent, float(c), ov, base, base, vecs[i], role)
            cand.score = base + role_shift(cand.role, cand.text, intent.kind)
            if ask_weight:
                cand.score += ask_weight * ask_overlap(ask, sent)
            cands.append(cand)
    cands.sort(key=lambda c: -c.score)
    return cands


def focus_paper(cands: list[Candidate], papers: list[PaperText]) -> str:
    """The paper a one-paper answer quotes: the best sentence by relevance, with the paper's retrieval share added."""
    share = {p.paper_id: p.share for p in papers}
    return max(
        cands, key=lambda c: c.base + FOCUS_SHARE_WEIGHT * share.get(c.paper_id, 0.0)
    ).paper_id


def pick(
    cands: list[Candidate], focus: str, intent: it.Intent, max_sentences: int
) -> list[Candidate]:
    """Sentences of the focus paper (best first by ``score``), and of others that answer nearly as well (by ``base``)."""
    own = [c for c in cands if c.paper_id == focus]
    # a code link is never quoted, so it sets no bar ("Code is available at ..." may score best)
    best = next((c for c in own if c.role != "resource"), own[0])
    best_base = max(c.base for c in own)
    picked: list[Candidate] = []
    for cand in cands:
        if len(picked) >= max_sentences:
            break
        if cand.paper_id == focus and cand.score < KEEP_RATIO * best.score:
            continue
        if cand.paper_id != focus and cand.base < OTHER_PAPER_RATIO * best_base:
            continue
        if cand.role == "resource" or any(float(cand.vec @ p.vec) > DUPLICATE_COS for p in picked):
            continue
        if intent.kind == it.FINDING and cand.role == "background" and picked:
            continue
        if sum(p.paper_id == cand.paper_id for p in picked) >= MAX_PER_PAPER:
            continue
        picked.append(cand)
    return picked
