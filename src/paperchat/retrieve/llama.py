"""paperchat's retriever as a LlamaIndex retriever, to plug its store into a LlamaIndex query engine.

:class:`PaperchatRetriever` is a ``llama_index.core.retrievers.BaseRetriever``:
``retrieve(query)`` returns ``NodeWithScore`` objects, one per paper (its best
chunk as a ``TextNode`` whose id is the chunk id and whose metadata holds the
paper's id, title, label, url and origin), best first, with the fused hybrid
score. Example (README, "Use it from LlamaIndex")::

    from llama_index.core.query_engine import RetrieverQueryEngine
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    retriever = Engine(load_settings()).llamaindex_retriever(top_k=5)   # the default store
    engine = RetrieverQueryEngine.from_args(retriever, llm=my_llm)
    response = engine.query("What does ConfPO use to pick preference-critical tokens?")
"""

from __future__ import annotations

from typing import Any

from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from paperchat.retrieve.hybrid import HybridRetriever


class PaperchatRetriever(BaseRetriever):
    """A LlamaIndex ``BaseRetriever`` over a :class:`~paperchat.retrieve.hybrid.HybridRetriever` (see the module docstring).

    ``paper_ids`` (:func:`paperchat.retrieve.filters.matching_ids`) restricts it to those papers.
    """

    def __init__(
        self,
        retriever: HybridRetriever,
        top_k: int = 5,
        paper_ids: frozenset[str] | None = None,
        **kwargs: Any,
    ):
        super().__init__(**kwargs)
        self._paperchat = retriever
        self._top_k = top_k
        self._paper_ids = paper_ids

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        if not query_bundle.query_str.strip():  # would rank every paper by nothing
            from paperchat.core.errors import PaperchatError

            raise PaperchatError("the query is empty; give words to search for")
        hits = self._paperchat.retrieve(
            query_bundle.query_str, self._top_k, paper_ids=self._paper_ids
        )
        out = []
        for h in hits:
            meta = {
                k: h.meta.get(k, "")
                for k in ("paper_id", "title", "label", "url", "source_path", "source_index")
            }
            out.append(
                NodeWithScore(
                    node=TextNode(id_=h.chunk_id, text=h.text, metadata=meta), score=h.score
                )
            )
        return out
