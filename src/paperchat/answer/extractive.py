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

The answerer abstains (the answer is :data:`paperchat.core.contract.ABSTENTION`,
citing nothing) when the best sentence is not relevant enough
(``relevance < ABSTAIN_BELOW``), or when the question names something (a coined
name such as ``KEA-2``, ``ImageNet``, ``GPT-4``: see
:func:`paperchat.core.text.name_tokens`) that none of the retrieved abstracts
mentions: quoting a neighbouring paper would answer a different question; or
when a "how many X" question finds no relevant sentence with both X and a
number. The
threshold was set on ``eval/questions.jsonl`` (README, "Abstention").
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable

import numpy as np

from paperchat.cite.markers import cite_sentence
from paperchat.core.contract import EXTRACTIVE, Answer, Source
from paperchat.core.text import name_tokens, split_sentences, term_coverage, terms
from paperchat.ingest.records import PaperRecord

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


class SentenceIndex:
    """Sentences of abstracts and their vectors: the ones stored at ingest, else embedded now; cached (LRU).

    ``store`` gives ``sentence_vectors(ids, dim)``; ``embedder`` embeds the
    sentences of a paper whose stored vectors are missing or do not match its
    abstract's sentences. ``get(papers)`` takes ``(paper id, abstract)``
    pairs and returns ``{paper id: (sentences, vectors (n, dim))}``.
    """

    def __init__(self, store, embedder, size: int = 4096):
        self.store = store
        self.embedder = embedder
        self.size = size
        self._cache: OrderedDict[str, tuple[str, list[str], np.ndarray]] = OrderedDict()

    def get(self, papers: list[tuple[str, str]]) -> dict[str, tuple[list[str], np.ndarray]]:
        wanted = dict(papers)
        todo = [pid for pid, abstract in wanted.items() if self._cache.get(pid, ("",))[0] != abstract]
        if todo:
            stored = self.store.sentence_vectors(todo, self.embedder.dim)
            embed: list[tuple[str, list[str]]] = []
            for pid in todo:
                sents = split_sentences(wanted[pid])
                vecs = stored.get(pid)
                if vecs is not None and len(vecs) == len(sents):
                    self._cache[pid] = (wanted[pid], sents, vecs)
                elif sents:
                    embed.append((pid, sents))
            if embed:
                vecs = self.embedder.embed([s for _, sents in embed for s in sents])
                start = 0
                for pid, sents in embed:
                    self._cache[pid] = (wanted[pid], sents, vecs[start:start + len(sents)])
                    start += len(sents)
        out = {}
        for pid in wanted:
            if pid in self._cache:
                self._cache.move_to_end(pid)
                out[pid] = self._cache[pid][1:]
        while len(self._cache) > self.size:
            self._cache.popitem(last=False)
        return out

    def vectors(self) -> dict[str, np.ndarray]:
        """Every cached sentence vector by sentence text (for embedding reuse in the eval)."""
        return {s: v for _abstract, sents, vecs in self._cache.values() for s, v in zip(sents, vecs)}


def term_overlap(question_terms: set[str], sentence: str) -> float:
    """Share of the question's content terms that occur in ``sentence`` (0..1; 0 for a question without terms)."""
    share = term_coverage(question_terms, sentence)
    return 0.0 if share is None else share


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
    index: SentenceIndex,
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
    found = index.get([(p[0], p[1]) for p in papers[:MAX_PAPERS]])
    for paper_id, _abstract, paper_cos, _share in papers[:MAX_PAPERS]:
        sents, vecs = found.get(paper_id, ([], None))
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


def evidence_chunk(record: PaperRecord, quoted: list[str], hits: list, chunk_texts: Callable) -> tuple[str, str]:
    """``(chunk id, text)`` of the stored chunk holding the first quoted sentence of ``record``.

    Else the paper's best-ranked chunk among ``hits``, else its first chunk.
    ``chunk_texts(ids)`` reads chunks from the store.
    """
    chunks = {cid: text for cid, (text, _meta) in chunk_texts(record.chunk_ids).items()} if record.chunk_ids else {}
    probe = " ".join(quoted[0].split())[:80] if quoted else ""
    for cid in record.chunk_ids:
        if cid in chunks and probe and probe in " ".join(chunks[cid].split()):
            return cid, chunks[cid]
    for h in hits:
        if h.paper_id == record.paper_id:
            return h.chunk_id, h.text
    first = record.chunk_ids[0] if record.chunk_ids else ""
    return first, chunks.get(first, "")


def extractive_answer(question: str, qvec: np.ndarray, hits: list, records: dict[str, PaperRecord],
                      index: SentenceIndex, chunk_texts: Callable) -> Answer:
    """The offline answer to ``question`` from ``hits`` (rank order): quoted sentences, each cited, or the abstention."""
    top = hits[0].score if hits and hits[0].score > 0 else 1.0
    papers = [(h.paper_id, records[h.paper_id].abstract, h.dense if h.dense is not None else 0.0, h.score / top)
              for h in hits if h.paper_id in records]
    retrieved = [h.retrieved() for h in hits]
    result = extract(question, qvec, papers, index)
    if result.abstained:
        return Answer.abstention(question, EXTRACTIVE, retrieved)
    order: list[str] = []
    parts = []
    for sent in result.sentences:
        if sent.paper_id not in order:
            order.append(sent.paper_id)
        parts.append(cite_sentence(sent.text, order.index(sent.paper_id) + 1))
    sources = []
    for n, pid in enumerate(order, 1):
        quoted = [s.text for s in result.sentences if s.paper_id == pid]
        chunk_id, text = evidence_chunk(records[pid], quoted, hits, chunk_texts)
        sources.append(Source.from_record(n, records[pid], chunk_id, text))
    return Answer(question, " ".join(parts), EXTRACTIVE, sources=sources, retrieved=retrieved)
