"""The citation checker (paperchat.cite.checker) and the stream renumbering, without an LLM."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from paperchat.answer.llm_answer import is_abstention
from paperchat.cite.checker import SupportChecker, missing_facts, names, numbers
from paperchat.cite.markers import StreamRenumber, answer_sentences, renumber
from paperchat.core.contract import ABSTENTION
from paperchat.ingest.corpus import bundled_corpus_files, load_file
from paperchat.ingest.embedding import get_embedder

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def abstracts() -> dict[tuple[str, int], str]:
    out = {}
    for f in bundled_corpus_files():
        for p in load_file(f)[0]:
            out[(p.source_path, p.source_index)] = p.abstract
    return out


@pytest.fixture(scope="module")
def gnn(abstracts) -> str:
    return abstracts[("000_215d12c2ee2986f8.txt", 1)]


@pytest.fixture(scope="module")
def checker():
    return SupportChecker(get_embedder())


def verify_answer(answer, sources, checker):
    return [c.to_json() for c in checker.verify_answer(answer, sources)]


def check_sentence(sentence, texts, checker):
    return checker.check_sentence(sentence, texts)


def test_numbers_and_names():
    assert numbers("Pruning 70% of GPT-2 XL heads, 1,000 runs, 3.50 s, six techniques, 100x faster") == {
        "70", "1000", "3.5", "6", "100"}
    assert names("GNN+ beats GraphSAGE on QM9 and ZINC250k, unlike KernelSHAP's Atari results.") == {
        "GNN+", "GraphSAGE", "QM9", "ZINC250k", "KernelSHAP", "Atari"}
    assert missing_facts("K2IE uses RL on D4RL with MuJoCo-based tasks.",
                         "reinforcement learning with K$^2$IE on D4RL in MuJoCo") == []
    assert missing_facts("GPT-3 on Meta-World with 17 tasks", "GPT-2 on MuJoCo with 14 tasks") == ["17", "GPT-3", "Meta-World"]


def test_answer_sentences_keep_markers_with_their_sentence():
    assert answer_sentences("A holds [1]. B holds. [2] C holds [1, 3]. D.") == [
        "A holds [1].", "B holds. [2]", "C holds [1, 3].", "D."]


def test_supported_sentence(gnn, checker):
    check = check_sentence("GNN+ was evaluated on 14 well-known graph-level datasets [1].", [gnn], checker)
    assert check.supported and check.citations == [1] and check.missing == []
    assert 0.6 <= check.score <= 1.0


def test_changed_number_is_unsupported(gnn, checker):
    check = check_sentence("GNN+ was evaluated on 17 well-known graph-level datasets [1].", [gnn], checker)
    assert not check.supported and check.missing == ["17"]


def test_swapped_name_is_unsupported(gnn, checker):
    check = check_sentence("The study re-evaluates GCN, GIN and GraphSAGE [1].", [gnn], checker)
    assert not check.supported and check.missing == ["GraphSAGE"]


def test_sentence_without_citation_is_unsupported(gnn, checker):
    out = verify_answer("GNN+ integrates six widely used techniques.", {1: gnn}, checker)
    assert out == [{"text": "GNN+ integrates six widely used techniques.", "citations": [], "supported": False,
                    "score": 0.0, "missing": []}]


def test_wrong_source_is_unsupported(abstracts, checker):
    other = abstracts[("000_215d12c2ee2986f8.txt", 18)]
    out = verify_answer("GNN+ integrates six widely used techniques [1].", {1: other}, checker)
    assert out[0]["supported"] is False


def test_checker_on_labelled_claims(abstracts, checker):
    """The calibrated checker on the claims of the 8 most-cited papers of eval/claims.jsonl.

    (All 116 claims take about 15 s to embed on 2 cores: eval/calibrate_checker.py.)
    """
    claims = [json.loads(x) for x in (ROOT / "eval" / "claims.jsonl").read_text().splitlines() if x.strip()]
    assert len(claims) == 116
    papers = Counter((c["cited"]["path"], c["cited"]["index"]) for c in claims)
    top = {p for p, _ in sorted(papers.items(), key=lambda kv: (-kv[1], kv[0]))[:8]}
    right = flagged_bad = flagged = bad = 0
    subset = [c for c in claims if (c["cited"]["path"], c["cited"]["index"]) in top]
    for c in subset:
        text = abstracts[(c["cited"]["path"], c["cited"]["index"])]
        ok = verify_answer(c["sentence"] + " [1]", {1: text}, checker)[0]["supported"]
        right += ok == c["supported"]
        flagged += not ok
        bad += not c["supported"]
        flagged_bad += (not ok) and not c["supported"]
    assert len(subset) >= 30 and bad >= 15
    assert right / len(subset) >= 0.8
    assert flagged_bad / flagged >= 0.9  # precision for "unsupported"
    assert flagged_bad / bad >= 0.6  # recall for "unsupported"


def test_stream_renumber_matches_renumber():
    raw = "A [3]. B [1, 3]. C [7]. D [2-3]. E [x] and [4"
    pieces = ["A [", "3", "]. B [1,", " 3]. C [7", "]. D [2-", "3]. E [x] and [4"]
    out: list[str] = []
    stream = StreamRenumber(5, out.append)
    for p in pieces:
        stream.feed(p)
    stream.close()
    assert "".join(out) == "A [1]. B [2, 1]. C . D [3, 1]. E [x] and [4"
    text, order, invalid = renumber(raw, 5)
    assert text == "A [1]. B [2, 1]. C. D [3, 1]. E [x] and [4"
    assert order == stream.order == [3, 1, 2] and invalid == [7]


def test_is_abstention():
    assert is_abstention(ABSTENTION)
    assert is_abstention(f' "{ABSTENTION.lower()}" [1]')
    assert not is_abstention(ABSTENTION + " But [1] mentions graphs.")
