"""The offline answer: quoted sentences, a paper's own summary, or its stored metadata, each cited.

:func:`offline_answer` reads the question (:mod:`paperchat.answer.intent`) and answers

* a summary request with the paper's problem, method and result sentences
  (:func:`paperchat.answer.summaries.extractive_paper_summary`), in the
  abstract's order; one that names or refers to several papers with each
  one's, named (:func:`summaries_answer`);
* an authors or title question from the paper's stored metadata (the source's
  text is then that metadata, so the citation can be checked); without it,
  the answerer abstains;
* anything else with the sentences :func:`paperchat.answer.extractive.extract`
  picks; a "which paper(s)" question, and one that describes its paper
  without naming it, names each paper (its title, with its short label when
  the title lacks it) before the first sentence quoted from it. A question
  whose premise the paper's abstract denies (:mod:`paperchat.answer.premises`)
  is answered with a note that says so; one asking for the limitations of a paper
  it names abstains with a note (:mod:`paperchat.answer.limitations`).

Sources are numbered in order of first use; each names the chunk that holds
the first sentence quoted from it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

import numpy as np

from paperchat.answer import intent as it
from paperchat.answer.asks import HOW_MANY_AUTHORS, asks_for_name, plain_question, split_ask
from paperchat.answer.extractive import extract
from paperchat.answer.field_labels import field_labels
from paperchat.answer.focus import PaperText, focus_papers
from paperchat.answer.limitations import LIMITS_NOTE, asks_limitations, limited_paper
from paperchat.answer.lists import partial_fit_note
from paperchat.answer.named_papers import as_named, label_named, named_by
from paperchat.answer.paper_lists import metadata_source
from paperchat.answer.sentences import SentenceIndex
from paperchat.answer.summaries import extractive_paper_summary
from paperchat.answer.titled import names_another_paper, titled
from paperchat.answer.yes_no import unaddressed_note
from paperchat.cite.markers import cite_sentence
from paperchat.core.contract import EXTRACTIVE, Answer, Retrieved, Source
from paperchat.core.sentences import split_sentences
from paperchat.core.text import one_sentence
from paperchat.ingest.records import PaperRecord
from paperchat.retrieve.titles import about_title, bare_title, head_names


def evidence_chunk(
    record: PaperRecord, quoted: list[str], hits: list, chunk_texts: Callable
) -> tuple[str, str]:
    """``(chunk id, text)`` of what a source's quoted sentences come from.

    The stored chunk that holds every quoted sentence; when they lie in
    several chunks, the first such chunk's id and the text of those chunks
    joined (their shared overlap once). Without a quoted sentence: the
    paper's best-ranked chunk among ``hits``, else its first chunk.
    ``chunk_texts(ids)`` reads chunks from the store.
    """
    chunks = (
        {cid: text for cid, (text, _meta) in chunk_texts(record.chunk_ids).items()}
        if record.chunk_ids
        else {}
    )
    ordered = [cid for cid in record.chunk_ids if cid in chunks]
    flat = {cid: " ".join(chunks[cid].split()) for cid in ordered}
    probes = [" ".join(q.split())[:80] for q in quoted if q.strip()]
    holding = [cid for cid in ordered if any(p in flat[cid] for p in probes)]
    for cid in holding:
        if all(p in flat[cid] for p in probes):
            return cid, chunks[cid]
    if holding:
        sentences: list[str] = []
        for cid in holding:
            sentences += [s for s in split_sentences(chunks[cid]) if s not in sentences]
        return holding[0], " ".join(sentences)
    for h in hits:
        if h.paper_id == record.paper_id:
            return h.chunk_id, h.text
    first = ordered[0] if ordered else ""
    return first, chunks.get(first, "")


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


#: "When was ConfPO published?", "At which conference did X appear?": where and when it appeared, answered
#: from the stored venue and year.
_PUBLISHED = re.compile(
    r"^\s*(?:when|where|(?:at |in )?(?:what|which) (?:year|venue|conference)|at what|in what)\b[^?]*?"
    r"\b(?:was|were|did|is)\b[^?]*?\b(?:published|appear|appeared|presented|accepted)"
    r"(?:\s+(?:at|in|on))?\s*\??\s*$"
    r"|\b(?:venue|publication year|year of publication) (?:of|for)\b"
    # "What year is ConfPO from?", "In what year did Flow Q-Learning come out?"
    r"|^\s*(?:in |from )?(?:what|which) year\b[^?]*?\b(?:from|out|released|release)\s*\??\s*$"
    # "Is ConfPO an ICML paper?", "Was it a NeurIPS 2024 paper?"
    r"|^\s*(?:is|was)\s+[^?]+?\s+an?\s+(?:ICML|NeurIPS|NIPS|ICLR|AAAI|IJCAI|ACL|EMNLP|NAACL|CVPR|ICCV|ECCV|KDD|COLT|AISTATS|UAI|TMLR|JMLR|arXiv)"
    r"(?:\s+(?:19|20)\d\d)?\s+paper\s*\??\s*$"
    # "Was ConfPO an oral?", "How was ConfPO presented?": the stored presentation answers too
    r"|^\s*(?:is|was|did)\s+[^?]+?\s+(?:(?:presented|accepted|selected) as\s+|get\s+|receive\s+|win\s+)?"
    r"an?\s+(?:oral|spotlight|poster)"
    r"(?:\s+(?:paper|presentation))?\s*\??\s*$|^\s*how was\b[^?]+\bpresented\s*\??\s*$",
    re.I,
)
#: The kind of a question :data:`_PUBLISHED` reads (its paper is found as a title question's is).
VENUE = "venue"


def asks_where_published(question: str) -> bool:
    """Whether ``question`` asks where or when a paper appeared ("When was ConfPO published?")."""
    return bool(_PUBLISHED.search(question))


def metadata_answer(
    question: str, record: PaperRecord, kind: str, retrieved: list[Retrieved]
) -> Answer:
    """Who wrote a paper, its title, or where and when it appeared (``kind``: :data:`it.AUTHORS
    <paperchat.answer.intent.AUTHORS>`, :data:`it.TITLE <paperchat.answer.intent.TITLE>` or :data:`VENUE`),
    from the stored metadata; the abstention, with a note, when the metadata does not give it."""
    where = record.appeared
    if kind == it.AUTHORS and not record.authors or kind == VENUE and not where or not record.title:
        return Answer.abstention(
            question, EXTRACTIVE, retrieved, notes=["the paper's metadata does not give it"]
        )
    if kind == it.AUTHORS and HOW_MANY_AUTHORS.search(question):
        n = len(record.authors)
        text = f'"{record.title}" has {n} author{"s" if n != 1 else ""}: {_join(record.authors)}.'
    elif kind == it.AUTHORS:
        text = f'"{record.title}" is by {_join(record.authors)}.'
    elif kind == VENUE:
        text = (
            f'"{record.title}" appeared at {where}'
            if record.venue
            else f'"{record.title}" appeared in {where}'
        ) + (
            f", presented as {'an' if record.presentation == 'oral' else 'a'} {record.presentation}."
            if record.presentation
            else "."
        )
    else:
        text = f'The paper is "{record.title}"' + (
            f" by {_join(record.authors)}." if record.authors else "."
        )
    return Answer(
        question,
        cite_sentence(text, 1),
        EXTRACTIVE,
        sources=[metadata_source(1, record, venue=kind == VENUE)],
        retrieved=retrieved,
    )


def summary_answer(
    question: str, record: PaperRecord, retrieved: list[Retrieved], chunk_texts: Callable
) -> Answer:
    """A paper's offline summary: its own problem, method and result sentences, each cited [1]."""
    sents = extractive_paper_summary(record.abstract, label=record.label)
    if not sents:
        return Answer.abstention(question, EXTRACTIVE, retrieved)
    chunk_id, text = evidence_chunk(record, sents, [], chunk_texts)
    return Answer(
        question,
        " ".join(cite_sentence(s, 1) for s in sents),
        EXTRACTIVE,
        sources=[Source.from_record(1, record, chunk_id, text)],
        retrieved=retrieved,
    )


def summaries_answer(
    question: str,
    records: list[PaperRecord],
    retrieved: list[Retrieved],
    chunk_texts: Callable,
) -> Answer:
    """Several papers' offline summaries, each paper named on a line of its own and cited by its own
    number (:func:`summary_answer`'s sentences for two or three papers; past three, each one's method and
    result sentences)."""
    brief = len(records) > 3
    lines, sources = [], []
    for record in records:
        sents = extractive_paper_summary(record.abstract, brief=brief, label=record.label)
        if not sents:
            continue
        n = len(sources) + 1
        cited = " ".join(cite_sentence(s, n) for s in sents)
        lines.append(f"{paper_name(record)}: {cited}")
        chunk_id, text = evidence_chunk(record, sents, [], chunk_texts)
        sources.append(Source.from_record(n, record, chunk_id, text))
    if not sources:
        return Answer.abstention(question, EXTRACTIVE, retrieved)
    return Answer(question, "\n".join(lines), EXTRACTIVE, sources=sources, retrieved=retrieved)


def paper_name(record: PaperRecord, shared_labels: set[str] = frozenset()) -> str:
    """How an answer names a paper: its title, with its short label after it when the title lacks it.

    Kept one sentence (no inner "? " or ". "). Without a title, the label, else the paper id. A
    label in ``shared_labels`` (lower case; one that another paper of the same answer has too, such
    as "ICL", or a field's term, :func:`paperchat.answer.field_labels.field_labels`) would not tell the
    papers apart and is left out.
    """
    label = record.label
    short = (
        label
        and len(label) <= 40
        and not label.endswith("…")
        and len(label.split()) <= 4
        and label.lower() not in shared_labels
    )
    name = record.name  # the title on one line, else the label, else the id
    if record.title and short and label.lower() not in record.title.lower():
        name = f"{name} ({label})"
    return one_sentence(name)


def _named_in(question: str, paper: PaperText) -> bool:
    """Whether the capitalised words of what the question asks about ("Vintix" in "Give me an overview of
    Vintix.") all occur in the paper's title, label or abstract."""
    words = [
        w for w in re.findall(r"[A-Za-z][\w+-]*", it.retrieval_query(question)) if w[0].isupper()
    ]
    words = [
        w for w in words if w not in ("What", "Which", "Who", "How", "The", "A", "An", "In", "On")
    ]
    text = f"{paper.title} {paper.label} {paper.abstract}".lower()
    return bool(words) and all(w.lower() in text for w in words)


#: Capitalised words of a question that name no paper ("When was X published at ICML?").
def offline_answer(
    question: str,
    qvec: np.ndarray,
    hits: list,
    records: dict[str, PaperRecord],
    index: SentenceIndex,
    chunk_texts: Callable,
    n_papers: int = 0,
    lexicon=None,
) -> Answer:
    """The offline answer to ``question`` from ``hits`` (rank order), or the abstention (see the module docstring)."""
    asked = plain_question(question)  # the wording the rules read; the answer keeps the user's
    intent = it.read_question(asked)
    scores = [h.score for h in hits]
    lo, hi = min(scores, default=0.0), max(scores, default=0.0)
    share = {
        h.paper_id: (h.score - lo) / (hi - lo) if hi > lo else 1.0 for h in hits
    }  # 1 for the top paper, 0 the last
    papers = [
        PaperText(
            h.paper_id,
            records[h.paper_id].title,
            records[h.paper_id].abstract,
            h.dense if h.dense is not None else 0.0,
            share[h.paper_id],
            records[h.paper_id].label,
            h.mention,
            h.score,
        )
        for h in hits
        if h.paper_id in records
    ]
    retrieved = [h.retrieved() for h in hits]
    if bare_title(asked, {p.paper_id: p.title for p in papers}) or about_title(
        asked, {p.paper_id: (p.title, p.abstract) for p in papers}
    ):
        intent = it.Intent(it.SUMMARY)  # a pasted title alone asks what the paper is about
    kind = (
        VENUE
        if _PUBLISHED.search(asked) and intent.kind not in (it.FIND, it.AUTHORS)
        else intent.kind
    )
    if kind == VENUE:
        intent = it.Intent(
            it.TITLE, names=intent.names, subject=intent.subject
        )  # its paper, as a title's
    marked = [records[p.paper_id] for p in as_named(asked, [p for p in papers if p.mention])]
    if intent.kind == it.SUMMARY and len(marked) < 2:
        # "Summarize ConfPO and CROW", "Summarize Flow Q-Learning and Sundial": the papers the question
        # names by label or by the title's words before its colon
        marked = [records[p.paper_id] for p in as_named(asked, named_by(asked, papers))]
    if intent.kind == it.SUMMARY and len(marked) >= 2:  # "summarize the first two": each of them
        return summaries_answer(question, marked, retrieved, chunk_texts)
    if intent.kind in (it.SUMMARY, it.AUTHORS, it.TITLE) and papers:
        focus = focus_papers(asked, papers, intent)
        if focus is None:
            return Answer.abstention(question, EXTRACTIVE, retrieved)
        # "Who wrote DISCO?": the paper labelled DISCO, before one whose abstract mentions a "DisCo"
        names = head_names(asked)  # not "CAT" in "CAT Merging"
        focus = sorted(focus, key=lambda p: not (p.label in names and label_named(asked, p)))
        # nothing names the paper: it must be relevant, unless it is the one paper given ("summarize the
        # second one" in chat, over the paper it refers to; a reading break-it session: it had abstained)
        if not intent.names and not _named_in(asked, focus[0]) and len(papers) > 1:
            check = extract(asked, qvec, focus[:1], index, n_papers, lexicon, it.Intent(it.GENERAL))
            if check.abstained:
                return Answer.abstention(question, EXTRACTIVE, retrieved)
        record = records[focus[0].paper_id]
        if kind == VENUE and not titled(asked, focus[0]):
            # "When was BERT published?": a paper that mentions BERT did not appear for it
            note = "no stored paper's title or label names the paper asked about"
            return Answer.abstention(question, EXTRACTIVE, retrieved, notes=[note])
        if intent.kind == it.SUMMARY:
            return summary_answer(question, record, retrieved, chunk_texts)
        if kind == it.AUTHORS and (other := names_another_paper(asked, focus[0])):
            # "Who wrote Attention Is All You Need?" had named the authors of "Consensus Is All You Get"
            note = f'no stored paper is titled or named "{other}"'
            return Answer.abstention(question, EXTRACTIVE, retrieved, notes=[note])
        return metadata_answer(question, record, kind, retrieved)
    # read for a limitations question only: naming each paper is no work for every question
    if asks_limitations(asked) and (
        about := limited_paper(intent.names, papers, named_by(asked, papers))
    ):
        # "What are the limitations of ConfPO?": its method sentences had read as the answer
        note = f"{about.title or about.label} ({about.paper_id}): {LIMITS_NOTE}"
        return Answer.abstention(question, EXTRACTIVE, retrieved, notes=[note])
    result = extract(asked, qvec, papers, index, n_papers, lexicon, intent)
    if result.abstained:
        notes = [result.note] if result.note else []
        # found the paper, not the detail: say which, so the reader can look
        if result.paper in records:
            about = records[result.paper]
            notes.append(
                f"closest paper: {about.title or about.label} ({about.paper_id}); {result.why}"
            )
        return Answer.abstention(
            question, EXTRACTIVE, retrieved, evidence=result.relevance, notes=notes
        )
    order: list[str] = []
    parts = []
    name_papers = (
        intent.kind == it.FIND
        or (split_ask(asked).described and not intent.names)
        or asks_for_name(asked)  # "What is the framework called, and ... for Llama-3.1-8B?"
    )
    quoted = [records[pid] for pid in {s.paper_id for s in result.sentences}]
    labels = Counter(r.label.lower() for r in quoted if r.label)
    shared = {label for label, count in labels.items() if count > 1}
    # "... Behavior Cloning (BC)": a field's term would read as the paper's method name
    shared |= field_labels(quoted, lexicon)
    for sent in result.sentences:
        text, sep = sent.text, " "
        if sent.paper_id not in order:
            order.append(sent.paper_id)
            # which paper(s), a described paper, or a paper after the first: say which ("We compare ..."
            # from a second paper had read as the first one's)
            if name_papers or result.per_paper or len(order) > 1:
                text = f"{paper_name(records[sent.paper_id], shared)}: {text}"
                # each named paper on a line of its own (a list had been one wall of text)
                sep = "\n"
        parts.append((sep if parts else "") + cite_sentence(text, order.index(sent.paper_id) + 1))
    sources = []
    for n, pid in enumerate(order, 1):
        quoted = [s.text for s in result.sentences if s.paper_id == pid]
        chunk_id, text = evidence_chunk(records[pid], quoted, hits, chunk_texts)
        sources.append(Source.from_record(n, records[pid], chunk_id, text))
    # "Which paper uses diffusion models to design CRISPR guide RNAs?": say when no cited paper fits it all
    fit = intent.kind == it.FIND and partial_fit_note(
        asked, [p for p in papers if p.paper_id in order], lexicon, n_papers
    )
    # "Is CateKV training-free?" of an abstract that speaks of no training
    fit = (
        fit
        or len(order) == 1
        and unaddressed_note(asked, intent.subject, records[order[0]], lexicon)
    )
    return Answer(
        question,
        "".join(parts),
        EXTRACTIVE,
        sources=sources,
        retrieved=retrieved,
        evidence=result.relevance,
        notes=[fit] if fit else [],
    )
