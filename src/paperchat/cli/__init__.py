"""The ``paperchat`` command line (Click): one group, one error boundary, the commands.

Only Click and the small ``core`` modules are imported at start-up, so
``paperchat --help`` stays fast; the ML stack (Chroma, onnxruntime,
LlamaIndex) is imported by the commands that need it. :func:`main` runs a command
line in an :class:`~paperchat.cli.environment.Environment` and returns its exit
status; its :func:`invoke` is the one place where exceptions become exit
statuses and one-line messages.
"""

from __future__ import annotations

import gc
import json
import re
import shlex
import sys
from collections.abc import Callable

import click

from paperchat import __version__
from paperchat.cli import forward
from paperchat.cli.answer_cmds import ask, config_cmd, summarize
from paperchat.cli.bench_cmd import bench
from paperchat.cli.chat_cmds import chat, history
from paperchat.cli.corpus_cmds import check, ingest, papers, remove
from paperchat.cli.daemon_cmd import daemon
from paperchat.cli.environment import Environment
from paperchat.cli.eval_cmd import eval_command
from paperchat.cli.mcp_cmd import mcp_command
from paperchat.cli.options import AppContext, setting_option
from paperchat.cli.progress import show_notes
from paperchat.core import phases
from paperchat.core.errors import (
    ExitStatus,
    PaperchatError,
    ReportedFailure,
    debug_enabled,
    describe,
)


@click.group(
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    invoke_without_command=True,
)
@click.version_option(__version__, prog_name="paperchat")
@setting_option("store", type=click.Path(file_okay=False))
@setting_option("chroma_url")
@setting_option("embed_model")
@setting_option("daemon")
@click.pass_context
def cli(ctx: click.Context, **flags):
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
    ctx.obj = AppContext(flags)
    show_notes()
    if ctx.invoked_subcommand is None:  # plain `paperchat`: the help, not a usage error
        click.echo(ctx.get_help())
        ctx.exit(0)


for command in (
    ingest,
    remove,
    ask,
    summarize,
    config_cmd,
    papers,
    check,
    bench,
    eval_command,
    chat,
    history,
    mcp_command,
    daemon,
):
    cli.add_command(command)


def _point_at_group_option(group: click.Group, exc: click.ClickException) -> None:
    """An option of ``paperchat`` itself given after a command (``ask "..." --store DIR``): say where it goes,
    instead of Click's guesses among the command's own options."""
    if not isinstance(exc, click.NoSuchOption) or exc.ctx is None or exc.ctx.parent is None:
        return
    name = exc.option_name.split("=")[0]
    if any(name in p.opts for p in group.params):
        exc.message = (
            f"{name} is an option of paperchat itself: put it before the command "
            f"(paperchat {name} ... {exc.ctx.info_name} ...)"
        )
        exc.possibilities = None


def _interrupted(args: list[str]) -> str:
    """The line for Ctrl-C: an ingest says that running it again resumes it (what it wrote is kept)."""
    if "ingest" in args and "--rebuild" in args:
        return "interrupted; the store is as it was before the rebuild: run the same command again to rebuild it"
    if "ingest" in args:
        return "interrupted; the papers written so far are kept: run the same command again to finish (it resumes)"
    return "interrupted"


def _asks_json(args: list[str]) -> bool:
    """Whether the command line asks for ``--json`` (before any ``--``, after which words are text)."""
    words = args[: args.index("--")] if "--" in args else args
    return "--json" in words


def _json_error(args: list[str], message: str, status: int, kind: str = "error") -> None:
    """Under ``--json``, also print the error as JSON on stdout, so a script that parses stdout gets an object
    (``{"error": "...", "kind": "store", "exit_status": 1}``) rather than nothing; the one line on stderr
    stays. ``kind`` (:func:`_kind`) tells a service what to do: fix the request, look at the store or the
    LLM server, or retry."""
    if _asks_json(args):
        said = {"error": message, "kind": kind, "exit_status": int(status)}
        click.echo(json.dumps(said, ensure_ascii=False))


def _kind(exc: BaseException) -> str:
    """The kind of a failure, for ``--json`` errors: "usage" (a bad flag, argument or setting), "store" (the
    store cannot be opened, read or written), "llm" (the LLM endpoint), "input" (another user-facing error:
    an empty question, a bad file, no store at the path), else "error" (unexpected). An automation engineer's
    service could not tell them apart by the exit status alone."""
    from paperchat.core.errors import BadArgument, LLMError, PaperchatError, StoreError

    if isinstance(exc, (click.UsageError, click.BadParameter, BadArgument)):
        return "usage"
    if isinstance(exc, StoreError):
        return "store"
    if isinstance(exc, LLMError):
        return "llm"
    return "input" if isinstance(exc, PaperchatError) else "error"


class _Terminated(BaseException):
    """SIGTERM (``kill``, ``timeout``, systemd, docker) raised where the command is, so it stops as Ctrl-C
    stops it: the same line, the store closed, status 143 (an operator's killed ingest had said nothing).
    No ``KeyboardInterrupt``: chat's prompt takes one to clear its line and would go on."""


def _on_sigterm(_signum, _frame) -> None:
    raise _Terminated


def _catch_sigterm() -> Callable[[], None]:
    """Install :func:`_on_sigterm` when SIGTERM has its default action in the main thread (a daemon's own
    handler is kept); returns what puts the previous handler back."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return lambda: None
    signal.signal(signal.SIGTERM, _on_sigterm)
    return lambda: signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _stopped(args: list[str], status: int) -> int:
    """Say a command was interrupted (:func:`_interrupted`), under ``--json`` on stdout too (a script had
    read nothing there after a Ctrl-C); returns ``status``."""
    message = _interrupted(args)
    click.echo(message, err=True)
    _json_error(args, message, status, "interrupted")
    return status


def invoke(group: click.Group, args: list[str], prog_name: str | None = None) -> int:
    """Run ``group`` on ``args`` and return its exit status: every exception becomes a status and one line on
    stderr, never a traceback (``PAPERCHAT_DEBUG`` re-raises); under ``--json`` the error is also an object on
    stdout (:func:`_json_error`). A :class:`ReportedFailure` (the command said why already) adds no line."""
    restore = _catch_sigterm()
    try:
        status = group.main(
            args, prog_name=prog_name, standalone_mode=False
        )  # ctx.exit(n) comes back as n
        status = status if isinstance(status, int) else ExitStatus.OK
    except click.exceptions.Abort:  # Click's form of Ctrl-C
        status = _stopped(args, ExitStatus.INTERRUPTED)
    except _Terminated:
        status = _stopped(args, 143)
    except click.ClickException as exc:
        _point_at_group_option(group, exc)
        exc.show()
        status = exc.exit_code
        _json_error(args, exc.format_message(), status, _kind(exc))
    except KeyboardInterrupt:
        status = _stopped(args, ExitStatus.INTERRUPTED)
    except BrokenPipeError:
        status = ExitStatus.OK
    except SystemExit as exc:  # Click's own answer to EPIPE ("history | head -1") is exit 1
        if not isinstance(sys.stdout, click.utils.PacifyFlushWrapper):
            raise
        status = ExitStatus.OK if exc.code in (0, 1, None) else exc.code
    except PaperchatError as exc:
        status = exc.exit_status
        if not isinstance(exc, ReportedFailure):
            line = _with_store(describe(exc), args)
            click.echo(f"error: {line}", err=True)
            _json_error(args, line, status, _kind(exc))
    except Exception as exc:
        if debug_enabled():
            raise
        click.echo(f"error: {describe(exc)}", err=True)
        status = ExitStatus.ERROR
        _json_error(args, describe(exc), status, _kind(exc))
    finally:
        restore()
    return int(status)


#: paperchat's own options that take a value (before the command).
_VALUED = ("--store", "--chroma-url", "--embed-model", "--daemon")


def _with_store(line: str, args: list[str]) -> str:
    """``line`` with the store options the command line gave (``--store DIR``, ``--chroma-url URL``) put in
    each command it suggests that names none: "start afresh with `paperchat ingest --rebuild FILES`" from
    ``ask --store s11`` would have rebuilt the default store (a README audit)."""
    given: list[str] = []
    for i, arg in enumerate(args):
        if arg in ("--store", "--chroma-url") and i + 1 < len(args):
            given += [arg, shlex.quote(args[i + 1])]
        elif arg.startswith(("--store=", "--chroma-url=")):
            given += [shlex.quote(arg)]
        elif not arg.startswith("-") and (i == 0 or args[i - 1] not in _VALUED):
            break  # the command: its own options follow
    if not given:
        return line
    return re.sub(
        r"`paperchat (?!--(?:store|chroma-url)\b)", f"`paperchat {' '.join(given)} ", line
    )


def main(args: list[str] | None = None, env: Environment | None = None) -> ExitStatus | int:
    """Run the command line ``args`` in ``env`` and return its exit status (httpie's ``main(args, env)``).

    ``args`` defaults to ``sys.argv[1:]``; ``env`` to the process's own
    streams and variables (:class:`Environment`). Nothing is raised: errors
    are one line on ``env.stderr`` and a non-zero status (``PAPERCHAT_DEBUG``
    re-raises). A status that is not an :class:`ExitStatus` (a daemon's
    relayed one) comes back as an ``int``. ``python -m paperchat`` and the
    ``paperchat`` script exit with it; the warm daemon calls it once per
    forwarded request, with the client's streams.
    """
    own_process = env is None
    env = env or Environment()
    if own_process:
        phases.mark("cli")
    args = sys.argv[1:] if args is None else list(args)
    forward.ARGV = args  # what a forwardable command sends to the daemon
    with env.applied():
        status = invoke(cli, args, prog_name=env.prog_name)
        background = sys.modules.get("paperchat.core.background")
        if background is not None:
            background.join_background()  # never leave while a model is loading on a thread
    if own_process:
        phases.write()
        if "chromadb" not in sys.modules:  # a reading command: exit's garbage collections may skip
            gc.freeze()  # what is left (0.3 s of teardown after openai's import); Chroma's is kept
    try:
        return ExitStatus(status)
    except ValueError:
        return status
