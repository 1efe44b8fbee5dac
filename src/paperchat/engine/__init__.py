"""The engine: composes the stages into what users ask for (ingest, ask, summarize).

:class:`Engine` opens the store, the embedding model and the retriever
lazily from :class:`~paperchat.core.settings.Settings`, and is what the CLI,
the chat session, the eval and the benchmark share. Every answer is an
:class:`~paperchat.core.contract.Answer`; the answer mode is decided once
per request (:func:`paperchat.answer.mode.decide_mode`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from paperchat.answer.mode import decide_mode
from paperchat.core import phases
from paperchat.core.background import background as _background
from paperchat.core.contract import EXTRACTIVE, LLM, Answer
from paperchat.core.errors import LLMConnectionError, LLMEmptyAnswer
from paperchat.core.settings import Settings
from paperchat.core.terms import terms
from paperchat.core.text import clean_question
from paperchat.ingest.chunking import ChunkSettings
from paperchat.ingest.records import PaperRecord, StoreInfo
from paperchat.ingest.run import IngestReport
from paperchat.retrieve.filters import Filters, matching_ids

Progress = Callable[[int, int], None]
OnToken = Callable[[str], None]

#: In LLM mode, the LLM is not asked when no retrieved chunk reaches this cosine
#: similarity to the question (off-topic questions score 0.08-0.16 on the eval set,
#: answerable ones 0.24 and up), or when the question names something no retrieved
#: abstract mentions.
LLM_MIN_COSINE = 0.2
#: Papers retrieved for a question that asks for several ("Which papers ...?") when top-k is smaller.
PLURAL_TOP_K = 10
#: How long a first-run ``ask`` waits for another process that is ingesting the bundled corpus.
FIRST_RUN_WAIT_S = 900.0


def _import_chunker() -> None:
    import importlib

    importlib.import_module("llama_index.core.node_parser")


class Engine:
    """The pipeline over one store (see the module docstring).

    ``retriever`` is ``hybrid`` (default), ``dense`` or ``bm25``; ``fusion``
    ``weighted`` (default) or ``rrf``; ``chunk`` the chunk settings new papers
    are split with.
    """

    def __init__(
        self,
        settings: Settings,
        chunk: ChunkSettings | None = None,
        retriever: str = "hybrid",
        fusion: str = "weighted",
    ):
        self.settings = settings
        self.chunk = chunk or ChunkSettings()
        self.retriever_mode = retriever
        self.fusion = fusion
        self._store = None
        self._embedder = None
        self._retriever = None
        self._sentences = None
        self._checker = None
        self._filtered: tuple = (
            None,
            None,
            None,
        )  # (store revision, filters, matching ids) of the last filter

    # -- parts ----------------------------------------------------------------
    def open_store(self, allow_damaged: bool = False):
        """Open the Chroma store now, for writing (``allow_damaged``: a folder whose database is gone, for a rebuild)."""
        if self._store is None:
            from paperchat.engine.warm import open_engine_store

            self._store = open_engine_store(
                self.settings, allow_damaged
            )  # the daemon's kept store, refreshed
        return self._store

    @property
    def store(self):
        """The store (the :class:`~paperchat.store.chroma.ChromaStore`, opened on first use): Chroma answers
        every read and every nearest-neighbour query, in every command, the eval and server mode."""
        return self.open_store()

    @property
    def embedder(self):
        """The embedding model (:func:`paperchat.ingest.embedding.get_embedder`)."""
        if self._embedder is None:
            from paperchat.ingest.embedding import get_embedder

            self._embedder = get_embedder(
                self.settings.embed_model, self.settings.llm_api_key, self.settings.llm_base_url
            )
        return self._embedder

    def preload(self, mode: str | None = None) -> None:
        """Start ``import chromadb`` (0.6-0.9 s) and load the embedding model on background threads, so they
        overlap each other and the caller's work; in LLM ``mode``, also start importing the openai client
        (:func:`paperchat.answer.llm_client.get_client`)."""
        if mode == LLM:
            from paperchat.answer.llm_client import get_client

            get_client(self.settings)
        if self._store is None:
            from paperchat.store.opening import import_chroma

            _background(import_chroma, "paperchat-chroma-import")
        _background(self.embedder.load, "paperchat-model-load")

    def wanted_info(self) -> StoreInfo:
        """The settings this engine builds the store with."""
        return StoreInfo(self.embedder.model_id, self.embedder.dim, self.chunk)

    @property
    def retriever(self):
        """The :class:`~paperchat.retrieve.hybrid.HybridRetriever` (the store's settings checked first)."""
        if self._retriever is None:
            from paperchat.retrieve.hybrid import HybridRetriever

            self.store.check_compatible(self.wanted_info())
            self._retriever = HybridRetriever(
                self.store, self.embedder, self.retriever_mode, self.fusion
            )
        return self._retriever

    def llamaindex_retriever(self, top_k: int = 5):
        """The retriever as a LlamaIndex ``BaseRetriever`` (:class:`paperchat.retrieve.llama.PaperchatRetriever`)."""
        from paperchat.retrieve.llama import PaperchatRetriever

        return PaperchatRetriever(self.retriever, top_k=top_k)

    @property
    def sentences(self):
        """The :class:`~paperchat.answer.extractive.SentenceIndex` (sentence vectors stored at ingest)."""
        if self._sentences is None:
            from paperchat.answer.extractive import SentenceIndex

            self._sentences = SentenceIndex(self.store, self.embedder)
        return self._sentences

    @property
    def checker(self):
        """The :class:`~paperchat.cite.checker.SupportChecker` for LLM answers."""
        if self._checker is None:
            from paperchat.cite.checker import SupportChecker

            self._checker = SupportChecker(
                self.embedder, stored=self.sentences.get
            )  # vectors stored at ingest
        return self._checker

    # -- ingest -----------------------------------------------------------------
    def ingest(
        self,
        paths: list[Path],
        metadata: Path | None = None,
        rebuild: bool = False,
        on_error: str = "stop",
        progress: Progress | None = None,
        only_if_empty: bool = False,
        encoding: str | None = None,
    ) -> IngestReport | None:
        """Load ``paths`` (every file is read and checked before anything is written) and ingest them.

        ``only_if_empty``: do nothing (return ``None``) when the store holds
        papers, waiting for another process that is writing it (the first run).
        """
        from paperchat.ingest import manifest

        t0 = time.perf_counter()
        key = manifest.run_key(paths, metadata, encoding, on_error)
        if not rebuild and not only_if_empty:
            from paperchat.engine.repeat import unchanged_report

            repeat = (
                None
                if self.settings.chroma_url
                else unchanged_report(self.settings.store_path, self.wanted_info(), key)
            )
            phases.mark("manifest checked")
            if repeat is not None:
                repeat.seconds = time.perf_counter() - t0
                return repeat
        from paperchat.ingest.corpus import load_file
        from paperchat.ingest.metadata import join_metadata, load_metadata
        from paperchat.ingest.run import run_ingest
        from paperchat.store import open_writer

        command = manifest.repeat_command(
            paths, metadata, encoding, on_error, bundled=key == self._bundled_run()[0]
        )
        papers, files, skipped, notes = [], [], [], []
        for path in paths:
            loaded, report = load_file(path, on_error=on_error, encoding=encoding)
            papers.extend(loaded)
            files.append(manifest.file_key(path))
            skipped.extend(f"{path}:{line}: {why}" for line, why in report.skipped)
            notes.extend(report.notes)
        if metadata is not None:
            join_metadata(papers, load_metadata(metadata))
        # The files are valid: import LlamaIndex's splitter (seconds) and load the model while the store opens.
        _background(_import_chunker, "paperchat-llamaindex-import")
        self.preload()
        store = self.open_store(allow_damaged=rebuild)
        if rebuild:
            self.embedder.embed(
                ["paperchat rebuild check"]
            )  # an unreachable embeddings endpoint fails before any write
        info = self.wanted_info()
        wait = FIRST_RUN_WAIT_S if only_if_empty else None
        note = (
            "waiting for another paperchat process that is ingesting into this store…"
            if only_if_empty
            else None
        )

        def chunker():
            from paperchat.ingest.chunking import Chunker

            return Chunker(self.chunk, self.embedder.tokenize)

        with open_writer(
            store, info, rebuild=rebuild, wait_s=wait, wait_note=note, run=(key, command)
        ) as writer:
            if only_if_empty and not writer.fresh_for(key):
                return None
            report = run_ingest(
                writer, papers, files, info, chunker, self.embedder, on_error, progress
            )
            report.lines_skipped, report.notes = (
                skipped + report.lines_skipped,
                notes + report.notes,
            )
            kept = report.papers_added + report.papers_updated + report.papers_unchanged
            writer.manifest = {
                key: manifest.record(
                    paths,
                    metadata,
                    {
                        "files": report.files,
                        "papers_seen": report.papers_seen,
                        "papers_unchanged": kept,
                        "duplicates_skipped": report.duplicates_skipped,
                        "duplicates_merged": report.duplicates_merged,
                        "lines_skipped": report.lines_skipped,
                    },
                )
            }
        report.notes += (
            writer.notes
        )  # what could not be written after the commit (the ingest manifest)
        report.total_papers, report.total_chunks = store.counts()
        return report

    @staticmethod
    def _bundled_run() -> tuple[str, list[Path], Path]:
        """``(run key, files, metadata file)`` of ingesting the bundled corpus."""
        from paperchat.ingest.corpus import bundled_corpus_files, bundled_metadata
        from paperchat.ingest.manifest import run_key

        return (
            run_key(bundled_corpus_files(), bundled_metadata(), None, "stop"),
            bundled_corpus_files(),
            bundled_metadata(),
        )

    def ensure_corpus(self, progress: Progress | None = None) -> IngestReport | None:
        """Ingest the bundled corpus when the store is empty (an interrupted first run is resumed); else ``None``.

        A store an ingest of other files is writing, or was interrupted in, never gets the bundled corpus:
        with no paper stored yet that is a :class:`StoreError` saying which ingest to wait for or run again.
        """
        from paperchat.store.runs import refuse_first_run

        chroma = self.open_store()
        chroma.refresh()
        key, files, metadata = self._bundled_run()
        if refuse_first_run(chroma, key):
            return None
        return self.ingest(files, metadata, progress=progress, only_if_empty=True)

    # -- papers -------------------------------------------------------------------
    def papers(self, filters: Filters | None = None) -> list[PaperRecord]:
        """Every stored paper (no abstracts) that passes ``filters``, by origin (file name, path, position)."""
        records, ids = self.store.papers(abstracts=False), self.paper_ids(filters)
        phases.mark("store read")
        chosen = [r for r in records.values() if ids is None or r.paper_id in ids]
        return sorted(chosen, key=lambda r: (r.source_path, r.source_file, r.source_index))

    def paper_ids(self, filters: Filters | None) -> frozenset[str] | None:
        """The ids of the papers ``filters`` lets through (:func:`~paperchat.retrieve.filters.matching_ids`);
        ``None`` when it lets every paper through. Raises :class:`PaperchatError` when it matches none."""
        if not filters:
            return None
        revision = self.store.revision()
        if self._filtered[:2] != (revision, filters):
            records = self.store.papers(abstracts=False)
            ids = matching_ids(filters, records)
            self._filtered = (revision, filters, None if len(ids) == len(records) else ids)
        return self._filtered[2]

    # -- answering ------------------------------------------------------------------
    def mode(self, requested: str | None = None) -> str:
        """The answer mode for ``requested`` (``auto``/``llm``/``extractive``; default: the setting)."""
        return decide_mode(self.settings, requested)

    def retrieve(
        self, question: str, top_k: int | None = None, qvec=None, paper_ids: frozenset | None = None
    ) -> list:
        """Retrieved :class:`~paperchat.retrieve.hybrid.Hit` s for ``question`` (one per paper; of ``paper_ids`` only).

        Searched without its instruction words (:func:`~paperchat.answer.intent.retrieval_query`; ``qvec`` is used
        only when nothing was stripped); a comparison gets a paper per name (:mod:`paperchat.answer.subjects`).
        """
        from paperchat.answer.intent import retrieval_query
        from paperchat.answer.subjects import complete_hits

        query, k = retrieval_query(question), top_k or self.settings.top_k
        hits = self.retriever.retrieve(
            query, k, qvec=qvec if query == question else None, paper_ids=paper_ids
        )
        return complete_hits(
            question,
            hits,
            lambda q, n: self.retriever.retrieve(q, n, paper_ids=paper_ids),
            self.store.papers,
            k,
        )

    def ask(
        self,
        question: str,
        top_k: int | None = None,
        mode: str | None = None,
        on_token: OnToken | None = None,
        filters: Filters | None = None,
    ) -> Answer:
        """Answer ``question``: retrieve over all papers (those ``filters`` lets through), then :meth:`answer_from_hits`.

        ``mode``: ``auto`` (default), ``llm`` or ``extractive``. In LLM mode the
        answer streams to ``on_token(piece)``. Raises :class:`PaperchatError`
        for an empty or too long question, a filter that matches no paper and LLM errors.
        """
        t0 = time.perf_counter()
        question = clean_question(question)
        answer_mode = self.mode(mode)
        fallback = (mode or self.settings.mode or "auto").lower() == "auto"
        if answer_mode == LLM:
            from paperchat.answer.llm_client import get_client

            get_client(self.settings)  # starts importing openai while we retrieve
        self.store.refresh()
        from paperchat.answer.intent import FIND, read_question

        self.retriever  # the store's settings are checked before anything is embedded  # noqa: B018
        paper_ids = self.paper_ids(filters)
        phases.mark("store opened")
        qvec = self.embedder.embed_one(question)
        phases.mark("question embedded")
        k = top_k or self.settings.top_k
        intent = read_question(question)
        if intent.kind == FIND and intent.plural:
            k = max(
                k, PLURAL_TOP_K
            )  # "which papers ...": every paper above the bar, not only the first five
        hits = self.retrieve(question, k, qvec=qvec, paper_ids=paper_ids)
        phases.mark("retrieved")
        answer = self.answer_from_hits(
            question, hits, qvec=qvec, mode=answer_mode, on_token=on_token, t0=t0, fallback=fallback
        )
        if (
            answer.abstained
            and answer.mode == EXTRACTIVE
            and paper_ids
            and len(paper_ids) == 1
            and not terms(question)
        ):  # "What does it propose?" --paper ID: no content word, one paper
            answer = self.summarize_record(
                self.store.papers(list(paper_ids))[next(iter(paper_ids))]
            )
            answer.question, answer.notes = (
                question,
                ["the filters let one paper through: its summary"],
            )
        phases.mark("answered")
        return answer

    def answer_from_hits(
        self,
        question: str,
        hits: list,
        records: dict[str, PaperRecord] | None = None,
        qvec=None,
        mode: str = EXTRACTIVE,
        on_token: OnToken | None = None,
        t0: float | None = None,
        fallback: bool = False,
    ) -> Answer:
        """Answer ``question`` from the given hits (rank order) only, in ``mode`` (``llm`` or ``extractive``).

        ``records`` are the hits' paper records (read when ``None``), ``qvec``
        the question's embedding (computed when ``None``). The chat session
        calls this with hits restricted to the papers a follow-up refers to.
        In LLM mode the LLM is not asked when retrieval found nothing relevant
        (:data:`LLM_MIN_COSINE`, or a name no retrieved abstract mentions).
        ``fallback`` (``--mode auto``): an LLM that cannot be reached, or that
        returns an empty answer, gives the offline answer, with a note, instead
        of an error.
        """
        from paperchat.answer.offline import offline_answer
        from paperchat.answer.subjects import missing_names

        t0 = time.perf_counter() if t0 is None else t0
        if records is None:
            records = self.store.papers([h.paper_id for h in hits])
        if qvec is None:
            qvec = self.embedder.embed_one(question)
        if mode == LLM:
            relevant = [h for h in hits if h.paper_id in records]
            best = max((h.dense or 0.0 for h in relevant), default=0.0)
            texts = [
                records[h.paper_id].title + "\n" + records[h.paper_id].abstract for h in relevant
            ]
            if relevant and best >= LLM_MIN_COSINE and not missing_names(question, texts):
                from paperchat.answer.llm_answer import llm_answer

                try:
                    answer = llm_answer(
                        question, hits, records, self.settings, self.checker, on_token=on_token
                    )
                except (LLMConnectionError, LLMEmptyAnswer) as exc:
                    if not fallback:
                        raise
                    answer = self.answer_from_hits(question, hits, records, qvec, EXTRACTIVE, t0=t0)
                    answer.notes.append(f"{exc}; answered offline by quoting the abstracts")
                    return answer
                answer.timings["pipeline_total_s"] = round(time.perf_counter() - t0, 4)
                return answer
            answer = Answer.abstention(
                question,
                LLM,
                [h.retrieved() for h in hits],
                model=self.settings.llm_model,
                notes=["nothing retrieved answers the question; the LLM was not asked"],
            )
            if on_token:
                on_token(answer.answer)
        else:
            bm25 = self.store.bm25()
            answer = offline_answer(
                question,
                qvec,
                hits,
                records,
                self.sentences,
                self.store.chunk_texts,
                n_papers=len(bm25.ids),
                lexicon=bm25,
            )
        answer.timings["total_s"] = round(time.perf_counter() - t0, 4)
        return answer

    def summarize_record(
        self, record: PaperRecord, mode: str = EXTRACTIVE, on_token: OnToken | None = None
    ) -> Answer:
        """A cited summary of one stored paper (:func:`paperchat.engine.summaries.summarize_record`)."""
        from paperchat.engine.summaries import summarize_record

        return summarize_record(self, record, mode, on_token)

    def summarize(
        self,
        target: str,
        top_k: int = 5,
        mode: str | None = None,
        on_token: OnToken | None = None,
        filters: Filters | None = None,
    ) -> Answer:
        """A cited summary of a paper or a topic (:func:`paperchat.engine.summaries.summarize`)."""
        from paperchat.engine.summaries import summarize

        return summarize(self, target, top_k, mode, on_token, filters)

    def condense(self, history: list[tuple[str, str]], question: str, mode: str) -> str | None:
        """A chat follow-up rewritten as a standalone question by the LLM; ``None`` offline (rules resolve it)."""
        if mode != LLM or not history:
            return None
        from paperchat.answer.llm_answer import condense_question

        return condense_question(history, question, self.settings)
