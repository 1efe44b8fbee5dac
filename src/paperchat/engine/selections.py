"""A chat follow-up that selects among the papers it refers to: "which of these use diffusion?".

After a list ("Which papers study backdoor attacks?", ten papers), "which of these use diffusion?" asks
which of the ten write about diffusion. Answered from all ten, the follow-up had quoted every one of
them, though none writes "diffusion". The papers kept are those whose title and abstract hold every
term (BM25's stemmed terms, :meth:`paperchat.store.bm25.BM25Index.terms_of`) of the words after the
selecting verb; when none does, the answer says so and cites nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperchat.store.bm25 import CONVERSATIONAL

#: "which of these use ...", "which of them target ...", "which ones are about ...", "which of the papers
#: mention ...", "which of these are evaluated on ...": the reference, then the selecting verb (any word but
#: an auxiliary, whose question asks something else: "which of these is the most recent?", unless a passive
#: participle follows it), then what selects
_SELECTS = re.compile(
    r"^\s*which\s+(?:of\s+(?:these|those|them|the\s+(?:\w+\s+)?(?:papers|ones|works|methods))"
    r"(?:\s+(?:papers|ones|works|methods))?|ones)\s+"
    r"(?:(?:is|are|was|were)\s+(?:about|on|[a-z]+(?:ed|en))\b"
    # "which of them are benchmarks?", "which of these is a survey?": a kind of paper selects
    r"|(?:are|were)(?=\s+[a-z][\w-]*s\s*[?!.]?\s*$)|(?:is|was)\s+an?(?=\s)|(?!(?:is|are|was|were|has|have|had|do|does|did|can|could|"
    r"would|should|will|may|might)\b)[a-z][\w-]*)\s+(?P<what>[^?!.]+)",
    re.I,
)

#: Words that rank the papers rather than select them: "which of these achieves the highest accuracy?",
#: "which ones use less memory than X?" compare the papers, which all answer.
_RANKS = re.compile(
    r"\b(?:most|least|best|worst|highest|lowest|largest|smallest|fastest|slowest|strongest|newest|latest|"
    r"earliest|more|less|fewer|better|worse|higher|lower|faster|slower|than)\b",
    re.I,
)


@dataclass
class Selection:
    """Which of the referred papers a selecting follow-up keeps: ``kept`` (paper ids, in the referred order)
    of ``referred``, by the ``words`` of the question that select (as written)."""

    kept: list[str]
    referred: list[str]
    words: str

    def none_text(self) -> str:
        """The answer when no referred paper holds the words."""
        return (
            f'None of the {len(self.referred)} papers of the previous answer writes "{self.words}" in its '
            "title or abstract."
        )

    def note(self) -> str:
        """The note when some papers hold the words (:attr:`kept` of :attr:`referred`)."""
        verb, which = ("writes", "it") if len(self.kept) == 1 else ("write", "those")
        return (
            f"{len(self.kept)} of the {len(self.referred)} papers of the previous answer {verb} "
            f'"{self.words}"; the answer is from {which}'
        )


def select(question: str, referred: list[str], texts: dict[str, str], lexicon) -> Selection | None:
    """The :class:`Selection` a follow-up ``question`` makes among the ``referred`` paper ids (``texts``: id
    -> title and abstract), or ``None`` when it selects nothing (no selecting form, fewer than two papers,
    no term, or no ``lexicon``)."""
    match = _SELECTS.match(question)
    if not match or len(referred) < 2 or lexicon is None or _RANKS.search(match.group("what")):
        return None
    # "are evaluated on Atari": what selects is "Atari"
    words = re.sub(
        r"^(?:on|in|with|by|for|to|at|from|against)\s+", "", match.group("what").strip(), flags=re.I
    )
    wanted = lexicon.terms_of(words) - CONVERSATIONAL
    if not wanted:
        return None
    from paperchat.answer.premises import denied_terms

    kept = [pid for pid in referred if pid in texts and wanted <= lexicon.terms_of(texts[pid])]
    # not a paper writing them only under a negation: "which of these use a draft model?" had kept ASD,
    # which "does not require any auxiliary draft models" (a notebook session)
    kept = [pid for pid in kept if not denied_terms(words, texts[pid])]
    return Selection(kept, list(referred), words)
