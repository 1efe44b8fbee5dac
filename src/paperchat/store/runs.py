"""Ingests under way or interrupted, recorded in the store's state, so a partial store is never taken for a whole one.

Before an ingest changes anything, the writer (:mod:`paperchat.store.writer`)
records the run in the ``writing`` field of the store's state: its key (the
files and options, :func:`paperchat.ingest.manifest.run_key`) and the command
that repeats it. A run that ends well removes itself. A run still recorded
is either under way (another process holds the write lock) or was
interrupted (killed, Ctrl-C, a crash, a full disk): the store then holds the
papers it finished and readers see them, ``paperchat check`` says the store
is partial and which command finishes it, and a first-run ``ask`` never adds
the bundled corpus to it.

A store written by an earlier paperchat whose first ingest was interrupted
(a pending generation and no current one) counts as one interrupted run of
unknown files (:data:`UNKNOWN`), which the next run that ends well clears.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from paperchat.store.lease import other_writer

FIELD = "writing"
#: the key of a run whose files are not known (an earlier paperchat's interrupted first ingest)
UNKNOWN = "?"
UNKNOWN_COMMAND = "paperchat ingest FILES"


def runs_of(meta: dict[str, Any]) -> dict[str, str]:
    """The recorded runs in the store's state ``meta``: ``{run key: command that repeats it}``."""
    raw = meta.get(FIELD) or ""
    try:
        parsed = json.loads(raw) if raw else {}
    except (TypeError, ValueError):
        parsed = {UNKNOWN: UNKNOWN_COMMAND}
    out = (
        {str(k): str(v) for k, v in parsed.items()}
        if isinstance(parsed, dict)
        else {UNKNOWN: UNKNOWN_COMMAND}
    )
    if not int(meta.get("current") or 0) and int(meta.get("pending") or 0):
        out.setdefault(UNKNOWN, UNKNOWN_COMMAND)
    return out


def encode(runs: dict[str, str]) -> str:
    """``runs`` as the state's ``writing`` field (a JSON object; ``""`` when none)."""
    return json.dumps(runs, sort_keys=True) if runs else ""


def is_writing(store_dir: Path) -> bool:
    """Whether a process holds the write lock of the store whose lock files live in ``store_dir`` now."""
    from filelock import FileLock, Timeout

    path = Path(store_dir) / "write.lock"
    if not path.exists():
        return False
    lock = FileLock(str(path))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        return True
    except OSError:
        return False  # a read-only folder: nobody writes it
    lock.release()
    return False


def being_written(store) -> bool:
    """Whether another process writes ``store`` (a :class:`~paperchat.store.chroma.ChromaStore`) now: it
    holds this machine's write lock, or, on a server, a live lease (a writer on another machine holds no
    lock file here)."""
    return is_writing(store.local_dir) or bool(store.remote and other_writer(store))


#: The store's state field a first ingest sets to the generation it builds, cleared when a run ends well.
BUILDING = "building"


def building_message(store) -> str | None:
    """Why a reader must not search ``store`` (a :class:`~paperchat.store.chroma.ChromaStore`) now: its first
    ingest is still writing it (another process holds the write lock of an embedded store whose current
    generation that ingest created). ``None`` otherwise, and when that ingest was interrupted: the papers
    it finished are read then. A long-lived reader (the MCP server, the daemon) that searched a store
    being built had crashed in Chroma's native index code and left the store unreadable (a break-it
    session: 3 runs of 3); one that searches it once the write lock is free does not."""
    state = store.read_meta()
    building = int(state.get(BUILDING) or 0)
    if not building or building != int(state.get("current") or 0):
        return None
    # on a server, from another machine too (a lab engineer's colleagues had got answers from 64 of 147
    # papers, no word said, while the store was first built)
    if not being_written(store):
        return None
    return (
        f"an ingest is building the store at {store.where()} now; search it when that ingest has "
        "finished (`paperchat papers` lists what it has stored so far)"
    )


def _here(cmd: str, where: str | None) -> str:
    """A recorded command ``cmd`` with its ``--store`` set to ``where``, the store's path now (a store moved or
    restored elsewhere had been told to run the command on its old path, which built a new store there)."""
    words = shlex.split(cmd) if where and "://" not in where else []
    if "--store" not in words[:-1]:
        return cmd
    words[words.index("--store") + 1] = where
    return shlex.join(words)


def _commands(runs: dict[str, str], where: str | None = None) -> str:
    return " and ".join(f"`{_here(cmd, where)}`" for cmd in dict.fromkeys(runs.values()))


def _kind(runs: dict[str, str]) -> str:
    """ "a remove" when every recorded run removes files, else "an ingest"."""
    return "a remove" if runs and all(k.startswith("remove:") for k in runs) else "an ingest"


def describe(runs: dict[str, str], writing: bool, papers: int, where: str) -> str:
    """One line about recorded ``runs`` of the store at ``where`` holding ``papers`` papers: under way
    (``writing``: another process holds the write lock) or interrupted, and what to do."""
    stored = f"{papers} paper{'s' if papers != 1 else ''} stored so far"
    if writing:
        return f"{_kind(runs)} is writing the store at {where} now ({_commands(runs, where)}; {stored})"
    return f"{_kind(runs)} of the store at {where} was interrupted ({stored}): {resume_hint(runs, where)}"


def resume_hint(runs: dict[str, str], where: str | None = None) -> str:
    """What to run to finish the recorded ``runs`` of the store at ``where``: "run `CMD` again to finish it (it
    resumes)"."""
    return f"run {_commands(runs, where)} again to finish it (it resumes)"


def refuse_first_run(store, key: str) -> bool:
    """Whether a first run must not ingest the bundled corpus (run ``key``) into ``store`` (a
    :class:`~paperchat.store.chroma.ChromaStore`): it holds papers, or another ingest is recorded.

    Raises :class:`~paperchat.core.errors.StoreError` when another ingest is recorded and no paper is stored
    yet: there is nothing to answer from, and the message says which ingest to wait for or run again.
    """
    from paperchat.core.errors import StoreError

    runs = store.runs()
    papers = store.counts()[0]
    if not papers and store.read_meta().get("emptied"):
        raise StoreError(
            f"the store at {store.where()} holds no papers: `paperchat remove` emptied it; ingest your "
            "files, or the bundled corpus with `paperchat ingest`"
        )
    if set(runs) - {key}:
        if papers:
            return True
        raise StoreError(
            describe(runs, is_writing(store.local_dir), 0, store.where())
            + "; until then there is nothing to answer from"
        )
    return bool(papers and not runs)
