"""What a chat session produces: the :class:`Reply` to one line, and the :class:`Turn` it remembers."""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from paperchat.core.contract import Answer, Retrieved, SentenceCheck, Source
from paperchat.core.resolution import STANDALONE, Resolution
from paperchat.ingest.records import PaperRecord


@dataclass
class Reply:
    """What one line of input produced, for the CLI to render.

    ``answer``: a question's (or ``/summarize``'s) answer; ``streamed``: its
    text already went to ``on_token``; ``text``: a command's output (or why
    a question was not answered); ``sources`` / ``papers``: lists to show
    (``/sources``, ``/papers``); ``stderr``: lines for the error stream
    (notes, warnings); ``done``: the session should end.
    """

    answer: Answer | None = None
    streamed: bool = False
    text: str = ""
    sources: list[Source] | None = None
    papers: list[PaperRecord] | None = None
    stderr: list[str] = field(default_factory=list)
    done: bool = False


@dataclass
class Turn:
    """One answered turn: the question, how it was read, the answer, the retrieved papers (for /why) and timings."""

    n: int
    question: str
    resolution: Resolution
    answer: Answer
    hits: list[dict[str, Any]] = field(default_factory=list)
    timings: dict[str, Any] = field(default_factory=dict)
    kind: str = "question"
    time: float = field(default_factory=time.time)
    context: list[Source] = field(default_factory=list)

    @property
    def sources(self) -> list[Source]:
        """The cited sources of the answer."""
        return self.answer.sources

    def log_record(self) -> dict[str, Any]:
        """The row written to the turn log."""
        r = self.resolution
        return {
            "time": self.time,
            "kind": self.kind,
            "question": self.question,
            "query": r.query,
            "resolution": {
                "kind": r.kind,
                "targets": r.target_ids,
                "labels": r.target_labels,
                "cue": r.cue,
                "note": r.note,
            },
            "retrieved": self.hits,
            "answer": self.answer.answer,
            "sources": [s.to_json() for s in self.sources],
            "sentences": [c.to_json() for c in self.answer.sentences],
            "abstained": self.answer.abstained,
            "incomplete": self.answer.incomplete,
            "mode": self.answer.mode,
            "model": self.answer.model,
            "timings": self.timings,
        }

    @classmethod
    def from_log(cls, row: dict[str, Any]) -> Turn:
        """A turn rebuilt from a turn-log row (``chat --continue``)."""
        info = row.get("resolution") or {}
        res = Resolution(
            row["question"],
            row.get("query") or row["question"],
            kind=info.get("kind") or STANDALONE,
            target_ids=list(info.get("targets") or []),
            target_labels=list(info.get("labels") or []),
            cue=info.get("cue"),
            note=info.get("note") or "",
        )
        sources = [Source.from_json(s) for s in row["sources"]]
        answer = Answer(
            row["question"],
            row["answer"],
            row.get("mode") or "extractive",
            bool(row["abstained"]),
            sources=sources,
            retrieved=[Retrieved.from_json(h) for h in row["retrieved"]],
            model=row.get("model"),
            sentences=[SentenceCheck(**c) for c in row.get("sentences") or []],
        )
        return cls(
            int(row["turn"]),
            row["question"],
            res,
            answer,
            list(row["retrieved"]),
            dict(row.get("timings") or {}),
            row.get("kind") or "question",
            float(row["time"]),
            sources,
        )


@contextlib.contextmanager
def interrupts_deferred():
    """Hold Ctrl-C (SIGINT) back while a turn is committed, so memory and log never disagree."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        previous = signal.signal(signal.SIGINT, lambda *_: None)
    except (ValueError, OSError):
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
