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


from paperchat.cli_options import llm_options, take_llm_flags as _take_llm_flags  # noqa: E402


def _progress(desc: str, quiet: bool = False):
    """A tqdm progress callback ``(done, total)`` on stderr, with rate and ETA (``None`` when quiet)."""
    from paperchat.render import progress_bar

    return progress_bar(desc, "chunk", quiet)


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
    dups = report.duplicates_skipped + report.duplicates_merged
    click.echo(
        f"{report.papers_added} added, {report.papers_updated} updated, {report.papers_unchanged} unchanged, "
        f"{report.papers_removed} removed" + (f", {dups} duplicates kept once" if dups else "")
        + f"; {report.chunks_embedded} chunks and "
        f"{report.sentences_embedded} sentences embedded in {report.seconds:.1f} s. "
        f"Store: {report.total_papers} papers, {report.total_chunks} chunks ({engine.store.where()})."
    )


@cli.command()
@click.argument("question")
@click.option("-k", "--top-k", type=click.IntRange(1, 100), default=None, help="Papers to retrieve (default 5).")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON (stable contract, see README).")
@llm_options
@click.pass_obj
def ask(obj: _Ctx, question, top_k, as_json, **llm):
    """Answer one QUESTION with numbered citations [n] and a Sources list.

    With an LLM configured (OPENAI_API_KEY, or --base-url for a local
    OpenAI-compatible server) the answer is written by the LLM from the
    retrieved abstracts and streams as it arrives; every sentence is then
    checked against the sources it cites, and unsupported ones are marked ⚠.
    Without one, the answer quotes the abstracts. The first ask on an empty
    store ingests the bundled corpus (with a progress bar).

    \b
    Examples:
      paperchat ask "What does ConfPO use to pick preference-critical tokens?"
      paperchat ask "Which papers analyse attention theoretically?" --top-k 8 --json
      paperchat ask "How does CROW remove backdoors?" --base-url http://127.0.0.1:8000/v1 --model qwen2.5
    """
    _take_llm_flags(obj, llm)
    from paperchat.pipeline import check_question

    question = check_question(question)
    engine = obj.engine()
    mode = engine.answer_mode()
    engine.preload()
    report = engine.ensure_corpus(progress=_progress("first run: embedding the bundled corpus", as_json))
    if report is not None and not as_json:
        click.echo(f"ingested the bundled corpus: {report.total_papers} papers, {report.total_chunks} chunks", err=True)
    from paperchat.render import NO_LLM_NOTE, render_answer, render_checks, render_sources

    streamed = []

    def on_token(piece: str) -> None:
        streamed.append(piece)
        click.echo(piece, nl=False)
        sys.stdout.flush()

    stream = mode == "llm" and not as_json
    result = engine.ask(question, top_k=top_k, on_token=on_token if stream else None)
    if as_json:
        result.pop("timings", None)
        _echo_json(result)
        return
    if stream and streamed:
        click.echo("")
        checks = render_checks(result)
        if checks:
            click.echo(checks)
        sources = render_sources(result.get("sources") or [])
        if sources:
            click.echo("\n" + sources)
    else:
        click.echo(render_answer(result))
    for note in result.get("notes") or []:
        click.echo(f"note: {note}", err=True)
    if result["mode"] == "extractive":
        click.echo(NO_LLM_NOTE, err=True)


@cli.command()
@click.argument("target")
@click.option("-k", "--top-k", type=click.IntRange(1, 20), default=5, show_default=True,
              help="Papers to summarize when TARGET is a topic.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON (the ask contract).")
@llm_options
@click.pass_obj
def summarize(obj: _Ctx, target, top_k, as_json, **llm):
    """Write a cited summary of one paper or of a topic across papers.

    TARGET is a paper id, a label or title (or words of it), or a topic. With an
    LLM the summary is written and checked like an answer; offline it is the
    paper's own problem, method and result sentences, each cited.

    \b
    Examples:
      paperchat summarize ConfPO
      paperchat summarize p-abe9274a3783 --json
      paperchat summarize "diffusion models for control"
    """
    _take_llm_flags(obj, llm)
    engine = obj.engine()
    engine.ensure_corpus(progress=_progress("first run: embedding the bundled corpus", as_json))
    from paperchat.render import render_answer
    from paperchat.summarize import summarize as run_summary

    result = run_summary(engine, target, top_k=top_k)
    if as_json:
        result.pop("timings", None)
        _echo_json(result)
    else:
        click.echo(render_answer(result))


@cli.command("config")
@click.option("--json", "as_json", is_flag=True, help="Print the settings as JSON.")
@click.option("--check/--no-check", default=True, show_default=True, help="Ask the LLM endpoint whether it answers.")
@llm_options
@click.pass_obj
def config_cmd(obj: _Ctx, as_json, check, **llm):
    """Show the effective settings, where each came from, and whether the LLM answers.

    The API key is never shown, only whether it is set.

    \b
    Examples:
      paperchat config
      OPENAI_BASE_URL=http://127.0.0.1:8000/v1 paperchat config --json
    """
    _take_llm_flags(obj, llm)
    from paperchat.config import config_file_path

    settings = obj.settings
    shown = settings.redacted()
    rows = {name: {"value": shown[name], "from": settings.origins[name]} for name in shown}
    rows["store"]["value"] = str(settings.store_path) if not settings.chroma_url else shown["store"]
    status = None
    if check:
        from paperchat.llm import llm_configured, probe

        status = probe(settings) if llm_configured(settings) else "not configured (offline extractive answers)"
    info = {"config_file": str(config_file_path()), "settings": rows, "llm": status}
    if as_json:
        _echo_json(info)
        return
    click.echo(f"config file: {info['config_file']}")
    width = max(len(k) for k in rows)
    for name, row in rows.items():
        click.echo(f"  {name.ljust(width)}  {row['value']!s:<40}  ({row['from']})")
    if status is not None:
        click.echo(f"LLM: {status}")


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
@click.option("--no-baseline", is_flag=True,
              help="Skip the plain LlamaIndex baseline (about 8 minutes of the run at 2.7k papers).")
def bench(corpus, repeat, out, as_json, no_baseline):
    """Measure ingest, retrieval and answer speed and memory on this machine.

    Builds a fresh temporary store (your store is not touched), so on a large
    corpus this takes as long as an ingest, and then as long again for the
    LlamaIndex baseline it is compared with (unless --no-baseline).

    \b
    Examples:
      paperchat bench
      paperchat bench --corpus ../shared/data/icml2025_abstracts.jsonl --out bench-2.7k.json
    """
    from paperchat.bench import format_table, run_bench

    figures = run_bench(list(corpus) or None, repeat=repeat, baseline=not no_baseline)
    if out:
        out.write_text(json.dumps(figures, indent=2), encoding="utf-8")
    if as_json:
        _echo_json(figures)
    else:
        click.echo(format_table(figures))


def _register_optional() -> None:
    from paperchat.eval_cli import eval_command

    cli.add_command(eval_command)
    try:
        from paperchat.chat_cli import chat_command, history_command
    except ImportError:  # pragma: no cover - during development only
        return
    cli.add_command(chat_command)
    cli.add_command(history_command)


_register_optional()


def main() -> None:
    """Entry point: run the CLI, turning errors into one line and a non-zero exit."""
    run_group(cli)


def run_group(group: click.Group) -> None:
    """Run a Click group with paperchat's error handling: one line on stderr, never a traceback."""
    try:
        group.main(standalone_mode=False)
    except click.exceptions.Abort:  # Click's form of Ctrl-C
        click.echo("interrupted", err=True)
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
