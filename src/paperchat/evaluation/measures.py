"""Per-question measures: retrieval (Recall@k, MRR, nDCG), required facts, and citations (ALCE).

* Recall@k: share of gold papers among the first ``k`` retrieved.
* MRR@k: reciprocal rank of the first gold paper within ``k`` (0 if none);
  Voorhees, TREC-8 QA track (1999).
* nDCG@k: DCG with gain 1 and discount ``1 / log2(rank + 1)``, divided by the
  ideal DCG of the *gold set* (all gold papers ranked first), not of the
  retrieved list; Järvelin & Kekäläinen (2002).
* Facts: a fact group is a list of accepted variants; it is satisfied when
  any variant occurs in the answer (case-insensitive) as words or a number, not
  inside another word or number, citation markers and emphasis left out.
* Citations, in the spirit of ALCE (Gao et al. 2023, "Enabling Large
  Language Models to Generate Text with Citations"): citation recall (the
  share of answer sentences their cited sources support) and precision (the
  share of citations that are relevant), support judged by
  :class:`paperchat.cite.checker.SupportChecker`.

Retrieval measures return floats in [0, 1]; with an empty gold set they
return 0.0 (such questions are unanswerable and are scored by abstention).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from paperchat.cite.markers import answer_sentences, find_citations, strip_markers
from paperchat.core.contract import Answer
from paperchat.core.text import one_sentence


def recall_at_k(ranked: Sequence[str], gold: set[str], k: int) -> float:
    """Share of ``gold`` found in ``ranked[:k]``."""
    if not gold:
        return 0.0
    return len(set(ranked[:k]) & gold) / len(gold)


def mrr_at_k(ranked: Sequence[str], gold: set[str], k: int = 10) -> float:
    """``1 / rank`` of the first gold id within the top ``k``, else 0."""
    for rank, pid in enumerate(ranked[:k], 1):
        if pid in gold:
            return 1.0 / rank
    return 0.0


def ndcg_at_k(ranked: Sequence[str], gold: set[str], k: int = 10) -> float:
    """nDCG@k with binary gains; the ideal DCG ranks all of ``gold`` (up to ``k``) first."""
    if not gold:
        return 0.0
    seen: set[str] = set()
    dcg = 0.0
    for rank, pid in enumerate(ranked[:k], 1):
        if pid in gold and pid not in seen:
            dcg += 1.0 / math.log2(rank + 1)
            seen.add(pid)
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(len(gold), k) + 1))
    return dcg / ideal


def first_gold_rank(ranked: Sequence[str], gold: set[str]) -> int | None:
    """1-based rank of the first gold paper in ``ranked`` (``None`` when none is there)."""
    for rank, pid in enumerate(ranked, 1):
        if pid in gold:
            return rank
    return None


def retrieval_scores(ranked: Sequence[str], gold: set[str]) -> dict[str, float]:
    """Recall@1/5/10, MRR@10, nDCG@10 of a paper ranking against a gold set (binary relevance)."""
    return {
        "recall@1": recall_at_k(ranked, gold, 1),
        "recall@5": recall_at_k(ranked, gold, 5),
        "recall@10": recall_at_k(ranked, gold, 10),
        "mrr@10": mrr_at_k(ranked, gold, 10),
        "ndcg@10": ndcg_at_k(ranked, gold, 10),
    }


def _matchable(answer: str) -> str:
    """``answer`` as facts are matched in: citation markers (:func:`~paperchat.cite.markers.strip_markers`:
    "1" had matched "[1]") and Markdown emphasis (``**A**ligns``) removed, lower case, runs of white space as
    one space."""
    text = strip_markers(answer).replace("**", "").replace("*", "").replace("`", "")
    return _times(" ".join(text.lower().split()))


#: A multiplication sign as an abstract writes it (LaTeX "$\\times$", "×") or a user types it ("x").
_TIMES = re.compile(r"\$?\\times\$?|×")


def _times(text: str) -> str:
    """``text`` with every multiplication sign written "x": "3.04$\\times$", "3.04×" and "3.04x" are one fact
    (an eval session's "6×", copied from an answer, had not matched the abstract's "6$\\times$"); and LaTeX's
    percent sign "\\%" as "%" (189 of the conference's abstracts write "90\\%", which a fact "90%" had missed)."""
    return _TIMES.sub("x", text).replace("\\%", "%")


#: What a number inside a name follows: letters that are no LaTeX command and not a lone "x" ("a100"), or
#: letters and a hyphen ("gpt-4").
_NAME_BEFORE = re.compile(r"(?<![\\a-z])(?!x-?$)[a-z]+-?$")


def _holds(text: str, variant: str) -> bool:
    """Whether ``variant`` (lower case) occurs in ``text`` as words or a number, not inside another: a variant
    that starts with a letter is not preceded by one ("core" is not in "scorer"), one that starts with a digit
    not by a digit ("3" is not in "2023"); one that ends with a letter or digit is not followed by a digit
    ("1280x" is not in "1280x720"), and one that ends with a digit not by a decimal part ("1.88" is not in
    "1.885"), and one that starts with a digit is no part of a name ("4" is not in "gpt-4", "100" not in
    "a100"). Endings stay free ("heavy tail" is in "heavy tailed"), as does a symbol before a number
    ("x1.4", "$\\sim2.5$")."""
    for m in re.finditer(re.escape(variant), text):
        start, end = m.span()
        before = text[start - 1] if start else " "
        if variant[0].isalpha() and before.isalpha():
            continue
        if variant[0].isdigit() and (
            before.isdigit() or before == "." and text[start - 2 : start - 1].isdigit()
        ):
            continue
        # a number inside a name: "4" in "gpt-4", "100" in "a100" (not "x1.4", a factor, nor "\\sim2.5")
        if variant[0].isdigit() and _NAME_BEFORE.search(text, 0, start):
            continue
        after = text[end : end + 2]
        if variant[-1].isalnum() and after[:1].isdigit():
            continue
        if variant[-1].isdigit() and re.match(r"\.\d", after):
            continue
        return True
    return False


def facts_found(answer: str, facts: Sequence[Sequence[str]]) -> list[bool]:
    """For each fact group (list of variants): whether any variant occurs in ``answer`` (:func:`_holds`: as
    words or a number, not inside another), case and runs of white space folded ("discrete   diffusion" is
    "Discrete diffusion"), a multiplication sign as "x" and "\\%" as "%" (:func:`_times`), citation markers and Markdown
    emphasis left out (:func:`_matchable`)."""
    text = _matchable(answer)
    return [
        any(
            (v := _times(" ".join(str(variant).lower().split()))) and _holds(text, v)
            for variant in group
        )
        for group in facts
    ]


def fact_recall(answer: str, facts: Sequence[Sequence[str]]) -> float | None:
    """Share of fact groups satisfied by ``answer`` (0..1); ``None`` without fact groups."""
    if not facts:
        return None
    found = facts_found(answer, facts)
    return sum(found) / len(found)


class CachedSupport:
    """Whether texts support a sentence, judged by a :class:`~paperchat.cite.checker.SupportChecker`, cached per pair."""

    def __init__(self, checker):
        self.checker = checker
        self._cache: dict[tuple[str, tuple[str, ...]], bool] = {}

    def supports(self, sentence: str, texts: Sequence[str]) -> bool:
        """Whether ``texts`` jointly support ``sentence`` (markers are ignored by the checker)."""
        if not texts:
            return False
        key = (sentence, tuple(texts))
        if key not in self._cache:
            self._cache[key] = bool(self.checker.check_sentence(sentence, list(texts)).supported)
        return self._cache[key]


def _without_heading(sentence: str, cited: list) -> str:
    """``sentence`` without the heading an offline answer puts before a paper's first sentence ("Title (Label):
    ", the title as the answer writes it), which is no claim of the abstract: an eval session's quote, word for
    word, had been judged unsupported with it."""
    for source in cited:
        title = source.title or ""
        written = one_sentence(title)  # as the answer writes it (paperchat.answer.offline)
        for head in dict.fromkeys(h for h in (title, written) if h):
            m = re.match(re.escape(head) + r"(?:\s*—?\s*\([^()]*\))?:\s+", sentence)
            if m:
                return sentence[m.end() :]
    return sentence


def citation_scores(
    answer: Answer, gold: set[str], checker: CachedSupport | None
) -> dict[str, Any]:
    """Citation figures of one answer.

    Returns ``{sentences, sentence_citation_rate, markers, out_of_range,
    out_of_range_share, cited: [paper ids], cited_gold_share,
    gold_cited_share, citation_recall, citation_precision, unsupported:
    [sentence]}``; the gold shares are ``None`` without gold papers, the ALCE
    figures ``None`` without a checker. An answer with no sentences scores 0.
    ``out_of_range`` counts markers outside the answer's Sources and, for an LLM
    answer, each number it cited outside the sources sent (removed from the
    text, kept in ``invalid_citations``) once, so the figure sees what the model wrote.
    """
    sources = {s.n: s for s in answer.sources}
    sentences = answer_sentences(answer.answer)
    markers = 0
    out_of_range = 0
    with_citation = 0
    cited: list[str] = []
    recall_hits = 0
    relevant = 0
    n_citations = 0
    unsupported: list[str] = []
    judge = checker is not None
    for sent in sentences:
        numbers = find_citations(sent)
        markers += len(numbers)
        out_of_range += sum(1 for n in numbers if n not in sources)
        valid = [n for n in dict.fromkeys(numbers) if n in sources]
        if numbers:
            with_citation += 1
        for n in valid:
            if sources[n].paper_id not in cited:
                cited.append(sources[n].paper_id)
        if not judge:
            continue
        texts = [sources[n].evidence for n in valid]
        sent = _without_heading(sent, [sources[n] for n in valid])
        joint = checker.supports(sent, texts) if texts else False
        recall_hits += joint
        if not joint:
            unsupported.append(sent)
        # ALCE precision: a citation is irrelevant when it alone does not support the sentence
        # and the remaining citations still do without it.
        n_citations += len(numbers)  # out-of-range citations count as irrelevant
        for i in range(len(valid)):
            if len(valid) == 1:
                alone = joint
                rest = False
            else:
                alone = checker.supports(sent, [texts[i]])
                rest = (
                    checker.supports(sent, texts[:i] + texts[i + 1 :])
                    if joint and not alone
                    else False
                )
            relevant += bool(alone or (joint and not rest))
    # an LLM answer's citations outside its sources, removed before we see the text
    dropped = len(getattr(answer, "invalid_citations", None) or [])
    markers += dropped
    out_of_range += dropped
    n_sent = len(sentences)
    cited_set = set(cited)
    return {
        "sentences": n_sent,
        "sentence_citation_rate": with_citation / n_sent if n_sent else 0.0,
        "markers": markers,
        "out_of_range": out_of_range,
        "out_of_range_share": out_of_range / markers if markers else 0.0,
        "cited": cited,
        "cited_gold_share": (len(cited_set & gold) / len(cited_set) if cited_set else 0.0)
        if gold
        else None,
        "gold_cited_share": len(cited_set & gold) / len(gold) if gold else None,
        "citation_recall": (recall_hits / n_sent if n_sent else 0.0) if judge else None,
        "citation_precision": (relevant / n_citations if n_citations else 0.0) if judge else None,
        "unsupported": unsupported,
    }
