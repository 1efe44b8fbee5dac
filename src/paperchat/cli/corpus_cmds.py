"""``paperchat ingest`` and ``paperchat papers``: adding corpus files, listing what is stored."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import click

from paperchat.cli.common import echo_json, export_bibtex, plural, progress, refuse_no_store
from paperchat.cli.options import AppContext, bibtex_option, filter_options, take_filters


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--metadata",
    type=click.Path(path_type=Path),
    default=None,
    help="JSONL joining titles, authors and urls onto title-less abstracts by file name + position "
    "(fields: seed_file, index, title, authors, url). The bundled corpus's own is joined by default.",
)
@click.option(
    "--rebuild",
    is_flag=True,
    help="Build the store anew (needed after changing the embedding model); readers keep the old one until it is done.",
)
@click.option(
    "--on-error",
    type=click.Choice(["stop", "skip"]),
    default="stop",
    show_default=True,
    help="On a malformed line: stop (store untouched) or skip it and report it.",
)
@click.option(
    "--encoding",
    default=None,
    metavar="NAME",
    help="Text encoding of files that are not UTF-8, e.g. latin-1 or cp1252 (default: UTF-8).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the ingest report as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@click.pass_obj
def ingest(obj: AppContext, paths, metadata, rebuild, on_error, encoding, as_json, quiet):
    """Add corpus files to the store (default: the bundled ICML 2025 abstracts).

    PATHS are JSONL or CSV files (fields id, title, authors, abstract, url; only
    abstract is required) or seed text files (a header line, then abstracts
    separated by blank lines), or folders: the corpus files directly inside one.
    Unchanged papers are not embedded again; papers a file no longer holds are
    removed, papers from other files stay.

    \b
    Examples:
      paperchat ingest                                  # the bundled corpus
      paperchat ingest papers.jsonl --on-error skip
      paperchat ingest my_corpus/                       # its .jsonl, .csv and .txt files
      paperchat ingest data/*.txt --metadata seed_metadata.jsonl
      paperchat ingest old_export.csv --encoding latin-1
    """
    from paperchat.engine.ingesting import refuse_bare_rebuild
    from paperchat.ingest.corpus import bundled_corpus_files, bundled_metadata, corpus_files

    engine = obj.engine()
    files, folder_notes = corpus_files(paths)
    if rebuild and not files:
        refuse_bare_rebuild(engine)
    files = files or bundled_corpus_files()
    for note in folder_notes:
        click.echo(f"note: {note}", err=True)
    if not paths and metadata is None:
        metadata = bundled_metadata()  # the bundled abstracts' real titles, authors and urls
    report = engine.ingest(
        files,
        metadata=metadata,
        rebuild=rebuild,
        on_error=on_error,
        encoding=encoding,
        progress=progress("embedding", quiet or as_json),
    )
    if as_json:
        echo_json(asdict(report))
        return
    for line in report.lines_skipped:
        click.echo(f"skipped {line}", err=True)
    for note in report.notes:
        click.echo(f"note: {note}", err=True)
    dups = report.duplicates_skipped + report.duplicates_merged
    click.echo(
        f"{report.papers_added} added, {report.papers_updated} updated, {report.papers_unchanged} unchanged, "
        f"{report.papers_removed} removed"
        + (f", {plural(dups, 'duplicate')} kept once" if dups else "")
        + f"; {plural(report.chunks_embedded, 'chunk')} and {plural(report.sentences_embedded, 'sentence')} embedded"
        + (
            f" ({report.sentences_cached} of them from the vector cache)"
            if report.sentences_cached
            else ""
        )
        + f" in {report.seconds:.1f} s. Store: {plural(report.total_papers, 'paper')}, "
        f"{plural(report.total_chunks, 'chunk')} ({obj.settings.chroma_url or obj.settings.store_path})."  # Chroma not opened
    )


@click.command()
# text, not click.Path: click would read "" as "." (every file here)
@click.argument("paths", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="No notes on stderr (the report line stays).")
@click.pass_obj
def remove(obj: AppContext, paths, as_json, quiet):
    """Take out the papers that files (or the files in a folder) gave the store.

    For a file you deleted, moved or no longer want: its papers stay until
    removed, since a file that is gone cannot be ingested again. A paper
    another ingested file also holds stays, as that file's. PATHS may be
    files or folders that no longer exist; `paperchat papers` lists each
    paper's file.

    \b
    Examples:
      paperchat remove old/notes.jsonl
      paperchat remove drafts/                       # every stored file under it
    """
    from paperchat.engine.forgetting import forget

    refuse_no_store(obj.settings, "nothing to remove")
    report = forget(obj.engine(), list(paths))  # forget() refuses an empty one
    if as_json:
        echo_json(asdict(report))
        return
    for note in [] if quiet else report.notes:
        click.echo(f"note: {note}", err=True)
    click.echo(
        f"{report.papers_removed} removed in {report.seconds:.1f} s. Store: "
        f"{plural(report.total_papers, 'paper')}, {plural(report.total_chunks, 'chunk')} "
        f"({obj.settings.chroma_url or obj.settings.store_path})."
    )


@click.command()
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print a list of {paper_id, title, label, chunks, origin, url, authors, aliases, venue, year, "
    "presentation}.",
)
@filter_options
@bibtex_option(
    "Write the listed papers as BibTeX entries to FILE (replaced) instead of printing them."
)
@click.pass_obj
def papers(obj: AppContext, as_json, bibtex_path, **flags):
    """List the stored papers: id, label or title, chunk count, origin (file #position).

    --author, --venue, --year and --paper list only the papers that match
    (all of them); --bibtex FILE writes those papers as BibTeX instead.

    \b
    Examples:
      paperchat papers --json | jq '.[].label'
      paperchat papers --venue ICML --year 2025 --bibtex icml2025.bib
    """
    from paperchat.cli.forward import forward

    forward(obj)
    from paperchat.cli.render import render_papers

    refuse_no_store(obj.settings, "nothing to list")
    engine = obj.engine()
    rows = engine.papers(take_filters(flags))
    if bibtex_path is not None:
        # an emptied store: say so, and leave FILE as it was (it had exited 0 in silence)
        if not rows:
            from paperchat.core.errors import StoreError

            raise StoreError(f"the store holds no papers: {bibtex_path} not written")
        n = export_bibtex(engine, bibtex_path, [r.paper_id for r in rows])
        if as_json:  # one JSON document on stdout, as every --json command prints (it printed none)
            echo_json({"bibtex": str(bibtex_path), "entries": n})
        return
    if as_json:
        from paperchat.api.results import paper_listing

        echo_json([paper_listing(r) for r in rows])
    else:
        click.echo(render_papers(rows))


@click.command("check")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@click.pass_obj
def check(obj: AppContext, as_json):
    """Check the store: its collections agree, every chunk has a vector, the vector indexes load.

    Exits 1 and says what to do when something is wrong (a damaged index file,
    a missing database, chunks without their paper).

    \b
    Example:
      paperchat check
    """
    from paperchat.core.commands import command
    from paperchat.core.errors import ReportedFailure, StoreError
    from paperchat.store.check import (
        REBUILD_HINT,
        Finding,
        cache_findings,
        check_store,
        folder_findings,
        verdict,
    )

    settings = obj.settings
    where = settings.chroma_url or str(settings.store_path)
    refuse_no_store(settings, "nothing to check")
    findings = [] if settings.chroma_url else folder_findings(settings.store_path)
    if all(f.ok is not False for f in findings):
        try:
            from paperchat.store import open_store

            store = open_store(settings.store_path, settings.chroma_url, create=False)
            findings += check_store(store)
            if all(f.ok is not False for f in findings):
                findings += cache_findings(store)
        except StoreError as exc:
            from paperchat.store.failures import StoreUnavailable

            findings.append(
                Finding("open the store", False, str(exc), not isinstance(exc, StoreUnavailable))
            )
    line = verdict(findings, where)
    # a command to copy names this store, as the interrupted run's does (a newcomer's had rebuilt the default one)
    rebuild = f"`{command(settings, 'ingest', '--rebuild')} FILES`"
    line = line.replace(REBUILD_HINT, rebuild)
    for finding in findings:
        finding.detail = finding.detail.replace(REBUILD_HINT, rebuild)
    if as_json:
        echo_json(
            {
                "store": where,
                "ok": all(f.ok is not False for f in findings),
                "findings": [f.to_json() for f in findings],
                "verdict": line,
            }
        )
    else:
        for f in findings:
            mark = "ok  " if f.ok else ("note" if f.ok is None else "FAIL")
            click.echo(f"{mark}  {f.check}: {f.detail}")
        click.echo(line)
    if any(f.ok is False for f in findings):
        raise ReportedFailure()  # the lines above say why
