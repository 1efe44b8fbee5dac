"""Short readable labels for papers that have no title.

A label is the name of the method, model or benchmark the abstract introduces
("ConfPO", "CROW", "GNN+", "LightGTS"), found by the patterns authors use to
name their contribution: "we introduce/propose/present X", "X, a ...",
"called/named/dubbed/termed X", "X (Expanded Name)", an opening "X is a ...". When no such name is
found, the label is the abstract's opening words, cut to about 60 characters.
"""

from __future__ import annotations

import re

from paperchat.core.terms import looks_like_name as _looks_like_name

# A name: has a capital letter or digit after the first char, or is all caps;
# may carry +, -, digits, superscripts in LaTeX ($K^2$IE) are skipped.
_NAME = r"(?P<name>[A-Za-z][A-Za-z0-9]*(?:[-+][A-Za-z0-9]*)*\+?)"
_INTRO = re.compile(
    r"\b(?:we|We|this paper|This paper|this work|This work|paper)\s+"
    r"(?:first\s+|then\s+|further\s+)?(?:introduce|introduces|propose|proposes|present|presents|develop|develops|"
    r"design|designs|call|term|name|dub|establish)\s+(?:a\s+|an\s+|the\s+)?(?:new\s+|novel\s+)?"
    r"(?:\w+\s+){0,6}?" + _NAME
)
_CALLED = re.compile(
    r"\b(?:called|named|dubbed|termed|coined|namely)\s+\$?\\?(?:textbf\{|textit\{)?\**" + _NAME
)
_APPOSITIVE = re.compile(
    r"(?:^|[.;:]\s+|,\s+)" + _NAME + r"(?:\s*\([^)]{3,80}\))?,\s+(?:a|an|the)\s"
)
_INTRO_ACRONYM = re.compile(
    r"\b(?:introduce|introduces|introducing|propose|proposes|proposing|present|presents|presenting|develop|develops|"
    r"developing)\s[^.]{0,120}?"
    r"\((?P<name>[A-Z][A-Za-z0-9+\-]{1,14})\)"
)
_BOLD_INTRO = re.compile(
    r"\b(?:introduce|introduces|propose|proposes|present|presents)\s+[^.*]{0,80}?(?<!\w)\*\*(?P<name>[A-Z][\w+-]{1,24})\*\*(?!\w)"
)
_PROPOSED = re.compile(
    r"\b(?:the proposed|our)\s+(?:method|approach|framework|model|algorithm|system|tool|technique|"
    r"architecture|pipeline|network|benchmark),?\s+(?:called\s+|named\s+)?" + _NAME
)
_PAREN = re.compile(r"\((?P<name>[A-Z][A-Za-z0-9+\-]{1,14})\)")
_WHICH = re.compile(r",\s+" + _NAME + r",\s+(?:which|that)\s")
#: An acronym in the plural: capitals, then a lower-case "s" ("SAEs", "LVLMs", "MPNNs").
_PLURAL_ACRONYM = re.compile(r"[A-Z][A-Z0-9-]*[A-Z]s")
#: An abstract that opens by defining its name: "BOMNet is a parser that ..." (not "GPT-4 has shown ...": an
#: opening about another model).
_OPENS_WITH = re.compile(r"^" + _NAME + r"\s+(?:is|are)\s+(?:a|an)\s")


def derive_label(abstract: str, max_chars: int = 60) -> str:
    """A short label for a title-less abstract (see the module docstring).

    Returns a non-empty string of at most about ``max_chars`` characters.
    """
    text = re.sub(r"\s+", " ", abstract).strip()
    bold = _BOLD_INTRO.search(text)  # "we introduce **Habi**, ..."
    if bold:
        return bold.group("name")
    # Plain-text view: drop Markdown emphasis and LaTeX font commands around names.
    plain = re.sub(r"\\(?:text(?:bf|it|sc|tt)|emph)\{([^}]*)\}", r"\1", text)
    plain = plain.replace("*", "").replace("$", "").replace("^", "")
    for pattern in (_PROPOSED, _INTRO_ACRONYM, _CALLED, _INTRO, _WHICH, _APPOSITIVE, _OPENS_WITH):
        for match in pattern.finditer(plain):
            name = match.group("name")
            # a name the abstract used before it "proposes" it names the field ("a method for FL"), not
            # the paper's coinage
            if _looks_like_name(name) and (
                pattern is not _INTRO
                or not re.search(rf"\b{re.escape(name)}\b", plain[: match.start()])
            ):
                return name
    # Else a coined acronym defined in parentheses and used again later; a plural one ("attention heads
    # (AHs)", "sparse autoencoders (SAEs)") names the things the paper studies, not the paper
    for match in _PAREN.finditer(plain):
        name = match.group("name")
        if (
            _looks_like_name(name)
            and plain.count(name) >= 3
            and not _PLURAL_ACRONYM.fullmatch(name)
        ):
            return name
    words = text.split()
    label = ""
    for word in words:
        if len(label) + len(word) + 1 > max_chars:
            return label + "…"
        label = f"{label} {word}".strip()
    return label


#: One-word title heads that say what kind of paper it is, not its name.
_GENERIC_HEADS = frozenset(
    "position survey review tutorial benchmarking revisiting rethinking towards understanding "
    "perspective overview commentary abstract introduction".split()
)


def short_label(title: str, abstract: str) -> str:
    """A paper's short name, for a title "Name: subtitle" or an abstract that introduces a name.

    In order: a coined name heading the title ("ConfPO: Exploiting ..." -> "ConfPO"), or one capitalised
    word heading it ("Otter: ..."); the name the abstract introduces ("Habi"); a short title head (up to
    four words before a colon); the title; the abstract's opening words (:func:`derive_label`).
    """
    title = " ".join(title.replace("$", "").replace("^", "").split())
    head = title.split(":", 1)[0].strip() if ":" in title else ""
    if head and len(head.split()) <= 2 and all(_looks_like_name(w) for w in head.split()):
        return head
    # one capitalised word before the colon names the paper too ("Otter: Generating Tests ...", "Sundial: ..."),
    # unless it says what kind of paper it is ("Position: ...", "Survey: ...")
    if re.fullmatch(r"[A-Z][\w-]+", head) and head.lower() not in _GENERIC_HEADS:
        return head
    derived = derive_label(abstract) if abstract else ""
    opening = " ".join(abstract.split())
    if derived and not opening.startswith(
        derived.rstrip("…")
    ):  # a name found, not the opening words
        return derived
    if head and len(head.split()) <= 4 and len(head) <= 40:
        return head
    return title or derived
