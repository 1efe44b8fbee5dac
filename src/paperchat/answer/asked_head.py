"""Questions that ask for a thing by its noun: the sentence that names that thing, first.

"What are the two loss functions in the physics-informed MLIP paper?" is answered by "Our method
introduces two novel loss functions: one based on Taylor expansions ...", not by the proposal sentence
that matches the paper's description best (which the answerer had quoted alone: the other scored below
its keep ratio). The asked head, the noun phrase after "What is/are the" ("two loss functions"), is what
the answer must hold; :func:`head_first` puts the paper's sentence holding every content term of it
first, when no picked sentence does. From a grounding audit (thirty-third round); the rule is the
extractive counterpart of answer-type matching in classic question answering (Harabagiu et al. 2000,
"FALCON: Boosting Knowledge for Answer Engines"), with the head noun as the answer type.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from paperchat.core.terms import term_coverage, terms

#: "What is / are the <head> in|of|for|that|does ... ?": the head, one to four words.
_HEAD = re.compile(
    r"^\s*(?:what|which)\s+(?:is|are|were|was)\s+(?:the|its|their)\s+"
    r"((?:[\w-]+\s+){0,3}?[\w-]+?)"
    r"\s*(?:\b(?:in|of|for|from|behind|that|which|they|it|does|do|did|used|proposed|introduced)\b|\?|$)",
    re.I,
)
#: Heads that ask for the whole paper's gist or its limits, which other rules answer.
_GENERIC = frozenset(
    "idea contribution point approach method paper limitation result finding goal problem purpose".split()
)
MIN_HEAD_TERMS = 2  # content terms a head needs to decide the sentence (not tuned)


def asked_head(asking: str) -> list[str]:
    """The content terms (:func:`paperchat.core.terms.terms`) of the noun phrase ``asking`` asks for by
    "What is/are the ...?" (["loss", "function"] for "What are the two loss functions in ..."), or ``[]``
    when it asks no such head, the head has fewer than :data:`MIN_HEAD_TERMS` terms, or a term is one of
    :data:`_GENERIC` ("main idea", "key contribution": the gist, which other rules answer; "key components"
    is a head)."""
    match = _HEAD.match(asking)
    if not match:
        return []
    head = list(dict.fromkeys(terms(match.group(1))))
    if len(head) < MIN_HEAD_TERMS or _GENERIC & set(head):
        return []
    return head


def head_first(picked: list, own: list, head: list[str], limit: int) -> list:
    """``picked`` (candidate sentences with ``text``, ``role``, ``score``) led by the sentence that holds
    every term of ``head`` (:func:`asked_head`): the first picked one that does, else the best-scored of
    ``own`` (the paper's candidates) that does; code links never; at most ``limit`` sentences."""
    if not head:
        return picked
    sayable = [c for c in own if c.role != "resource"]
    return lead_with(picked, sayable, lambda c: term_coverage(head, c.text) == 1.0, limit)


def lead_with(picked: list, own: list, holds: Callable[[Any], bool], limit: int) -> list:
    """``picked`` (candidate sentences with ``score``) led by a sentence for which ``holds`` is true: the
    first picked one, else the best-scored of ``own``; unchanged when none is; at most ``limit`` sentences.
    The asked head (:func:`head_first`) and a model asked for by name
    (:func:`paperchat.answer.model_names.model_first`) lead so."""
    best = next((c for c in picked if holds(c)), None)
    if best is None:
        best = max((c for c in own if holds(c)), key=lambda c: c.score, default=None)
    if best is None:
        return picked
    return [best] + [c for c in picked if c is not best][: limit - 1]
