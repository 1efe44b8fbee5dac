"""Citations: ``[n]`` markers, numbering in order of first use, and source lists.

A *source* is one cited paper; its number ``n`` is its position in the
Sources list (1-based, in order of first use in the answer). Each source
entry of the ``--json`` contract is::

    {"n", "paper_id", "title", "label", "url", "origin": {"path", "index"}, "chunk_id", "text"}

where ``origin.path`` is the corpus file's name and ``origin.index`` the
paper's 1-based position in it.
"""

from __future__ import annotations

import re
from typing import Any

#: The fixed abstention sentence (a constant, so evals can detect it).
ABSTENTION = "The indexed abstracts do not contain an answer to this question."

_MARKER = re.compile(r"\[(\d+(?:\s*[-–,]\s*\d+)*)\]")


def parse_marker(body: str) -> list[int]:
    """Numbers in one marker body: ``"1"`` -> [1], ``"1, 3"`` -> [1, 3], ``"2-4"`` -> [2, 3, 4]."""
    out: list[int] = []
    for part in re.split(r"\s*,\s*", body.strip()):
        if not part:
            continue
        m = re.fullmatch(r"(\d+)\s*[-–]\s*(\d+)", part)
        if m:
            a, b = int(m.group(1)), int(m.group(2))
            if a <= b and b - a < 50:
                out.extend(range(a, b + 1))
            else:
                out.extend([a, b])
        else:
            out.append(int(part))
    return out


def find_citations(text: str) -> list[int]:
    """Every cited number in ``text`` in order of appearance (with repeats)."""
    return [n for m in _MARKER.finditer(text) for n in parse_marker(m.group(1))]


def renumber(text: str, n_sources: int) -> tuple[str, list[int], list[int]]:
    """Renumber the markers of ``text`` in order of first use.

    Returns ``(new text, order, invalid)``: ``order[i]`` is the original
    number of new source ``i + 1``; ``invalid`` lists numbers outside
    ``1..n_sources``, which are removed from the text.
    """
    order: list[int] = []
    invalid: list[int] = []

    def repl(match: re.Match) -> str:
        nums = []
        for n in parse_marker(match.group(1)):
            if not 1 <= n <= n_sources:
                if n not in invalid:
                    invalid.append(n)
                continue
            if n not in order:
                order.append(n)
            new = order.index(n) + 1
            if new not in nums:
                nums.append(new)
        return "[" + ", ".join(str(x) for x in nums) + "]" if nums else ""

    new_text = _MARKER.sub(repl, text)
    new_text = re.sub(r"\s+([.,;:])", r"\1", new_text)
    new_text = re.sub(r"[ \t]{2,}", " ", new_text)
    return new_text, order, invalid


def source_entry(n: int, paper: dict[str, Any], chunk_id: str, text: str) -> dict[str, Any]:
    """One Sources entry of the ``--json`` contract from a paper record (store metadata)."""
    return {
        "n": n,
        "paper_id": paper["paper_id"],
        "title": paper.get("title") or "",
        "label": paper.get("label") or paper.get("title") or paper["paper_id"],
        "url": paper.get("url") or "",
        "origin": {"path": paper.get("source_path", ""), "index": int(paper.get("source_index", 0) or 0)},
        "chunk_id": chunk_id,
        "text": text,
    }


def cite_sentence(sentence: str, n: int) -> str:
    """``sentence`` with the marker ``[n]`` before its final punctuation (a period is added if none)."""
    s = sentence.rstrip()
    end = ""
    if s and s[-1] in ".!?":
        s, end = s[:-1].rstrip(), s[-1]
    return f"{s} [{n}]{end or '.'}"
