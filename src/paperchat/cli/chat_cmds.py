"""``paperchat chat`` (the multi-turn REPL) and ``paperchat history`` (past turns)."""

from __future__ import annotations

import click

from paperchat.cli.common import echo_json, first_run, plural
from paperchat.cli.options import (
    AppContext,
    answer_options,
    filter_options,
    setting_option,
    take_filters,
)


@click.command("chat")
@setting_option("top_k", "-k", lead="Papers to retrieve per question.")
@click.option(
    "--continue",
    "resume",
    is_flag=True,
    help="Resume the last conversation: its last answer's sources are the context.",
)
@click.option(
    "--no-history",
    is_flag=True,
    help="Do not log turns (also: PAPERCHAT_HISTORY=0 or history = false in the config).",
)
@click.option(
    "-v",
    "--verbose",
    is_flag=True,
    help="After each answer, print the query used and the timings (stderr).",
)
@filter_options
@answer_options
@click.pass_obj
def chat(obj: AppContext, resume, no_history, verbose, **flags):
    """Chat about the papers: ask questions and follow-ups, each answer with its Sources.

    Follow-ups that say "it", "this paper", "the second one" or "they" are
    read against the sources of the previous answer. Type /help for the
    commands (/sources, /show N, /summarize N, /why, /papers, /history,
    /save FILE, /export FILE.bib, /reset, /quit). Ctrl-C cancels an answer,
    Ctrl-D leaves. --author, --venue, --year and --paper answer every
    question from the matching papers only.

    With stdin not a terminal, each line is one question and the output is
    plain text. Every turn is logged to <store>/history.sqlite3 (see
    `paperchat history`) unless --no-history.

    \b
    Examples:
      paperchat chat
      paperchat chat --continue
      printf 'What is LightGTS?\\nWhich two techniques does it introduce?\\n' | paperchat chat
    """
    from paperchat.chat.history import HistoryLog, history_path
    from paperchat.chat.session import MAX_TURNS, ChatSession
    from paperchat.cli.environment import current
    from paperchat.cli.render import NO_LLM_NOTE
    from paperchat.cli.terminal import run_piped, run_terminal, terminal_width
    from paperchat.core.errors import PaperchatError
    from paperchat.store.opening import local_folder

    filters = take_filters(flags)
    obj.take(flags)
    settings = obj.settings
    env = current()
    interactive = env.stdin_isatty and env.stdout_isatty
    engine = obj.engine()
    choice = engine.choose_mode()
    mode = choice.mode
    engine.preload(mode)  # the model and, with an LLM, the openai client load while the store opens
    first_run(obj, False)
    engine.paper_ids(
        filters
    )  # a filter that matches no paper stops here, before the first question
    log = None
    if settings.history and not no_history:
        log = HistoryLog(history_path(local_folder(settings)))
    elif resume:
        raise PaperchatError(
            "--continue needs the chat history, which is turned off (--no-history or PAPERCHAT_HISTORY=0)"
        )
    session = ChatSession(
        engine,
        mode,
        log=log,
        top_k=None,  # the engine's setting, and whether it was set (a "which papers" list takes 10 if not)
        fallback=choice.fallback,
        verbose=verbose,
        width=terminal_width() if interactive else 88,
        filters=filters,
    )
    if resume and log is not None:
        cid = log.last_conversation_id()
        rows = log.conversation(cid, limit=MAX_TURNS) if cid else []
        if cid is None:
            click.echo("no earlier conversation to continue; starting a new one", err=True)
        elif not rows:  # the last thing done was /reset
            click.echo("the last conversation was reset (/reset); starting a new one", err=True)
        else:
            session.conversation_id = cid
            session.restore(rows)
            click.echo(
                f"continuing conversation {cid} ({session.turn_count} turns); last question: "
                f"{session.last.question}",
                err=True,
            )
    if mode == "extractive" and (settings.mode or "auto").lower() == "auto":  # not when asked for
        click.echo(NO_LLM_NOTE, err=True)
    try:
        if interactive:
            session.embed("warm up")  # load the model before the first prompt
            engine.store.bm25()
            n_papers = engine.store.counts()[0]
            model = f" ({settings.llm_model})" if mode == "llm" else ""
            banner = (
                f"paperchat chat · {plural(n_papers, 'paper')} · {mode}{model}. "
                "Ask a question; /help for commands, Ctrl-D to leave."
            )
            status = run_terminal(session, local_folder(settings) / "chat_history.txt", banner)
        else:
            status = run_piped(session, env.stdin)
    finally:
        if log is not None:
            log.close()
    env.stdout.flush()
    click.get_current_context().exit(status)


@click.command("history")
@click.option(
    "-q",
    "--query",
    "text",
    default=None,
    metavar="TEXT",
    help="Only turns whose question, rewritten query or answer contains TEXT.",
)
@click.option(
    "-n",
    "--limit",
    type=click.IntRange(1, 100000),
    default=20,
    show_default=True,
    help="At most this many turns (the latest).",
)
@click.option("-c", "--conversation", default=None, metavar="ID", help="Only this conversation.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the turns as JSON (question, query, retrieved, answer, sources, mode, model, timings, ...).",
)
@click.pass_obj
def history(obj: AppContext, text, limit, conversation, as_json):
    """List or search past chat turns (from <store>/history.sqlite3), oldest first.

    \b
    Examples:
      paperchat history
      paperchat history -q LightGTS
      paperchat history --json -n 5 | jq '.[].question'
    """
    from paperchat.chat.history import HistoryLog, history_path
    from paperchat.core.text import clean_text
    from paperchat.store.opening import local_folder

    if not obj.settings.chroma_url and not obj.settings.store_path.is_dir():  # a mistyped --store
        from paperchat.cli.common import refuse_no_store

        refuse_no_store(obj.settings, "no chat history there")
    path = history_path(local_folder(obj.settings))
    log = HistoryLog(path)
    try:
        rows = log.search(
            clean_text(text) if text else text, limit=limit, conversation_id=conversation
        )
    finally:
        log.close()
    if as_json:
        echo_json(rows)
        return
    if not rows:
        where = (f" matching {text!r}" if text else "") + (
            f" in conversation {conversation!r}" if conversation else ""
        )
        click.echo(
            f"No chat turns{where} in {path}."
            if path.exists()
            else f"No chat history yet ({path})."
        )
        return
    for row in rows:
        click.echo(
            f"{row['time_iso']}  {row['conversation_id']} #{row['turn']}  [{row['mode'] or '?'}"
            f"{', ' + row['model'] if row['model'] else ''}]"
        )
        click.echo(f"  Q: {row['question']}")
        if row["query"] and row["query"] != row["question"]:
            click.echo(f"     (read as: {row['query']})")
        answer = " ".join(str(row["answer"]).split())
        click.echo(f"  A: {answer[:200] + '…' if len(answer) > 200 else answer}")
        if row["sources"]:
            click.echo(
                "  Sources: "
                + "; ".join(
                    f"[{s['n']}] {s.get('title') or s.get('label') or s['paper_id']}"
                    for s in row["sources"]
                )
            )
    click.echo(f"{len(rows)} turn{'s' if len(rows) != 1 else ''} ({path})")
