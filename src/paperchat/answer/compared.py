"""The sentences a comparison quotes from each paper it mentions ("How do KEA and SENSEI differ?").

Each paper answers for itself: its best sentences for what the question asks of it, its description's
and its own ask's sentences, and a clause of the ask goes to the paper that fits it best
(:func:`subject_sentences`, called by :func:`paperchat.answer.extractive.extract`).
"""

from __future__ import annotations

import numpy as np

from paperchat.answer import intent as it
from paperchat.answer.asks import split_ask
from paperchat.answer.candidates import DUPLICATE_COS, Candidate, pick, score_sentences
from paperchat.answer.clauses import MIN_CLAUSE_TERMS, ask_clauses, parts_cover
from paperchat.answer.focus import PaperText
from paperchat.answer.labels import labelled_clauses
from paperchat.answer.mentions import ask_part, split_mentions
from paperchat.answer.method_span import method_span, proposal
from paperchat.core.terms import terms

PER_SUBJECT = 3  # sentences per paper when a question compares several named papers


def sentence_kind(read: it.Intent) -> it.Intent:
    """The kind of sentence that answers a question read as ``read``: a number, names or a finding, else a general one."""
    return it.Intent(read.kind if read.kind in (it.QUANTITY, it.ENTITY, it.FINDING) else it.GENERAL)


def subject_sentences(
    question: str,
    qvec: np.ndarray,
    papers: list[PaperText],
    index,
    subjects: list,
    bare: bool,
    abstain_below: float,
) -> list[Candidate]:
    """The best :data:`PER_SUBJECT` sentences of each paper a comparison mentions, in ``subjects`` order.

    Scored against what the question asks of them (:func:`paperchat.answer.mentions.ask_part`:
    "what speedup does each report"), moved by the ask's kind (a number, names, a result; anything else
    as a general question). A paper the question describes rather than names also gets the sentence that
    best fits its description, when that is relevant and not yet picked (:func:`paperchat.answer.clauses.parts_cover`),
    and one more for what the question asks of it by label ("what does the latter use ...",
    :func:`paperchat.answer.labels.labelled_clauses`). An ask of several questions ("how many queries does
    the flipper need, ..., and how fast is the helper?", :func:`paperchat.answer.clauses.ask_clauses`) gives
    each question to the paper whose sentence fits it best, which that paper adds when it is relevant, new
    and the paper has room (:data:`PER_SUBJECT` + 1 sentences). A sentence scored below ``abstain_below``
    (the answerer's ``ABSTAIN_BELOW``) is not added for a clause. A ``bare`` comparison ("Compare A, B and
    C.", asking nothing more) quotes each paper's proposal (:func:`proposal`) among its sentences.
    """
    mentions = split_mentions(question)
    ask = ask_part(question, mentions)
    # what the question asks of one paper by label ("what probing strategy does the latter use")
    by_label = labelled_clauses(question, mentions)
    own_ask = {m.text: by_label.get(i, "") for i, m in enumerate(mentions)}
    avec = qvec if ask == question else index.embedder.embed_one(ask)
    # the asking sentence, not a "Compare A with B." before it, says what kind of sentence answers
    sentence = split_ask(ask).sentence or ask
    read = it.read_question(sentence)
    how = read.how or it.asks_approach(sentence)
    intent = sentence_kind(read)
    compared = [p for p in papers if p.paper_id in subjects]
    cands = score_sentences(ask, avec, compared, index, intent)
    own = {pid: [c for c in cands if c.paper_id == pid] for pid in subjects}
    described = {p.paper_id: p.mention for p in papers if p.paper_id in subjects}

    def cover(clause: str, picked: list, pid: str, room: int) -> list:
        """The best sentence of ``pid`` for ``clause``, when it has enough terms and is relevant and new."""
        if len(set(terms(clause))) < MIN_CLAUSE_TERMS:
            return []
        return parts_cover(
            [clause], picked, own[pid], index.embedder.embed_one, room, abstain_below, DUPLICATE_COS
        )

    chosen: dict[str, list] = {}
    for pid in subjects:
        picked = pick(own[pid], pid, intent, PER_SUBJECT) if own[pid] else []
        if bare:  # "Compare RocketKV and CateKV.": what each proposes, not only its results
            first = proposal(own[pid], picked)
            picked = first + picked[: PER_SUBJECT - len(first)]
        mention = described.get(pid, "")
        picked += cover(mention, picked, pid, PER_SUBJECT)  # a description, not a name
        # its own ask, with room
        picked += cover(own_ask.get(mention, ""), picked, pid, PER_SUBJECT + 1)
        if how and own[pid]:  # "How does each obtain step-level guidance?": its method move
            picked += method_span(own[pid], picked, PER_SUBJECT + 1)
        chosen[pid] = picked
    # "how many queries does the flipper need, ..., and how fast is the helper?": each question of the ask
    # goes to the paper with the sentence that fits it best (scored as a question of its own kind), which it adds
    clauses = ask_clauses(ask)
    for clause in clauses if len(clauses) >= 2 else []:
        vec = index.embedder.embed_one(clause)
        fits = score_sentences(
            clause, vec, compared, index, sentence_kind(it.read_question(clause))
        )
        best = next((c for c in fits if c.role != "resource"), None)
        if best is None or best.base < abstain_below:
            continue
        picked = chosen[best.paper_id]
        # a sentence already picked is its own near-duplicate (cosine 1)
        if len(picked) < PER_SUBJECT + 1 and not any(
            float(best.vec @ p.vec) > DUPLICATE_COS for p in picked
        ):
            picked.append(best)
    return [c for pid in subjects for c in chosen[pid]]
