"""The ``introduces-description`` (kind ``paraphrase``) and ``introduces-direct`` (``lookup``) templates of
``paperchat eval draft``: the method an abstract names ("we propose X", "X, a ...", "a ... called X"), asked by
its description or by its name (see :mod:`paperchat.evaluation.authoring.corpus`)."""

from __future__ import annotations

import random
import re
from typing import NamedTuple

from paperchat.core.terms import STOPWORDS, name_tokens
from paperchat.evaluation.authoring.corpus import (
    FILLER,
    HEADS,
    INTRO,
    STOP_DESC,
    VERB_CUE,
    VERBS,
    WORD,
    Corpus,
    DraftPaper,
    cand,
    coined,
)


# -- what a paper introduces ------------------------------------------------------------------------------------
class Intro(NamedTuple):
    """A method a paper introduces: ``name`` as written, ``head`` (its description's head noun phrase, or ``""``),
    ``keys`` (the rarest noun phrases of its sentence) and ``sentence`` (index)."""

    name: str
    head: str
    keys: list[str]
    sentence: int


def _phrase_words(words: list[str], limit: int, stop: frozenset[str]) -> list[str]:
    """The leading words of ``words`` up to a stop word, a non-word or a comma (which ends after its word)."""
    out: list[str] = []
    for raw in words[:limit]:
        w = raw.rstrip(",;:.")
        if w.lower() in stop or not re.fullmatch(r"[A-Za-z][\w-]*", w):
            break
        out.append(w)
        if w != raw:
            break
    return out


def _head(after: list[str]) -> str:
    """The head noun phrase (at most 6 words) of the words after "a/an", or ``""`` when it has no head noun."""
    kept = _phrase_words(after, 9, STOP_DESC)
    heads = [i for i, w in enumerate(kept[:7]) if w.lower() in HEADS]
    if not heads:
        return ""
    out, rest = kept[: heads[-1] + 1], after[heads[-1] + 1 :]
    if rest and rest[0] in ("for", "of") and len(out) < 5 and out[-1] == after[heads[-1]]:
        pp = _phrase_words(rest[1:], 5 - len(out), STOPWORDS | STOP_DESC)
        out += [rest[0]] + pp if pp else []
    return " ".join(w for w in out if w.lower() not in ("novel", "new"))


def _keys(corpus: Corpus, sentence: str, avoid: set[str], n: int = 2) -> list[str]:
    """The ``n`` rarest noun phrases of ``sentence`` (2-3 words first, then rare long words), none holding ``avoid``."""
    ws: list[str] = []
    for piece in re.split(r"[,;:()\[\]\u2014\u2013\"']|\s-\s", sentence.lower()):
        ws += WORD.findall(piece) + ["|"]
    skip = {t.lower() for t in name_tokens(sentence)} | avoid | STOPWORDS | FILLER | HEADS | VERBS

    def ok(i: int) -> bool:
        w = ws[i] if i < len(ws) else "|"
        return (
            len(w) > 3
            and w not in skip
            and w.rstrip("s") not in VERBS
            and not re.search(r"\d|ly$|i[sz]es$", w)
            and not (i and ws[i - 1] in VERB_CUE)
        )

    def size(
        i: int,
    ) -> int:  # a third word when it ends a noun phrase ("implicit neural representations")
        third = ws[i + 2] if i + 2 < len(ws) else "|"
        noun = third in HEADS or third.endswith(
            ("s", "ion", "ing", "ity", "ure", "ment", "ness", "data")
        )
        return (
            3
            if noun
            and (ok(i + 2) or third in HEADS or third in FILLER)
            and not third.endswith("ed")
            else 2
        )

    rare = max(2, len(corpus.papers) // 200)
    pairs = [
        (max(corpus.df[ws[i]], 1) * max(corpus.df[ws[i + 1]], 1) ** 0.5, i, size(i))
        for i in range(len(ws) - 1)
        if ok(i)
        and ok(i + 1)
        and not ws[i].endswith(("ed", "ing"))
        and not ws[i + 1].endswith("ed")
    ]
    singles = [
        (corpus.df[w], i, 1)
        for i, w in enumerate(ws)
        if ok(i)
        and len(w) >= 7
        and corpus.df[w] <= rare
        and not w.endswith(("ed", "ing", "ize", "ise"))
    ]
    out: list[str] = []
    used: set[int] = set()
    for _df, i, span in sorted(pairs) + sorted(singles):
        phrase = " ".join(ws[i : i + span])
        if not used & set(range(i, i + span)) and phrase not in out and len(out) < n:
            used.update(range(i, i + span))
            out.append(phrase)
    return out


def find_intro(corpus: Corpus, paper: DraftPaper) -> Intro | None:
    """The method ``paper`` introduces (see :class:`Intro`), or ``None`` when its abstract names none.

    The paper's coined label is looked for first (the first sentence holding it), then a coined name that
    an introducing sentence defines ("we propose X, a ...", "a ... called X", "Expanded Name (X)") and
    that at most two papers use.
    """
    label_first = [(i, s, True) for i, s in enumerate(paper.plain)] if coined(paper.label) else []
    for idx, sent, label_pass in label_first + [(i, s, False) for i, s in enumerate(paper.plain)]:
        intro_sentence = bool(INTRO.search(sent))
        for name in (
            [paper.label]
            if label_pass
            else [n for n in name_tokens(sent) if intro_sentence and coined(n)]
        ):
            q = re.escape(name)
            if (
                name not in paper.abstract
                or not re.search(r"(?<![\w-])" + q + r"(?![\w+-])", sent)
                or len(corpus.papers_with(name, plural=False)) > 2
            ):
                continue  # not written so in the abstract, or a name many papers use (SGLD, MDPs)
            avoid = {name.lower(), *WORD.findall(name.lower())}
            expansions = re.findall(
                r"((?:[\"'`]*[A-Za-z][\w-]*[\"'`]*\s+){1,6})\(\s*"
                + q
                + r"\s*\)|"
                + q
                + r"\s*\(([^)]{3,80})\)",
                sent,
            )
            for (
                m
            ) in expansions:  # "Keeping Exploration Alive": the name spelled out is the name too
                avoid |= set(WORD.findall(" ".join(m).lower()))
            after = re.search(
                q + r"\)?\s*(?:\([^)]*\))?\s*[,:]\s*(?:which is\s+)?(?:a|an)\s+(.*)", sent
            )
            before = re.search(
                r"\b(?:a|an)\s+((?:[\w-]+\s+){0,7}?[\w-]+),?\s+(?:called|named|dubbed|termed|coined|"
                r"namely)?\s*" + q + r"\b",
                sent,
            )
            head = _head(after.group(1).split()) if after else ""
            if (
                not head and before
            ):  # "an efficient ... algorithm called X": back from the head noun to a stop word
                ws = before.group(1).split()
                while ws and ws[-1].lower() not in HEADS:
                    ws.pop()
                head = " ".join(
                    _phrase_words(ws[::-1], 5, (STOPWORDS - HEADS) | STOP_DESC | {"novel", "new"})[
                        ::-1
                    ]
                )
            if label_pass or head or after or before or expansions:
                return Intro(
                    name, head, _keys(corpus, sent, avoid | set(WORD.findall(head.lower()))), idx
                )
    return None


def subject(paper: DraftPaper, intro: Intro | None) -> str | None:
    """How a question names ``paper``: the method it introduces, its coined label, else its (short) title."""
    if intro:
        return intro.name
    if coined(paper.label) and paper.label in paper.abstract:
        return paper.label
    title = paper.title.split(":")[0] if len(paper.title.split()) > 14 else paper.title
    return f'the paper "{title.strip()}"' if 3 <= len(title.split()) <= 14 else None


def article(phrase: str) -> str:
    """ "a" or "an" for ``phrase``."""
    first = (phrase.split() or ["x"])[0]
    if (
        first.split("-")[0].isupper() and len(first.split("-")[0]) > 1
    ):  # an acronym: "an LDP-based ...", "a GNN ..."
        return "an" if first[0] in "AEFHILMNORSX" else "a"
    return (
        "an"
        if first[0].lower() in "aeiou" and not first.lower().startswith(("one", "uni", "use", "eu"))
        else "a"
    )


def introduces(corpus: Corpus, paper: DraftPaper, intro: Intro, rng: random.Random) -> list[dict]:
    """The ``introduces-description`` and ``introduces-direct`` questions of a paper that introduces ``intro``."""
    out = []
    head, keys, pid = intro.head or "method", intro.keys, paper.paper_id
    if len(keys) + len(intro.head.split()) >= 2 and (keys or len(head.split()) >= 4):
        lead = rng.choice(
            [
                "Which paper introduces",
                "Which paper proposes",
                "Which work presents",
                "Is there a paper that proposes",
            ]
        )
        tail = rng.choice(
            [" built around ", " that relies on ", ", centred on ", " that uses "]
        ) + " and ".join(keys)
        out.append(
            cand(
                "paraphrase",
                "introduces-description",
                f"{lead} {article(head)} {head}{tail if keys else ''}?",
                [pid],
                [[intro.name]],
                pid,
                intro.sentence,
                f"{intro.name}, described without its name",
            )
        )
    if keys:
        form = rng.choice(
            [
                "What does {n} do?",
                "What is {n}?",
                "How does {n} work?",
                "What problem does {n} address?",
            ]
        )
        out.append(
            cand(
                "lookup",
                "introduces-direct",
                form.format(n=intro.name),
                [pid],
                [[keys[0]]],
                pid,
                intro.sentence,
                f"what {intro.name} is",
            )
        )
    return out
