"""Where and when a paper appeared (venue, year): as its corpus file says, else read from what is known of it.

In order, for each of venue and year:

1. the record's own ``venue`` / ``year`` fields (JSONL or CSV columns, or a
   ``--metadata`` line);
2. a PMLR proceedings url (``pmlr_url``, or ``url``) of a volume in
   :data:`PMLR_VOLUMES`: the bundled corpus's metadata and the ICML 2025
   conference file carry ``https://proceedings.mlr.press/v267/...``;
3. a corpus file named for a venue and year (``icml2025_abstracts.jsonl``,
   ``neurips-2024.csv``).

Otherwise it stays unknown (``""`` and ``0``): such a paper is still stored,
listed and exported, and no ``--venue`` or ``--year`` filter matches it.
"""

from __future__ import annotations

import re
from typing import Any

#: Venue names as written in file names (lower case) -> as shown.
VENUE_NAMES = {
    "icml": "ICML",
    "neurips": "NeurIPS",
    "nips": "NeurIPS",
    "iclr": "ICLR",
    "aaai": "AAAI",
    "ijcai": "IJCAI",
    "acl": "ACL",
    "emnlp": "EMNLP",
    "naacl": "NAACL",
    "cvpr": "CVPR",
    "iccv": "ICCV",
    "eccv": "ECCV",
    "colt": "COLT",
    "aistats": "AISTATS",
    "uai": "UAI",
    "colm": "COLM",
    "kdd": "KDD",
    "tmlr": "TMLR",
}
#: PMLR volumes of the ICML proceedings (proceedings.mlr.press/v<volume>/...).
PMLR_VOLUMES = {267: ("ICML", 2025), 235: ("ICML", 2024), 202: ("ICML", 2023)}

_FILE = re.compile(
    r"(?<![a-z])("
    + "|".join(sorted(VENUE_NAMES, key=len, reverse=True))
    + r")[ _.-]?((?:19|20)\d\d)(?!\d)",
    re.I,
)
_PMLR = re.compile(r"proceedings\.mlr\.press/v(\d+)/")


#: A year as files write it: "2025", pandas' "2025.0" (a column with a gap is a float column), an ISO date
#: "2025-05-01" or "2025-05".
_YEAR = re.compile(r"\s*(\d{4})(?:\.0+|-\d\d(?:-\d\d)?)?\s*")


#: What reference managers write for an unknown year (Zotero's "n.d."): read as no year, not an error (an
#: own-corpus session had the whole record refused).
NO_DATE = frozenset(
    {"n.d.", "n.d", "nd", "no date", "unknown", "forthcoming", "in press", "-", "?"}
)


def parse_year(value: Any) -> int:
    """A record's ``year`` as an integer (``2025``, ``"2025"``, ``2025.0``, ``"2025-05-01"``, CSL JSON's
    ``{"date-parts": [[2025, 7]]}``); ``0`` for none (also pandas' ``nan`` and :data:`NO_DATE`'s "n.d."). Raises ``ValueError`` otherwise."""
    if isinstance(
        value, dict
    ):  # CSL JSON's date: {"date-parts": [[2025, 7]]}, or {"raw": "2025-07"}
        parts = value.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            value = parts[0][0]
        else:
            value = value.get("raw") or value.get("literal")
    if value is None or value == "" or isinstance(value, float) and value != value:
        return 0
    if isinstance(value, str) and value.strip().lower() in NO_DATE:
        return 0
    m = _YEAR.fullmatch(str(value)) if not isinstance(value, bool) else None
    if not m or not isinstance(value, (int, float, str)) or str(value).strip().lower() == "nan":
        raise ValueError(f"'year' must be a year such as 2025, not {value!r}")
    return int(m.group(1))


#: "ICML 2025", "NeurIPS'24", "ICML": a short venue name and perhaps its year.
_SHORT = re.compile(
    r"(" + "|".join(sorted(VENUE_NAMES, key=len, reverse=True)) + r")[\s-]*'?((?:19|20)?\d\d)?",
    re.I,
)
#: What a venue field adds around the venue: "Proc. ICML 2025", "The 42nd ...", "ICML 2025 (Oral)",
#: "ICML 2025 Spotlight" (a verifier's forms).
_AROUND = re.compile(
    r"^(?:proc(?:eedings)?\.?\s+(?:of\s+)?(?:the\s+)?|the\s+)"
    r"|\s*\(?\b(?:oral|spotlight|poster)(?:\s+(?:presentation|paper|track))?\)?\s*$",
    re.I,
)
#: ICML's long names: "International Conference on Machine Learning", "Proceedings of the 42nd International
#: Conference on Machine Learning", OpenReview's "Forty-second International Conference on Machine Learning".
_ICML = re.compile(
    r"(?:proceedings\s+of\s+the\s+)?(?:(?P<ordinal>\d+)(?:st|nd|rd|th)\s+|(?P<word>[a-z]+-?[a-z]+)\s+)?"
    r"international\s+conference\s+on\s+machine\s+learning(?:\s*\(ICML(?:\s*'?(?P<paren>(?:19|20)\d\d))?\))?"
    r"(?:\s*,?\s*(?P<year>(?:19|20)\d\d))?",
    re.I,
)
_ORDINALS = {"fortieth": 40, "forty-first": 41, "forty-second": 42, "forty-third": 43}


def canonical_venue(venue: str) -> tuple[str, int]:
    """``(venue, year)`` of a venue field written in one of the usual ways: "ICML 2025", "ICML'25",
    "NeurIPS 2024", ICML's long names (:data:`_ICML`, the N-th ICML being of year 1983 + N) as the short
    name and the year they give (``0``: none); any other venue ("ICML 2025 Workshop on ...") as it is.
    A reference-manager session had four spellings of ICML 2025, of which only "ICML" got PMLR's BibTeX
    fields and ``--venue icml`` matched one."""
    bare = _AROUND.sub("", venue).strip() or venue
    if m := _SHORT.fullmatch(bare):
        year = int(m.group(2)) if m.group(2) else 0
        return VENUE_NAMES[m.group(1).lower()], year + 2000 if 0 < year < 100 else year
    if m := _ICML.fullmatch(bare):
        if m.group("word") and m.group("word").lower() not in _ORDINALS:
            return venue, 0
        nth = int(m.group("ordinal") or 0) or _ORDINALS.get((m.group("word") or "").lower(), 0)
        year = int(m.group("year") or m.group("paren") or 0)
        return "ICML", year or (1983 + nth if nth else 0)
    return venue, 0


def publication(fields: dict[str, Any], file_name: str) -> tuple[str, int]:
    """``(venue, year)`` of a paper from its extra ``fields`` (``venue``, ``year``, ``pmlr_url``, ``url``) and its
    corpus ``file_name`` (see the module docstring); ``""`` / ``0`` where unknown."""
    venue, year = canonical_venue(" ".join(str(fields.get("venue") or "").split()))
    year = parse_year(fields.get("year")) or year
    for url in (fields.get("pmlr_url"), fields.get("url")):
        m = _PMLR.search(str(url or ""))
        if m and int(m.group(1)) in PMLR_VOLUMES:
            known_venue, known_year = PMLR_VOLUMES[int(m.group(1))]
            venue, year = venue or known_venue, year or known_year
    m = _FILE.search(file_name or "")
    if m:
        venue, year = venue or VENUE_NAMES[m.group(1).lower()], year or int(m.group(2))
    return venue, year


#: How a paper was presented, as a corpus writes it ("Oral", "spotlight poster", "ICML 2025 (Oral)").
_KIND = re.compile(r"\b(oral|spotlight|poster)s?\b", re.I)


def presentation(fields: dict[str, Any]) -> str:
    """How a paper was presented, ``"oral"``, ``"spotlight"`` or ``"poster"``, from its extra ``fields``: the
    ``presentation`` field (the ICML 2025 file's: 108 orals, 211 spotlights, 2,413 posters), else a kind its
    ``venue`` writes ("ICML 2025 (Oral)"); ``""`` when neither says. A spotlight is a spotlight though it
    was shown as a poster too ("spotlight poster")."""
    for value in (fields.get("presentation"), fields.get("venue")):
        kinds = {m.lower() for m in _KIND.findall(str(value or ""))}
        for kind in ("oral", "spotlight", "poster"):
            if kind in kinds:
                return kind
    return ""
