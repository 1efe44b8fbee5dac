"""The fine-tuned question encoder (paperchat/ingest/models/query-int8.onnx) beside the shipped document encoder."""

from __future__ import annotations

import hashlib
import importlib.resources
import json

import numpy as np
import pytest

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
