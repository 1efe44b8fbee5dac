"""The papers a "which papers ...?" answer lists, each with its best sentence.

A retrieved paper is listed when its retrieval share (its fused score min-max scaled over the retrieved
papers, :class:`paperchat.answer.focus.PaperText`) is at least :data:`MULTI_SHARE`, or when it holds every
distinctive term of the question, or all of its few terms when together they are distinctive
(:func:`topical`): "Which papers propose methods for model merging?"
retrieved ten papers on model merging, whose scores spread from 1.10 to 0.80, and the share cut alone
listed four. A paper listed for its distinctive terms alone must also hold every other fairly rare term
of the question (:func:`fitting`): "Which papers propose watermarks for diffusion models?" had listed
every watermarking paper retrieved, diffusion or not. Each listed paper gives its best sentence that is
relevant enough.
"""

from __future__ import annotations

import re

from paperchat.answer.focus import OFF_TOPIC_MIN_PAPERS, PaperText
from paperchat.answer.paper_lists import LISTING_WORDS
from paperchat.answer.roles import background_cue
from paperchat.core.terms import terms
from paperchat.store.bm25 import CONVERSATIONAL

#: Papers whose retrieval share (0 for the last retrieved, 1 for the first) is at least this are listed
#: (tuned on conference dev).
MULTI_SHARE = 0.35
#: A list also holds each retrieved paper with every question term this rare (share of the corpus's papers;
#: not tuned: set before measuring, ninth round).
LIST_TERM_SHARE = 0.03
#: When no term of the question is that rare, up to this many of its content terms together may be (not
#: tuned: set before measuring, from a break-it session's "summarize differential privacy").
MAX_TOGETHER = 3
#: A paper listed for its distinctive terms (:func:`topical`) must also hold every question term at most
#: this share of the corpus's papers holds (:func:`fitting`; thirtieth round: set before measuring, kept
#: because the tuning sets' list questions lost no gold paper; 0.05, and restricting every listed paper,
#: lost some).
FIT_TERM_SHARE = 0.10
#: A name a list asks by is quoted from each retrieved paper writing it when at most this many do (not
#: tuned: set before measuring, fortieth round).
NAME_WRITERS = 3
#: The verb after "papers" ("Which papers involve ...") is the listing's, not the topic's.
_LISTING_VERB = re.compile(
    r"\b(?:papers?|works?|studies|articles)\s+(?:that\s+|which\s+)?([a-z]+)", re.I
)
#: Two words a slash or "or" joins are alternatives: a paper holding either fits ("rainfall / precipitation").
_ALTERNATIVES = re.compile(r"([\w-]+)\s*(?:/|\bor\b)\s*([\w-]+)", re.I)


def topical(question: str, papers: list[PaperText], lexicon, n_papers: int) -> set[str]:
    """Ids of ``papers`` that hold every distinctive term of ``question`` (held by at most
    :data:`LIST_TERM_SHARE` of the corpus: "merging" in "Which papers propose methods for model merging?"),
    over corpora of :data:`~paperchat.answer.focus.OFF_TOPIC_MIN_PAPERS` papers or more; else none.

    ``lexicon`` is the store's BM25 index (``rare_terms``, ``terms_of``) or ``None``.
    """
    if lexicon is None or n_papers < OFF_TOPIC_MIN_PAPERS:
        return set()
    cap = int(n_papers * LIST_TERM_SHARE)
    rare = set(lexicon.rare_terms(question, cap))
    if not rare:
        # no one term is distinctive, but together they may be: "differential privacy" (156 and 108 of 2,740
        # papers, 43 both); the list had held the three papers above the share cut
        together = lexicon.terms_of(" ".join(terms(question))) - CONVERSATIONAL
        if 2 <= len(together) <= MAX_TOGETHER and (
            lexicon.holding(together) <= cap
            # every retrieved paper holds them all: a topic its papers share ("graph neural networks", 96
            # papers; `summarize "graph neural networks" --top-k 8` had cited one of eight such papers)
            or all(together <= lexicon.terms_of(p.full_text) for p in papers)
        ):
            rare = together
    return {p.paper_id for p in papers if rare and rare <= lexicon.terms_of(p.full_text)}


#: Words that say how many papers a list asks for, or which of a topic's ("the main approaches to X").
_HOW_MANY_WORDS = frozenset(
    "two three four five six seven eight nine ten few several couple main major key different various".split()
)


def fitting(question: str, papers: list[PaperText], lexicon, n_papers: int) -> set[str]:
    """Ids of ``papers`` that hold every term of ``question`` at most :data:`FIT_TERM_SHARE` of the corpus
    holds ("conformal" and "diffusion" in "Which papers use conformal prediction for diffusion models?"; of
    two alternatives, "X / Y" or "X or Y", either), over corpora of
    :data:`~paperchat.answer.focus.OFF_TOPIC_MIN_PAPERS` papers or more; else, or when the question has no
    such term, every paper's id (no restriction).
    """
    every = {p.paper_id for p in papers}
    needed = _needed(question, lexicon, n_papers)
    if not needed:
        return every
    held_by = {p.paper_id: lexicon.terms_of(p.full_text) for p in papers}
    return {pid for pid, full in held_by.items() if all(group & full for group in needed)}


def _needed(question: str, lexicon, n_papers: int) -> list[set[str]]:
    """The term groups :func:`fitting` asks a paper to hold: each term of ``question`` that at most
    :data:`FIT_TERM_SHARE` of the corpus holds, with its alternatives; ``[]`` under
    :data:`~paperchat.answer.focus.OFF_TOPIC_MIN_PAPERS` papers or without a lexicon."""
    if lexicon is None or n_papers < OFF_TOPIC_MIN_PAPERS:
        return []
    cap = n_papers * FIT_TERM_SHARE
    groups = [lexicon.terms_of(a) | lexicon.terms_of(b) for a, b in _ALTERNATIVES.findall(question)]
    # the listing's own verb ("Which papers involve ...", "papers using ...") is no part of the topic
    verb = lexicon.terms_of(" ".join(_LISTING_VERB.findall(question)))
    # nor are the words that only ask for a listing ("List the papers on watermarking": "list")
    # nor how many it asks for ("Give me three papers that say ...": 'lacks "three"', a journalist's)
    asking = lexicon.terms_of(" ".join(LISTING_WORDS | _HOW_MANY_WORDS))
    held = lexicon.terms_of(" ".join(terms(question))) - CONVERSATIONAL - verb - asking
    return [
        {t} | next((g for g in groups if t in g), set())
        for t in held
        if len(t) > 3 and not any(ch.isdigit() for ch in t) and 0 < lexicon.df.get(t, 0) <= cap
    ]


def partial_fit_note(question: str, cited: list[PaperText], lexicon, n_papers: int) -> str | None:
    """For a "which paper(s)" answer: a note when no ``cited`` paper holds every less common word of
    ``question`` (:func:`_needed`: two or three of them), naming those words ('no cited paper writes all of
    "diffusion", "CRISPR", "guide": each fits part of the question'); ``None`` otherwise. A longer
    description holds more such words than any abstract writes (on the tuning sets the note then stood on
    111 of 131 answers that cited the gold paper; with two or three, on 1)."""
    needed = _needed(question, lexicon, n_papers)
    if not 2 <= len(needed) <= 3 or not cited:
        return None
    held = [lexicon.terms_of(p.full_text) for p in cited]
    if any(all(group & full for group in needed) for full in held):
        return None
    stems = set().union(*needed)
    words = list(
        dict.fromkeys(w for w in re.findall(r"[\w-]+", question) if lexicon.terms_of(w) & stems)
    )
    shown = ", ".join(f'"{w}"' for w in words[:5])
    # what the closest cited paper lacks: "congruential" beside "outputs" had read as missing from the
    # paper that writes it (an area chair's session)
    best = max(range(len(held)), key=lambda i: sum(bool(g & held[i]) for g in needed))
    lacks = set().union(*(g for g in needed if not g & held[best]))
    missing = [w for w in words if lexicon.terms_of(w) & lacks]
    lacking = (
        f"; [{best + 1}] lacks {', '.join(repr(w).replace(chr(39), chr(34)) for w in missing[:3])}"
    )
    return (
        f"no cited paper writes all of {shown}{lacking if missing else ''}: each fits part of the "
        "question, so check it fits yours"
    )


def one_per_paper(
    cands: list, papers: list[PaperText], min_score: float, listed: set[str] = frozenset()
) -> list:
    """The best candidate sentence (objects with ``paper_id``, ``score``, ``role``; best first) of each paper
    a list may hold: retrieval share at least :data:`MULTI_SHARE`, or in ``listed``; a sentence scores at
    least ``min_score`` and is no code link."""
    eligible = {p.paper_id for p in papers if p.share >= MULTI_SHARE or p.paper_id in listed}
    fit = [
        cand
        for cand in cands
        if cand.paper_id in eligible
        and cand.score >= min_score
        and cand.role != "resource"
        and not (cand.role == "background" and background_cue(cand.text))
    ]
    # a sentence that stands on its own before one that leans on a sentence the list leaves out ("To
    # mitigate this, ...", "We show that this model ...": a science writer's topic summaries)
    best: dict[str, object] = {}  # each paper keeps the place where it first fits
    for cand in fit:  # best first
        held = best.get(cand.paper_id)
        if held is None or (_LEANS.search(held.text) and not _LEANS.search(cand.text)):
            best[cand.paper_id] = cand
    return list(best.values())


def leans(sentence: str) -> bool:
    """Whether ``sentence`` leans on the one before it ("To mitigate this, ...", "This model ...")."""
    return bool(_LEANS.search(sentence))


#: A sentence that leans on the one before it: a demonstrative or a connective at its start, or "this X".
_LEANS = re.compile(
    r"^(?:To (?:address|mitigate|tackle|overcome|solve|fill|bridge|remedy) (?:this|these|that|those|such)\b"
    r"|(?:This|These|Those|Such|Specifically|Moreover|Furthermore|Additionally|On the other hand|In addition|"
    r"However|Therefore|Thus|Hence|Consequently)\b)"
    r"|\b(?:this|these) (?:model|method|approach|framework|problem|issue|gap|limitation|void|challenge)s?\b",
)


def list_sentences(
    question: str,
    cands: list,
    papers: list[PaperText],
    lexicon,
    n_papers: int,
    min_score: float,
    names: tuple[str, ...] = (),
) -> list:
    """The sentences a "which papers ...?" answer lists: :func:`one_per_paper` over the papers above the share
    cut and those :func:`topical` adds that :func:`fitting` keeps; then :func:`name_writers`' sentences."""
    listed = topical(question, papers, lexicon, n_papers) & fitting(
        question, papers, lexicon, n_papers
    )
    picked = one_per_paper(cands, papers, min_score, listed)
    return name_writers(cands, papers, picked, names, lexicon, n_papers)


def name_writers(
    cands: list,
    papers: list[PaperText],
    picked: list,
    names: tuple[str, ...],
    lexicon,
    n_papers: int,
) -> list:
    """For a list that asks by a name (``names``: "LIBERO" in "Which papers evaluate on LIBERO?"), the
    sentence writing it of each retrieved paper that writes it as the question does, however low it scores:
    in place of a ``picked`` sentence of that paper that does not write it, else added. Only a name at most
    :data:`NAME_WRITERS` retrieved papers write (not "LLMs"), over corpora of
    :data:`~paperchat.answer.focus.OFF_TOPIC_MIN_PAPERS` papers or more. An eval author's "Which papers
    evaluate on LIBERO?" and "Which papers use AIRS?" had abstained (the sentences naming them scored below
    the bar) while retrieval ranked both papers first."""
    if lexicon is None or n_papers < OFF_TOPIC_MIN_PAPERS:
        return picked
    picked = list(picked)
    for name in names:
        written = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
        writers = [p for p in papers if written.search(p.full_text)]
        if not 1 <= len(writers) <= NAME_WRITERS:
            continue
        for p in writers:
            writing = [c for c in cands if c.paper_id == p.paper_id and written.search(c.text)]
            best = next(
                (c for c in writing if c.role != "resource"), writing[0] if writing else None
            )
            # a code link only when only it writes the name ("released as part of the AIRS library")
            if best is None or best in picked:
                continue
            at = next((i for i, c in enumerate(picked) if c.paper_id == p.paper_id), None)
            if at is None:
                picked.append(best)
            else:
                picked[at] = best
    return picked
