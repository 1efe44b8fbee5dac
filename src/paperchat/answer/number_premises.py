"""A number a question takes as given that its paper's abstract gives otherwise: "Why is TabFlex 10x faster
than TabPFN?" where TabFlex "can achieve over a 2× speedup compared to TabPFN".

A question that presupposes its claim (:data:`ASSUMING`: "why ...", "how does X ...", not "how many/much
...", which asks for the number) and states an amount, a number with the word after it ("10x", "five
orders of magnitude", "1,000 US dollars", "three times", "20%"), is a false premise when the abstract
states an amount of that same unit ("2×", "two orders of magnitude", "10 US dollars", "twice", "2%") and
never writes the question's number at all (in digits or as a word). :func:`changed_number` finds the pair;
the answerer abstains with a note naming both (:func:`number_note`), as it does for a premise the abstract
reverses (:mod:`paperchat.answer.premises`). Units are compared as written, "x", "×", "times" and
"-fold" as one, "%" and "percent" as one; numbers inside names ("GPT-4", "A100") and years are no amounts
(an audit of false premises: seven with a wrong number had all been answered with the sentence that
gives the right one).
"""

from __future__ import annotations

import re

#: Questions that take their claim as given (the number check reads no other).
ASSUMING = re.compile(
    r"^\s*(?:why\b|how\s+come\b|how\s+(?!many\b|much\b|long\b|fast\b|large\b|big\b|small\b|well\b|often\b|far\b|high\b|low\b)"
    r"(?:does|do|did|can|could|is|are|was|were)\b|what\s+(?:makes|explains|lets|allows|enables)\b)",
    re.I,
)
_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "thirty": 30, "fifty": 50, "hundred": 100,
    "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000,
}  # fmt: skip
_AGAIN = {"twice": 2, "thrice": 3}
_NUMBER = re.compile(
    r"(?<![\w.$^{\-])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(%|×|x\b|-?fold\b|-?[a-zA-Z]+\b)?"
    r"|\b(" + "|".join(_WORDS) + r")(?:[\s-]+(?:fold\b|percent\b|([a-z]+)\b))?"
    r"|\b(twice|thrice)\b",
    re.I,
)
_UNITS = {"×": "x", "x": "x", "times": "x", "fold": "x", "-fold": "x", "percent": "%"}
_STOP = frozenset("of and or the a an to in on for with by from than as at is are was were".split())


def amounts(text: str) -> list[tuple[float, str]]:
    """``(number, unit)`` pairs of ``text``: "10x faster" ``(10, "x")``, "five orders of magnitude"
    ``(5, "orders")``, "twice" ``(2, "x")``; a number with no word after it has unit ``""``. Years
    (1900-2099 with no unit) and numbers inside names are left out."""
    found = []
    for m in _NUMBER.finditer(text):
        if m.group(5):
            found.append((float(_AGAIN[m.group(5).lower()]), "x"))
            continue
        if m.group(1):
            value = float(m.group(1).replace(",", ""))
            unit = (m.group(2) or "").lower()
            if not unit and re.fullmatch(r"(?:19|20)\d\d", m.group(1)):
                continue
        else:
            value = float(_WORDS[m.group(3).lower()])
            tail = m.group(0)[len(m.group(3)) :].strip(" -").lower()
            unit = tail
        # "8-bit" is 8 bits (a course TA's "Why does QuantSpec use an 8-bit ...")
        unit = _UNITS.get(unit.lstrip("-"), unit.lstrip("-"))
        found.append((value, "" if unit in _STOP else unit))
    return found


def changed_number(question: str, abstract: str) -> tuple[str, str] | None:
    """``(the question's amount, the abstract's)`` as written when ``question`` takes as given an amount
    whose unit the abstract states only with other numbers and whose number it never writes; else ``None``."""
    if not ASSUMING.search(question):
        return None
    said = amounts(abstract)
    numbers = {v for v, _ in said}
    for m in _NUMBER.finditer(question):
        for value, unit in amounts(m.group(0)):
            if not unit or value in numbers:
                continue
            other = next((v for v, u in said if u == unit), None)
            if other is not None:
                shown = next(
                    (
                        n.group(0)
                        for n in _NUMBER.finditer(abstract)
                        if amounts(n.group(0)) == [(other, unit)]
                    ),
                    f"{other:g} {unit}",
                )
                return m.group(0).strip(), shown.strip()
    return None


def number_note(question: str, paper, name: str) -> str:
    """The note for an amount of ``question`` that ``paper``'s abstract (``full_text``) gives otherwise
    (:func:`changed_number`), naming the paper as ``name``; ``""`` when there is none."""
    changed = changed_number(question, paper.full_text)
    if not changed:
        return ""
    return (
        f"the abstract of {name} says '{changed[1]}' where the question says '{changed[0]}': "
        "check the question's premise"
    )
