"""paperchat: cited question answering over research-paper abstracts.

Subpackages, in the order data flows through them (imports point down only)::

    core        errors and exit statuses, the settings table, bundled files, text hygiene,
                the answer contract (typed)
    ingest      corpus files -> papers, labels, chunks (LlamaIndex's splitter over our sentences),
                embeddings, sentence vectors, the ingest plan (pure) and run (batches, resume)
    store       the Chroma store (the only chromadb importer), its writer and locks, the BM25 index
    retrieve    hybrid retrieval (dense + BM25, fused, grouped by paper); a LlamaIndex retriever
    answer      the mode decision, the extractive answerer, prompts, the LLM client, LLM answers
    cite        [n] markers and renumbering, the citation support checker
    engine      composition: ingest, ask, summarize
    chat        the session (no terminal I/O), slash commands, follow-ups, the turn log
    evaluation  question sets, measures, statistics, the runner, reports, the benchmark
    api         the Python API: ``Paperchat`` (ask, search, summarize, papers, ingest, BibTeX), ``evaluate``
    cli         the Click group and its one error boundary, the commands, the terminal loops, rendering,
                the MCP server (``paperchat mcp``)

``from paperchat import Paperchat`` imports the API on first use, so ``import paperchat`` stays cheap.
"""

__version__ = "0.1.0"
#: The exceptions a caller catches (``from paperchat import PaperchatError``: a notebook session had to find
#: ``paperchat.core.errors``).
ERRORS = ("PaperchatError", "BadArgument", "StoreError", "LLMError")
__all__ = ["Paperchat", "Answer", "SearchHit", "Filters", "evaluate", *ERRORS, "__version__"]


def __getattr__(name: str):
    """The API's names and its exceptions, imported when first asked for (PEP 562)."""
    if name in ("Paperchat", "Answer", "SearchHit", "Filters", "evaluate"):
        from paperchat import api

        return getattr(api, name)
    if name in ERRORS:
        from paperchat.core import errors

        return getattr(errors, name)
    raise AttributeError(f"module 'paperchat' has no attribute {name!r}")
