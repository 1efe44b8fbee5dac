"""Checking each answer sentence against the sources it cites.

For a sentence with citations, against the text of its cited sources:

* **score** (0..1) = ``EMBED_WEIGHT * cos + (1 - EMBED_WEIGHT) * overlap`` where
  ``cos`` is the best cosine similarity between the sentence and a sentence
  of the cited text (embeddings from :func:`paperchat.embeddings.get_embedder`)
  and ``overlap`` the share of the sentence's content terms
  (:func:`paperchat.text.terms`) that occur in the cited text;
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
from dataclasses import asdict, dataclass

import numpy as np

from paperchat.citations import find_citations
from paperchat.text import split_sentences, terms

EMBED_WEIGHT = 0.8
CAPITALISED_NAMES = True
SUPPORT_THRESHOLD = 0.6

_MARKER = re.compile(r"\s*\[\d+(?:\s*[-–,]\s*\d+)*\]")
_LEADING_MARKERS = re.compile(r"^((?:\[\d+(?:\s*[-–,]\s*\d+)*\]\s*)+)")
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


@dataclass
class SentenceCheck:
    """One answer sentence: its text (with markers), cited numbers, verdict and score (0..1)."""

    text: str
    citations: list[int]
    supported: bool
    score: float
    missing: list[str]


def answer_sentences(answer: str) -> list[str]:
    """Split an answer into sentences, keeping each ``[n]`` marker with the sentence it follows.

    A marker placed after the full stop (``"Claim. [2] Next..."``) is moved
    back to the sentence before it.
    """
    out: list[str] = []
    for sent in split_sentences(answer):
        m = _LEADING_MARKERS.match(sent)
        if m and out:
            out[-1] = out[-1] + " " + m.group(1).strip()
            sent = sent[m.end() :].strip()
        if sent:
            out.append(sent)
    return out


def strip_markers(text: str) -> str:
    """``text`` without ``[n]`` markers."""
    return _MARKER.sub("", text).strip()


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
    """Share of the sentence's content terms that occur in ``cited_text`` (0..1; 1 for no terms)."""
    own = set(terms(sentence))
    if not own:
        return 1.0
    return len(own & set(terms(cited_text))) / len(own)


def _combine(cos: float, overlap: float) -> float:
    return max(0.0, min(1.0, EMBED_WEIGHT * cos + (1 - EMBED_WEIGHT) * overlap))


def support_score(sentence: str, cited_texts: list[str], embedder, sentence_vec: np.ndarray | None = None) -> float:
    """``EMBED_WEIGHT * best cosine + (1 - EMBED_WEIGHT) * term overlap`` of a marker-free sentence (0..1).

    The cosine is the best one between the sentence and a sentence of the
    cited texts.
    """
    if not cited_texts:
        return 0.0
    pieces = [s for t in cited_texts for s in split_sentences(t)] or cited_texts
    vecs = embedder.embed(pieces)
    if sentence_vec is None:
        sentence_vec = embedder.embed([sentence])[0]
    return _combine(float(np.max(vecs @ sentence_vec)), term_overlap(sentence, "\n".join(cited_texts)))


def _verdict(sentence: str, citations: list[int], cited_texts: list[str], cos: float, threshold: float) -> SentenceCheck:
    claim = strip_markers(sentence)
    score = _combine(cos, term_overlap(claim, "\n".join(cited_texts)))
    missing = missing_facts(claim, "\n".join(cited_texts))
    return SentenceCheck(sentence, citations, not missing and score >= threshold, round(score, 4), missing)


def check_sentence(sentence: str, cited_texts: list[str], embedder, threshold: float | None = None) -> SentenceCheck:
    """Check one answer sentence (with its markers) against the texts of the sources it cites."""
    citations = list(dict.fromkeys(find_citations(sentence)))
    if not citations or not cited_texts:
        return SentenceCheck(sentence, citations, False, 0.0, [])
    claim = strip_markers(sentence)
    pieces = [s for t in cited_texts for s in split_sentences(t)] or cited_texts
    vecs = embedder.embed([claim] + pieces)
    cos = float(np.max(vecs[1:] @ vecs[0]))
    return _verdict(sentence, citations, cited_texts, cos, SUPPORT_THRESHOLD if threshold is None else threshold)


_VEC_CACHE: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
_VEC_CACHE_SIZE = 256


def source_vectors(text: str, embedder) -> np.ndarray:
    """Embeddings of the sentences of a cited text, shape ``(sentences, dim)`` (LRU-cached per process)."""
    key = (getattr(embedder, "model_id", ""), text)
    if key in _VEC_CACHE:
        _VEC_CACHE.move_to_end(key)
        return _VEC_CACHE[key]
    vecs = embedder.embed(split_sentences(text) or [text])
    _VEC_CACHE[key] = vecs
    while len(_VEC_CACHE) > _VEC_CACHE_SIZE:
        _VEC_CACHE.popitem(last=False)
    return vecs


def verify_answer(answer: str, sources: dict[int, str], embedder) -> list[dict]:
    """Check every sentence of ``answer`` against the sources it cites.

    ``sources`` maps a citation number to its text (the chunk or abstract the
    LLM saw). Returns ``[{text, citations, supported, score, missing}]`` in
    answer order (``missing``: the numbers and names the cited text lacks);
    citations to numbers not in ``sources`` are ignored. Source sentence
    embeddings are cached (:func:`source_vectors`).
    """
    sents = answer_sentences(answer)
    cites = [list(dict.fromkeys(find_citations(s))) for s in sents]
    used = sorted({n for c in cites for n in c if n in sources})
    rows = {n: source_vectors(sources[n], embedder) for n in used}
    sent_vecs = embedder.embed([strip_markers(s) for s in sents]) if sents else []
    out = []
    for sent, vec, cited in zip(sents, sent_vecs, cites):
        known = [n for n in cited if n in sources]
        if not cited or not known:
            out.append(asdict(SentenceCheck(sent, cited, False, 0.0, [])))
            continue
        cos = max(float(np.max(rows[n] @ vec)) for n in known)
        out.append(asdict(_verdict(sent, cited, [sources[n] for n in known], cos, SUPPORT_THRESHOLD)))
    return out
