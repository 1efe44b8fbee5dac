"""The evidence the learned verifier reads for a claim: the cited sentences that share most of its terms.

Shared by the checker (:mod:`paperchat.cite.checker`) and the script that
trains the verifier (``training/verifier.py``), so the model sees at run
time exactly what it was trained on. Lexical and deterministic: no model is
loaded here, and an answer's check needs no embedding pass.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from paperchat.core.sentences import split_sentences
from paperchat.core.terms import terms

#: cited sentences the verifier reads per claim
EVIDENCE_SENTENCES = 3


def rank_sentences(claim: str, sentences: Sequence[str]) -> list[int]:
    """Indices of ``sentences``, most relevant to ``claim`` first.

    Relevance is the sum, over the claim's content terms (:func:`paperchat.core.terms.terms`) that a
    sentence contains, of ``log(1 + n / df)``, where ``n`` is the number of sentences and ``df`` how many
    contain the term (a term every sentence shares counts little); ties keep text order.
    """
    sets = [set(terms(s)) for s in sentences]
    df = Counter(t for s in sets for t in s)
    n = len(sentences)
    wanted = set(terms(claim))
    scores = [sum(math.log(1 + n / df[t]) for t in wanted & s) for s in sets]
    return sorted(range(n), key=lambda i: (-scores[i], i))


def pick_evidence(claim: str, cited_texts: Sequence[str], k: int = EVIDENCE_SENTENCES) -> str:
    """The ``k`` sentences of ``cited_texts`` most relevant to ``claim``, most relevant first, joined by spaces.

    Sentences of several cited texts compete together. Returns ``""`` when the texts hold no sentence.
    """
    sentences = [s for text in cited_texts for s in (split_sentences(text) or [text.strip()]) if s]
    return " ".join(sentences[i] for i in rank_sentences(claim, sentences)[:k])
