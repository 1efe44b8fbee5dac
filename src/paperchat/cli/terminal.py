"""The chat's input loops: an interactive terminal (prompt_toolkit) and piped stdin; replies rendered here.

:func:`run_terminal` gives line editing, an input history file, Ctrl-C (clear
the line; during an answer, cancel it) and Ctrl-D (leave). :func:`run_piped`
answers one line at a time, echoing each as ``> line``, in plain text. Both
render a session's :class:`~paperchat.chat.session.Reply` with
:func:`render_reply`.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Callable, Iterable

from paperchat.chat.session import ChatSession, Reply
from paperchat.cli.render import render_answer, render_papers, render_sources
from paperchat.core.errors import debug_enabled, describe

#: the interactive prompt
PROMPT = "paperchat> "

Out = Callable[[str], None]


def _print(text: str) -> None:
    print(text, flush=True)


def _print_err(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _stream(piece: str) -> None:
    sys.stdout.write(piece)
    sys.stdout.flush()


def render_reply(reply: Reply, width: int = 88) -> str:
    """A reply as terminal text: the answer (or its end, after streaming), a command's output or a list."""
    if reply.answer is not None:
        return render_answer(reply.answer, width, streamed=reply.streamed)
    if reply.sources is not None:
        return render_sources(reply.sources)
    if reply.papers is not None:
        return render_papers(reply.papers)
    return reply.text


def answer_line(session: ChatSession, line: str, out: Out = _print, err: Out = _print_err,
                on_token: Callable[[str], None] | None = _stream) -> bool:
    """Handle one line and show the reply; ``False`` when the session should end.

    A failed turn prints one ``error:`` line and the chat goes on.
    """
    try:
        reply = session.handle(line, on_token)
    except KeyboardInterrupt:
        raise
    except Exception as exc:
        if debug_enabled():
            raise
        out(f"error: {describe(exc)}")
        return True
    if reply.streamed:
        out("")  # end the streamed line
    text = render_reply(reply, session.width)
    if text:
        out(text)
    for line_ in reply.stderr:
        err(line_)
    return not reply.done


def run_piped(session: ChatSession, lines: Iterable[str], out: Out = _print, err: Out = _print_err) -> int:
    """Answer one question (or command) per line of ``lines`` (plain text, no prompt); returns the exit status."""
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        out(f"> {line}")
        keep_going = answer_line(session, line, out, err)
        out("")
        if not keep_going:
            break
    return 0


def run_terminal(session: ChatSession, history_file: Path | None = None, banner: str = "") -> int:
    """The interactive loop (prompt_toolkit); returns the exit status.

    Ctrl-C at the prompt clears the line; during an answer it cancels that
    answer (the question is forgotten). Ctrl-D (or /quit) leaves with status 0.
    """
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    history = InMemoryHistory()
    if history_file is not None:
        try:
            history_file.parent.mkdir(parents=True, exist_ok=True)
            history_file.touch(exist_ok=True)
            history = FileHistory(str(history_file))
        except OSError:
            pass
    prompt = PromptSession(history=history)
    if banner:
        _print(banner)
    while True:
        try:
            line = prompt.prompt(PROMPT)
        except KeyboardInterrupt:
            continue  # clear the line
        except EOFError:
            return 0
        try:
            if not answer_line(session, line):
                return 0
        except KeyboardInterrupt:
            _print("\n(cancelled: that question is not part of the conversation)")
        _print("")


def terminal_width() -> int:
    """The width to wrap answers at: the terminal's, at most 100 columns."""
    return max(40, min(100, shutil.get_terminal_size((88, 24)).columns - 1))
