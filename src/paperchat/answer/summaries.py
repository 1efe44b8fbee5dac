"""Which paper a summary is about, and a paper's offline summary (its own problem, method and result sentences).

TARGET resolution (:func:`find_paper`), in order: an exact paper id; a label
or title equal to TARGET (any case); a paper whose label or title contains
every word of TARGET, unless several papers fit TARGET as a topic (their
title or abstract holds every term of it: "speculative decoding for LLM
inference" is in one title and in seven abstracts); else ``None`` (TARGET is
then a topic, and the top retrieved papers are summarized). A paper chosen by
its title is named in a note (:func:`title_note`).

Offline, a paper's summary (:func:`extractive_paper_summary`) is the first
sentence; the first "we propose/introduce/present/develop ..." sentence; the
last sentence reporting results; each cited ``[1]``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable

from paperchat.core.sentences import split_sentences
from paperchat.ingest.records import PaperRecord, resolve_id

#: A request for a summary of a field's papers, not of one paper: "Summarize the related work on X", "Write a
#: related work paragraph on X", "give me an overview of the literature on X" (a related-work writer's
#: session had them answered from one abstract, which read as a survey of the field). "The work on X" is
#: one paper as often as a field, and stays a question (conference test cq139 is one paper).
_TOPIC_SUMMARY = re.compile(
    r"^\s*(?:please\s+|can\s+you\s+|could\s+you\s+)?(?:summari[sz]e|sum\s+up|write|draft|give(?:\s+me)?|describe)"
    r"\s+(?:an?\s+|the\s+)?(?:short\s+|brief\s+)?"
    r"(?:(?:overview|summary|survey|review)\s+of\s+(?:the\s+)?(?:literature|research|related\s+work|papers)"
    r"|survey|review|related[-\s]work(?:\s+(?:paragraph|section))?|literature|research|papers)"
    r"\s+(?:on|about|in|regarding)\s+(?P<topic>.+?)\s*[?.!]*\s*$",
    re.I,
)


def topic_summary(question: str) -> str | None:
    """The topic of a request to summarize a field's papers ("Summarize the related work on conformal
    prediction" -> "conformal prediction"), answered as ``paperchat summarize TOPIC`` is; else ``None``."""
    m = _TOPIC_SUMMARY.match(question or "")
    return m.group("topic") if m else None


def find_paper(
    records: dict[str, PaperRecord],
    target: str,
    topic_fit: Callable[[str], list[str]] | None = None,
) -> tuple[str | None, str]:
    """The paper TARGET names among ``records`` and how: ``(paper id, how)``, ``how`` one of ``"id"`` (its id or a
    merged duplicate's), ``"label"``, ``"title"``, ``"title head"``, ``"title words"``; ``(None, "")`` when TARGET names no one paper.

    ``None`` too when TARGET fits several papers: a label such as "ICL" that 11 papers share, or words of one
    title that ``topic_fit(target)`` (the ids of papers TARGET fits as a topic, :func:`papers_on_topic`) finds
    in two or more papers: it is a topic then.
    """
    target = " ".join(target.split())
    aliases = {alias: pid for pid, rec in records.items() for alias in rec.aliases}
    found = resolve_id(target, records, aliases)  # also typed in the wrong case ("PO9bBEPNWY")
    if found:
        return found, "id"
    low = target.lower()
    for how in ("label", "title"):
        named = [pid for pid, rec in records.items() if low == getattr(rec, how).lower()]
        if len(named) == 1:
            return named[0], how
        if named:  # a label several papers share ("ICL") names a topic, not a paper
            return None, ""
    # a title's head, the words before its colon ("summarize Clients Collaborate" had found no title; the
    # course TA's session), when no other title opens with it
    named = [pid for pid, rec in records.items() if _head(rec.title) == low]
    if len(named) == 1:
        return named[0], "title head"
    words = _words(low)
    matches = [
        pid
        for pid, rec in records.items()
        if words and set(words) <= set(_words(f"{rec.label} {rec.title}".lower()))
    ]
    if len(matches) != 1 or (topic_fit is not None and len(topic_fit(target)) > 1):
        return None, ""
    return matches[0], "title words"


def _head(title: str) -> str:
    """A title's words before its colon, lower case, single-spaced ("" when it has no colon)."""
    head, colon, _ = (title or "").partition(":")
    return " ".join(head.lower().split()) if colon else ""


def close_names(
    records: dict[str, PaperRecord],
    target: str,
    n: int = 3,
    titles: bool = False,
    cutoff: float = 0.75,
) -> list[str]:
    """Up to ``n`` ids or labels of ``records`` spelled like TARGET (:func:`difflib.get_close_matches`, ratio
    ``cutoff`` and up, any case), best first: what "did you mean" offers for a mistyped id or label; with
    ``titles``, their titles too ("Flow Q-Lerning": "Flow Q-Learning")."""
    names: dict[str, str] = {}
    for pid, rec in records.items():
        names.setdefault(pid.lower(), pid)
        if rec.label:
            names.setdefault(rec.label.lower(), rec.label)
        if titles and rec.title:
            words = rec.title.lower().split()
            names[" ".join(words)] = f"'{rec.title}'"  # quoted, even as a label
            if 3 <= len(target.split()) < len(words):
                # the title's opening words, as many as TARGET's: "Netwrok Sparsity Unlocks the Scaling
                # Potential" (a science writer's) had been summarized as a topic with no "did you mean"
                names.setdefault(" ".join(words[: len(target.split())]), f"'{rec.title}'")
    found = difflib.get_close_matches(target.lower(), list(names), n=n, cutoff=cutoff)
    return [names[f] for f in found]


def papers_on_topic(
    target: str, bm25, records_of: Callable[[list[str]], dict[str, PaperRecord]], n: int = 10
) -> list[str]:
    """Ids of the papers TARGET fits as a topic: among its ``n`` best BM25 papers (``bm25``, a
    :class:`paperchat.store.bm25.BM25Index`), those whose title or abstract holds every term of TARGET (stemmed,
    stopwords left out). ``records_of(ids)`` gives papers with their abstracts."""
    terms = bm25.terms_of(target)
    if not terms:
        return []
    ids = [pid for pid, _score in bm25.search(target, n)]
    records = records_of(ids)
    return [pid for pid in ids if pid in records and terms <= bm25.terms_of(records[pid].full_text)]


def title_note(target: str, record: PaperRecord, how: str) -> str | None:
    """The note saying which paper a TARGET that is (words of) a title, or a name only its abstract writes
    (``how`` "abstract name"), was read as; ``None`` for an id or label."""
    if how == "abstract name":  # "MorphKV", which the title does not write
        return f"\"{target}\" read as the paper '{record.name}' (its abstract names it)"
    if how not in ("title", "title head", "title words"):
        return None
    return f"\"{' '.join(target.split())}\" read as the paper '{record.name}' (title match)"


def _words(text: str) -> list[str]:
    """Words for matching a target against titles: "SUICA: Learning ..." holds "suica"."""
    return re.findall(r"[\w+\-.]+(?<![.\-])", text)


_METHOD = re.compile(
    r"\b(?:we\s+(?:propose|introduce|present|develop|design|formulate|derive|study|analy[sz]e|establish|show)|"
    r"(?:this|the)\s+(?:paper|work)\s+(?:proposes|introduces|presents|develops|studies)|our\s+(?:method|approach|framework|model|algorithm)|"
    r"called|named|dubbed|framework|approach|method|algorithm|architecture)\b",
    re.I,
)
_RESULT = re.compile(
    r"\b(?:outperform\w*|achiev\w*|improv\w*|state-of-the-art|sota|experiments?|experimental\w*|empirical\w*|"
    r"results?|demonstrat\w*|"
    r"significant\w*|surpass\w*|speed-?ups?|faster|reduc\w*|gains?|accuracy|benchmarks?)\b|\d+(?:\.\d+)?\s*(?:%|×|x\b)",
    re.I,
)


#: a sentence that adds to an earlier finding: "X also reduces ...", "We also show ..."
_ADDED = re.compile(r"^\W*(?:\S+\s+){0,3}also\b", re.I)


def extractive_paper_summary(
    abstract: str, max_sentences: int = 5, brief: bool = False, label: str = ""
) -> list[str]:
    """An extractive summary of an abstract: its problem, method and result sentences, in the abstract's order.

    The first sentence (the problem); the first later one that says what is
    proposed ("we propose", "our framework", "called": the method); the last
    one that reports findings ("outperforms", "achieves", "%": the result);
    then, up to half the abstract (at least three sentences, at most
    ``max_sentences``), the other method and result sentences, earliest
    first. A sentence that only points to code or a project page is never
    picked; short abstracts give fewer sentences. ``brief``: only the method sentence (the first
    sentence without one) and the result sentence, for a summary of several papers. ``label``: the
    paper's short name; a later method sentence that names it ("... a general speculative decoding
    framework BanditSpec") is its method sentence.
    """
    from paperchat.answer.roles import sentence_role

    all_sents = split_sentences(abstract)
    roles = [sentence_role(s, i) for i, s in enumerate(all_sents)]
    keep = [i for i, r in enumerate(roles) if r != "resource"] or list(
        range(len(all_sents))
    )  # not "code is at ..."
    if not keep:
        return []
    want = min(max_sentences, len(keep), max(3, -(-len(keep) // 2)))
    picked = [keep[0]]
    methods = [i for i in keep[1:] if roles[i] == "definition" or _METHOD.search(all_sents[i])]
    named = [
        i for i in methods if label and re.search(rf"(?<!\w){re.escape(label)}(?!\w)", all_sents[i])
    ]
    method = (named or methods or [None])[0]
    results = [
        i
        for i in reversed(keep[1:])
        if i != method and (roles[i] == "result" or _RESULT.search(all_sents[i]))
    ]
    # the last result, unless it only adds to an earlier one ("QuantSpec also reduces the memory ... by
    # 1.3x compared to these alternatives" had stood for its 2.5x speed-up; a literature-review session)
    main = [i for i in results if not _ADDED.match(all_sents[i])]
    result = (main or results or [None])[0]
    if brief:
        lead = method if method is not None else keep[0]
        return [all_sents[i] for i in sorted({lead} | ({result} if result is not None else set()))]
    picked += [i for i in (method, result) if i is not None]
    for role in ("definition", "result", "other", "background"):
        for i in keep:
            if len(picked) >= want:
                break
            if i not in picked and roles[i] == role:
                picked.append(i)
    return [all_sents[i] for i in sorted(picked)]
