"""How Chroma's HNSW index searches the collections paperchat creates.

Chroma answers every nearest-neighbour query with an HNSW index (hnswlib),
which is approximate: a query visits ``ef_search`` candidates of a graph
built with ``ef_construction`` candidates and ``max_neighbors`` links per
vector. The eval baselines were measured with exact search, so paperchat
asks for near-exact recall at the scale it is used at.
"""

from __future__ import annotations

from paperchat.store.chroma import KINDS, ChromaStore

#: The HNSW index of the collections paperchat creates. With Chroma's default ``ef_search`` (100), 27 of the 232
#: conference questions' top 5 differed from an exact search at 2,740 papers (20,095 sentences); with 1000,
#: none did, on Chroma's default graph (``ef_construction`` 100, ``max_neighbors`` 16) as on a denser one
#: (200, 32) that took 60% longer to write, so the graph keeps the defaults (README, "Where the vectors are
#: searched").
HNSW = {"space": "cosine", "ef_construction": 100, "max_neighbors": 16, "ef_search": 1000}


def widen_search(store: ChromaStore, generation: int) -> None:
    """Raise the ``ef_search`` of a generation's collections to :data:`HNSW`'s (stores written before it was
    set had Chroma's 100). A write to Chroma's configuration, so only a writer does it (the write lock is held)."""
    wanted = HNSW["ef_search"]
    with store.guarded():
        for kind in KINDS:
            col = store.collection(kind, generation)
            have = (
                ((col.configuration_json or {}).get("hnsw") or {}).get("ef_search")
                if col is not None
                else None
            )
            if col is not None and isinstance(have, int) and have < wanted:
                col.modify(configuration={"hnsw": {"ef_search": wanted}})
