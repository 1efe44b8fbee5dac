"""Helpers the commands share: JSON on stdout, plurals, BibTeX export, progress callbacks on stderr, and the
first-run ingest of the bundled corpus."""

from __future__ import annotations

import json
from pathlib import Path

import click

from paperchat.cli.options import AppContext


def echo_json(obj) -> None:
    """Print ``obj`` as indented JSON (UTF-8 text kept)."""
    click.echo(json.dumps(obj, ensure_ascii=False, indent=2))


def plural(n: int, word: str) -> str:
    """``"1 chunk"``, ``"2 chunks"``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def export_bibtex(engine, path: Path, paper_ids, quiet: bool = False) -> int:
    """Write ``paper_ids`` as BibTeX entries to ``path`` (:mod:`paperchat.cite.bibtex`), saying so on stderr.

    No paper (an abstention) writes nothing: a bibliography already at ``path`` is left as it was, which
    the answer's notes say (:func:`note_unwritten_bibtex`)."""
    paper_ids = list(paper_ids)
    if not paper_ids:
        return 0
    n = engine.write_bibtex(path, paper_ids)
    if not quiet:
        click.echo(f"wrote {n} BibTeX {'entry' if n == 1 else 'entries'} to {path}", err=True)
    return n


def note_unwritten_bibtex(answer, path: Path | None) -> None:
    """Add a note to ``answer`` (its ``notes``, shown and in ``--json``) when ``--bibtex`` names ``path``
    and the answer cites no paper: the file is left as it was, so a script must not read it as this
    answer's references."""
    if path is not None and not answer.sources:
        answer.notes.append(f"no paper cited: {path} left as it was")


def progress(desc: str, quiet: bool = False, unit: str = "chunk"):
    """A progress callback ``(done, total)`` on stderr (``None`` when quiet); see :mod:`paperchat.cli.progress`."""
    from paperchat.cli.progress import progress_bar

    return progress_bar(desc, unit, quiet)


def first_run(obj: AppContext, quiet: bool, as_json: bool = False) -> str:
    """Ingest the bundled corpus into an empty store (the first run), saying so on stderr unless ``quiet``
    (no progress bar under ``as_json``). Returns what it said ("" when the store held papers), which a
    ``--json`` answer carries as a note: a nightly job's mistyped store path had been filled with the 38
    bundled papers and answered from them with no word in its JSON."""
    report = obj.engine().ensure_corpus(
        progress=progress("first run: embedding the bundled corpus", quiet or as_json)
    )
    if report is None:
        return ""
    # where: a mistyped --store or PAPERCHAT_STORE is a new store
    where = obj.settings.chroma_url or obj.settings.store_path
    said = (
        f"ingested the bundled corpus into a new store at {where}: {report.total_papers} papers, "
        f"{report.total_chunks} chunks"
    )
    if not quiet:
        click.echo(said, err=True)
    return said


def refuse_no_store(settings, nothing: str) -> None:
    """A one-line :class:`~paperchat.core.errors.PaperchatError` when ``settings`` name an embedded store
    folder that is a file or holds no store ("no store at ...: nothing to list"), rather than make an empty
    store where a mistyped ``--store`` points; nothing for a Chroma server."""
    from paperchat.core.commands import ingest_command
    from paperchat.core.errors import PaperchatError
    from paperchat.store.chroma import MARKER

    if settings.chroma_url:
        return
    if settings.store_path.is_file():
        raise PaperchatError(f"store path {settings.store_path} exists and is not a folder")
    if not (settings.store_path / "chroma").exists():
        if (settings.store_path / MARKER).is_file():
            # a store's own files without its chroma/ folder: a damaged store, which opening it says
            # (paperchat.store.opening), not a folder of other files
            return
        if settings.store_path.is_dir() and any(settings.store_path.iterdir()):
            # a folder of corpus files given as --store: ingest refuses to make a store among them
            raise PaperchatError(
                f"no store at {settings.store_path}: {nothing} (the folder holds other files; a store "
                "needs a new or empty folder: pass that as --store)"
            )
        raise PaperchatError(
            f"no store at {settings.store_path}: {nothing} (`{ingest_command(settings)} FILES` creates "
            "one of your files; without FILES, of the bundled corpus)"
        )
