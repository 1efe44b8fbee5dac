"""Retrieval: dense + BM25 hybrid over the store, fused and grouped by paper (and a LlamaIndex adapter)."""
