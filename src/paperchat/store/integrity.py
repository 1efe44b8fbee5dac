"""An embedded store's files, read before Chroma loads them: its database, truncated index files, leftovers.

Chroma keeps each collection's HNSW index (hnswlib's format) in a folder
named after its vector segment: ``header.bin`` (a version, then hnswlib's
header: level-0 offset, maximum and current element count, bytes per
element, ...), ``data_level0.bin`` (``count * bytes per element``) and
``length.bin`` (4 bytes per element). A file cut short (a full disk, a
copy interrupted) made Chroma answer with "Error finding id" or, on a write,
crash the process; :func:`index_damage` compares the files' sizes with the
header so paperchat can say what is wrong in one line instead. The live
segments are read from Chroma's own ``chroma.sqlite3`` (read-only). The
segments of a *pending* generation (a rebuild under way in another process,
:mod:`paperchat.store.writer`) are not checked: hnswlib rewrites ``header.bin``
in place each time it persists, so a reader could catch it empty while the
store it reads is whole; an interrupted rebuild's pending generation is
dropped by the next one.

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
import time
from pathlib import Path

SQLITE_HEADER = b"SQLite format 3\x00"
#: how :func:`database_damage` words a database this user may not read (a matter of permissions, not damage)
DENIED = "cannot be read by this user (permission denied)"
_SEGMENT_DIR = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _query(db: Path, *statements: tuple[str, tuple]) -> list[list[tuple]]:
    """The rows of each ``(sql, parameters)`` statement on Chroma's database, opened read-only once (raises
    ``sqlite3.Error`` when it cannot be read)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5.0)
    try:
        return [conn.execute(sql, params).fetchall() for sql, params in statements]
    finally:
        conn.close()


def _segments(db: Path) -> list[str]:
    """Ids of the segments Chroma's database lists (raises ``sqlite3.Error`` when it cannot be read)."""
    (rows,) = _query(db, ("SELECT id FROM segments", ()))
    return [row[0] for row in rows]


_PENDING = (
    "SELECT m.int_value FROM collection_metadata m JOIN collections c ON m.collection_id = c.id "
    "WHERE c.name = ? AND m.key = 'pending'"
)
_VECTOR_SEGMENTS = (
    "SELECT s.id, c.name FROM segments s JOIN collections c ON s.collection = c.id "
    "WHERE s.scope = 'VECTOR'"
)


def _checked_vector_segments(db: Path) -> list[str]:
    """Ids of the vector segments to check: every live one but a pending generation's (its collections'
    names are :func:`paperchat.store.chroma.collection_name`'s)."""
    from paperchat.store.chroma import META, collection_name

    try:
        pending, rows = _query(db, (_PENDING, (META,)), (_VECTOR_SEGMENTS, ()))
    except sqlite3.Error:
        return []  # an older or newer Chroma layout: Chroma itself reports what it cannot read
    skipped = tuple(collection_name(n, "") for (n,) in pending if n)  # "paperchat_g2_"
    return [segment for segment, name in rows if not (skipped and name.startswith(skipped))]


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
        live = set(_segments(chroma_dir / "chroma.sqlite3"))
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


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _folder_damage(folder: Path) -> list[str]:
    header = folder / "header.bin"
    try:
        raw = header.read_bytes()
    except OSError:
        return []  # not flushed yet (the vectors are still in Chroma's log), or dropped since
    if len(raw) < 52:
        return [f"{header} is cut short ({len(raw)} bytes)"]
    _offset, _max_elements, count, per_element = struct.unpack("<QQQQ", raw[4:36])
    problems = []
    for name, expected in (("data_level0.bin", count * per_element), ("length.bin", count * 4)):
        size = _size(folder / name)
        if size < expected:
            problems.append(f"{folder / name} is cut short ({size} of {expected} bytes)")
    return problems


def index_damage(chroma_dir: Path, settle_s: float = 0.6) -> list[str]:
    """One line per damaged index file of the current collections in ``chroma_dir`` (empty when all are whole).

    A file found short is read again for up to ``settle_s`` seconds before it is called damaged: a writer in
    another process (``ingest`` adding papers) may be persisting it at that moment. Damage on disk stays.
    """
    segments = _checked_vector_segments(chroma_dir / "chroma.sqlite3")
    deadline = time.monotonic() + settle_s
    while True:
        problems = [line for segment in segments for line in _folder_damage(chroma_dir / segment)]
        if not problems or time.monotonic() >= deadline:
            return problems
        time.sleep(0.1)
