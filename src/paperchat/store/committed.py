"""The committed revision of an embedded store, read from Chroma's own database without importing Chroma.

``import chromadb`` takes 0.6-0.9 s on 2 cores, more than an unchanged
re-ingest should take in all. The store's revision lives in the metadata of
the ``paperchat_meta`` collection (:mod:`paperchat.store.chroma`), which
Chroma 1.5 keeps in two tables of ``<store>/chroma/chroma.sqlite3``::

    collections(id, name, database_id, ...)
    collection_metadata(collection_id, key, str_value, int_value, float_value, bool_value)

:func:`committed_revision` reads them with the standard library's ``sqlite3``,
read-only (a ``file:...?mode=ro`` URI: nothing is created, locked for
writing or migrated). Any surprise (no database, a missing table or column,
two ``paperchat_meta`` collections, a locked or damaged file) gives
``None``, and the caller takes the path that opens Chroma.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

META = "paperchat_meta"  # as paperchat.store.chroma.META (not imported: that module is larger than this one's need)

_QUERY = """
SELECT m.key, m.str_value, m.int_value
FROM collections AS c JOIN collection_metadata AS m ON m.collection_id = c.id
WHERE c.name = ? AND m.key IN ('revision', 'current', 'pending')
"""


def committed_revision(store_dir: Path | str) -> str | None:
    """The revision Chroma has committed for the embedded store in ``store_dir``, as
    :meth:`paperchat.store.chroma.ChromaStore.revision` returns it (``"empty"`` for a store with no
    generation), or ``None`` when it cannot be read plainly (then open Chroma instead).

    Reads ``<store_dir>/chroma/chroma.sqlite3`` read-only with ``sqlite3``; never writes, never raises.
    """
    db = Path(store_dir).expanduser() / "chroma" / "chroma.sqlite3"
    if not db.is_file():
        return None
    uri = f"file:{quote(str(db.resolve()))}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=0.5)
    except sqlite3.Error:
        return None
    try:
        names = conn.execute("SELECT COUNT(*) FROM collections WHERE name = ?", (META,)).fetchone()[
            0
        ]
        if names != 1:
            return (
                None  # no store yet, or several databases in one Chroma folder: not ours to guess
            )
        rows = conn.execute(_QUERY, (META,)).fetchall()
    except (sqlite3.Error, TypeError, IndexError):
        return None
    finally:
        conn.close()
    meta = {key: (text if text is not None else number) for key, text, number in rows}
    try:
        current = int(meta.get("current") or 0) or int(meta.get("pending") or 0)
    except (TypeError, ValueError):
        return None
    if not current:
        return "empty"
    revision = meta.get("revision")
    return str(revision) if revision is not None else None


def store_identity(store_dir: Path | str) -> tuple[int, int, str] | None:
    """What tells this embedded store from another one at the same path: ``(device, inode)`` of its Chroma
    database and the id Chroma gave its ``paperchat_meta`` collection when the store was made. A store
    deleted and ingested again gets a new collection id (its file may get the old inode back), one restored
    from a backup a new inode (with the old id). ``None`` when there is no store there to read; never raises.
    """
    db = Path(store_dir).expanduser() / "chroma" / "chroma.sqlite3"
    try:
        found = db.stat()
        conn = sqlite3.connect(f"file:{quote(str(db.resolve()))}?mode=ro", uri=True, timeout=0.5)
    except (OSError, sqlite3.Error):
        return None
    try:
        rows = conn.execute("SELECT id FROM collections WHERE name = ?", (META,)).fetchall()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    return (found.st_dev, found.st_ino, str(rows[0][0])) if len(rows) == 1 else None
