"""The notes an ingest plan (:mod:`paperchat.ingest.plan`) gives about what it keeps, what moved and what
changed in a file another file also holds."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paperchat.ingest.plan import IngestPlan
    from paperchat.ingest.records import PaperRecord


def moved_note(moved: int, updated: int) -> str:
    """The note for ``moved`` of the ``updated`` papers that only moved to another line of their file."""
    which = (
        "the updated paper"
        if updated == 1
        else f"all {updated} updated papers"
        if moved == updated
        else f"{moved} of the {updated} updated papers"
    )
    return (
        f"{which} only moved to another line of {'its' if updated == 1 else 'their'} file (the line is "
        "recorded; nothing is embedded again)"
    )


def kept_notes(
    plan: IngestPlan,
    stored: dict[str, PaperRecord],
    rehomed: dict[str, PaperRecord],
    partial: set[str],
) -> None:
    """The notes of papers kept for another file or for a skipped line."""
    if rehomed:
        n = len(rehomed)
        plan.notes.append(
            f"kept {n} paper{'s' if n != 1 else ''} that {'their' if n != 1 else 'its'} file no longer holds "
            f"but another file does ({', '.join(sorted({r.source_path for r in rehomed.values()}))})"
        )
    for path in sorted(partial):
        ids = sorted(p for p in plan.kept_partial if stored[p].source_file == path)
        if ids:
            n, named = len(ids), ", ".join(ids[:3]) + (", ..." if len(ids) > 3 else "")
            # a lab engineer read "a paper on a skipped line is not removed" as naming the kept paper
            plan.notes.append(
                f"kept {n} paper{'s' if n != 1 else ''} that {Path(path).name} no longer holds ({named}): lines "
                "of it were skipped, and while any are, no paper it lost is removed (a skipped line may hold "
                "it); fix the lines and ingest it again"
            )


def note_edited(plan: IngestPlan, old: PaperRecord, fileset: set[str]) -> None:
    """Note a paper whose abstract changed in its file while another file holds the old text."""
    others = [f for f in old.also_in if f not in fileset]
    if others:
        plan.notes.append(
            f"{old.paper_id}: its abstract changed; {Path(others[0]).name} held the old one too: "
            f"`paperchat ingest {others[0]}` stores that copy again under its own id (the same id, "
            f"{old.paper_id}, is refused as a clash)"
        )


def sticky_note(papers: int, fields: set[str]) -> str:
    """The note for ``papers`` stored papers that keep ``fields`` (a url, authors, ...) their file no longer
    gives: an empty value keeps the stored one (it may have come from another file's copy)."""
    which = "1 paper keeps" if papers == 1 else f"{papers} papers keep"
    return (
        f"{which} the {', '.join(sorted(fields))} stored before, which the file now leaves empty (an empty "
        "field keeps the stored value; `paperchat remove FILE`, then `ingest FILE`, clears it)"
    )
