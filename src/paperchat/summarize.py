"""Cited summaries of one paper or of a topic.

TARGET resolution, in order: an exact paper id; a label or title equal to
TARGET (any case); a paper whose label or title contains every word of
TARGET; else TARGET is a topic and the top retrieved papers are summarized.

Offline, a paper's summary is its own problem, method and result sentences
(the first sentence; the first "we propose/introduce/present/develop ..."
sentence; the last sentence reporting results), each cited ``[1]``. A topic's
offline summary is the best sentence of each retrieved paper, cited in order.
With an LLM, :func:`paperchat.answer_llm.summarize_paper` and
:func:`~paperchat.answer_llm.summarize_topic` write and check it.
"""

from __future__ import annotations

import re
from typing import Any

from paperchat.citations import cite_sentence as _cite
from paperchat.citations import source_entry
from paperchat.errors import PaperchatError
from paperchat.text import split_sentences

def find_paper(engine, target: str) -> dict[str, Any] | None:
    """The paper record TARGET names (id, label, title or words of it), else ``None``."""
    target = " ".join(target.split())
    records = engine.store.paper_records_meta()
    if target in records:
        return engine.store.paper_records([target])[target]
    low = target.lower()
    for pid, meta in records.items():
        if low in {str(meta.get("label", "")).lower(), str(meta.get("title", "")).lower()}:
            return engine.store.paper_records([pid])[pid]
    words = low.split()
    matches = [
        pid for pid, meta in records.items()
        if all(w in f"{meta.get('label', '')} {meta.get('title', '')}".lower().split() for w in words)
    ]
    if len(matches) == 1:
        return engine.store.paper_records(matches)[matches[0]]
    return None


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


def extractive_paper_summary(record: dict[str, Any] | str) -> list[str]:
    """An extractive summary of a paper record (or an abstract): first, method and result sentences.

    The method sentence is the first later one that says what is proposed
    ("we propose", "our framework", "called"); the result sentence the last one
    that reports findings ("outperforms", "achieves", "%"). Sentences keep their
    order in the abstract; fewer than three come back for short abstracts.
    """
    abstract = record["abstract"] if isinstance(record, dict) else str(record)
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


def summarize(engine, target: str, top_k: int = 5, on_token=None) -> dict[str, Any]:
    """A cited summary of TARGET (see the module docstring), in the ``ask --json`` shape plus ``target``.

    Raises :class:`PaperchatError` for an empty TARGET, or a derived paper id
    (``p-`` and 12 hex digits) that no stored paper has.
    """
    from paperchat.pipeline import check_question

    target = check_question(target)
    mode = engine.answer_mode()
    record = find_paper(engine, target)
    if record is None and re.fullmatch(r"p-[0-9a-f]{12}", target):
        raise PaperchatError(f"no paper with id {target} in the store; `paperchat papers` lists them")
    if record is not None:
        if mode == "llm":
            from paperchat.answer_llm import summarize_paper

            out = summarize_paper(record, engine.settings, engine.embedder, on_token=on_token)
            return {"target": target, "question": f"Summarize {target}", "retrieved": [], **out}
        sents = extractive_paper_summary(record)
        chunk_ids = str(record.get("chunk_ids") or "").split()
        answer = " ".join(_cite(s, 1) for s in sents)
        return {
            "target": target, "question": f"Summarize {target}", "answer": answer, "mode": "extractive",
            "abstained": False, "sources": [source_entry(1, record, chunk_ids[0] if chunk_ids else "", record["abstract"])],
            "retrieved": [{"paper_id": record["paper_id"], "chunk_id": chunk_ids[0] if chunk_ids else "", "score": 1.0}],
        }
    if mode == "llm":
        from paperchat.answer_llm import summarize_topic

        hits = engine.retrieve(target, top_k)
        records = engine.store.paper_records([h.paper_id for h in hits])
        out = summarize_topic(target, hits, records, engine.settings, engine.embedder, on_token=on_token)
        return {"target": target, "question": f"Summarize {target}", **out}
    result = engine.ask(f"Which papers are about {target}?", top_k=top_k, mode="extractive")
    return {"target": target, **result}
