"""The ``paperchat`` command line (Click): one group, one error boundary, the commands.

Only Click and the small ``core`` modules are imported at start-up, so
``paperchat --help`` stays fast; the ML stack (Chroma, onnxruntime,
LlamaIndex) is imported by the commands that need it. :func:`run` is the one
place where exceptions become exit statuses and one-line messages.
"""

from __future__ import annotations

import gc
import sys
from typing import NoReturn

import click

from paperchat import __version__
from paperchat.cli import forward
from paperchat.cli.answer_cmds import ask, config_cmd, summarize
from paperchat.cli.bench_cmd import bench
from paperchat.cli.chat_cmds import chat, history
from paperchat.cli.corpus_cmds import check, ingest, papers
from paperchat.cli.daemon_cmd import daemon
from paperchat.cli.eval_cmd import eval_command
from paperchat.cli.mcp_cmd import mcp_command
from paperchat.cli.options import AppContext, setting_option
from paperchat.cli.progress import show_notes
from paperchat.core import phases
from paperchat.core.errors import ExitStatus, PaperchatError, debug_enabled, describe


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


def invoke(group: click.Group, args: list[str] | None = None, prog_name: str | None = None) -> int:
    """Run ``group`` on ``args`` (default: the command line) and return its exit status: every exception becomes
    a status and one line on stderr, never a traceback (``PAPERCHAT_DEBUG`` re-raises). The daemon runs
    forwarded commands through this too."""
    try:
        status = group.main(
            args, prog_name=prog_name, standalone_mode=False
        )  # ctx.exit(n) comes back as n
        status = status if isinstance(status, int) else ExitStatus.OK
    except click.exceptions.Abort:  # Click's form of Ctrl-C
        click.echo("interrupted", err=True)
        status = ExitStatus.INTERRUPTED
    except click.ClickException as exc:
        exc.show()
        status = exc.exit_code
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        status = ExitStatus.INTERRUPTED
    except BrokenPipeError:
        status = ExitStatus.OK
    except PaperchatError as exc:
        click.echo(f"error: {describe(exc)}", err=True)
        status = exc.exit_status
    except Exception as exc:
        if debug_enabled():
            raise
        click.echo(f"error: {describe(exc)}", err=True)
        status = ExitStatus.ERROR
    return int(status)


def run(group: click.Group) -> NoReturn:
    """Run ``group`` on the command line (:func:`invoke`) and exit with its status."""
    phases.mark("cli")
    forward.ARGV = sys.argv[1:]  # what a forwardable command sends to the daemon
    status = invoke(group)
    background = sys.modules.get("paperchat.core.background")
    if background is not None:
        background.join_background()  # never exit while a model is loading on a thread (the runtime would abort)
    phases.write()
    if (
        "chromadb" not in sys.modules
    ):  # a reading command: exit's garbage collections may skip what is left
        gc.freeze()  # (0.3 s of teardown after openai's import); a process that opened Chroma leaves as it was
    sys.exit(status)


def main() -> NoReturn:
    """Entry point of the ``paperchat`` command."""
    run(cli)
