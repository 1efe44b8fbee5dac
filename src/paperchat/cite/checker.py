"""Checking each answer sentence against the sources it cites.

For a sentence with citations, against the text of its cited sources:

* **score** (0..1) = ``EMBED_WEIGHT * cos + (1 - EMBED_WEIGHT) * overlap`` where
  ``cos`` is the best cosine similarity between the sentence and a sentence
  of the cited text (the embedding model of the store) and ``overlap`` the
  share of the sentence's content terms (:func:`paperchat.core.text.terms`)
  that occur in the cited text;
* **hard rule** (:mod:`paperchat.cite.facts`): the sentence's numbers,
  big-O complexities, counts and names must occur in the cited text;
* **cues** (:mod:`paperchat.cite.cues`): no sign that the cited text says
  the opposite (negated requirements, antonyms, "like" versus "unlike",
  swapped comparisons) or less (an added "always", "proves").

A sentence is *supported* when the hard rule holds, ``score >=
SUPPORT_THRESHOLD`` and no cue fires. A sentence without citations is
unsupported (score 0). An optional LLM pass can add flags
(:mod:`paperchat.answer.llm_verify`).

Measured with ``eval/calibrate_checker.py`` on labelled claims
(``eval/claims``): the rules were developed on the dev split (210 claims;
accuracy 0.786 → 0.886) and are reported on the held-out test split (155
claims written without sight of the checker): accuracy 0.690 → 0.761,
precision for "unsupported" 0.959 → 0.912, recall 0.505 → 0.667. The
checker tests grounding with lexical rules, not entailment: a contradiction
in other words, or a swapped entity that the text also names, passes it.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Callable

import numpy as np

from paperchat.cite.cues import conflict
from paperchat.cite.facts import flatten_latex, missing_facts, names, numbers  # noqa: F401 - the hard rule
from paperchat.cite.markers import answer_sentences, find_citations, strip_markers
from paperchat.core.contract import SentenceCheck
from paperchat.core.text import split_sentences, term_coverage, terms

EMBED_WEIGHT = 0.8
SUPPORT_THRESHOLD = 0.6
#: cited sentences closest to a claim, where :func:`paperchat.cite.cues.conflict` looks for antonyms
ALIGNED = 2

def term_overlap(sentence: str, cited_text: str) -> float:
    """Share of the sentence's content terms that occur in ``cited_text`` (0..1; 1 for a sentence without terms)."""
    share = term_coverage(terms(sentence), cited_text)
    return 1.0 if share is None else share


def _combine(cos: float, overlap: float) -> float:
    return max(0.0, min(1.0, EMBED_WEIGHT * cos + (1 - EMBED_WEIGHT) * overlap))


def _verdict(sentence: str, citations: list[int], cited_texts: list[str], cos: float, threshold: float,
             aligned: list[str] | None = None) -> SentenceCheck:
    claim = strip_markers(sentence)
    text = "\n".join(cited_texts)
    score = _combine(cos, term_overlap(claim, text))
    missing = missing_facts(claim, text)
    clash = None if missing or score < threshold else conflict(claim, text, aligned or [])
    return SentenceCheck(sentence, citations, not missing and score >= threshold and clash is None, round(score, 4),
                         missing, clash)


class SupportChecker:
    """Checks answer sentences against their cited sources with one embedding model.

    ``embedder`` is an :class:`paperchat.ingest.embedding.Embedder`. The
    sentence vectors of cited texts are kept in an LRU cache of
    ``cache_size`` texts (a follow-up cites the same abstracts again);
    sentences whose vectors are already known (:meth:`remember`, or
    :meth:`learn` from ``stored``) are not embedded again. ``stored(papers)``
    takes ``(paper id, abstract)`` pairs and returns ``{paper id: (sentences,
    vectors)}`` (:meth:`paperchat.answer.sentences.SentenceIndex.get`: the
    vectors stored at ingest).
    """

    def __init__(self, embedder, cache_size: int = 256, threshold: float = SUPPORT_THRESHOLD,
                 stored: Callable[[list[tuple[str, str]]], dict[str, tuple[list[str], np.ndarray]]] | None = None):
        self.embedder = embedder
        self.threshold = threshold
        self.stored = stored
        self._cache: OrderedDict[str, tuple[list[str], np.ndarray]] = OrderedDict()
        self._cache_size = cache_size
        self._known: OrderedDict[str, np.ndarray] = OrderedDict()

    def learn(self, papers: list[tuple[str, str]]) -> None:
        """Take the stored sentence vectors of ``papers`` (``(paper id, abstract)`` pairs), when there is a store."""
        if self.stored is not None and papers:
            for sentences, vectors in self.stored(papers).values():
                self.remember(sentences, vectors)

    def remember(self, sentences: list[str], vectors: np.ndarray) -> None:
        """Vectors already computed by the same model for ``sentences`` (e.g. an abstract's, stored at ingest)."""
        for sentence, vec in zip(sentences, vectors):
            self._known[sentence] = vec
            self._known.move_to_end(sentence)
        while len(self._known) > 64 * self._cache_size:
            self._known.popitem(last=False)

    def source_vectors(self, text: str) -> np.ndarray:
        """Embeddings of the sentences of a cited text, shape ``(sentences, dim)`` (cached)."""
        return self._source(text)[1]

    def _source(self, text: str) -> tuple[list[str], np.ndarray]:
        if text in self._cache:
            self._cache.move_to_end(text)
            return self._cache[text]
        sentences = split_sentences(text) or [text]
        todo = [s for s in dict.fromkeys(sentences) if s not in self._known]
        fresh = dict(zip(todo, self.embedder.embed(todo))) if todo else {}
        entry = (sentences, np.array([fresh[s] if s in fresh else self._known[s] for s in sentences]))
        self._cache[text] = entry
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return entry

    def _match(self, vec: np.ndarray, texts: list[str]) -> tuple[float, list[str]]:
        """The best cosine of ``vec`` with a sentence of ``texts``, and the ``ALIGNED`` closest sentences."""
        scored: list[tuple[float, str]] = []
        for text in texts:
            sentences, vecs = self._source(text)
            sims = vecs @ vec
            scored += [(float(sims[i]), sentences[i]) for i in np.argsort(-sims)[:ALIGNED]]
        scored.sort(key=lambda x: -x[0])
        return scored[0][0], [s for _c, s in scored[:ALIGNED]]

    def check_sentence(self, sentence: str, cited_texts: list[str]) -> SentenceCheck:
        """Check one answer sentence (with its markers) against the texts of the sources it cites."""
        citations = list(dict.fromkeys(find_citations(sentence)))
        if not citations or not cited_texts:
            return SentenceCheck(sentence, citations, False, 0.0, [])
        vec = self.embedder.embed([strip_markers(sentence)])[0]
        cos, aligned = self._match(vec, cited_texts)
        return _verdict(sentence, citations, cited_texts, cos, self.threshold, aligned)

    def verify_answer(self, answer: str, sources: dict[int, str]) -> list[SentenceCheck]:
        """Check every sentence of ``answer`` against the sources it cites.

        ``sources`` maps a citation number to its text (the chunk or abstract
        the LLM saw). Returns one :class:`SentenceCheck` per sentence, in
        answer order; citations to numbers not in ``sources`` are ignored, and
        a sentence without a known citation is unsupported.
        """
        sents = answer_sentences(answer)
        cites = [list(dict.fromkeys(find_citations(s))) for s in sents]
        vecs = self.embedder.embed([strip_markers(s) for s in sents]) if sents else []
        out = []
        for sent, vec, cited in zip(sents, vecs, cites):
            known = [n for n in cited if n in sources]
            if not known:
                out.append(SentenceCheck(sent, cited, False, 0.0, []))
                continue
            texts = [sources[n] for n in known]
            cos, aligned = self._match(vec, texts)
            out.append(_verdict(sent, cited, texts, cos, self.threshold, aligned))
        return out
