"""A requirement a question takes as given that its paper's abstract denies in other words: "How should
AKORN's smoothness hyperparameter be set ...?" is a question; "In 'Unconstrained Robust Online Convex
Optimization', what statistical model is assumed for the gradients?" where the abstract says "We make no
assumptions" is a false premise.

:func:`paperchat.answer.premises.denied_terms` catches a denial of the question's own words ("does not
require any draft models" for "which draft model"). A fact-checker's set (``eval/generalization/
aa_factchecker.jsonl``, a tuning set, thirty-fifth round) wrote such premises in other words than the
abstract's, and every one had been answered with nearby sentences. :data:`CATEGORIES` pairs what a question
may take as given (an assumption, training or fine-tuning, labels, white-box access, a modification) with
the words an abstract denies it in ("no assumptions", "training-free", "post-hoc", "black-box",
"without modification"). A question that negates the thing itself ("... without fine-tuning?") or asks
yes or no ("Does it need labels?", answered by the denial) takes nothing as given.

Scanned on the tuning sets and conference dev before the rule was wired in: 7 unanswerable questions
fire and 4 answerable ones, each of which negates the thing in the question ("avoids relying on ground-truth labels",
"without fine-tuning") or writes the denial itself ("unsupervised", "from unlabeled data"), and is left
out by those rules.
"""

from __future__ import annotations

import re

#: What a question takes as given, and what an abstract denies it with.
CATEGORIES = {
    "an assumption": (
        r"\bassum(?:e|es|ed|ing|ption|ptions)\b",
        r"\b(?:no|without(?: any)?|free of|make no|not (?:make|require|need)(?: any)?)\s+(?:\w+\s+){0,2}"
        r"assumptions?\b|\bassumption-(?:free|lean)\b",
    ),
    "training or fine-tuning": (
        r"\b(?:re-?train(?:ed|ing|s)?|fine-?tun(?:e|ed|es|ing)|train(?:ed|ing)?\s+(?:the|a|an|its|their)\b)",
        r"\b(?:training|tuning)-free\b|\bwithout (?:any )?(?:additional |extra |further )?(?:re-?)?"
        r"(?:training|fine-?tuning)\b|\bno (?:additional |extra )?(?:re-?)?training\b|\bpost-hoc\b"
        r"|\bplug-and-play\b",
    ),
    "labels": (
        r"(?<![\w-])(?:labell?ed|labels|annotat(?:ed|ion|ions))\b",
        r"\bunlabell?ed\b|\blabel-free\b|\bwithout (?:any )?(?:labels|annotations|supervision)\b"
        r"|\bno (?:labels|annotations)\b|\bunsupervised\b",
    ),
    "white-box access": (
        r"\bwhite-?box\b|\baccess to (?:the )?(?:model'?s? )?(?:weights|parameters|gradients|internals)\b",
        r"\bblack-?box\b|\bmodel-agnostic\b|\bwithout (?:access|accessing)\b",
    ),
    "a modification": (
        r"\bmodif(?:y|ied|ies|ication|ications)\b|\bchanges? to (?:the )?(?:update|architecture|model|"
        r"algorithm)\b",
        r"\bwithout (?:any )?(?:modification|modifying|changes?|altering)\b|\bno (?:architectural )?"
        r"(?:modifications?|changes?)\b|\bunmodified\b",
    ),
}
_COMPILED = {
    name: (re.compile(asked, re.I), re.compile(denied, re.I))
    for name, (asked, denied) in CATEGORIES.items()
}
#: A negation or an un-/-free form in the question before the thing: it takes nothing as given.
_NEGATED = re.compile(
    r"\b(?:without|no|not|never|avoid(?:s|ing|ed)?|free|unsupervised|unlabell?ed|doesn'?t|don'?t|didn'?t|lacks?)\W+(?:\w+\W+){0,3}$",
    re.I,
)


def denied_category(question: str, text: str, label: str = "") -> tuple[str, str] | None:
    """``(what the question takes as given, the abstract's words denying it)`` when ``text`` (a paper's title
    and abstract) denies a :data:`CATEGORIES` requirement ``question`` names without negating it (nor
    writing the denial itself); else ``None``. Yes/no questions are the caller's to leave out."""
    for name, (asked, denied) in _COMPILED.items():
        said = next(
            (m for m in asked.finditer(question) if not _NEGATED.search(question[: m.start()])),
            None,
        )
        # the question writes the denial itself ("from unlabeled data, with annotations added"): no premise
        if not said or denied.search(question):
            continue
        found = next((m for s in _own_sentences(text, label) if (m := denied.search(s))), None)
        if found:
            return name, found.group(0)
    return None


#: A sentence about the paper's own work: "we", "our", "this paper", "the proposed method", "the framework".
_SELF = re.compile(
    r"\b(?:we|our|us)\b|\b(?:this|the proposed|the|our)\s+(?:method|framework|approach|paper|work|"
    r"model|algorithm|technique|estimator|pipeline)\b",
    re.I,
)


def _own_sentences(text: str, label: str = "") -> list[str]:
    """The sentences of ``text`` that say what the paper itself does (:data:`_SELF`, or its ``label``), not
    what earlier work does: "Traditionally, Shapley values are computed post-hoc" denies nothing of ViaSHAP,
    which trains a model (:func:`paperchat.answer.roles.own_sentences` reads that sentence as the paper's)."""
    from paperchat.answer.roles import own_sentences

    return [
        s
        for s in own_sentences(text)
        if _SELF.search(s) or (label and re.search(rf"\b{re.escape(label)}\b", s))
    ]


def denial_note(question: str, paper, name: str) -> str:
    """The note for a requirement ``question`` takes as given that ``paper``'s abstract (``full_text``)
    denies in other words (:func:`denied_category`), naming the paper as ``name``; ``""`` when there is none."""
    found = denied_category(question, paper.full_text, paper.label or "")
    if not found:
        return ""
    return (
        f"the question takes {found[0]} as given where the abstract of {name} says '{found[1]}': check "
        "the question's premise"
    )
