"""The frames a comparison is asked in, with two slots for its papers: "How does A differ from B" and
"Compare A with B" (:func:`frames`), and the papers their slots describe (:func:`described_slots`).

Used by :mod:`paperchat.answer.mentions`, which reads the slots as mentions.
"""

from __future__ import annotations

import re

from paperchat.core.terms import terms

#: "How does A differ from B (in ...)", "how do A and B compare": the two slots of a comparison's frame. A
#: preposition a participle governs is no slot end: "the model conditioned on X", "the one built on Y". The
#: first slot may hold a relative clause between commas ("How does X, which builds ..., differ from ...").
SLOT_END = re.compile(
    r"(?<![a-z]ed)(?<!\bbuilt)\s+(?:in|on|when|for|regarding|at|as|under)\b|[,;:?.]|$", re.I
)
FRAME = re.compile(
    r"\bhow\s+(?:does|do|did|is|are)\s+(?P<a>[^,;:?]+?(?:,\s+(?:which|that|who)\b[^,;:?]+,)?)\s+"
    r"(?:differ|compare|contrast|stack up)\s+"
    rf"(?:from|with|to|against)\s+(?P<b>[^,;:?]+?)(?={SLOT_END.pattern})",
    re.I,
)
#: "How do A and B compare / differ": :data:`FRAME`'s slots joined by "and"; the second starts with an article
#: or a capital ("how do the approach that ... and the relaxed bound compare").
JOINED_FRAME = re.compile(
    r"\bhow\s+(?:do|did|would|might)\s+(?P<a>[^,;:?]+?)\s+and\s+(?P<b>(?:(?i:the|a|an)\s|(?-i:[A-Z0-9]))[^,;:?]+?)\s+"
    r"(?:differ|compare|contrast|stack up)\b",
    re.I,
)

#: The imperative frame, "Compare A with B: ...", "Contrast the A paper against B ...": its slots as
#: :data:`FRAME`'s. The slots part at the first joint word before an article ("... with the one that ..."),
#: else at the first before a capital ("Compare Quamba2 and QuEST").
IMPERATIVE_FRAMES = tuple(
    re.compile(
        r"(?:^|(?<=[.:;?!]\s))(?:please\s+)?(?:compare|contrast)\s+(?P<a>[^,;:?]+?)\s+"
        rf"(?:with|against|versus|vs\.?|to|and)\s+(?P<b>{start}[^,;:?]+?)(?={SLOT_END.pattern})",
        re.I,
    )
    for start in (r"(?i:the|a|an)\s", r"(?-i:[A-Z0-9])")
)


def frames(question: str) -> list[re.Match]:
    """The comparison frames of ``question`` with two slots ``a`` and ``b``: "How does A differ from B",
    "how do A and B compare" (:data:`JOINED_FRAME`), and the imperative "Compare A with B" (:data:`IMPERATIVE_FRAMES`, the first that reads it)."""
    found = list(FRAME.finditer(question))

    def after_found(frame: re.Pattern) -> list[re.Match]:  # frames past every one found so far
        return [f for f in frame.finditer(question) if all(f.start() >= g.end() for g in found)]

    found += after_found(JOINED_FRAME)
    for frame in IMPERATIVE_FRAMES:
        more = after_found(frame)
        if more:
            return found + more
    return found


def described_slots(question: str, pointers: list, min_terms: int) -> dict[int, int]:
    """A slot of a frame (:func:`frames`) led by an article describes a paper (added to ``pointers``, ``(start, end)`` pairs).

    "How does the weak-to-strong jailbreak differ from PANDAS ...". The description ends where the slot
    does ("... between LLMs | in how the vectors are obtained": the ask follows), or at the next slot
    end once it holds ``min_terms`` content terms ("the paper | on transferring ...").
    Returns where each such description ends, by where it starts.
    """
    ends: dict[int, int] = {}
    for frame in frames(question):
        for slot in ("a", "b"):
            start = frame.start(slot)
            if not re.match(r"(?:the|a|an)\s", frame.group(slot), re.I):
                continue
            if all(not (s <= start < e) for s, e in pointers):
                pointers.append((start, start))
            end = frame.end(slot)
            while len(terms(question[start:end])) < min_terms and end < len(question):
                more = SLOT_END.search(question, end + 1)
                end = more.start() if more else len(question)
            if any(s == start for s, _ in pointers):
                ends.setdefault(start, end)
                # "the work that blends ... through a two-parameter divergence": one description, not two
                pointers[:] = [(s, e) for s, e in pointers if not start < s < end]
    return ends
