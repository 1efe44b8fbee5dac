"""paperchat: cited question answering over research-paper abstracts.

Modules, in the order data flows through them::

    config      settings (flag > env var > config file > default) and paths
    text        text hygiene, sentence splitting, term extraction
    corpus      loading papers from seed text, JSONL and CSV files
    labels      short readable labels for title-less papers
    chunks      LlamaIndex token-based chunking with deterministic ids
    embeddings  the offline ONNX MiniLM model (and OpenAI embeddings)
    store       the Chroma store: ingest, diff, metadata checks, locking
    retrieval   dense + BM25 hybrid retrieval, fusion, grouping by paper
    extractive  the offline answerer that quotes abstracts
    citations   parsing, renumbering and source lists for ``[n]`` markers
    pipeline    question -> retrieval -> answer -> JSON contract
    render      terminal output
    cli         the Click command line
"""

__version__ = "0.1.0"
