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
    prompts     prompt files from prompts/, placeholders validated
    llm         the openai client: streaming, retries, faults, key redaction
    answer_llm  LLM answers and summaries with renumbered citations
    verify      the citation support checker
    citations   parsing, renumbering and source lists for ``[n]`` markers
    pipeline    question -> retrieval -> answer -> JSON contract
    summarize   cited summaries of a paper or a topic
    render      terminal output
    followup    offline follow-up resolution for the chat REPL
    history     the SQLite log of chat turns
    chat        the multi-turn REPL
    cli         the Click command line (chat_cli, eval_cli: its chat and eval commands)
    metrics     Recall@k, MRR, nDCG
    evaluate    the grounding eval (eval_report: its baseline gate and reports)
    bench       speed and memory figures
"""

__version__ = "0.1.0"
