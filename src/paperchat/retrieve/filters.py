"""Filters on which papers retrieval may return: author, venue, year, paper ids.

A :class:`Filters` is resolved once per store revision to the set of
matching paper ids (:func:`matching_ids`), from the stored paper records;
every retriever is then restricted to that set (the dense searches and
BM25 alike, see :meth:`paperchat.retrieve.hybrid.HybridRetriever.retrieve`),
so the top-k is filled from matching papers rather than cut down after
retrieval. Chroma's ``where`` cannot match a substring inside a list of
authors, hence ids.

Matching: ``author`` is words of any author's name, in any order, case and
accents ("hinton" and "Hinton, Geoffrey" match "Geoffrey E. Hinton", "li" matches
Bo Li but not Lin; a one-letter word is an initial); ``venue`` matches
whole words of the venue in any case ("icml" matches "ICML", "acl" does not
match "NAACL"); ``year`` is equal; ``papers`` are ids (a merged duplicate's
id names the kept paper), any of them. Given together, a paper must match
all of them. A filter that matches no paper raises :class:`PaperchatError`
naming it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from paperchat.core.errors import PaperchatError
from paperchat.core.text import fold
from paperchat.ingest.records import PaperRecord, resolve_id


@dataclass(frozen=True)
class Filters:
    """Which papers may be retrieved (see the module docstring); an empty one lets every paper through.

    ``author`` and ``venue`` are text, ``year`` a year (``2025``), ``papers`` paper ids.
    """

    author: str | None = None
    venue: str | None = None
    year: int | None = None
    papers: tuple[str, ...] = ()

    @classmethod
    def of(
        cls,
        author: str | None = None,
        venue: str | None = None,
        year: int | None = None,
        papers: Iterable[str] | None = None,
    ) -> Filters:
        """Filters from loose values: blank text and an empty id list mean "no filter"."""
        author = " ".join((author or "").split()) or None
        venue = " ".join((venue or "").split()) or None
        ids = tuple(dict.fromkeys(p.strip() for p in (papers or ()) if p and p.strip()))
        return cls(author, venue, int(year) if year is not None else None, ids)

    def __bool__(self) -> bool:
        return bool(self.author or self.venue or self.year is not None or self.papers)

    def parts(self) -> list[tuple[str, str]]:
        """Each filter given, as ``(flag, value)``: ``[("--author", "Hinton"), ("--year", "2025")]``."""
        out = [
            ("--author", self.author),
            ("--venue", self.venue),
            ("--year", None if self.year is None else str(self.year)),
        ]
        out += [("--paper", pid) for pid in self.papers]
        return [(flag, value) for flag, value in out if value]

    def describe(self) -> str:
        """The filters as flags, for messages: ``--author "Hinton" --year 2025``."""
        return " ".join(
            f'{flag} "{value}"' if flag in ("--author", "--venue") else f"{flag} {value}"
            for flag, value in self.parts()
        )

    def to_json(self) -> dict:
        """``{"author", "venue", "year", "papers"}`` (the MCP tools' ``filters`` argument)."""
        return {
            "author": self.author,
            "venue": self.venue,
            "year": self.year,
            "papers": list(self.papers),
        }


#: Characters an author or venue filter may have: a 60,000-character author had taken 10 s to match, holding
#: the MCP server, and its error had echoed it whole (a break-it session).
MAX_FILTER_CHARS = 300


def unusable_value(name: str, value: str, shown: str) -> str:
    """Why an author or venue ``value`` given as ``name`` (``--author``, ``author``) filters nothing, or ``""``:
    empty, or without a letter or digit (``shown``: the value as the caller writes it, ``author='...'``), which
    would match every paper, or longer than :data:`MAX_FILTER_CHARS`; the CLI and the Python API refuse it in
    these words."""
    if len(value) > MAX_FILTER_CHARS:
        return f"{name} is {len(value):,} characters long; a name has at most {MAX_FILTER_CHARS}"
    if any(ch.isalnum() for ch in value):
        return ""
    if not value.strip():
        return f"{name} is empty; leave it out to search every paper"
    return f"{shown} holds no letter or digit; give a name, or leave it out"


def _venue_matches(wanted: str, venue: str) -> bool:
    return (
        bool(venue)
        and re.search(r"(?<!\w)" + re.escape(fold(wanted)) + r"(?!\w)", fold(venue)) is not None
    )


def _name_words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s,.\-]+", fold(text)) if w]


def _author_matches(wanted: str, authors: list[str]) -> bool:
    """Whether one of ``authors`` has every word of ``wanted`` among its name's words (any order, so
    "Levine, Sergey" too; a one-letter word is an initial): "Li" is Bo Li, not Lin or Ablin (an MCP session:
    a substring had let 1,334 of 2,740 papers through for "li")."""
    typed = _name_words(wanted)
    return any(
        all(any(w == t or (len(t) == 1 and w.startswith(t)) for w in words) for t in typed)
        for words in (_name_words(a) for a in authors)
    )


def matching_ids(
    filters: Filters, records: Mapping[str, PaperRecord], content: Mapping[str, str] | None = None
) -> frozenset[str]:
    """The ids of the ``records`` (paper id -> record, abstracts not needed) that pass ``filters``;
    ``content`` maps more ids to stored ones (``p-…`` ids of abstracts stored under another id).

    Raises :class:`PaperchatError` naming the filter that matches no paper (a
    ``--paper`` id not stored; an author, venue or year no paper has, with the
    venues or years there are; or filters that match papers only apart).
    """
    chosen: list[tuple[str, str, set[str]]] = []
    if filters.papers:
        aliases = {alias: pid for pid, rec in records.items() for alias in rec.aliases}
        aliases.update(content or {})  # a p-… id from another store: the paper with that abstract
        # an id, a merged duplicate's id, or either in another case ("avesKAAETB"); an id before an alias
        resolved = {p: resolve_id(p, records, aliases) for p in filters.papers}
        missing = [p for p in filters.papers if resolved[p] is None]
        if missing:
            folded: dict[str, str] = {}
            for name, pid in [(pid, pid) for pid in records] + list(aliases.items()):
                folded.setdefault(name.lower(), pid)
            close = difflib.get_close_matches(missing[0].lower(), list(folded), n=1, cutoff=0.8)
            hint = f"did you mean {folded[close[0]]}? " if close else ""
            raise PaperchatError(
                f"no paper with id {missing[0]} in the store (--paper); "
                f"{hint}`paperchat papers` lists them"
            )
        chosen.append(("--paper", ", ".join(filters.papers), set(resolved.values())))
    if filters.author:
        chosen.append(
            (
                "--author",
                f'"{filters.author}"',
                {pid for pid, r in records.items() if _author_matches(filters.author, r.authors)},
            )
        )
    if filters.venue:
        chosen.append(
            (
                "--venue",
                f'"{filters.venue}"',
                {pid for pid, r in records.items() if _venue_matches(filters.venue, r.venue)},
            )
        )
    if filters.year is not None:
        chosen.append(
            (
                "--year",
                str(filters.year),
                {pid for pid, r in records.items() if r.year == filters.year},
            )
        )
    for flag, shown, ids in chosen:
        if not ids:
            raise PaperchatError(f"no paper matches {flag} {shown}{_known(flag, records, shown)}")
    ids = set(records) if not chosen else set.intersection(*(ids for _f, _s, ids in chosen))
    if not ids:
        raise PaperchatError(
            f"no paper matches {filters.describe()} together (each matches papers on its own)"
        )
    return frozenset(ids)


_NONE = (
    "no stored paper has a {0}: give the corpus files a {0} field, or ingest them again if an older paperchat "
    "stored them"
)


def _known(flag: str, records: Mapping[str, PaperRecord], shown: str = "") -> str:
    """What the store holds for a venue or year filter that matched nothing: ``" (stored venues: ICML, NeurIPS)"``;
    for an author, the stored names closest to it."""
    if flag == "--venue":
        values = sorted({r.venue for r in records.values() if r.venue})
        return (
            f" (stored venues: {', '.join(values[:12])})"
            if values
            else f" ({_NONE.format('venue')})"
        )
    if flag == "--year":
        values = sorted({str(r.year) for r in records.values() if r.year})
        return (
            f" (stored years: {', '.join(values[:12])})" if values else f" ({_NONE.format('year')})"
        )
    if flag == "--author":  # "Sergei Levine": the stored names closest to it
        from paperchat.ingest.authors import close_names

        close = close_names(shown.strip('"'), {a for r in records.values() for a in r.authors})
        quoted = " or ".join(f'"{c}"' for c in close)
        return f" (did you mean {quoted}?)" if close else ""
    return ""
