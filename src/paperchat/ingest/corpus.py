"""Loading papers (documents) from corpus files.

Three formats, chosen by file ending:

* ``.jsonl`` / ``.ndjson``: one JSON object a line with ``abstract`` (required)
  and optional ``id``, ``title``, ``authors`` (list or string), ``url``,
  ``venue`` and ``year`` (:mod:`paperchat.ingest.venue` fills the last two
  when the file does not).
* ``.csv``: a header row with an ``abstract`` column and the same optional columns, separated by commas
  (or semicolons or tabs, as European Excel and its "Unicode Text" write them).
* anything else (``.txt``): the seed format, a header line, then abstracts
  separated by blank lines, with no titles.

Each :class:`Paper` gets a stable id: its own ``id`` when the file gives one,
else ``p-`` and 12 hex digits of the SHA-256 of its normalized abstract, so
re-ordering a file changes no id. Its origin is the file's name and its 1-based
position in the file (header excluded). An abstract longer than
:data:`MAX_ABSTRACT_CHARS` is cut at the last sentence end before the limit,
with a note (a real abstract is 1,000-2,000 characters; a 5 MB one took 14
minutes and 1.8 GB to embed). The file itself is known by its resolved
path (``source_file``), so two files of the same name in different folders are two
files.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paperchat.core.errors import PaperchatError
from paperchat.core.sentences import split_sentences
from paperchat.core.text import clean_text, normalize_for_id, short_hash, unbraced, unescape_html
from paperchat.ingest.authors import author_list
from paperchat.ingest.fields import FIELD_ALIASES, with_aliases
from paperchat.ingest.labels import short_label
from paperchat.ingest.manifest import file_key
from paperchat.ingest.seed_text import seed_abstracts
from paperchat.ingest.text_files import NothingReadable, read_text
from paperchat.ingest.venue import parse_year

JSONL_SUFFIXES = {".jsonl", ".ndjson"}
SEED_SUFFIXES = {".txt"}
CSV_SUFFIXES = {".csv"}
#: The longest abstract kept, in characters; a longer one is cut at a sentence end (and a note says so).
MAX_ABSTRACT_CHARS = 100_000


@dataclass
class Paper:
    """One paper (a LlamaIndex *document*): its abstract and what is known about it.

    ``source_path`` is the corpus file's name, ``source_index`` the paper's
    1-based position in it, ``source_file`` the file's absolute, resolved path
    (what identifies the file:
    :func:`paperchat.ingest.manifest.file_key`). ``label`` is its short name
    (:func:`paperchat.ingest.labels.short_label`: "ConfPO", or the opening
    words of a title-less abstract that names nothing).
    """

    paper_id: str
    abstract: str
    source_path: str
    source_index: int
    title: str = ""
    authors: list[str] = field(default_factory=list)
    url: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    label: str = ""
    source_file: str = ""


@dataclass
class LoadReport:
    """What loading a file skipped (``(line number, reason)`` pairs) and changed (``notes``, one line each)."""

    path: Path
    skipped: list[tuple[int, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def cap_abstract(abstract: str, limit: int | None = None) -> str:
    """``abstract`` cut to at most ``limit`` characters (default :data:`MAX_ABSTRACT_CHARS`) at the last sentence
    end before it (at a space when no sentence ends there); unchanged when it is short enough."""
    limit = MAX_ABSTRACT_CHARS if limit is None else limit
    if len(abstract) <= limit:
        return abstract
    head = abstract[: limit + 1]
    sentences = split_sentences(head)
    if sentences and not (head[-1].isspace() and sentences[-1][-1] in ".!?。！？"):
        sentences.pop()  # cut part-way
    if sentences and len(" ".join(sentences)) <= limit:
        return " ".join(sentences)
    cut = head[:limit].rsplit(" ", 1)[0]
    return cut if cut else head[:limit]


def paper_id_for(abstract: str, given: Any = None) -> str:
    """The stable id of a paper: ``given`` when it is a non-empty string, else ``p-<hash>``."""
    if given is not None and str(given).strip():
        return str(given).strip()
    return "p-" + short_hash(normalize_for_id(abstract), 12)


#: A content-derived paper id (:func:`paper_id_for` of an abstract without a given id).
P_ID = re.compile(r"p-[0-9a-f]{12}")


def content_ids(wanted: Iterable[str], read_papers) -> dict[str, str]:
    """For the ``p-…`` ids among ``wanted``: the stored paper whose abstract derives that id, when it is stored
    under another id (its file gave one here, and none in the store the ``p-…`` id was copied from).
    ``read_papers()`` returns the stored records with abstracts (read only when a ``p-…`` id is wanted)."""
    want = {w for w in wanted if P_ID.fullmatch(w)}
    if not want:
        return {}
    out = {}
    for pid, record in read_papers().items():
        derived = paper_id_for(record.abstract)
        if derived in want and derived != pid:
            out[derived] = pid
    return out


def _paper_from_record(rec: dict[str, Any], name: str, index: int) -> Paper:
    rec = with_aliases(rec)
    parse_year(rec.get("year"))  # a year that is not one stops here, with its line
    for key in ("abstract", "title", "url", "venue"):
        value = rec.get(key)
        if value is not None and not isinstance(value, str):
            raise ValueError(f"'{key}' must be text, not {type(value).__name__}")
    if rec.get("id") is not None and (
        isinstance(rec["id"], bool) or not isinstance(rec["id"], (str, int))
    ):
        raise ValueError(f"'id' must be text or a whole number, not {rec['id']!r}"[:120])
    # the store lists a paper's chunk ids space-joined: an id is one word
    if rec.get("id") is not None and len(str(rec["id"]).split()) > 1:
        given = str(rec["id"]).strip()
        raise ValueError(
            f"id {given!r} holds white space; a paper id is one word (e.g. {'-'.join(given.split())!r})"
        )
    abstract = clean_text(unescape_html(str(rec.get("abstract") or "")))
    if not any(ch.isalnum() for ch in abstract):  # "..." or "-": nothing to answer from
        raise ValueError(
            "no abstract" if not abstract else f"no words in the abstract {abstract[:20]!r}"
        )
    # a column named "author", as BibTeX names the field
    if rec.get("authors") in (None, "") and rec.get("author") not in (None, ""):
        rec = {**rec, "authors": rec["author"]}
    known = {"id", "title", "authors", "author", "abstract", "url"} | {
        a for key in ("abstract", "title", "authors", "url") for a in FIELD_ALIASES[key]
    }
    extra = {k: v for k, v in rec.items() if k not in known and v not in (None, "")}
    return Paper(
        paper_id=paper_id_for(abstract, rec.get("id")),
        abstract=abstract,
        source_path=name,
        source_index=index,
        title=unbraced(clean_text(unescape_html(str(rec.get("title") or "")))),
        authors=author_list(rec.get("authors")),
        url=clean_text(str(rec.get("url") or "")),
        extra=extra,
    )


def _json_array(text: str) -> bool:
    """Whether ``text`` is one JSON array spread over lines (a pretty-printed export), not JSON lines."""
    lines = text.strip().splitlines()
    if len(lines) < 2 or not lines[0].startswith("["):
        return False
    try:
        return lines[0].strip() == "[" or isinstance(json.loads(text), list)
    except ValueError:
        return False


def _load_jsonl(path: Path, text: str, on_error: str, report: LoadReport) -> list[Paper]:
    if _json_array(text):  # a JSON array saved as .jsonl had read "malformed JSON at column 2"
        raise NothingReadable(
            f"{path}: holds a JSON array, not JSON lines; write one object per line "
            f"(e.g. `jq -c '.[]' {path.name} > {path.stem}-lines.jsonl`)"
        )
    papers = []
    index = 0
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        index += 1
        try:
            rec = json.loads(line)
            if not isinstance(rec, dict):
                raise ValueError("not a JSON object")
            # field names in any case, as a CSV header's ("Title", "Abstract"); a lower-case one wins
            rec = {**{str(k).strip().lower(): v for k, v in rec.items()}, **rec}
            papers.append(_paper_from_record(rec, path.name, index))
        except (ValueError, TypeError) as exc:
            reason = (
                f"malformed record ({exc})"
                if not isinstance(exc, json.JSONDecodeError)
                else f"malformed JSON at column {exc.colno} ({exc.msg})"
            )
            if on_error == "skip":
                report.skipped.append((lineno, reason))
                continue
            raise PaperchatError(
                f"{path}:{lineno}: {reason}; fix it or pass --on-error skip"
            ) from exc
    return papers


_ABSTRACT_NAMES = {"abstract", *FIELD_ALIASES["abstract"]}


def _delimiter(text: str) -> str:
    """The CSV's field separator: a comma, or the semicolon or tab of European Excel's and "Unicode Text"
    exports, when the header names an ``abstract`` column only with it."""
    header = re.split(r"\r\n?|\n", text, maxsplit=1)[0].lower()
    for sep in (",", ";", "\t"):
        if _ABSTRACT_NAMES & {f.strip().strip('"') for f in header.split(sep)}:
            return sep
    return ","


def _load_csv(path: Path, text: str, on_error: str, report: LoadReport) -> list[Paper]:
    # strict: an unterminated quote is an error; newline="": rows end at "\r" alone too (a Mac's "CSV
    # (Macintosh)" export had been one malformed line); an abstract longer than the csv module's 131,072
    # characters is read, then cut as a JSONL one is (MAX_ABSTRACT_CHARS)
    csv.field_size_limit(max(csv.field_size_limit(), 64 * MAX_ABSTRACT_CHARS))
    reader = csv.DictReader(io.StringIO(text, newline=""), strict=True, delimiter=_delimiter(text))
    try:
        fields = [f.strip().lower() for f in (reader.fieldnames or [])]
        if not _ABSTRACT_NAMES & set(fields):
            shown = ", ".join(f if len(f) <= 40 else f[:39] + "…" for f in fields[:8]) or "none"
            raise PaperchatError(
                f"{path}: CSV has no 'abstract' column in its first row, which is read as the header "
                f"(columns: {shown}{', …' if len(fields) > 8 else ''})"
            )
        twice = sorted({f for f in fields if f and fields.count(f) > 1})
        if twice:  # DictReader would keep the last silently
            raise PaperchatError(
                f"{path}: CSV header names the column {twice[0]!r} twice; rename or remove one"
            )
        return _csv_papers(path, reader, on_error, report)
    except (
        csv.Error
    ) as exc:  # the record that failed starts on the line after the last one read whole
        skip = (
            " (--on-error skip cannot skip it: the rows after a broken quote cannot be told apart)"
            if on_error == "skip"
            else ""
        )
        raise PaperchatError(
            f"{path}:{reader.line_num + 1}: malformed CSV ({exc}); check its quoting{skip}"
        ) from exc


def _csv_papers(
    path: Path, reader: csv.DictReader, on_error: str, report: LoadReport
) -> list[Paper]:
    papers = []
    index = 0
    for row in reader:
        values = [v for k, v in row.items() if k is not None] + list(row.get(None) or [])
        if not any((v or "").strip() for v in values):
            continue  # a row of separators only (",,,": a sheet's empty row), as an empty line
        index += 1
        rec = {(k or "").strip().lower(): v for k, v in row.items() if k is not None}
        try:
            if (
                None in row
            ):  # DictReader's restkey: an unquoted comma split a field (an abstract cut short)
                header = len(reader.fieldnames or [])
                raise ValueError(
                    f"{header + len(row[None])} fields where the header has {header}; quote a field that holds a comma"
                )
            papers.append(_paper_from_record(rec, path.name, index))
        except ValueError as exc:
            lineno = reader.line_num
            if on_error == "skip":
                report.skipped.append((lineno, str(exc)))
                continue
            raise PaperchatError(f"{path}:{lineno}: {exc}; fix it or pass --on-error skip") from exc
    return papers


def load_file(
    path: str | Path, on_error: str = "stop", encoding: str | None = None
) -> tuple[list[Paper], LoadReport]:
    """Load the papers of one corpus file.

    ``on_error`` is ``"stop"`` (a malformed line raises) or ``"skip"`` (it is
    recorded in the returned :class:`LoadReport` and skipped); ``encoding``
    reads a file that is not UTF-8 (``latin-1``, ``cp1252``). Raises
    :class:`PaperchatError` for a missing, empty, binary or unreadable file, a
    CSV without an ``abstract`` column, or a file that holds no abstract.
    Papers come back in file order, each labelled.
    """
    path = Path(path)
    if (
        path.suffix.lower() not in JSONL_SUFFIXES | CSV_SUFFIXES | SEED_SUFFIXES
    ):  # a .tsv is not read as seed text
        kind = f"file type {path.suffix}" if path.suffix else "file without an extension"
        raise PaperchatError(
            f"{path}: unsupported {kind}; use JSONL (.jsonl), CSV (.csv) or seed text (.txt)"
        )
    text = read_text(path, encoding)
    report = LoadReport(path)
    suffix = path.suffix.lower()
    if suffix in JSONL_SUFFIXES:
        papers = _load_jsonl(path, text, on_error, report)
    elif suffix in CSV_SUFFIXES or _delimiter(text) == "\t":
        # a .txt whose first line is a tab-separated header with an abstract column is a table (Excel's
        # "Unicode Text" export), not seed text to be read as one abstract
        papers = _load_csv(path, text, on_error, report)
    else:
        papers = [
            Paper(paper_id_for(a), a, source_path=path.name, source_index=i)
            for i, a in enumerate(seed_abstracts(path, text, report.notes), 1)
        ]
    if not papers and report.skipped:  # --on-error skip dropped every line: say which and why
        line, why = report.skipped[0]
        more = f" (and {len(report.skipped) - 1} more)" if len(report.skipped) > 1 else ""
        raise NothingReadable(f"{path}: no line could be read; line {line}: {why}{more}")
    if not papers:
        raise PaperchatError(f"{path}: holds no abstract")
    source_file = file_key(path)
    for paper in papers:
        if len(paper.abstract) > MAX_ABSTRACT_CHARS:
            full = len(paper.abstract)
            paper.abstract = cap_abstract(paper.abstract)
            report.notes.append(
                f"{path} #{paper.source_index}: the abstract of {full:,} characters was cut to its first "
                f"{len(paper.abstract):,} (paperchat keeps at most {MAX_ABSTRACT_CHARS:,} characters of "
                "an abstract)"
            )
        paper.label = short_label(paper.title, paper.abstract)
        paper.source_file = source_file
    return papers, report


def corpus_files(paths: Iterable[str | Path]) -> tuple[list[Path], list[str]]:
    """``paths`` with each folder replaced by the corpus files directly inside it (``.jsonl``, ``.ndjson``,
    ``.csv``, ``.txt``; sorted by name, hidden files left out, folders inside not read), and one note per folder
    saying what it read and left out.

    Raises :class:`PaperchatError` for a folder with no corpus file in it. Files are returned as given (a file
    of another type is refused when it is loaded), each once (the first time it is named).
    """
    files: list[Path] = []
    notes: list[str] = []
    for given in paths:
        path = Path(given)
        if not path.is_dir():
            files.append(path)
            continue
        entries = sorted(
            (p for p in path.iterdir() if not p.name.startswith(".")), key=lambda p: p.name
        )
        found = [
            p
            for p in entries
            if p.is_file() and p.suffix.lower() in JSONL_SUFFIXES | CSV_SUFFIXES | SEED_SUFFIXES
        ]
        if not found:
            raise PaperchatError(
                f"{path}: a folder with no corpus files in it (.jsonl, .ndjson, .csv or .txt)"
            )
        files.extend(found)
        others = [
            f"{p.name} (not a corpus file)" for p in entries if p.is_file() and p not in found
        ]
        others += [
            f"the folder {p.name} (folders inside are not read)" for p in entries if p.is_dir()
        ]
        if others:
            notes.append(
                f"{path}: read {', '.join(p.name for p in found)}; left out {' and '.join(others)}"
            )
    # a file given twice (or as a folder and as itself) is read once
    unique = {file_key(p): p for p in reversed(files)}
    return [p for p in files if unique.get(file_key(p)) is p], notes


def bundled_corpus_files() -> list[Path]:
    """The bundled corpus: the seed files shipped in ``data/`` (sorted by name)."""
    from paperchat.core.resources import bundled_dir

    return sorted(p for p in bundled_dir("data").iterdir() if p.suffix == ".txt")


def bundled_metadata() -> Path:
    """The bundled corpus's public metadata (titles, authors, urls; ``data/seed_metadata.jsonl``)."""
    from paperchat.core.resources import bundled_file

    return bundled_file("data", "seed_metadata.jsonl")
