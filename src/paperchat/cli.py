"""The ``paperchat`` command line (Click).

Only Click and the small config modules are imported at start-up, so
``paperchat --help`` stays fast; the ML stack (Chroma, onnxruntime, LlamaIndex)
is imported by the commands that need it.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from paperchat import __version__
from paperchat.config import load_settings
from paperchat.errors import PaperchatError


class _Ctx:
    def __init__(self, flags: dict):
        self.flags = flags
        self._settings = None
        self._engine = None

    @property
    def settings(self):
        if self._settings is None:
            self._settings = load_settings(self.flags)
        return self._settings

    def engine(self):
        if self._engine is None:
            from paperchat.pipeline import Engine

            self._engine = Engine(self.settings)
        return self._engine


def _progress(desc: str, quiet: bool = False):
    """A tqdm progress callback ``(done, total)`` on stderr, with rate and ETA."""
    state: dict = {}

    def cb(done: int, total: int) -> None:
        if quiet:
            return
        if "bar" not in state:
            from tqdm import tqdm

            state["bar"] = tqdm(total=total, desc=desc, unit="chunk", file=sys.stderr, dynamic_ncols=True, leave=True)
        bar = state["bar"]
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return cb


def _echo_json(obj) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False, indent=2))


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="paperchat")
@click.option("--store", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Store folder (env PAPERCHAT_STORE; default: the per-user data folder).")
@click.option("--chroma-url", default=None, metavar="URL",
              help="Use a Chroma server (`chroma run`) at http://HOST:PORT instead of the embedded store "
                   "(env PAPERCHAT_CHROMA_URL).")
@click.option("--embed-model", default=None, metavar="ID",
              help="Embedding model: minilm-l6-int8 (default, offline) or openai:<model> (env PAPERCHAT_EMBED_MODEL).")
@click.pass_context
def cli(ctx, store, chroma_url, embed_model):
    """Ask questions about research-paper abstracts and get answers with checkable citations.

    paperchat ships the ICML 2025 seed abstracts and answers offline, with no API
    key: it retrieves the relevant abstracts (dense + BM25) and quotes them, each
    sentence with a numbered citation [n] that maps to a paper.

    \b
    Examples:
      paperchat ask "What does ConfPO use to pick preference-critical tokens?"
      paperchat ingest my_papers.jsonl
      paperchat papers --json

    Settings come from flags, then environment variables, then the config file
    ($PAPERCHAT_CONFIG or ~/.config/paperchat/config.toml), then defaults.
    """
    ctx.obj = _Ctx({"store": str(store) if store else None, "chroma_url": chroma_url, "embed_model": embed_model})


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--metadata", type=click.Path(path_type=Path), default=None,
              help="JSONL joining titles, authors and urls onto title-less abstracts by file name + position "
                   "(fields: seed_file, index, title, authors, url).")
@click.option("--rebuild", is_flag=True, help="Drop the store and build it anew (needed after changing the embedding model).")
@click.option("--on-error", type=click.Choice(["stop", "skip"]), default="stop", show_default=True,
              help="On a malformed line: stop (store untouched) or skip it and report it.")
@click.option("--json", "as_json", is_flag=True, help="Print the ingest report as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@click.pass_obj
def ingest(obj: _Ctx, paths, metadata, rebuild, on_error, as_json, quiet):
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
    from paperchat.corpus import bundled_corpus_files

    engine = obj.engine()
    files = list(paths) or bundled_corpus_files()
    report = engine.ingest(files, metadata=metadata, rebuild=rebuild, on_error=on_error,
                           progress=_progress("embedding", quiet or as_json))
    if as_json:
        from dataclasses import asdict

        _echo_json(asdict(report))
        return
    for line in report.lines_skipped:
        click.echo(f"skipped {line}", err=True)
    click.echo(
        f"{report.papers_added} added, {report.papers_updated} updated, {report.papers_unchanged} unchanged, "
        f"{report.papers_removed} removed; {report.chunks_embedded} chunks embedded in {report.seconds:.1f} s. "
        f"Store: {report.total_papers} papers, {report.total_chunks} chunks ({engine.store.where()})."
    )


@cli.command()
@click.argument("question")
@click.option("-k", "--top-k", type=click.IntRange(1, 100), default=None, help="Papers to retrieve (default 5).")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON (stable contract, see README).")
@click.pass_obj
def ask(obj: _Ctx, question, top_k, as_json):
    """Answer one QUESTION with numbered citations [n] and a Sources list.

    The first ask on an empty store ingests the bundled corpus (with a progress bar).

    \b
    Examples:
      paperchat ask "What does ConfPO use to pick preference-critical tokens?"
      paperchat ask "Which papers analyse attention theoretically?" --top-k 8 --json
    """
    if not question.strip():
        raise PaperchatError("the question is empty; ask something about the papers")
    engine = obj.engine()
    report = engine.ensure_corpus(progress=_progress("first run: embedding the bundled corpus", as_json))
    if report is not None and not as_json:
        click.echo(f"ingested the bundled corpus: {report.total_papers} papers, {report.total_chunks} chunks", err=True)
    result = engine.ask(question, top_k=top_k)
    if as_json:
        result.pop("timings", None)
        _echo_json(result)
        return
    from paperchat.render import NO_LLM_NOTE, render_answer

    click.echo(render_answer(result))
    click.echo(NO_LLM_NOTE, err=True)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print a list of {paper_id, title, label, chunks, origin, url, authors}.")
@click.pass_obj
def papers(obj: _Ctx, as_json):
    """List the stored papers: id, label or title, chunk count, origin (file #position).

    \b
    Example:
      paperchat papers --json | jq '.[].label'
    """
    from paperchat.render import render_papers

    rows = obj.engine().papers()
    if as_json:
        _echo_json(rows)
    else:
        click.echo(render_papers(rows))


@cli.command()
@click.option("--corpus", "corpus", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Corpus file(s) to measure on (default: the bundled corpus). Repeatable.")
@click.option("--repeat", type=click.IntRange(1, 50), default=3, show_default=True,
              help="Runs of each cold command (median reported).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Write the figures as JSON here.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench(corpus, repeat, out, as_json):
    """Measure ingest, retrieval and answer speed and memory on this machine.

    Builds a fresh temporary store (your store is not touched), so on a large
    corpus this takes as long as an ingest.

    \b
    Examples:
      paperchat bench
      paperchat bench --corpus ../shared/data/icml2025_abstracts.jsonl --out bench-2.7k.json
    """
    from paperchat.bench import format_table, run_bench

    figures = run_bench(list(corpus) or None, repeat=repeat)
    if out:
        out.write_text(json.dumps(figures, indent=2), encoding="utf-8")
    if as_json:
        _echo_json(figures)
    else:
        click.echo(format_table(figures))


def main() -> None:
    """Entry point: run the CLI, turning errors into one line and a non-zero exit."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except PaperchatError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
    except Exception as exc:  # never a traceback for users
        if os.environ.get("PAPERCHAT_DEBUG"):
            raise
        first = str(exc).splitlines()[0] if str(exc) else ""
        click.echo(f"error: {type(exc).__name__}: {first} (set PAPERCHAT_DEBUG=1 for details)", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
