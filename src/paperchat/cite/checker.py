"""Checking each answer sentence against the sources it cites.

For a sentence with citations, against the text of its cited sources:

* **score** (0..1) = ``EMBED_WEIGHT * cos + (1 - EMBED_WEIGHT) * overlap`` where
  ``cos`` is the best cosine similarity between the sentence and a sentence
  of the cited text (the embedding model of the store) and ``overlap`` the
  share of the sentence's content terms (:func:`paperchat.core.text.terms`)
  that occur in the cited text;
* **hard rule**: every number or percentage and every name (a word with an
  inner capital or a digit, e.g. ``GNN+``, ``KernelSHAP``, ``QM9``, ``GPT-2``)
  in the sentence must occur in the cited text.

A sentence is *supported* when the hard rule holds and ``score >=
SUPPORT_THRESHOLD``. A sentence without citations is unsupported (score 0).
The constants were calibrated on ``eval/claims.jsonl`` (116 labelled
sentence/abstract pairs) with ``eval/calibrate_checker.py``: accuracy 0.871;
for "unsupported" precision 1.000 and recall 0.766 (5-fold cross-validated:
the same). Changed numbers, unsupported details and wrong sources are all
caught; contradictions mostly are not (3 of 13): the checker tests grounding,
not entailment.
"""

from __future__ import annotations

import re
from collections import OrderedDict

import numpy as np

from paperchat.cite.markers import answer_sentences, find_citations, strip_markers
from paperchat.core.contract import SentenceCheck
from paperchat.core.text import split_sentences, term_coverage, terms

EMBED_WEIGHT = 0.8
CAPITALISED_NAMES = True
SUPPORT_THRESHOLD = 0.6

_NUMBER = re.compile(r"(?<![\w.\-])(\d+(?:,\d{3})+|\d+(?:\.\d+)?)(?=%|×|x\b|[kKMB]\b|\b)")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9+\-.]*[A-Za-z0-9+]|[A-Za-z]")
_NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen twenty".split()
    )
}
_NUMBER_WORDS.update({"hundred": "100", "thousand": "1000", "million": "1000000", "billion": "1000000000"})


def numbers(text: str) -> set[str]:
    """Numbers in ``text`` as plain digit strings (``"1,000"`` -> ``"1000"``, ``"15%"`` -> ``"15"``).

    Digits inside names (``QM9``, ``GPT-2``) are not numbers; number words up
    to twenty are (``"six"`` -> ``"6"``).
    """
    out = {m.group(1).replace(",", "") for m in _NUMBER.finditer(text)}
    out |= {_NUMBER_WORDS[w] for w in re.findall(r"[a-z]+", text.lower()) if w in _NUMBER_WORDS}
    return {_canonical(n) for n in out}


def _canonical(number: str) -> str:
    if "." in number:
        number = number.rstrip("0").rstrip(".")
    return number.lstrip("0") or "0"


def _norm_name(word: str) -> str:
    word = re.sub(r"['’]s$", "", word)
    return re.sub(r"[^a-z0-9+]", "", word.lower())


def _is_name(word: str) -> bool:
    letters = [c for c in word[1:] if c.isalpha()]
    inner_cap = any(c.isupper() for c in letters)
    has_digit = any(c.isdigit() for c in word) and any(c.isalpha() for c in word)
    return (inner_cap or has_digit) and len(word) >= 2


def names(text: str) -> set[str]:
    """Names of methods, models and datasets in ``text``, as written.

    Words with an inner capital or a digit (``GNN+``, ``KernelSHAP``, ``QM9``,
    ``GPT-2``) and capitalised words not at a sentence start (``Atari``,
    ``Clotho``); possessive ``'s`` and trailing dots removed.
    """
    out = set()
    for sent in split_sentences(text) or [text]:
        for i, m in enumerate(_WORD.finditer(sent)):
            word = re.sub(r"['’]s$", "", m.group(0).rstrip(".-"))
            if _is_name(word) or (CAPITALISED_NAMES and i > 0 and word[:1].isupper() and len(word) > 1):
                out.add(word)
    return out


def flatten_latex(text: str) -> str:
    """``text`` with inline LaTeX flattened: ``K$^2$IE`` -> ``K2IE``, ``$\\mathcal{O}(n)$`` -> ``O(n)``."""
    text = re.sub(r"\\[a-zA-Z]+\s*", "", text)
    return re.sub(r"[$^_{}*]", "", text)


def _initialisms(text: str) -> set[str]:
    """Initial letters of runs of 2 to 6 words: "reinforcement learning" -> "rl"."""
    words = re.findall(r"[A-Za-z]+", text)
    heads = [w[0].lower() for w in words]
    return {"".join(heads[i : i + n]) for n in range(2, 7) for i in range(len(heads) - n + 1)}


def _name_vocab(text: str) -> set[str]:
    vocab = set()
    for raw in _WORD.findall(text):
        n = _norm_name(raw)
        vocab.add(n)
        vocab.add(n[:-1] if n.endswith("s") else n + "s")  # GNN / GNNs
        for part in re.split(r"[-.]", raw):  # GPT-2 XL written GPT-2-XL, Meta-World
            vocab.add(_norm_name(part))
    return vocab


def _name_found(name: str, vocab: set[str], squashed: str) -> bool:
    norm = _norm_name(name)
    if norm in vocab or (len(norm) >= 5 and norm in squashed):
        return True
    # A hyphenated compound ("MuJoCo-based", "GPT-2"): its name-like parts must occur.
    parts = [p for p in re.split(r"[-.]", name) if p]
    if len(parts) < 2:
        return False
    needed = [p for p in parts if _is_name(p) or p.isdigit()]
    return bool(needed) and all(_norm_name(p) in vocab for p in needed)


def missing_facts(sentence: str, cited_text: str) -> list[str]:
    """The numbers and names of ``sentence`` that ``cited_text`` does not contain (the hard rule).

    An all-capitals name also counts as found when it is the initials of
    words of the cited text ("RL" for "reinforcement learning").
    """
    cited_text = cited_text + "\n" + flatten_latex(cited_text)
    missing = sorted(numbers(sentence) - numbers(cited_text))
    vocab = _name_vocab(cited_text)
    vocab |= {a for a in _initialisms(cited_text)}
    squashed = _norm_name(cited_text.replace(" ", ""))
    missing += [name for name in sorted(names(sentence)) if not _name_found(name, vocab, squashed)]
    return missing


def term_overlap(sentence: str, cited_text: str) -> float:
    """Share of the sentence's content terms that occur in ``cited_text`` (0..1; 1 for a sentence without terms)."""
    share = term_coverage(terms(sentence), cited_text)
    return 1.0 if share is None else share


def _combine(cos: float, overlap: float) -> float:
    return max(0.0, min(1.0, EMBED_WEIGHT * cos + (1 - EMBED_WEIGHT) * overlap))


def _verdict(sentence: str, citations: list[int], cited_texts: list[str], cos: float, threshold: float) -> SentenceCheck:
    claim = strip_markers(sentence)
    score = _combine(cos, term_overlap(claim, "\n".join(cited_texts)))
    missing = missing_facts(claim, "\n".join(cited_texts))
    return SentenceCheck(sentence, citations, not missing and score >= threshold, round(score, 4), missing)


class SupportChecker:
    """Checks answer sentences against their cited sources with one embedding model.

    ``embedder`` is an :class:`paperchat.ingest.embedding.Embedder`. The
    sentence vectors of cited texts are kept in an LRU cache of
    ``cache_size`` texts (a follow-up cites the same abstracts again).
    """

    def __init__(self, embedder, cache_size: int = 256, threshold: float = SUPPORT_THRESHOLD):
        self.embedder = embedder
        self.threshold = threshold
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size

    def source_vectors(self, text: str) -> np.ndarray:
        """Embeddings of the sentences of a cited text, shape ``(sentences, dim)`` (cached)."""
        if text in self._cache:
            self._cache.move_to_end(text)
            return self._cache[text]
        vecs = self.embedder.embed(split_sentences(text) or [text])
        self._cache[text] = vecs
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return vecs

    def check_sentence(self, sentence: str, cited_texts: list[str]) -> SentenceCheck:
        """Check one answer sentence (with its markers) against the texts of the sources it cites."""
        citations = list(dict.fromkeys(find_citations(sentence)))
        if not citations or not cited_texts:
            return SentenceCheck(sentence, citations, False, 0.0, [])
        vec = self.embedder.embed([strip_markers(sentence)])[0]
        cos = max(float(np.max(self.source_vectors(t) @ vec)) for t in cited_texts)
        return _verdict(sentence, citations, cited_texts, cos, self.threshold)

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
            cos = max(float(np.max(self.source_vectors(sources[n]) @ vec)) for n in known)
            out.append(_verdict(sent, cited, [sources[n] for n in known], cos, self.threshold))
        return out
