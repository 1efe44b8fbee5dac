"""The pipeline: corpus files -> store; question -> retrieval -> cited answer.

:class:`Engine` is what the CLI, the chat REPL, the eval and the benchmark
share. ``Engine.ask`` returns the stable ``ask --json`` contract::

    {
      "question": str,
      "answer": str,                 # with [n] markers
      "mode": "extractive" | "llm",
      "abstained": bool,
      "sources": [{"n", "paper_id", "title", "label", "url",
                   "origin": {"path", "index"}, "chunk_id", "text"}],
      "retrieved": [{"paper_id", "chunk_id", "score"}]   # rank order
    }
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from paperchat.chunks import ChunkSettings
from paperchat.citations import ABSTENTION, source_entry
from paperchat.citations import cite_sentence as _cite
from paperchat.config import Settings
from paperchat.errors import PaperchatError
from paperchat.store import IngestReport, Store, StoreInfo, open_store

Progress = Callable[[int, int], None]

#: In LLM mode, the LLM is not asked when no retrieved chunk reaches this cosine
#: similarity to the question (off-topic questions score 0.08-0.16 on the eval set,
#: answerable ones 0.24 and up), or when the question names something no retrieved
#: abstract mentions.
LLM_MIN_COSINE = 0.2

#: The longest question accepted (characters), in ask, chat and summaries.
MAX_QUESTION_CHARS = 2000


class Engine:
    """Opens the store, the embedding model and the retriever lazily, from :class:`Settings`."""

    def __init__(self, settings: Settings, chunk: ChunkSettings | None = None, retriever: str = "hybrid", fusion: str = "weighted"):
        self.settings = settings
        self.chunk = chunk or ChunkSettings()
        self.retriever_mode = retriever
        self.fusion = fusion
        self._store: Store | None = None
        self._embedder = None
        self._retriever = None

    # -- parts ------------------------------------------------------------
    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = open_store(self.settings.store_path, self.settings.chroma_url)
        return self._store

    @property
    def embedder(self):
        if self._embedder is None:
            from paperchat.embeddings import get_embedder

            self._embedder = get_embedder(
                self.settings.embed_model, self.settings.llm_api_key, self.settings.llm_base_url
            )
        return self._embedder

    def preload(self) -> None:
        """Load the embedding model on a background thread while the caller opens the store.

        Opening Chroma (about 1.4 s) and loading the ONNX session (about 0.5 s)
        then overlap; the thread is not a daemon, so the process never exits
        while onnxruntime is still loading.
        """
        import threading

        embedder = self.embedder

        def load() -> None:
            try:
                embedder._load()
            except BaseException:  # the main thread loads again and reports any real error
                pass

        if hasattr(embedder, "_load"):
            threading.Thread(target=load, name="paperchat-model-load", daemon=True).start()

    def wanted_info(self) -> StoreInfo:
        """The settings this engine would build the store with."""
        return StoreInfo(self.embedder.model_id, self.embedder.dim, self.chunk)

    @property
    def retriever(self):
        if self._retriever is None:
            from paperchat.retrieval import Retriever

            self.store.check_compatible(self.wanted_info())
            self._retriever = Retriever(self.store, self.embedder, self.retriever_mode, self.fusion)
        return self._retriever

    # -- ingest -----------------------------------------------------------
    def ingest(
        self,
        paths: list[Path],
        metadata: Path | None = None,
        rebuild: bool = False,
        on_error: str = "stop",
        progress: Progress | None = None,
    ) -> IngestReport:
        """Load ``paths`` (all files are read and checked before anything is written) and ingest them."""
        import threading

        from paperchat.corpus import join_metadata, load_file, load_metadata

        papers = []
        skipped = []
        names = []
        for path in paths:
            loaded, report = load_file(path, on_error=on_error)
            papers.extend(loaded)
            names.append(Path(path).name)
            skipped.extend(f"{path}:{line}: {why}" for line, why in report.skipped)
        if metadata is not None:
            join_metadata(papers, load_metadata(metadata))
        # The files are valid: import LlamaIndex (about 2.7 s) and load the model while the store opens.
        threading.Thread(target=_import_ingest_stack, name="paperchat-llamaindex-import", daemon=True).start()
        self.preload()

        def chunker_factory():
            from paperchat.chunks import Chunker

            return Chunker(self.chunk, self.embedder.tokenize)

        report = self.store.ingest(
            papers, names, self.wanted_info(), chunker_factory, self.embedder.embed, rebuild=rebuild, progress=progress,
            on_error=on_error, count_tokens=self.embedder.count_tokens,
        )
        report.lines_skipped = skipped + report.lines_skipped
        self._retriever = None
        return report

    def ensure_corpus(self, progress: Progress | None = None) -> IngestReport | None:
        """Ingest the bundled corpus when the store is empty; ``None`` when it was not."""
        if self.store.chunks is not None and self.store.chunks.count() > 0:
            return None
        from paperchat.corpus import bundled_corpus_files

        return self.ingest(bundled_corpus_files(), progress=progress)

    # -- papers -----------------------------------------------------------
    def papers(self) -> list[dict[str, Any]]:
        """Every stored paper: ``{paper_id, title, label, chunks, origin: {path, index}, url, authors}``."""
        records = self.store.paper_records_meta()
        out = []
        for pid, m in records.items():
            out.append(
                {
                    "paper_id": pid,
                    "title": m.get("title") or "",
                    "label": m.get("label") or m.get("title") or pid,
                    "chunks": int(m.get("n_chunks", 0) or 0),
                    "origin": {"path": m.get("source_path", ""), "index": int(m.get("source_index", 0) or 0)},
                    "url": m.get("url") or "",
                    "authors": [a for a in str(m.get("authors") or "").split("; ") if a],
                }
            )
        out.sort(key=lambda p: (p["origin"]["path"], p["origin"]["index"]))
        return out

    def alias_map(self) -> dict[str, str]:
        """Ids of merged near-duplicate copies -> the id of the paper the store kept."""
        out = {}
        for pid, meta in self.store.paper_records_meta().items():
            for alias in str(meta.get("aliases") or "").split():
                out[alias] = pid
        return out

    # -- answering ---------------------------------------------------------
    def retrieve(self, question: str, top_k: int | None = None):
        """Retrieved :class:`~paperchat.retrieval.Hit` s for ``question`` (one per paper)."""
        return self.retriever.retrieve(question, top_k or self.settings.top_k)

    def answer_mode(self, mode: str | None = None) -> str:
        """``"llm"`` or ``"extractive"`` for ``mode`` (``auto``/``llm``/``extractive``; default: settings).

        ``auto`` picks the LLM when one is configured. ``llm`` without a usable
        configuration raises :class:`paperchat.llm.LLMConfigError`.
        """
        from paperchat.llm import check_settings, llm_configured

        mode = (mode or self.settings.mode or "auto").lower()
        if mode not in ("auto", "llm", "extractive"):
            raise PaperchatError(f"unknown mode {mode!r}: use auto, llm or extractive")
        if mode == "auto":
            return "llm" if llm_configured(self.settings) else "extractive"
        if mode == "llm":
            check_settings(self.settings)
        return mode

    def ask(self, question: str, top_k: int | None = None, mode: str | None = None, on_token=None) -> dict[str, Any]:
        """Answer ``question`` and return the ``ask --json`` contract (see the module docstring).

        ``mode``: ``auto`` (default), ``llm`` or ``extractive``. In LLM mode the
        answer streams to ``on_token(piece)`` and carries ``sentences`` with
        support marks; when retrieval finds nothing relevant (the offline
        answerer's abstention rule) the LLM is not called. Raises
        :class:`PaperchatError` for an empty question and LLM errors.
        """
        question = check_question(question)
        t0 = time.perf_counter()
        answer_mode = self.answer_mode(mode)
        if answer_mode == "llm":
            from paperchat.llm import get_client

            get_client(self.settings)  # starts importing openai while we retrieve
        retriever = self.retriever
        qvec = self.embedder.embed_one(question)
        hits = retriever.retrieve(question, top_k or self.settings.top_k, qvec=qvec)
        return self.answer_from_hits(question, hits, qvec=qvec, mode=answer_mode, on_token=on_token, t0=t0)

    def adopt_sentence_vectors(self, papers: list[tuple]) -> None:
        """Load the sentence vectors stored at ingest for ``(paper_id, abstract, ...)`` tuples not cached yet."""
        from paperchat.extractive import adopt_sentence_vectors, cached_papers

        pairs = [(p[0], p[1]) for p in papers]
        todo = [pid for pid, _ in pairs if pid not in cached_papers([pid], self.embedder)]
        if todo:
            stored = self.store.sentence_vectors(todo, self.embedder.dim)
            adopt_sentence_vectors(pairs, stored, self.embedder)

    def answer_from_hits(
        self,
        question: str,
        hits: list,
        records: dict[str, dict[str, Any]] | None = None,
        qvec=None,
        mode: str | None = None,
        on_token=None,
        t0: float | None = None,
    ) -> dict[str, Any]:
        """Answer ``question`` from given retrieval hits (rank order) only; the ``ask --json`` contract.

        ``records`` are the hits' paper records (fetched when ``None``), ``qvec``
        the question's embedding (computed when ``None``). The chat REPL calls
        this with hits restricted to the papers a follow-up refers to.
        """
        from paperchat.extractive import extract, missing_names

        t0 = time.perf_counter() if t0 is None else t0
        answer_mode = self.answer_mode(mode)
        if records is None:
            records = self.store.paper_records([h.paper_id for h in hits])
        if qvec is None:
            qvec = self.embedder.embed_one(question)
        top = hits[0].score if hits and hits[0].score > 0 else 1.0
        papers = [
            (h.paper_id, records[h.paper_id]["abstract"], h.dense if h.dense is not None else 0.0, h.score / top)
            for h in hits
            if h.paper_id in records
        ]
        retrieved = [{"paper_id": h.paper_id, "chunk_id": h.chunk_id, "score": round(h.score, 6)} for h in hits]
        if answer_mode == "llm":
            relevant = bool(papers) and max(p[2] for p in papers) >= LLM_MIN_COSINE
            if relevant and not missing_names(question, [p[1] for p in papers]):
                from paperchat.answer_llm import llm_answer

                answer = llm_answer(question, hits, records, self.settings, self.embedder, on_token=on_token)
                answer["timings"] = {**answer.get("timings", {}), "pipeline_total_s": round(time.perf_counter() - t0, 4)}
                return answer
            abstained = True
        else:
            self.adopt_sentence_vectors(papers)
            result = extract(question, qvec, papers, self.embedder)
            abstained = result.abstained
        if abstained:
            out = {
                "question": question,
                "answer": ABSTENTION,
                "mode": answer_mode,
                "abstained": True,
                "sources": [],
                "retrieved": retrieved,
                "timings": {"total_s": round(time.perf_counter() - t0, 4)},
            }
            if on_token:
                on_token(ABSTENTION)
            return out
        order: list[str] = []
        parts = []
        for sent in result.sentences:
            if sent.paper_id not in order:
                order.append(sent.paper_id)
            parts.append(_cite(sent.text, order.index(sent.paper_id) + 1))
        sources = []
        for n, pid in enumerate(order, 1):
            quoted = [s.text for s in result.sentences if s.paper_id == pid]
            chunk_id, text = self.evidence_chunk(records[pid], quoted, hits)
            sources.append(source_entry(n, records[pid], chunk_id, text))
        if on_token:
            on_token(" ".join(parts))
        return {
            "question": question,
            "answer": " ".join(parts),
            "mode": "extractive",
            "abstained": False,
            "sources": sources,
            "retrieved": retrieved,
            "timings": {"total_s": round(time.perf_counter() - t0, 4)},
        }

    def evidence_chunk(self, record: dict[str, Any], quoted: list[str], hits=()) -> tuple[str, str]:
        """``(chunk id, text)`` of the stored chunk holding the first quoted sentence.

        Else the paper's best-ranked chunk among ``hits``, else its first chunk.
        """
        ids = str(record.get("chunk_ids") or "").split()
        got = self.store.chunks.get(ids=ids, include=["documents"]) if ids else {"ids": [], "documents": []}
        chunks = dict(zip(got["ids"], got["documents"]))
        probe = " ".join(quoted[0].split())[:80] if quoted else ""
        for cid in ids:
            if cid in chunks and probe and probe in " ".join(chunks[cid].split()):
                return cid, chunks[cid]
        for h in hits:
            if h.paper_id == record["paper_id"]:
                return h.chunk_id, h.text
        first = ids[0] if ids else ""
        return first, chunks.get(first, "")




def check_question(question: str | None) -> str:
    """The question, cleaned (:func:`paperchat.text.clean_text`: bytes that are not text are dropped).

    Raises :class:`PaperchatError` when it is empty or longer than
    :data:`MAX_QUESTION_CHARS` characters.
    """
    from paperchat.text import clean_text

    question = " ".join(clean_text(question or "").split())
    if not question:
        raise PaperchatError("the question is empty; ask something about the papers")
    if len(question) > MAX_QUESTION_CHARS:
        raise PaperchatError(f"the question is {len(question)} characters long; the limit is {MAX_QUESTION_CHARS}")
    return question


def _import_ingest_stack() -> None:
    """Import the LlamaIndex parts ingest uses (run on a background thread)."""
    import importlib

    try:
        for name in ("llama_index.core.node_parser", "llama_index.vector_stores.chroma"):
            importlib.import_module(name)
    except BaseException:  # the main thread imports again and reports any real error
        pass
