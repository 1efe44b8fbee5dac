"""Terminal rendering of answers, sources, citation checks and paper lists (plain text, no ML imports)."""

from __future__ import annotations

import textwrap
import unicodedata

from paperchat.core.contract import Answer, Source
from paperchat.core.display import plain_emphasis
from paperchat.ingest.records import PaperRecord

NO_LLM_NOTE = (
    "note: no LLM configured; answered extractively by quoting the abstracts. "
    "Set OPENAI_API_KEY (or --base-url for a local OpenAI-compatible server) to get written answers."
)


def wrap(text: str, width: int = 88) -> str:
    """``text`` wrapped at ``width`` columns, paragraph by paragraph."""
    return "\n".join(textwrap.fill(p, width=width) for p in text.split("\n"))


def render_sources(sources: list[Source]) -> str:
    """The numbered Sources block (empty string when there are none)."""
    if not sources:
        return ""
    return "Sources:\n" + "\n".join("  " + s.line() for s in sources)


def render_checks(answer: Answer) -> str:
    """The citation-check marks of an LLM answer: one ⚠ line per unsupported sentence (empty if none)."""
    lines = answer.check_marks()
    return ("Citation checks:\n" + "\n".join("  " + line for line in lines)) if lines else ""


def render_answer(answer: Answer, width: int = 88, streamed: bool = False) -> str:
    """An answer as terminal text: the answer (unless it was streamed already), its citation checks, its Sources."""
    blocks = [] if streamed else [wrap(plain_emphasis(answer.answer), width)]
    for block in (render_checks(answer), render_sources(answer.sources)):
        if block:
            blocks.append(block)
    if streamed:
        return "\n".join(
            ("\n" + b) if b.startswith(("Sources", "Citation checks")) else b for b in blocks
        )
    return "\n\n".join(blocks)


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes: wide (CJK) and full-width characters and emoji count 2, combining marks 0."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def _fit(text: str, columns: int) -> str:
    """``text`` on one line, cut with "…" to at most ``columns`` columns."""
    text = " ".join(text.split())
    if display_width(text) <= columns:
        return text
    out = ""
    for ch in text:
        if display_width(out + ch) > columns - 1:
            break
        out += ch
    return out + "…"


def render_papers(papers: list[PaperRecord]) -> str:
    """A table of stored papers: id, label or title, chunk count, origin (columns aligned by display width),
    then the files they came from by resolved path.

    The origin is ``file name #position``; the file's path instead when two stored files share a name.
    """
    if not papers:
        return "(no papers stored)"
    paths_of: dict[str, set[str]] = {}
    for p in papers:
        paths_of.setdefault(p.source_path, set()).add(p.source_file)
    header = ("id", "label / title", "chunks", "origin")
    rows = [
        (
            # a very long id would pad every row (`papers --json` has it whole)
            _fit(p.paper_id, 40),
            _fit(p.title or p.label, 60),
            str(len(p.chunk_ids)),
            f"{p.source_file if len(paths_of[p.source_path]) > 1 and p.source_file else p.source_path}{f' #{p.source_index}' if p.source_index else ''}",
        )
        for p in papers
    ]
    widths = [max(display_width(r[i]) for r in rows + [header]) for i in range(4)]

    def line(cells) -> str:
        return "  ".join(c + " " * (w - display_width(c)) for c, w in zip(cells, widths)).rstrip()

    n_chunks = sum(len(p.chunk_ids) for p in papers)
    per_file: dict[str, int] = {}
    for p in papers:
        key = (
            p.source_file or f"{p.source_path} (path not recorded: stored by an earlier paperchat)"
        )
        per_file[key] = per_file.get(key, 0) + 1
    files = [f"  {path}: {n} paper{'s' if n != 1 else ''}" for path, n in per_file.items()]
    return "\n".join(
        [
            line(header),
            *(line(r) for r in rows),
            f"{len(papers)} paper{'s' if len(papers) != 1 else ''}, {n_chunks} chunk{'s' if n_chunks != 1 else ''}"
            f" from {len(per_file)} file{'s' if len(per_file) != 1 else ''}:",
            *files,
        ]
    )
