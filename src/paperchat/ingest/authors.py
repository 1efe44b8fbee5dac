"""Authors of a paper as a list of names, from however a file gives them: a list (of names, or of
Semantic Scholar's and OpenAlex's objects), one string in any of the usual separators, or a spreadsheet
cell holding a list."""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from paperchat.core.text import clean_text, unescape_html


def author_list(value: Any) -> list[str]:
    """Authors as a list of cleaned names: a list item by item (text, or an object's name,
    :func:`_object_name`: ``None``, numbers and other objects are no names); a string split on ``;`` when it
    holds one, else on BibTeX's `` and `` when every part is "Last, First" ("Smith, John and Doe, Jane"),
    else on commas and "and" ("Ann Lee, Bo Chen and Cy Dee"); "Smith, Alice" alone is one name, and a
    string of several lines one name a line; a number is no name; HTML character references are decoded
    ("Ren&eacute;e"), in a list's names too. A string that is a JSON or Python list (a
    spreadsheet cell written by ``df.to_csv``) is read as that list. APA's "Sabbaghi, M., Kassianik, P."
    pairs each surname with its initials, and Scopus' or PubMed's "Paulus A.; Guo C." and "Qu X, Zhang Y"
    put the initials first ("A. Paulus", "X. Qu"). A list ending in "and others" or "et al." ends in
    :data:`OTHERS`, as BibTeX writes it."""
    if value is None or isinstance(value, (bool, int, float)):  # "authors": 42 names no one
        return []
    if isinstance(value, list):  # objects: "name" (Semantic Scholar), "display_name" (OpenAlex)
        names = [_object_name(a) if isinstance(a, dict) else a for a in value]
        if names and isinstance(names[-1], str) and _ET_AL.fullmatch(names[-1].strip()):
            return [n for n in author_list(names[:-1]) if n != OTHERS] + [OTHERS]
        # an item written "Last, First" ("Chang, Edward Y.") reads as a string's does: "Edward Y. Chang"
        return _initials_first(
            [
                _one_name(clean_text(unescape_html(a)))
                for a in names
                if isinstance(a, str) and a.strip()
            ]
        )
    text = clean_text(unescape_html(str(value)))
    if not text:
        return []
    # "Morel, Rudy and Han, Jiequn and others", "Alice Smith et al.": BibTeX's "others" ends the list (a
    # reference-manager session had "Morel and Rudy and Han and Jiequn and others")
    if (more := _AND_OTHERS.search(text)) and more.start():
        return [n for n in author_list(text[: more.start()]) if n != OTHERS] + [OTHERS]
    # a CSV cell holding a list: JSON, or pandas' Python repr
    if text.startswith("[") and text.endswith("]"):
        for parse in (json.loads, ast.literal_eval):
            try:
                parsed = parse(text)
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                continue
            if isinstance(parsed, list):
                return author_list(parsed)
    if "\n" in text:  # one name a line
        return [a for line in text.splitlines() for a in author_list(line)]
    if _LAST_FIRST.fullmatch(text):  # one author, "Smith, Alice" or "Smith, A. B."
        return [natural_order(text)]
    if text.count(",") == 1 and text.split(",")[1].strip().lower().rstrip(".") in SUFFIXES:
        return [text]  # "Martin Luther King, Jr."
    if ";" in text:
        parts = [natural_order(p) for p in text.split(";")]  # "Vaswani, Ashish; Shazeer, Noam" too
    elif " and " in text and _bibtex_names(text.split(" and ")):
        # BibTeX's "Smith, John and Doe, Jane", and mixed "Morel, Rudy and Edouard Oyallon" (a verifier's)
        parts = [natural_order(p) for p in text.split(" and ")]
    else:
        parts = re.split(
            r",\s*(?:(?:and|&)\s+)?|\s+(?:and|&)\s+", text
        )  # "Ann Lee, Bo Chen and Cy Dee"
        parts = _paired([a.strip() for a in parts if a.strip()])
    return _initials_first([a.strip() for a in parts if a.strip()])


def _bibtex_names(parts: list[str]) -> bool:
    """Whether BibTeX's " and " joins ``parts`` as names: each "Last, First" (:data:`_LAST_FIRST`) or a whole
    name of two words or more without a comma, one at least "Last, First"."""
    last_first = [bool(_LAST_FIRST.fullmatch(p.strip())) for p in parts]
    return any(last_first) and all(
        lf or ("," not in p and len(p.split()) >= 2) for p, lf in zip(parts, last_first)
    )


def _object_name(author: dict) -> Any:
    """An author object's name: Semantic Scholar's ``name``, OpenAlex's ``display_name``, CSL JSON's
    ``given`` and ``family`` (Zotero's export; a reference-manager session had its authors dropped) or
    ``literal``."""
    csl = " ".join(str(author[k]).strip() for k in ("given", "family") if author.get(k))
    return author.get("name") or author.get("display_name") or csl or author.get("literal")


#: The name BibTeX writes for authors a list leaves out ("and others"); a list's "et al." is read as it.
OTHERS = "others"
_ET_AL = re.compile(r"(?:and\s+)?(?:others|et\.?\s*al\.?)", re.I)
_AND_OTHERS = re.compile(r"(?:,?\s+and\s+(?:\d+\s+)?\{?others\}?\.?|,?\s+et\.?\s*al\.?)\s*$", re.I)

#: Initials alone: "M.", "J. A.", "J.-P."; or undotted, as PubMed writes them ("X", "JA").
_DOTTED = re.compile(r"(?:[A-Z]\.(?:\s*-?\s*)?)+")
_UNDOTTED = re.compile(r"[A-Z]{1,3}")
_ONE_WORD = re.compile(r"[A-Z][a-z][\w'-]*")


def _paired(parts: list[str]) -> list[str]:
    """APA's "Sabbaghi, M., Kassianik, P., Pappas, G." split on commas: every second part is a surname's
    dotted initials, so each pair is one name ("M. Sabbaghi"); other lists as they are. A lab's own corpus
    had stored six authors "Sabbaghi", "M.", ... (and BibTeX "Sabbaghi and M. and ...")."""
    if len(parts) >= 2 and not len(parts) % 2 and all(_ONE_WORD.fullmatch(p) for p in parts):
        # "Sabbaghi, Mahdi, Kassianik, Paul": one word each, so "Last, First" pairs (a verifying session)
        return [f"{first} {last}" for last, first in zip(parts[0::2], parts[1::2])]
    if len(parts) < 2 or len(parts) % 2 or not all(_DOTTED.fullmatch(p) for p in parts[1::2]):
        return parts
    if any(_DOTTED.fullmatch(p) for p in parts[0::2]):
        return parts
    return [f"{initials} {last}" for last, initials in zip(parts[0::2], parts[1::2])]


def _initials_first(parts: list[str]) -> list[str]:
    """Scopus' and PubMed's "Surname Initials" ("Paulus A.", "Qu X") as "A. Paulus", "X. Qu", when every
    name of the list is written so (dotted initials; undotted ones in a list of several names when one of
    them is a single letter, so "Wei LI, Ming WU" and a lone "Bob B" stay); other lists as they are."""
    split = [re.fullmatch(r"(\S.*?)\s+(\S+)", p) for p in parts]
    if not parts or not all(split):
        return parts
    tails = [m.group(2) for m in split]
    if all(_DOTTED.fullmatch(t) for t in tails):
        return [f"{m.group(2)} {m.group(1)}" for m in split]
    if (
        len(parts) >= 2
        and all(_UNDOTTED.fullmatch(t) for t in tails)
        and any(len(t) == 1 for t in tails)
    ):
        return [" ".join(c + "." for c in m.group(2)) + f" {m.group(1)}" for m in split]
    return parts


#: The lower-case particles of a surname ("van der Berg", "de la Torre").
PARTICLES = tuple("van von der den de di da del della du le la ten ter".split())
#: One name written "Last, First": a word (after lower-case particles: "van der Berg"), a comma, then one
#: word and its initials, or initials ("Smith, Alice", "Chang, Edward Y.", "Smith, A. B.").
_LAST_FIRST = re.compile(
    rf"(?:(?:{'|'.join(PARTICLES)})\s+)*[^\s,]+,\s*"
    r"(?:[^\s,.]+(?:\s+[A-Z]\.?)*|(?:[A-Z]\.\s*)+)"
)


def _one_name(name: str) -> str:
    """A list item: "Last, First" (:data:`_LAST_FIRST`) in natural order, other names as written."""
    return natural_order(name) if _LAST_FIRST.fullmatch(name) else name


#: Name suffixes, lower case without their dot ("Martin Luther King, Jr."): after a comma they are no
#: "Last, First", and no surname an author question matches.
SUFFIXES = frozenset("jr sr ii iii iv".split())


def natural_order(name: str) -> str:
    """A reference manager's "Last, First" as "First Last" ("Vaswani, Ashish" -> "Ashish Vaswani"), so names
    read alike however a file writes them; a suffix after the comma ("King, Jr.") and other names stay."""
    name = name.strip()
    if name.count(",") != 1:
        return name
    last, first = (p.strip() for p in name.split(","))
    if not last or not first or first.lower().rstrip(".") in SUFFIXES:
        return name
    return f"{first} {last}"


def close_names(typed: str, names, n: int = 3) -> list[str]:
    """The stored author ``names`` (strings, as written) closest to a ``typed`` name no author has, most alike
    first (:func:`difflib.get_close_matches` on the folded names, cutoff 0.85): "Sergei Levine" -> ["Sergey
    Levine"], "Stephan Gunneman" -> ["Stephan Günnemann"]. An author session's misspelt names had got
    only "no stored paper has an author named ...", where titles and labels get "did you mean"."""
    import difflib

    from paperchat.core.text import fold

    folded: dict[str, str] = {}
    for name in names:
        folded.setdefault(" ".join(fold(name).lower().replace("-", " ").split()), name)
    key = " ".join(fold(typed).lower().replace("-", " ").split())
    return [folded[k] for k in difflib.get_close_matches(key, list(folded), n=n, cutoff=0.85)]
