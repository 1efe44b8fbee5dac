"""``paperchat bench``: speed and memory figures on this machine (a command, never a test).

Measures, on the bundled corpus (or ``--corpus FILE``), in a fresh temporary store:

* raw embedding throughput of the configured model (chunks/s over the store's
  own chunk texts): the bound for ingest on this machine;
* pipeline ingest throughput (chunks/s, including chunking and Chroma writes)
  and its ratio to the bound; re-ingest time on unchanged input;
* warm retrieval and warm offline ``ask`` latency, p50 and p95 (ms), over the
  eval questions;
* what users wait for from the shell (:mod:`paperchat.evaluation.bench.cold`):
  ``--help``, ``ask``, ``papers --json``, ``history`` and an unchanged
  ``ingest`` as fresh processes, wall clock, median and spread of ``--repeat``
  runs, peak memory, and a per-phase breakdown and the import time by package;
* peak resident memory (MiB) of the process after ingest and the warm runs;
* the same ingest, re-ingest and retrieval figures for a plain LlamaIndex
  baseline measured in the same run: ``VectorStoreIndex.from_documents`` with
  default settings (1024-token ``SentenceSplitter``) over a collection in the
  same Chroma store, with the same embedding model; re-ingest is another
  ``from_documents`` (LlamaIndex has no de-duplication by default), retrieval
  is ``index.as_retriever(similarity_top_k=5)``. The baseline has no offline
  answerer, so there is no answer latency to compare.

Prints a table (with paperchat/baseline ratios) and writes JSON (``--out``).
"""

from __future__ import annotations

import resource
import tempfile
import time
from pathlib import Path
from typing import Any


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    idx = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[idx]


def _questions() -> list[str]:
    from paperchat.evaluation.questions import default_question_set, load_questions

    return [q["question"] for q in load_questions(default_question_set())]


def _llamaindex_embedding(embedder):
    """Our embedding model as a LlamaIndex ``BaseEmbedding`` (for the baseline)."""
    from llama_index.core.embeddings import BaseEmbedding

    class _Wrapped(BaseEmbedding):
        def _get_query_embedding(self, query: str) -> list[float]:
            return embedder.embed_one(query).tolist()

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return self._get_query_embedding(query)

        def _get_text_embedding(self, text: str) -> list[float]:
            return embedder.embed_one(text).tolist()

        def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
            return embedder.embed(texts).tolist()

    return _Wrapped(model_name=embedder.model_id, embed_batch_size=64)


def run_baseline(engine, files: list[Path], questions: list[str]) -> dict[str, Any]:
    """Ingest and retrieval figures of a plain LlamaIndex VectorStoreIndex (see the module docstring)."""
    from llama_index.core import Document, StorageContext, VectorStoreIndex

    from paperchat.ingest.corpus import load_file

    papers = [p for f in files for p in load_file(f)[0]]
    docs = [Document(text=p.abstract, metadata={"paper_id": p.paper_id}) for p in papers]
    vector_store = engine.store.llamaindex_vector_store("llamaindex_baseline")
    storage = StorageContext.from_defaults(vector_store=vector_store)
    embed_model = _llamaindex_embedding(engine.embedder)
    out: dict[str, Any] = {}
    t = time.perf_counter()
    index = VectorStoreIndex.from_documents(docs, storage_context=storage, embed_model=embed_model)
    out["ingest_s"] = time.perf_counter() - t
    out["chunks"] = vector_store.client.count()
    out["ingest_chunks_per_s"] = out["chunks"] / out["ingest_s"]
    t = time.perf_counter()
    VectorStoreIndex.from_documents(docs, storage_context=storage, embed_model=embed_model)
    out["reingest_s"] = time.perf_counter() - t
    retriever = index.as_retriever(similarity_top_k=5)
    retriever.retrieve(questions[0])
    retr = []
    for q in questions:
        t = time.perf_counter()
        retriever.retrieve(q)
        retr.append((time.perf_counter() - t) * 1000)
    out["retrieval_ms_p50"], out["retrieval_ms_p95"] = _pct(retr, 0.5), _pct(retr, 0.95)
    return out


#: The package of the LlamaIndex baseline's vector store, installed by the ``bench`` extra.
BASELINE_PACKAGE = "llama_index.vector_stores.chroma"


def require_baseline() -> None:
    """Check that the LlamaIndex baseline can run (its Chroma vector store is the ``bench`` extra).

    Raises :class:`~paperchat.core.errors.PaperchatError` (one line: what to install) when it is missing.
    """
    import importlib.util

    try:
        found = importlib.util.find_spec(BASELINE_PACKAGE) is not None
    except (ImportError, ValueError):  # a parent package missing, or an unimportable module
        found = False
    if not found:
        from paperchat.core.errors import PaperchatError

        raise PaperchatError(
            "the LlamaIndex baseline needs llama-index-vector-stores-chroma: "
            "install paperchat[bench], or pass --no-baseline"
        )


def run_bench(
    corpus: list[Path] | None = None, repeat: int = 3, n_questions: int = 60, baseline: bool = True
) -> dict[str, Any]:
    """Run every measurement and return the figures (seconds, ms, chunks/s, MiB).

    Raises :class:`~paperchat.core.errors.PaperchatError` before measuring anything when ``baseline`` is asked
    for and the ``bench`` extra is not installed (:func:`require_baseline`).
    """
    if baseline:
        require_baseline()
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine
    from paperchat.ingest.corpus import bundled_corpus_files

    files = corpus or bundled_corpus_files()
    out: dict[str, Any] = {"corpus": [str(f) for f in files]}
    with tempfile.TemporaryDirectory(prefix="paperchat-bench-") as tmp:
        # the vector cache off: the ingest figure measures the model (the raw bound below runs it too)
        engine = Engine(load_settings({"store": tmp, "vector_cache": "off"}))
        engine.embedder.embed(["warm-up"])
        t = time.perf_counter()
        report = engine.ingest(files)
        ingest_s = time.perf_counter() - t
        out["papers"], out["chunks"] = report.total_papers, report.total_chunks
        out["ingest_s"] = ingest_s
        out["ingest_chunks_per_s"] = report.chunks_embedded / ingest_s
        texts = [text for _cid, text, _title in engine.store.all_chunks()]
        t = time.perf_counter()
        engine.embedder.embed(texts)
        raw = len(texts) / (time.perf_counter() - t)
        out["raw_embed_chunks_per_s"] = raw
        out["ingest_vs_bound"] = out["ingest_chunks_per_s"] / raw
        t = time.perf_counter()
        engine.ingest(files)
        out["reingest_s"] = time.perf_counter() - t

        questions = _questions()[:n_questions]
        engine.ask(questions[0])
        retr, asks = [], []
        for q in questions:
            t = time.perf_counter()
            engine.retrieve(q, 5)
            retr.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            engine.ask(q)
            asks.append((time.perf_counter() - t) * 1000)
        out["retrieval_ms_p50"], out["retrieval_ms_p95"] = _pct(retr, 0.5), _pct(retr, 0.95)
        out["ask_ms_p50"], out["ask_ms_p95"] = _pct(asks, 0.5), _pct(asks, 0.95)
        out["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        if baseline:
            out["baseline"] = run_baseline(engine, files, questions)

        from paperchat.evaluation.bench.cold import run_cold

        out["cold"] = run_cold(Path(tmp), files, repeat)
    return out


ROWS = [
    ("papers", "papers", "{:.0f}"),
    ("chunks", "chunks", "{:.0f}"),
    ("ingest_s", "ingest wall time (s)", "{:.2f}"),
    ("raw_embed_chunks_per_s", "raw embedding throughput (chunks/s)", "{:.1f}"),
    ("ingest_chunks_per_s", "pipeline ingest throughput (chunks/s)", "{:.1f}"),
    ("ingest_vs_bound", "ingest / raw embedding", "{:.2f}"),
    ("reingest_s", "re-ingest unchanged, in-process (s)", "{:.3f}"),
    ("retrieval_ms_p50", "warm retrieval p50 (ms)", "{:.1f}"),
    ("retrieval_ms_p95", "warm retrieval p95 (ms)", "{:.1f}"),
    ("ask_ms_p50", "warm offline ask p50 (ms)", "{:.1f}"),
    ("ask_ms_p95", "warm offline ask p95 (ms)", "{:.1f}"),
    ("peak_rss_mib", "peak RSS, ingest + warm runs (MiB)", "{:.0f}"),
]


def format_table(figures: dict[str, Any]) -> str:
    """The figures as a text table: paperchat, the LlamaIndex baseline, and their ratio."""
    base = figures.get("baseline") or {}
    width = max(len(label) for _, label, _ in ROWS)
    lines = [f"{'':{width}}  {'paperchat':>10}  {'LlamaIndex':>10}  {'ratio':>6}"]
    for key, label, fmt in ROWS:
        if key not in figures:
            continue
        ours = fmt.format(figures[key])
        theirs = fmt.format(base[key]) if key in base else ""
        ratio = f"{figures[key] / base[key]:.2f}" if key in base and base[key] else ""
        lines.append(f"{label.ljust(width)}  {ours:>10}  {theirs:>10}  {ratio:>6}")
    if "cold" in figures:
        from paperchat.evaluation.bench.cold import format_cold

        lines += [
            "",
            "In-process figures above; fresh processes, as the shell starts them, below.",
            "",
            format_cold(figures["cold"]),
        ]
    return "\n".join(lines)
