"""The chat's input loops: an interactive terminal (prompt_toolkit) and piped stdin; replies rendered here.

:func:`run_terminal` gives line editing, an input history file, Ctrl-C (clear
the line; during an answer, cancel it) and Ctrl-D (leave). :func:`run_piped`
answers one line at a time, echoing each as ``> line``, in plain text. Both
render a session's :class:`~paperchat.chat.session.Reply` with
:func:`render_reply`.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from paperchat.chat.session import ChatSession, Reply
from paperchat.cli.render import render_answer, render_papers, render_sources
from paperchat.core.errors import debug_enabled, describe

#: the interactive prompt
PROMPT = "paperchat> "
#: a piped line longer than this is echoed cut short
ECHO_CHARS = 200

Out = Callable[[str], None]


def _print(text: str) -> None:
    print(text, flush=True)


def _print_err(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _stream(piece: str) -> None:
    sys.stdout.write(piece)
    sys.stdout.flush()


class WrappingWriter:
    """Writes streamed text to a terminal, breaking lines between words (never inside one) at ``width`` columns."""

    def __init__(self, width: int, write: Callable[[str], None] | None = None):
        self.width = width
        self.write = write or _stream
        self.column = 0
        self._word = ""

    def _flush_word(self) -> None:
        if not self._word:
            return
        if self.column and self.column + len(self._word) > self.width:
            self.write("\n")
            self.column = 0
        self.write(self._word)
        self.column += len(self._word)
        self._word = ""

    def __call__(self, piece: str) -> None:
        for ch in piece:
            if ch == "\n":
                self._flush_word()
                self.write("\n")
                self.column = 0
            elif ch.isspace():
                self._flush_word()
                if self.column and self.column < self.width:
                    self.write(" ")
                    self.column += 1
            else:
                self._word += ch

    def close(self) -> None:
        """Write what is held back (the last word)."""
        self._flush_word()


class TypeAhead:
    """What was typed while an answer streamed: text for the next prompt, and whether Ctrl-D was among it."""

    def __init__(self) -> None:
        self.raw = b""

    @property
    def eof(self) -> bool:
        return b"\x04" in self.raw

    @property
    def text(self) -> str:
        out: list[str] = []
        for ch in self.raw.decode("utf-8", "replace"):
            if ch in ("\x7f", "\b"):
                if out:
                    out.pop()
            elif ch == "\x04":
                break
            elif ch.isprintable():
                out.append(ch)
        return "".join(out)


@contextlib.contextmanager
def keys_held_back():
    """While an answer streams, keys typed are not echoed into it; the :class:`TypeAhead` holds them after.

    Ctrl-C still interrupts (signals stay on). Without a terminal it does nothing.
    """
    box = TypeAhead()
    try:
        import termios

        fd = sys.stdin.fileno()
        old = termios.tcgetattr(fd)
    except (ImportError, OSError, ValueError, AttributeError):
        yield box
        return
    except Exception:  # termios.error: not a terminal
        yield box
        return
    new = termios.tcgetattr(fd)
    new[3] &= ~(termios.ECHO | termios.ICANON)
    termios.tcsetattr(fd, termios.TCSANOW, new)
    try:
        yield box
    finally:
        import select

        while select.select([fd], [], [], 0)[0]:
            chunk = os.read(fd, 1024)
            if not chunk:
                break
            box.raw += chunk
        termios.tcsetattr(fd, termios.TCSANOW, old)


def render_reply(reply: Reply, width: int = 88) -> str:
    """A reply as terminal text: the answer (or its end, after streaming), a command's output or a list."""
    if reply.answer is not None:
        return render_answer(reply.answer, width, streamed=reply.streamed)
    if reply.sources is not None:
        return render_sources(reply.sources)
    # a conference is thousands of lines: the first CHAT_PAPERS of them
    if reply.papers is not None:
        shown = render_papers(reply.papers[:CHAT_PAPERS])
        more = len(reply.papers) - CHAT_PAPERS
        return shown + (
            f"\n… and {more:,} more (`paperchat papers` lists them all; FILTERS narrow them)"
            if more > 0
            else ""
        )
    return reply.text


#: Papers chat's ``/papers`` shows at most.
CHAT_PAPERS = 50


def answer_line(
    session: ChatSession,
    line: str,
    out: Out = _print,
    err: Out = _print_err,
    on_token: Callable[[str], None] | None = _stream,
    close: Callable[[], None] | None = None,
) -> bool:
    """Handle one line and show the reply; ``False`` when the session should end.

    ``close`` is called after a streamed answer (a wrapping writer's last
    word). A failed turn prints one ``error:`` line on ``err`` (stderr; the
    streamed text's line is ended on ``out`` first) and the chat goes on.
    """
    streamed: list[str] = []

    def stream(piece: str) -> None:
        streamed.append(piece)
        on_token(piece)

    try:
        reply = session.handle(line, stream if on_token is not None else None)
        if close is not None:
            close()
    except KeyboardInterrupt:
        raise
    except Exception as exc:
        if debug_enabled():
            raise
        if streamed:
            if close is not None:
                close()
            out("")
        err(f"error: {describe(exc)}")
        return True
    if reply.streamed:
        out("")  # end the streamed line
    text = render_reply(reply, session.width)
    if text:
        out(text)
    for line_ in reply.stderr:
        err(line_)
    return not reply.done


def run_piped(
    session: ChatSession, lines: Iterable[str], out: Out = _print, err: Out = _print_err
) -> int:
    """Answer one question (or command) per line of ``lines`` (plain text, no prompt); returns the exit status."""
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        shown = (
            line if len(line) <= ECHO_CHARS else f"{line[:ECHO_CHARS]}… ({len(line)} characters)"
        )
        out(f"> {shown}")
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
    typed = ""
    while True:
        try:
            line = prompt.prompt(PROMPT, default=typed)
        except KeyboardInterrupt:
            typed = ""
            continue  # clear the line
        except EOFError:
            return 0
        writer = WrappingWriter(session.width)
        with keys_held_back() as ahead:
            try:
                keep_going = answer_line(session, line, on_token=writer, close=writer.close)
            except KeyboardInterrupt:
                _print("\n(cancelled: that question is not part of the conversation)")
                keep_going = True
        _print("")
        if not keep_going or ahead.eof:  # Ctrl-D typed while the answer streamed still leaves
            return 0
        typed = ahead.text


def terminal_width() -> int:
    """The width to wrap answers at: the running :class:`~paperchat.cli.environment.Environment`'s terminal
    width less one, between 40 and 100 columns."""
    from paperchat.cli.environment import current

    return max(40, min(100, current().columns() - 1))
