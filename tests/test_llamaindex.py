"""What LlamaIndex does in paperchat: its SentenceSplitter chunks abstracts within a token budget at ingest, and
``retrieve/llama.py`` hands paperchat's retrieval to a user's own LlamaIndex pipeline (the README's example)."""

from __future__ import annotations

import pytest

from paperchat.core.errors import PaperchatError
from paperchat.core.sentences import split_sentences
from paperchat.ingest.chunking import CHUNK_SIZE, Chunker, ChunkSettings

CONFPO = "p-abe9274a3783"
QUESTION = "What does ConfPO use to pick preference-critical tokens?"


def test_the_llamaindex_retriever_returns_paperchats_ranking_best_first(bundled_engine):
    from llama_index.core.llms import MockLLM
    from llama_index.core.query_engine import RetrieverQueryEngine

    nodes = bundled_engine.llamaindex_retriever(top_k=5).retrieve(QUESTION)
    hits = bundled_engine.retrieve(QUESTION, 5)
    # the same papers, chunks and fused scores as paperchat's own retrieval, in its order
    assert [(n.node.metadata["paper_id"], n.node.node_id, n.score) for n in nodes] == [
        (h.paper_id, h.chunk_id, h.score) for h in hits
    ]
    assert nodes[0].node.metadata["paper_id"] == CONFPO
    assert nodes[0].node.metadata["title"].startswith("ConfPO: Exploiting Policy Model Confidence")
    scores = [n.score for n in nodes]
    assert scores == sorted(scores, reverse=True) and len(set(scores)) == 5
    assert scores[0] > 0.9 > 0.5 > scores[1]  # ConfPO far ahead of the next paper
    stored = {cid: text for cid, text, _title in bundled_engine.store.all_chunks()}
    assert nodes[0].node.get_content() == stored[nodes[0].node.node_id]
    assert "confidence" in nodes[0].node.get_content()

    engine = RetrieverQueryEngine.from_args(
        bundled_engine.llamaindex_retriever(top_k=3), llm=MockLLM()
    )
    response = engine.query(QUESTION)
    assert [n.node.node_id for n in response.source_nodes] == [h.chunk_id for h in hits[:3]]
    assert response.source_nodes[0].node.metadata["source_path"] == "000_215d12c2ee2986f8.txt"
    # an empty query ranked every paper by nothing and returned top_k nodes (a break-it session)
    with pytest.raises(PaperchatError, match="^the query is empty"):
        bundled_engine.llamaindex_retriever(top_k=5).retrieve("  ")


def test_chunks_are_whole_sentences_within_the_token_budget(bundled_engine):
    count = bundled_engine.embedder.count_tokens
    stored = [count(text) for _cid, text, _title in bundled_engine.store.all_chunks()]
    assert len(stored) == 73 and max(stored) <= CHUNK_SIZE == 192
    assert max(stored) > 160  # the splitter packs sentences up to the budget

    abstract = bundled_engine.store.papers([CONFPO])[CONFPO].abstract
    sentences = split_sentences(abstract)
    assert [count(s) for s in sentences] == [48, 47, 35, 42, 45]
    chunks = Chunker(ChunkSettings(100, 48), bundled_engine.embedder.tokenize).split(
        CONFPO, abstract
    )
    # at most 100 tokens each; 48 tokens of overlap carry the previous chunk's last sentence over
    assert [count(c.text) for c in chunks] == [95, 82, 77, 87]
    assert [c.text for c in chunks] == [" ".join(sentences[i : i + 2]) for i in range(4)]
    assert [c.chunk_id.rsplit(":", 1)[0] for c in chunks] == [f"{CONFPO}:{i}" for i in range(4)]
