"""``paperchat ask``, ``paperchat summarize`` and ``paperchat config``."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from paperchat.cli.common import echo_json, export_bibtex, first_run, note_unwritten_bibtex
from paperchat.cli.forward import forward
from paperchat.cli.options import (
    AppContext,
    answer_options,
    bibtex_option,
    filter_options,
    setting_option,
    take_filters,
)
from paperchat.core.errors import PaperchatError, ReportedFailure
from paperchat.core.text import MAX_QUESTION_CHARS


def _first_offline_answer(settings) -> bool:
    """Whether this store has not yet shown the "no LLM configured" note (it is shown once per store)."""
    if settings.chroma_url:
        return False
    marker = settings.store_path / ".offline-note-shown"
    if marker.exists():
        return False
    try:
        marker.touch()
    except OSError:
        return False
    return True


def show_answer(
    answer, as_json: bool, streamed: bool, offline_note: bool = False, quiet: bool = False
) -> None:
    """Print an answer: JSON, or (after a streamed answer, its end) checks and Sources; notes on stderr."""
    from paperchat.cli.render import NO_LLM_NOTE, render_answer
    from paperchat.core.display import terminal_note

    if as_json:
        echo_json(answer.to_json())
        return
    if streamed:
        click.echo("")
    from paperchat.cli.environment import current
    from paperchat.cli.terminal import terminal_width

    # on a terminal, lines break at its width (at 88 columns, an 80-column terminal broke words in two)
    text = render_answer(
        answer, terminal_width() if current().stdout_isatty else 88, streamed=streamed
    )
    if text:
        click.echo(text)
    for note in [] if quiet else answer.notes:
        click.echo(f"note: {terminal_note(note)}", err=True)
    if offline_note and answer.mode == "extractive":
        click.echo(NO_LLM_NOTE, err=True)


def _streamer(enabled: bool):
    """An ``on_token`` that prints pieces as they arrive (``None`` when not streaming), and what it printed.

    On a terminal, lines break between words at its width.
    """
    from paperchat.cli.environment import current
    from paperchat.cli.terminal import WrappingWriter, terminal_width

    printed: list[str] = []

    def write(text: str) -> None:
        click.echo(text, nl=False)
        sys.stdout.flush()

    wrap = WrappingWriter(terminal_width(), write) if current().stdout_isatty else None

    def on_token(piece: str) -> None:
        printed.append(piece)
        (wrap or write)(piece)

    on_token.close = wrap.close if wrap is not None else (lambda: None)  # type: ignore[attr-defined]
    return (on_token if enabled else None), printed


def _streamed(printed: list[str]) -> bool:
    """Whether the streamed pieces showed an answer: a reply of whitespace alone, which the engine replaces
    by the offline answer, showed none (an LLM session had the offline answer's text never printed)."""
    return bool("".join(printed).strip())


def _answer(produce, on_token, printed: list[str]):
    """``produce()`` (an answer streaming to ``on_token``); an error or Ctrl-C after some streamed text ends its line
    first, so the message starts on a line of its own."""
    try:
        answer = produce()
    except BaseException:
        if printed:
            on_token.close()
            click.echo("")
        raise
    if on_token is not None:
        on_token.close()
    return answer


def read_question_arg(question: str | None) -> str:
    """QUESTION as given; ``-``, or no QUESTION with stdin not a terminal, reads it from stdin."""
    from paperchat.cli.environment import current

    if question == "-" or (question is None and not current().stdin_isatty):
        text = sys.stdin.read(MAX_STDIN_CHARS + 1)
        if len(text) > MAX_STDIN_CHARS:  # refused below; say it is longer than what was read
            raise PaperchatError(
                f"the question on stdin is over {MAX_STDIN_CHARS:,} characters long; the limit is "
                f"{MAX_QUESTION_CHARS:,}"
            )
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if len(lines) > 1 and all(line.endswith("?") for line in lines):
            # two questions piped in had been answered as one ("Who wrote X? When was Y published?")
            raise PaperchatError(
                f"stdin holds {len(lines)} questions, one per line; `ask` answers one: pipe them to "
                "`paperchat chat` (one answer per line) or loop over them"
            )
        return text
    if question is None:
        raise click.UsageError(
            "Missing argument 'QUESTION' (or pipe it in: echo \"...\" | paperchat ask -)."
        )
    return question


#: read at most this much of a piped question (longer ones are refused with the usual message)
MAX_STDIN_CHARS = 100_000


@click.command()
@click.argument("question", required=False)
@setting_option("top_k", "-k")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the answer as JSON (stable contract, see README).",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no notes on stderr.")
@filter_options
@bibtex_option(
    "Also write the cited papers as BibTeX entries to FILE (replaced; left as it is when nothing is cited)."
)
@answer_options
@click.pass_obj
def ask(obj: AppContext, question, as_json, quiet, bibtex_path, **flags):
    """Answer one QUESTION with numbered citations [n] and a Sources list.

    With an LLM configured (OPENAI_API_KEY, or --base-url for a local
    OpenAI-compatible server) the answer is written by the LLM from the
    retrieved abstracts and streams as it arrives; every sentence is then
    checked against the sources it cites, and unsupported ones are marked ⚠.
    Without one, the answer quotes the abstracts. The first ask on an empty
    store ingests the bundled corpus (with a progress bar). QUESTION "-" (or
    none, with stdin piped) reads the question from stdin. --author, --venue,
    --year and --paper answer from the matching papers only. Who wrote what,
    where and when a paper appeared, and how many papers are on a topic are
    answered from the stored metadata.

    \b
    Examples:
      paperchat ask "What does ConfPO use to pick preference-critical tokens?"
      echo "Which papers study backdoor attacks?" | paperchat ask -
      paperchat ask "Which papers study exploration in reinforcement learning?" --top-k 8 --json
      paperchat ask "Which papers study backdoor attacks?" --venue ICML --bibtex refs.bib
      paperchat ask "Which papers did Sergey Levine write?"
      paperchat ask "How many papers are about speculative decoding?"
      paperchat ask "How does CROW remove backdoors?" --base-url http://127.0.0.1:8000/v1 --model qwen2.5
      paperchat --store ~/icml2025 ask "Which papers study backdoor attacks?"   (--store goes first)
    """
    from paperchat.cli.progress import show_notes
    from paperchat.core.text import clean_question

    filters = take_filters(flags)
    obj.take(flags)
    if question not in (None, "-"):  # a question read from stdin is answered here
        forward(obj)
    show_notes(not quiet)
    question = clean_question(read_question_arg(question))
    engine = obj.engine()
    mode = engine.mode()
    engine.preload(mode)
    made = first_run(obj, quiet, as_json)
    on_token, printed = _streamer(mode == "llm" and not as_json)
    # the mode setting as asked: auto may fall back offline
    answer = _answer(
        lambda: engine.ask(question, on_token=on_token, filters=filters), on_token, printed
    )
    answer.notes += [made] if made and as_json else []
    note_unwritten_bibtex(answer, bibtex_path)
    show_answer(
        answer,
        as_json,
        streamed=_streamed(printed),
        quiet=quiet,
        # not when extractive answers were asked for (mode = "extractive": a lab engineer's config)
        offline_note=_first_offline_answer(obj.settings)
        if mode == "extractive" and obj.settings.mode == "auto" and not quiet
        else False,
    )
    if bibtex_path is not None:
        export_bibtex(engine, bibtex_path, [s.paper_id for s in answer.sources], quiet)


@click.command()
@click.argument("target")
@setting_option(
    "top_k",
    "-k",
    lead="Papers to summarize when TARGET is a topic (left unset, up to 10: those above the "
    "relevance bar).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the summary as JSON (the ask contract, with target).",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no notes on stderr.")
@filter_options
@bibtex_option(
    "Also write the cited papers as BibTeX entries to FILE (replaced; left as it is when nothing is cited)."
)
@answer_options
@click.pass_obj
def summarize(obj: AppContext, target, as_json, quiet, bibtex_path, **flags):
    """Write a cited summary of one paper or of a topic across papers.

    TARGET is a paper id, a label or title (or words of it), or a topic. With an
    LLM the summary is written and checked like an answer; offline it is the
    paper's own problem, method and result sentences, each cited. --author,
    --venue, --year and --paper choose among the matching papers only.

    \b
    Examples:
      paperchat summarize ConfPO
      paperchat summarize p-abe9274a3783 --json
      paperchat summarize "diffusion models for control" --year 2025 --bibtex control.bib
    """
    from paperchat.cli.progress import show_notes

    filters = take_filters(flags)
    obj.take(flags)
    show_notes(not quiet)
    forward(obj)
    engine = obj.engine()
    mode = engine.mode()
    made = first_run(obj, quiet, as_json)
    on_token, printed = _streamer(mode == "llm" and not as_json)
    # the mode setting as asked: auto may fall back offline
    answer = _answer(
        # the engine reads the top-k setting (flag, environment, file) and whether it was set
        lambda: engine.summarize(target, on_token=on_token, filters=filters),
        on_token,
        printed,
    )
    answer.notes += [made] if made and as_json else []
    note_unwritten_bibtex(answer, bibtex_path)
    show_answer(answer, as_json, streamed=_streamed(printed), quiet=quiet)
    if bibtex_path is not None:
        export_bibtex(engine, bibtex_path, [s.paper_id for s in answer.sources], quiet)


@click.command("config")
@click.option("--json", "as_json", is_flag=True, help="Print the settings as JSON.")
@click.option(
    "--check/--no-check",
    default=True,
    show_default=True,
    help="Ask the LLM endpoint whether it answers.",
)
@answer_options
@click.pass_obj
def config_cmd(obj: AppContext, as_json, check, **flags):
    """Show the effective settings, where each came from, and whether the LLM answers.

    The API key is never shown, only whether it is set. Exit status 1 when a configured LLM does not
    answer now (or --mode llm has none configured), so a health check can run it.

    \b
    Examples:
      paperchat config
      OPENAI_BASE_URL=http://127.0.0.1:8000/v1 paperchat config --json
    """
    from paperchat.core.onnx import model_threads
    from paperchat.core.settings import BY_NAME, config_file_path
    from paperchat.ingest.embedding import check_model_id

    obj.take(flags)
    settings = obj.settings
    # what every other command refuses, config refuses too (it had shown them as fine)
    check_model_id(settings.embed_model)
    model_threads()
    shown = settings.redacted()
    rows = {name: {"value": value, "from": settings.origins[name]} for name, value in shown.items()}
    if not settings.chroma_url:
        rows["store"]["value"] = str(settings.store_path)
    if not settings.vector_cache:  # the folder the default resolves to
        from paperchat.ingest.vector_cache import default_folder

        rows["vector_cache"]["value"] = str(default_folder())
    status = None
    if check:
        from paperchat.answer.mode import llm_configured

        if llm_configured(settings):
            from paperchat.answer.llm_client import probe

            status = probe(settings)
        elif (settings.mode or "auto").lower() == "llm":  # no offline answers then: ask fails
            status = "not configured: with --mode llm, ask fails (set OPENAI_API_KEY or --base-url)"
        else:
            status = "not configured (offline extractive answers)"
    info = {"config_file": str(config_file_path()), "settings": rows, "llm": status}
    # a health check's exit status: 1 when a configured LLM does not answer now, or --mode llm has none
    # (a lab engineer's cron job had read 0 while every `ask` failed)
    failed = bool(status) and status.startswith(("does not answer", "not configured: with"))
    if as_json:
        echo_json(info)
        if failed:
            raise ReportedFailure()
        return
    exists = Path(info["config_file"]).is_file()
    click.echo(
        f"config file: {info['config_file']}"
        + ("" if exists else " (none there; defaults, flags and env apply)")
    )
    width = max(len(k) for k in rows)
    for name, row in rows.items():
        unit = BY_NAME[name].unit if row["value"] is not None else ""
        value = f"{row['value']} {unit}" if unit else str(row["value"])
        click.echo(f"  {name.ljust(width)}  {value:<40}  ({row['from']})")
    if status is not None:
        click.echo(f"LLM: {status}")
    if failed:
        raise ReportedFailure()  # the LLM line says why
