"""Running an ingest: apply the plan, then chunk, embed and write the new papers in batches.

:func:`run_ingest` takes a store writer (:class:`paperchat.store.StoreWriter`,
passed in so this module does not import the store) and:

1. decides what to do (:func:`paperchat.ingest.plan.plan_ingest`);
2. writes metadata updates;
3. chunks the new and changed papers, and for each batch of
   ``PAPER_BATCH`` papers embeds their sentences once
   (:func:`paperchat.ingest.sentence_vectors.embed_papers`), pools chunk
   vectors from them and writes chunks, sentence vectors and records;
4. removes papers the files no longer hold (an edited abstract's old version among them: a run stopped
   before this keeps the old version beside what is new, never neither).

It resumes: a paper whose chunks and sentence vectors are all stored already
(a run killed part-way) is not embedded again; its chunk vectors are pooled
from the stored sentence vectors.
"""

from __future__ import annotations

import shlex
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np

from paperchat.core.sentences import split_sentences
from paperchat.core.text import content_key, short_hash
from paperchat.ingest.chunking import ChunkText
from paperchat.ingest.corpus import Paper
from paperchat.ingest.plan import fill_sticky, plan_ingest, updated_record
from paperchat.ingest.records import PaperRecord, StoreInfo
from paperchat.ingest.sentence_vectors import embed_papers, pool_chunks

PAPER_BATCH = 64  # papers embedded and written together
#: A batch holding an abstract longer than this (characters; a typical one has 1,000-2,000) reports progress
#: as its sentences are embedded, not only when it is written.
LONG_ABSTRACT = 20_000

Progress = Callable[[int, int], None]


@dataclass
class IngestReport:
    """Counts from one ingest run (papers, chunks, sentences), and its wall time in seconds."""

    files: list[str] = field(default_factory=list)
    papers_seen: int = 0
    papers_added: int = 0
    papers_updated: int = 0
    papers_unchanged: int = 0
    papers_removed: int = 0
    duplicates_skipped: int = 0
    duplicates_merged: int = 0
    chunks_embedded: int = 0
    chunks_removed: int = 0
    sentences_embedded: int = 0
    #: of ``sentences_embedded``, those whose vectors came from the vector cache
    #: (:mod:`paperchat.ingest.vector_cache`), not the model
    sentences_cached: int = 0
    lines_skipped: list[str] = field(default_factory=list)
    #: what the run did on the user's behalf or left alone, one line each (printed as ``note: …``)
    notes: list[str] = field(default_factory=list)
    total_papers: int = 0
    total_chunks: int = 0
    seconds: float = 0.0
    #: answered from the ingest manifest: the same files, unchanged, nothing parsed (:mod:`paperchat.engine.repeat`)
    repeated: bool = False

    @property
    def changed(self) -> bool:
        """Whether the run wrote anything."""
        return bool(
            self.papers_added
            or self.papers_updated
            or self.papers_removed
            or self.chunks_embedded
            or self.chunks_removed
            or self.sentences_embedded
        )


class Writer(Protocol):
    """What :func:`run_ingest` needs of a store writer."""

    def records(self) -> dict[str, PaperRecord]: ...
    def chunk_ids_of(self, paper_ids: Sequence[str]) -> set[str]: ...
    def sentence_vectors(self, paper_ids: Sequence[str]) -> dict[str, tuple[str, np.ndarray]]: ...
    def delete_chunks(self, ids: Sequence[str]) -> None: ...
    def delete_papers(self, paper_ids: Sequence[str]) -> int: ...
    def update_papers(self, records: Sequence[PaperRecord]) -> None: ...
    def write(self, records, chunks, sentences) -> int: ...


class Embedding(Protocol):
    """What :func:`run_ingest` needs of an embedder (:class:`paperchat.ingest.embedding.Embedder`)."""

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...
    def count_tokens(self, text: str) -> int: ...


def _record(
    paper: Paper, chunks: list[ChunkText], info: StoreInfo, old: PaperRecord | None
) -> PaperRecord:
    rec = PaperRecord.from_paper(
        paper,
        content_key=content_key(paper.abstract),
        text_hash=short_hash(paper.abstract),
        chunking=info.chunking_key,
        chunk_ids=[c.chunk_id for c in chunks],
    )
    if (
        old is not None
    ):  # a changed paper keeps the stored copy's metadata; its aliases only if the text is the same
        fill_sticky(rec, old, paper.abstract)
        if old.content_key == rec.content_key:
            rec.aliases = sorted(set(old.aliases) | set(rec.aliases))
    return rec


def _reusable(writer: Writer, group, have: set[str], count_tokens) -> dict[str, np.ndarray]:
    """Chunk vectors of papers whose chunks and sentence vectors are all stored already: ``{paper id: (n, dim)}``."""
    complete = [(p, chunks) for p, chunks in group if all(c.chunk_id in have for c in chunks)]
    if not complete:
        return {}
    stored = writer.sentence_vectors([p.paper_id for p, _ in complete])
    out = {}
    for paper, chunks in complete:
        text_hash, sentence_vecs = stored.get(paper.paper_id, ("", None))
        if sentence_vecs is None or text_hash != short_hash(paper.abstract):
            continue
        vecs = pool_chunks(paper.abstract, sentence_vecs, [c.text for c in chunks], count_tokens)
        if vecs is not None:
            out[paper.paper_id] = vecs
    return out


def _unsure_notes(kept: list[str], stored: dict[str, PaperRecord]) -> list[str]:
    """One note per file name whose papers from an earlier paperchat (recorded by name only) were kept."""
    by_name: dict[str, int] = {}
    for pid in kept:
        by_name[stored[pid].source_path] = by_name.get(stored[pid].source_path, 0) + 1
    return [
        f"kept {n} paper{'s' if n != 1 else ''} an earlier paperchat stored from a file named {name!r} that this "
        f"file does not hold (that may be another folder's {name}); `paperchat ingest --rebuild FILES` makes the "
        "store hold exactly your files"
        for name, n in sorted(by_name.items())
    ]


def _within(
    progress: Progress | None, done: int, group, total: int
) -> Callable[[int, int], None] | None:
    """Progress inside a batch that holds a long abstract (:data:`LONG_ABSTRACT`): its chunks counted as its
    texts are embedded, never the whole batch before it is written; ``None`` for other batches."""
    if progress is None or all(len(paper.abstract) <= LONG_ABSTRACT for paper, _ in group):
        return None
    chunks = sum(len(c) for _, c in group)
    return lambda embedded, texts: progress(
        done + min(chunks - 1, chunks * embedded // max(texts, 1)), total
    )


def _place_taken_over(updates: list[PaperRecord]) -> None:
    """Give each paper another file took over (position 0: :func:`paperchat.ingest.plan.plan_ingest` did not
    read that file) its 1-based position there and that file's title, authors, url, venue and year (an
    empty one keeps the old value: :func:`~paperchat.ingest.plan.updated_record`), by reading the file, in
    place; a file that cannot be read leaves them until it is ingested. An operator's `remove A.jsonl` had
    left A's title, authors and url on the paper B.jsonl took over."""
    from paperchat.ingest.corpus import load_file

    files = {r.source_file for r in updates if r.source_index == 0 and r.source_file}
    for path in files:
        try:
            papers, _ = load_file(path, on_error="skip")
        except Exception:  # PaperchatError, OSError: the file says so when it is ingested
            continue
        at = {content_key(p.abstract): p for p in reversed(papers)}  # the first copy
        for i, r in enumerate(updates):
            if r.source_file == path and r.source_index == 0 and r.content_key in at:
                updates[i] = updated_record(r, at[r.content_key])


def _gone_notes(
    stored: dict[str, PaperRecord], files: list[str], remove_command: Callable[[str], str]
) -> list[str]:
    """A note for each stored file beside the ingested ones (in one of their folders) that is gone: a file
    moved or deleted holds nothing, so its papers stay until ``remove_command(file)`` (the command, with the
    store's options and the path quoted for a shell) takes them out."""
    folders, ingested = {str(Path(f).parent) for f in files}, set(files)
    beside = Counter(
        r.source_file
        for r in stored.values()
        if r.source_file
        and r.source_file not in ingested
        and str(Path(r.source_file).parent) in folders
    )
    counts = {f: n for f, n in beside.items() if not Path(f).exists()}  # one look at each file
    return [
        f"{f} is gone; its {n} paper{'s stay' if n != 1 else ' stays'} until `{remove_command(f)}`"
        for f, n in sorted(counts.items())
    ]


def run_ingest(
    writer: Writer,
    papers: list[Paper],
    files: list[str],
    info: StoreInfo,
    chunker_factory: Callable,
    embedder: Embedding,
    on_error: str = "stop",
    progress: Progress | None = None,
    partial: set[str] | frozenset[str] = frozenset(),
    remove_command: Callable[[str], str] = lambda f: shlex.join(["paperchat", "remove", f]),
) -> IngestReport:
    """Bring the writer's generation in line with ``papers`` from the corpus ``files`` (resolved paths).

    ``chunker_factory()`` returns a :class:`paperchat.ingest.chunking.Chunker`
    (made only when something must be chunked); ``progress(done, total)``
    counts chunks; ``partial`` are the files that had lines skipped (they remove nothing);
    ``remove_command(file)`` is the command a note on a gone file gives. Raises :class:`~paperchat.core.errors.PaperchatError` on an
    id conflict (``on_error="stop"``); nothing is written before that check.
    """
    start = time.perf_counter()
    report = IngestReport(files=list(files), papers_seen=len(papers))
    stored = writer.records()
    plan = plan_ingest(papers, stored, list(files), info, on_error, partial)
    report.lines_skipped = list(plan.conflicts)
    report.duplicates_skipped, report.duplicates_merged = (
        plan.duplicates_skipped,
        plan.duplicates_merged,
    )
    report.papers_unchanged = plan.unchanged
    report.notes += (
        _unsure_notes(plan.kept_unsure, stored)
        + plan.notes
        + _gone_notes(stored, files, remove_command)
    )
    if plan.updates:
        _place_taken_over(plan.updates)
        writer.update_papers(plan.updates)
        report.papers_updated += len(plan.updates)
    if plan.to_write:
        chunker = chunker_factory()
        work = [(paper, chunker.split(paper.paper_id, paper.abstract)) for paper in plan.to_write]
        total = sum(len(chunks) for _, chunks in work)
        done = 0
        if progress:
            progress(0, total)
        for b in range(0, len(work), PAPER_BATCH):
            group = work[b : b + PAPER_BATCH]
            have = writer.chunk_ids_of([p.paper_id for p, _ in group])
            wanted = {c.chunk_id for _, chunks in group for c in chunks}
            stale = sorted(have - wanted)
            vectors = _reusable(writer, group, have, embedder.count_tokens)
            todo = [(p, chunks) for p, chunks in group if p.paper_id not in vectors]
            sentences: dict[str, tuple[list[str], np.ndarray, str]] = {}
            if todo:
                made = embed_papers(
                    [(p.abstract, [c.text for c in chunks]) for p, chunks in todo],
                    embedder.embed,
                    embedder.count_tokens,
                    _within(progress, done, group, total),
                )
                for (paper, _chunks), (sent_vecs, chunk_vecs) in zip(todo, made):
                    vectors[paper.paper_id] = chunk_vecs
                    sentences[paper.paper_id] = (
                        split_sentences(paper.abstract),
                        sent_vecs,
                        short_hash(paper.abstract),
                    )
                    report.sentences_embedded += len(sent_vecs)
                    served = getattr(embedder, "served", None)  # a CachedEmbedding's cache hits
                    if served:
                        report.sentences_cached += sum(
                            s in served for s in sentences[paper.paper_id][0]
                        )
            records = [_record(p, chunks, info, stored.get(p.paper_id)) for p, chunks in group]
            report.chunks_embedded += writer.write(
                records,
                {p.paper_id: list(zip(chunks, vectors[p.paper_id])) for p, chunks in group},
                sentences,
            )
            # the old text's chunks go once the new ones are written: a run stopped while embedding leaves
            # each paper whole, old or new (deleted first, an operator's stopped re-ingest had served
            # papers missing chunks)
            writer.delete_chunks(stale)
            report.chunks_removed += len(stale)
            for paper, _ in group:
                if paper.paper_id in stored:
                    report.papers_updated += 1
                else:
                    report.papers_added += 1
            done += sum(len(chunks) for _, chunks in group)
            if progress:
                progress(done, total)
    if plan.removals:
        # last: an edited abstract is a new paper id, and its old version goes once the new one is stored (an
        # own-corpus session's Ctrl-C while re-ingesting an edited file had left neither)
        report.chunks_removed += writer.delete_papers(plan.removals)
        report.papers_removed = len(plan.removals)
    report.seconds = time.perf_counter() - start
    return report
