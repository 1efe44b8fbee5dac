"""The learned citation verifier (paperchat.cite.verifier) in the checker, with the real shipped model."""

from __future__ import annotations

import importlib.resources
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from paperchat.cite.checker import SupportChecker, is_quote
from paperchat.cite.evidence import pick_evidence
from paperchat.cite.verifier import MODEL_FILE, TOKENIZER_FILE, Verifier, model_dir
from paperchat.ingest.corpus import bundled_corpus_files, load_file
from paperchat.ingest.embedding import get_embedder

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def abstracts() -> dict[int, str]:
    """The first three bundled abstracts: 1 GNN+, 2 CROW, 3 ConfPO."""
    papers = load_file(next(f for f in bundled_corpus_files() if f.name.startswith("000_")))[0]
    return {p.source_index: p.abstract for p in papers if p.source_index <= 3}


@pytest.fixture(scope="module")
def checker():
    return SupportChecker(get_embedder(), verifier=Verifier(threads=2))


def check(checker, sentence: str, abstract: str):
    return checker.check_sentence(sentence + " [1]", [abstract])


def test_negation_in_other_words_is_flagged(abstracts, checker):
    # the abstract: existing defenses "fail for text generation"; flagged by the rules' antonym cue
    got = check(
        checker,
        "Existing defense methods designed for vision and text classification also succeed for "
        "text generation.",
        abstracts[2],
    )
    assert (got.supported, got.missing, got.conflict) == (
        False,
        [],
        "the source says 'fail', not 'succeed'",
    )


def test_verifier_misses_reversals_the_rules_pass(abstracts, checker):
    claim = "Unlike ConfPO, DPO focuses optimization on the most impactful tokens."
    got = check(checker, claim, abstracts[3])
    p = checker.verifier_scores([claim], [[abstracts[3]]])[0]
    assert (
        got.supported is True and p > checker.verifier_threshold
    )  # P about 0.07: above the dev threshold 0.01
    again = check(
        checker,
        "CROW degrades generative performance while reducing attack success rates.",
        abstracts[2],
    )
    assert again.supported is True  # P 0.014, just above 0.01: misses the README reports


@pytest.mark.xfail(
    strict=True,
    reason="the verifier trained within the CPU budget misses entity swaps the rules "
    "cannot see (test split: 8 of 16 swapped entities caught)",
)
def test_entity_swap_within_one_abstract_is_flagged(abstracts, checker):
    # the abstract criticises GNNs and praises GTs; both names occur in it, so the hard rule passes
    got = check(
        checker,
        "Graph Transformers are often criticized for their limited expressiveness and over-smoothing.",
        abstracts[1],
    )
    assert got.supported is False


def test_swapped_comparison_is_flagged(abstracts, checker):
    got = check(
        checker, "GTs run several times faster than classic GNNs on many datasets.", abstracts[1]
    )
    assert (got.supported, got.missing, got.conflict) == (
        False,
        [],
        "the source compares the other way round",
    )


def test_faithful_two_sentence_fusion_is_supported(abstracts, checker):
    claim = (
        "ConfPO picks preference-critical tokens from the training policy's confidence alone, and it consistently "
        "outperforms uniform DAAs on alignment benchmarks such as AlpacaEval 2 and Arena-Hard."
    )
    got = check(checker, claim, abstracts[3])
    assert (got.supported, got.missing, got.conflict) == (True, [], None)
    assert checker.verifier_scores([claim], [[abstracts[3]]])[0] > 0.5


def test_an_answer_checked_twice_gets_the_same_verdicts(abstracts, checker):
    answer = (
        "GNN+ integrates six widely used techniques [1]. GNN+ was evaluated on 17 datasets [1]. "
        "CROW preserves generative performance while reducing attack success rates [2]. "
        "ConfPO requires an auxiliary reward model [3]."
    )
    sources = {1: abstracts[1], 2: abstracts[2], 3: abstracts[3]}
    first = [c.to_json() for c in checker.verify_answer(answer, sources)]
    second = [c.to_json() for c in checker.verify_answer(answer, sources)]
    assert first == second
    assert [(c["supported"], c["missing"], c["conflict"]) for c in first] == [
        (True, [], None),
        (False, ["17"], None),
        (True, [], None),
        (False, [], "the source says the opposite about 'auxiliary' (does without it)"),
    ]


def test_verbatim_quotes_and_missing_facts_need_no_model(abstracts):
    idle = Verifier()
    lazy = SupportChecker(get_embedder(), verifier=idle)
    quote = (
        "Our results reveal that, contrary to prevailing beliefs, these classic GNNs consistently match or surpass "
        "the performance of GTs [1]."
    )
    checks = lazy.verify_answer(
        quote + " GNN+ was evaluated on 17 datasets [1].", {1: abstracts[1]}
    )
    assert [(c.supported, c.score, c.missing) for c in checks] == [
        (True, 1.0, []),
        (False, 0.655, ["17"]),
    ]
    assert idle.loaded is False
    assert is_quote(
        "classic GNNs consistently match or surpass the performance of GTs.", [abstracts[1]]
    )
    assert not is_quote("GNNs surpass GTs.", [abstracts[1]])  # too short to count as a quote


def test_evidence_is_the_two_cited_sentences_sharing_most_terms(abstracts):
    evidence = pick_evidence(
        "Which datasets were GCN, GIN and GatedGCN re-evaluated on?", [abstracts[1]]
    )
    assert evidence.startswith(
        "We conduct a systematic re-evaluation of three classic GNNs—GCN, GIN, and GatedGCN"
    )


def test_model_files_ship_inside_the_package():
    folder = importlib.resources.files("paperchat.cite").joinpath("models")
    model = folder.joinpath(MODEL_FILE)
    assert model.is_file() and folder.joinpath(TOKENIZER_FILE).is_file()
    assert 15_000_000 < len(model.read_bytes()) < 25_000_000
    meta = json.loads(folder.joinpath("verifier.json").read_text(encoding="utf-8"))
    assert meta["base_model"].startswith("sentence-transformers/all-MiniLM-L6-v2")


@pytest.mark.slow
def test_model_loads_from_a_built_wheel(tmp_path):
    """Build the wheel (`pip wheel --no-deps`), unpack it as an install would, and score a pair from there."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--quiet",
            "-w",
            str(tmp_path / "dist"),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    wheel = next((tmp_path / "dist").glob("paperchat-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert (
        f"paperchat/cite/models/{MODEL_FILE}" in names
        and f"paperchat/cite/models/{TOKENIZER_FILE}" in names
        and "paperchat/ingest/models/query-int8.onnx"
        in names  # the question encoder ships the same way
    )
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "import paperchat, json; from paperchat.cite.verifier import Verifier, model_dir; "
        "v = Verifier(); p = v.scores([('GNN+ integrates six techniques.', "
        "'GNN+ integrates six widely used techniques.')])[0]; "
        "print(json.dumps([paperchat.__file__, str(model_dir()), p]))"
    )
    env = dict(os.environ, PYTHONPATH=str(site))
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    pkg_file, folder, p = json.loads(out.stdout)
    assert pkg_file.startswith(str(site)) and folder == str(site / "paperchat" / "cite" / "models")
    assert p > 0.5
    assert model_dir() != Path(folder)  # this process still reads the checkout's copy
