"""Mentions and the lists that hold them: the :class:`Mention` type, and the rules that read a comparison's
papers off a list ("A, the B method and C: what does each ...?"; a header's colon list "three flavours: a
generator ..., a hybrid ..., and a fix ...") or a count by ordinals ("The first ... . The second ...").
:func:`paperchat.answer.mentions.split_mentions` uses them.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from paperchat.answer.mention_names import ONE_WORD
from paperchat.core.terms import terms

#: A question about several papers: "two papers", "does each", "vs", "how do they differ".
#: A lone description counts as a mention only in such a question (else it is the one paper asked about).
SEVERAL = re.compile(
    r"\b(?:two|three|four|both|these)\s+(?:[\w-]+\s+){0,4}?(?:papers|works|studies|methods|approaches|"
    r"accounts|lines|precedents|frameworks|submissions|contributions|publications|articles)\b"
    r"|\b(?:by|for|in) comparison\b(?!\s+(?:with|to)\b)"
    r"|\b(?:two|three|four)\s+(?:[\w-]+\s+){0,3}?[\w-]+s\s*:"  # "from three angles: an attack ..., a defense ..."
    r"|\b(?:former|latter|vs\.?|versus|contrast)\b|\bdiffers? from\b|\bdifferences? between\b"
    r"|(?:^|[.?!:]\s+)(?:compare|contrast)\b"  # "Compare CROW and the paper on ..."
    r"|\bhow (?:[\w'-]+\s+){0,6}?differ\b|\beach (?:one|paper|work|method|of (?:them|the|these))\b"
    r"|\b(?:does|do|did) each\b|\bwhich (?:of (?:them|the two|the three)|one)\b|\bin each\b|\bthe other\b|\beither (?:one|of)\b"
    # papers told apart by label or order: "Paper A ...; Paper B ...", "The first ...; the second ...",
    # "One study ...; another ..."
    r"|\b(?:paper|study|work)\s+(?-i:B|2)\b|\bthe second\b|\ba second (?:one|paper|study|work)\b"
    r"|[;,]\s+(?:and\s+)?another\b",
    re.I,
)
#: Words a mention's text may end with that belong to the sentence around it.
_TRAILING = re.compile(r"(?:[\s,:]|\b(?:and|or|with|to|from|vs\.?|versus|but)\b)+$", re.I)
#: A list of the compared papers before the ask: "A, the B method and C: what does each ...", "For A, B and
#: the C approach, give ...", "Two papers: the A bandit and B bandits. Which ...".
_LIST_FRAME = re.compile(
    r"(?:(?<=^)|(?<=[.:;?!]\s))(?:(?:for|between|compare|contrast)\s+)?"
    r"(?P<items>(?:[^,.:;?!]{3,80}?,\s+){1,4}?(?:and\s+)?[^,.:;?!]{3,80}?|[^,.:;?!]{3,80}?\s+and\s+[^,.:;?!]{3,80}?)"
    r"(?=\s*[:.?]|,\s+(?:give|what|how|which|tell|list|describe|explain|summari[sz]e|compare|contrast)\b"
    r"|\s+(?:all|both)\s)",
    re.I,
)
MAX_ITEM_WORDS = 6  # words a listed paper's item may have (longer: a clause, not a paper)
_ITEM_BREAK = re.compile(r",\s+(?:and\s+)?|\s+and\s+", re.I)
#: A list item that is part of a sentence, not a paper: it holds a verb of the question.
_CLAUSAL = re.compile(
    r"\b(?:what|how|which|why|who|does|do|did|is|are|was|were|can|could|would|should|has|have|i|we|you)\b",
    re.I,
)
#: A description needs this many content terms to be searched (fewer: "the one on it"); the parts of a
#: compound count each ("the network-sparsity paper").
MIN_DESCRIPTION_TERMS = 2
#: An ordinal that opens a sentence, clause or list item and counts a paper off ("The first ...", "A second
#: ...", "One ..."): :func:`counted_off`.
_ORDINAL = re.compile(
    r"(?:(?<=^)|(?<=[.?!;:]\s))(?:(?:the|a)\s+(?:first|second|third|fourth|fifth|last|final)|one)\b",
    re.I,
)
_CLAUSE_END = re.compile(r"[.?!;](?:\s|$)")
_SENTENCE_END = re.compile(r"[.?!](?:\s|$)")
_SENTENCE_BREAK = re.compile(r"[.?!]\s")
#: Where a list of described papers after a colon goes on to its next item: a comma, a semicolon or "and"
#: before an article (:func:`items_after_colon`).
_ITEM_CUT = re.compile(r"(?:[,;]\s+(?:and\s+)?|\s+and\s+)(?=(?:the|a|an)\s)", re.I)


@dataclass(frozen=True)
class Mention:
    """One paper a comparison is about, as the question mentions it.

    ``text`` is the mention as written (the pointer's words and the description, or the name and
    what it adds); ``name`` the coined name or quoted phrase when the question names the paper
    (``None`` for a description); ``start``/``end`` its character span in the question. ``asks``: the
    mention is a clause that asks about its paper ("what does the second use ...",
    :func:`paperchat.answer.labels.label_mentions`), so it stays in the question's ask.
    """

    text: str
    name: str | None
    start: int
    end: int
    asks: bool = False


def trim(question: str, start: int, end: int) -> tuple[int, int]:
    """``start``/``end`` without the connecting words and punctuation at either edge."""
    text = question[start:end]
    end = start + len(_TRAILING.sub("", text))
    while start < end and question[start] in " ,:(":
        start += 1
    return start, end


def listed_items(question: str, names: list, pointers: list) -> dict[int, int]:
    """The items of a list before the ask, in a question about several papers (:data:`_LIST_FRAME`).

    "OT-based conformal prediction, the rectified scores method and Kandinsky CP: what does each ...":
    a one-word item with a capital is added to ``names`` ("Unisolver, PDE-Transformer and Zebra all
    ..."), any other item to ``pointers`` (a description). Returns where each described item ends, by
    where it starts. A list whose items hold a verb of the question, or run longer than
    :data:`MAX_ITEM_WORDS` words, is a clause, not papers.
    """
    item_end: dict[int, int] = {}
    if not SEVERAL.search(question):
        return item_end
    for frame in _LIST_FRAME.finditer(question):
        at = frame.start("items")
        items = _ITEM_BREAK.split(frame.group("items"))
        if any(_CLAUSAL.search(item) or len(item.split()) > MAX_ITEM_WORDS for item in items):
            continue
        for item in items:
            at = question.find(item, at)
            if not ONE_WORD.fullmatch(item):
                if all(not (s <= at < e) for s, e in pointers):
                    pointers.append((at, at))
                    item_end[at] = at + len(item)
            elif all(e <= at or at + len(item) <= s for _, s, e in names):
                names.append((item, at, at + len(item)))
            at += len(item)
    names.sort(key=lambda n: n[1])
    return item_end


def items_after_colon(question: str, pointers: list) -> dict[int, int]:
    """The described papers a header's colon lists ("Machine unlearning, three angles: a definition against
    ..., a method that makes LLMs forget whole tools, and a phase diagram of ..."), added to ``pointers``.

    The sentence after the colon must split, at a comma, semicolon or "and" before an article, into
    two or more items that each start with an article and hold at least
    :data:`MIN_DESCRIPTION_TERMS` + 1 content terms (a shorter piece means the split cut a
    description: no list). Returns where each item ends, by where it starts.
    """
    item_end: dict[int, int] = {}
    if not SEVERAL.search(question):
        return item_end
    for colon in re.finditer(r":\s+", question):
        end = _sentence_end(question, colon.end(), clause=False)
        cuts = list(_ITEM_CUT.finditer(question, colon.end(), end))
        starts = [colon.end()] + [m.end() for m in cuts]
        ends = [m.start() for m in cuts] + [end]
        items = [(a, trim(question, a, b)[1]) for a, b in zip(starts, ends)]
        if len(items) < 2 or not all(
            re.match(r"(?:the|a|an)\s", question[a:b], re.I)
            and len(terms(question[a:b].replace("-", " "))) > MIN_DESCRIPTION_TERMS
            for a, b in items
        ):
            continue
        for a, b in items:
            if not any(s == a or s <= a < e for s, e in pointers):
                pointers.append((a, a))
            item_end[a] = b
    pointers.sort()
    return item_end


def _sentence_end(question: str, at: int, clause: bool = True) -> int:
    """Where the sentence holding position ``at`` ends (with ``clause``: or its clause, at a semicolon)."""
    stop = (_CLAUSE_END if clause else _SENTENCE_END).search(question, at)
    return stop.start() if stop else len(question)


def counted_off(question: str, found: list[Mention]) -> list[Mention]:
    """``found`` as a question that counts its papers off by ordinals reads ("Compare three answers to X.
    The first observes ... . The second is an algorithm for ... and the graph is accessed ... . The third
    is QLASS.").

    With two or more mentions led by an ordinal (:data:`_ORDINAL`), each such mention runs to the end
    of its sentence; another description inside it is part of it, a name inside it names it, and a
    description outside every counted sentence ("the lack of step-level labels" of the opening) is the
    topic, not a paper. Fewer ordinals: ``found`` unchanged.
    """
    starts = {m.start() for m in _ORDINAL.finditer(question)}
    counted = [m for m in found if m.start in starts and m.name is None]
    if len(starts) < 2 or len(counted) < 2:
        return found
    spans = [(m.start, _sentence_end(question, m.start)) for m in counted]
    out = []
    for m in found:
        span = next(((s, e) for s, e in spans if s <= m.start < e), None)
        if span is None:
            if m.name is not None:
                out.append(m)  # a paper named outside the counted sentences
        elif m.start == span[0]:
            out.append(Mention(question[span[0] : span[1]], m.name, *span))
        elif m.name is not None:  # a name inside a counted sentence names its paper
            lead = next((i for i, o in enumerate(out) if o.start == span[0]), None)
            if lead is None or out[lead].name is not None:
                out.append(m)
            else:
                out[lead] = dataclasses.replace(out[lead], name=m.name)
    return out


def without_header(question: str, found: list[Mention]) -> list[Mention]:
    """``found`` without the descriptions of a header that introduces a list of papers ("Synthetic tabular
    data, three flavours: a generator ..., a hybrid ..., and a fix ..."; "Contrast three ways of solving
    inverse problems with a pretrained diffusion prior: the extension ..., the sampler ... and ...").

    A colon after which two or more mentions follow in its sentence makes the descriptions between
    the sentence's start and the colon the topic (names there stay papers).
    """
    for colon in re.finditer(r":\s", question):
        end = _sentence_end(question, colon.end(), clause=False)
        if sum(colon.start() < m.start < end for m in found) < 2:
            continue
        opening = max(
            (b.end() for b in _SENTENCE_BREAK.finditer(question, 0, colon.start())), default=0
        )
        found = [
            m
            for m in found
            if m.name is not None or not opening <= m.start < m.end <= colon.start()
        ]
    return found
