"""``paperchat daemon start|status|stop``: the warm local daemon that ask, summarize and papers hand their work to."""

from __future__ import annotations

import json
import time

import click

from paperchat.cli.options import AppContext


def _files(obj: AppContext):
    from paperchat.cli import daemon_link as link
    from paperchat.core.errors import PaperchatError

    files = link.daemon_files(obj.settings)
    if files is None:
        raise PaperchatError(
            "no private runtime folder for the daemon's socket (set XDG_RUNTIME_DIR to a short "
            "folder of yours)"
        )
    return files


def _where(obj: AppContext) -> str:
    settings = obj.settings
    return settings.chroma_url or str(settings.store_path.resolve())


@click.group()
def daemon():
    """Keep a store warm in a local daemon, so one-shot commands answer fast.

    A cold `paperchat ask` spends most of its time starting up: importing
    Chroma, opening the store, loading the embedding model and the indexes.
    The daemon does that once and keeps it: ask, summarize and papers send
    their command line, folder, environment and terminal to it over a Unix
    socket, it runs the same command, and its output streams back
    unchanged, with the same exit status. chat, ingest, eval and the rest
    always run in their own process; each request sees what an ingest in
    another process wrote.

    One daemon per store (--store, or --chroma-url). The setting `daemon`
    (--daemon, PAPERCHAT_DAEMON, config key `daemon`) decides when it is
    used: auto (default) uses one when it runs and otherwise runs the command
    here, then starts one for the next command; on starts one and waits for
    it; off never uses one. A daemon exits after PAPERCHAT_DAEMON_IDLE
    seconds without a request (config key `daemon_idle`, default 900), when
    a command of another paperchat version or an edited checkout talks to it,
    or on `paperchat daemon stop`.

    \b
    Examples:
      paperchat daemon start
      paperchat daemon status
      paperchat --store ~/papers daemon stop
      PAPERCHAT_DAEMON=off paperchat ask "What does ConfPO use to pick preference-critical tokens?"
    """


@daemon.command("start")
@click.option(
    "--foreground", is_flag=True, help="Serve in this process (logs on stderr) instead of detached."
)
@click.pass_obj
def start(obj: AppContext, foreground):
    """Start the store's daemon (nothing to do when it runs) and wait until it answers.

    \b
    Examples:
      paperchat daemon start
      PAPERCHAT_DAEMON_IDLE=3600 paperchat --store ~/papers daemon start
    """
    from paperchat.cli import forward
    from paperchat.cli.daemon_link import code_stamp
    from paperchat.core.errors import PaperchatError, ReportedFailure

    files = _files(obj)
    if foreground:
        from paperchat.cli.daemon_server import Daemon

        forward.SERVING = True
        if Daemon(files, obj.settings, code_stamp()).run():
            raise ReportedFailure()  # another daemon serves the store (said on stderr)
        return
    info = files.read_info()
    if info is not None:
        click.echo(f"a daemon already serves {info['store']} (pid {info['pid']})")
        return
    from paperchat.core.commands import ingest_command

    if not obj.settings.chroma_url and not (obj.settings.store_path / "chroma").is_dir():
        raise PaperchatError(
            f"no store at {obj.settings.store_path}; run `{ingest_command(obj.settings)}` first"
        )
    proc = forward.spawn(obj.settings, files)
    if not forward.wait_for(files, proc):
        raise PaperchatError(f"the daemon did not start; its log is {files.log}")
    info = files.read_info() or {"pid": "?", "idle_s": obj.settings.daemon_idle}
    click.echo(
        f"daemon started (pid {info['pid']}) for {_where(obj)}; it exits after {info['idle_s']:g} s "
        "without a request"
    )


@daemon.command("status")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the daemon's info as JSON ({} when none runs)."
)
@click.pass_obj
def status(obj: AppContext, as_json):
    """Show whether the store's daemon runs: pid, store, version, started, requests served, idle time left.

    Exits 0 when a daemon runs, 1 when none does (so scripts can test it).

    \b
    Example:
      paperchat daemon status
    """
    from paperchat.cli.environment import current
    from paperchat.core.errors import ReportedFailure

    files = _files(obj)
    info = files.read_info()
    if info is not None:
        info["idle_s_left"] = round(
            max(0.0, info["last_request"] + info["idle_s"] - current().clock.time()), 1
        )
    if as_json:
        click.echo(json.dumps(info or {}, indent=2))
    elif info is None:
        click.echo(f"no daemon runs for {_where(obj)}")
    else:
        started = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(info["started"]))
        serves = "serves" if info.get("state") in ("serving", "busy") else "is warming up for"
        click.echo(
            f"daemon pid {info['pid']} {serves} {info['store']}\n"
            f"  version {info['version']}, started {started}, {info['requests']} requests served, "
            f"exits after {info['idle_s_left']:g} s more without a request\n"
            f"  socket {info['socket']}\n  log {info['log']}"
        )
    if info is None:
        raise ReportedFailure()


@daemon.command("stop")
@click.pass_obj
def stop(obj: AppContext):
    """Stop the store's daemon (one line either way; exit 0 when none runs).

    \b
    Example:
      paperchat daemon stop
    """
    import os
    import signal

    from paperchat.cli import daemon_link as link
    from paperchat.cli.environment import current
    from paperchat.cli.forward import connect

    files = _files(obj)
    info = files.read_info()
    sock = connect(files)
    if sock is not None:
        with sock:
            sock.settimeout(30.0)
            try:
                link.send(sock, b"Q", json.dumps({"kind": "stop"}).encode())
                link.receive(sock.makefile("rb"))
            except OSError:
                pass
    elif info is not None:
        os.kill(int(info["pid"]), signal.SIGTERM)
    if info is None and sock is None:
        click.echo(f"no daemon runs for {_where(obj)}")
        return
    clock = current().clock
    deadline = clock.monotonic() + 10.0
    while files.read_info() is not None and clock.monotonic() < deadline:
        clock.sleep(0.05)
    click.echo(f"daemon {'pid ' + str(info['pid']) + ' ' if info else ''}stopped for {_where(obj)}")
