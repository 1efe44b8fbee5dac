"""Terminal rendering of answers, sources, citation checks and paper lists (plain text, no ML imports)."""

from __future__ import annotations

import textwrap

from paperchat.core.contract import Answer, Source
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
    lines = []
    for i, sent in enumerate(answer.sentences, 1):
        if sent.supported:
            continue
        cites = ", ".join(f"[{n}]" for n in sent.citations) or "no citation"
        why = "; not in the cited source: " + ", ".join(str(m) for m in sent.missing) if sent.missing else ""
        text = sent.text if len(sent.text) <= 90 else sent.text[:89] + "…"
        lines.append(f"  ⚠ sentence {i} ({cites}, support {sent.score:.2f}{why}): {text}")
    if answer.incomplete:
        lines.append("  ⚠ the answer is incomplete: the stream broke off")
    return ("Citation checks:\n" + "\n".join(lines)) if lines else ""


def render_answer(answer: Answer, width: int = 88, streamed: bool = False) -> str:
    """An answer as terminal text: the answer (unless it was streamed already), its citation checks, its Sources."""
    blocks = [] if streamed else [wrap(answer.answer, width)]
    for block in (render_checks(answer), render_sources(answer.sources)):
        if block:
            blocks.append(block)
    if streamed:
        return "\n".join(("\n" + b) if b.startswith("Sources") else b for b in blocks)
    return "\n\n".join(blocks)


def render_papers(papers: list[PaperRecord]) -> str:
    """A table of stored papers: id, label or title, chunk count, origin."""
    if not papers:
        return "(no papers stored)"
    header = ("id", "label / title", "chunks", "origin")
    rows = []
    for p in papers:
        name = p.title or p.label
        if len(name) > 60:
            name = name[:59] + "…"
        rows.append((p.paper_id, name, str(len(p.chunk_ids)), f"{p.source_path} #{p.source_index}"))
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(4)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    lines.append(f"{len(papers)} papers, {sum(len(p.chunk_ids) for p in papers)} chunks")
    return "\n".join(lines)
