"""Reading an embedded store's vector index files before Chroma loads them: truncation is found, not crashed on.

Chroma keeps each collection's HNSW index (hnswlib's format) in a folder
named after its vector segment: ``header.bin`` (a version, then hnswlib's
header: level-0 offset, maximum and current element count, bytes per
element, ...), ``data_level0.bin`` (``count * bytes per element``) and
``length.bin`` (4 bytes per element). A file cut short (a full disk, a
copy interrupted) made Chroma answer with "Error finding id" or, on a write,
crash the process; :func:`index_damage` compares the files' sizes with the
header so paperchat can say what is wrong in one line instead. The live
segments are read from Chroma's own ``chroma.sqlite3`` (read-only).
"""

from __future__ import annotations

import sqlite3
import struct
from pathlib import Path


def _live_vector_segments(db: Path) -> list[str]:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5.0) as conn:
            return [row[0] for row in conn.execute("SELECT id FROM segments WHERE scope = 'VECTOR'")]
    except sqlite3.Error:
        return []  # an older or newer Chroma layout: Chroma itself reports what it cannot read


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
