"""Papers listed from the stored metadata, one cited line each: an author's papers, a year's papers, the
papers a count counted.

A line names the paper and who wrote it ('"Flow Q-Learning" is by Sergey Levine and 2 co-authors [1].'),
its source's evidence the stored title and author list (:func:`metadata_source`),
so every line is checkable against what the store holds. At most :data:`MAX_LISTED` papers are listed;
a note says how many more there are and which command lists them all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from paperchat.cite.markers import cite_sentence
from paperchat.core.contract import EXTRACTIVE, Answer, Retrieved, Source
from paperchat.core.terms import terms
from paperchat.ingest.records import PaperRecord

#: Content words that only ask for a listing ("Which ICML papers were written by X? List them all.").
LISTING_WORDS = frozenset(
    "list listed show name find all paper papers work works article publication submission contribution "
    "research written wrote write publish published author authored co-authored coauthored present "
    "presented submit submitted icml 2025 year conference anything other else recent stored corpus "
    "appear appeared titles title indexed release released came accepted together jointly co-author "
    "coauthor collaborate collaborated every each".split()
)


def only_listing(question: str) -> bool:
    """Whether ``question`` asks for nothing but a listing: no content word beside :data:`LISTING_WORDS`
    ("Which papers were published?", "List the papers")."""
    return not [t for t in terms(question) if t not in LISTING_WORDS]


#: Papers a listing names at most; the notes say how many more there are and how to list them all.
MAX_LISTED = 20


def paper_line(record: PaperRecord, n: int, who: str | None = None) -> str:
    """'"Title" is by WHO and 2 co-authors [n].' (``who``: the author to name, else the first; a paper
    without authors: '"Title" [n].')."""
    if not record.authors:
        return cite_sentence(f'"{record.name}".', n)
    who = who or record.authors[0]
    others = len(record.authors) - 1
    with_ = f" and {others} co-author{'s' if others != 1 else ''}" if others else ""
    return cite_sentence(f'"{record.name}" is by {who}{with_}.', n)


def metadata_source(n: int, record: PaperRecord, venue: bool = False) -> Source:
    """Source ``n`` whose evidence is the paper's stored title and authors ("Title: ...\\nAuthors: ..."),
    and where and when it appeared when ``venue`` ("\\nVenue: ICML 2025")."""
    evidence = f"Title: {record.title}" + (
        f"\nAuthors: {', '.join(record.authors)}" if record.authors else ""
    )
    if venue and record.appeared:
        evidence += f"\nVenue: {record.appeared}"
    return Source.from_record(n, record, "", evidence)


def listed_answer(
    question: str,
    records: Sequence[PaperRecord],
    notes: list[str],
    *,
    lead: str = "",
    more: str = "",
    count: int | None = None,
    who: Callable[[PaperRecord], str] | None = None,
) -> Answer:
    """The answer listing ``records`` (in their order) by :func:`paper_line`, after the ``lead`` line when
    given; ``notes`` are kept, and past :data:`MAX_LISTED` papers a note says how many more there are, with
    ``more`` (how to list them all). ``count`` is the answer's ``count`` field; ``who(record)`` the author
    each line names."""
    shown = list(records[:MAX_LISTED])
    lines = [lead] if lead else []
    lines += [paper_line(r, n, who(r) if who else None) for n, r in enumerate(shown, 1)]
    notes = list(notes)
    if len(records) > MAX_LISTED:
        notes.append(
            f"{len(records) - MAX_LISTED:,} more not listed" + (f" ({more})" if more else "")
        )
    return metadata_listing(question, "\n".join(lines), shown, notes, count, records)


def metadata_listing(
    question: str,
    text: str,
    cited: Sequence[PaperRecord],
    notes: list[str],
    count: int | None = None,
    retrieved: Sequence[PaperRecord] | None = None,
) -> Answer:
    """An answer read off the stored metadata: ``text`` citing ``cited`` as [1], [2], ... (each source's
    evidence its title and authors, :func:`metadata_source`), ``retrieved`` (``cited`` when not given) as
    its retrieved papers, with ``notes`` and ``count``."""
    return Answer(
        question,
        text,
        EXTRACTIVE,
        sources=[metadata_source(n, r) for n, r in enumerate(cited, 1)],
        retrieved=[
            Retrieved(r.paper_id, r.chunk_ids[0] if r.chunk_ids else "", 1.0)
            for r in (cited if retrieved is None else retrieved)
        ],
        notes=notes,
        count=count,
    )
