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
    """A record's ``year`` as an integer (``2025``, ``"2025"``, ``2025.0``, ``"2025-05-01"``); ``0`` for none
    (also pandas' ``nan`` and :data:`NO_DATE`'s "n.d."). Raises ``ValueError`` otherwise."""
    if value is None or value == "" or isinstance(value, float) and value != value:
        return 0
    if isinstance(value, str) and value.strip().lower() in NO_DATE:
        return 0
    m = _YEAR.fullmatch(str(value)) if not isinstance(value, bool) else None
    if not m or not isinstance(value, (int, float, str)) or str(value).strip().lower() == "nan":
        raise ValueError(f"'year' must be a year such as 2025, not {value!r}")
    return int(m.group(1))


def publication(fields: dict[str, Any], file_name: str) -> tuple[str, int]:
    """``(venue, year)`` of a paper from its extra ``fields`` (``venue``, ``year``, ``pmlr_url``, ``url``) and its
    corpus ``file_name`` (see the module docstring); ``""`` / ``0`` where unknown."""
    venue = " ".join(str(fields.get("venue") or "").split())
    year = parse_year(fields.get("year"))
    for url in (fields.get("pmlr_url"), fields.get("url")):
        m = _PMLR.search(str(url or ""))
        if m and int(m.group(1)) in PMLR_VOLUMES:
            known_venue, known_year = PMLR_VOLUMES[int(m.group(1))]
            venue, year = venue or known_venue, year or known_year
    m = _FILE.search(file_name or "")
    if m:
        venue, year = venue or VENUE_NAMES[m.group(1).lower()], year or int(m.group(2))
    return venue, year
