"""Which paper a summary is about, and a paper's offline summary (its own problem, method and result sentences).

TARGET resolution (:func:`find_paper`), in order: an exact paper id; a label
or title equal to TARGET (any case); a paper whose label or title contains
every word of TARGET; else ``None`` (TARGET is then a topic, and the top
retrieved papers are summarized).

Offline, a paper's summary (:func:`extractive_paper_summary`) is the first
sentence; the first "we propose/introduce/present/develop ..." sentence; the
last sentence reporting results; each cited ``[1]``.
"""

from __future__ import annotations

import re

from paperchat.core.text import split_sentences
from paperchat.ingest.records import PaperRecord


def find_paper(records: dict[str, PaperRecord], target: str) -> str | None:
    """The id of the paper TARGET names among ``records`` (id, label, title or words of it), else ``None``."""
    target = " ".join(target.split())
    if target in records:
        return target
    low = target.lower()
    for pid, rec in records.items():
        if low in {rec.label.lower(), rec.title.lower()}:
            return pid
    words = low.split()
    matches = [pid for pid, rec in records.items() if all(w in f"{rec.label} {rec.title}".lower().split() for w in words)]
    return matches[0] if len(matches) == 1 else None


_METHOD = re.compile(
    r"\b(?:we\s+(?:propose|introduce|present|develop|design|formulate|derive|study|analy[sz]e|establish|show)|"
    r"(?:this|the)\s+(?:paper|work)\s+(?:proposes|introduces|presents|develops|studies)|our\s+(?:method|approach|framework|model|algorithm)|"
    r"called|named|dubbed|framework|approach|method|algorithm|architecture)\b",
    re.I,
)
_RESULT = re.compile(
    r"\b(?:outperform\w*|achiev\w*|improv\w*|state-of-the-art|sota|experiments?|empirical\w*|results?|demonstrat\w*|"
    r"significant\w*|surpass\w*|speed-?ups?|faster|reduc\w*|gains?|accuracy|benchmarks?)\b|\d+(?:\.\d+)?\s*(?:%|×|x\b)",
    re.I,
)


def extractive_paper_summary(abstract: str) -> list[str]:
    """An extractive summary of an abstract: its first, method and result sentences, in the abstract's order.

    The method sentence is the first later one that says what is proposed
    ("we propose", "our framework", "called"); the result sentence the last one
    that reports findings ("outperforms", "achieves", "%"). Fewer than three
    come back for short abstracts.
    """
    sents = split_sentences(abstract)
    if not sents:
        return []
    picked = {0}
    method = next((i for i in range(1, len(sents)) if _METHOD.search(sents[i])), None)
    if method is not None:
        picked.add(method)
    result = next((i for i in range(len(sents) - 1, 0, -1) if i not in picked and _RESULT.search(sents[i])), None)
    if result is None and len(sents) > 1 and len(sents) - 1 not in picked:
        result = len(sents) - 1
    if result is not None:
        picked.add(result)
    if len(picked) < 3 and len(sents) > 1:
        for i in range(1, len(sents)):
            if len(picked) >= 3:
                break
            picked.add(i)
    return [sents[i] for i in sorted(picked)]
