"""The papers a question names: by label, by the words of a title before its colon, and in the order it
names them ("Summarize Flow Q-Learning and Sundial", a chat follow-up's "summarize AWM and Demystifying")."""

from __future__ import annotations

import re


def label_named(question: str, paper) -> bool:
    """Whether the question names the paper by its short label ("Habi", "SafeDiffCon"), as a whole word."""
    label = paper.label.strip()
    return 3 <= len(label) <= 40 and not label.endswith("…") and written(label, question)


def short_label(paper) -> str | None:
    """``paper``'s label when it is a short name to write in a question ("LightGTS": four words and 40
    characters at most, not cut off with "…"), else ``None``; ``paper`` has ``label``."""
    label = paper.label
    if label and len(label) <= 40 and not label.endswith("…") and len(label.split()) <= 4:
        return label
    return None


def written(name: str, text: str) -> bool:
    """Whether ``text`` writes ``name`` as it is written, a whole word (not inside "pre-CROW" or "CROWs")."""
    return re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", text) is not None


def head_written(question: str, title: str) -> bool:
    """Whether ``question`` writes ``title``'s words before its colon, any case, when they are a short name
    (six words at most): "Flow Q-Learning", "Sundial"; or the whole title, however long ("What limitations
    does Overtrained Language Models Are Harder to Fine-Tune admit?": a skeptic's had been answered for
    another paper)."""
    head = title.split(":")[0].strip()
    return any(
        0 < len(h.split()) <= limit
        and re.search(rf"(?<!\w){re.escape(h)}(?!\w)", question, re.I) is not None
        for h, limit in ((head, 6), (title.strip(), 40))
    )


def named_by(asked: str, papers: list) -> list:
    """The ``papers`` (:class:`~paperchat.answer.focus.PaperText` s) the question names by label or by the
    words of the title before its colon."""
    return [p for p in papers if p.label and label_named(asked, p) or head_written(asked, p.title)]


def as_named(asked: str, papers: list) -> list:
    """``papers`` in the order ``asked`` names them (by mention, label or title head; unnamed ones last):
    "summarize the first two" cites the list's first paper first (a chat session: the order had been
    retrieval's, which made the second the first of a new list)."""
    low = asked.lower()

    def at(p) -> int:
        keys = (p.mention, p.label, p.title.split(":")[0])
        return min((i for k in keys if k and (i := low.find(k.lower())) >= 0), default=len(low))

    return sorted(papers, key=at)


#: A word shaped like a paper id: an OpenReview id (ten letters, digits, "-" or "_", not all lower case
#: letters, so "generation" is none) or a derived ``p-`` id.
_ID_LIKE = re.compile(
    r"(?<![\w-])(p-[0-9a-f]{12}|(?=[\w-]{0,9}[A-Z0-9_])[A-Za-z0-9_-]{10})(?![\w-])"
)


def ids_named(question: str, ids, aliases) -> dict[str, str]:
    """The paper ids ``question`` writes ("What does KVf2SFL1pi propose?") -> the stored paper each names
    (``ids``: the stored ids; ``aliases``: merged id -> kept id; another case allowed, as
    :func:`paperchat.ingest.records.resolve_id` reads them). An agent that found a paper by search asks
    about it by its id (an MCP session had every such question declined)."""
    from paperchat.ingest.records import resolve_id

    found = {}
    for m in _ID_LIKE.finditer(question):
        pid = resolve_id(m.group(1), ids, aliases)
        if pid:
            found[m.group(1)] = pid
    return found


def title_head_run(question: str, name: str) -> str:
    """``name`` with the capitalised words that follow it in ``question`` ("CAT Merging" for "CAT" in
    "Compare CAT Merging and CABS."), which may be a stored title's head; ``""`` when none follows. A
    reviewer's comparison had named the paper labelled "CAT" (on protective perturbations) for "CAT
    Merging: A Training-Free Approach ..."."""
    run = re.search(rf"(?<![\w-]){re.escape(name)}((?:\s+[A-Z][\w-]*){{1,3}})", question)
    return name + run.group(1) if run else ""
