"""The ``paperchat chat`` and ``paperchat history`` commands (Click).

Register them on the main group with ``cli.add_command(chat_command)`` and
``cli.add_command(history_command)``; both take the group's ``_Ctx`` object
(``.settings``, ``.engine()``). Only Click is imported here at start-up; the
chat and ML modules are imported when a command runs.

``python -m paperchat.chat_cli`` runs a small stand-alone group with the same
global options (``--store``, ``--chroma-url``, ``--embed-model``) and these
two commands.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from paperchat.cli_options import llm_options, take_llm_flags

#: hidden, for tests: seconds to wait before each answer (so Ctrl-C can interrupt it)
SLOW_ENV = "PAPERCHAT_TEST_SLOW_ANSWER"


def _progress(desc: str):
    try:
        from paperchat.cli import _progress as progress
    except ImportError:  # pragma: no cover - the CLI module always has it
        return None
    return progress(desc)


@click.command("chat")
@click.option("-k", "--top-k", type=click.IntRange(1, 100), default=None, help="Papers to retrieve per question (default 5).")
@click.option("--continue", "resume", is_flag=True, help="Resume the last conversation: its last answer's sources are the context.")
@click.option("--no-history", is_flag=True, help="Do not log turns (also: PAPERCHAT_HISTORY=0 or history = false in the config).")
@click.option("-v", "--verbose", is_flag=True, help="After each answer, print the query used and the timings (stderr).")
@llm_options
@click.pass_obj
def chat_command(obj, top_k, resume, no_history, verbose, **llm):
    """Chat about the papers: ask questions and follow-ups, each answer with its Sources.

    Follow-ups that say "it", "this paper", "the second one" or "they" are
    read against the sources of the previous answer. Type /help for the
    commands (/sources, /show N, /summarize N, /why, /papers, /history,
    /save FILE, /reset, /quit). Ctrl-C cancels an answer, Ctrl-D leaves.

    With stdin not a terminal, each line is one question and the output is
    plain text. Every turn is logged to <store>/history.sqlite3 (see
    `paperchat history`) unless --no-history.

    \b
    Examples:
      paperchat chat
      paperchat chat --continue
      printf 'What is LightGTS?\\nWhich two techniques does it introduce?\\n' | paperchat chat
    """
    from paperchat.chat import MAX_TURNS, ChatSession, make_answerer, run_piped, run_terminal, terminal_width

    take_llm_flags(obj, llm)
    from paperchat.errors import PaperchatError
    from paperchat.history import HistoryLog, history_enabled, history_path

    settings = obj.settings
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    engine = obj.engine()
    report = engine.ensure_corpus(progress=_progress("first run: embedding the bundled corpus"))
    if report is not None:
        click.echo(f"ingested the bundled corpus: {report.total_papers} papers, {report.total_chunks} chunks", err=True)
    log = None
    if history_enabled(settings) and not no_history:
        log = HistoryLog(history_path(settings.store_path))
    elif resume:
        raise PaperchatError("--continue needs the chat history, which is turned off (--no-history or PAPERCHAT_HISTORY=0)")
    answerer = make_answerer(engine, settings)
    try:
        slow = float(os.environ.get(SLOW_ENV) or 0)
    except ValueError:
        slow = 0.0
    session = ChatSession(engine, answerer, log=log, top_k=top_k, verbose=verbose, slow=slow,
                          width=terminal_width() if interactive else 88)
    if resume and log is not None:
        cid = log.last_conversation_id()
        if cid is None:
            click.echo("no earlier conversation to continue; starting a new one", err=True)
        else:
            session.conversation_id = cid
            session.restore(log.conversation(cid, limit=MAX_TURNS))
            last = session.last
            click.echo(f"continuing conversation {cid} ({session.turn_count} turns); last question: {last.question}", err=True)
    if answerer.mode == "extractive":
        from paperchat.render import NO_LLM_NOTE

        click.echo(NO_LLM_NOTE, err=True)
    try:
        if interactive:
            answerer.embed("warm up")  # load the model before the first prompt
            engine.retriever.bm25()
            n_papers = engine.store.papers.count() if engine.store.papers is not None else 0
            banner = (f"paperchat chat · {n_papers} papers · {answerer.mode}"
                      f"{' (' + answerer.model + ')' if answerer.model else ''}. "
                      "Ask a question; /help for commands, Ctrl-D to leave.")
            status = run_terminal(session, settings.store_path / "chat_history.txt", banner)
        else:
            status = run_piped(session, sys.stdin)
    finally:
        if log is not None:
            log.close()
    sys.stdout.flush()
    if status:
        sys.exit(status)


@click.command("history")
@click.option("-q", "--query", "text", default=None, metavar="TEXT", help="Only turns whose question, rewritten query or answer contains TEXT.")
@click.option("-n", "--limit", type=click.IntRange(1, 100000), default=20, show_default=True, help="At most this many turns (the latest).")
@click.option("-c", "--conversation", default=None, metavar="ID", help="Only this conversation.")
@click.option("--json", "as_json", is_flag=True, help="Print the turns as JSON (question, query, retrieved, answer, sources, mode, model, timings, ...).")
@click.pass_obj
def history_command(obj, text, limit, conversation, as_json):
    """List or search past chat turns (from <store>/history.sqlite3), oldest first.

    \b
    Examples:
      paperchat history
      paperchat history -q LightGTS
      paperchat history --json -n 5 | jq '.[].question'
    """
    from paperchat.chat import dump_json
    from paperchat.history import HistoryLog, history_path

    from paperchat.text import clean_text

    path = history_path(obj.settings.store_path)
    log = HistoryLog(path)
    try:
        rows = log.search(clean_text(text) if text else text, limit=limit, conversation_id=conversation)
    finally:
        log.close()
    if as_json:
        click.echo(dump_json(rows))
        return
    if not rows:
        where = f" matching {text!r}" if text else ""
        click.echo(f"No chat turns{where} in {path}." if path.exists() else f"No chat history yet ({path}).")
        return
    for row in rows:
        click.echo(f"{row['time_iso']}  {row['conversation_id']} #{row['turn']}  [{row['mode'] or '?'}"
                   f"{', ' + row['model'] if row['model'] else ''}]")
        click.echo(f"  Q: {row['question']}")
        if row["query"] and row["query"] != row["question"]:
            click.echo(f"     (read as: {row['query']})")
        answer = " ".join(str(row["answer"]).split())
        click.echo(f"  A: {answer[:200] + '…' if len(answer) > 200 else answer}")
        if row["sources"]:
            click.echo("  Sources: " + "; ".join(f"[{s['n']}] {s.get('title') or s.get('label') or s['paper_id']}" for s in row["sources"]))
    click.echo(f"{len(rows)} turn{'s' if len(rows) != 1 else ''} ({path})")


def _standalone_group():
    """A Click group with the global options of ``paperchat`` and the two commands (for ``python -m paperchat.chat_cli``)."""

    @click.group(context_settings={"help_option_names": ["-h", "--help"]})
    @click.option("--store", type=click.Path(file_okay=False, path_type=Path), default=None, help="Store folder (env PAPERCHAT_STORE).")
    @click.option("--chroma-url", default=None, metavar="URL", help="A Chroma server (env PAPERCHAT_CHROMA_URL).")
    @click.option("--embed-model", default=None, metavar="ID", help="Embedding model (env PAPERCHAT_EMBED_MODEL).")
    @click.pass_context
    def group(ctx, store, chroma_url, embed_model):
        """paperchat chat and history (stand-alone entry point)."""
        from paperchat.cli import _Ctx

        ctx.obj = _Ctx({"store": str(store) if store else None, "chroma_url": chroma_url, "embed_model": embed_model})

    group.add_command(chat_command)
    group.add_command(history_command)
    return group


def main() -> None:
    """Run the stand-alone group with the same error handling as ``paperchat``."""
    from paperchat.cli import run_group

    run_group(_standalone_group())


if __name__ == "__main__":
    main()
