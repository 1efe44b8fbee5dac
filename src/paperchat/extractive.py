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
   A question asking for several papers ("Which papers ...") takes the best
   sentence of each paper whose retrieval score is at least ``MULTI_SHARE``
   of the top paper's;
   A picked sentence that points back ("the two techniques above") brings the
   two sentences before it;
3. the picked sentences keep their paper's citation ``[n]``; sources are
   numbered in order of first use.

The answerer abstains (the answer is :data:`paperchat.citations.ABSTENTION`,
citing nothing) when the best sentence is not relevant enough
(``relevance < ABSTAIN_BELOW``), or when the question names something (a coined
name such as ``KEA-2``, ``ImageNet``, ``GPT-4``: see
:func:`paperchat.text.name_tokens`) that none of the retrieved abstracts
mentions: quoting a neighbouring paper would answer a different question; or
when a "how many X" question finds no relevant sentence with both X and a
number. The
threshold was set on ``eval/questions.jsonl`` (README, "Abstention").
"""

from __future__ import annotations

from dataclasses import dataclass

import re

import numpy as np

from paperchat.embeddings import Embedder
from paperchat.text import name_tokens, split_sentences, terms

MAX_SENTENCES = 3
KEEP_RATIO = 0.8
DUPLICATE_COS = 0.85
ABSTAIN_BELOW = 0.27
MAX_PAPERS = 3
MAX_PER_PAPER = 2
MULTI_SHARE = 0.4  # papers whose retrieval score is at least this share of the top one
_SEVERAL = re.compile(r"\b(?:papers|works|studies|methods|approaches|articles)\b", re.I)


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
    embed_sentences([(paper_id, abstract)], embedder)
    return _SENT_CACHE[f"{embedder.model_id}:{paper_id}"]


def embed_sentences(papers: list[tuple[str, str]], embedder: Embedder) -> None:
    """Embed the sentences of ``(paper_id, abstract)`` pairs not cached yet, in one batched call."""
    todo = [(f"{embedder.model_id}:{pid}", split_sentences(abstract)) for pid, abstract in papers]
    todo = [(key, sents) for key, sents in todo if key not in _SENT_CACHE]
    if not todo:
        return
    vecs = embedder.embed([s for _, sents in todo for s in sents])
    start = 0
    for key, sents in todo:
        _SENT_CACHE[key] = (sents, vecs[start : start + len(sents)])
        start += len(sents)


def adopt_sentence_vectors(papers: list[tuple[str, str]], stored: dict[str, np.ndarray], embedder: Embedder) -> None:
    """Cache sentence vectors made at ingest (``{paper_id: (n_sentences, dim)}``) for ``(paper_id, abstract)`` pairs.

    A stored entry whose row count does not match the abstract's sentences is
    ignored (that paper's sentences are embedded when needed).
    """
    for pid, abstract in papers:
        key = f"{embedder.model_id}:{pid}"
        vecs = stored.get(pid)
        if key in _SENT_CACHE or vecs is None:
            continue
        sents = split_sentences(abstract)
        if len(sents) == len(vecs):
            _SENT_CACHE[key] = (sents, vecs)


def cached_papers(paper_ids: list[str], embedder: Embedder) -> set[str]:
    """The ids among ``paper_ids`` whose sentence vectors are cached in this process."""
    return {pid for pid in paper_ids if f"{embedder.model_id}:{pid}" in _SENT_CACHE}


def term_overlap(question_terms: set[str], sentence: str) -> float:
    """Share of the question's content terms that occur in ``sentence`` (0..1)."""
    if not question_terms:
        return 0.0
    return len(question_terms & set(terms(sentence))) / len(question_terms)


_NUMBER = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozens?|hundreds?|thousands?)\b", re.I)


_CORPUS_NOUNS = {"paper", "work", "study", "article", "abstract", "publication", "author"}


def _counted_noun(question: str) -> str | None:
    """For "how many X" / "how much X" questions, the content term of X (else ``None``)."""
    match = re.search(r"\bhow (?:many|much)\s+([A-Za-z][A-Za-z-]*)", question, re.I)
    if not match:
        return None
    word = match.group(1).lower()
    if word.rstrip("s") in _CORPUS_NOUNS:
        return word.rstrip("s")
    found = terms(word)
    return found[0] if found else None


def _pick(cands: list[Candidate], best: Candidate, max_sentences: int) -> list[Candidate]:
    picked: list[Candidate] = []
    for cand in cands:
        if len(picked) >= max_sentences or cand.score < KEEP_RATIO * best.score:
            break
        if any(float(cand.vec @ p.vec) > DUPLICATE_COS for p in picked):
            continue
        if sum(p.paper_id == cand.paper_id for p in picked) >= MAX_PER_PAPER:
            continue
        picked.append(cand)
    return picked


_ANAPHOR = re.compile(r"\b(?:above|aforementioned|former|latter)\b|^(?:These|Such|Both|Based on (?:these|the|this|both))\b")


def _with_antecedents(picked: list[Candidate], cands: list[Candidate]) -> list[Candidate]:
    """Add the two sentences before a picked one that points back ("the two techniques above", "These ...").

    A quoted sentence that refers to earlier ones does not answer on its own.
    """
    by_pos = {(c.paper_id, c.position): c for c in cands}
    out = list(picked)
    for cand in picked:
        if not _ANAPHOR.search(cand.text):
            continue
        for back in (1, 2):
            prev = by_pos.get((cand.paper_id, cand.position - back))
            if prev is not None and prev not in out:
                out.append(prev)
    return out


def _one_per_paper(cands: list[Candidate], papers: set[str]) -> list[Candidate]:
    picked: list[Candidate] = []
    for cand in cands:  # best first
        if cand.paper_id in papers and cand.score >= ABSTAIN_BELOW and all(p.paper_id != cand.paper_id for p in picked):
            picked.append(cand)
    return picked[:MAX_PAPERS]


def asks_for_several(question: str) -> bool:
    """Whether the question asks for several papers ("Which papers ...", "what methods ...")."""
    return bool(_SEVERAL.search(question))


def _plain(text: str) -> str:
    return text.replace("$", "").replace("^", "").replace("*", "").lower()


def missing_names(question: str, abstracts: list[str]) -> list[str]:
    """Coined names in ``question`` that occur (as whole tokens, any case) in none of ``abstracts``."""
    corpus = " ".join(_plain(a) for a in abstracts)
    missing = []
    for name in name_tokens(question):
        pattern = r"(?<![a-z0-9-])" + re.escape(name.lower()) + r"(?![a-z0-9+]|-[a-z0-9])"
        if not re.search(pattern, corpus):
            missing.append(name)
    return missing


def extract(
    question: str,
    qvec: np.ndarray,
    papers: list[tuple[str, str, float, float]],
    embedder: Embedder,
    max_sentences: int = MAX_SENTENCES,
) -> Extract:
    """Pick answer sentences from ``papers``: ``(paper_id, abstract, paper cosine, retrieval share)``.

    Papers come best first; the retrieval share is the paper's fused retrieval
    score divided by the top paper's (1.0 for the first).

    Returns an :class:`Extract`; ``abstained`` is true when nothing is relevant enough.
    """
    qterms = set(terms(question))
    if missing_names(question, [p[1] for p in papers]):
        return Extract([], 0.0, True)
    names = name_tokens(question)
    if names:  # papers that mention every name the question gives come first
        papers = sorted(papers, key=lambda p: bool(missing_names(question, [p[1]])))
    cands: list[Candidate] = []
    embed_sentences([(p[0], p[1]) for p in papers[:MAX_PAPERS]], embedder)
    for paper_id, abstract, paper_cos, _share in papers[:MAX_PAPERS]:
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
    count_noun = _counted_noun(question)
    if count_noun in _CORPUS_NOUNS:  # "how many papers ..." is about the corpus, not in any abstract
        return Extract([], relevance, True)
    if count_noun and not any(
        count_noun in terms(c.text) and _NUMBER.search(c.text) for c in cands if c.score >= KEEP_RATIO * best.score
    ):
        return Extract([], relevance, True)
    if asks_for_several(question):
        picked = _one_per_paper(cands, {p[0] for p in papers if p[3] >= MULTI_SHARE})
    else:
        picked = _pick(cands, best, max_sentences)
    picked = _with_antecedents(picked, cands)
    # Answer order: papers in order of first pick, sentences in abstract order within a paper.
    paper_order: list[str] = []
    for cand in picked:
        if cand.paper_id not in paper_order:
            paper_order.append(cand.paper_id)
    picked.sort(key=lambda c: (paper_order.index(c.paper_id), c.position))
    return Extract(picked, relevance, False)
