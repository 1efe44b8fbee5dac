"""The ingest manifest: what each ingest read, by content hash, so repeating an unchanged one is a no-op.

After each ingest the store's snapshot (:mod:`paperchat.store.snapshot`)
records the run: the files it read (absolute path, SHA-256, size), the
options it read them with (the metadata file's hash, the encoding, what to
do on a malformed line) and its counts. ``paperchat ingest FILES`` repeating
a recorded run on files whose sizes and hashes match, into a store whose
snapshot is current and was built with the same settings, reports the run as
unchanged without parsing the files or opening Chroma. Anything else (a
changed byte, another option or file list, ``--rebuild``, a stale snapshot)
takes the full path, which re-reads and diffs every record. A run that
changes the store forgets every other recorded run (it may have removed
papers they added), so only runs since the last change are trusted.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

#: runs kept in the manifest (the most recent ones)
MAX_RUNS = 32
#: bumped when paper records gain fields a re-read of unchanged files fills in (2: venue and year), so runs
#: recorded before are read again once
RECORD_FIELDS = 2


def file_key(path: Path | str) -> str:
    """How paperchat identifies a file (in the manifest and in paper records): its absolute, resolved path."""
    return str(Path(path).expanduser().resolve())


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
    return (f"{files};metadata={meta};encoding={(encoding or 'utf-8').lower()};on_error={on_error}"
            f";fields={RECORD_FIELDS}")


def repeat_command(paths: list[Path], metadata: Path | None, encoding: str | None, on_error: str,
                   bundled: bool = False) -> str:
    """The ``paperchat ingest`` command that repeats an ingest (``bundled``: of the bundled corpus, the default)."""
    import shlex

    if bundled:
        return "paperchat ingest"
    words = ["paperchat", "ingest", *(str(p) for p in paths)]
    words += ["--metadata", str(metadata)] if metadata is not None else []
    words += ["--encoding", encoding] if encoding else []
    words += ["--on-error", on_error] if on_error != "stop" else []
    return shlex.join(words)


def record(paths: list[Path], metadata: Path | None, report: dict[str, Any]) -> dict[str, Any]:
    """The manifest entry of one ingest: the files' and metadata file's sizes and hashes, and ``report`` (its counts)."""
    files = list(paths) + ([metadata] if metadata is not None else [])
    return {"files": {file_key(p): {"sha256": content_hash(p), "size": Path(p).stat().st_size} for p in files},
            "report": report}


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

