"""The engine: composes the stages into what users ask for (ingest, ask, summarize).

:class:`Engine` opens the store, the embedding model and the retriever
lazily from :class:`~paperchat.core.settings.Settings`, and is what the CLI,
the chat session, the eval and the benchmark share. Every answer is an
:class:`~paperchat.core.contract.Answer`; the answer mode is decided once
per request (:func:`paperchat.answer.mode.choose_mode`). The jobs live in
modules beside it: :mod:`~paperchat.engine.ingesting` (ingest orchestration), :mod:`~paperchat.engine.asking`
(one question over the store), :mod:`~paperchat.engine.answering` (answering from hits),
:mod:`~paperchat.engine.followups` (chat follow-ups) and :mod:`~paperchat.engine.summaries`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from paperchat.answer.mode import ModeChoice, choose_mode
from paperchat.core.background import background as _background
from paperchat.core.contract import EXTRACTIVE, LLM, Answer
from paperchat.core.errors import StoreError
from paperchat.core.resolution import Resolution
from paperchat.core.settings import Settings
from paperchat.engine.catalog import Catalog
from paperchat.engine.rebuilds import again_after_rebuild
from paperchat.ingest.chunking import ChunkSettings
from paperchat.ingest.records import PaperRecord, StoreInfo
from paperchat.ingest.run import IngestReport
from paperchat.retrieve.filters import Filters
from paperchat.store.runs import building_message

if TYPE_CHECKING:
    from paperchat.engine.followups import FollowupAnswer

Progress = Callable[[int, int], None]
OnToken = Callable[[str], None]


#: Said beside an abstention on a question that is not in English (:func:`paperchat.core.text.not_in_english`).
NOT_ENGLISH = (
    "the question does not read as English, and the abstracts are in English: ask it in English"
)


class Engine(Catalog):
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
        #: the store revision last seen holding papers (require_papers)
        self._holding: str | None = None
        #: why the store read is partial (an interrupted ingest), said in each answer's notes; or None
        self.partial: str | None = None
        self._filtered: tuple = (None, None, None)  # (store revision, filters, matching ids)
        self._catalog: tuple = (
            None,
            {},
            {},
        )  # (store revision, records, what is derived from them)

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
        """Load the embedding model on a background thread while the caller opens the store (they overlap);
        in LLM ``mode``, also start importing the openai client (:func:`paperchat.answer.llm_client.get_client`).
        (Importing ``chromadb`` on a thread too was measured and gained nothing: the store is needed at once.)"""
        if mode == LLM:
            from paperchat.answer.llm_client import get_client

            get_client(self.settings)
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
        """The :class:`~paperchat.answer.sentences.SentenceIndex` (sentence vectors stored at ingest)."""
        if self._sentences is None:
            from paperchat.answer.sentences import SentenceIndex

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
        """Load ``paths`` (every file is read and checked before anything is written) and ingest them
        (:func:`paperchat.engine.ingesting.ingest`).

        ``only_if_empty``: do nothing (return ``None``) when the store holds
        papers, waiting for another process that is writing it (the first run).
        """
        from paperchat.engine.ingesting import ingest

        return ingest(self, paths, metadata, rebuild, on_error, progress, only_if_empty, encoding)

    @again_after_rebuild
    def ensure_corpus(self, progress: Progress | None = None) -> IngestReport | None:
        """Ingest the bundled corpus when the store is empty (an interrupted first run is resumed); else
        ``None`` (:func:`paperchat.engine.ingesting.ensure_corpus`). Its count of the store's papers is read
        again, once, when a rebuild in another process switches generations under it, as the answer's is."""
        from paperchat.engine.ingesting import ensure_corpus

        return ensure_corpus(self, progress)

    # -- answering ------------------------------------------------------------------
    def choose_mode(self, requested: str | None = None) -> ModeChoice:
        """The answer mode for ``requested`` (``auto``/``llm``/``extractive``; default: the setting) and
        whether an unreachable LLM falls back offline (:func:`paperchat.answer.mode.choose_mode`)."""
        return choose_mode(self.settings, requested)

    def mode(self, requested: str | None = None) -> str:
        """The answer mode (``llm`` or ``extractive``) for ``requested``: :meth:`choose_mode`'s."""
        return self.choose_mode(requested).mode

    def require_papers(self) -> None:
        """Raise :class:`StoreError` when the store holds no papers, saying how to fill it, or its first ingest
        still writes it; checked once per store revision (on a Chroma server a count is a request)."""
        revision = self.store.revision()
        if revision == self._holding:
            return
        if busy := building_message(self.store):
            raise StoreError(busy)
        if not self.store.counts()[0]:
            from paperchat.core.commands import ingest_command

            command = ingest_command(self.settings)
            raise StoreError(
                f"the store at {self.settings.chroma_url or self.settings.store_path} holds no papers; "
                f"run `{command}` (the bundled corpus) or `{command} FILE` first"
            )
        from paperchat.store.runs import being_written, describe

        # a reliability session: `ask` on a store an interrupted ingest left partial said nothing of it
        runs = self.store.runs()
        self.partial = (
            describe(runs, False, self.store.counts()[0], self.store.where())
            if runs and not being_written(self.store)
            else None
        )
        self._holding = revision

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
        self.require_papers()
        hits = self.retriever.retrieve(
            query, k, qvec=qvec if query == question else None, paper_ids=paper_ids
        )
        return complete_hits(
            question,
            hits,
            lambda q, n: self.retriever.retrieve(q, n, paper_ids=paper_ids),
            self.retriever.records,
            k,
        )

    @again_after_rebuild
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
        from paperchat.core.text import not_in_english
        from paperchat.engine.asking import ask

        answer = ask(self, question, top_k, mode, on_token, filters)
        if answer.abstained and not_in_english(question, self._is_word):
            answer.notes.append(NOT_ENGLISH)
        if self.partial:
            answer.notes.append(self.partial)
        return answer

    def _is_word(self, word: str) -> bool:
        """Whether lower-case ``word`` is English or a word the stored papers write."""
        from paperchat.ingest.english import is_english

        return is_english(word) or self.store.bm25().word_df(word) > 0

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
        referred: bool = False,
    ) -> Answer:
        """Answer ``question`` from the given hits (rank order) only, in ``mode`` (``llm`` or ``extractive``):
        :func:`paperchat.engine.answering.answer_from_hits` (the LLM gate, the offline fallback when
        ``fallback``, the extractive answer). ``records`` and ``qvec`` are read and computed when ``None``."""
        from paperchat.engine.answering import answer_from_hits

        return answer_from_hits(
            self,
            question,
            hits,
            records,
            qvec,
            mode,
            on_token,
            t0=t0,
            fallback=fallback,
            referred=referred,
        )

    @again_after_rebuild
    def ask_followup(
        self,
        resolution: Resolution,
        recent_turns: list[tuple[str, str]],
        mode: str | None = None,
        top_k: int | None = None,
        on_token: OnToken | None = None,
        filters: Filters | None = None,
        fallback: bool | None = None,
    ) -> FollowupAnswer:
        """Answer a chat question by its :class:`~paperchat.core.resolution.Resolution` (restricted to or
        boosted towards the papers it refers to; :func:`paperchat.engine.followups.ask_followup`).

        ``recent_turns``: the last ``(question, answer text)`` pairs (an LLM rewrites the follow-up from
        them). ``mode``: as :meth:`ask` (``auto`` by default), or a decided ``llm``/``extractive`` with
        ``fallback`` given. Returns a :class:`~paperchat.engine.followups.FollowupAnswer` (the answer and
        the ranking it came from); ``resolution`` is updated in place.
        """
        from paperchat.engine.followups import ask_followup

        if fallback is None:
            choice = self.choose_mode(mode)
            mode, fallback = choice.mode, choice.fallback
        return ask_followup(
            self, resolution, recent_turns, mode, top_k, fallback, on_token, filters
        )

    def summarize_record(
        self, record: PaperRecord, mode: str = EXTRACTIVE, on_token: OnToken | None = None
    ) -> Answer:
        """A cited summary of one stored paper (:func:`paperchat.engine.summaries.summarize_record`)."""
        from paperchat.engine.summaries import summarize_record

        return summarize_record(self, record, mode, on_token)

    @again_after_rebuild
    def summarize(
        self,
        target: str,
        top_k: int | None = None,
        mode: str | None = None,
        on_token: OnToken | None = None,
        filters: Filters | None = None,
    ) -> Answer:
        """A cited summary of a paper or a topic (:func:`paperchat.engine.summaries.summarize`)."""
        from paperchat.engine.summaries import summarize

        answer = summarize(self, target, top_k, mode, on_token, filters)
        if self.partial:
            answer.notes.append(self.partial)
        return answer

    def condense(self, history: list[tuple[str, str]], question: str, mode: str) -> str | None:
        """A chat follow-up rewritten as a standalone question by the LLM; ``None`` offline (rules resolve it)."""
        if mode != LLM or not history:
            return None
        from paperchat.answer.llm_answer import condense_question

        return condense_question(history, question, self.settings)
