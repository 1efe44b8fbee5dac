"""Offline follow-up resolution for the chat: which earlier paper does a question mean?

A follow-up that names no paper of its own ("Which two techniques does *it*
introduce?", "What dataset does *the second one* use?", "How do *they*
differ?") is resolved against the sources of the previous answer:

* an ordinal ("the second one", "paper 2", "[2]", "the last paper", "the
  latter") picks that source; several ("the first and the third", "the first two", "[1] and [3]")
  pick each;
* a plural reference ("they", "their", "these papers", "both", "the two", "which one") picks all of
  them;
* any other reference ("it", "its", "this paper", "that method", "the
  method", "the authors") picks the first source.

The question is rewritten for retrieval by putting the paper's label (or
title) in place of the reference, e.g. "Which two techniques does LightGTS
introduce?", and :class:`Resolution` says whether retrieval is restricted to
the referred papers (``restrict``), or searches everything with the referred
papers boosted to the top (``boost``, when the question also names a paper of
its own: "How does it compare to ConfPO?").

A self-contained question is left alone (``standalone``): one with no
reference, or one that looks for papers itself ("Which paper proposes X and
what does it achieve?"). :func:`resolve` uses no model and no network; the
LLM mode may rewrite follow-ups with ``prompts/condense.txt`` instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from paperchat.answer.named_papers import short_label
from paperchat.chat.ordinals import (
    COUNTS,
    FIRST_N,
    NOUNS,
    NUMBERED,
    ORDINAL,
    ORDINAL_LIST,
    ORDINAL_WORD,
    SINGULAR_NOUNS,
    apart,
    ordinal_value,
    places,
)
from paperchat.core.contract import Source
from paperchat.core.resolution import (  # the resolution type, re-exported for the chat
    BOOST,
    RESTRICT,
    STANDALONE,  # noqa: F401
    Resolution,
)
from paperchat.core.terms import name_tokens, terms

# plural references
_PLURAL = re.compile(
    r"\b(?:(?:these|those|the\s+two|the\s+three|both(?:\s+of\s+the)?)\s+"
    + NOUNS
    + r"|both\s+of\s+them|each\s+of\s+them|all\s+of\s+them"
    # "which one is faster?", "how do the two differ?", "do both use a draft model?" (not "both X and Y"),
    # "which of these is the most recent?"
    r"|(?:(?<=\bof )|(?<=\bamong ))(?:these|those)(?!\s+" + NOUNS + r")"
    r"|which\s+ones?|which\s+of\s+(?:the\s+)?(?:two|three)|the\s+(?:two|three)(?=\s+(?:differ|compare|do|are|have|use))"
    r"|both(?!\s+(?:\w+\s+){0,3}?and\b)"
    r"|they|them|their|theirs|themselves)\b",
    re.I,
)
# demonstrative or definite singular references: "this paper", "that method", "the method", "the authors"
#: (and a result the answer stated: "what proof technique gives this rate?", which a theorist's chat had
#: searched for over all papers, finding one labelled RATE)
_DEMONSTRATIVE = re.compile(
    r"\b(?:this|that|the\s+same)\s+(?:"
    + SINGULAR_NOUNS
    + r"|rate|bound|result|speed-?up|guarantee|regret|complexity|finding|claim)\b",
    re.I,
)
_DEFINITE = re.compile(
    r"\bthe\s+(?:proposed\s+|new\s+|above\s+|mentioned\s+)?" + SINGULAR_NOUNS + r"\b"
    r"(?!\s+(?:that|which|who|whose|for|of|to|in|on|used|proposed|called|named|where|with|by|from|behind|introduced|presented|described|based|able|trained)\b)",
    re.I,
)
_AUTHORS = re.compile(r"\bthe\s+authors\b", re.I)
_IT = re.compile(r"\b(?:it|its|itself)\b", re.I)
_ADJ = r"(?:possible|true|known|necessary|important|clear|likely|unlikely|hard|difficult|easy|common|feasible|useful|better|worth)"
# impersonal "it": "it is possible to ...", "Is it true that ..."
_IMPERSONAL = re.compile(
    r"\bit\s+(?:is|was|seems)\s+" + _ADJ + r"\b|\b(?:is|was|isn't)\s+it\s+" + _ADJ + r"\b", re.I
)
# the question looks for papers itself: "Which paper ...", "Is there a method that ..."
_FINDS = re.compile(
    r"\b(?:which|what|any|find|list|name)\s+(?!of\s+(?:these|those|them)\b)(?:\w+\s+){0,2}?"
    + NOUNS
    + r"\b(?!\s+(?:do|does|did|is|are|was|were|can|could|would|should|has|have|had)\s+(?:it|they|the|this|that|these|those)\b)"
    # "Is there a method that ...?", not "is there code for it?" (a practitioner's chat: a code-generation search)
    r"|\b(?:is|are)\s+there\s+(?:(?:any|an?|other|another|some)\s+)*(?:[\w-]+\s+){0,2}?"
    + NOUNS
    + r"\b",
    re.I,
)


#: A paper described by what it is about ("the chain-of-thought paper", a reading-group session's "going back
#: to ..."); not an ordinal, "the same" or "the above" one.
_DESCRIBED = re.compile(
    r"\bthe\s+(?!(?:same|above|previous|last|first|second|third|other|former|latter|new|proposed)\b)"
    r"((?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:paper|work|study|article)\b",
    re.I,
)


class UnresolvedReference(ValueError):
    """A reference that cannot be resolved (e.g. "the fifth one" after an answer with two sources)."""


def query_label(source: Source) -> str | None:
    """The name to put in a rewritten query: the short label ("LightGTS"), else the title; ``None`` for neither."""
    return short_label(source) or source.title or None


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return names[0] if names else ""
    return ", ".join(names[:-1]) + " and " + names[-1]


def _possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") and not name[-2:-1].isupper() else "'s")


def find_reference(question: str) -> tuple[str, str, tuple[int, ...]] | None:
    """The first back-reference in ``question``: ``(kind, phrase, ordinals)`` or ``None``.

    ``kind`` is ``ordinal`` (``ordinals`` are 1-based, ``-1`` for "the last"; several for "the first
    and the third", "the first two", "[1] and [3]"), ``plural``, ``demonstrative``, ``it``,
    ``authors`` or ``definite`` (a weak "the method"); ``ordinals`` is empty but for ``ordinal``.
    """
    m = ORDINAL_LIST.search(question)
    if m:
        words = re.findall(ORDINAL_WORD, m.group(0), re.I)
        return "ordinal", m.group(0), tuple(ordinal_value(w) for w in words)
    m = FIRST_N.search(question)
    if m:
        count = COUNTS.get(m.group(2).lower()) or int(m.group(2))
        numbers = range(-count, 0) if m.group(1).lower() == "last" else range(1, count + 1)
        return "ordinal", m.group(0), tuple(numbers)
    numbered = list(NUMBERED.finditer(question))
    if numbered:  # "paper 2", "How does [1] compare with [3]?": each number is a source
        numbers = tuple(int(m.group(1) or m.group(2)) for m in numbered)
        return "ordinal", ", ".join(m.group(0) for m in numbered), numbers
    two = apart(question)  # "how does the second one differ from the first?"
    if two:
        return (
            "ordinal",
            " ... ".join(m.group(0) for m in two),
            tuple(ordinal_value(m.group(1)) for m in two),
        )
    m = ORDINAL.search(question)
    if m:
        return "ordinal", m.group(0), (ordinal_value(m.group(1)),)
    m = _DEMONSTRATIVE.search(question)
    if m:
        return "demonstrative", m.group(0), ()
    impersonal = [m.span() for m in _IMPERSONAL.finditer(question)]
    for m in _IT.finditer(question):
        if not any(a <= m.start() < b for a, b in impersonal):
            return "it", m.group(0), ()
    m = _PLURAL.search(question)
    if m:
        return "plural", m.group(0), ()
    m = _AUTHORS.search(question)
    if m:
        return "authors", m.group(0), ()
    m = _DEFINITE.search(question)
    if m:
        return "definite", m.group(0), ()
    return None


def _rewrite(question: str, kind: str, phrase: str, names: list[str]) -> str:
    """``question`` with the reference replaced by the paper name(s)."""
    if not names:
        return question
    joined = _join(names)
    if kind in ("ordinal", "demonstrative", "definite"):
        pattern = re.escape(phrase)
        out = re.sub(pattern + r"'s\b", _possessive(joined), question, count=1)
        if out == question:
            out = re.sub(pattern, joined, question, count=1)
        # further "it"/"its" in the same question refer to the same paper
        if len(names) == 1:
            out = _IT.sub(
                lambda m: _possessive(joined) if m.group(0).lower() == "its" else joined, out
            )
        return out
    if kind == "authors":
        return _AUTHORS.sub(f"the authors of {joined}", question, count=1)
    if kind == "it":
        return _IT.sub(
            lambda m: _possessive(joined) if m.group(0).lower() == "its" else joined, question
        )
    if kind == "plural":

        def repl(m: re.Match) -> str:
            word = m.group(0).lower()
            if word in ("their", "theirs"):
                return (
                    _possessive(joined)
                    if len(names) == 1
                    else " and ".join(_possessive(n) for n in names)
                )
            # "which one is faster?": "which of QuantSpec and BanditSpec ..."
            if word.startswith("which"):
                return f"{m.group(0)[:5]} of {joined}"
            return joined

        return _PLURAL.sub(repl, question)
    return question


def _in_sources(name: str, context: list[Source], texts: Mapping[str, str]) -> bool:
    """Whether a source's abstract (``texts`` by paper id, else its cited chunk) names ``name`` (a whole word,
    any case, a plural allowed): then the question asks about something of that paper ("VRAM",
    "ImageNet"), not about another paper."""
    pattern = re.compile(rf"(?<![\w-]){re.escape(name)}(?:e?s)?(?![\w-])", re.I)
    return any(pattern.search(texts.get(s.paper_id) or s.text or "") for s in context)


def _beside(
    question: str, phrase: str, targets: list[Source], current: list[Source] | None
) -> tuple[re.Pattern, Source, str] | None:
    """``(pattern, paper, word)`` when ``question`` says "it"/"its" or "this paper" besides the ordinal
    ``phrase`` and the previous answer (``current``) was about one paper other than ``targets``;
    else ``None``."""
    if not current or len(current) != 1 or current[0].paper_id in {t.paper_id for t in targets}:
        return None
    rest = question.replace(phrase, " ")
    impersonal = [m.span() for m in _IMPERSONAL.finditer(rest)]
    for pattern in (_DEMONSTRATIVE, _IT):
        for m in pattern.finditer(rest):
            if not any(a <= m.start() < b for a, b in impersonal):
                return re.compile(pattern.pattern, pattern.flags), current[0], m.group(0)
    return None


def resolve(
    question: str,
    context: list[Source] | None,
    texts: Mapping[str, str] | None = None,
    current: list[Source] | None = None,
) -> Resolution:
    """Resolve ``question`` against ``context``, the sources of the previous answer (``texts``: their
    abstracts by paper id, to tell a thing a paper names from a paper of its own). For an ordinal,
    ``context`` is the list it counts and ``current`` the previous answer's sources: when that answer was
    about one other paper, an "it" or "this paper" beside the ordinal is that paper ("compare it with the
    first": the paper just discussed and the list's first).

    Returns a :class:`Resolution`. Raises :class:`UnresolvedReference` for an
    ordinal beyond the previous answer's sources.
    """
    question = " ".join((question or "").split())
    if not context:
        ref = find_reference(question)
        note = "new question: retrieval over all papers"
        if ref and ref[0] in ("ordinal", "it", "demonstrative"):
            note = f'"{ref[1]}" has no earlier answer to refer to: retrieval over all papers'
        return Resolution(question, question, note=note)
    ref = find_reference(question)
    if ref is None:
        return Resolution(question, question)
    kind, phrase, ordinals = ref
    names_in_question = name_tokens(question)
    known = {n.lower() for s in context for n in (s.label, s.title) if n}
    new_names = [
        n
        for n in names_in_question
        if n.lower() not in known
        and not any(n.lower() in k.split() for k in known)
        # "How much VRAM does it need?": a thing the referred paper names, not a paper of its own
        and not _in_sources(n, context, texts or {})
    ]
    # "which one is faster?" chooses among the papers shown: it looks for none itself
    chooses = kind == "plural" and phrase.lower().startswith("which")
    finds_itself = (
        bool(_FINDS.search(question)) and kind not in ("ordinal", "demonstrative") and not chooses
    )
    if finds_itself:
        return Resolution(
            question,
            question,
            note=f'new question (it looks for papers itself; "{phrase}" refers inside it): retrieval over all papers',
        )
    if new_names and kind != "ordinal":
        plain = (
            question.replace("$", "").replace("^", "").replace("*", "")
        )  # as name_tokens reads it
        found = [plain.find(n) for n in new_names if n in plain]
        if kind in ("definite", "plural", "authors") or (found and min(found) < plain.find(phrase)):
            # "Where does SENSEI get its reward?", "How do they compare with ConfPO?": the question brings its own subject
            return Resolution(
                question,
                question,
                note=f"new question (names {', '.join(new_names)}): retrieval over all papers",
            )

    described = _DESCRIBED.search(question) if kind == "it" else None
    if described and not set(terms(described.group(1))) <= set(
        terms(f"{context[0].title} {(texts or {}).get(context[0].paper_id) or context[0].text}")
    ):
        # "going back to the chain-of-thought paper, what are its findings?": "its" is the paper it describes
        return Resolution(
            question,
            question,
            note=f'new question ("{described.group(0)}" is not {context[0].name}): retrieval over all papers',
        )
    if kind == "ordinal":
        numbers = list(dict.fromkeys(places(ordinals, len(context))))
        if not all(1 <= n <= len(context) for n in numbers):
            if len(context) == 1:
                raise UnresolvedReference(
                    f'"{phrase}": the last answer showed a single paper ([1])'
                )
            raise UnresolvedReference(
                f'"{phrase}": the last list shows {len(context)} paper{"s" if len(context) != 1 else ""}; '
                f"use a number from 1 to {len(context)}"
            )
        targets = [context[n - 1] for n in numbers]
        where = ("source " if len(numbers) == 1 else "sources ") + ", ".join(
            f"[{n}]" for n in numbers
        )
    elif kind == "plural" and len(context) > 1:
        targets = list(context)
        where = "sources " + ", ".join(f"[{s.n}]" for s in context)
    else:
        targets = [context[0]]
        where = "source [1]"
    pronoun = _beside(question, phrase, targets, current) if kind == "ordinal" else None
    if (
        kind == "ordinal"
        and not pronoun
        and len(targets) == len(current or []) == 1
        and targets[0].paper_id == current[0].paper_id
        and _IT.search(question.replace(phrase, " "))
        and re.search(r"\b(?:compar\w*|differ\w*|vs\.?|versus|against)\b", question, re.I)
    ):
        # "compare it with the first one" after one paper's answer: both are that paper (a methods reader's
        # chat had compared SpecPrefill with itself)
        raise UnresolvedReference(
            f'"it" and "{phrase}" are both {targets[0].name}; name the other paper'
        )
    if pronoun:
        targets = [pronoun[1], *targets]
    labels = [t.name for t in targets]
    qnames = [q for q in (query_label(t) for t in targets) if q]
    if pronoun and len(qnames) == 2:
        query = re.sub(re.escape(phrase), qnames[1], question, count=1)
        query = pronoun[0].sub(
            lambda m: _possessive(qnames[0]) if m.group(0).lower() == "its" else qnames[0], query
        )
    elif kind == "ordinal" and len(targets) > 1 and NUMBERED.match(phrase):
        # "How does [1] compare with [3]?": each number in place, by its own source's name
        by_number = {n: q for n, q in zip(numbers, (query_label(t) for t in targets)) if q}
        query = NUMBERED.sub(
            lambda m: by_number.get(int(m.group(1) or m.group(2)), m.group(0)), question
        )
    elif kind == "ordinal" and len(targets) > 1 and apart(question):
        # "how does the second one differ from the first?": each ordinal in place, by its own paper's name
        by_place = {n: q for n, q in zip(numbers, (query_label(t) for t in targets)) if q}
        query = ORDINAL.sub(
            lambda m: by_place.get(
                places((ordinal_value(m.group(1)),), len(context))[0], m.group(0)
            ),
            question,
        )
    else:
        query = _rewrite(question, kind, phrase, qnames if len(qnames) == len(targets) else [])
    if query == question and qnames:
        query = f"{question} ({_join(qnames)})"
    mode = BOOST if new_names else RESTRICT
    how = (
        "restricted to"
        if mode == RESTRICT
        else f"over all papers (for {', '.join(new_names)}) with first"
    )
    shown = labels[1:] if pronoun else labels
    note = f'follow-up: "{phrase}" refers to {where} of the previous answer ({"; ".join(shown)})'
    if pronoun:
        note += f'; "{pronoun[2]}" to the paper the answer before was about ({labels[0]})'
    note += f"; retrieval {how} {'that paper' if len(targets) == 1 else 'those papers'}"
    return Resolution(
        question,
        query,
        kind=mode,
        target_ids=[t.paper_id for t in targets],
        target_labels=labels,
        cue=phrase,
        weak=kind in ("definite", "plural", "authors"),
        note=note,
    )
