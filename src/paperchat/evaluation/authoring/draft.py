"""``paperchat eval draft``: a question set drafted from the papers in the store, checked, balanced and seeded.

The draft is JSONL in the format of ``eval/`` (:mod:`paperchat.evaluation.questions`), to read, edit and run
with ``paperchat eval --set FILE``. Questions come from the offline templates (the answerable ones in
:mod:`~paperchat.evaluation.authoring.introduces`, :mod:`~paperchat.evaluation.authoring.numbers` and
:mod:`~paperchat.evaluation.authoring.shared_terms`; ``near-miss`` and ``false-premise`` in
:mod:`~paperchat.evaluation.authoring.unanswerable`) and, with an LLM
(``mode`` ``llm``, or ``auto`` when one is configured), from the ``draft`` prompt (``prompts/draft.txt``):
paraphrase and one-paper summary questions about a sample of papers.

Every question is checked before it is kept (:class:`~paperchat.evaluation.authoring.checks.Checks`): its gold papers exist; each fact group occurs
in a gold abstract (case-insensitive; spellings that do not are removed); it holds no abstract sentence, nor
:data:`NGRAM` consecutive words of one; a near-miss name occurs in no stored title or abstract; an LLM
paraphrase does not name its paper; it is no near-duplicate (word Jaccard above :data:`NEAR_DUPLICATE`) of a
question kept before. Kinds are balanced by taking one question of each kind in turn (within a kind, of each
template in turn) until ``n`` are kept. Each question records ``drafted_by`` (``offline`` or the model),
``template`` (or the prompt's name) and ``source`` (paper id, 0-based sentence index). Every choice comes from
``random.Random(seed)``: the same store, seed (and LLM replies) give the same file.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from paperchat.core.errors import PaperchatError
from paperchat.evaluation.authoring.checks import Checks, near_duplicate, word_set
from paperchat.evaluation.authoring.corpus import Corpus
from paperchat.evaluation.authoring.introduces import find_intro, introduces, subject
from paperchat.evaluation.authoring.llm import Progress, llm_candidates
from paperchat.evaluation.authoring.numbers import reports
from paperchat.evaluation.authoring.shared_terms import shared
from paperchat.evaluation.authoring.unanswerable import false_premise, near_miss

DEFAULT_SEED = 2025


DEFAULT_N = 100


#: The order kinds are taken in, one of each in turn.
KINDS = ("lookup", "paraphrase", "multi-paper", "summary", "unanswerable")


OVER_CAP = "over the --n cap"


@dataclass
class Draft:
    """A drafted set: ``questions`` (eval-set dicts, in file order), ``kept`` counts by kind, ``dropped`` counts by
    reason, the number of stored ``papers``, ``drafted_by`` (``offline`` and the model, if any), time and seed."""

    questions: list[dict[str, Any]]
    kept: dict[str, int]
    dropped: dict[str, int]
    papers: int
    drafted_by: list[str]
    seconds: float
    seed: int

    def summary(self) -> dict[str, Any]:
        """JSON-ready: ``{questions, kept, kept_by_template, dropped, papers, drafted_by, seed, seconds}``."""
        return {
            "questions": len(self.questions),
            "kept": dict(self.kept),
            "kept_by_template": dict(Counter(q["template"] for q in self.questions)),
            "dropped": dict(self.dropped),
            "papers": self.papers,
            "drafted_by": self.drafted_by,
            "seed": self.seed,
            "seconds": round(self.seconds, 2),
        }


# -- candidates -------------------------------------------------------------------------------------------
def offline_candidates(corpus: Corpus, rng: random.Random, want: int) -> list[dict[str, Any]]:
    """Unchecked offline candidates, from papers in a seeded order, about ``3 * want`` per template at most."""
    order = list(corpus.papers)
    rng.shuffle(order)
    cap = max(3 * want, 10)
    per: Counter[str] = Counter()
    out: list[dict[str, Any]] = []

    def add(cands: list[dict[str, Any]]) -> None:
        for c in cands:
            if per[c["template"]] < cap:
                per[c["template"]] += 1
                out.append(c)

    templates = (
        "introduces-description",
        "introduces-direct",
        "reports-number",
        "near-miss",
        "false-premise",
    )
    for paper in order:
        if all(per[t] >= cap for t in templates):
            break
        intro = find_intro(corpus, paper)
        subj = subject(paper, intro)
        if intro:
            add(introduces(corpus, paper, intro, rng))
            if per["near-miss"] < cap:
                add(near_miss(corpus, paper, intro, rng))
        if subj:
            add(reports(corpus, paper, subj))
            if per["false-premise"] < cap:
                add(false_premise(paper, subj, rng))
    return out + shared(corpus, rng, papers=order, limit=cap)


# -- selection ----------------------------------------------------------------------------------------------
def select(
    cands: list[dict[str, Any]], checks: Checks, n: int, rng: random.Random
) -> tuple[list[dict], Counter]:
    """Check every candidate, then keep up to ``n``, one kind after another (see the module docstring).

    Returns ``(kept, dropped counts by reason)``.
    """
    dropped: Counter[str] = Counter()
    pools: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for cand in cands:
        why = checks.reason(cand)
        if why:
            dropped[why] += 1
        else:
            pools.setdefault(cand["kind"], {}).setdefault(cand["template"], []).append(cand)
    for by_template in pools.values():
        for name, items in by_template.items():
            keys = [rng.random() for _ in items]
            order = sorted(range(len(items)), key=lambda i: (items[i].get("priority", 0), keys[i]))
            by_template[name] = [items[i] for i in order]
    kinds = [k for k in KINDS if k in pools] + sorted(k for k in pools if k not in KINDS)
    turn = {k: 0 for k in kinds}
    kept: list[dict[str, Any]] = []
    seen: list[frozenset[str]] = []

    def take(kind: str) -> dict[str, Any] | None:
        while any(pools[kind].values()):
            names = [t for t in sorted(pools[kind]) if pools[kind][t]]
            cand = pools[kind][names[turn[kind] % len(names)]].pop(0)
            turn[kind] += 1
            words = word_set(cand["question"])
            if any(near_duplicate(words, other) for other in seen):
                dropped["near-duplicate of a kept question"] += 1
                continue
            seen.append(words)
            return cand
        return None

    while len(kept) < n and any(any(p.values()) for p in pools.values()):
        for kind in kinds:
            if len(kept) < n and (cand := take(kind)) is not None:
                kept.append(cand)
    left = sum(len(items) for p in pools.values() for items in p.values())
    if left:
        dropped[OVER_CAP] += left
    return kept, dropped


def _record(i: int, width: int, cand: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": f"d{i:0{width}d}",
        "question": cand["question"],
        "kind": cand["kind"],
        "answerable": cand["answerable"],
        "gold": [{"id": pid} for pid in cand["gold"]],
        "facts": cand["facts"],
        "drafted_by": cand.get("drafted_by", "offline"),
        "template": cand["template"],
        "source": cand["source"],
        "note": cand.get("note", ""),
    }


def wants_llm(settings, mode: str) -> bool:
    """Whether a draft in ``mode`` (``offline``, ``llm``, ``auto``) asks the LLM (``auto``: as the answer mode setting
    decides, :func:`paperchat.answer.mode.decide_mode`). Raises :class:`PaperchatError` for an unknown mode, or
    ``llm`` without a usable LLM configuration."""
    if mode not in ("offline", "llm", "auto"):
        raise PaperchatError(f"unknown draft mode {mode!r}: use offline, llm or auto")
    if mode == "offline":
        return False
    from paperchat.answer.mode import decide_mode

    return decide_mode(settings, None if mode == "auto" else "llm") == "llm"


def draft_questions(
    engine,
    n: int = DEFAULT_N,
    seed: int | None = None,
    mode: str = "auto",
    progress: Progress | None = None,
    llm_papers: int | None = None,
) -> Draft:
    """Draft up to ``n`` checked questions from every paper in ``engine``'s store (see the module docstring).

    ``mode``: ``offline`` (templates only), ``llm`` (templates and the LLM; fails when no LLM is
    configured) or ``auto`` (the LLM when the answer mode setting picks one). ``llm_papers``: how many
    papers the LLM drafts for (default ``ceil(n / 6)``, three questions each). ``progress(done, total)``
    follows the LLM requests. Raises :class:`PaperchatError` for an empty store, an unknown mode, and
    LLM failures.
    """
    t0 = time.perf_counter()
    seed = DEFAULT_SEED if seed is None else int(seed)
    use_llm = wants_llm(engine.settings, mode)
    records = engine.store.papers()
    if not records:
        raise PaperchatError(
            "the store holds no papers; ingest some first (`paperchat ingest FILE`, or --corpus FILE)"
        )
    corpus = Corpus((r.paper_id, r.title, r.label, r.abstract) for r in records.values())
    rng = random.Random(seed)
    cands = offline_candidates(corpus, rng, n)
    drafted_by, dropped = ["offline"], Counter()
    if use_llm:
        count = llm_papers if llm_papers is not None else max(1, math.ceil(n / 6))
        extra, dropped, model = llm_candidates(engine.settings, corpus, seed, count, progress)
        cands += extra
        drafted_by.append(model)
    kept, why = select(cands, Checks(corpus), n, rng)
    dropped.update(why)
    width = max(3, len(str(len(kept))))
    questions = [_record(i, width, c) for i, c in enumerate(kept, 1)]
    return Draft(
        questions,
        dict(Counter(q["kind"] for q in questions)),
        dict(dropped.most_common()),
        len(records),
        drafted_by,
        time.perf_counter() - t0,
        seed,
    )
