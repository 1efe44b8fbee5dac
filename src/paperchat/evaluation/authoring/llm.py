"""Questions drafted by an LLM for ``paperchat eval draft`` (the ``draft`` prompt): paraphrase and one-paper
summary questions about a sample of papers, parsed from the reply and checked like the offline ones."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from paperchat.core.errors import PaperchatError
from paperchat.core.terms import name_tokens
from paperchat.evaluation.authoring.corpus import Corpus, DraftPaper, coined
from paperchat.evaluation.authoring.introduces import find_intro

#: The placeholders of ``prompts/draft.txt``.
PROMPT_FIELDS = frozenset({"title", "sentences", "avoid"})


LLM_KINDS = ("paraphrase", "summary")


Progress = Callable[[int, int], None]


def pick_llm_papers(corpus: Corpus, seed: int, count: int) -> list[DraftPaper]:
    """The ``count`` papers the LLM drafts questions about (seeded; papers of at least three sentences)."""
    pool = [p for p in corpus.papers if len(p.sentences) >= 3]
    return random.Random(f"{seed}-llm").sample(pool, min(count, len(pool)))


def parse_reply(text: str) -> list[Any]:
    """Every JSON object in an LLM reply (JSON lines, an array, code fences or prose around them), in order."""
    decoder = json.JSONDecoder()
    out, i = [], 0
    while (j := text.find("{", i)) != -1:
        try:
            obj, end = decoder.raw_decode(text, j)
        except ValueError:
            i = j + 1
            continue
        if isinstance(obj, dict):
            out.append(obj)
        i = end
    return out


def _llm_item(
    item: dict[str, Any], paper: DraftPaper, avoid: list[str], model: str
) -> dict[str, Any] | None:
    """An LLM reply item as a candidate, or ``None`` when malformed."""
    kind = str(item.get("kind", "")).strip().lower()
    question = item.get("question")
    facts = item.get("facts", [])
    if isinstance(facts, str):
        facts = [[facts]]
    if (
        kind not in LLM_KINDS
        or not isinstance(question, str)
        or not 8 <= len(question.strip()) <= 400
        or not isinstance(facts, list)
        or not facts
    ):
        return None
    groups = [[g] if isinstance(g, str) else g for g in facts]
    if any(
        not isinstance(g, list) or not g or not all(isinstance(v, str) for v in g) for g in groups
    ):
        return None
    sent = item.get("sentence")
    sent = sent if isinstance(sent, int) and 0 <= sent < len(paper.sentences) else None
    return {
        "question": " ".join(question.split()),
        "kind": kind,
        "answerable": True,
        "gold": [paper.paper_id],
        "facts": [[v.strip() for v in g] for g in groups],
        "template": "draft",
        "drafted_by": model,
        "source": {"paper_id": paper.paper_id, "sentence": sent},
        "note": f"{kind} by {model}",
        "avoid": avoid if kind == "paraphrase" else [],
    }


def llm_candidates(
    settings, corpus: Corpus, seed: int, count: int, progress: Progress | None = None
) -> tuple[list[dict[str, Any]], Counter[str], str]:
    """LLM candidates for :func:`pick_llm_papers` (one ``draft`` prompt request a paper), unchecked.

    Returns ``(candidates, dropped counts by reason, model)``. Raises :class:`PaperchatError` (an
    ``LLMError``) when the LLM fails, and for a ``draft`` prompt file with other placeholders.
    """
    from paperchat.answer.llm_client import get_client
    from paperchat.answer.prompts import load_prompt

    prompt = load_prompt("draft")
    if prompt.fields != PROMPT_FIELDS:
        raise PaperchatError(
            f"prompt file {prompt.path}: placeholders must be "
            f"{', '.join('{' + f + '}' for f in sorted(PROMPT_FIELDS))}"
        )
    client = get_client(settings)
    model = client.model
    out: list[dict[str, Any]] = []
    dropped: Counter[str] = Counter()
    papers = pick_llm_papers(corpus, seed, count)
    for done, paper in enumerate(papers, 1):
        intro = find_intro(corpus, paper)
        avoid = list(
            dict.fromkeys(
                ([intro.name] if intro else [])
                + ([paper.label] if coined(paper.label) else [])
                + name_tokens(paper.title)
            )
        )
        lines = "\n".join(f"{i}. {s}" for i, s in enumerate(paper.sentences))
        reply = client.stream(
            prompt.render(
                title=paper.title or paper.label or "(no title)",
                sentences=lines,
                avoid=", ".join(avoid) or "none",
            ),
            max_tokens=900,
        )
        items = parse_reply(reply.text)
        if not items:
            dropped["LLM reply held no JSON question"] += 1
        for item in items:
            cand = _llm_item(item, paper, avoid, model)
            if cand is None:
                dropped["malformed LLM item"] += 1
            else:
                out.append(cand)
        if progress:
            progress(done, len(papers))
    return out, dropped, model
