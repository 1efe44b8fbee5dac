"""Papers two files hold, and files with skipped lines: an ingest never drops a paper some file still holds
(:mod:`paperchat.ingest.plan`). The plan is pure: these tests give it records and papers, no store."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

from paperchat.core.text import content_key, short_hash
from paperchat.ingest.chunking import ChunkSettings
from paperchat.ingest.corpus import Paper
from paperchat.ingest.plan import plan_ingest
from paperchat.ingest.records import PaperRecord, StoreInfo

INFO = StoreInfo("test-model", 4, ChunkSettings(256, 32))
_DIR = Path(tempfile.mkdtemp(prefix="paperchat-shared-"))
atexit.register(shutil.rmtree, _DIR, True)  # not left behind in /tmp
A, B = (
    str(_DIR / "papers.jsonl"),
    str(_DIR / "more.jsonl"),
)  # files that exist: a missing one holds nothing
for _f in (A, B):
    Path(_f).touch()
TEXT = "We prune graph neural networks by edge saliency. Accuracy stays within 1%."
OTHER = "We learn robot grasping from tactile signals. Success rises to 92%."


def paper(pid: str, text: str, file: str, index: int = 1) -> Paper:
    return Paper(pid, text, file.rsplit("/", 1)[1], index, title=pid.upper(), source_file=file)


def record(p: Paper, **fields) -> PaperRecord:
    rec = PaperRecord.from_paper(
        p,
        content_key=content_key(p.abstract),
        text_hash=short_hash(p.abstract),
        chunking=INFO.chunking_key,
        chunk_ids=[f"{p.paper_id}#0"],
    )
    for k, v in fields.items():
        setattr(rec, k, v)
    return rec


def by_id(records: list[PaperRecord]) -> dict[str, PaperRecord]:
    return {r.paper_id: r for r in records}


def test_a_duplicate_merged_from_another_file_records_that_file():
    stored = {"a1": record(paper("a1", TEXT, A))}
    plan = plan_ingest([paper("b7", TEXT, B, 3)], stored, [B], INFO)
    assert plan.duplicates_merged == 1 and plan.removals == [] and plan.to_write == []
    kept = by_id(plan.updates)["a1"]
    assert (kept.aliases, kept.also_in, kept.source_file) == (["b7"], [B], A)


def test_the_same_id_skipped_from_another_file_records_that_file():
    stored = {"a1": record(paper("a1", TEXT, A))}
    plan = plan_ingest([paper("a1", TEXT, B)], stored, [B], INFO)
    assert plan.duplicates_skipped == 1
    assert by_id(plan.updates)["a1"].also_in == [B]


def test_a_paper_its_file_drops_stays_while_another_file_holds_it():
    stored = {
        "a1": record(paper("a1", TEXT, A), aliases=["b7"], also_in=[B]),
        "a2": record(paper("a2", OTHER, A, 2)),
    }
    plan = plan_ingest([paper("a2", OTHER, A, 1)], stored, [A], INFO)
    assert plan.removals == [] and plan.rehomed == ["a1"]
    moved = by_id(plan.updates)["a1"]
    assert (
        moved.source_file,
        moved.source_path,
        moved.source_index,
        moved.also_in,
        moved.aliases,
    ) == (
        B,
        "more.jsonl",
        0,  # its position in B is not known until B is ingested
        [],
        ["b7"],
    )
    assert plan.notes == [
        "kept 1 paper that its file no longer holds but another file does (more.jsonl)"
    ]


def test_a_rehomed_paper_is_kept_when_its_new_file_is_ingested_again():
    stored = {"a1": record(paper("a1", TEXT, B), aliases=["b7"])}  # owned by B after A dropped it
    plan = plan_ingest([paper("b7", TEXT, B, 3)], stored, [B], INFO)
    # B holds the text under its own id: the stored copy goes, B's copy is written under B's id.
    assert plan.removals == ["a1"] and [p.paper_id for p in plan.to_write] == ["b7"]


def test_a_file_that_dropped_its_copy_leaves_also_in_and_then_the_paper_can_go():
    stored = {"a1": record(paper("a1", TEXT, A), aliases=["b7"], also_in=[B])}
    plan = plan_ingest([paper("b1", OTHER, B)], stored, [B], INFO)  # B no longer holds TEXT
    assert by_id(plan.updates)["a1"].also_in == []
    stored["a1"].also_in = []
    assert plan_ingest([], stored, [A], INFO).removals == ["a1"]


def test_both_files_at_once_drop_nothing_one_still_holds():
    stored = {"a1": record(paper("a1", TEXT, A), aliases=["b7"], also_in=[B])}
    plan = plan_ingest([paper("b7", TEXT, B)], stored, [A, B], INFO)
    assert plan.removals == [] and plan.to_write == []
    assert by_id(plan.updates)["a1"].source_file == B


def test_an_abstract_edited_in_one_file_notes_the_other_files_copy():
    stored = {"a1": record(paper("a1", TEXT, A), aliases=["b7"], also_in=[B])}
    plan = plan_ingest([paper("a1", OTHER, A)], stored, [A], INFO)
    assert [p.paper_id for p in plan.to_write] == ["a1"]
    assert plan.to_write[0].extra["also_in"] == []
    assert plan.notes == [
        f"a1: its abstract changed; more.jsonl held the old one too: `paperchat ingest {B}` stores that copy "
        "again under its own id (the same id, a1, is refused as a clash)"
    ]


def test_a_file_with_skipped_lines_removes_nothing():
    stored = {
        "a1": record(paper("a1", TEXT, A)),
        "a2": record(paper("a2", OTHER, A, 2)),
    }
    plan = plan_ingest([paper("a1", TEXT, A)], stored, [A], INFO, partial={A})
    assert plan.removals == [] and plan.kept_partial == ["a2"]
    assert plan.notes == [
        "kept 1 paper that papers.jsonl no longer holds (a2): lines of it were skipped, and while any are, no "
        "paper it lost is removed (a skipped line may hold it); fix the lines and ingest it again"
    ]
    assert plan_ingest([paper("a1", TEXT, A)], stored, [A], INFO).removals == ["a2"]


def test_a_file_that_no_longer_exists_holds_nothing():
    gone = str(_DIR / "moved-away.jsonl")
    stored = {"x": record(paper("x", TEXT, A), also_in=[gone])}
    assert plan_ingest([], stored, [A], INFO).removals == ["x"]


def test_a_new_id_for_the_same_abstract_in_its_file_replaces_the_old_one_and_keeps_its_holders():
    # a newcomer renamed ida -> idc in A while B held the abstract as idb: the store kept "ida" for good
    stored = {"ida": record(paper("ida", TEXT, A), aliases=["idb"], also_in=[B])}
    plan = plan_ingest([paper("idc", TEXT, A)], stored, [A], INFO)
    assert plan.removals == ["ida"] and plan.rehomed == [] and plan.notes == []
    (new,) = plan.to_write
    assert (new.paper_id, new.extra["aliases"], new.extra["also_in"]) == ("idc", ["idb"], [B])


def test_an_incoming_id_that_is_an_alias_of_another_abstract_becomes_its_own():
    # B dropped its copy idb (an alias of ida), then C brought a new paper called idb
    stored = {"ida": record(paper("ida", TEXT, A), aliases=["idb"])}
    plan = plan_ingest([paper("idb", OTHER, B)], stored, [B], INFO)
    assert [p.paper_id for p in plan.to_write] == ["idb"]
    assert by_id(plan.updates)["ida"].aliases == []


def test_a_merged_duplicates_id_in_another_case_names_the_kept_paper():
    # a break-it session: pc.paper("zg7bkp6sct") failed where "ZG7bkp6ScT" named its kept paper
    from paperchat.answer.summaries import find_paper
    from paperchat.ingest.records import PaperRecord, resolve_id

    records = {"a1": PaperRecord("a1", "x", aliases=["B7x"]), "c": PaperRecord("c", "y")}
    aliases = {"B7x": "a1"}
    assert [resolve_id(w, records, aliases) for w in ("a1", "A1", "B7x", "b7X", "zz")] == [
        "a1",
        "a1",
        "a1",
        "a1",
        None,
    ]
    assert find_paper(records, "b7x", lambda t: []) == ("a1", "id")


def test_a_field_the_file_leaves_empty_is_kept_with_a_note():
    # a lab's corpus: a url deleted from its row was kept, the count said "1 unchanged" and nothing else
    stored = {
        "a1": record(paper("a1", TEXT, A), url="https://wrong.example/1", authors=["Ann Lee"])
    }
    plan = plan_ingest([paper("a1", TEXT, A)], stored, [A], INFO)
    assert [r.url for r in plan.updates] in ([], ["https://wrong.example/1"])  # kept, not emptied
    assert plan.notes == [
        "1 paper keeps the authors, url stored before, which the file now leaves empty (an empty field "
        "keeps the stored value; `paperchat remove FILE`, then `ingest FILE`, clears it)"
    ]
    same = paper("a1", TEXT, A)
    same.url, same.authors = "https://wrong.example/1", ["Ann Lee"]
    assert plan_ingest([same], stored, [A], INFO).notes == []
