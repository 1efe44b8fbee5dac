"""A source's own numbers in brackets are never read as paperchat's citations (a break-it session found an
abstract's "prior work [1]" quoted so that it seemed to cite source [1], another paper), and a store folder
with no papers is a one-line error in the Python API and over MCP, not a BM25 traceback."""

from __future__ import annotations

import json

import pytest

from paperchat.cite.checker import is_quote
from paperchat.cite.markers import cite_sentence, find_citations, quotable

ZEBRA = (
    "Sparse attention was introduced in prior work [1]. We propose Zebra, a striped sparse attention pattern "
    "that improves on Longformer [5] and BigBird [7]. Zebra reduces memory by 45% on sequences of 64k tokens."
)
LEMUR = (
    "We introduce Lemur, a latent memory for agents. Lemur stores episodic traces in a key-value cache. "
    "On ALFWorld, Lemur improves success rate from 61% to 78%."
)


@pytest.mark.parametrize(
    ("source", "quoted"),
    [
        (
            "Sparse attention was introduced in prior work [1].",
            "Sparse attention was introduced in prior work [2].",
        ),
        (
            "It improves on Longformer [5] and BigBird [7, 9].",
            "It improves on Longformer and BigBird [2].",
        ),
        ("As shown in [2-4], it helps.", "As shown in, it helps [2]."),
        # math and LaTeX options keep their meaning: LaTeX does not render a space after "["
        (
            r"A rate of $\sqrt[3]{n}$ for $\alpha \in [0,1]$.",
            r"A rate of $\sqrt[ 3]{n}$ for $\alpha \in [ 0,1]$ [2].",
        ),
        (r"It needs \sqrt[3]{n} samples.", r"It needs \sqrt[ 3]{n} samples [2]."),
    ],
)
def test_a_quoted_sentence_carries_no_bracketed_number_but_its_citation(source, quoted):
    assert cite_sentence(source, 2) == quoted
    assert find_citations(quoted) == [2]
    assert quotable(quotable(source)) == quotable(source)


def test_a_quote_without_the_sources_reference_markers_is_still_a_verbatim_quote():
    # the checker's claim is the answer sentence with its own markers stripped
    assert is_quote(
        "We propose Zebra, a striped sparse attention pattern that improves on Longformer and BigBird.",
        [ZEBRA],
    )


@pytest.mark.integration
def test_an_answer_quoting_a_source_with_reference_markers_cites_only_its_sources(tmp_path):
    from paperchat import Paperchat

    corpus = tmp_path / "refs.jsonl"
    corpus.write_text(
        json.dumps({"id": "ref-1", "title": "Zebra: striped sparse attention", "abstract": ZEBRA})
        + "\n"
        + json.dumps({"id": "ref-3", "title": "Lemur: latent memory", "abstract": LEMUR})
        + "\n",
        encoding="utf-8",
    )
    pc = Paperchat(tmp_path / "store")
    pc.ingest(corpus)
    answer = pc.ask("What does Zebra improve on?")
    assert [s.paper_id for s in answer.sources] == ["ref-1"]
    assert "Longformer and BigBird [1]" in answer.answer
    assert set(find_citations(answer.answer)) == {1}  # no [5] or [7] pointing nowhere


@pytest.mark.integration
def test_a_store_folder_with_no_papers_is_a_one_line_error_in_the_api(tmp_path):
    from paperchat import Paperchat
    from paperchat.core.errors import StoreError

    folder = tmp_path / "empty"
    folder.mkdir()
    pc = Paperchat(folder)
    for call in (
        lambda: pc.ask("What is ConfPO?"),
        lambda: pc.search("x"),
        lambda: pc.summarize("attention"),
    ):
        with pytest.raises(StoreError) as err:
            call()
        # an ordinary folder is no store, and a read does not make it one (an MCP session)
        assert str(err.value) == (
            f"no store at {folder}; call .ingest(paths) first (no paths: the bundled corpus)"
        )
    assert list(folder.iterdir()) == []
