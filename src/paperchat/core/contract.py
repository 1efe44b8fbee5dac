"""The answer contract: what ``ask``, ``summarize`` and ``chat`` return, as typed dataclasses.

``Answer.to_json()`` is the ``ask --json`` contract, and the only place its
keys and their order are written::

    {
      "question": str,
      "answer": str,                 # every claim with [n] markers
      "mode": "extractive" | "llm",
      "abstained": bool,             # true: answer is ABSTENTION, sources empty
      "sources": [{"n", "paper_id", "title", "label", "url",
                   "origin": {"path", "index"}, "chunk_id", "text"}],
      "retrieved": [{"paper_id", "chunk_id", "score"}],     # rank order
      # LLM answers add:
      "sentences": [{"text", "citations", "supported", "score", "missing"}],
      "invalid_citations": [int],    # numbers outside 1..N, removed from the answer
      "incomplete": bool,            # the stream broke off (or hit the token limit)
      "notes": [str],                # one-line remarks (also on offline answers, when there are any)
      "sources_sent": int,           # sources that fitted the context window
      "model": str
    }

A question that asks how many papers ("How many papers are about LLMs?", "How many papers did
Sergey Levine write?") adds ``count``: the number of stored papers counted, which the answer's
first line states.

A *source* is one cited paper; ``n`` is its number in the Sources list
(1-based, in order of first use in the answer). ``origin.path`` is the
corpus file's name and ``origin.index`` the paper's 1-based position in it.
Summaries add ``target`` (first). The abstention sentence is the constant
:data:`ABSTENTION` (as paper-qa's fixed cannot-answer answer), so evals and
scripts can detect it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

#: The fixed abstention sentence.
ABSTENTION = "The indexed abstracts do not contain an answer to this question."

EXTRACTIVE = "extractive"
LLM = "llm"


def one_line(text: str) -> str:
    """``text`` on one line: runs of white space (newlines too) become one space."""
    return " ".join((text or "").split())


def display_name(title: str, label: str, paper_id: str) -> str:
    """A paper's readable name, on one line: its title, else its label, else its id."""
    return one_line(title) or one_line(label) or paper_id


class PaperLike(Protocol):
    """What a source is made from (a :class:`paperchat.ingest.records.PaperRecord`)."""

    paper_id: str
    title: str
    label: str
    url: str
    source_path: str
    source_index: int


@dataclass(frozen=True)
class Source:
    """One cited paper: its number, identity, origin and the chunk text the citation points to."""

    n: int
    paper_id: str
    title: str
    label: str
    url: str
    path: str
    index: int
    chunk_id: str
    text: str

    @property
    def name(self) -> str:
        """The title, else the label, else the paper id."""
        return display_name(self.title, self.label, self.paper_id)

    @classmethod
    def from_record(cls, n: int, record: PaperLike, chunk_id: str, text: str) -> Source:
        """Source ``n`` for a stored paper and the chunk it cites."""
        return cls(
            n,
            record.paper_id,
            record.title or "",
            record.label or record.title or record.paper_id,
            record.url or "",
            record.source_path or "",
            int(record.source_index or 0),
            chunk_id,
            text,
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Source:
        """The inverse of :meth:`to_json` (turns read back from the chat log)."""
        origin = data.get("origin") or {}
        return cls(
            int(data["n"]),
            data["paper_id"],
            data.get("title") or "",
            data.get("label") or "",
            data.get("url") or "",
            origin.get("path", ""),
            int(origin.get("index", 0) or 0),
            data.get("chunk_id") or "",
            data.get("text") or "",
        )

    @property
    def evidence(self) -> str:
        """What a claim citing this source is checked against: the title (when known), then the cited text."""
        return (
            f"{self.title}\n{self.text}"
            if self.title and self.title not in self.text
            else self.text
        )

    def line(self) -> str:
        """The source as one line: ``[n] Title or label — paper id — file #position  url`` (a title's newlines
        become spaces)."""
        where = one_line(f"{self.path} #{self.index}") if self.path else ""
        line = " — ".join(
            p
            for p in (
                f"[{self.n}] {one_line(self.title) or one_line(self.label)}",
                self.paper_id,
                where,
            )
            if p
        )
        return f"{line}  {one_line(self.url)}" if self.url else line

    def renumbered(self, n: int) -> Source:
        """The same source under another number."""
        return Source(
            n,
            self.paper_id,
            self.title,
            self.label,
            self.url,
            self.path,
            self.index,
            self.chunk_id,
            self.text,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "paper_id": self.paper_id,
            "title": self.title,
            "label": self.label,
            "url": self.url,
            "origin": {"path": self.path, "index": self.index},
            "chunk_id": self.chunk_id,
            "text": self.text,
        }


@dataclass(frozen=True)
class Retrieved:
    """One entry of the retrieval ranking: paper, its best chunk, the fused score."""

    paper_id: str
    chunk_id: str
    score: float

    def to_json(self) -> dict[str, Any]:
        return {
            "paper_id": self.paper_id,
            "chunk_id": self.chunk_id,
            "score": round(float(self.score), 6),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Retrieved:
        return cls(data["paper_id"], data.get("chunk_id") or "", float(data.get("score") or 0.0))


@dataclass
class SentenceCheck:
    """One answer sentence checked against the sources it cites.

    ``score`` is the support score in [0, 1]; ``missing`` the numbers and
    names the cited text lacks; ``conflict`` the cue that the cited text
    contradicts the sentence or that it overreaches (:mod:`paperchat.cite.cues`).
    """

    text: str
    citations: list[int]
    supported: bool
    score: float
    missing: list[str] = field(default_factory=list)
    conflict: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "citations": list(self.citations),
            "supported": self.supported,
            "score": self.score,
            "missing": list(self.missing),
            "conflict": self.conflict,
        }


#: the notes that say why an answer is incomplete, and how the check marks say it
_CUT_SHORT = (
    ("token limit", "it was cut at the token limit"),
    ("content filter", "the server's content filter stopped it"),
)


@dataclass
class Answer:
    """An answer (or summary) with its citations; see the module docstring for its JSON form."""

    question: str
    answer: str
    mode: str
    abstained: bool = False
    sources: list[Source] = field(default_factory=list)
    retrieved: list[Retrieved] = field(default_factory=list)
    sentences: list[SentenceCheck] = field(default_factory=list)
    invalid_citations: list[int] = field(default_factory=list)
    incomplete: bool = False
    notes: list[str] = field(default_factory=list)
    sources_sent: int = 0
    model: str | None = None
    target: str | None = None
    timings: dict[str, float | None] = field(default_factory=dict)
    evidence: float | None = None
    count: int | None = None  # papers counted, for "How many papers ...?"

    @classmethod
    def abstention(
        cls, question: str, mode: str, retrieved: list[Retrieved] | None = None, **extra: Any
    ) -> Answer:
        """The abstention: :data:`ABSTENTION`, no sources."""
        return cls(
            question, ABSTENTION, mode, abstained=True, retrieved=list(retrieved or []), **extra
        )

    def check_marks(self) -> list[str]:
        """One ⚠ line per sentence the citation check did not support (and one when the stream broke off)."""
        lines = []
        for i, sent in enumerate(self.sentences, 1):
            if sent.supported:
                continue
            cites = ", ".join(f"[{n}]" for n in sent.citations) or "no citation"
            why = (
                "; not in the cited source: " + ", ".join(map(str, sent.missing))
                if sent.missing
                else ""
            )
            why += f"; {sent.conflict}" if sent.conflict else ""
            text = sent.text if len(sent.text) <= 90 else sent.text[:89] + "…"
            lines.append(f"⚠ sentence {i} ({cites}, support {sent.score:.2f}{why}): {text}")
        if self.incomplete:
            # why, as the notes say it: the token limit, the content filter, or a broken stream
            why = next(
                (w for cue, w in _CUT_SHORT for n in self.notes if cue in n), "the stream broke off"
            )
            lines.append(f"⚠ the answer is incomplete: {why}")
        return lines

    def source(self, n: int) -> Source | None:
        """Source ``n`` (1-based), or ``None``."""
        return self.sources[n - 1] if 1 <= n <= len(self.sources) else None

    def to_json(self, timings: bool = False) -> dict[str, Any]:
        """The ``ask --json`` contract (``timings`` adds the per-phase seconds)."""
        out: dict[str, Any] = {}
        if self.target is not None:
            out["target"] = self.target
        out.update(
            {
                "question": self.question,
                "answer": self.answer,
                "mode": self.mode,
                "abstained": self.abstained,
                "sources": [s.to_json() for s in self.sources],
                "retrieved": [r.to_json() for r in self.retrieved],
            }
        )
        if self.mode == LLM:
            out.update(
                {
                    "sentences": [s.to_json() for s in self.sentences],
                    "invalid_citations": list(self.invalid_citations),
                    "incomplete": self.incomplete,
                    "notes": list(self.notes),
                    "sources_sent": self.sources_sent,
                    "model": self.model,
                }
            )
        elif self.notes:
            out["notes"] = list(self.notes)
        if self.count is not None:
            out["count"] = self.count
        if self.mode != LLM and self.evidence is not None:
            out["evidence"] = round(float(self.evidence), 4)
        if timings:
            out["timings"] = dict(self.timings)
        return out
