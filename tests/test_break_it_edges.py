"""Edges a newcomer's break-it session found (issue 17's twenty-fourth round): empty filter flags, a --bibtex
file in a folder that does not exist, a store path that is a file, and an ingest whose every line was skipped.
Each is a one-line error and a non-zero exit, before any work is done."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from paperchat.cli import cli


def invoke(*args, env=None):
    return CliRunner().invoke(cli, list(args), env=env or {})


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--author", ""], "--author is empty; leave it out to search every paper"),
        (["--venue", "  "], "--venue is empty; leave it out to search every paper"),
        (["--paper", " "], "--paper is empty; give a paper id (`paperchat papers` lists them)"),
    ],
)
def test_an_empty_filter_flag_is_an_error_not_every_paper(bundled_store, flags, message):
    out = invoke("--store", str(bundled_store), "papers", *flags)
    assert out.exit_code == 1 and str(out.exception) == message


def test_a_bibtex_file_in_a_missing_folder_is_refused_before_the_answer(bundled_store, tmp_path):
    target = tmp_path / "nodir" / "refs.bib"
    out = invoke("--store", str(bundled_store), "ask", "What is ConfPO?", "--bibtex", str(target))
    assert out.exit_code == 2 and "ConfPO" not in out.stdout  # no answer printed, then a failure
    assert f"Invalid value for '--bibtex': {target}: its folder {target.parent} does not exist" in (
        out.output
    )


def test_a_store_path_that_is_a_file_says_so(tmp_path):
    path = tmp_path / "store.txt"
    path.write_text("not a store")
    for command in ("papers", "check"):
        out = invoke(command, env={"PAPERCHAT_STORE": str(path)})
        assert out.exit_code == 1
        assert str(out.exception) == f"store path {path} exists and is not a folder"


def test_an_ingest_whose_every_line_was_skipped_says_which_and_why(tmp_path):
    from paperchat.core.errors import PaperchatError
    from paperchat.ingest.corpus import load_file

    path = tmp_path / "years.jsonl"
    path.write_text(
        '{"id": "y1", "abstract": "Fine. Yes.", "year": "twenty"}\n{"id": "y2", "abstract": ""}\n'
    )
    with pytest.raises(PaperchatError) as err:
        load_file(path, on_error="skip")
    assert str(err.value) == (
        f"{path}: no line could be read; line 1: malformed record ('year' must be a year such as 2025, "
        "not 'twenty') (and 1 more)"
    )
