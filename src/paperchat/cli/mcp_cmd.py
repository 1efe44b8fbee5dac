"""``paperchat mcp``: the command that starts the MCP server (:mod:`paperchat.cli.mcp_server`, imported when run)."""

from __future__ import annotations

import click

from paperchat.cli.options import AppContext, answer_options


@click.command("mcp")
@answer_options
@click.pass_obj
def mcp_command(obj: AppContext, **flags):
    """Serve paperchat to coding agents (Claude Code, Cursor, Codex) as an MCP server over stdio.

    Tools: search_papers, ask, get_paper, summarize, list_papers, get_bibtex (with author,
    venue, year and paper filters); each paper is also the resource
    paper://<id>. The agent's host starts this command and speaks MCP on its
    stdin and stdout; it runs until the host closes stdin. Add it to an agent
    once (README, "Use it from a coding agent"):

    \b
    Examples:
      claude mcp add paperchat -- paperchat mcp
      claude mcp add paperchat-icml -- paperchat --store ~/icml-store mcp
    """
    from paperchat.api import Paperchat
    from paperchat.cli.mcp_server import serve

    obj.take(flags)
    settings = dict(obj.flags)

    def make() -> Paperchat:
        pc = Paperchat(**settings)
        pc.cli_messages = True  # an agent runs the CLI: its messages name the flags and commands
        return pc

    serve(make)
