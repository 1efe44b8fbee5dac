"""A corpus record's fields under the names other tools give them: Zotero's "Abstract Note", a sheet's
"Paper Title", BibTeX's "booktitle" (:data:`FIELD_ALIASES`)."""

from __future__ import annotations

from typing import Any

#: Other names exports give a field (lower case): Zotero's "Abstract Note" / ``abstractNote``, arXiv's
#: ``summary``, Semantic Scholar's old ``paperAbstract``, a spreadsheet's "Paper Title", "Link" and
#: "Publication Year" (an own-corpus session had each refused or silently dropped). The field's own name wins.
FIELD_ALIASES = {
    "abstract": ("abstract note", "abstractnote", "summary", "paperabstract", "abstract text"),
    "title": ("paper title", "papertitle", "article title"),
    "authors": ("author(s)", "author names"),
    "url": ("link", "paper link", "paper url", "url link"),
    "year": ("publication year", "pub year", "issued"),  # CSL JSON's {"date-parts": [[2025, 7]]}
    # Zotero's CSV ("Conference Name", "Proceedings Title", "Publication Title"), BibTeX's "booktitle" and
    # "journal", Scopus's "Source title", CSL JSON's "container-title": the venue the filter reads (an
    # own-corpus session's --venue ICLR matched none of its Zotero rows)
    "venue": (
        "conference name",
        "conference",
        "booktitle",
        "proceedings title",
        "publication title",
        "journal",
        "source title",
        "container-title",
        "publication",
        "publicationvenue",
    ),
}


def with_aliases(rec: dict[str, Any]) -> dict[str, Any]:
    """``rec`` (lower-case keys) with each field of :data:`FIELD_ALIASES` it lacks taken from an alias."""
    out = dict(rec)
    for key, aliases in FIELD_ALIASES.items():
        if out.get(key) in (None, ""):
            found = next(
                (
                    rec[a]
                    for a in aliases
                    if rec.get(a) not in (None, "") and (key != "venue" or isinstance(rec[a], str))
                ),
                None,
            )  # a venue alias that is no text (CSL JSON's list, Semantic Scholar's object) is not one
            if found is not None:
                out[key] = found
    return out
