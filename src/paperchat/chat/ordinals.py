"""Ordinals in a chat follow-up: "the second one", "the first and the third", "paper 2", "[3]", "the last two".

:func:`paperchat.chat.followup.find_reference` reads them; :func:`places` turns them into 1-based places in
the list the previous answer showed, and :func:`apart` finds two ordinals written apart ("how does the
second one differ from the first?"), each put in place by its own paper's name.
"""

from __future__ import annotations

import re

_WORDS = "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()
_SUFFIXES = ("st", "nd", "rd") + ("th",) * 7
_ORDINALS = (
    {w: i for i, w in enumerate(_WORDS, 1)}
    | {f"{i}{s}": i for i, s in enumerate(_SUFFIXES, 1)}
    | {"last": -1, "former": 1, "latter": -1}
)
NOUNS = r"(?:paper|papers|method|methods|approach|approaches|model|models|work|works|framework|frameworks|technique|techniques|algorithm|algorithms|study|studies|article|articles|system|architecture|source|one|ones|proposal|result)"
SINGULAR_NOUNS = r"(?:paper|method|approach|model|work|framework|technique|algorithm|study|article|system|architecture|proposal|benchmark|dataset|tool|pipeline|estimator|network|one)"

#: An ordinal that counts sources, "former" and "latter" aside (they point at one of two, never in a list).
ORDINAL_WORD = (
    r"(?:first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|sixth|6th|seventh|7th|eighth|8th|ninth|9th|"
    r"tenth|10th|eleventh|twelfth|\d{1,2}(?:st|nd|rd|th)|last)"
)
# "the second one", "the last paper", "the latter", "the 2nd method"
ORDINAL = re.compile(
    rf"\bthe\s+({ORDINAL_WORD}|former|latter)"
    r"(?:\s+"
    + NOUNS
    + r"\b(?!\s+(?:of|that|which|where|to)\b)"  # "the first one" refers, whatever verb follows
    + r"|(?=\s*(?:'s|[?.!,;:)]|$|\s+(?:"
    + r"use|uses|used|do|does|did|is|was|propose|proposes|introduce|introduces|report|reports|achieve|achieves|show|shows|evaluate|evaluates|handle|handles|work|works|have|has|claim|claims|say|says|mention|mentions|compare|improve|improves|differ|differs|address|addresses|study|studies|need|needs|rely|relies|solve|solves|get|gets|reach|reaches|test|tests|define|defines|require|requires|apply|applies|about|on|in|for|and|or|vs|versus|than|from|with)\b)))",
    re.I,
)
# several sources at once: "the first and the second", "the first and third ones", "the 1st, 2nd and 4th papers"
ORDINAL_LIST = re.compile(
    rf"\bthe\s+{ORDINAL_WORD}(?:\s+(?:one|paper|method))?(?:\s*,\s*(?:the\s+)?{ORDINAL_WORD})*"
    rf"\s*,?\s+(?:and|&|vs\.?|versus|with|to)\s+(?:the\s+)?{ORDINAL_WORD}(?:\s+{NOUNS})?\b",
    re.I,
)
# "the first two", "the last three papers", "the top 2"
FIRST_N = re.compile(
    r"\bthe\s+(first|top|last)\s+(two|three|four|five|2|3|4|5)(?:\s+" + NOUNS + r")?\b", re.I
)
COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5}
# "paper 2", "source #3", "[2]", "number 2"
NUMBERED = re.compile(
    r"(?:\b(?:paper|source|reference|result|number|no\.)\s*#?\s*(\d{1,2})\b|\[(\d{1,2})\])", re.I
)


def ordinal_value(word: str) -> int:
    """The 1-based place an ordinal names ("second" 2, "11th" 11, "last" -1): past the list's end, the
    resolver says how many papers it shows rather than not seeing a reference."""
    word = word.lower()
    return _ORDINALS.get(word) or int(re.match(r"\d+", word).group(0))


def places(ordinals: tuple[int, ...], count: int) -> list[int]:
    """The 1-based places ``ordinals`` name in a list of ``count`` papers ("the last", ``-1``, is ``count``);
    a place past the list stays as asked, for the caller to refuse."""
    return [count + 1 + n if n < 0 else n for n in ordinals]


def apart(question: str) -> list[re.Match]:
    """The ordinals of ``question`` written apart, each a reference of its own ("how does the second one
    differ from the first?", "is the latter faster than the former?"), in order; empty when it holds fewer
    than two. An area chair's "how does the second one differ from the first?" had been read as the second
    alone, and answered with its sentences."""
    found = list(ORDINAL.finditer(question))
    return found if len(found) >= 2 else []
