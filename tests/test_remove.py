"""``paperchat remove``: the papers of a file deleted, moved or unwanted leave the store; a folder ingest says
which of its files are gone (found by a break-it session: a deleted file's papers stayed, cited, with no way
out but ``ingest --rebuild`` listing every other file)."""

from __future__ import annotations

import json

from cli_env import run_cli
from conftest import ICML_JSONL


def _split(folder, lines: list[str]) -> tuple:
    folder.mkdir()
    a, b = folder / "a.jsonl", folder / "b.jsonl"
    a.write_text("\n".join(lines[:6]) + "\n", encoding="utf-8")
    b.write_text("\n".join(lines[6:9]) + "\n", encoding="utf-8")
    return a, b


def _ids(store) -> list[str]:
    return sorted(
        p["paper_id"] for p in json.loads(run_cli("papers", "--json", store=store).stdout)
    )


def test_a_deleted_files_papers_are_named_by_a_folder_ingest_and_removed(tmp_path):
    lines = ICML_JSONL.read_text(encoding="utf-8").splitlines()
    ids = [json.loads(line)["id"] for line in lines[:9]]
    a, b = _split(tmp_path / "corpus", lines)
    store = tmp_path / "store"
    assert run_cli("ingest", str(tmp_path / "corpus"), "-q", store=store).returncode == 0
    assert _ids(store) == sorted(ids)
    b.unlink()
    again = run_cli("ingest", str(tmp_path / "corpus"), store=store)
    assert again.returncode == 0 and _ids(store) == sorted(ids)  # a file that is gone holds nothing
    # the command names the store, as every command to copy does
    told = f"{b} is gone; its 3 papers stay until `paperchat --store {store.resolve()} remove {b}`"
    assert f"note: {told}\n" in again.stderr
    # said again by a repeat answered from the manifest, and in --json's notes
    repeat = json.loads(run_cli("ingest", str(tmp_path / "corpus"), "--json", store=store).stdout)
    assert repeat["repeated"] and told in repeat["notes"]
    removed = run_cli("remove", str(b), "--json", store=store)
    assert removed.returncode == 0, removed.stderr
    assert json.loads(removed.stdout)["papers_removed"] == 3
    assert _ids(store) == sorted(ids[:6])
    # nothing of it is left to remove; a path that never gave papers is named, and nothing changes
    for path in (b, tmp_path / "nope.jsonl"):
        refused = run_cli("remove", str(path), store=store)
        assert refused.returncode == 1
        assert refused.stderr == (
            f"error: no stored paper came from {path} (`paperchat --store {store.resolve()} papers` "
            "lists each paper's file)\n"
        )
    assert _ids(store) == sorted(ids[:6])
    assert run_cli("check", store=store).returncode == 0


def test_removing_a_folder_keeps_a_paper_another_file_holds(tmp_path):
    lines = ICML_JSONL.read_text(encoding="utf-8").splitlines()
    ids = [json.loads(line)["id"] for line in lines[:9]]
    _split(tmp_path / "corpus", lines)
    other = tmp_path / "other.jsonl"
    # another paper, then the first paper of the corpus: a second file holds it too, second in it
    other.write_text(lines[20] + "\n" + lines[0] + "\n", encoding="utf-8")
    store = tmp_path / "store"
    assert (
        run_cli("ingest", str(tmp_path / "corpus"), str(other), "-q", store=store).returncode == 0
    )
    removed = run_cli("remove", str(tmp_path / "corpus"), store=store)
    assert removed.returncode == 0, removed.stderr
    assert removed.stdout.startswith("8 removed in ")
    assert _ids(store) == sorted([ids[0], json.loads(lines[20])["id"]])
    (paper,) = [
        p
        for p in json.loads(run_cli("papers", "--json", store=store).stdout)
        if p["paper_id"] == ids[0]
    ]
    assert paper["origin"]["file"] == str(other.resolve())
    # its position in the file that took it over (it had been 0 until that file was ingested again)
    assert (paper["origin"]["path"], paper["origin"]["index"]) == ("other.jsonl", 2)


def test_the_python_api_removes_a_files_papers(tmp_path):
    from paperchat import Paperchat
    from paperchat.core.errors import PaperchatError

    lines = ICML_JSONL.read_text(encoding="utf-8").splitlines()
    a, b = _split(tmp_path / "corpus", lines)
    pc = Paperchat(tmp_path / "store")
    pc.ingest([a, b])
    assert pc.remove(b).papers_removed == 3 and len(pc.papers()) == 6
    try:
        pc.remove([])
    except PaperchatError as exc:
        assert (
            str(exc)
            == "no files given (an empty list); name the files or folders whose papers to remove"
        )
    else:
        raise AssertionError("an empty list removed nothing silently")


def test_an_empty_path_removes_nothing_and_an_emptied_store_is_not_a_first_run(
    tmp_path, monkeypatch
):
    """remove "" had taken every paper under the working folder; a store `remove` emptied had been filled
    with the bundled corpus by the next ask, as on a first run."""
    lines = ICML_JSONL.read_text(encoding="utf-8").splitlines()
    a, b = _split(tmp_path / "corpus", lines)
    store = tmp_path / "store"
    assert run_cli("ingest", str(a), str(b), "-q", store=store).returncode == 0
    monkeypatch.chdir(tmp_path)
    empty = run_cli("remove", "", store=store)
    assert (empty.returncode, empty.stderr) == (
        1,
        "error: a path to remove is empty; name the file or folder\n",
    )
    assert len(_ids(store)) == 9
    assert run_cli("remove", str(a), str(b), store=store).returncode == 0
    asked = run_cli("ask", "Can transformers learn pseudo-random numbers?", store=store)
    assert asked.returncode == 1 and "`paperchat remove` emptied it" in asked.stderr
    assert _ids(store) == []
    from paperchat import Paperchat
    from paperchat.core.errors import PaperchatError

    for wrong in (None, 5):
        try:
            Paperchat(store).remove(wrong)
        except PaperchatError as exc:
            assert str(exc).startswith("paths must be a path or a list of paths, not ")
        else:
            raise AssertionError(f"remove({wrong!r}) raised nothing")


def test_a_file_whose_only_paper_was_merged_into_another_copy_is_removed(tmp_path):
    """Found by a break-it session: a file whose one paper was a near-duplicate, merged into the copy another
    file holds, could never be removed ("no stored paper came from it"), and naming it beside other files
    made the whole `remove` fail."""
    lines = ICML_JSONL.read_text(encoding="utf-8").splitlines()
    first, other = json.loads(lines[0]), json.loads(lines[1])
    base, copy, mine = tmp_path / "base.jsonl", tmp_path / "copy.jsonl", tmp_path / "mine.jsonl"
    base.write_text(lines[0] + "\n", encoding="utf-8")
    copy.write_text(
        json.dumps({**first, "id": "my-copy", "abstract": first["abstract"].upper()}) + "\n",
        encoding="utf-8",
    )
    mine.write_text(lines[1] + "\n", encoding="utf-8")
    store = tmp_path / "store"
    for path in (base, copy, mine):
        assert run_cli("ingest", str(path), "-q", store=store).returncode == 0
    assert _ids(store) == sorted([first["id"], other["id"]])  # the copy merged into the first paper
    removed = run_cli("remove", str(copy), str(mine), "--json", store=store)
    assert removed.returncode == 0, removed.stderr
    assert json.loads(removed.stdout)["papers_removed"] == 1  # mine's paper; the merged paper stays
    (kept,) = json.loads(run_cli("papers", "--json", store=store).stdout)
    assert kept["paper_id"] == first["id"] and kept["origin"]["also_in"] == []
    assert run_cli("check", store=store).returncode == 0


def test_the_file_that_takes_a_paper_over_gives_it_its_metadata_and_a_copy_fills_empty_fields(
    tmp_path,
):
    # an operator's session: after `remove A.jsonl` the paper B.jsonl also holds kept A's title, authors
    # and url; and a copy of an abstract with a title and authors left an untitled stored copy untitled
    abstract = json.loads(ICML_JSONL.read_text(encoding="utf-8").splitlines()[0])["abstract"]

    def paper_file(name: str, **meta) -> str:
        path = tmp_path / name
        path.write_text(json.dumps({**meta, "abstract": abstract}) + "\n", encoding="utf-8")
        return str(path)

    a = paper_file("A.jsonl", title="A title", authors=["Alice A"], url="https://a.example")
    b = paper_file("B.jsonl", title="B title", authors=["Bob B"], url="https://b.example")
    store = tmp_path / "store"
    assert run_cli("ingest", a, b, "-q", store=store).returncode == 0
    assert run_cli("remove", a, store=store).returncode == 0
    (paper,) = json.loads(run_cli("papers", "--json", store=store).stdout)
    assert (paper["title"], paper["authors"], paper["url"]) == (
        "B title",
        ["Bob B"],
        "https://b.example",
    )
    assert (paper["origin"]["path"], paper["origin"]["index"]) == ("B.jsonl", 1)
    # an untitled copy first, then one with metadata: in one run, and in two
    c = paper_file("C.jsonl")
    d = paper_file("D.jsonl", title="D title", authors=["Dana D"], url="https://d.example")
    for runs, folder in (([c, d],), "one"), (([c], [d]), "two"):
        for files in runs:
            assert run_cli("ingest", *files, "-q", store=tmp_path / folder).returncode == 0
        (paper,) = json.loads(run_cli("papers", "--json", store=tmp_path / folder).stdout)
        assert (paper["title"], paper["authors"], paper["aliases"]) == ("D title", ["Dana D"], [])
        assert paper["origin"]["path"] == "C.jsonl"


def test_on_error_skip_passes_over_a_binary_file_in_a_folder(tmp_path):
    # an own-corpus session: a gzip named .csv in a folder had stopped `ingest FOLDER --on-error skip`
    import gzip

    folder = tmp_path / "corpus"
    folder.mkdir()
    lines = ICML_JSONL.read_text(encoding="utf-8").splitlines()[:3]
    (folder / "a.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "gzipped.csv").write_bytes(gzip.compress("\n".join(lines).encode()))
    store = tmp_path / "store"
    stopped = run_cli("ingest", str(folder), store=store)
    assert stopped.returncode == 1 and "looks like a binary file" in stopped.stderr
    skipped = run_cli("ingest", str(folder), "--on-error", "skip", store=store)
    assert skipped.returncode == 0, skipped.stderr
    assert "gzipped.csv: looks like a binary file" in skipped.stderr
    assert _ids(store) == sorted(json.loads(line)["id"] for line in lines)
