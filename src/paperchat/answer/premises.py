"""False premises: a question that asks about something its paper says it does without.

"Which small draft model did they pair with the diffusion model?" presupposes a
draft model; the paper's abstract says its method "does not require any
auxiliary draft models". Quoting the abstract's nearest sentences would answer
a question the paper rejects, so the answerer abstains and says why.

:func:`denied_terms` finds the words of the question's ask
(:mod:`paperchat.answer.asks`) that the paper's abstract uses only under a
negation close before them ("without X", "no X", "does not require any X",
"avoids X", "eliminating the need for X"), while the question itself does not
negate them. Only the paper's own sentences count: a background sentence saying
what earlier methods rely on does not make it a premise of this paper. Words are compared by their Snowball stems, and negation is read
with the support checker's tokens, clause breaks and stemmer
(:mod:`paperchat.cite.cue_words`), so the two read words alike. The window is narrow on
purpose (:data:`NEGATION_WINDOW` words, not across a comma or clause break):
a negation far before a word is about something else.
"""

from __future__ import annotations

from paperchat.answer.intent import sentence_role
from paperchat.cite.cue_words import BREAK, stem, tokenize
from paperchat.core.sentences import split_sentences
from paperchat.core.terms import STOPWORDS

#: Words before a term that a negation may stand at and still govern it ("does not require any auxiliary draft").
NEGATION_WINDOW = 5
#: Words that deny what follows them. Narrower than the checker's negators: a contrast ("unlike X") says
#: what other work does, not that this paper does without X.
DENIALS = frozenset(
    """without no not never neither nor cannot none zero avoid avoids avoiding avoided
    eliminate eliminates eliminating removing removes""".split()
)


def _negated_at(tokens: list[str], i: int) -> bool:
    """Whether a negation stands within :data:`NEGATION_WINDOW` words before ``tokens[i]``, in its clause."""
    for j in range(i - 1, max(-1, i - 1 - NEGATION_WINDOW), -1):
        w = tokens[j]
        if w in BREAK:
            return False
        if w in DENIALS or w.endswith("n't"):
            return True
    return False


def _polarity(text: str, stems: set[str], own_only: bool = False) -> dict[str, set[bool]]:
    """``{stem: {negated?}}`` for each occurrence in ``text`` of a word whose stem is in ``stems``.

    ``own_only``: skip the background sentences of an abstract (what other work does,
    :func:`paperchat.answer.intent.sentence_role`), so only what the paper says of itself counts.
    """
    out: dict[str, set[bool]] = {}
    for position, sentence in enumerate(split_sentences(text) or [text]):
        if own_only and sentence_role(sentence, position) == "background":
            continue
        tokens = tokenize(sentence)
        for i, w in enumerate(tokens):
            if not w[0].isalpha():
                continue
            if w.endswith("-free") and stem(w[:-5]) in stems:  # "training-free": no training
                out.setdefault(stem(w[:-5]), set()).add(True)
            elif stem(w) in stems:
                out.setdefault(stem(w), set()).add(_negated_at(tokens, i))
    return out


def denied_terms(ask: str, abstract: str) -> list[str]:
    """Words of ``ask`` (as written) that ``abstract`` mentions only under a close negation, and ``ask`` does not negate.

    Content words of four letters or more; ``[]`` when there is none (the usual case).
    """
    surface: dict[str, str] = {}
    for w in tokenize(ask):
        if w[0].isalpha() and len(w) >= 4 and w not in STOPWORDS and w not in DENIALS:
            surface.setdefault(stem(w), w)
    asked = _polarity(ask, set(surface))
    said = _polarity(abstract, set(surface), own_only=True)
    return [
        surface[s] for s in surface if said.get(s) == {True} and True not in asked.get(s, {False})
    ]
