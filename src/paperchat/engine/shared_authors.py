"""The stored papers that share an author with given papers, listed from the stored metadata: chat's "any
others by the same authors?" (:mod:`paperchat.engine.more_papers`) and "What did the authors of ConfPO
publish besides ConfPO?" (:mod:`paperchat.engine.metadata_reads`)."""

from __future__ import annotations

from paperchat.answer.paper_lists import listed_answer
from paperchat.core.contract import EXTRACTIVE, Answer
from paperchat.ingest.records import PaperRecord
from paperchat.retrieve.filters import Filters


def same_authors(
    engine,
    question: str,
    seeds: list[PaperRecord],
    shown: set[str],
    filters: Filters | None = None,
) -> Answer:
    """The stored papers sharing an author with ``seeds`` (not among them or ``shown``), listed from the
    stored metadata (:func:`paperchat.answer.paper_lists.listed_answer`), each line naming the shared
    author; by how many seed authors a paper shares, then by origin. The abstention, with a note naming
    the authors, when no other paper has one of them, or a seed has no authors stored."""
    authors = list(dict.fromkeys(a for s in seeds for a in s.authors))
    names = ", ".join(s.name for s in seeds)
    if not authors:
        return Answer.abstention(question, EXTRACTIVE, notes=[f"no authors are stored for {names}"])
    wanted = set(authors)
    allowed = engine.paper_ids(filters)
    skip = shown | {s.paper_id for s in seeds}
    catalog = engine.catalog()
    chosen = [
        catalog[pid]
        for pid in engine.author_index().papers_with(wanted)
        if pid not in skip and (allowed is None or pid in allowed)
    ]
    listed = ", ".join(authors[:6]) + (", …" if len(authors) > 6 else "")
    if not chosen:
        return Answer.abstention(
            question,
            EXTRACTIVE,
            notes=[f"no other stored paper has an author of {names} ({listed})"],
        )
    chosen.sort(key=lambda r: (-len(wanted & set(r.authors)), r.source_path, r.source_index))
    return listed_answer(
        question,
        chosen,
        [
            f"{len(chosen)} other stored paper{'s' if len(chosen) != 1 else ''} {'share' if len(chosen) != 1 else 'shares'} an author with {names} ({listed})"
        ],
        who=lambda r: next(a for a in r.authors if a in wanted),
    )
