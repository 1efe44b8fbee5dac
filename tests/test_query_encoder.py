"""The fine-tuned question encoder (paperchat/ingest/models/query-int8.onnx) beside the shipped document encoder."""

from __future__ import annotations

import hashlib
import importlib.resources
import json

import numpy as np
import pytest
from conftest import ICML_JSONL, ROOT

from paperchat.ingest.embedding import QUERY_MODEL, MiniLMOnnxEmbedder, get_embedder


@pytest.fixture(scope="module")
def tuned():
    return get_embedder()


@pytest.fixture(scope="module")
def shipped():
    return MiniLMOnnxEmbedder(query_encoder=False)


def test_model_file_ships_with_its_provenance():
    folder = importlib.resources.files("paperchat.ingest").joinpath("models")
    data = folder.joinpath(QUERY_MODEL).read_bytes()
    meta = json.loads(folder.joinpath("query.json").read_text(encoding="utf-8"))
    assert 15_000_000 < len(data) < 25_000_000
    assert meta["sha256"] == hashlib.sha256(data).hexdigest() and meta["bytes"] == len(data)
    assert meta["base_model"].startswith("sentence-transformers/all-MiniLM-L6-v2")
    assert "no held-out question" in meta["data"] and meta["val_splits"] == []


def test_lay_descriptions_are_of_conference_papers_no_eval_question_is_about():
    # training/data/lay_queries.jsonl teaches the encoder everyday wording; a paper an eval question has as
    # gold (tuning or held out), or that the held-out claims use, would leak into the figures
    rows = [
        json.loads(line)
        for line in (ROOT / "training" / "data" / "lay_queries.jsonl")
        .read_text("utf-8")
        .splitlines()
    ]
    ids = [r["id"] for r in rows]
    assert len(rows) == 1215 == len(set(ids)) and all(r["text"].strip() for r in rows)
    assert {r["style"] for r in rows} == {
        "half-remembered",
        "search-box",
        "hobbyist",
        "engineer",
        "detail-question",
        "reviewer",
    }
    conference = {json.loads(line)["id"] for line in ICML_JSONL.read_text("utf-8").splitlines()}
    assert set(ids) <= conference
    gold = set((ROOT / "training" / "excluded_papers.txt").read_text("utf-8").split())
    # general-w, -x and -aa (tuning) and -y (held out): written on papers no other set used, lay-described (all
    # of w's, x's and aa's, 43 of y's 52: its writer was told to avoid the eval sets' papers, not the encoder's);
    # general-z (held out) lists every paper that fits each of its topics
    dictated, chaired, listed = set(), set(), set()
    for path in (ROOT / "eval").rglob("*.jsonl"):
        for line in path.read_text("utf-8").splitlines():
            question = json.loads(line) if line.strip() else {}
            papers = {
                g["id"] for g in question.get("gold") or [] if isinstance(g, dict) and "id" in g
            }
            split = question.get("split")
            chosen = {
                "w-tune": dictated,
                "x-tune": dictated,
                "aa-tune": dictated,
                "y-heldout": chaired,
                "z-heldout": listed,
                # general-ab (tuning): complete lists too, whatever papers fit each topic
                "ab-tune": set(),
            }.get(split, gold)
            chosen.update(papers)
    assert len(gold) > 1400 and not gold & set(ids)
    # their retrieval figures are optimistic (eval/generalization/README.md)
    assert dictated <= set(ids) and len(chaired & set(ids)) == 43 and len(chaired) == 52
    # general-z (held out): complete "which papers" lists, so its gold papers are whatever fits each topic;
    # 24 of its 111 are lay-described
    assert len(listed & set(ids)) == 24 and len(listed) == 111


def test_search_uses_the_tuned_encoder_and_everything_else_the_shipped_one(tuned, shipped):
    question = "which paper stops a chatbot from forgetting old skills when it learns new ones?"
    q = tuned.embed_query(question)
    assert q.shape == (384,) and abs(float(np.linalg.norm(q)) - 1.0) < 1e-4
    # the question side moved, but stayed near the shipped encoder's vector
    assert 0.6 < float(q @ shipped.embed_query(question)) < 0.999
    # embed_one (sentence picking, evidence) and documents: the shipped encoder (stores need no rebuild)
    assert np.allclose(tuned.embed_one(question), shipped.embed([question])[0], atol=1e-6)
    text = "We propose a replay method that reduces catastrophic forgetting in continual learning."
    assert float(tuned.embed([text])[0] @ shipped.embed([text])[0]) > 0.9999
    # without the question encoder a search query is embedded exactly like a document
    assert np.allclose(shipped.embed_query(question), shipped.embed([question])[0], atol=1e-6)


def test_env_switch_embeds_questions_with_the_shipped_encoder(monkeypatch):
    monkeypatch.setenv("PAPERCHAT_QUERY_ENCODER", "shipped")
    emb = MiniLMOnnxEmbedder()
    question = "which paper compresses the key-value cache?"
    assert np.allclose(emb.embed_query(question), emb.embed([question])[0], atol=1e-6)


def test_the_reranker_study_reorders_only_a_first_paper_in_doubt():
    from training.reranker_study import lay_kept_out, reranked_order

    # the second paper's fused score 0.95 of the first's: in doubt; mixed 1.0 + 0.5 x 0.1 against 0.95 + 0.5 x 0.9
    assert reranked_order([2.0, 1.9, 1.0], [0.1, 0.9, 1.0], 0.5) == [1, 0, 2]
    assert reranked_order([2.0, 1.9, 1.0], [0.1, 0.9, 1.0], 0.0) == [0, 1, 2]
    assert reranked_order([2.0, 1.7], [0.0, 1.0], 0.5) == [0, 1]  # a clear first paper stays first
    # half the lay descriptions are kept out by their paper id's CRC-32 parity
    assert (lay_kept_out("hS2Ed5XYRq"), lay_kept_out("7TrOBcxSvy")) == (True, False)
