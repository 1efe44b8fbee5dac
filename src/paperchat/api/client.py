"""The Python API: :class:`Paperchat`, one object over one store, for notebooks and scripts.

Every method raises :class:`~paperchat.core.errors.PaperchatError` (with the
one-line message the CLI prints) where the CLI would exit with an error;
nothing here calls ``sys.exit`` or prints to stdout. The engine (embedding
model, store, indexes) loads on first use and stays warm across calls. Not
thread-safe: use one object per thread, or a lock.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from paperchat.api.arguments import (
    FirstRun,
    filter_args,
    ingest_args,
    paths_arg,
    python_api,
    text_arg,
    top_k_arg,
)
from paperchat.api.citing import Citing
from paperchat.api.results import Answer, SearchHit
from paperchat.core.background import join_background
from paperchat.core.errors import BadArgument, PaperchatError, StoreError
from paperchat.core.settings import BY_NAME, load_settings
from paperchat.ingest.records import PaperRecord, resolve_id
from paperchat.retrieve.filters import Filters

PathLike = str | os.PathLike


#: The error of a :class:`Paperchat` used in a process forked from the one that opened it.
FORKED = (
    "this Paperchat was opened in another process; a forked process cannot use its store (Chroma's client "
    "hangs): run workers with multiprocessing.get_context('spawn') and open a Paperchat in each"
)


@python_api  # messages name the arguments (year=2019), not the CLI's flags (--year 2019)
class Paperchat(Citing):
    """Cited question answering over one paperchat store.

    ``store``: the store folder (default: the same store the ``paperchat``
    command uses, ``--store`` / ``PAPERCHAT_STORE`` / the per-user data folder).
    On the default store, the first question ingests the bundled corpus when
    the store is empty, as ``paperchat ask`` does; a ``store`` folder that does
    not exist is an error for every method but :meth:`ingest`, which creates it.
    Other keyword arguments are settings by name (``mode``, ``top_k``,
    ``llm_model``, ``llm_base_url``, ``chroma_url``, ...; README, "Settings").

    The filters every reading method takes: ``author`` (words of an author's
    name, any case and order), ``venue`` (whole words of the venue, any case),
    ``year``, ``papers`` (paper ids). Retrieval is restricted to the papers
    that match all of them; a filter that matches no paper raises.

    Example::

        from paperchat import Paperchat
        pc = Paperchat()
        answer = pc.ask("What does ConfPO use to pick preference-critical tokens?")
        answer.sources[0].title
    """

    def __init__(self, store: PathLike | None = None, **settings: Any):
        unknown = sorted(set(settings) - set(BY_NAME))
        if unknown:
            raise BadArgument(
                f"unknown setting(s) {', '.join(unknown)} (known: {', '.join(sorted(BY_NAME))})"
            )
        if store is not None and not isinstance(store, (str, os.PathLike)):
            raise BadArgument(f"store must be a folder path, not {type(store).__name__}")
        if store is not None and not str(store).strip():  # Path("") is ".", the current folder
            raise BadArgument("store is empty; leave it out to use the default store")
        flags = {"store": str(Path(store).expanduser()) if store is not None else None, **settings}
        try:
            self.settings = load_settings({k: v for k, v in flags.items() if v is not None})
        # an argument's value out of range: a BadArgument, as a method's is
        except PaperchatError as exc:
            raise BadArgument(str(exc)) from None
        from paperchat.engine import Engine

        self.engine = Engine(self.settings)
        self._seeded, self._pid = False, os.getpid()

    def __repr__(self) -> str:
        return f"Paperchat(store={str(self.settings.store_path)!r}, mode={self.settings.mode!r})"

    def _ready(self) -> None:
        """Refuse a folder that holds no store (a read makes none), and use in a forked process; seed an empty
        default store (once)."""
        from paperchat.core.commands import ingest_command

        # a forked child's Chroma client hangs for good (a notebook session)
        if os.getpid() != self._pid:
            raise PaperchatError(FORKED)

        settings = self.settings
        if (
            not settings.chroma_url
            and settings.origins.get("store") != "default"
            and not (settings.store_path / "chroma").exists()
        ):
            # none there (an MCP server on an ordinary folder had made an empty store, `check` then "sound")
            raise StoreError(
                f"no store at {settings.store_path}; run `{ingest_command(settings)}` first"
            )
        if not self._seeded:
            if settings.origins.get("store") == "default" and not settings.chroma_url:
                self.engine.ensure_corpus(progress=FirstRun(settings.store_path))
            self._seeded = True

    def filters(
        self,
        author: str | None = None,
        venue: str | None = None,
        year: int | None = None,
        papers: Iterable[str] | str | None = None,
    ) -> Filters:
        """The :class:`~paperchat.retrieve.filters.Filters` for these values (``papers``: one id or several).

        Raises :class:`PaperchatError` for a value of the wrong type, or one given but empty (``author=""``,
        ``papers=[]``), which the CLI refuses too rather than search every paper.
        """
        return Filters.of(*filter_args(author, venue, year, papers))

    # -- reading ----------------------------------------------------------------------------
    def ask(
        self,
        question: str,
        *,
        top_k: int | None = None,
        mode: str | None = None,
        author: str | None = None,
        venue: str | None = None,
        year: int | None = None,
        papers: Iterable[str] | str | None = None,
        on_token: Callable[[str], None] | None = None,
    ) -> Answer:
        """Answer ``question`` from the abstracts, every sentence cited ``[n]``; abstains when they hold no answer.

        ``top_k``: papers to retrieve (default: the setting, 5; a "which papers" question given none lists up
        to 10 above the relevance bar, as the CLI does); ``mode``:
        ``auto``, ``llm`` or ``extractive``; ``on_token(piece)`` receives an LLM
        answer as it streams. Raises :class:`PaperchatError` for an empty
        question, a filter that matches nothing, or an LLM failure.
        """
        # None stays None: the engine tells a top-k given from the setting's default
        question, top_k = text_arg(question, "question"), top_k_arg(top_k, None)
        filters = self.filters(author, venue, year, papers)
        self._ready()
        return Answer.of(self.engine.ask(question, top_k, mode, on_token, filters=filters))

    def summarize(
        self,
        target: str,
        *,
        top_k: int | None = None,
        mode: str | None = None,
        author: str | None = None,
        venue: str | None = None,
        year: int | None = None,
        papers: Iterable[str] | str | None = None,
    ) -> Answer:
        """A cited summary of ``target``: a paper (id, label, title or words of it), else a topic (``top_k`` papers;
        default: the setting when set, else up to 10 above the relevance bar, as the CLI does).

        Raises :class:`PaperchatError` for an empty target, an unknown paper id
        or a filter that matches nothing.
        """
        target, top_k = text_arg(target, "summary target"), top_k_arg(top_k, None)
        filters = self.filters(author, venue, year, papers)
        self._ready()
        return Answer.of(self.engine.summarize(target, top_k=top_k, mode=mode, filters=filters))

    def _id_as_title(self, query: str) -> str:
        """``query`` as the title of the paper it names when it is nothing but a stored paper's id (an agent
        searching an id it holds had got five unrelated papers): that paper, then its neighbours."""
        from paperchat.answer.named_papers import ids_named

        bare = re.sub(r"^\s*paper://", "", query).strip(" \t[]<>\"'`")  # a resource's address too
        named = ids_named(bare, self.engine.catalog(), self.engine.aliases())
        if len(named) != 1 or bare.lower() != next(iter(named)).lower():
            return query
        return self.engine.catalog()[next(iter(named.values()))].name

    def search(
        self,
        query: str,
        *,
        top_k: int | None = None,
        author: str | None = None,
        venue: str | None = None,
        year: int | None = None,
        papers: Iterable[str] | str | None = None,
    ) -> list[SearchHit]:
        """The ``top_k`` papers (default: the setting, 5) that best match ``query`` (hybrid retrieval), best first,
        each with the abstract sentence closest to it. Raises :class:`PaperchatError` for an empty query or a
        filter that matches nothing."""
        import numpy as np

        from paperchat.core.text import clean_question

        query, top_k = text_arg(query, "query"), top_k_arg(top_k, self.settings.top_k)
        filters = self.filters(author, venue, year, papers)
        self._ready()
        engine = self.engine
        query = clean_question(query)
        engine.store.refresh()
        engine.retriever  # the store's settings are checked before anything is embedded  # noqa: B018
        ids = engine.paper_ids(filters)
        query = self._id_as_title(query)
        qvec = engine.embedder.embed_one(query)
        hits = engine.retrieve(query, top_k, qvec=qvec, paper_ids=ids)
        records = engine.store.papers([h.paper_id for h in hits])
        sentences = engine.sentences.get([(pid, rec.abstract) for pid, rec in records.items()])
        out = []
        for hit in hits:
            rec = records.get(hit.paper_id)
            if rec is None:
                continue
            sents, vecs = sentences.get(hit.paper_id, ([], None))
            best = (
                sents[int(np.argmax(vecs @ qvec))]
                if sents and vecs is not None and len(vecs)
                else ""
            )
            out.append(
                SearchHit(
                    rec.paper_id,
                    rec.name,
                    list(rec.authors),
                    rec.url,
                    rec.venue,
                    rec.year,
                    float(hit.score),
                    best,
                )
            )
        return out

    def papers(
        self,
        *,
        author: str | None = None,
        venue: str | None = None,
        year: int | None = None,
        papers: Iterable[str] | str | None = None,
        abstracts: bool = False,
    ) -> list[PaperRecord]:
        """The stored papers that match the filters, by origin; ``abstract`` is empty unless ``abstracts``
        (a DataFrame of them had an empty column; :meth:`paper` one by one took 4 s at 2,740 papers).

        Each :class:`~paperchat.ingest.records.PaperRecord` has ``paper_id``,
        ``title``, ``label``, ``authors``, ``url``, ``venue``, ``year`` and its
        origin; :func:`paperchat.api.results.paper_listing` gives its ``papers --json`` form.
        """
        if not isinstance(abstracts, bool):
            raise BadArgument(f"abstracts must be True or False, not {abstracts!r}"[:120])
        self._ready()
        return self.engine.papers(self.filters(author, venue, year, papers), abstracts)

    def paper(self, paper_id: str) -> PaperRecord:
        """One stored paper with its abstract (a merged duplicate's id names the kept paper; an id in another case
        names the paper whose id it is, when only one is).

        Raises :class:`PaperchatError` when no stored paper has that id.
        """
        paper_id = text_arg(paper_id, "paper id")
        self._ready()
        store = self.engine.store
        store.refresh()
        wanted = " ".join((paper_id or "").split())
        found = store.papers([wanted]).get(wanted)
        # a merged duplicate's id, an id in another case, a p-… id from another store
        if found is None:
            aliases = self.engine.id_aliases([wanted])
            same = resolve_id(wanted, self.engine.catalog(), aliases)
            found = store.papers([same]).get(same) if same else None
        if found is None:
            # an agent may send 100k characters
            shown = wanted if len(wanted) <= 80 else wanted[:79] + "…"
            raise PaperchatError(
                f"no paper with id {shown or '(empty)'} in the store; `paperchat papers` lists them"
            )
        return found

    # -- writing and export --------------------------------------------------------------------
    def ingest(
        self,
        paths: PathLike | Sequence[PathLike] | None = None,
        *,
        metadata: PathLike | None = None,
        rebuild: bool = False,
        on_error: str = "stop",
        encoding: str | None = None,
        progress: Callable[[int, int], None] | None = None,
    ):
        """Add corpus files (JSONL, CSV or seed text; ``None``, the default: the bundled corpus) to the store,
        creating it.

        Returns the :class:`~paperchat.ingest.run.IngestReport` (counts of papers
        added, updated, unchanged, removed; chunks embedded; seconds).
        ``progress(done, total)`` is called as chunks are embedded. Raises
        :class:`PaperchatError` for a missing or malformed file (nothing is written then), for an empty
        list (``glob`` matched nothing: the bundled corpus is not added in its place) and for ``paths``
        that is neither a path nor a list of paths.
        """
        from paperchat.ingest.corpus import bundled_corpus_files, bundled_metadata, corpus_files

        if os.getpid() != self._pid:
            raise PaperchatError(FORKED)
        ingest_args(rebuild, metadata, encoding, progress, on_error)
        items = (
            None if paths is None else paths_arg(paths, "pass none to ingest the bundled corpus")
        )
        # a folder stands for the corpus files inside it, as on the command line
        files, folder_notes = corpus_files(items or ())
        if not files:
            if rebuild:
                from paperchat.engine.ingesting import refuse_bare_rebuild

                refuse_bare_rebuild(self.engine)
            files, metadata = (
                bundled_corpus_files(),
                metadata if metadata is not None else bundled_metadata(),
            )
        report = self.engine.ingest(
            files,
            metadata=Path(metadata) if metadata is not None else None,
            rebuild=rebuild,
            on_error=on_error,
            progress=progress,
            encoding=encoding,
        )
        report.notes[:0] = folder_notes
        return report

    def remove(self, paths: PathLike | Sequence[PathLike]):
        """Take out the papers that files (or the files under a folder) gave the store, also when the files
        are gone, as ``paperchat remove`` does; a paper another file holds stays. Returns the
        :class:`~paperchat.ingest.run.IngestReport` (``papers_removed``). Raises :class:`PaperchatError`
        when no stored paper came from one of ``paths`` (nothing is removed then)."""
        from paperchat.engine.forgetting import forget

        items = paths_arg(paths, "name the files or folders whose papers to remove")
        files = [p if isinstance(p, str) else Path(p) for p in items]  # "" stays "", refused below
        self._ready()
        return forget(self.engine, files)

    def chat(
        self,
        *,
        mode: str | None = None,
        top_k: int | None = None,
        author: str | None = None,
        venue: str | None = None,
        year: int | None = None,
        papers: Iterable[str] | str | None = None,
    ):
        """A :class:`~paperchat.api.conversation.Conversation` over the store: its ``ask`` reads follow-ups
        ("summarize the second one", "compare them") as ``paperchat chat`` does; ``mode`` is decided once,
        as the chat decides it, and the filters hold for every question."""
        from paperchat.api.conversation import Conversation
        from paperchat.chat.session import ChatSession

        top_k = top_k_arg(top_k, None)
        filters = self.filters(author, venue, year, papers)
        self._ready()
        choice = self.engine.choose_mode(mode)
        session = ChatSession(
            self.engine, choice.mode, top_k=top_k, fallback=choice.fallback, filters=filters
        )
        return Conversation(session)

    def as_retriever(
        self,
        top_k: int | None = None,
        *,
        author: str | None = None,
        venue: str | None = None,
        year: int | None = None,
        papers: Iterable[str] | str | None = None,
    ):
        """paperchat's hybrid retriever as a LlamaIndex ``BaseRetriever`` (imports LlamaIndex now, not before):
        :class:`paperchat.retrieve.llama.PaperchatRetriever`, one ``NodeWithScore`` per paper the filters match."""
        top_k = top_k_arg(top_k, self.settings.top_k)
        filters = self.filters(author, venue, year, papers)
        self._ready()
        join_background()  # an ingest's LlamaIndex import on its thread and this one had deadlocked
        from paperchat.retrieve.llama import PaperchatRetriever

        ids = self.engine.paper_ids(filters)
        return PaperchatRetriever(self.engine.retriever, top_k=top_k, paper_ids=ids)
