"""How a paper was presented, asked in a question: "Which unlearning papers were orals?", "How many spotlights are
there?", "the ICML 2025 oral about speculative decoding".

The ICML 2025 file gives each paper's presentation (108 orals, 211 spotlights, 2,413 posters), and the store
keeps it (:func:`paperchat.ingest.venue.presentation`). A question that names a kind is answered from the
stored papers of that kind: :func:`asked_presentation` reads the kind and the question without it, which the
engine then answers over those papers (a count, a list, or the question itself). Before (forty-fourth round:
a science journalist's and a survey author's sessions), the store dropped the field and such questions were
answered from any paper, with a note.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_KIND = r"(?P<kind>oral|spotlight|poster)s?"
_KIND2 = r"(?P<kind2>oral|spotlight|poster)s?"
_AS = r"(?:papers?|presentations?|talks?|works?)"
#: "were orals", "was presented as a spotlight", "accepted as an oral": dropped from the question.
_PREDICATE = re.compile(
    rf"\s*\b(?:(?:were|was|are|is|got)\s+)?(?P<not>not\s+)?(?:[a-z]+ed\s+)?"
    rf"(?:as|for)\s+(?:an?\s+)?{_KIND}(?:\s+{_AS})?\b"
    rf"|\s*\b(?:were|was|are|is)\s+(?P<not2>not\s+)?(?:an?\s+)?{_KIND2}(?:\s+{_AS})?(?=\s*[?.!]*\s*$)"
    r"|\s*\b(?:were|was|are|is)\s+(?P<not3>not\s+)?(?:presented|given)\s+(?P<orally>orally)\b",
    re.I,
)
#: "oral papers", "the ICML 2025 oral about ...", "spotlights": read as "papers" / "paper".
#: (not "generate posters or graphic designs", "put the spotlight on fairness": a verifier's, which had been
#: read as a kind and declined)
_NOUN = re.compile(
    rf"\b{_KIND}\s+{_AS}\b|\b(?P<one>an?|the)\s+(?:icml(?:\s+2025)?\s+)?(?P<kind2>oral|spotlight|poster)\b"
    r"(?=\s+(?:about|that|which|proposing|introducing|studying)\b)"
    r"|\b(?:how many|which|what|list|the|among|are|were|all)\s+(?:icml(?:\s+2025)?\s+)?"
    r"(?P<kind3>orals|spotlights|posters)\b(?!\s+or\b)",
    re.I,
)
#: A yes/no question about one paper ("Was FlatVI a spotlight?", "Did X get an oral?"): its record answers.
_ONE_PAPER = re.compile(r"^\s*(?:is|was|did|does|has|had)\b", re.I)


@dataclass(frozen=True)
class PresentationAsk:
    """A presentation kind a question asks about: ``kind`` (``"oral"``, ``"spotlight"`` or ``"poster"``) and
    ``rest``, the question without it ("Which unlearning papers?" for "Which unlearning papers were
    orals?")."""

    kind: str
    rest: str
    negated: bool = False  # "not orals": every other kind

    @property
    def said(self) -> str:
        """'presented as orals', or 'not presented as orals' (how a note says which papers were read)."""
        return f"{'not ' if self.negated else ''}presented as {self.kind}s"

    def holds(self, presentation: str) -> bool:
        """Whether a stored ``presentation`` is of the kind asked ("" is of none)."""
        return bool(presentation) and (presentation == self.kind) != self.negated


def asked_presentation(question: str) -> PresentationAsk | None:
    """The :class:`PresentationAsk` of ``question``, or ``None`` when it names no presentation kind as one
    ("oral" beside "papers", "talks" or "presentations", after "as" or "were", or as a plural noun)."""
    if _ONE_PAPER.match(question):
        return None
    m = _PREDICATE.search(question)
    if m:
        kind = "oral" if m.group("orally") else (m.group("kind") or m.group("kind2")).lower()
        rest = question[: m.start()] + question[m.end() :]
        negated = bool(m.group("not") or m.group("not2") or m.group("not3"))
        return PresentationAsk(kind, " ".join(rest.split()), negated)
    m = _NOUN.search(question)
    if m:
        kind = (m.group("kind") or m.group("kind2") or m.group("kind3")).lower().rstrip("s")
        word = f"{m.group('one')} paper" if m.group("one") else "papers"
        start, end = (m.start("kind3"), m.end("kind3")) if m.group("kind3") else m.span()
        rest = question[:start] + word + question[end:]
        return PresentationAsk(kind, " ".join(rest.split()))
    return None
