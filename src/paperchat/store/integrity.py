"""An embedded store's files, read before Chroma loads them: its database, truncated index files, leftovers.

Chroma keeps each collection's HNSW index (hnswlib's format) in a folder
named after its vector segment: ``header.bin`` (a version, then hnswlib's
header: level-0 offset, maximum and current element count, bytes per
element, ...), ``data_level0.bin`` (``count * bytes per element``) and
``length.bin`` (4 bytes per element). A file cut short (a full disk, a
copy interrupted) made Chroma answer with "Error finding id" or, on a write,
crash the process; :func:`index_damage` compares the files' sizes with the
header so paperchat can say what is wrong in one line instead. The live
segments are read from Chroma's own ``chroma.sqlite3`` (read-only).

:func:`database_damage` finds a ``chroma.sqlite3`` that is missing, empty
(0 bytes: Chroma would take it for a new, empty store) or not a SQLite
database. :func:`leftover_folders` lists index folders of collections that
were dropped (Chroma leaves them on disk), which :func:`remove_leftovers`
deletes.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import struct
from pathlib import Path

SQLITE_HEADER = b"SQLite format 3\x00"
#: how :func:`database_damage` words a database this user may not read (a matter of permissions, not damage)
DENIED = "cannot be read by this user (permission denied)"
_SEGMENT_DIR = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _segments(db: Path, vector_only: bool = True) -> list[str]:
    """Ids of the segments Chroma's database lists (raises ``sqlite3.Error`` when it cannot be read)."""
    query = "SELECT id FROM segments" + (" WHERE scope = 'VECTOR'" if vector_only else "")
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5.0)
    try:
        return [row[0] for row in conn.execute(query)]
    finally:
        conn.close()


def _live_vector_segments(db: Path) -> list[str]:
    try:
        return _segments(db)
    except sqlite3.Error:
        return []  # an older or newer Chroma layout: Chroma itself reports what it cannot read


def database_damage(chroma_dir: Path) -> str | None:
    """What is wrong with ``chroma_dir/chroma.sqlite3`` (missing, cannot be read, empty, not SQLite), or ``None``."""
    db = chroma_dir / "chroma.sqlite3"
    try:
        with open(db, "rb") as fh:
            head = fh.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return f"{db} is missing"
    except PermissionError:
        return f"{db} {DENIED}"
    except OSError as exc:
        return f"{db} cannot be read ({exc.strerror or type(exc).__name__})"
    if not head:
        return f"{db} is empty (0 bytes)"
    if head != SQLITE_HEADER:
        return f"{db} is not a SQLite database"
    return None


def leftover_folders(chroma_dir: Path) -> list[Path]:
    """Index folders in ``chroma_dir`` that belong to no segment Chroma lists (collections dropped since).

    Empty when the database cannot be read: nothing is called a leftover on a guess.
    """
    if not chroma_dir.is_dir():
        return []
    try:
        live = set(_segments(chroma_dir / "chroma.sqlite3", vector_only=False))
    except sqlite3.Error:
        return []
    if not live:
        return []
    return sorted(
        p
        for p in chroma_dir.iterdir()
        if p.is_dir() and _SEGMENT_DIR.fullmatch(p.name) and p.name not in live
    )


def folder_bytes(folder: Path) -> int:
    """The bytes the files under ``folder`` take."""
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def remove_leftovers(chroma_dir: Path) -> int:
    """Delete :func:`leftover_folders`; returns how many were removed (call with the write lock held)."""
    removed = 0
    for folder in leftover_folders(chroma_dir):
        shutil.rmtree(folder, ignore_errors=True)
        removed += not folder.exists()
    return removed


def index_damage(chroma_dir: Path) -> list[str]:
    """One line per damaged index file of the live collections in ``chroma_dir`` (empty when all are whole)."""
    problems = []
    for segment in _live_vector_segments(chroma_dir / "chroma.sqlite3"):
        folder = chroma_dir / segment
        header = folder / "header.bin"
        if not header.is_file():
            continue  # not flushed yet: the vectors are still in Chroma's log
        raw = header.read_bytes()
        if len(raw) < 52:
            problems.append(f"{header} is cut short ({len(raw)} bytes)")
            continue
        _offset, _max_elements, count, per_element = struct.unpack("<QQQQ", raw[4:36])
        for name, expected in (("data_level0.bin", count * per_element), ("length.bin", count * 4)):
            path = folder / name
            size = path.stat().st_size if path.exists() else 0
            if size < expected:
                problems.append(f"{path} is cut short ({size} of {expected} bytes)")
    return problems
