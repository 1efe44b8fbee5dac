"""The chat turn log: one SQLite row per answered turn, in ``<store>/history.sqlite3``.

Each row holds the conversation id, the time, the question, the rewritten
query and how a follow-up was resolved (JSON), the retrieved papers (``[{paper_id, chunk_id, score}]`` as JSON), the
answer, its citations (the Sources list of the ``ask --json`` contract as
JSON), the mode (``extractive`` / ``llm``), the model (``None`` offline), the
timings (JSON), whether the answer abstained, and whether it broke off
(``incomplete``: the stream ended early or hit the token limit). Only complete turns are
written (a cancelled answer never reaches the log). ``paperchat history``
lists and searches the rows; ``paperchat chat --continue`` reloads the last
conversation.

Several chat processes may share the file: SQLite locks it per write, and
each write is one short transaction.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import time
from pathlib import Path
from typing import Any

from paperchat.core.errors import PaperchatError

SCHEMA_VERSION = 3
_SCHEMA = """
CREATE TABLE IF NOT EXISTS turns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id TEXT NOT NULL,
    turn INTEGER NOT NULL,
    time REAL NOT NULL,
    kind TEXT NOT NULL DEFAULT 'question',
    question TEXT NOT NULL,
    query TEXT,
    resolution TEXT NOT NULL DEFAULT '{}',
    retrieved TEXT NOT NULL DEFAULT '[]',
    answer TEXT NOT NULL,
    sources TEXT NOT NULL DEFAULT '[]',
    abstained INTEGER NOT NULL DEFAULT 0,
    mode TEXT,
    model TEXT,
    timings TEXT NOT NULL DEFAULT '{}',
    sentences TEXT NOT NULL DEFAULT '[]',
    incomplete INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS turns_by_conversation ON turns (conversation_id, turn);
CREATE TABLE IF NOT EXISTS resets (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    time REAL NOT NULL,
    conversation_id TEXT NOT NULL
);
"""

HISTORY_FILE = "history.sqlite3"


def history_path(store_path: Path) -> Path:
    """Where the turn log of a store lives: ``<store>/history.sqlite3``."""
    return Path(store_path) / HISTORY_FILE


def new_conversation_id() -> str:
    """A new conversation id: ``c-YYYYmmdd-HHMMSS-xxxx`` (local time, 4 random hex digits)."""
    return time.strftime("c-%Y%m%d-%H%M%S-", time.localtime()) + secrets.token_hex(2)


class HistoryLog:
    """The SQLite turn log at ``path`` (created on first write; read-only use never creates it)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._conn: sqlite3.Connection | None = None

    def _connect(self, create: bool) -> sqlite3.Connection | None:
        if self._conn is not None:
            return self._conn
        if not create and not self.path.exists():
            return None
        if create:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(self.path), timeout=10.0)
        conn.row_factory = sqlite3.Row
        try:
            with conn:
                conn.executescript(_SCHEMA)
                columns = {row[1] for row in conn.execute("PRAGMA table_info(turns)")}
                if (
                    "sentences" not in columns
                ):  # a log written before citation checks were kept (version 1)
                    conn.execute(
                        "ALTER TABLE turns ADD COLUMN sentences TEXT NOT NULL DEFAULT '[]'"
                    )
                if "incomplete" not in columns:  # before a broken-off answer was marked (version 2)
                    conn.execute(
                        "ALTER TABLE turns ADD COLUMN incomplete INTEGER NOT NULL DEFAULT 0"
                    )
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.OperationalError:
            conn.close()
            raise  # busy or read-only: the caller's error handling words it
        except sqlite3.DatabaseError as exc:  # not a database, or a damaged one: say which file
            conn.close()
            raise PaperchatError(
                f"the chat history {self.path} cannot be read ({exc}); move it aside to start a "
                "new one (`chat --no-history` skips it)"
            ) from None
        if create:
            try:
                os.chmod(self.path, 0o600)  # questions may be private
            except OSError:
                pass
        self._conn = conn
        return conn

    def close(self) -> None:
        """Close the connection (a later call opens it again)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    # -- writing ----------------------------------------------------------
    def log_turn(self, conversation_id: str, turn: int, record: dict[str, Any]) -> int:
        """Append one turn; returns its row id.

        ``record`` keys: ``question``, ``query``, ``resolution`` (how a
        follow-up was resolved), ``retrieved``, ``answer``, ``sources``,
        ``sentences`` (the citation checks), ``abstained``, ``incomplete``, ``mode``, ``model``, ``timings``, ``kind``
        (``question`` or ``summarize``), ``time`` (epoch seconds, default now).
        """
        conn = self._connect(create=True)
        assert conn is not None
        with conn:
            cur = conn.execute(
                "INSERT INTO turns (conversation_id, turn, time, kind, question, query, resolution, retrieved, answer,"
                " sources, abstained, mode, model, timings, sentences, incomplete)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    conversation_id,
                    int(turn),
                    float(record.get("time") or time.time()),
                    record.get("kind") or "question",
                    record["question"],
                    record.get("query"),
                    json.dumps(record.get("resolution") or {}, ensure_ascii=False),
                    json.dumps(record.get("retrieved") or [], ensure_ascii=False),
                    record.get("answer") or "",
                    json.dumps(record.get("sources") or [], ensure_ascii=False),
                    1 if record.get("abstained") else 0,
                    record.get("mode"),
                    record.get("model"),
                    json.dumps(record.get("timings") or {}, ensure_ascii=False),
                    json.dumps(record.get("sentences") or [], ensure_ascii=False),
                    1 if record.get("incomplete") else 0,
                ),
            )
        return int(cur.lastrowid or 0)

    def log_reset(self, conversation_id: str) -> None:
        """Note that chat's ``/reset`` began ``conversation_id``, so ``--continue`` does not bring back the one
        it forgot (until the new one has a turn, the last conversation is the empty new one)."""
        conn = self._connect(create=True)
        assert conn is not None
        with conn:
            conn.execute(
                "INSERT INTO resets (time, conversation_id) VALUES (?, ?)",
                (time.time(), conversation_id),
            )

    # -- reading ----------------------------------------------------------
    @staticmethod
    def _row(row: sqlite3.Row) -> dict[str, Any]:
        out = dict(row)
        for key in ("retrieved", "sources", "timings", "resolution", "sentences"):
            empty: Any = [] if key in ("retrieved", "sources", "sentences") else {}
            try:
                out[key] = json.loads(out[key]) if out[key] else empty
            except ValueError:
                out[key] = empty
        out["abstained"] = bool(out["abstained"])
        out["incomplete"] = bool(out.get("incomplete"))
        out["time_iso"] = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(out["time"]))
        return out

    def last_conversation_id(self) -> str | None:
        """The id of the conversation with the most recent turn or ``/reset`` (``None`` when the log is empty;
        a conversation begun by a reset may have no turns)."""
        conn = self._connect(create=False)
        if conn is None:
            return None
        rows = [
            conn.execute(
                f"SELECT time, conversation_id FROM {table} ORDER BY id DESC LIMIT 1"
            ).fetchone()
            for table in ("turns", "resets")
        ]
        return max((tuple(r) for r in rows if r), default=(0.0, None))[1]

    def conversation(self, conversation_id: str, limit: int | None = None) -> list[dict[str, Any]]:
        """The turns of one conversation, oldest first (the last ``limit`` when given)."""
        conn = self._connect(create=False)
        if conn is None:
            return []
        sql = "SELECT * FROM turns WHERE conversation_id = ? ORDER BY id DESC"
        params: list[Any] = [conversation_id]
        if limit:
            sql += " LIMIT ?"
            params.append(int(limit))
        return [self._row(r) for r in reversed(conn.execute(sql, params).fetchall())]

    def count(self, conversation_id: str) -> int:
        """How many turns a conversation has."""
        conn = self._connect(create=False)
        if conn is None:
            return 0
        return int(
            conn.execute(
                "SELECT COUNT(*) FROM turns WHERE conversation_id = ?", (conversation_id,)
            ).fetchone()[0]
        )

    def search(
        self, text: str | None = None, limit: int = 20, conversation_id: str | None = None
    ) -> list[dict[str, Any]]:
        """The last ``limit`` turns (oldest first) whose question, rewritten query or answer contains ``text``.

        Matching is case-insensitive for ASCII letters (SQLite ``LIKE``);
        ``%`` and ``_`` in ``text`` match themselves.
        """
        conn = self._connect(create=False)
        if conn is None:
            return []
        where, params = [], []
        if text:
            pattern = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            where.append(
                "(question LIKE ? ESCAPE '\\' OR query LIKE ? ESCAPE '\\' OR answer LIKE ? ESCAPE '\\')"
            )
            params += [pattern] * 3
        if conversation_id:
            where.append("conversation_id = ?")
            params.append(conversation_id)
        sql = (
            "SELECT * FROM turns"
            + (" WHERE " + " AND ".join(where) if where else "")
            + " ORDER BY id DESC LIMIT ?"
        )
        params.append(int(limit))
        return [self._row(r) for r in reversed(conn.execute(sql, params).fetchall())]
