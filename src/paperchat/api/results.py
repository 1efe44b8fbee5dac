"""What the Python API returns: answers that render as Markdown in Jupyter, search hits, and the JSON
form of a stored paper (``papers --json``)."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from paperchat.cite.markers import link_markers
from paperchat.core import contract
from paperchat.ingest.records import PaperRecord


class Answer(contract.Answer):
    """An answer (or summary) with its citations: :class:`paperchat.core.contract.Answer`, shown as Markdown in Jupyter.

    ``answer.answer`` is the text with ``[n]`` markers, ``answer.sources`` the
    cited papers (``Source``: ``n``, ``paper_id``, ``title``, ``url``, the cited
    ``text``), ``answer.abstained`` whether the abstracts hold no answer,
    ``answer.sentences`` the per-sentence citation checks of an LLM answer,
    and ``answer.to_json()`` the ``ask --json`` contract (README).
    """

    @classmethod
    def of(cls, answer: contract.Answer) -> Answer:
        """The same answer, as this class."""
        return cls(**{f.name: getattr(answer, f.name) for f in fields(contract.Answer)})

    def __str__(self) -> str:
        """The answer as ``paperchat ask`` prints it: its text, the Sources (``[n] title — id``) and the
        notes; ``print(answer)`` had printed every field, cited chunks and all (``repr`` still does). An LLM
        answer's unsupported sentences are flagged under "Citation checks:", as the command line flags them
        (a notebook session had printed an unsupported "It also cures cancer." unflagged)."""
        from paperchat.core.display import plain_emphasis

        # as the terminal shows it: "70%" for "70\%", and each source's origin and url (a notebook session)
        lines = [plain_emphasis(self.answer)]
        if marks := self.check_marks():
            lines += ["", "Citation checks:"] + [f"  {m}" for m in marks]
        if self.sources:
            lines += ["", "Sources:"] + [f"  {s.line()}" for s in self.sources]
        return "\n".join(lines + [f"note: {n}" for n in self.notes])

    def _repr_markdown_(self) -> str:
        """The answer with each ``[n]`` linked to its paper, the flagged sentences, then the Sources list."""
        urls = {s.n: _url(s.url) for s in self.sources}
        # each line of the answer (a paper of a list or a comparison) a paragraph of its own: Markdown
        # joins lines that a single newline parts
        text = _latex_emphasis(link_markers(self.answer, lambda n: urls.get(n, "")))
        lines = ["\n\n".join(line for line in text.split("\n") if line.strip())]
        if self.abstained:
            lines[0] = f"*{lines[0]}*"
        marks = self.check_marks()
        if marks:
            lines += ["", "**Citation checks**", ""] + [f"- {m}" for m in marks]
        if self.sources:
            lines += ["", "**Sources**", ""]
            for s in self.sources:
                name = s.name.replace("[", "\\[").replace("]", "\\]")
                lines.append(
                    f"{s.n}. "
                    + (f"[{name}]({_url(s.url)})" if s.url else name)
                    + f" · `{s.paper_id}`"
                )
        lines += [line for n in self.notes for line in ("", f"> note: {n}")]  # a quote each
        return "\n".join(lines)


def _latex_emphasis(text: str) -> str:
    """An abstract's LaTeX emphasis as Markdown: ``\\emph{x}`` and ``\\textit{x}`` -> ``*x*``, ``\\textbf{x}`` ->
    ``**x**`` (the rest of the LaTeX, math included, stays as written)."""
    text = re.sub(r"\\textbf\{([^{}]+)\}", r"**\1**", text)
    return re.sub(r"\\(?:emph|textit)\{([^{}]+)\}", r"*\1*", text)


def _url(url: str) -> str:
    """``url`` as a Markdown link destination: in angle brackets when it holds a space or parenthesis
    (CommonMark), which would otherwise end the link."""
    return f"<{url}>" if any(ch in url for ch in " ()<>") and "<" not in url else url


@dataclass
class SearchHit:
    """One paper found by :meth:`paperchat.Paperchat.search`, best first.

    ``score`` is the fused retrieval score (higher is better; its scale
    depends on the query); ``sentence`` the abstract sentence closest to the
    query; ``venue`` ``""`` and ``year`` ``None`` when unknown.
    """

    paper_id: str
    title: str
    authors: list[str] = field(default_factory=list)
    url: str = ""
    venue: str = ""
    year: int | None = None
    score: float = 0.0
    sentence: str = ""

    def to_json(self) -> dict[str, Any]:
        """The hit as JSON (the ``search_papers`` MCP tool's ``results`` entries)."""
        out = asdict(self)
        out["score"] = round(float(self.score), 6)
        return out


def paper_listing(record: PaperRecord) -> dict[str, Any]:
    """The ``papers --json`` entry: ``{paper_id, title, label, chunks, origin: {path, index, file, also_in}, url,
    authors, aliases, venue, year, presentation}`` (``venue`` and ``presentation`` ``""`` and ``year``
    ``None`` when unknown; ``presentation`` is ``"oral"``, ``"spotlight"`` or ``"poster"``).

    ``origin.path`` is the file's name, ``origin.index`` the paper's 1-based position in it (0 when not
    known: a paper another file took over when its own file dropped it, and that file could not be read),
    ``origin.file`` its resolved path
    (``""`` for a paper stored by an earlier paperchat), ``origin.also_in`` the
    resolved paths of other files that hold the same abstract (the paper stays
    while any of them does); ``aliases`` are the ids of duplicates merged into
    this paper (they name it too).
    """
    return {
        "paper_id": record.paper_id,
        "title": record.title,
        "label": record.label or record.title or record.paper_id,
        "chunks": len(record.chunk_ids),
        "origin": {
            "path": record.source_path,
            "index": int(record.source_index),
            "file": record.source_file,
            "also_in": list(record.also_in),
        },
        "url": record.url,
        "authors": list(record.authors),
        "aliases": list(record.aliases),
        "venue": record.venue,
        "year": record.year,
        "presentation": record.presentation,
    }
