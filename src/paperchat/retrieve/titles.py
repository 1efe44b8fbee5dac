"""A question that quotes a paper's title is about that paper: put it first.

Pasting a title is how a reader names a paper they saw in a programme or a
reference list. Fused scores usually rank it first already, but not always:
"Understanding the Logic of Direct Preference Alignment through Logic" ranked
a paper about direct preference alignment above it, and "Inverse problems with
experiment-guided AlphaFold?" ranked it fourth (3 of every 100 sampled titles
of the conference, asked bare or inside "What does ... propose?"). A title
matches when its words occur in the question as one run (any case, any
punctuation between words). Titles of two or three words ("Flow Q-Learning",
"Graph World Model") are common phrases too, so they match only in the
title's own capitalisation. So does a title's head, the words before its colon, which a reader quotes as the
paper's name ("Who wrote Dialogue Without Limits?" for "Dialogue Without Limits: Constant-Sized KV Caches
for ...": retrieval had ranked "Aligning Spoken Dialogue Models ..." first and answered for it), unless two
titles open with it.

A question may also name a paper by the name its title opens with ("What is WATCH?" for "WATCH:
Adaptive Monitoring for AI Deployments via ..."), which its abstract need not repeat
(:func:`head_names`, :func:`named_by_head`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping

from paperchat.core.terms import looks_like_name

#: titles with fewer words match only in their own capitalisation
MIN_WORDS_ANY_CASE = 4

_WORD = re.compile(r"[^\W_]+")


def _run(text: str) -> str:
    """``text``'s words joined by single spaces, each framed so that a run matches only whole words."""
    return " " + " ".join(_WORD.findall(text)) + " "


def titled(question: str, titles: Mapping[str, str]) -> list[str]:
    """Ids of ``titles`` (``{paper id: title}``) that ``question`` quotes, the longest title first.

    >>> titled("What does Flow Q-Learning propose?", {"a": "Flow Q-Learning", "b": "Flow"})
    ['a']
    >>> titled("a flow q-learning method", {"a": "Flow Q-Learning"})
    []
    >>> titled("Who wrote Dialogue Without Limits?", {"b": "Dialogue Without Limits: Constant-Sized KV ..."})
    ['b']
    """
    exact, low = _run(question), _run(question).lower()
    heads: dict[str, list[str]] = {}
    for pid, title in titles.items():
        head, colon, _rest = title.partition(":")
        if colon:
            heads.setdefault(_run(head), []).append(pid)
    found = []
    for pid, title in titles.items():
        head, colon, _rest = title.partition(":")
        # a head two titles share names neither ("Mind the Gap: ..."); a one-word head ("Ex-VAD: ...") is a
        # name, which a comparison may give beside other papers (named_by_head)
        named_by = colon and heads[_run(head)] == [pid] and len(head.split()) >= 2
        for text in (title, head) if named_by else (title,):
            words, run = _WORD.findall(text), _run(text)
            if len(words) >= 2 and (
                run in exact or (len(words) >= MIN_WORDS_ANY_CASE and run.lower() in low)
            ):
                found.append((len(words), pid))
                break
    return [pid for _n, pid in sorted(found, key=lambda x: -x[0])]


def bare_title(question: str, titles: Mapping[str, str]) -> str | None:
    """The id of the paper whose title is the whole of ``question`` (any case and punctuation), else ``None``.

    A bare title asks what the paper is about: the answerer summarizes it.

    >>> titles = {"qzM37nOy3N": "Inverse problems with experiment-guided AlphaFold"}
    >>> bare_title("inverse problems with experiment-guided AlphaFold?", titles)
    'qzM37nOy3N'
    >>> bare_title("What does Inverse problems with experiment-guided AlphaFold do?", titles) is None
    True
    """
    whole = _run(question).lower()
    return next((pid for pid, t in titles.items() if _run(t).lower() == whole), None)


#: the words a question asks about a named paper with, and nothing else ("What does H propose?")
_ABOUT_WORDS = frozenset(
    """what is are does do did propose proposes introduce introduces present presents contribute
    contributes about the this paper work tell me explain describe summarize summarise do it s""".split()
)


def about_title(question: str, papers: Mapping[str, tuple[str, str]]) -> str | None:
    """The id of the paper ``question`` asks about in general words only ("What is Prune 'n Predict?",
    "What does Clients Collaborate propose?") by a title or title head its abstract never writes, else
    ``None``; ``papers`` is ``{paper id: (title, abstract)}``. Its sentences cannot match a name they do not
    hold, so the answerer summarizes the paper, as for a bare title (a course TA's session: it had
    abstained).

    >>> about_title("What is Prune 'n Predict?", {"a": ("Prune 'n Predict: Optimizing ...", "LLMs ...")})
    'a'
    >>> about_title("Which dataset does Prune 'n Predict use?", {"a": ("Prune 'n Predict: O", "LLMs")}) is None
    True
    """
    quoted = titled(question, {pid: title for pid, (title, _a) in papers.items()})
    if len(quoted) != 1:
        return None
    title, abstract = papers[quoted[0]]
    low, text = _run(question).lower(), _run(abstract).lower()
    for name in (title, title.partition(":")[0]):
        run = _run(name).lower()
        if len(run.split()) >= 2 and run in low:
            rest = set(low.replace(run, " ").split())
            return quoted[0] if rest <= _ABOUT_WORDS and run not in text else None
    return None


def titles_compared(question: str, hits: list, read_papers: Callable) -> list:
    """``hits`` (objects with ``paper_id`` and ``mention``) with the papers a comparison quotes by title or
    title head (:func:`titled`), or one so and others by a label their titles open with
    (:func:`named_by_head`), when it quotes two or more, first and marked with their title (so the
    answerer quotes each); else ``hits`` unchanged. ``read_papers(ids)`` gives records with ``title``.
    "How do Towards a Mechanistic Explanation of Diffusion Model Generalization and Diffusion models for
    Gaussian distributions: ... differ?" had quoted the second paper only (a course TA's session)."""
    records = read_papers([h.paper_id for h in hits])
    titles = {pid: r.title for pid, r in records.items() if r.title}
    quoted = titled(question, titles)
    # "How do QuantSpec and Prune 'n Predict differ?": a label beside a quoted head
    if len(quoted) == 1:
        quoted += [pid for pid in named_by_head(head_names(question), records) if pid not in quoted]
    if len(quoted) < 2:
        return hits
    at = {pid: question.lower().find(titles[pid].partition(":")[0].lower()) for pid in quoted}
    named = [  # in the question's order
        dataclasses.replace(h, mention=titles[h.paper_id])
        for h in sorted((h for h in hits if h.paper_id in at), key=lambda h: at[h.paper_id])
    ]
    return named + [h for h in hits if h.paper_id not in at]


#: A word of a question as a name is written: no white space, quotes, brackets or closing punctuation.
_NAME_WORD = re.compile(r"[^\s,;:!?()\[\]\"'“”‘’]+")


def head_names(question: str) -> list[str]:
    """Words of ``question`` that may be a paper's short name, in order: those with a capital letter (a
    sentence's first word only when it looks like a coined name, not a capitalised question word), each
    also without a closing full stop ("WATCH." and "R.I.P.").

    >>> head_names("What is WATCH? Compare it with R.I.P.")
    ['WATCH', 'R.I.P.', 'R.I.P']
    """
    words = [
        (
            m.group(),
            not question[: m.start()].strip() or question[: m.start()].rstrip()[-1] in ".?!",
            m,
        )
        for m in _NAME_WORD.finditer(question)
    ]
    capital = [
        any(c.isupper() for c in w) and (not opens or looks_like_name(w)) for w, opens, _ in words
    ]

    def joined(a: int, b: int) -> bool:  # two name words with only spaces between: one longer name
        gap = question[words[a][2].end() : words[b][2].start()]
        return capital[a] and capital[b] and gap.strip() == "" and not words[a][0].endswith(".")

    out: dict[str, None] = {}
    for i, (word, _opens, _m) in enumerate(words):
        longer = i + 1 < len(words) and joined(i, i + 1) or i > 0 and joined(i - 1, i)
        if capital[i] and not longer:  # "CAT Merging" names neither "CAT" nor "Merging"
            out.update(dict.fromkeys(w for w in (word, word.rstrip(".")) if w))
    return list(out)


#: small words a title's head may hold between its capitalised ones ("Prune 'n Predict", "Mind the Gap")
_CONNECTORS = frozenset("'n n a an and as at by for from in is of on or the to via vs with".split())
#: capitalised words that open a question rather than a title
_OPENERS = frozenset(
    "what who whom whose how which why when where does do did is are was were can could should would "
    "will compare summarize summarise explain describe tell list give show find".split()
)


def capitalized_runs(question: str, limit: int = 4) -> list[str]:
    """Up to ``limit`` runs of two or more capitalised words of ``question`` (small words such as "'n" or
    "the" between them), longest first: what may quote a title's head that retrieval did not rank, as in
    "Who wrote Clients Collaborate?" (:meth:`~paperchat.retrieve.hybrid.HybridRetriever.retrieve`
    searches each run by itself).

    >>> capitalized_runs("Who wrote Prune 'n Predict and Clients Collaborate?")
    ["Prune 'n Predict and Clients Collaborate", "Prune 'n Predict", 'Clients Collaborate']
    >>> capitalized_runs("What does CROW do?")
    []
    """
    runs: list[list[str]] = [[]]
    for word in re.findall(r"[^\s,;:!?()\[\]\"“”]+", question):
        bare = word.strip(".'’")
        capital = bare[:1].isupper() or bare[:1].isdigit()
        if capital and not (not runs[-1] and bare.lower() in _OPENERS):
            runs[-1].append(bare)
        elif runs[-1] and word.lower().strip("’") in _CONNECTORS:
            runs[-1].append(word)
        else:
            runs.append([])
        if word.endswith((".", "'", "’")) and len(word) > 2 and runs[-1]:
            runs.append([])  # a sentence or quotation ends
    out = []
    for run in runs:
        while run and not (run[-1][:1].isupper() or run[-1][:1].isdigit()):
            run.pop()  # "Clients Collaborate and" ends at its last capitalised word
        # "QuantSpec and Prune 'n Predict" may be two names: its parts between "and", "or", "vs" too
        parts = re.split(r"\s+(?:and|or|vs)\s+", " ".join(run))
        for text in [" ".join(run)] + (parts if len(parts) > 1 else []):
            if sum(w[:1].isupper() or w[:1].isdigit() for w in text.split()) >= 2:
                out.append(text)
    return sorted(dict.fromkeys(out), key=lambda r: -len(r.split()))[:limit]


def head_label(record) -> str:
    """``record``'s label when its title opens with it ("WATCH: Adaptive ..."), else ``""``."""
    head, colon, _ = (getattr(record, "title", "") or "").partition(":")
    label = getattr(record, "label", "") or ""
    return label if colon and head.strip() == label else ""


def named_by_head(names: list[str], records: Mapping) -> list[str]:
    """Ids of ``records`` (``{paper id: record}`` with ``label`` and ``title``) named by one of ``names``: the
    record's label is the name its title opens with ("WATCH: ..."), and no other title opens with that
    label (a label derived from another abstract does not count). In the order of ``names``."""
    by_head: dict[str, list[str]] = {}
    for pid, rec in records.items():
        by_head.setdefault(head_label(rec), []).append(pid)
    return [ids[0] for name in names if name and len(ids := by_head.get(name, [])) == 1]
