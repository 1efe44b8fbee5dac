"""``paperchat eval draft``: a question set drafted from the papers in the store, checked, balanced and seeded.

The draft is JSONL in the format of ``eval/`` (:mod:`paperchat.evaluation.questions`), to read, edit and run
with ``paperchat eval --set FILE``. Questions come from the offline templates (the answerable ones in
:mod:`paperchat.evaluation.draft_templates`; ``near-miss`` and ``false-premise`` here) and, with an LLM
(``mode`` ``llm``, or ``auto`` when one is configured), from the ``draft`` prompt (``prompts/draft.txt``):
paraphrase and one-paper summary questions about a sample of papers.

Every question is checked before it is kept (:class:`Checks`): its gold papers exist; each fact group occurs
in a gold abstract (case-insensitive; spellings that do not are removed); it holds no abstract sentence, nor
:data:`NGRAM` consecutive words of one; a near-miss name occurs in no stored title or abstract; an LLM
paraphrase does not name its paper; it is no near-duplicate (word Jaccard above :data:`NEAR_DUPLICATE`) of a
question kept before. Kinds are balanced by taking one question of each kind in turn (within a kind, of each
template in turn) until ``n`` are kept. Each question records ``drafted_by`` (``offline`` or the model),
``template`` (or the prompt's name) and ``source`` (paper id, 0-based sentence index). Every choice comes from
``random.Random(seed)``: the same store, seed (and LLM replies) give the same file.
"""

from __future__ import annotations

import json
import math
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from paperchat.core.errors import PaperchatError
from paperchat.core.terms import name_tokens
from paperchat.evaluation import draft_templates as dt

DEFAULT_SEED = 2025
DEFAULT_N = 100
#: The order kinds are taken in, one of each in turn.
KINDS = ("lookup", "paraphrase", "multi-paper", "summary", "unanswerable")
#: A question may not hold this many consecutive words of an abstract sentence.
NGRAM = 8
#: Two questions whose word sets overlap more than this (Jaccard) are near-duplicates.
NEAR_DUPLICATE = 0.8
#: The placeholders of ``prompts/draft.txt``.
PROMPT_FIELDS = frozenset({"title", "sentences", "avoid"})
LLM_KINDS = ("paraphrase", "summary")
OVER_CAP = "over the --n cap"

Progress = Callable[[int, int], None]


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


def _windows(toks: list[str], size: int) -> set[int]:
    return {
        hash(tuple(toks[i : i + size])) for i in range(len(toks) - size + 1)
    }  # hashes: a third of the memory


def word_set(text: str) -> frozenset[str]:
    """The distinct lower-cased words of ``text`` (what near-duplicates are judged by)."""
    return frozenset(dt.tokens(text))


def near_duplicate(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two word sets overlap more than :data:`NEAR_DUPLICATE` (Jaccard)."""
    return bool(a or b) and len(a & b) / len(a | b) > NEAR_DUPLICATE


class Checks:
    """The checks a drafted question must pass (see the module docstring), over ``corpus`` (a :class:`Corpus`)."""

    def __init__(self, corpus: dt.Corpus):
        self.corpus = corpus
        self.grams: set[int] = set()
        self.short: set[int] = set()
        for paper in corpus.papers:
            for sent in paper.sentences:
                toks = dt.tokens(sent)
                if len(toks) >= NGRAM:
                    self.grams |= _windows(toks, NGRAM)
                elif len(toks) >= 3:
                    self.short.add(hash(tuple(toks)))

    def copies(self, question: str) -> bool:
        """Whether ``question`` holds an abstract sentence verbatim, or :data:`NGRAM` consecutive words of one."""
        toks = dt.tokens(question)
        if _windows(toks, NGRAM) & self.grams:
            return True
        return any(_windows(toks, size) & self.short for size in range(3, NGRAM))

    def reason(self, cand: dict[str, Any]) -> str | None:
        """Why ``cand`` cannot be kept (one short reason), or ``None``; prunes fact spellings no gold abstract holds."""
        gold = cand.get("gold", [])
        if any(pid not in self.corpus.by_id for pid in gold) or (cand["answerable"] != bool(gold)):
            return "gold paper missing from the store"
        texts = [self.corpus.abstract_lower[pid] for pid in gold]
        facts = []
        for group in cand.get("facts", []):
            kept = [
                v
                for v in group
                if isinstance(v, str) and v.strip() and any(v.lower() in t for t in texts)
            ]
            if not kept:
                return "a fact is not in the gold abstract"
            facts.append(kept)
        cand["facts"] = facts
        if self.copies(cand["question"]):
            return "copies an abstract sentence"
        absent = cand.get("absent")
        if absent and self.corpus.anywhere(absent):
            return "near-miss name occurs in the store"
        for name in cand.get("avoid", ()):
            if re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", cand["question"], re.I):
                return "paraphrase names its paper"
        return None


# -- unanswerable templates --------------------------------------------------------------------------------
def perturb(name: str, rng: random.Random) -> str:
    """A near-miss of ``name``: a suffix, a prefix, or one letter changed (``ConfPO`` -> ``ConfPO-XL``, ``ConfPA``)."""
    how = rng.choice(("suffix", "prefix", "letter"))
    if how == "suffix":
        return name.rstrip("+") + rng.choice(["-XL", "++", "-2", "v2", "-Lite", "-Pro", "Net"])
    if how == "prefix":
        return rng.choice(["Meta", "Hyper", "Neo", "Uni", "Omni"]) + name
    i = rng.choice([i for i, c in enumerate(name) if c.isalpha() and i > 0] or [0])
    new = rng.choice([c for c in "ABCDEFGHIJKLMNOPRSTUVWXYZ" if c != name[i].upper()])
    return name[:i] + (new if name[i].isupper() else new.lower()) + name[i + 1 :]


def near_miss(
    corpus: dt.Corpus, paper: dt.DraftPaper, intro: dt.Intro, rng: random.Random
) -> list[dict]:
    """A ``near-miss`` question: the method's name perturbed so that no stored title or abstract holds it."""
    tries = (perturb(intro.name, rng) for _ in range(6))
    fake = next((f for f in tries if dt.coined(f) and not corpus.anywhere(f)), None)
    if fake is None:
        return []
    forms = [
        "What does {f} do?",
        "How does {f} work?",
        "Which paper introduces {f}?",
        "What results does {f} report?",
    ]
    if len(intro.head.split()) >= 2:
        forms.append(
            "Which paper introduces {f}, " + dt.article(intro.head) + " " + intro.head + "?"
        )
    return [
        dt.cand(
            "unanswerable",
            "near-miss",
            rng.choice(forms).format(f=fake),
            [],
            [],
            paper.paper_id,
            intro.sentence,
            f"near-miss of {intro.name}; made-up name: {fake}",
            absent=fake,
        )
    ]


#: Figures abstracts rarely give: (what, what in an abstract would give it, the question).
FIGURES = (
    (
        "GPUs",
        r"[gt]pu|a100|h100|v100|accelerator|hardware|comput",
        "How many GPUs were used in the experiments of {s}?",
    ),
    (
        "parameter count",
        r"param|\d\s?[mb]\b|billion|million|size",
        "What is the parameter count of {s}?",
    ),
    (
        "training time",
        r"hour|\bdays?\b|minute|wall-clock|second|time|fast|speed",
        "How long did training take in the experiments of {s}?",
    ),
    (
        "learning rate",
        r"learning[- ]rate|step[- ]?size|schedul",
        "What learning rate was used in the experiments of {s}?",
    ),
    ("batch size", r"batch", "What batch size was used in the experiments of {s}?"),
    (
        "user study",
        r"participant|user study|human|annotat|survey|volunteer|crowd|people|clinician|expert",
        "How many participants took part in a user study of {s}?",
    ),
    (
        "seeds",
        r"seed|\bruns?\b|repeat|trial",
        "Over how many random seeds were the results of {s} averaged?",
    ),
)


def false_premise(paper: dt.DraftPaper, subj: str, rng: random.Random) -> list[dict]:
    """A ``false-premise`` question: a figure of ``subj`` that its abstract (and title) does not give."""
    text = (paper.title + "\n" + paper.abstract).lower()
    absent = [f for f in FIGURES if not re.search(f[1], text)]
    if not absent:
        return []
    what, _pattern, form = rng.choice(absent)
    return [
        dt.cand(
            "unanswerable",
            "false-premise",
            form.format(s=subj),
            [],
            [],
            paper.paper_id,
            None,
            f"false premise: the abstract of {paper.paper_id} gives no {what}",
        )
    ]


# -- candidates -------------------------------------------------------------------------------------------
def offline_candidates(corpus: dt.Corpus, rng: random.Random, want: int) -> list[dict[str, Any]]:
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
        intro = dt.find_intro(corpus, paper)
        subj = dt.subject(paper, intro)
        if intro:
            add(dt.introduces(corpus, paper, intro, rng))
            if per["near-miss"] < cap:
                add(near_miss(corpus, paper, intro, rng))
        if subj:
            add(dt.reports(corpus, paper, subj))
            if per["false-premise"] < cap:
                add(false_premise(paper, subj, rng))
    return out + dt.shared(corpus, rng, papers=order, limit=cap)


def pick_llm_papers(corpus: dt.Corpus, seed: int, count: int) -> list[dt.DraftPaper]:
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
    item: dict[str, Any], paper: dt.DraftPaper, avoid: list[str], model: str
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
    settings, corpus: dt.Corpus, seed: int, count: int, progress: Progress | None = None
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
        intro = dt.find_intro(corpus, paper)
        avoid = list(
            dict.fromkeys(
                ([intro.name] if intro else [])
                + ([paper.label] if dt.coined(paper.label) else [])
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
    corpus = dt.Corpus((r.paper_id, r.title, r.label, r.abstract) for r in records.values())
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
