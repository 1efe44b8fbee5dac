"""``paperchat ingest`` and ``paperchat papers``: adding corpus files, listing what is stored."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import click

from paperchat.cli.options import AppContext


def echo_json(obj) -> None:
    """Print ``obj`` as indented JSON (UTF-8 text kept)."""
    click.echo(json.dumps(obj, ensure_ascii=False, indent=2))


def progress(desc: str, quiet: bool = False, unit: str = "chunk"):
    """A progress callback ``(done, total)`` on stderr (``None`` when quiet); see :mod:`paperchat.cli.progress`."""
    from paperchat.cli.progress import progress_bar

    return progress_bar(desc, unit, quiet)


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--metadata", type=click.Path(path_type=Path), default=None,
              help="JSONL joining titles, authors and urls onto title-less abstracts by file name + position "
                   "(fields: seed_file, index, title, authors, url).")
@click.option("--rebuild", is_flag=True,
              help="Build the store anew (needed after changing the embedding model); readers keep the old one until it is done.")
@click.option("--on-error", type=click.Choice(["stop", "skip"]), default="stop", show_default=True,
              help="On a malformed line: stop (store untouched) or skip it and report it.")
@click.option("--json", "as_json", is_flag=True, help="Print the ingest report as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@click.pass_obj
def ingest(obj: AppContext, paths, metadata, rebuild, on_error, as_json, quiet):
    """Add corpus files to the store (default: the bundled ICML 2025 abstracts).

    PATHS are JSONL or CSV files (fields id, title, authors, abstract, url; only
    abstract is required) or seed text files (a header line, then abstracts
    separated by blank lines). Unchanged papers are not embedded again; papers a
    file no longer holds are removed, papers from other files stay.

    \b
    Examples:
      paperchat ingest                                  # the bundled corpus
      paperchat ingest papers.jsonl --on-error skip
      paperchat ingest data/*.txt --metadata seed_metadata.jsonl
    """
    from paperchat.ingest.corpus import bundled_corpus_files

    engine = obj.engine()
    files = list(paths) or bundled_corpus_files()
    report = engine.ingest(files, metadata=metadata, rebuild=rebuild, on_error=on_error,
                           progress=progress("embedding", quiet or as_json))
    if as_json:
        echo_json(asdict(report))
        return
    for line in report.lines_skipped:
        click.echo(f"skipped {line}", err=True)
    dups = report.duplicates_skipped + report.duplicates_merged
    click.echo(
        f"{report.papers_added} added, {report.papers_updated} updated, {report.papers_unchanged} unchanged, "
        f"{report.papers_removed} removed" + (f", {dups} duplicates kept once" if dups else "")
        + f"; {report.chunks_embedded} chunks and "
        f"{report.sentences_embedded} sentences embedded in {report.seconds:.1f} s. "
        f"Store: {report.total_papers} papers, {report.total_chunks} chunks ({engine.store.where()})."
    )


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print a list of {paper_id, title, label, chunks, origin, url, authors}.")
@click.pass_obj
def papers(obj: AppContext, as_json):
    """List the stored papers: id, label or title, chunk count, origin (file #position).

    \b
    Example:
      paperchat papers --json | jq '.[].label'
    """
    from paperchat.cli.render import render_papers

    rows = obj.engine().papers()
    if as_json:
        echo_json([r.listing() for r in rows])
    else:
        click.echo(render_papers(rows))
