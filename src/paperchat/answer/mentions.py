"""The papers a comparison question is about, as the asker mentions them: by name or by description.

"How do FlashTP and the 'price of freedom' one that compares tensor products differ?" mentions two
papers; "three conformal papers: one where ..., one dealing with ..., and one doing ..." mentions
three without naming any. :func:`split_mentions` cuts a comparison question into its
:class:`Mention` s, in the question's order, with a few general rules:

* a **name** is a coined name or a quoted phrase
  (:func:`paperchat.answer.intent.comparison_subjects`; where each stands:
  :func:`paperchat.answer.mention_names.name_spans`); its mention is the name with the
  parenthesis or appositive that follows it ("ALKN (the continual unlearning method ...)",
  "FlashTP, the optimized tensor-product library");
* a **description** starts where the asker points at one paper: "one where / that / on ...",
  "the X one that ...", "the paper (work, study, method) on / that ...", an ordinal that counts the
  papers off ("One pre-trains ... . A second conditions ... . The third is ..."); it runs to the next
  mention, or to the end of its sentence or clause (a semicolon, "while", "differ", "versus");
* a paper called by the kind of thing it contributes, with an article and a clause that says which
  ("the transductive procedure that controls ...", "the finite-sample study of the KMS distance"), is a
  description, but not what a copula, "in" or a baseline's word leads ("The second is an algorithm for
  ...", "In the analysis of why ...", "the state-of-the-art X method");
* enumerated items "(i) the ..., (ii) a ..." are the papers, unless the first is an ask ("state (i) how
  many ..., (ii) the gain ...");
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
  mention a sentence, and a description before them is their topic (:func:`~paperchat.answer.mention_lists.counted_off`);
* a header before a colon that lists the papers ("Synthetic tabular data, three flavours: a generator
  ..., a hybrid ..., and a fix ...") is their topic, and the list's items are the mentions
  (:func:`~paperchat.answer.mention_lists.items_after_colon`,
  :func:`~paperchat.answer.mention_lists.without_header`);
* what opens a "vs" question is a name in any case ("baxbench vs the insec attack").

A question that describes its papers only where it asks about them ("What does the first use ..., and
what does the second ...?") has one mention a labelled clause (:func:`paperchat.answer.labels.label_mentions`).

A description is searched with the question's :func:`topic` (what its papers share), and with the clauses
that ask about its paper by label (:func:`paperchat.answer.labels.labelled_clauses`).

:func:`ask_part` is what is left: what the question asks of each paper ("How do their approaches
differ, and what speedups does each report?"), which the answerer scores sentences against, so the
quoted sentences answer the question instead of restating the description.
"""

from __future__ import annotations

import re

from paperchat.answer import intent as it
from paperchat.answer.frames import described_slots
from paperchat.answer.labels import ENUMERATOR, label_mentions
from paperchat.answer.mention_lists import (
    MIN_DESCRIPTION_TERMS,
    SEVERAL,
    Mention,
    counted_off,
    items_after_colon,
    listed_items,
    trim,
    without_header,
)
from paperchat.answer.mention_names import name_spans
from paperchat.core.terms import terms

#: What a paper is called by the kind of thing it contributes ("the conformal procedure that ...").
_KIND = (
    r"(?:approach|method|framework|procedure|scheme|algorithm|analysis|account|pipeline|technique|paradigm|"
    r"submission|system|detector|generator|planner|purifier|defen[cs]e|attack|theory|estimator|benchmark|"
    r"formulation|architecture|solver|strategy|protocol|optimi[sz]er|sampler|agent|study|paper|work|"
    r"contribution|treatment|investigation)"
)
#: Papers enumerated "(i) the ..., (ii) the ...": the first two items are no asks ("(i) how many ...").
_NO_ASK = r"(?!(?:what|which|how|why|where|who|whom|when|whether|is|are|does|do)\b)[A-Za-z]"
_ENUMERATED_PAPERS = re.compile(rf"\((?:i|a)\)\s+{_NO_ASK}.*?\((?:ii|b)\)\s+{_NO_ASK}", re.I | re.S)
#: Two coined names (two capitals or more) joined as a question's subject: "What datasets do SMT and DISCO
#: evaluate on?" asks about two papers though it says no "compare".
_COINED = r"[A-Z][\w-]*[A-Z][\w-]*"
_JOINT_SUBJECT = re.compile(
    rf"\b(?:do|did|does|are|were|have|had|can|could)\s+{_COINED}\s+and\s+{_COINED}\b"
)
#: Where an enumeration's first item opens: "(i)" or "(a)".
_FIRST_ITEM = re.compile(r"\((?:i|a)\)", re.I)
#: Words that make a paper of a kind the asker's baseline, not a paper ("the state-of-the-art X method").
_BASELINE_WORD = (
    r"state-of-the-art|existing|standard|vanilla|plain|naive|conventional|default|prior|previous|original|"
    r"regular|traditional|usual|baseline|classical|classic"
)
#: Words that tie a relative clause or a topic to a pointer at one paper ("one where", "the paper on").
_TIE = (
    r"(?:that|which|where|who|whose|on|about|for|with|from|in|using|doing|dealing|showing|"
    r"proposing|introducing|studying|tackling|addressing|called|named)"
)
#: The paper's own baseline, named after "vs" or "compared with" ("vanilla transformer", "the FSL
#: baselines", "standard pre-training"): no second paper (also :func:`paperchat.answer.subjects.subject_papers`).
OWN_BASELINE = (
    r"(?:the\s+)?(?:[\w-]+\s+)?(?:baselines?|existing|plain|vanilla|standard|naive|conventional|default|prior|"
    r"previous|original|regular|traditional|usual)\b"
)
#: Words that make "the X one" a choice, not a nickname: "the other one", "the cheaper one".
_NOT_NICKNAME = (
    r"(?:other|same|first|second|third|last|latter|former|next|only|right|main|new|better|worse|best|"
    r"cheaper|cheapest|faster|fastest|slower|bigger|smaller|larger|simpler|newer|older|stronger|weaker|"
    r"lighter|easier|harder)\s"
)
#: Where the asker points at one paper: "one where ...", "the hierarchical RL one that ...", "the
#: paper on ...". Plural "papers" is a topic, not a mention ("two papers on X").
_POINTER = re.compile(
    rf"\b(?:(?:the|a|an)\s+(?:(?!(?:and|or|the|a|an|vs|with)\s)(?!-\s)[\w'’‘-]+\s+){{0,4}}?)?(?:one|paper|work|study)\s+"
    rf"(?=(?:{_TIE}|(?!thing\b)[a-z]{{3,}}ing)\b)"
    # a paper labelled by a letter or number: "Paper A makes ...; Paper B erases ..."
    r"|(?:(?<=^)|(?<=[.?!;:,]\s)|(?<=\band\s))(?:paper|study|work)\s+(?-i:[A-D1-4])\b(?=\s+[a-z])"
    # a paper named by the kind of thing it contributes, with an article and a clause that says which:
    # "the transductive procedure that controls ...", "the finite-sample study of the KMS distance"
    # (not what a copula says of a paper already pointed at: "The second is an algorithm for ...")
    # nor what "in" leads ("In the analysis of why ..., which ...": the one paper asked about), nor a baseline
    # ("outperforms the state-of-the-art CD-FSS method in ...")
    r"|"
    + "".join(rf"(?<!\b{w}\s)" for w in ("is", "are", "was", "were", "be", "as", "in"))
    + rf"\b(?:the|a|an)\s+(?!(?:[\w-]+\s+){{0,2}}?(?:{_BASELINE_WORD})\b)"
    rf"(?:(?!(?:and|or|the|a|an|vs|with)\s)(?!-\s)[\w'’‘-]+\s+){{0,4}}?{_KIND}\s+"
    rf"(?=(?!called|named)(?:{_TIE}|of|whose|in which)\b|(?!thing\b)[a-z]{{3,}}ing\b)"
    # an item of an enumeration: "(i) the one-pass framework ..., (ii) the decentralised scheme ..."
    # (not a reference inside an ask, "which component of (i) extracts ...", nor an enumerated ask)
    r"|(?:(?<=^)|(?<=[:;,—–]\s)|(?<=[—–])|(?<=\band\s)|(?<=\bor\s)|(?<=\brespectively\s))"
    + ENUMERATOR
    + rf"\s+(?={_NO_ASK})"
    r"|(?:(?<=[:;,]\s)|(?<=\band\s)|(?<=^)|(?<=[.?!]\s))one\s+(?!of\b)(?=[a-z])"
    r"|(?:(?<=[:;,]\s)|(?<=\band\s)|(?<=[.?!]\s))(?:the other|another)(?:\s+(?:one|paper|work))?\s+(?=[a-z])"
    # an ordinal that counts the papers off: "One pre-trains ... . A second conditions ... . The third is ..."
    r"|(?:(?<=[:;,]\s)|(?<=\band\s)|(?<=^)|(?<=[.?!]\s))(?:the|a)\s+(?:first|second|third|fourth|last|final)"
    r"(?:\s+(?:one|paper|work|method|approach))?\s+(?=[a-z])"
    # an item of a list of described papers, led by any noun: "X and that agent that ...",
    # ": an attack that ..., a defense that ..., and an alignment method that ..."
    rf"|(?:(?<=[:;,]\s)|(?<=\band\s)|(?<=\bvs\s)|(?<=\bversus\s)|(?<=^)|(?<=[.?!]\s))"
    rf"(?:the|a|an|that)\s+(?:(?!-\s)[\w'’‘-]+\s+){{0,3}}?(?={_TIE}\b)"
    # what follows "vs" when it is no name: "RelGNN vs classic GNNs for graph-level tasks"; not the paper's
    # own baseline ("vs vanilla transformer", "vs plain sequential decoding", "vs the FSL baselines")
    rf"|(?:(?<=\bvs\s)|(?<=\bvs\.\s)|(?<=\bversus\s))(?=[a-z])(?!{OWN_BASELINE})"
    # a nickname where a list or a comparison puts a paper, closed by punctuation, "vs", "and", "or" or the
    # end: "... vs the polytope one —", ": the SAE-features unlearning one vs ..." (not "as opposed to the
    # zero-shot one", a baseline)
    rf"|(?:(?<=\bvs\s)|(?<=\bvs\.\s)|(?<=\bversus\s)|(?<=[:;,]\s)|(?<=\band\s)|(?<=\bor\s)|(?<=^)|(?<=[.?!]\s))"
    rf"(?:the|that|this)\s+(?!{_NOT_NICKNAME})(?:(?!-\s)[\w'’‘+/.-]+\s+){{1,4}}?one"
    r"(?=\s*(?:[-—–,;:?!.)]|$)|\s+(?:vs\.?|versus|and|or|but)\b)",
    re.I,
)
#: A pointer "the X one" that is a nickname (one content word is enough to search it: "the polytope one").
_NICKNAME = re.compile(r"(?:the|that|this)\s+\S.*\bone", re.I)
#: A bare pointer ("one ...", "the other ...") that restates papers the question has already named.
_RESTATED = re.compile(r"(?:one|the other|another)\s+(?!paper|work|study)", re.I)
#: Where a description ends when no other mention follows: the end of its sentence or clause.
_END = re.compile(
    r"[.?!:](?:\s|$)|;|\s[-—]\s|,\s+(?=(?:what|which|how|why|where)\b)|\b(?:while|whereas|differ(?:s|ed|ence|ences)?|compared?|versus|vs\.?|"
    r"(?:how|what|which|why|where)\s+(?:do|does|did|is|are|was|were|can|could|would|should)|how (?:much|many)|"
    r"do they|does each|do both)\b",  # "decides what to skip" goes on; "what does each ..." asks
    re.I,
)
#: What lists a paper right after a name: "X and the ...", "X, Y, and the ...", "X vs the ...".
_AFTER_NAME = re.compile(
    r"(?:,\s+and|,|\s+and|\s+vs\.?|\s+versus)\s+(?=(?:the|a|an)\s+[\w-])", re.I
)


#: A name right after a word of a description: not after a joint ("and", "vs", "from", "with", ...), an
#: article, punctuation or a parenthesis.
_INSIDE = re.compile(
    r"(?<![\w-])(?!(?:and|or|vs|versus|from|with|than|against|to|like|unlike|between|as|is|are|the|a|an"
    r"|this|that)\b)[A-Za-z][\w-]*\s+$",
    re.I,
)
#: A name a description lists with "both ... and" ("the analysis covering both Deep Operator Networks and
#: Fourier Neural Operators"): part of the description, like a name its own word leads (:data:`_INSIDE`).
_BOTH_AND = re.compile(r"\bboth\s+[^,;:?!.]+?\s+and\s+$", re.I)
#: Quotes that open a quoted name ("the 'price of freedom' one").
_OPENING_QUOTES = "'\"‘“"
#: What ends a description before a name: a clause break.
_BREAK = re.compile(r"[,;:?!.(]")
#: Mentions kept per question (the first ones): a comparison of more papers is a list question.
MAX_MENTIONS = 5


def _quoted(question: str, name: tuple[str, int, int]) -> bool:
    """Whether a name (``(name, start, end)`` of :func:`~paperchat.answer.mention_names.name_spans`) is quoted: its span starts at the quote."""
    return question[name[1] : name[1] + 1] in _OPENING_QUOTES


_SENTENCE_BREAK = re.compile(r"[.?!]\s")
#: A relative clause set off after a name, to its closing comma: ", which builds a 'harm-benefit tree' for AI,".
_RELATIVE = re.compile(r",\s+(?:which|who)\b[^,;:?]+,")


#: What joins two names of one description: "DPO and KTO", "DPO/KTO", "DPO, KTO".
_JOINED = re.compile(r"\s*(?:,|/|&|\band\b|\bor\b)\s*", re.I)


def _without_joined(question: str, names: list, before: list) -> list:
    """``names`` without those joined to a name dropped from ``before`` as part of a description:
    "that paper saying DPO and KTO are special cases of one framework" holds both names."""
    gone = [n for n in before if n not in names]
    for n in names:
        if any(_JOINED.fullmatch(question, g[2], n[1]) for g in gone):
            gone.append(n)
    return [n for n in names if n not in gone]


def split_mentions(question: str) -> list[Mention]:
    """The papers a comparison question mentions, in order (see the module docstring).

    Empty for a question that is not a comparison (:data:`paperchat.answer.intent.COMPARE`, or a header's
    colon list of described papers: "from three angles: an attack ..., a defense ..., and ...") or
    that mentions fewer than two papers; a single description counts only in a question that says
    it is about several papers (:data:`SEVERAL`). At most :data:`MAX_MENTIONS`.
    """
    if (
        not it.COMPARE.search(question)
        and not SEVERAL.search(question)
        and not items_after_colon(question, [])
        and not _ENUMERATED_PAPERS.search(question)
        and not _JOINT_SUBJECT.search(question)
    ):  # a header's colon list of described papers, or "two ... papers: A ..., and B ...", compares
        return []
    names = name_spans(question)
    # "SafetyAnalyst, which builds a 'harm-benefit tree' for ...,": a name in another's relative clause is no paper
    clauses = [(m.start(), m.end()) for n in names if (m := _RELATIVE.match(question, n[2]))]
    names = [n for n in names if not any(s <= n[1] < e for s, e in clauses)]
    pointers = [(m.start(), m.end()) for m in _POINTER.finditer(question)]
    enumerated = [(p, e) for p, e in pointers if question[p] == "("]
    # "(i) the one-pass framework ..., (ii) ...": the items are the papers; "state (i) how many ..., (ii)
    # the improvement ...": the items are what is asked
    if len(enumerated) >= 2 and _FIRST_ITEM.match(question, enumerated[0][0]):
        pointers = enumerated
    else:
        pointers = [(p, e) for p, e in pointers if question[p] != "("]
    # "the paper that keeps exploration alive in Soft Actor-Critic": a name a description's own word
    # leads (not a joint, an article or punctuation) is part of the description, not a paper of its own
    all_names = list(names)
    names = [
        n
        for n in names
        if _quoted(question, n)
        or not any(p < n[1] and not _BREAK.search(question, p, n[1]) for p, _ in pointers)
        or not (_INSIDE.search(question, 0, n[1]) or _BOTH_AND.search(question, 0, n[1]))
    ]
    names = _without_joined(question, names, all_names)
    # listed items and described slots, each with where it ends (a listed item's end first)
    item_end = listed_items(question, names, pointers)
    colon_items = items_after_colon(question, pointers)
    item_end.update(colon_items)
    if colon_items:  # "Fine-tuning and safety from three angles: an attack ...": a name in the header is no paper
        first = min(colon_items)
        header = max((m.end() for m in _SENTENCE_BREAK.finditer(question, 0, first)), default=0)
        names = [n for n in names if not header <= n[1] < first]
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
    if len(pointers) < 2 and not SEVERAL.search(question) and not listed:
        pointers = []  # "the paper that ...: how does it compare with X?" is about one paper
    starts = sorted({s for _, s, _ in names} | {p for p, _ in pointers})
    found: list[Mention] = []
    for p, pointer_end in pointers:
        if any(s <= p < e for _, s, e in names):
            continue  # "FlashTP, the optimized library that ...": the name's own apposition
        if any(m.start <= p < m.end for m in found):
            continue  # "the image/video gen paper that ...": a pointer inside a description is part of it
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
        start, end = trim(question, pointer_end if question[p] == "(" else p, end)
        inside = [n for n in names if start <= n[1] < end]
        if inside:  # "the 'price of freedom' one that compares ...": named, and described
            name = inside[0]
            names.remove(name)
            found.append(Mention(question[start:end], name[0], start, end))
        elif len(terms(question[start:end].replace("-", " "))) >= (
            1 if _NICKNAME.fullmatch(question[start:end]) else MIN_DESCRIPTION_TERMS
        ):
            found.append(Mention(question[start:end], None, start, end))
    for name, s, e in names:
        s, e = trim(question, s, e)
        found.append(Mention(question[s:e], name, s, e))
    # "X vs Y: one quantizes ..., the other ...": the bare pointers restate the two names
    if sum(m.name is not None for m in found) >= 2:
        found = [m for m in found if m.name or not _RESTATED.match(m.text)]
    found.sort(key=lambda m: m.start)
    found = without_header(question, counted_off(question, found))
    # "Both papers ... . What does the first use ..., and what does the second ...?"
    if len(found) < 2:
        return label_mentions(question)[:MAX_MENTIONS]
    return found[:MAX_MENTIONS]


def about_several(question: str, mentions: list[Mention]) -> bool:
    """Whether ``question`` is about each of several papers: it describes one (a description is a
    mention only then), or says so (:data:`SEVERAL`: "two papers", "each one", "differ from"; "do SMT and
    DISCO ...": :data:`_JOINT_SUBJECT`).
    "X-hacking ... compared with SHAP" names things, not papers to compare."""
    return (
        any(m.name is None for m in mentions)
        or SEVERAL.search(question) is not None
        or _JOINT_SUBJECT.search(question) is not None
    )


def topic(question: str, mentions: list[Mention]) -> str:
    """What the question says all its papers share: its sentence before the first mention ("three
    conformal prediction papers I mixed up:"), or "" when a mention opens the sentence or the words
    before it hold no content term ("How does").

    Searched with each description, it keeps "the one that lets a reward model decide" among the
    speculative-decoding papers the question is about.
    """
    head = question[: mentions[0].start] if mentions else ""
    sentences = [s.strip() for s in re.split(r"[.?!]\s", head)]
    if len(sentences) > 1 and not sentences[-1]:  # a mention opens its sentence: the one before
        sentences.pop()
    head = sentences[-1]
    return head if terms(head) else ""  # "How does", "There's": nothing shared to search with


def ask_part(question: str, mentions: list[Mention]) -> str:
    """``question`` without the descriptions of its mentions: what it asks of each paper.

    A mention's name stays (a sentence that names its paper answers for it), and so does a mention that
    is itself an ask (``Mention.asks``). The whole question
    when too little is left to read (fewer than two content terms).
    """
    out, at = [], 0
    for m in mentions:
        if m.asks:  # a clause that asks stays ("what does the first use")
            continue
        out.append(question[at : m.start])
        if m.name:
            out.append(m.name)
        at = m.end
    out.append(question[at:])
    rest = " ".join("".join(out).split())
    rest = re.sub(r"\s*(?:,\s*)+(?:and\s*)?(?=[.?!;:,]|$)|\s+(?=[.?!;:,])", "", rest)
    return rest if len(terms(rest)) >= MIN_DESCRIPTION_TERMS else question
