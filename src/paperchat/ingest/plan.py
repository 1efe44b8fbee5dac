"""The ingest plan: what an ingest will do, decided before anything is written (pure; no store, no model).

Given the papers loaded from some corpus files and the records already
stored, :func:`plan_ingest` decides:

* which papers are new or changed and must be chunked and embedded
  (``to_write``); a paper is unchanged when its abstract (``text_hash``) and
  the chunk settings it was made with (``chunking``) are the same;
* which stored papers the files no longer hold and are removed
  (``removals``; papers stored from other files stay). A file is its resolved
  path: ``A/papers.jsonl`` and ``B/papers.jsonl`` are two files. A record
  written before paperchat kept the path knows only its file's name; it is
  taken as the file's when the file holds it (and gets the path), but never
  removed on a name alone (``kept_unsure``: it may be another folder's file);
* which stored papers only need new metadata (``updates``: a title, url or
  position changed), embedding nothing. Titles, urls, authors, OpenReview
  ids, venues and years are sticky: an empty new value keeps the old one, so a title merged in
  from a duplicate survives re-ingesting the title-less copy;
* near-duplicates: a paper whose :func:`~paperchat.core.text.content_key`
  another paper already has (a stored one, or the first incoming one) is not
  stored twice; its title, authors and url fill the kept copy's empty fields
  and its id becomes an alias of the kept copy;
* papers two files hold: the kept copy's record lists the other files
  (``also_in``). When its own file drops it, a file that still holds it takes
  it over (``rehomed``) and it stays; a file re-ingested without it leaves
  ``also_in``. An abstract edited in one file while another holds the old text
  is a note: that file's copy comes back when it is ingested again;
* a file with lines skipped (``--on-error skip``, listed in ``partial``)
  removes nothing: a paper on a skipped line is kept until the file reads cleanly;
* id conflicts: one id used for two different abstracts (in these files, or
  stored from another file) raises :class:`PaperchatError` before anything is
  written (``on_error="stop"``), or is skipped and reported (``"skip"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from paperchat.core.errors import PaperchatError
from paperchat.core.text import content_key, short_hash
from paperchat.ingest.corpus import Paper
from paperchat.ingest.labels import short_label
from paperchat.ingest.plan_notes import kept_notes, moved_note, note_edited, sticky_note
from paperchat.ingest.records import PaperRecord, StoreInfo

#: Metadata a re-ingest or a merged duplicate may fill in but never empties.
STICKY = ("title", "url", "authors", "openreview_id", "venue", "year", "presentation")
#: Fields whose change is a metadata update (no re-embedding).
META_FIELDS = (
    "source_path",
    "source_index",
    "source_file",
    "title",
    "label",
    "url",
    "authors",
    "openreview_id",
    "aliases",
    "venue",
    "year",
    "also_in",
    "presentation",
)
#: Fields a re-ingest of the paper's own file does not set (gathered from other files).
GATHERED = ("aliases", "also_in")


@dataclass
class IngestPlan:
    """The decisions of :func:`plan_ingest` and the counts they imply."""

    to_write: list[Paper] = field(default_factory=list)
    removals: list[str] = field(default_factory=list)
    updates: list[PaperRecord] = field(default_factory=list)
    unchanged: int = 0
    duplicates_skipped: int = 0
    duplicates_merged: int = 0
    conflicts: list[str] = field(default_factory=list)
    #: ids of records written by an earlier paperchat (no path) under an ingested file's name that it no longer holds
    kept_unsure: list[str] = field(default_factory=list)
    #: ids of papers their file no longer holds that another file still does (they stay, owned by that file)
    rehomed: list[str] = field(default_factory=list)
    #: ids of papers a file with skipped lines no longer holds (kept: they may be on a skipped line)
    kept_partial: list[str] = field(default_factory=list)
    #: stored papers whose file now holds them under another id, by content key (the new id takes over
    #: their aliases and the other files that hold them)
    renamed: dict[str, PaperRecord] = field(default_factory=dict)
    #: what the plan did on the user's behalf, one line each
    notes: list[str] = field(default_factory=list)


def held_by(record: PaperRecord, files: set[str], names: set[str]) -> bool:
    """Whether ``record`` came from one of ``files`` (resolved paths); a record without a path, by the file's name."""
    return record.source_file in files if record.source_file else record.source_path in names


def _origins(a: Paper | PaperRecord, b: Paper | PaperRecord) -> tuple[str, str]:
    """``"name #i"`` of two papers for a message; their paths when two files share a name."""
    full = (
        a.source_path == b.source_path
        and a.source_file != b.source_file
        and a.source_file
        and b.source_file
    )
    return tuple(f"{(x.source_file if full else x.source_path)} #{x.source_index}" for x in (a, b))  # type: ignore[return-value]


def _same_meta(a: PaperRecord, b: PaperRecord) -> bool:
    return all(getattr(a, f) == getattr(b, f) for f in META_FIELDS)


def _moved_only(new: PaperRecord, old: PaperRecord) -> bool:
    """Whether ``new`` differs from ``old`` only by its line in the file."""
    return new.source_index != old.source_index and _same_meta(
        replace(new, source_index=old.source_index), old
    )


def fill_sticky(record: PaperRecord, other: PaperRecord, abstract: str) -> PaperRecord:
    """``record`` with its empty :data:`STICKY` fields taken from ``other``, and the short label of its title and ``abstract``."""
    for name in STICKY:
        if not getattr(record, name):
            setattr(record, name, getattr(other, name))
    record.label = short_label(record.title, abstract)
    return record


def updated_record(old: PaperRecord, paper: Paper) -> PaperRecord:
    """The record of a stored, unchanged paper after re-ingesting ``paper`` (sticky fields kept)."""
    new = replace(
        old,
        **{f: getattr(PaperRecord.from_paper(paper), f) for f in META_FIELDS if f not in GATHERED},
    )
    return fill_sticky(new, old, paper.abstract)


def absorbed_record(kept: PaperRecord, duplicate: Paper) -> PaperRecord:
    """``kept`` with its empty sticky fields filled from ``duplicate``, the duplicate's id as an alias and its
    file in ``also_in`` (when it is another file)."""
    out = replace(
        kept,
        aliases=sorted((set(kept.aliases) | {duplicate.paper_id}) - {kept.paper_id}),
        also_in=sorted((set(kept.also_in) | {duplicate.source_file}) - {kept.source_file, ""}),
    )
    return fill_sticky(
        out, PaperRecord.from_paper(duplicate), duplicate.abstract
    )  # the same text as the kept copy


def _absorb(owner: Paper, dup: Paper) -> None:
    """Fill an incoming paper's missing title, authors and url from its duplicate; record the alias (a copy
    under another id)."""
    if not owner.title and dup.title:
        owner.title = dup.title
        owner.label = short_label(owner.title, owner.abstract)
    owner.authors = owner.authors or dup.authors
    owner.url = owner.url or dup.url
    for key in ("venue", "year", "pmlr_url", "presentation"):
        if dup.extra.get(key):
            owner.extra.setdefault(key, dup.extra[key])
    if dup.paper_id != owner.paper_id:
        owner.extra.setdefault("aliases", []).append(dup.paper_id)
    if dup.source_file and dup.source_file != owner.source_file:
        owner.extra.setdefault("also_in", []).append(dup.source_file)


def _unique_papers(
    papers: list[Paper],
    stored: dict[str, PaperRecord],
    files: set[str],
    names: set[str],
    plan: IngestPlan,
    holders: dict[str, set[str]],
    copies: list[Paper],
) -> dict[str, Paper]:
    """Incoming papers by id; the same abstract twice is kept once (the skipped copy's file is added to
    ``holders[id]``, the copy to ``copies``: its title, authors and url fill the kept one's empty fields),
    two abstracts under one id conflict."""
    incoming: dict[str, Paper] = {}
    for paper in papers:
        key = content_key(paper.abstract)
        prev = incoming.get(paper.paper_id)
        old = stored.get(paper.paper_id)
        if prev is not None:
            if content_key(prev.abstract) == key:
                plan.duplicates_skipped += 1
                holders.setdefault(paper.paper_id, set()).add(paper.source_file)
                copies.append(paper)
            else:
                here, there = _origins(paper, prev)
                plan.conflicts.append(
                    f"{here}: id {paper.paper_id!r} is also used by {there} for another abstract"
                )
            continue
        if old is not None and not held_by(old, files, names):
            if old.content_key and old.content_key != key:
                here, there = _origins(paper, old)
                plan.conflicts.append(
                    f"{here}: id {paper.paper_id!r} is already used by {there} for another abstract"
                )
            else:  # the same paper, stored from another file: keep that copy
                plan.duplicates_skipped += 1
                holders.setdefault(paper.paper_id, set()).add(paper.source_file)
                copies.append(paper)
            continue
        incoming[paper.paper_id] = paper
    return incoming


def still_in(record: PaperRecord, fileset: set[str], held: set[tuple[str, str]]) -> set[str]:
    """The files of ``record.also_in`` that still hold it: those ingested now that hold its abstract
    (``held``: ``(file, content key)`` of every incoming paper), and those not ingested now that still
    exist (a file moved or deleted holds nothing; ingest it where it is now)."""
    return {
        f
        for f in record.also_in
        if ((f, record.content_key) in held if f in fileset else Path(f).is_file())
    }


def _leaving(
    plan: IngestPlan,
    stored: dict[str, PaperRecord],
    incoming: dict[str, Paper],
    fileset: set[str],
    held: set[tuple[str, str]],
    partial: set[str],
) -> dict[str, PaperRecord]:
    """Sort the stored papers these files no longer hold into ``plan.removals``, ``kept_partial`` (their file
    had lines skipped) and ``rehomed`` (another file holds them too: returned, owned by that file now)."""
    rehomed: dict[str, PaperRecord] = {}
    for pid, r in stored.items():
        if r.source_file not in fileset or pid in incoming:
            continue
        others = sorted(still_in(r, fileset, held))
        if r.source_file in partial:
            plan.kept_partial.append(pid)
        elif (
            r.source_file,
            r.content_key,
        ) in held:  # its file holds it under a new id: that id replaces it
            plan.removals.append(pid)
            plan.renamed[r.content_key] = replace(r, also_in=others)
        elif others:  # its position in the other file (0 here) is read from that file by run_ingest
            plan.rehomed.append(pid)
            rehomed[pid] = replace(
                r,
                source_file=others[0],
                source_path=Path(others[0]).name,
                source_index=0,
                also_in=others[1:],
            )
        else:
            plan.removals.append(pid)
    return rehomed


def plan_ingest(
    papers: list[Paper],
    stored: dict[str, PaperRecord],
    files: list[str],
    info: StoreInfo,
    on_error: str = "stop",
    partial: set[str] | frozenset[str] = frozenset(),
) -> IngestPlan:
    """Decide what ingesting ``papers`` from the corpus ``files`` does to ``stored`` (see the module docstring).

    ``files`` are the files' resolved paths (:func:`paperchat.ingest.manifest.file_key`), ``partial`` those
    of them that had lines skipped; ``stored`` maps paper id -> record (abstracts not needed). The papers in
    ``to_write`` may be changed in place (a merged duplicate's title, alias and file). Raises
    :class:`PaperchatError` on an id conflict unless ``on_error == "skip"``.
    """
    plan = IngestPlan()
    fileset = set(files)
    names = {Path(f).name for f in files}
    holders: dict[str, set[str]] = {}
    copies: list[Paper] = []  # the same abstract under the same id again: its metadata may fill
    incoming = _unique_papers(papers, stored, fileset, names, plan, holders, copies)
    if plan.conflicts and on_error != "skip":
        more = f" (and {len(plan.conflicts) - 1} more)" if len(plan.conflicts) > 1 else ""
        raise PaperchatError(
            f"{plan.conflicts[0]}{more}; give each paper its own id, or pass --on-error skip"
        )

    held = {(p.source_file, content_key(p.abstract)) for p in papers}  # what these files hold
    rehomed = _leaving(plan, stored, incoming, fileset, held, set(partial))
    kept_notes(plan, stored, rehomed, set(partial))
    plan.kept_unsure = [
        pid
        for pid, r in stored.items()
        if not r.source_file and r.source_path in names and pid not in incoming
    ]
    gone = set(plan.removals)
    kept = {pid: rehomed.get(pid, r) for pid, r in stored.items() if pid not in gone}

    # Near-identical copies under another id merge into the stored copy, else into the first incoming one.
    owners = {r.content_key: pid for pid, r in kept.items() if r.content_key}
    merges: list[tuple[Paper, str]] = []
    for pid, paper in list(incoming.items()):
        owner = owners.setdefault(content_key(paper.abstract), pid)
        if owner != pid and pid not in kept:
            merges.append((paper, owner))
            del incoming[pid]
    plan.duplicates_merged = len(merges)
    merges += [(p, p.paper_id) for p in copies if p.paper_id in kept or p.paper_id in incoming]

    updates: dict[str, PaperRecord] = dict(rehomed)
    # An incoming id that is an alias of another stored abstract is this paper's own now.
    alias_of = {a: pid for pid, r in kept.items() for a in r.aliases}
    for pid, paper in incoming.items():
        owner = alias_of.get(pid)
        if owner and owner != pid and kept[owner].content_key != content_key(paper.abstract):
            base = updates.get(owner, kept[owner])
            updates[owner] = replace(base, aliases=[a for a in base.aliases if a != pid])
    kept_fields: set[str] = set()  # sticky fields a file no longer gives, kept from before
    sticky_papers = 0
    for pid, paper in incoming.items():
        old = kept.get(pid)
        if (
            old is None
            or old.text_hash != short_hash(paper.abstract)
            or old.chunking != info.chunking_key
        ):
            plan.to_write.append(paper)
            also = holders.get(pid, set())
            before = old or plan.renamed.get(content_key(paper.abstract))
            if before is not None and before.content_key == content_key(paper.abstract):
                # re-chunked, or renamed in its file: the same paper, seen in the same other files
                also = also | still_in(before, fileset, held)
                paper.extra["aliases"] = sorted(
                    set(paper.extra.get("aliases", [])) | set(before.aliases) - {pid}
                )
            elif old is not None:
                note_edited(plan, old, fileset)
            paper.extra["also_in"] = sorted(also - {paper.source_file, ""})
            continue
        wanted = updated_record(old, paper)
        given = PaperRecord.from_paper(paper)
        emptied = [f for f in STICKY if not getattr(given, f) and getattr(old, f)]
        kept_fields.update(emptied)
        sticky_papers += bool(emptied)
        if _same_meta(wanted, old):
            plan.unchanged += 1
        else:
            updates[pid] = wanted
    writing = {p.paper_id for p in plan.to_write}
    for pid, r in kept.items():  # who else holds each stored paper, as these files say now
        if pid in writing:
            continue
        base = updates.get(pid, r)
        also = still_in(base, fileset, held) | holders.get(pid, set())
        also = sorted(also - {base.source_file, ""})
        if also != base.also_in:
            updates[pid] = replace(base, also_in=also)
    for dup, owner in merges:
        if owner in writing:
            _absorb(incoming[owner], dup)
            continue
        base = updates.get(owner, kept[owner])
        wanted = absorbed_record(base, dup)
        if not _same_meta(wanted, base):
            updates[owner] = wanted
    plan.updates = list(updates.values())
    # a row deleted near a file's top renumbers every later paper: "122 updated" had read as 122 edits
    moved = [pid for pid, w in updates.items() if pid in kept and _moved_only(w, kept[pid])]
    plan.notes += [moved_note(len(moved), len(updates))] if moved else []
    # a url deleted from its row had been kept with the count "unchanged" and no word (a lab's corpus)
    plan.notes += [sticky_note(sticky_papers, kept_fields)] if sticky_papers else []
    return plan
