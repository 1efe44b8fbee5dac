"""What the store says about damage and interrupted runs (issue 17, forty-first round: a reliability
engineer's break-it session): an emptied BM25 file is a cache to rebuild, not Ctrl-C; a store without its
`chroma/` folder is damaged, not "a folder of other files"; an interrupted run's command is given for the
store's path now and says whether it was a remove; a symbolic link loop is a one-line error."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from paperchat.cli import cli
from paperchat.cli.common import refuse_no_store
from paperchat.core.errors import PaperchatError
from paperchat.core.settings import load_settings
from paperchat.ingest.manifest import file_key
from paperchat.store.bm25 import BM25Index
from paperchat.store.runs import describe

pytestmark = pytest.mark.unit


def test_an_emptied_bm25_file_is_a_cache_to_rebuild(tmp_path):
    index = BM25Index.build(["a", "b"], ["sparse autoencoders", "speculative decoding"], "r1")
    index.save(tmp_path / "bm25")
    assert BM25Index.load(tmp_path / "bm25", "r1").ids == ["a", "b"]
    (tmp_path / "bm25" / "indptr.csc.index.npy").write_bytes(b"")  # np.load raises EOFError
    assert BM25Index.load(tmp_path / "bm25", "r1") is None


def test_a_store_without_its_chroma_folder_is_damaged(tmp_path):
    store = tmp_path / "s"
    store.mkdir()
    (store / "paperchat.json").write_text("{}", encoding="utf-8")
    for args in (["check"], ["papers"]):
        out = CliRunner().invoke(cli, ["--store", str(store), *args])
        said = out.output + str(out.exception or "")  # `main` prints a StoreError as one line
        assert out.exit_code == 1
        assert "chroma.sqlite3 is missing" in said and "Restore" in said
        assert "holds other files" not in said
    assert not (store / "chroma").exists()  # nothing made in its place
    (store / "paperchat.json").unlink()
    (store / "notes.txt").write_text("x", encoding="utf-8")
    with pytest.raises(PaperchatError, match="the folder holds other files"):
        refuse_no_store(load_settings({"store": str(store)}), "nothing to check")


def test_an_interrupted_run_is_resumed_on_the_store_where_it_is_now():
    runs = {"k": "paperchat --store /old/place/mv1 ingest /data/a.jsonl"}
    assert describe(runs, False, 64, "/new/mv2") == (
        "an ingest of the store at /new/mv2 was interrupted (64 papers stored so far): run "
        "`paperchat --store /new/mv2 ingest /data/a.jsonl` again to finish it (it resumes)"
    )
    removing = {"remove:/data/a.jsonl": "paperchat --store rm2 remove /data/a.jsonl"}
    assert describe(removing, False, 2240, "rm2").startswith(
        "a remove of the store at rm2 was interrupted (2240 papers stored so far): run "
        "`paperchat --store rm2 remove /data/a.jsonl`"
    )
    # a server's store: the command as recorded
    served = {"k": "paperchat --chroma-url http://h:8000 ingest a.jsonl"}
    assert "`paperchat --chroma-url http://h:8000 ingest a.jsonl`" in describe(
        served, False, 1, "http://h:8000"
    )


def test_a_symbolic_link_loop_is_a_one_line_error(tmp_path):
    (tmp_path / "loop1.jsonl").symlink_to(tmp_path / "loop2.jsonl")
    (tmp_path / "loop2.jsonl").symlink_to(tmp_path / "loop1.jsonl")
    with pytest.raises(PaperchatError, match="is a symbolic link that leads back to itself"):
        file_key(tmp_path / "loop1.jsonl")
