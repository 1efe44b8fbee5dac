"""The offline answerer: an extractive answer quoted from the retrieved abstracts.

Without an LLM, the answer is a few of the retrieved abstracts' own sentences:

1. every sentence of the top papers is scored against the question by
   ``0.55 * cosine(question, sentence) + 0.30 * term overlap + 0.15 * paper cosine``
   (term overlap: the share of the question's content terms the sentence holds);
2. sentences are picked greedily, best first, skipping near-duplicates of a
   picked one (cosine above 0.85: maximal marginal relevance in the spirit of
   Carbonell & Goldstein 1998), at most ``MAX_SENTENCES`` in all and
   ``MAX_PER_PAPER`` from one paper, and only while a
   sentence scores at least ``KEEP_RATIO`` of the best one;
3. the picked sentences keep their paper's citation ``[n]``; sources are
   numbered in order of first use.

If the best sentence is not relevant enough (``relevance < ABSTAIN_BELOW``),
the answer is :data:`paperchat.citations.ABSTENTION` and cites nothing. The
thresholds were set on ``eval/questions.jsonl`` (README, "Abstention").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from paperchat.embeddings import Embedder
from paperchat.text import split_sentences, terms

MAX_SENTENCES = 3
KEEP_RATIO = 0.8
DUPLICATE_COS = 0.85
ABSTAIN_BELOW = 0.42
MAX_PAPERS = 4
MAX_PER_PAPER = 2


@dataclass
class Candidate:
    """A sentence of a retrieved abstract with its scores (cosines in [-1, 1], overlap in [0, 1])."""

    paper_id: str
    position: int
    text: str
    cos: float
    overlap: float
    score: float
    vec: np.ndarray


@dataclass
class Extract:
    """The picked sentences (in answer order) and the relevance used for abstention."""

    sentences: list[Candidate]
    relevance: float
    abstained: bool


_SENT_CACHE: dict[str, tuple[list[str], np.ndarray]] = {}


def paper_sentences(paper_id: str, abstract: str, embedder: Embedder) -> tuple[list[str], np.ndarray]:
    """The sentences of an abstract and their embeddings (cached per process)."""
    key = f"{embedder.model_id}:{paper_id}"
    if key not in _SENT_CACHE:
        sents = split_sentences(abstract)
        _SENT_CACHE[key] = (sents, embedder.embed(sents))
    return _SENT_CACHE[key]


def term_overlap(question_terms: set[str], sentence: str) -> float:
    """Share of the question's content terms that occur in ``sentence`` (0..1)."""
    if not question_terms:
        return 0.0
    return len(question_terms & set(terms(sentence))) / len(question_terms)


def extract(
    question: str,
    qvec: np.ndarray,
    papers: list[tuple[str, str, float]],
    embedder: Embedder,
    max_sentences: int = MAX_SENTENCES,
) -> Extract:
    """Pick answer sentences from ``papers``: ``(paper_id, abstract, paper cosine)`` best first.

    Returns an :class:`Extract`; ``abstained`` is true when nothing is relevant enough.
    """
    qterms = set(terms(question))
    cands: list[Candidate] = []
    for paper_id, abstract, paper_cos in papers[:MAX_PAPERS]:
        sents, vecs = paper_sentences(paper_id, abstract, embedder)
        if not sents:
            continue
        cos = vecs @ qvec
        for i, (sent, c) in enumerate(zip(sents, cos)):
            ov = term_overlap(qterms, sent)
            score = 0.55 * float(c) + 0.30 * ov + 0.15 * float(paper_cos or 0.0)
            cands.append(Candidate(paper_id, i, sent, float(c), ov, score, vecs[i]))
    if not cands:
        return Extract([], 0.0, True)
    cands.sort(key=lambda c: -c.score)
    best = cands[0]
    relevance = best.score
    if relevance < ABSTAIN_BELOW:
        return Extract([], relevance, True)
    picked: list[Candidate] = []
    for cand in cands:
        if len(picked) >= max_sentences or cand.score < KEEP_RATIO * best.score:
            break
        if any(float(cand.vec @ p.vec) > DUPLICATE_COS for p in picked):
            continue
        if sum(p.paper_id == cand.paper_id for p in picked) >= MAX_PER_PAPER:
            continue
        picked.append(cand)
    # Answer order: papers in order of first pick, sentences in abstract order within a paper.
    paper_order: list[str] = []
    for cand in picked:
        if cand.paper_id not in paper_order:
            paper_order.append(cand.paper_id)
    picked.sort(key=lambda c: (paper_order.index(c.paper_id), c.position))
    return Extract(picked, relevance, False)
