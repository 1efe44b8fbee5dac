"""Seed text (``.txt``): a header line, then abstracts separated by blank lines, as the bundled corpus in
``data/`` is written; no titles, authors or urls (``--metadata`` adds them)."""

from __future__ import annotations

import re
from pathlib import Path

from paperchat.core.errors import PaperchatError
from paperchat.core.text import clean_text

#: A seed file's header is a title line ("ICML 2025 abstracts"); a first line longer than this that ends a
#: sentence is an abstract of a file written without one.
HEADER_MAX_CHARS = 200


def seed_abstracts(path: Path, text: str, notes: list[str]) -> list[str]:
    """The abstracts of a seed-text file (``text``, read from ``path``), in order: a header line, then abstracts separated
    by blank lines; a first line that is itself an abstract (over :data:`HEADER_MAX_CHARS` characters,
    ending a sentence) is read as the first one, with a note appended to ``notes``. Raises
    :class:`PaperchatError` for a first line that is a JSON object or a CSV header naming an ``abstract``
    column: JSONL or CSV saved as ``.txt`` (an operator's 30 JSON lines had become one paper of raw JSON)."""
    lines = text.splitlines()
    first = lines[0].strip() if lines else ""
    fields = [f.strip().strip('"').lower() for f in re.split(r"[,;\t]", first)]
    kind = "JSONL" if first.startswith("{") and first.endswith("}") else ""
    kind = kind or ("CSV" if len(fields) > 1 and "abstract" in fields else "")
    if kind:
        raise PaperchatError(
            f"{path}: its first line is {kind}, not seed text (a header line, then abstracts separated by "
            f"blank lines); rename it to {path.stem}.{kind.lower()}"
        )
    headless = len(first) > HEADER_MAX_CHARS and re.search(r"[.!?]\W*$|[.!?]\s", first) is not None
    if headless:
        notes.append(
            f"{path}: the first line ({len(first):,} characters) is an abstract, not a header line; "
            "it is read as the first paper"
        )
    body = "\n".join(lines if headless else lines[1:])  # the first line is the header
    blocks = [b for b in (blk.strip() for blk in body.replace("\r", "").split("\n\n")) if b]
    return [clean_text(" ".join(block.split("\n"))) for block in blocks]
