"""Cues that a cited text contradicts a claim, or that the claim says more than the text.

The support checker (:mod:`paperchat.cite.checker`) scores how much of a
sentence its cited text grounds; a sentence can share nearly all its words
with the text and still say the opposite ("requires X" where the text says
"without requiring X") or overreach ("proves" where the text only reports
experiments). :func:`conflict` looks for such cues and names the first one
found, as a short reason (``None`` when there is none):

* **overreach**: a universal word (``always``, ``every``, ``all``,
  ``unconditionally``, ...) the cited text never uses, or ``prove(s)`` /
  ``provably`` when the text has no theory at all (no proof, theorem,
  guarantee, bound, ...);
* **requirement polarity**: what a claim says a method requires, needs,
  relies on or uses (or does without) against the same term in the text:
  "requires retraining" versus "without retraining";
* **contrast**: "like X" / "as in X" where the text says "unlike X" / "in
  contrast to X" (and the reverse);
* **modal polarity**: "can compute" where the text says "cannot compute";
* **antonyms**: a word whose opposite stands in the cited sentences closest
  to the claim and which the text itself never uses ("slower" against
  "faster", "encoder-only" against "decoder-only", "nonlinear" against
  "linear");
* **swapped roles**: "A outperforms B" where the text says "B outperforms A".

The rules are deliberately narrow: each was added for a pattern on the dev
split of ``eval/claims`` and kept only when it flagged no more faithful
paraphrases there (``eval/calibrate_checker.py`` measures the held-out test
split). They are lexical, English-only heuristics, not entailment: a claim
that contradicts its source in other words passes them.
"""

from __future__ import annotations

import re

from paperchat.cite.cue_words import (
    BREAK,
    COMPARATIVE,
    LIKE,
    MODAL_NEG,
    MODAL_POS,
    NEGATORS,
    PROVE,
    REQ_VERB,
    THEORY_STEMS,
    UNIVERSAL,
    UNLIKE,
    WITHOUT,
    antonyms,
    stem,
    tokenize,
)
from paperchat.core.sentences import split_sentences
from paperchat.core.terms import STOPWORDS

#: Words that end a negator's reach over a following verb ("removes X by enforcing Y").
_MEANS = frozenset({"by", "via", "through", "while", "with"})


def _words(tokens: list[str]) -> list[str]:
    return [t for t in tokens if t[0].isalpha()]


def _scope(tokens: list[str]) -> set[int]:
    """Positions under a negation: from a negator to the end of its clause (at most 10 tokens)."""
    out: set[int] = set()
    for i, w in enumerate(tokens):
        if w in NEGATORS or w.endswith("n't"):
            for j in range(i + 1, min(len(tokens), i + 11)):
                if tokens[j] in BREAK and j > i + 1:
                    break
                out.add(j)
    return out


def _overreach(claim: list[str], cited: str) -> str | None:
    cited_tokens = tokenize(cited)
    words = set(cited_tokens) | {p for w in cited_tokens for p in w.split("-")}
    for w in _words(claim):
        if w in UNIVERSAL and w not in words:
            return f"'{w}' overstates the source"
        if w in PROVE and not any(stem(x).startswith(THEORY_STEMS) for x in _words(cited_tokens)):
            return f"'{w}': the source proves nothing"
    return None


def _requirement_terms(
    tokens: list[str], surface: dict[str, str] | None = None
) -> dict[str, set[bool]]:
    """``{stem: {negated?}}`` for the terms a requirement verb governs ("requires X", "without X", "avoids X");
    ``surface`` collects each stem's first word as written."""
    out: dict[str, set[bool]] = {}
    surface = {} if surface is None else surface
    for i, w in enumerate(tokens):
        if not w[0].isalpha():
            continue
        verb = bool(REQ_VERB.match(stem(w)))
        if not verb and w not in WITHOUT:
            continue
        # a negator just before the verb negates it, unless "by"/"via" stands between ("removes backdoors
        # by enforcing consistency" enforces it)
        before = tokens[max(0, i - 3) : i]
        while any(t in _MEANS for t in before):
            before = before[next(k for k, t in enumerate(before) if t in _MEANS) + 1 :]
        negated = w in WITHOUT or any(t in NEGATORS or t.endswith("n't") for t in before)
        for j in range(i + 1, min(len(tokens), i + 7)):
            x = tokens[j]
            if x in BREAK or (j > i + 1 and REQ_VERB.match(stem(x))):
                break
            if x in STOPWORDS or len(x) < 4 or x in NEGATORS:
                continue
            out.setdefault(stem(x), set()).add(negated)
            surface.setdefault(stem(x), x)
    return out


def _requirement(claim: list[str], cited: str) -> str | None:
    written: dict[str, str] = {}
    said = _requirement_terms(claim, written)
    source: dict[str, set[bool]] = {}
    for sentence in split_sentences(cited) or [cited]:
        for term, pol in _requirement_terms(tokenize(sentence)).items():
            source.setdefault(term, set()).update(pol)
    # a term the text does without in one phrase and writes in another ("without requiring clean reference
    # models—only a small clean dataset") is not one it does without
    done_without = {t for t, pol in source.items() if pol == {True}}
    free = _free_terms(tokenize(cited), done_without)
    for term, pol in said.items():
        if term in free:
            continue
        if len(pol) == 1 and len(source.get(term, ())) == 1 and pol != source[term]:
            return (
                f"the source says the opposite about '{written[term]}'"
                f" ({'does without it' if True in source[term] else 'uses or requires it'})"
            )
    return None


def _free_terms(tokens: list[str], terms: set[str]) -> set[str]:
    """Which of ``terms`` (stems) also occur in ``tokens`` outside every negated requirement phrase (a
    negator and the six tokens after it, to a clause break)."""
    negated: set[int] = set()
    for i, w in enumerate(tokens):
        if w in WITHOUT or w in NEGATORS:
            for j in range(i + 1, min(len(tokens), i + 8)):
                if tokens[j] in BREAK:
                    break
                negated.add(j)
    return {stem(w) for j, w in enumerate(tokens) if j not in negated and stem(w) in terms}


def _after(text: str, markers: tuple[str, ...]) -> set[str]:
    """Stems of the content words in the 6 words after each marker phrase."""
    out: set[str] = set()
    for marker in markers:
        for m in re.finditer(
            rf"(?<![A-Za-z]){re.escape(marker)}\s+((?:[^\s,;:.]+\s*){{1,6}})", text, flags=re.I
        ):
            out |= {
                stem(w) for w in _words(tokenize(m.group(1))) if w not in STOPWORDS and len(w) > 2
            }
    return out


def _contrast(claim: str, cited: str) -> str | None:
    low_claim = claim.lower()
    for mine, theirs in ((LIKE, UNLIKE), (UNLIKE, LIKE)):
        if any(f" {m} " in f" {low_claim} " or low_claim.startswith(f"{m} ") for m in mine):
            said = _after(claim, mine) - _after(claim, theirs)
            shared = said & _after(cited, theirs)
            if shared and not (said & _after(cited, mine)):
                return f"the source contrasts what the claim likens ('{sorted(shared)[0]}')"
    return None


def _modal(claim: str, cited: str) -> str | None:
    def verbs(text: str, markers) -> dict[str, str]:
        found = {}
        for marker in markers:
            for m in re.finditer(
                rf"(?<![A-Za-z']){re.escape(marker)}\s+(?:\w+ly\s+)?([a-z]+)", text.lower()
            ):
                found.setdefault(stem(m.group(1)), m.group(1))
        return found

    pos = verbs(claim, MODAL_POS)
    neg = verbs(cited, MODAL_NEG)
    clash = sorted(
        v
        for v in set(pos) - set(verbs(claim, MODAL_NEG))
        if v in neg and v not in verbs(cited, MODAL_POS) and v not in ("be", "not")
    )
    return f"the source says it cannot or does not '{pos[clash[0]]}'" if clash else None


def _antonym(claim: list[str], cited: str, aligned: list[str]) -> str | None:
    negated = _scope(claim)
    mine = {stem(w) for i, w in enumerate(claim) if w[0].isalpha() and i not in negated}
    written = {stem(w): w for w in reversed(_words(claim + tokenize(" ".join(aligned))))}
    near = {stem(w) for w in _words(tokenize(" ".join(aligned)))}
    everywhere = {stem(w) for w in _words(tokenize(cited))}
    prefixed = {w for w in _words(tokenize(cited)) if re.match(r"^(non-?|un|in)[a-z]{4,}", w)}
    claim_all = {stem(w) for w in _words(claim)}
    for w in sorted(mine):
        if w in everywhere:
            continue
        for opposite in sorted(antonyms().get(w, ())):
            if opposite in near and opposite not in claim_all:
                return f"the source says '{written.get(opposite, opposite)}', not '{written.get(w, w)}'"
    for w in _words(claim):  # "nonconvex" in the claim, "convex" only in the source, or the reverse
        base = re.sub(r"^(non-?|un|in)", "", w)
        if (
            base != w
            and len(base) >= 4
            and w not in prefixed
            and stem(base) in near
            and stem(w) not in everywhere
        ):
            return f"the source says '{base}', not '{w}'"
        if (
            base == w
            and len(w) >= 5
            and stem(w) not in everywhere
            and any(re.sub(r"^(non-?|un|in)", "", p) == w for p in prefixed)
        ):
            return f"the source says '{next(p for p in prefixed if re.sub(r'^(non-?|un|in)', '', p) == w)}', not '{w}'"
    return None


def _sides(sentence: str) -> tuple[set[str], set[str]] | None:
    m = COMPARATIVE.search(sentence.lower())
    if not m:
        return None
    left = _words(tokenize(sentence[: m.start()]))[-6:]
    right = _words(tokenize(sentence[m.end() :]))[:6]

    def content(ws):
        return {stem(w) for w in ws if w not in STOPWORDS and len(w) > 2}

    return content(left), content(right)


def _swapped(claim: str, aligned: list[str]) -> str | None:
    mine = _sides(claim)
    if not mine:
        return None
    for sentence in aligned:
        theirs = _sides(sentence)
        if theirs and (mine[0] & theirs[1]) and (mine[1] & theirs[0]) and not (mine[0] & theirs[0]):
            return "the source compares the other way round"
    return None


def conflict(claim: str, cited_text: str, aligned: list[str]) -> str | None:
    """The first cue that ``cited_text`` contradicts ``claim`` or that the claim overreaches, as a short reason.

    ``claim`` is one sentence without citation markers; ``aligned`` are the
    cited sentences closest to it (by embedding), where antonyms and swapped
    comparisons are looked for. ``None`` when no cue fires.
    """
    tokens = tokenize(claim)
    return (
        _overreach(tokens, cited_text)
        or _requirement(tokens, cited_text)
        or _contrast(claim, cited_text)
        or _modal(claim, cited_text)
        or _antonym(tokens, cited_text, aligned)
        or _swapped(claim, aligned)
    )
