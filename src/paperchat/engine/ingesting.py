"""Ingest orchestration: load and check the files, take the unchanged fast path, write through the store's
writer, and the first run's bundled corpus (waiting for another process that is writing it).

It lives in ``engine/`` rather than ``ingest/`` because it opens the store's writer
(:func:`paperchat.store.open_writer`) and reads its runs: ``ingest`` is the stage
below ``store`` and may not import it (``tests/test_layout.py``). The pure parts stay
in ``ingest/`` (loading, the plan, the batch run :func:`paperchat.ingest.run.run_ingest`,
the manifest); :meth:`paperchat.engine.Engine.ingest` and
:meth:`~paperchat.engine.Engine.ensure_corpus` delegate here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from paperchat.core import phases
from paperchat.core.background import background as _background
from paperchat.core.commands import command as store_command
from paperchat.ingest.run import IngestReport

Progress = Callable[[int, int], None]

#: How long a first-run ``ask`` waits for another process that is ingesting the bundled corpus.
FIRST_RUN_WAIT_S = 900.0


def _import_chunker() -> None:
    import importlib

    importlib.import_module("llama_index.core.node_parser")


def chunker_factory(engine):
    """What :func:`paperchat.ingest.run.run_ingest` calls for a :class:`~paperchat.ingest.chunking.Chunker` with
    ``engine``'s chunk settings and tokenizer (made only when something must be chunked)."""

    def chunker():
        from paperchat.ingest.chunking import Chunker

        return Chunker(engine.chunk, engine.embedder.tokenize)

    return chunker


def bundled_run() -> tuple[str, list[Path], Path]:
    """``(run key, files, metadata file)`` of ingesting the bundled corpus."""
    from paperchat.ingest.corpus import bundled_corpus_files, bundled_metadata
    from paperchat.ingest.manifest import run_key

    return (
        run_key(bundled_corpus_files(), bundled_metadata(), None, "stop"),
        bundled_corpus_files(),
        bundled_metadata(),
    )


def _readable_records(store) -> dict:
    """``{paper id: PaperRecord}`` of the papers ``store`` holds; empty when it cannot be read (a damaged
    store)."""
    from paperchat.core.errors import PaperchatError

    try:
        store.refresh()
        return store.papers(abstracts=False)
    except PaperchatError:
        return {}


def _ids(records: dict) -> tuple[set[str], set[str]]:
    """The ids of ``records`` (:func:`_readable_records`), and those ids with their aliases."""
    return set(records), set(records) | {a for r in records.values() for a in r.aliases}


def keep_stored_metadata(papers: list, records: dict) -> None:
    """Give each of ``papers`` (:class:`~paperchat.ingest.corpus.Paper`) the title, authors, url, venue and
    year its stored record (``records``, by paper id) has where the file gives none, and its label anew,
    in place: a rebuild starts empty, and the titles a ``--metadata`` file once gave a title-less file
    were lost when the same files were rebuilt without it (a newcomer's session, thirty-third round), where
    a plain re-ingest keeps them."""
    from paperchat.ingest.labels import short_label

    for paper in papers:
        old = records.get(paper.paper_id)
        if old is None:
            continue
        paper.title, paper.url = paper.title or old.title, paper.url or old.url
        paper.authors = paper.authors or list(old.authors)
        for key, value in (("venue", old.venue), ("year", old.year)):
            if value and not paper.extra.get(key):
                paper.extra[key] = value
        paper.label = short_label(paper.title, paper.abstract)


def refuse_bare_rebuild(engine) -> None:
    """Raise :class:`~paperchat.core.errors.PaperchatError` when a rebuild without files (which ingests the
    bundled corpus alone) would drop papers of the user's own files from ``engine``'s store. A store that
    cannot be read (damaged, of another version) is what such a rebuild is for, so it passes. The CLI's
    ``ingest --rebuild`` and :meth:`paperchat.api.client.Paperchat.ingest` call it before defaulting to
    the bundled corpus."""
    from paperchat.core.errors import PaperchatError
    from paperchat.ingest.corpus import bundled_corpus_files

    try:
        stored = engine.papers()
    except PaperchatError:
        return
    bundled = bundled_corpus_files()
    bundled_files = {str(p.resolve()) for p in bundled} | {p.name for p in bundled}
    own = sorted(
        {
            r.source_path
            for r in stored
            if r.source_file not in bundled_files and r.source_path not in bundled_files
        }
    )
    if own:
        mine = sum(r.source_path in own for r in stored)
        raise PaperchatError(
            f"`ingest --rebuild` without files would leave only the bundled corpus and drop {mine} paper{'s' if mine != 1 else ''} "
            f"of {', '.join(own[:3])}{' ...' if len(own) > 3 else ''}; name the files to keep: "
            f"`{store_command(engine.settings, 'ingest', '--rebuild')} FILES`"
        )


def ingest(
    engine,
    paths: list[Path],
    metadata: Path | None = None,
    rebuild: bool = False,
    on_error: str = "stop",
    progress: Progress | None = None,
    only_if_empty: bool = False,
    encoding: str | None = None,
) -> IngestReport | None:
    """Load ``paths`` (every file is read and checked before anything is written) and ingest them into
    ``engine``'s store (a :class:`paperchat.engine.Engine`) with its embedder and chunk settings.

    A recorded run repeated on unchanged files returns its report without opening Chroma
    (:func:`paperchat.engine.repeat.unchanged_report`). ``only_if_empty``: do nothing (return ``None``)
    when the store holds papers, waiting up to :data:`FIRST_RUN_WAIT_S` for another process that is
    writing it (the first run). Raises what loading (:class:`~paperchat.core.errors.PaperchatError`)
    and the store (:class:`~paperchat.core.errors.StoreError`) raise.
    """
    from paperchat.ingest import manifest

    t0 = time.perf_counter()
    key = manifest.run_key(paths, metadata, encoding, on_error)
    if not rebuild and not only_if_empty:
        from paperchat.engine.repeat import unchanged_report

        repeat = (
            None
            if engine.settings.chroma_url
            else unchanged_report(engine.settings.store_path, engine.wanted_info(), key)
        )
        phases.mark("manifest checked")
        if repeat is not None:
            repeat.seconds = time.perf_counter() - t0
            return repeat
    from paperchat.core.commands import store_options
    from paperchat.ingest.corpus import load_file
    from paperchat.ingest.metadata import join_metadata, load_metadata
    from paperchat.ingest.run import run_ingest
    from paperchat.ingest.text_files import EmptyFile, NothingReadable
    from paperchat.ingest.vector_cache import CachedEmbedding, cached
    from paperchat.store import open_writer

    command = manifest.repeat_command(
        paths,
        metadata,
        encoding,
        on_error,
        bundled=key == bundled_run()[0],
        options=store_options(engine.settings),
    )
    try:  # taken before reading, so an edit saved mid-run is seen by the next run
        read_as = manifest.fingerprints(paths, metadata)
    except OSError:
        read_as = {}  # loading says what is wrong with the file; nothing is recorded as read
    papers, files, skipped, notes, partial = [], [], [], [], set()
    for path in paths:
        try:
            loaded, report = load_file(path, on_error=on_error, encoding=encoding)
        except (EmptyFile, NothingReadable) as exc:
            if on_error != "skip" or len(paths) < 2:
                raise
            # an empty or unreadable file among others (a folder's): skipped like a file of skipped lines,
            # its papers kept
            files.append(manifest.file_key(path))
            partial.add(files[-1])
            skipped.append(f"{path}: file is empty" if isinstance(exc, EmptyFile) else str(exc))
            continue
        papers.extend(loaded)
        files.append(manifest.file_key(path))
        if report.skipped:
            partial.add(files[-1])
        skipped.extend(f"{path}:{line}: {why}" for line, why in report.skipped)
        notes.extend(report.notes)
    if metadata is not None:
        rows = load_metadata(metadata)
        matched = join_metadata(papers, rows)
        if matched < len(rows):  # rows for other files, or positions past a file's end
            notes.append(
                f"{metadata}: {len(rows) - matched} of {len(rows)} metadata rows matched no paper "
                "(a row names its paper by file name and position)"
            )
    # The files are valid: import LlamaIndex's splitter (seconds) and load the model while the store opens.
    _background(_import_chunker, "paperchat-llamaindex-import")
    engine.preload()
    store = engine.open_store(allow_damaged=rebuild)
    stored = _readable_records(store) if rebuild else {}
    before = _ids(stored)
    keep_stored_metadata(papers, stored)
    if rebuild:
        engine.embedder.embed(
            ["paperchat rebuild check"]
        )  # an unreachable embeddings endpoint fails before any write
    info = engine.wanted_info()
    wait = FIRST_RUN_WAIT_S if only_if_empty else None
    note = (
        "waiting for another paperchat process that is ingesting into this store…"
        if only_if_empty
        else None
    )

    with open_writer(
        store, info, rebuild=rebuild, wait_s=wait, wait_note=note, run=(key, command)
    ) as writer:
        if only_if_empty and not writer.fresh_for(key):
            return None
        embedding = cached(
            engine.embedder, engine.settings.vector_cache, engine.settings.vector_cache_mib
        )
        try:
            report = run_ingest(
                writer,
                papers,
                files,
                info,
                chunker_factory(engine),
                embedding,
                on_error,
                progress,
                partial,
                lambda f: store_command(engine.settings, "remove", f),
            )
        finally:
            if isinstance(embedding, CachedEmbedding):
                embedding.close()
        # an interrupted run whose files this one read whole is finished too ("ingest c.jsonl g.jsonl" after
        # an interrupted "ingest g.jsonl": check had failed until the very same command ran again)
        mine = set(manifest.run_files(key))
        writer.drop_runs(
            {
                r
                for r in writer.runs
                if r != key and (files := manifest.run_files(r)) and set(files) <= mine
            }
        )
        report.lines_skipped, report.notes = (
            skipped + report.lines_skipped,
            notes + report.notes,
        )
        kept = report.papers_added + report.papers_updated + report.papers_unchanged
        writer.manifest = (
            {}
            if not read_as
            else {
                key: manifest.record(
                    read_as,
                    {
                        "files": report.files,
                        "papers_seen": report.papers_seen,
                        "papers_unchanged": kept,
                        "duplicates_skipped": report.duplicates_skipped,
                        "duplicates_merged": report.duplicates_merged,
                        "lines_skipped": report.lines_skipped,
                        "notes": report.notes,  # a repeat says again what was kept and why
                    },
                )
            }
        )
    report.notes += writer.notes  # what could not be written after the commit (the ingest manifest)
    if isinstance(embedding, CachedEmbedding):  # this run's own: not kept in the manifest
        report.notes += embedding.notes
    if (
        rebuild
    ):  # a rebuild starts empty: count against the store it replaced (an alias is no paper)
        ids, named = _ids(_readable_records(store))
        # a paper stored now under an id the old one had as an alias (an ICML id merged into a bundled
        # paper's p-... id) is updated, not also removed (a reliability engineer's 100 updated, 2642 removed
        # of 2,740)
        report.papers_removed = sum(
            pid not in named and not set(r.aliases) & ids for pid, r in stored.items()
        )
        report.papers_added, report.papers_updated = len(ids - before[1]), len(ids & before[1])
        report.papers_unchanged = 0
    report.total_papers, report.total_chunks = store.counts()
    return report


def ensure_corpus(engine, progress: Progress | None = None) -> IngestReport | None:
    """Ingest the bundled corpus into ``engine``'s embedded store when it is empty (an interrupted first run is
    resumed); else ``None`` (always for a Chroma server, which is filled only by an ``ingest``).

    A store an ingest of other files is writing, or was interrupted in, never gets the bundled corpus:
    with no paper stored yet that is a :class:`~paperchat.core.errors.StoreError` saying which ingest to
    wait for or run again.
    """
    from paperchat.store.runs import refuse_first_run

    if engine.settings.chroma_url:
        # a shared server is filled on purpose: one restarted empty (a wrong --path) had been filled with the
        # 38 bundled papers and went on answering from them; the command then says it holds no papers
        return None
    chroma = engine.open_store()
    chroma.refresh()
    key, files, metadata = bundled_run()
    if refuse_first_run(chroma, key):
        return None
    return engine.ingest(files, metadata, progress=progress, only_if_empty=True)
