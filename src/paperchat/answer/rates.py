"""Questions that ask for a rate or a bound: "What regret does X achieve?", "What is the sample complexity
of X?", "and what is the bound?".

Theory abstracts state their result in asymptotic notation ("a regret of $\\tilde{O}(\\sqrt{SAH^3K})$"),
often beside the bound of earlier work they improve ("improves the existing ... bound of
$O(\\exp(1/\\Delta) + ...)$", "[Li et al.] gave an $\\Omega(n/k)$ lower bound"). A theorist's session had
the answer quote the setting or the earlier bound and leave out the paper's own. :func:`asks_rate` reads
the ask; :func:`rate_first` leads with the paper's sentence stating a bound in that notation, one that
does not give it as earlier work's before one that does.
"""

from __future__ import annotations

import re

_ASKS = re.compile(
    r"\b(?:what|which|how\s+(?:fast|quickly))\b[^?]{0,80}?\b(?:regret|rates?|bounds?|complexit(?:y|ies)|"
    r"guarantees?|converge(?:nce|s)?|error)\b",
    re.I,
)
#: Asymptotic notation as abstracts write it: $O(...)$, $\tilde{O}(...)$, $\Omega(...)$, $\Theta(...)$,
#: $\mathcal{O}(...)$, or "O(1/sqrt(T))" in plain text.
_NOTATION = re.compile(
    r"\\(?:tilde|widetilde)\s*\{?\s*\\?(?:O|Omega|Theta|mathcal\s*\{\s*O\s*\})"
    r"|\\(?:Omega|Theta|mathcal\s*\{\s*O\s*\})\s*[({\\]"
    r"|(?<![A-Za-z\\])[OΩΘ]\s*\(",
)
#: A bound given as earlier work's: "the existing ... bound of", "[Li, Feldman, ...] gave", "et al. showed".
_EARLIER = re.compile(
    r"\b(?:existing|previous(?:ly)?|prior|best[- ]known|known|earlier|their)\b[^.]{0,60}?"
    r"\b(?:bounds?|rates?|regret|complexity|results?)\b"
    r"|(?:\]|\bet\s+al\.?)[^.]{0,30}?\b(?:gave|gives|showed|shows|proved|proves|established|obtained|achieved)\b",
    re.I,
)


def asks_rate(question: str) -> bool:
    """Whether ``question`` asks for a rate, a bound or a complexity (:data:`_ASKS`)."""
    return _ASKS.search(question) is not None


def states_bound(text: str) -> bool:
    """Whether ``text`` writes a bound in asymptotic notation (:data:`_NOTATION`)."""
    return _NOTATION.search(text) is not None


#: A sentence of the paper's own that names earlier work's bound to improve on it: "We strengthen their
#: lower bound to a nearly tight $\tilde{\Omega}(n)$".
_IMPROVED_TO = re.compile(
    r"^\s*(?:we|our|this\s+(?:paper|work))\b[^.]*\bto\s+(?:an?\s+)?(?:[\w-]+\s+){0,3}?\$", re.I
)
#: Words that tell bounds apart: a question asking for a lower bound wants the sentence writing one (a
#: kind counts when the question writes it before "bound", "complexity", "rate" or "guarantee").
_KINDS = (
    "lower",
    "upper",
    "regret",
    "sample",
    "query",
    "iteration",
    "convergence",
    "error",
    "risk",
)


def rate_first(picked: list, own: list, question: str, limit: int) -> list:
    """``picked`` (candidate sentences with ``text``, ``role`` and ``score``) led by the paper's sentence (of
    ``own``) stating a bound (:func:`states_bound`): one that does not give it as earlier work's
    (:data:`_EARLIER`, unless it improves on it, :data:`_IMPROVED_TO`) nor is background, else any stating
    one; among them the one writing most of the kinds of bound the question names ("lower"), then the one
    picked first. Unchanged when ``question`` asks for no rate (:func:`asks_rate`) or no sentence states
    one. At most ``limit`` sentences."""
    if not asks_rate(question):
        return picked

    def own_bound(c) -> bool:
        earlier = _EARLIER.search(c.text) and not _IMPROVED_TO.search(c.text)
        return states_bound(c.text) and c.role != "background" and not earlier

    asked = [
        k
        for k in _KINDS
        if re.search(
            rf"\b{k}\w*(?:\s+(?:bounds?|complexit(?:y|ies)|rates?|guarantees?)\b|$)", question, re.I
        )
        or k == "regret"
        and re.search(r"\bregret\b", question, re.I)
    ]
    for holds in (own_bound, lambda c: states_bound(c.text)):
        stating = [c for c in dict.fromkeys(picked + own) if holds(c)]
        if stating:
            # the one writing the kinds of bound asked for, then the one picked first, then the best scored
            best = max(
                stating,
                key=lambda c: (
                    sum(bool(re.search(rf"\b{k}", c.text, re.I)) for k in asked),
                    c in picked,
                    -picked.index(c) if c in picked else c.score,
                ),
            )
            return [best] + [c for c in picked if c is not best][: limit - 1]
    return picked
