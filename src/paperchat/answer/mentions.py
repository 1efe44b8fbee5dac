"""The papers a comparison question is about, as the asker mentions them: by name or by description.

"How do FlashTP and the 'price of freedom' one that compares tensor products differ?" mentions two
papers; "three conformal papers: one where ..., one dealing with ..., and one doing ..." mentions
three without naming any. :func:`split_mentions` cuts a comparison question into its
:class:`Mention` s, in the question's order, with a few general rules:

* a **name** is a coined name or a quoted phrase
  (:func:`paperchat.answer.intent.comparison_subjects`); its mention is the name with the
  parenthesis or appositive that follows it ("ALKN (the continual unlearning method ...)",
  "FlashTP, the optimized tensor-product library");
* a **description** starts where the asker points at one paper: "one where / that / on ...",
  "the X one that ...", "the paper (work, study, method) on / that ...", an ordinal that counts the
  papers off ("One pre-trains ... . A second conditions ... . The third is ..."); it runs to the next
  mention, or to the end of its sentence or clause (a semicolon, "while", "differ", "versus");
* the slots of a "How does A differ from / compare with B ..." frame, or of the imperative "Compare A
  with / to / and B", are mentions: one word with a capital is a name ("Unifews"), a slot led by an
  article a description that ends with the slot, with the words with capitals inside it ("... forward
  and reverse KL ...") unless quoted;
* the items of a list before the ask ("A, the B method and C: what does each ...?", "For A, B and C,
  give ...", "A, B and C all ...") are mentions, in a question about several papers;
* a name inside a longer one ("SAE" in "Matryoshka SAEs") is no paper of its own, nor is one that a
  description's own word leads ("the paper that keeps exploration alive in Soft Actor-Critic");
* a description that holds a name is that name's mention (the name decides the paper), but for a
  frame's described slot (above);
* a bare "one ..., the other ..." after two names restates them and is not a mention of its own;
* papers counted off by ordinals ("The first ... . The second ... . The third is QLASS.") are one
  mention a sentence, and a description before them is their topic (:func:`_counted_off`);
* a header before a colon that lists the papers ("Synthetic tabular data, three flavours: a generator
  ..., a hybrid ..., and a fix ...") is their topic, and the list's items are the mentions
  (:func:`_items_after_colon`, :func:`_without_header`);
* what opens a "vs" question is a name in any case ("baxbench vs the insec attack").

A description is searched with the question's :func:`topic` (what its papers share).

:func:`ask_part` is what is left: what the question asks of each paper ("How do their approaches
differ, and what speedups does each report?"), which the answerer scores sentences against, so the
quoted sentences answer the question instead of restating the description.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from paperchat.answer import intent as it
from paperchat.answer.frames import described_slots, frames
from paperchat.core.terms import terms

#: Words that tie a relative clause or a topic to a pointer at one paper ("one where", "the paper on").
_TIE = (
    r"(?:that|which|where|who|whose|on|about|for|with|from|in|using|doing|dealing|showing|"
    r"proposing|introducing|studying|tackling|addressing)"
)
#: Where the asker points at one paper: "one where ...", "the hierarchical RL one that ...", "the
#: paper on ...". Plural "papers" is a topic, not a mention ("two papers on X").
_POINTER = re.compile(
    rf"\b(?:(?:the|a|an)\s+(?:(?!-\s)[\w'’‘-]+\s+){{0,4}}?)?(?:one|paper|work|study)\s+(?=(?:{_TIE}|(?!thing\b)[a-z]{{3,}}ing)\b)"
    r"|(?:(?<=[:;,]\s)|(?<=\band\s)|(?<=^)|(?<=[.?!]\s))one\s+(?!of\b)(?=[a-z])"
    r"|(?:(?<=[:;,]\s)|(?<=\band\s)|(?<=[.?!]\s))(?:the other|another)(?:\s+(?:one|paper|work))?\s+(?=[a-z])"
    # an ordinal that counts the papers off: "One pre-trains ... . A second conditions ... . The third is ..."
    r"|(?:(?<=[:;,]\s)|(?<=\band\s)|(?<=^)|(?<=[.?!]\s))(?:the|a)\s+(?:first|second|third|fourth|last|final)"
    r"(?:\s+(?:one|paper|work|method|approach))?\s+(?=[a-z])"
    # an item of a list of described papers, led by any noun: "X and that agent that ...",
    # ": an attack that ..., a defense that ..., and an alignment method that ..."
    rf"|(?:(?<=[:;,]\s)|(?<=\band\s)|(?<=\bvs\s)|(?<=\bversus\s)|(?<=^)|(?<=[.?!]\s))"
    rf"(?:the|a|an|that)\s+(?:(?!-\s)[\w'’‘-]+\s+){{0,3}}?(?={_TIE}\b)"
    # what follows "vs" when it is no name: "RelGNN vs classic GNNs for graph-level tasks"
    r"|(?:(?<=\bvs\s)|(?<=\bvs\.\s)|(?<=\bversus\s))(?=[a-z])",
    re.I,
)
#: A question about several papers: "two papers", "does each", "vs", "how do they differ".
#: A lone description counts as a mention only in such a question (else it is the one paper asked about).
_SEVERAL = re.compile(
    r"\b(?:two|three|four|both|these)\s+(?:[\w-]+\s+){0,4}?(?:papers|works|studies|methods)\b"
    r"|\b(?:former|latter|vs\.?|versus|contrast)\b|\bdiffers? from\b|\bdifferences? between\b"
    r"|(?:^|[.?!:]\s+)(?:compare|contrast)\b"  # "Compare CROW and the paper on ..."
    r"|\bhow (?:[\w'-]+\s+){0,6}?differ\b|\beach (?:one|paper|work|method|of (?:them|the|these))\b"
    r"|\b(?:does|do|did) each\b|\bwhich (?:of (?:them|the two|the three)|one)\b|\bin each\b|\bthe other\b|\beither (?:one|of)\b",
    re.I,
)
#: A bare pointer ("one ...", "the other ...") that restates papers the question has already named.
_RESTATED = re.compile(r"(?:one|the other|another)\s+(?!paper|work|study)", re.I)
#: Where a description ends when no other mention follows: the end of its sentence or clause.
_END = re.compile(
    r"[.?!:](?:\s|$)|;|\s[-—]\s|\b(?:while|whereas|differ(?:s|ed|ence|ences)?|compared?|versus|vs\.?|"
    r"(?:how|what|which|why|where)\s+(?:do|does|did|is|are|was|were|can|could|would|should)|how (?:much|many)|"
    r"do they|does each|do both)\b",  # "decides what to skip" goes on; "what does each ..." asks
    re.I,
)
#: Words a mention's text may end with that belong to the sentence around it.
_TRAILING = re.compile(r"(?:[\s,:]|\b(?:and|or|with|to|from|vs\.?|versus|but)\b)+$", re.I)
#: "ALKN (the ...)" and "FlashTP, the optimized ... library": what a name's mention adds to it.
_APPOSITIVE = re.compile(r"\s*(?:\([^)]{3,200}\)|,\s+(?:the|a|an)\s[^,.;:?()]{3,120})")
#: A paper's title given in title case after a connective or at the question's start: three capitalised words or more, with the
#: small words titles keep in lower case between them ("Backdoor Attacks in Token Selection of Attention").
_TITLE = re.compile(
    r"(?:(?<=\bwith\s)|(?<=\band\s)|(?<=\bvs\s)|(?<=\bvs\.\s)|(?<=\bversus\s)|(?<=\bto\s)|(?<=[,:]\s)"
    r"|^(?!(?:Compare|Contrast|How|What|Which|Why|Where|When|Who|Do|Does|Did|Is|Are|Can|Tell|Give|List|Name|"
    r"Explain|Summari[sz]e|Describe|In|For|On|The|A|An)\b))"
    r"[A-Z][\w'’-]*(?:\s+(?:(?:of|in|for|the|a|an|on|to|via|from|by|with)\s+)?[A-Z][\w'’-]*){2,}"
)
#: The next item of a list of names: a capitalised phrase of up to four words ("and Pareto Merging").
_LISTED = re.compile(
    r"(?:,\s+(?:and\s+)?|\s+and\s+)([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3})(?=[\s,.;:?!]|$)"
)
#: What lists a paper right after a name: "X and the ...", "X, Y, and the ...", "X vs the ...".
_AFTER_NAME = re.compile(
    r"(?:,\s+and|,|\s+and|\s+vs\.?|\s+versus)\s+(?=(?:the|a|an)\s+[\w-])", re.I
)


#: A chain of one-word items joined by "vs" that opens the question or a clause ("speedup vs FA2" inside
#: a clause compares figures, not papers), ended by punctuation or a preposition or question word.
_VS_CHAIN = re.compile(
    r"(?:(?<=^)|(?<=[(:;,.?!]\s)|(?<=\bcompare\s))[A-Za-z][\w.+-]{2,}(?:\s+(?:vs\.?|versus)\s+[A-Za-z][\w.+-]{2,})+"
    r"(?=\s*(?:[-—:,;?.]|$)|\s+(?:for|on|in|when|what|how|which|at|with)\b)",
    re.I,
)
#: The paper before "vs" that opens the question or a clause: one word, or two or three capitalised ones.
_VS_HEAD = re.compile(
    r"(?:(?<=^)|(?<=[(:;,.?!]\s))(?:[A-Za-z][\w.+-]{2,}|[A-Z][\w+-]*(?:\s+[A-Z][\w+-]*){1,2})"
    r"(?=\s+(?:vs\.?|versus)\s)"
)
#: A name right after a word of a description: not after a joint ("and", "vs", "from", "with", ...), an
#: article, punctuation or a parenthesis.
_INSIDE = re.compile(
    r"(?<![\w-])(?!(?:and|or|vs|versus|from|with|than|against|to|like|unlike|between|as|is|are|the|a|an"
    r"|this|that)\b)[A-Za-z][\w-]*\s+$",
    re.I,
)
#: Quotes that open a quoted name ("the 'price of freedom' one").
_OPENING_QUOTES = "'\"‘“"
#: What ends a description before a name: a clause break.
_BREAK = re.compile(r"[,;:?!.(]")
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
#: One word with a capital in a frame's slot or a list ("Unifews", "am-ELO"): a name, though no coined one.
_ONE_WORD = re.compile(r"(?=[\w.+-]*[A-Z])\w[\w.+-]{2,}")
#: A description needs this many content terms to be searched (fewer: "the one on it"); the parts of a
#: compound count each ("the network-sparsity paper").
MIN_DESCRIPTION_TERMS = 2
#: An ordinal that opens a sentence, clause or list item and counts a paper off ("The first ...", "A second
#: ...", "One ..."): :func:`_counted_off`.
_ORDINAL = re.compile(
    r"(?:(?<=^)|(?<=[.?!;:]\s))(?:(?:the|a)\s+(?:first|second|third|fourth|fifth|last|final)|one)\b",
    re.I,
)
_CLAUSE_END = re.compile(r"[.?!;](?:\s|$)")
_SENTENCE_END = re.compile(r"[.?!](?:\s|$)")
_SENTENCE_BREAK = re.compile(r"[.?!]\s")
#: Where a list of described papers after a colon goes on to its next item: a comma, a semicolon or "and"
#: before an article (:func:`_items_after_colon`).
_ITEM_CUT = re.compile(r"(?:[,;]\s+(?:and\s+)?|\s+and\s+)(?=(?:the|a|an)\s)", re.I)
#: Mentions kept per question (the first ones): a comparison of more papers is a list question.
MAX_MENTIONS = 5


@dataclass(frozen=True)
class Mention:
    """One paper a comparison is about, as the question mentions it.

    ``text`` is the mention as written (the pointer's words and the description, or the name and
    what it adds); ``name`` the coined name or quoted phrase when the question names the paper
    (``None`` for a description); ``start``/``end`` its character span in the question.
    """

    text: str
    name: str | None
    start: int
    end: int


def _trim(question: str, start: int, end: int) -> tuple[int, int]:
    """``start``/``end`` without the connecting words and punctuation at either edge."""
    text = question[start:end]
    end = start + len(_TRAILING.sub("", text))
    while start < end and question[start] in " ,:(":
        start += 1
    return start, end


def _name_spans(question: str) -> list[tuple[str, int, int]]:
    """Each name of the comparison (first occurrence), with its span plus the apposition after it."""
    out = []
    for name in it.subject_names(question):
        # a quoted name where it is quoted; else where it stands as a word ("SAEs", not in "HypotheSAEs")
        quoted = re.search(rf"['\"‘“]{re.escape(name)}['\"’”]", question)
        word = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", question)
        at = quoted.start() + 1 if quoted else word.start() if word else question.find(name)
        if at < 0:
            continue
        start, end = at, at + len(name)
        if question[start - 1 : start] in "'\"‘“" and question[end : end + 1] in "'\"’”":
            start, end = start - 1, end + 1  # the quotes around a quoted name
        tail = _APPOSITIVE.match(question, end)
        out.append((name, start, tail.end() if tail else end))
    # "Compare CROW with Backdoor Attacks in Token Selection of ...": a title written out
    for title in _TITLE.finditer(question):
        if all(not (s <= title.start() < e) for _, s, e in out):
            out.append((title.group(), title.start(), title.end()))
    # "HarmoniCa, SADA and Morse": a capitalised item listed after a name is one too
    # (after one name, an item that a comma follows: "ScMoE, Soup-of-Experts, and ...")
    for item in _LISTED.finditer(question):
        listed = {n for n, _, _ in out}
        if (
            any(e == item.start() for _, _, e in out)
            and item.group(1) not in listed
            and (len(out) >= 2 or question[item.end(1) : item.end(1) + 1] == ",")
        ):  # the item replaces a name it starts with ("Tensor-Parallel" of "Tensor-Parallel Decoding")
            out = [n for n in out if not item.start(1) <= n[1] < item.end(1)]
            out.append((item.group(1), item.start(1), item.end(1)))
    # "paperbench vs re-bench vs itbench - ...": one-word items of a "vs" chain, written in any case
    for chain in _VS_CHAIN.finditer(question):
        for item in re.finditer(r"[A-Za-z][\w.+-]{2,}", chain.group()):
            start, end = chain.start() + item.start(), chain.start() + item.end()
            if item.group().lower() not in ("vs", "vs.", "versus") and all(
                e <= start or end <= s for _, s, e in out
            ):
                out.append((item.group(), start, end))
    # "baxbench vs the insec attack", "Star Attention vs XAttention": what opens the question or a clause
    # before "vs" is a name when it is one word, or two or three capitalised ones
    for head in _VS_HEAD.finditer(question):
        if all(e <= head.start() or head.end() <= s for _, s, e in out):
            out.append((head.group(), head.start(), head.end()))
    # "How does Unifews differ from REST ...": one capitalised word in a slot of the frame is a name
    for frame in frames(question):
        for slot in ("a", "b"):
            start, end = frame.span(slot)
            if _ONE_WORD.fullmatch(frame.group(slot)) and all(
                e <= start or end <= s for _, s, e in out
            ):
                out.append((frame.group(slot), start, end))
    # "HypotheSAEs, Matryoshka SAEs and FPO ... the SAE": a name inside a longer one is no paper of its own
    out = [n for n in out if not any(n[0] != o[0] and n[0] in o[0] for o in out)]
    return sorted(out, key=lambda n: n[1])


def _listed_items(question: str, names: list, pointers: list) -> dict[int, int]:
    """The items of a list before the ask, in a question about several papers (:data:`_LIST_FRAME`).

    "OT-based conformal prediction, the rectified scores method and Kandinsky CP: what does each ...":
    a one-word item with a capital is added to ``names`` ("Unisolver, PDE-Transformer and Zebra all
    ..."), any other item to ``pointers`` (a description). Returns where each described item ends, by
    where it starts. A list whose items hold a verb of the question, or run longer than
    :data:`MAX_ITEM_WORDS` words, is a clause, not papers.
    """
    item_end: dict[int, int] = {}
    if not _SEVERAL.search(question):
        return item_end
    for frame in _LIST_FRAME.finditer(question):
        at = frame.start("items")
        items = _ITEM_BREAK.split(frame.group("items"))
        if any(_CLAUSAL.search(item) or len(item.split()) > MAX_ITEM_WORDS for item in items):
            continue
        for item in items:
            at = question.find(item, at)
            if not _ONE_WORD.fullmatch(item):
                if all(not (s <= at < e) for s, e in pointers):
                    pointers.append((at, at))
                    item_end[at] = at + len(item)
            elif all(e <= at or at + len(item) <= s for _, s, e in names):
                names.append((item, at, at + len(item)))
            at += len(item)
    names.sort(key=lambda n: n[1])
    return item_end


def _items_after_colon(question: str, pointers: list) -> dict[int, int]:
    """The described papers a header's colon lists ("Machine unlearning, three angles: a definition against
    ..., a method that makes LLMs forget whole tools, and a phase diagram of ..."), added to ``pointers``.

    The sentence after the colon must split, at a comma, semicolon or "and" before an article, into
    two or more items that each start with an article and hold at least
    :data:`MIN_DESCRIPTION_TERMS` + 1 content terms (a shorter piece means the split cut a
    description: no list). Returns where each item ends, by where it starts.
    """
    item_end: dict[int, int] = {}
    if not _SEVERAL.search(question):
        return item_end
    for colon in re.finditer(r":\s+", question):
        end = _sentence_end(question, colon.end(), clause=False)
        cuts = [colon.end()] + [m.end() for m in _ITEM_CUT.finditer(question, colon.end(), end)]
        items = [
            (a, _trim(question, a, b)[1])
            for a, b in zip(
                cuts, [m.start() for m in _ITEM_CUT.finditer(question, colon.end(), end)] + [end]
            )
        ]
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


def _quoted(question: str, name: tuple[str, int, int]) -> bool:
    """Whether a name (``(name, start, end)`` of :func:`_name_spans`) is quoted: its span starts at the quote."""
    return question[name[1] : name[1] + 1] in _OPENING_QUOTES


def split_mentions(question: str) -> list[Mention]:
    """The papers a comparison question mentions, in order (see the module docstring).

    Empty for a question that is not a comparison (:data:`paperchat.answer.intent.COMPARE`) or
    that mentions fewer than two papers; a single description counts only in a question that says
    it is about several papers (:data:`_SEVERAL`). At most :data:`MAX_MENTIONS`.
    """
    if not it.COMPARE.search(question):
        return []
    names = _name_spans(question)
    pointers = [(m.start(), m.end()) for m in _POINTER.finditer(question)]
    # "the paper that keeps exploration alive in Soft Actor-Critic": a name a description's own word
    # leads (not a joint, an article or punctuation) is part of the description, not a paper of its own
    names = [
        n
        for n in names
        if _quoted(question, n)
        or not any(p < n[1] and not _BREAK.search(question, p, n[1]) for p, _ in pointers)
        or not _INSIDE.search(question, 0, n[1])
    ]
    # listed items and described slots, each with where it ends (a listed item's end first)
    item_end = _listed_items(question, names, pointers)
    item_end.update(_items_after_colon(question, pointers))
    described = described_slots(question, pointers, MIN_DESCRIPTION_TERMS)
    # "the distillation work that blends forward and reverse KL ...": a word with capitals inside a
    # described slot belongs to the description, unless quoted ("the 'price of freedom' one")
    names = [
        n
        for n in names
        if _quoted(question, n) or not any(s < n[1] < e for s, e in described.items())
    ]
    item_end = {**described, **item_end}
    # where a list that a name starts goes on ("ScMoE, Soup-of-Experts, and the on-device one ..."): a
    # pointer there is a paper of its own, even in a question that does not say "each"
    after_names = {m.end() for _, _, e in names if (m := _AFTER_NAME.match(question, e))}
    # "Agent Workflow Memory and the screenshot-only GUI agent": a noun phrase listed right after a name
    items = {at for at in after_names if not any(s <= at < pe for s, pe in pointers)}
    pointers = sorted(set(pointers + [(at, at) for at in items]))
    listed = any(p in after_names for p, _ in pointers)
    if len(pointers) < 2 and not _SEVERAL.search(question) and not listed:
        pointers = []  # "the paper that ...: how does it compare with X?" is about one paper
    starts = sorted({s for _, s, _ in names} | {p for p, _ in pointers})
    found: list[Mention] = []
    for p, pointer_end in pointers:
        if any(s <= p < e for _, s, e in names):
            continue  # "FlashTP, the optimized library that ...": the name's own apposition
        # an item listed after a name runs to the end of its clause, names in it included ("the GUI agent")
        following = [  # a listed item runs to its end, a name inside it included
            s
            for s in starts
            if s > p and (p not in items or s in items) and s >= item_end.get(p, 0)
        ]
        stop = _END.search(question, question.find(" ", pointer_end) % (len(question) + 1))
        end = min(
            following[:1] + ([stop.start()] if stop else []) + [item_end.get(p, len(question))]
        )
        start, end = _trim(question, p, end)
        inside = [n for n in names if start <= n[1] < end]
        if inside:  # "the 'price of freedom' one that compares ...": named, and described
            name = inside[0]
            names.remove(name)
            found.append(Mention(question[start:end], name[0], start, end))
        elif len(terms(question[start:end].replace("-", " "))) >= MIN_DESCRIPTION_TERMS:
            found.append(Mention(question[start:end], None, start, end))
    for name, s, e in names:
        s, e = _trim(question, s, e)
        found.append(Mention(question[s:e], name, s, e))
    # "X vs Y: one quantizes ..., the other ...": the bare pointers restate the two names
    if sum(m.name is not None for m in found) >= 2:
        found = [m for m in found if m.name or not _RESTATED.match(m.text)]
    found.sort(key=lambda m: m.start)
    found = _without_header(question, _counted_off(question, found))
    return found[:MAX_MENTIONS] if len(found) >= 2 else []


def _sentence_end(question: str, at: int, clause: bool = True) -> int:
    """Where the sentence holding position ``at`` ends (with ``clause``: or its clause, at a semicolon)."""
    stop = (_CLAUSE_END if clause else _SENTENCE_END).search(question, at)
    return stop.start() if stop else len(question)


def _counted_off(question: str, found: list[Mention]) -> list[Mention]:
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


def _without_header(question: str, found: list[Mention]) -> list[Mention]:
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


def about_several(question: str, mentions: list[Mention]) -> bool:
    """Whether ``question`` is about each of several papers: it describes one (a description is a
    mention only then), or says so (:data:`_SEVERAL`: "two papers", "each one", "differ from").
    "X-hacking ... compared with SHAP" names things, not papers to compare."""
    return any(m.name is None for m in mentions) or _SEVERAL.search(question) is not None


def topic(question: str, mentions: list[Mention]) -> str:
    """What the question says all its papers share: its sentence before the first mention ("three
    conformal prediction papers I mixed up:"), or "" when a mention opens the sentence.

    Searched with each description, it keeps "the one that lets a reward model decide" among the
    speculative-decoding papers the question is about.
    """
    head = question[: mentions[0].start] if mentions else ""
    return re.split(r"[.?!]\s", head)[-1].strip()


def ask_part(question: str, mentions: list[Mention]) -> str:
    """``question`` without the descriptions of its mentions: what it asks of each paper.

    A mention's name stays (a sentence that names its paper answers for it). The whole question
    when too little is left to read (fewer than two content terms).
    """
    out, at = [], 0
    for m in mentions:
        out.append(question[at : m.start])
        if m.name:
            out.append(m.name)
        at = m.end
    out.append(question[at:])
    rest = " ".join("".join(out).split())
    rest = re.sub(r"\s*(?:,\s*)+(?:and\s*)?(?=[.?!;:,]|$)|\s+(?=[.?!;:,])", "", rest)
    return rest if len(terms(rest)) >= MIN_DESCRIPTION_TERMS else question
