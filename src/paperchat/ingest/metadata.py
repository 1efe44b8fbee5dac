"""Metadata joined onto loaded papers: a JSONL of titles, authors, urls (and ids, venue, year) keyed by the
corpus file's name and the paper's 1-based position (``ingest --metadata``)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from paperchat.core.errors import PaperchatError
from paperchat.core.text import clean_text
from paperchat.ingest.authors import author_list
from paperchat.ingest.corpus import Paper, read_text
from paperchat.ingest.labels import short_label
from paperchat.ingest.venue import parse_year


def load_metadata(path: str | Path) -> dict[tuple[str, int], dict[str, Any]]:
    """Read a metadata JSONL file keyed by ``(file name, 1-based position)``.

    Each line has ``seed_file`` (or ``path`` / ``file``), ``index`` and any of
    ``title``, ``authors``, ``url``, ``openreview_id``, ``pmlr_url``, ``venue``, ``year``.
    ``../shared/data/seed_metadata.jsonl`` is a real example.
    """
    path = Path(path)
    text = read_text(path)
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            name = rec.get("seed_file") or rec.get("path") or rec.get("file")
            key = (Path(str(name)).name, int(rec["index"]))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise PaperchatError(
                f"{path}:{lineno}: metadata line needs seed_file and index ({exc})"
            ) from exc
        try:
            parse_year(rec.get("year"))
        except ValueError as exc:
            raise PaperchatError(f"{path}:{lineno}: {exc}") from exc
        out[key] = rec
    return out


def join_metadata(papers: Iterable[Paper], metadata: dict[tuple[str, int], dict[str, Any]]) -> int:
    """Fill title, authors, url (and extra ids, venue and year) of papers from ``metadata``, in place.

    Only fields a paper lacks are filled. Returns how many papers matched.
    """
    matched = 0
    for paper in papers:
        rec = metadata.get((paper.source_path, paper.source_index))
        if rec is None:
            continue
        matched += 1
        if not paper.title and rec.get("title"):
            paper.title = clean_text(str(rec["title"]))
            paper.label = short_label(paper.title, paper.abstract)
        if not paper.authors:
            paper.authors = author_list(rec.get("authors"))
        if not paper.url and rec.get("url"):
            paper.url = str(rec["url"])
        for key in ("openreview_id", "pmlr_url", "venue", "year"):
            if rec.get(key):
                paper.extra.setdefault(key, rec[key])
    return matched
