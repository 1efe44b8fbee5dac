"""paperchat's retriever inside a LlamaIndex query engine (the README's example)."""

from __future__ import annotations


def test_a_llamaindex_query_engine_retrieves_through_paperchat(bundled_engine):
    from llama_index.core.llms import MockLLM
    from llama_index.core.query_engine import RetrieverQueryEngine

    retriever = bundled_engine.llamaindex_retriever(top_k=3)
    nodes = retriever.retrieve("What does ConfPO use to pick preference-critical tokens?")
    assert len(nodes) == 3
    assert nodes[0].node.metadata["paper_id"] == "p-abe9274a3783"
    assert (
        nodes[0].node.node_id.startswith("p-abe9274a3783:")
        and "ConfPO" in nodes[0].node.get_content()
    )
    assert nodes[0].score >= nodes[1].score >= nodes[2].score

    engine = RetrieverQueryEngine.from_args(retriever, llm=MockLLM())
    response = engine.query("Which tokens does ConfPO optimize?")
    assert response.source_nodes[0].node.metadata["paper_id"] == "p-abe9274a3783"
    assert response.source_nodes[0].node.metadata["source_path"] == "000_215d12c2ee2986f8.txt"
