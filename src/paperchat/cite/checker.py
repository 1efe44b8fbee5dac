"""Checking each answer sentence against the sources it cites: rules first, then a learned verifier.

For a sentence with citations, against the text of its cited sources, in order:

1. **verbatim quote**: the sentence (without markers; at least five words)
   occurs in a cited text -> supported, score 1; nothing else runs (offline
   answers quote their sources, so checking them loads no model);
2. **rules**, as before the verifier existed: ``score = EMBED_WEIGHT * cos +
   (1 - EMBED_WEIGHT) * overlap`` (the best embedding cosine with a cited
   sentence and the share of the sentence's content terms found in the cited
   text) must reach ``SUPPORT_THRESHOLD``; the **hard rule**
   (:mod:`paperchat.cite.facts`): the sentence's numbers, big-O complexities,
   counts and names must occur in the cited text; no **cue**
   (:mod:`paperchat.cite.cues`) that the text says the opposite or less;
3. **learned verifier** (:mod:`paperchat.cite.verifier`), for a sentence the
   rules pass: a cross-encoder reads it with its evidence (the three cited
   sentences sharing most of its terms, :mod:`paperchat.cite.evidence`) and
   gives P(supported); below ``VERIFIER_THRESHOLD`` the sentence is
   unsupported, with the reason "the learned verifier finds no support".

A sentence without citations is unsupported (score 0), and so is one citing several sources of which
one scores below ``IDLE_CITATION_BELOW`` alone (the reader would be sent to a paper that says nothing of it). ``score`` stays the
rules' score (1 for a quote). ``learned=False`` skips layers 1 and 3 (the
checker as it was, kept to measure against). An optional LLM pass can add
flags (:mod:`paperchat.answer.llm_verify`).

Measured with ``eval/calibrate_checker.py`` on labelled claims
(``eval/claims``); the verifier's threshold was chosen on the dev split only
(the best accuracy on its curve). On the held-out test split (155 claims
written without sight of the checker): accuracy 0.761 -> 0.774, precision for
"unsupported" 0.912 -> 0.892, recall 0.667 -> 0.710 (rules alone -> rules +
verifier). The verifier, trained on synthetic edits, transfers weakly to
claims people write, hence its low threshold: a swapped entity that the text
also names, or a contradiction in other words, still often passes.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from paperchat.cite.cues import conflict
from paperchat.cite.evidence import pick_evidence
from paperchat.cite.facts import flatten_latex, missing_facts, names, numbers  # noqa: F401 - the hard rule
from paperchat.cite.markers import answer_sentences, find_citations, quotable, strip_markers
from paperchat.core.contract import SentenceCheck
from paperchat.core.sentences import split_sentences
from paperchat.core.terms import term_coverage, terms

EMBED_WEIGHT = 0.8
SUPPORT_THRESHOLD = 0.6
#: P(supported) from the learned verifier below which a sentence the rules pass is unsupported (chosen on
#: eval/claims/dev.jsonl with ``eval/calibrate_checker.py --split dev --curve``)
VERIFIER_THRESHOLD = 0.01
#: a sentence citing several sources is unsupported when one of them scores below this alone (the rules'
#: score against that source's text): the citation would send the reader to a paper that says nothing of
#: it. Set before measuring, at half of SUPPORT_THRESHOLD; eval/claims cite one source a claim, so no set
#: has measured it.
IDLE_CITATION_BELOW = 0.3
#: cited sentences closest to a claim, where :func:`paperchat.cite.cues.conflict` looks for antonyms
ALIGNED = 2
#: words a claim needs before a verbatim occurrence in the cited text counts as a quote
QUOTE_WORDS = 5


def term_overlap(sentence: str, cited_text: str) -> float:
    """Share of the sentence's content terms that occur in ``cited_text`` (0..1; 1 for a sentence without terms)."""
    share = term_coverage(terms(sentence), cited_text)
    return 1.0 if share is None else share


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def is_quote(claim: str, cited_texts: list[str]) -> bool:
    """Whether ``claim`` (markers stripped) occurs verbatim in one of ``cited_texts`` (case and spacing aside;
    a final period may differ) and has at least :data:`QUOTE_WORDS` words."""
    body = _squash(claim).rstrip(" .")
    return len(body.split()) >= QUOTE_WORDS and any(
        body in _squash(quotable(t)) for t in cited_texts
    )


def _combine(cos: float, overlap: float) -> float:
    return max(0.0, min(1.0, EMBED_WEIGHT * cos + (1 - EMBED_WEIGHT) * overlap))


def _verdict(
    sentence: str,
    citations: list[int],
    cited_texts: list[str],
    cos: float,
    threshold: float,
    aligned: list[str] | None = None,
) -> SentenceCheck:
    """The rules' verdict (layer 2)."""
    claim = strip_markers(sentence)
    text = "\n".join(cited_texts)
    score = _combine(cos, term_overlap(claim, text))
    missing = missing_facts(claim, text)
    clash = None if missing or score < threshold else conflict(claim, text, aligned or [])
    return SentenceCheck(
        sentence,
        citations,
        not missing and score >= threshold and clash is None,
        round(score, 4),
        missing,
        clash,
    )


class SupportChecker:
    """Checks answer sentences against their cited sources (see the module docstring for the layers).

    ``embedder`` is an :class:`paperchat.ingest.embedding.Embedder`; the sentence vectors of cited texts
    are kept in an LRU cache of ``cache_size`` texts (a follow-up cites the same abstracts again);
    sentences whose vectors are already known (:meth:`remember`, or :meth:`learn` from ``stored``) are
    not embedded again. ``stored(papers)`` takes ``(paper id, abstract)`` pairs and returns ``{paper id:
    (sentences, vectors)}`` (:meth:`paperchat.answer.sentences.SentenceIndex.get`: the vectors stored at
    ingest). ``threshold`` is the rules' score threshold; ``learned`` adds the quote gate and the verifier
    (``verifier``: a :class:`paperchat.cite.verifier.Verifier`, default the shared one, loaded on the
    first sentence that needs it) with ``verifier_threshold``.
    """

    def __init__(
        self,
        embedder,
        cache_size: int = 256,
        threshold: float = SUPPORT_THRESHOLD,
        stored: Callable[[list[tuple[str, str]]], dict[str, tuple[list[str], np.ndarray]]]
        | None = None,
        learned: bool = True,
        verifier=None,
        verifier_threshold: float = VERIFIER_THRESHOLD,
    ):
        self.embedder = embedder
        self.threshold = threshold
        self.stored = stored
        self.learned = learned
        self.verifier_threshold = verifier_threshold
        self._verifier = verifier
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

    @property
    def verifier(self):
        """The learned verifier (created on first use; its model loads when it first scores)."""
        if self._verifier is None:
            from paperchat.cite.verifier import get_verifier

            self._verifier = get_verifier()
        return self._verifier

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
        entry = (
            sentences,
            np.array([fresh[s] if s in fresh else self._known[s] for s in sentences]),
        )
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

    def verifier_scores(self, claims: list[str], cited: list[list[str]]) -> list[float]:
        """P(supported) from the learned verifier for each claim (markers stripped) and its cited texts."""
        return self.verifier.scores(
            [(c, pick_evidence(c, texts)) for c, texts in zip(claims, cited)]
        )

    def _check(
        self, items: list[tuple[str, list[int], list[str]]], known: list[list[int]] | None = None
    ) -> list[SentenceCheck]:
        """Verdicts of (sentence, citations, cited texts) items, in order: quotes, rules, then one verifier pass;
        with ``known`` (each item's citation numbers, one per cited text), a sentence citing a source that
        supports nothing in it is flagged too (:meth:`_flag_idle_citations`)."""
        out: list[SentenceCheck | None] = [None] * len(items)
        ruled = []
        for i, (sent, citations, texts) in enumerate(items):
            if self.learned and is_quote(strip_markers(sent), texts):
                out[i] = SentenceCheck(sent, citations, True, 1.0)
            else:
                ruled.append(i)
        vecs = self.embedder.embed([strip_markers(items[i][0]) for i in ruled]) if ruled else []
        for i, vec in zip(ruled, vecs):
            sent, citations, texts = items[i]
            cos, aligned = self._match(vec, texts)
            out[i] = _verdict(sent, citations, texts, cos, self.threshold, aligned)
        passed = [i for i in ruled if self.learned and out[i].supported]  # type: ignore[union-attr]
        probs = self.verifier_scores(
            [strip_markers(items[i][0]) for i in passed], [items[i][2] for i in passed]
        )
        for i, p in zip(passed, probs):
            if p < self.verifier_threshold:
                sent, citations, _texts = items[i]
                out[i] = SentenceCheck(
                    sent,
                    citations,
                    False,
                    out[i].score,
                    [],  # type: ignore[union-attr]
                    f"the learned verifier finds no support (P={p:.3f})",
                )
        if known:
            self._flag_idle_citations(items, known, out, dict(zip(ruled, vecs)))
        return out  # type: ignore[return-value]

    def _flag_idle_citations(self, items, known, out, claim_vecs: dict) -> None:
        """Mark unsupported, in ``out``, each supported sentence citing two sources or more of which one alone
        scores below :data:`IDLE_CITATION_BELOW` ("source [2] supports nothing in it"), or holds none of the
        names the sentence gives ("source [5] names none of CROW": a padded citation to a paper on the same
        topic had passed, a local-LLM session). The claims' vectors are
        the rules' (``claim_vecs`` by item); only a quote, which the rules did not embed, is embedded here."""
        multi = [i for i, ns in enumerate(known) if len(ns) >= 2 and out[i].supported]
        quoted = [i for i in multi if i not in claim_vecs]
        if quoted:
            embedded = self.embedder.embed([strip_markers(items[i][0]) for i in quoted])
            claim_vecs.update(zip(quoted, embedded))
        for i in multi:
            claim, texts = strip_markers(items[i][0]), items[i][2]
            # "CROW reduces ... [1, 5]": each source must hold one of its names
            named = set(names(claim))
            for n, text in zip(known[i], texts):
                score = _combine(self._match(claim_vecs[i], [text])[0], term_overlap(claim, text))
                if score < IDLE_CITATION_BELOW:
                    reason = f"source [{n}] supports nothing in it (score {score:.2f} alone)"
                    out[i] = replace(out[i], supported=False, conflict=reason)
                    break
                if named and named <= set(missing_facts(claim, text)):
                    reason = f"source [{n}] names none of {', '.join(sorted(named))}"
                    out[i] = replace(out[i], supported=False, conflict=reason)
                    break

    def check_sentence(self, sentence: str, cited_texts: list[str]) -> SentenceCheck:
        """Check one answer sentence (with its markers) against the texts of the sources it cites."""
        citations = list(dict.fromkeys(find_citations(sentence)))
        if not citations or not cited_texts:
            return SentenceCheck(sentence, citations, False, 0.0, [])
        return self._check([(sentence, citations, list(cited_texts))])[0]

    def verify_answer(self, answer: str, sources: dict[int, str]) -> list[SentenceCheck]:
        """Check every sentence of ``answer`` against the sources it cites.

        ``sources`` maps a citation number to its text (the chunk or abstract
        the LLM saw). Returns one :class:`SentenceCheck` per sentence, in
        answer order; citations to numbers not in ``sources`` are ignored, and
        a sentence without a known citation is unsupported.
        """
        sents = answer_sentences(answer)
        checks: list[SentenceCheck | None] = [None] * len(sents)
        todo, known_numbers = [], []
        for i, sent in enumerate(sents):
            cited = list(dict.fromkeys(find_citations(sent)))
            known = [n for n in cited if n in sources]
            if known:
                todo.append((i, (sent, cited, [sources[n] for n in known])))
                known_numbers.append(known)
            else:
                checks[i] = SentenceCheck(sent, cited, False, 0.0, [])
        for (i, _item), check in zip(todo, self._check([it for _i, it in todo], known_numbers)):
            checks[i] = check
        return checks  # type: ignore[return-value]
