"""The ingest manifest: what each ingest read, by content hash, so repeating an unchanged one is a no-op.

After each ingest the writer (:mod:`paperchat.store.writer`, under the write
lock, after the commit) saves the manifest beside the store, in
``<store>/ingest-manifest.json`` (:data:`FILE`): the store revision it was
written at, the settings the store was built with, its counts, and every
recorded run: the files it read (absolute path, SHA-256, size), the options
it read them with (the metadata file's hash, the encoding, what to do on a
malformed line) and its counts. ``paperchat ingest FILES`` repeating a
recorded run on files whose sizes and hashes match reports the run as
unchanged without parsing the files or opening Chroma, but only when the
revision Chroma has committed (read from its database,
:func:`paperchat.store.committed.committed_revision`) is the manifest's: a
manifest of another revision (a ``chroma/`` folder restored from a backup, a
write whose manifest could not be saved) is not trusted. Anything else (a
changed byte, another option or file list, ``--rebuild``) takes the full
path, which re-reads and diffs every record. A run that changes the store
forgets every other recorded run (it may have removed papers they added), so
only runs since the last change are trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

#: the manifest's file in the store folder
FILE = "ingest-manifest.json"
#: bumped when the file's fields change (a manifest of another format is not read)
FORMAT = 1
#: runs kept in the manifest (the most recent ones)
MAX_RUNS = 32
#: bumped when paper records gain fields a re-read of unchanged files fills in (2: venue and year; 3: HTML
#: character references decoded, field names in any case, "Smith, Alice" one author; 4: how a paper was
#: presented, oral, spotlight or poster), so runs recorded before are read again once
RECORD_FIELDS = 4


def file_key(path: Path | str) -> str:
    """How paperchat identifies a file (in the manifest and in paper records): its absolute, resolved path.

    Raises :class:`~paperchat.core.errors.PaperchatError` for a symbolic link that leads back to itself."""
    try:
        return str(Path(path).expanduser().resolve())
    except RuntimeError as exc:
        # pathlib's "Symlink loop from ..." (Python 3.11; 3.13 raises OSError)
        from paperchat.core.errors import PaperchatError

        raise PaperchatError(
            f"{path} is a symbolic link that leads back to itself: {exc}"
        ) from None


def content_hash(path: Path | str) -> str:
    """SHA-256 of the file's bytes (hex)."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def run_key(paths: list[Path], metadata: Path | None, encoding: str | None, on_error: str) -> str:
    """One ingest's files and read options as a string (the metadata file by path; its content is hashed apart)."""
    files = "|".join(sorted(file_key(p) for p in paths))
    meta = file_key(metadata) if metadata is not None else "-"
    return (
        f"{files};metadata={meta};encoding={(encoding or 'utf-8').lower()};on_error={on_error}"
        f";fields={RECORD_FIELDS}"
    )


def run_files(key: str) -> list[str]:
    """The files (:func:`file_key` s) of the run ``key`` (:func:`run_key`); ``[]`` for a key of no files."""
    files = key.split(";metadata=", 1)[0] if ";metadata=" in key else ""
    return [f for f in files.split("|") if f]


def repeat_command(
    paths: list[Path],
    metadata: Path | None,
    encoding: str | None,
    on_error: str,
    bundled: bool = False,
    options: list[str] | None = None,
) -> str:
    """The ``paperchat ingest`` command that repeats an ingest, to copy and run from any folder: the global
    ``options`` that select its store (:func:`paperchat.core.commands.store_options`), then the files
    as absolute paths (``bundled``: none, the bundled corpus is the default)."""
    import shlex

    words = ["paperchat", *(options or []), "ingest"]
    if bundled:
        return shlex.join(words)
    words += [str(Path(p).resolve()) for p in paths]
    words += ["--metadata", str(Path(metadata).resolve())] if metadata is not None else []
    words += ["--encoding", encoding] if encoding else []
    words += ["--on-error", on_error] if on_error != "stop" else []
    return shlex.join(words)


def fingerprints(paths: list[Path], metadata: Path | None) -> dict[str, dict[str, Any]]:
    """The files' and metadata file's sizes and hashes (``{file key: {"sha256", "size"}}``), taken before an
    ingest reads them: a file edited while the ingest runs then differs from what the manifest holds, and the
    next run reads it again (a lab engineer's session: hashed at the end, an edit saved mid-run had been
    recorded as read, and every later run said "120 unchanged" of a 123-paper file)."""
    files = list(paths) + ([metadata] if metadata is not None else [])
    return {file_key(p): {"sha256": content_hash(p), "size": Path(p).stat().st_size} for p in files}


def record(files: dict[str, dict[str, Any]], report: dict[str, Any]) -> dict[str, Any]:
    """The manifest entry of one ingest: the ``files``' sizes and hashes as :func:`fingerprints` took them before
    the ingest read them, and ``report`` (its counts)."""
    return {"files": files, "report": report}


def merge(runs: dict[str, Any], key: str, entry: dict[str, Any]) -> dict[str, Any]:
    """``runs`` with ``entry`` as the latest run under ``key`` (at most :data:`MAX_RUNS` kept)."""
    out = {k: v for k, v in runs.items() if k != key}
    out[key] = entry
    return dict(list(out.items())[-MAX_RUNS:])


def unchanged(runs: dict[str, Any], key: str) -> dict[str, Any] | None:
    """The recorded counts of run ``key`` when every file it read still has the same size and hash, else ``None``.

    Sizes are compared first, so a changed file usually costs no hashing.
    """
    entry = runs.get(key)
    if not entry:
        return None
    try:
        for path, seen in entry["files"].items():
            if Path(path).stat().st_size != seen["size"] or content_hash(path) != seen["sha256"]:
                return None
    except (OSError, KeyError, TypeError):
        return None  # the full path reports what is wrong with the file
    return entry.get("report")


def path_of(store_dir: Path | str) -> Path:
    """Where the ingest manifest of the embedded store in ``store_dir`` lives."""
    return Path(store_dir) / FILE


def load(store_dir: Path | str) -> dict[str, Any] | None:
    """The saved manifest: ``{"format", "revision", "info", "counts", "runs"}``, or ``None`` when there is none
    or it does not parse or has fields of the wrong type (then the full path runs). Reads only."""
    try:
        data = json.loads(path_of(store_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    counts = data.get("counts")
    ok = (
        isinstance(data.get("revision"), str)
        and isinstance(data.get("runs"), dict)
        and isinstance(data.get("info"), (dict, type(None)))
        and isinstance(counts, list)
        and len(counts) == 2
        and all(isinstance(c, int) for c in counts)
    )
    return data if ok else None


def save(
    store_dir: Path | str,
    revision: str,
    info: dict[str, Any] | None,
    counts: tuple[int, int],
    runs: dict[str, Any],
) -> None:
    """Write the manifest of ``revision`` atomically (a temporary file, then a rename; the writer calls this
    under the write lock). ``info``: the store's StoreInfo as metadata; ``counts``: (papers, chunks).
    Raises ``OSError`` when it cannot be written (the caller reports it)."""
    path = path_of(store_dir)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    data = {
        "format": FORMAT,
        "revision": revision,
        "info": info,
        "counts": [int(c) for c in counts],
        "runs": dict(list(runs.items())[-MAX_RUNS:]),
    }
    try:
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
