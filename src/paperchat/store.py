"""The Chroma store: two collections, ingest with diffs, settings checks, locking.

Layout (embedded mode, ``<store>/`` is ``--store`` / ``PAPERCHAT_STORE`` / the
user data folder)::

    <store>/chroma/       Chroma's persistent database
    <store>/bm25/         the BM25 index (rebuilt whenever the chunks change)
    <store>/write.lock    held by the one process that writes
    <store>/open.lock     held briefly while Chroma opens (creates, migrates) the folder

Collections:

* ``paperchat_chunks``: one record per chunk (LlamaIndex ``TextNode`` written
  through ``ChromaVectorStore``), cosine space, metadata from
  :func:`paperchat.chunks.paper_metadata`.
* ``paperchat_papers``: one record per paper; the document is the full
  abstract, the embedding the normalised mean of its chunk embeddings, the
  metadata adds ``text_hash``, ``n_chunks`` and ``chunk_ids``.
* ``paperchat_sentences``: one record per paper holding the embeddings of its
  abstract's sentences (metadata ``vectors``, float16 base64; see
  :mod:`paperchat.sentence_vectors`), so answering embeds only the question.

The chunk collection's metadata records the embedding model id, its dimension
and the chunk settings; opening the store with other ones raises
:class:`PaperchatError` naming ``paperchat ingest --rebuild``.

Ingest is idempotent and resumable: chunk ids are deterministic, a paper is
embedded (its sentences, then its chunk vectors pooled from them) only when
its chunks or sentence vectors are missing, and a paper's record is written
after both, so a run killed part-way leaves a store that opens and a re-run
embeds only the papers it had not finished.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

from paperchat.chunks import ChunkSettings, paper_metadata
from paperchat.corpus import Paper
from paperchat.errors import PaperchatError
from paperchat.sentence_vectors import POOLING, decode_vectors, embed_papers, encode_vectors, pool_chunks
from paperchat.text import content_key, short_hash

CHUNKS = "paperchat_chunks"
PAPERS = "paperchat_papers"
SENTENCES = "paperchat_sentences"
SCHEMA_VERSION = 2
LOCK_TIMEOUT_S = 10.0
PAPER_BATCH = 64  # papers embedded and written together


@dataclass
class StoreInfo:
    """What the store was built with: embedding model id and dimension, chunk settings,
    and how chunk vectors are made (``vectors``: see :mod:`paperchat.sentence_vectors`)."""

    embed_model: str
    embed_dim: int
    chunk: ChunkSettings
    vectors: str = POOLING

    def as_metadata(self) -> dict[str, Any]:
        return {
            "embed_model": self.embed_model,
            "embed_dim": self.embed_dim,
            **self.chunk.as_metadata(),
            "chunk_vectors": self.vectors,
            "schema_version": SCHEMA_VERSION,
        }


@dataclass
class IngestReport:
    """Counts from one ingest run (papers and chunks), and its wall time in seconds."""

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
    lines_skipped: list[str] = field(default_factory=list)
    total_papers: int = 0
    total_chunks: int = 0
    seconds: float = 0.0

    @property
    def changed(self) -> bool:
        return bool(self.papers_added or self.papers_updated or self.papers_removed or self.chunks_embedded
                    or self.chunks_removed or self.sentences_embedded)


def _chroma_settings():
    from chromadb.config import Settings as ChromaSettings

    return ChromaSettings(anonymized_telemetry=False, allow_reset=True)


def _parse_url(url: str) -> tuple[str, int, bool]:
    from urllib.parse import urlparse

    parsed = urlparse(url if "://" in url else f"http://{url}")
    if parsed.scheme not in {"http", "https"} or not parsed.hostname:
        raise PaperchatError(f"--chroma-url {url!r} is not an http(s)://HOST:PORT address")
    ssl = parsed.scheme == "https"
    return parsed.hostname, parsed.port or (443 if ssl else 8000), ssl


class Store:
    """An open paperchat store (embedded Chroma folder, or a Chroma server).

    Construct with :func:`open_store`. ``local_dir`` holds the BM25 index and
    the write lock (in server mode a per-URL cache folder).
    """

    def __init__(self, client, local_dir: Path, remote: str | None = None):
        self.client = client
        self.local_dir = local_dir
        self.remote = remote
        self._chunks = None
        self._papers = None
        self._sentences = None

    # -- collections ------------------------------------------------------
    def _get(self, name: str):
        try:
            return self.client.get_collection(name)
        except Exception:  # chromadb raises NotFoundError / ValueError by version
            return None

    @property
    def chunks(self):
        """The chunk collection, or ``None`` when the store is empty."""
        if self._chunks is None:
            self._chunks = self._get(CHUNKS)
        return self._chunks

    @property
    def papers(self):
        """The paper collection, or ``None`` when the store is empty."""
        if self._papers is None:
            self._papers = self._get(PAPERS)
        return self._papers

    @property
    def sentences(self):
        """The sentence-vector collection (one record per paper), or ``None`` when the store is empty."""
        if self._sentences is None:
            self._sentences = self._get(SENTENCES)
        return self._sentences

    def sentence_vectors(self, ids: Iterable[str], dim: int) -> dict[str, np.ndarray]:
        """Stored sentence vectors by paper id: float32 ``(n_sentences, dim)``; missing papers are left out."""
        ids = list(dict.fromkeys(ids))
        if not ids or self.sentences is None:
            return {}
        got = self.sentences.get(ids=ids, include=["metadatas"])
        out = {}
        for pid, meta in zip(got["ids"], got["metadatas"]):
            try:
                out[pid] = decode_vectors(str((meta or {}).get("vectors", "")), dim)
            except ValueError:
                continue
        return out

    def info(self) -> StoreInfo | None:
        """The settings the store was built with, or ``None`` for an empty store."""
        if self.chunks is None:
            return None
        meta = self.chunks.metadata or {}
        return StoreInfo(
            embed_model=str(meta.get("embed_model", "?")),
            embed_dim=int(meta.get("embed_dim", 0)),
            chunk=ChunkSettings(int(meta.get("chunk_size", 0)), int(meta.get("chunk_overlap", 0))),
            vectors=str(meta.get("chunk_vectors", "direct")),
        )

    def revision(self) -> str:
        """An id that changes whenever chunks are added or removed."""
        if self.chunks is None:
            return "empty"
        return str((self.chunks.metadata or {}).get("revision", "0"))

    def check_compatible(self, wanted: StoreInfo) -> None:
        """Raise :class:`PaperchatError` when the store was built with other settings."""
        have = self.info()
        if have is None:
            return
        diffs = []
        if have.embed_model != wanted.embed_model:
            diffs.append(f"embedding model {have.embed_model} (asked for {wanted.embed_model})")
        if wanted.embed_dim and have.embed_dim and have.embed_dim != wanted.embed_dim:
            diffs.append(f"dimension {have.embed_dim} (asked for {wanted.embed_dim})")
        if have.chunk != wanted.chunk:
            diffs.append(
                f"chunks {have.chunk.size}/{have.chunk.overlap} tokens (asked for {wanted.chunk.size}/{wanted.chunk.overlap})"
            )
        choosable = bool(diffs)
        if have.vectors != wanted.vectors:
            diffs.append(f"chunk vectors made by '{have.vectors}' (this version makes them by '{wanted.vectors}')")
        if diffs:
            raise PaperchatError(
                f"the store at {self.where()} was built with " + "; ".join(diffs)
                + ". Run `paperchat ingest --rebuild` to rebuild it"
                + (" with the new settings, or use the old ones." if choosable else ".")
            )

    def where(self) -> str:
        """Where the store lives (folder or server URL), for messages."""
        return self.remote or str(self.local_dir)

    def count(self) -> tuple[int, int]:
        """``(papers, chunks)`` in the store."""
        papers = self.papers.count() if self.papers is not None else 0
        chunks = self.chunks.count() if self.chunks is not None else 0
        return papers, chunks

    def _create(self, info: StoreInfo) -> None:
        meta = {**info.as_metadata(), "revision": "0"}
        cfg = {"hnsw": {"space": "cosine"}}
        self._chunks = self.client.get_or_create_collection(CHUNKS, metadata=meta, configuration=cfg, embedding_function=None)
        self._papers = self.client.get_or_create_collection(
            PAPERS, metadata=info.as_metadata(), configuration=cfg, embedding_function=None
        )
        self._sentences = self.client.get_or_create_collection(
            SENTENCES, metadata=info.as_metadata(), configuration=cfg, embedding_function=None
        )

    def drop(self) -> None:
        """Delete the collections and the BM25 index (``ingest --rebuild``)."""
        for name in (CHUNKS, PAPERS, SENTENCES):
            try:
                self.client.delete_collection(name)
            except Exception:
                pass
        self._chunks = self._papers = self._sentences = None
        import shutil

        shutil.rmtree(self.local_dir / "bm25", ignore_errors=True)

    def _bump_revision(self) -> None:
        meta = dict(self.chunks.metadata or {})
        meta["revision"] = f"{time.time_ns():x}"
        self.chunks.modify(metadata=meta)

    # -- reading ----------------------------------------------------------
    def all_chunks(self) -> tuple[list[str], list[str], list[dict[str, Any]]]:
        """``(ids, texts, metadatas)`` of every chunk (paged under Chroma's batch limit)."""
        ids: list[str] = []
        docs: list[str] = []
        metas: list[dict[str, Any]] = []
        if self.chunks is None:
            return ids, docs, metas
        total = self.chunks.count()
        page = 5000
        for offset in range(0, total, page):
            got = self.chunks.get(include=["documents", "metadatas"], limit=page, offset=offset)
            ids += got["ids"]
            docs += got["documents"]
            metas += got["metadatas"]
        return ids, docs, metas

    def paper_records(self, ids: Iterable[str] | None = None) -> dict[str, dict[str, Any]]:
        """Paper records by id: metadata plus ``abstract``. All papers when ``ids`` is ``None``."""
        if self.papers is None:
            return {}
        out: dict[str, dict[str, Any]] = {}
        if ids is not None:
            ids = list(dict.fromkeys(ids))
            if not ids:
                return out
            got = self.papers.get(ids=ids, include=["documents", "metadatas"])
            batches = [got]
        else:
            total = self.papers.count()
            batches = [
                self.papers.get(include=["documents", "metadatas"], limit=5000, offset=o) for o in range(0, total, 5000)
            ]
        for got in batches:
            for pid, doc, meta in zip(got["ids"], got["documents"], got["metadatas"]):
                out[pid] = {**(meta or {}), "abstract": doc, "paper_id": pid}
        return out

    # -- writing ----------------------------------------------------------
    def lock(self):
        """The store's write lock (``filelock.FileLock``); waits up to 10 s, then fails clearly."""
        from filelock import FileLock, Timeout

        lock = FileLock(str(self.local_dir / "write.lock"), timeout=LOCK_TIMEOUT_S)

        class _Guard:
            def __enter__(self_inner):
                try:
                    lock.acquire()
                except PermissionError:
                    raise PaperchatError(f"the store at {self.where()} is read-only here; it can be read but not changed") from None
                except Timeout:
                    raise PaperchatError(
                        f"another paperchat process is writing the store at {self.where()}; "
                        "try again when it has finished"
                    ) from None
                return lock

            def __exit__(self_inner, *exc):
                lock.release()

        return _Guard()

    def ingest(
        self,
        papers: list[Paper],
        files: list[str],
        info: StoreInfo,
        chunker_factory: Callable[[], Any],
        embed: Callable[[list[str]], np.ndarray],
        rebuild: bool = False,
        progress: Callable[[int, int], None] | None = None,
        on_error: str = "stop",
        count_tokens: Callable[[str], int] | None = None,
    ) -> IngestReport:
        """Bring the store in line with ``papers`` from the corpus files ``files`` (file names).

        * New or changed papers are chunked, their sentences embedded
          (``embed(texts) -> (n, dim)`` unit-norm float32), their chunk vectors
          pooled from the sentence vectors, and missing chunks written in
          batches below Chroma's maximum batch size.
        * Papers stored from one of ``files`` that the files no longer hold are removed;
          papers from other files stay.
        * Unchanged papers are not embedded; changed metadata (title, label,
          url, position) is updated in place.
        * ``rebuild`` drops everything first, once one text has embedded
          (a failing embedder leaves the store as it was; an interrupted
          rebuild leaves the papers written so far, and a re-run completes it).

        ``progress(done_chunks, total_chunks)`` is called as chunks are embedded;
        ``count_tokens`` weights sentences when pooling chunk vectors
        (:mod:`paperchat.sentence_vectors`).
        An id that another abstract already uses (in these files, or stored from
        another file) is an error before anything is written (``on_error="stop"``)
        or is skipped and reported in ``lines_skipped`` (``"skip"``).
        Raises :class:`PaperchatError` when the store is locked, not writable or
        built with other settings.
        """
        start = time.perf_counter()
        report = IngestReport(files=list(files), papers_seen=len(papers))
        with self.lock():
            if rebuild:
                # The embedder must work before anything is dropped (an unreachable
                # embeddings endpoint would otherwise leave an empty store).
                embed(["paperchat rebuild check"])
                self.drop()
            self.check_compatible(info)
            if self.chunks is None or self.papers is None or self.sentences is None:
                self._create(info)
            stored = self.paper_records_meta()

            fileset = set(files)
            incoming = self._unique_papers(papers, stored, fileset, on_error, report)

            # Papers of these files that the files no longer hold.
            gone = [pid for pid, m in stored.items() if m.get("source_path") in fileset and pid not in incoming]
            if gone:
                report.chunks_removed += self._delete_papers(gone)
                report.papers_removed = len(gone)
                for pid in gone:
                    stored.pop(pid, None)

            # Near-identical copies under another id (same content key) merge into the first copy.
            merges = self._find_duplicates(incoming, stored)
            report.duplicates_merged = len(merges)

            to_chunk: list[Paper] = []
            meta_updates: list[tuple[str, dict[str, Any]]] = []
            for pid, paper in incoming.items():
                old = stored.get(pid)
                if old is None or old.get("text_hash") != short_hash(paper.abstract) or old.get("chunking") != _chunking_key(info):
                    to_chunk.append(paper)
                    continue
                wanted = merge_metadata(old, paper_metadata(paper))
                if any(str(old.get(k, "")) != str(v) for k, v in wanted.items()):
                    meta_updates.append((pid, wanted))
                else:
                    report.papers_unchanged += 1
            for dup, owner in merges:
                if owner in incoming and owner not in stored:
                    _absorb(incoming[owner], dup)
                    continue
                base = dict(stored[owner])
                for entry in meta_updates:
                    if entry[0] == owner:
                        base.update(entry[1])
                wanted = merge_metadata(base, paper_metadata(dup), fill_only=True)
                aliases = sorted(set(str(base.get("aliases", "")).split()) | {dup.paper_id})
                wanted["aliases"] = " ".join(aliases)
                if any(str(base.get(k, "")) != str(v) for k, v in wanted.items()):
                    meta_updates = [e for e in meta_updates if e[0] != owner] + [(owner, {**base, **wanted})]
            if meta_updates:
                self._update_metadata(meta_updates)
                report.papers_updated += len({pid for pid, _ in meta_updates})

            if to_chunk:
                chunker = chunker_factory()
                self._write_papers(to_chunk, stored, chunker, embed, info, report, progress, count_tokens)
            if report.changed:
                self._bump_revision()
            report.total_papers, report.total_chunks = self.count()
        report.seconds = time.perf_counter() - start
        return report

    def paper_records_meta(self) -> dict[str, dict[str, Any]]:
        """Metadata of every paper record, by paper id (no abstracts)."""
        if self.papers is None:
            return {}
        out = {}
        total = self.papers.count()
        for offset in range(0, total, 5000):
            got = self.papers.get(include=["metadatas"], limit=5000, offset=offset)
            for pid, meta in zip(got["ids"], got["metadatas"]):
                out[pid] = meta or {}
        return out

    def _delete_papers(self, paper_ids: list[str]) -> int:
        removed = 0
        for start in range(0, len(paper_ids), 500):
            batch = paper_ids[start : start + 500]
            got = self.chunks.get(where={"paper_id": {"$in": batch}}, include=[])
            if got["ids"]:
                self.chunks.delete(ids=got["ids"])
                removed += len(got["ids"])
            self.papers.delete(ids=batch)
            if self.sentences is not None:
                self.sentences.delete(ids=batch)
        return removed

    def _unique_papers(self, papers, stored, fileset, on_error, report) -> dict[str, Paper]:
        """Incoming papers by id; the same abstract twice is kept once, two abstracts under one id conflict."""
        incoming: dict[str, Paper] = {}
        conflicts: list[str] = []
        for paper in papers:
            key = content_key(paper.abstract)
            prev = incoming.get(paper.paper_id)
            old = stored.get(paper.paper_id)
            if prev is not None:
                if content_key(prev.abstract) == key:
                    report.duplicates_skipped += 1
                else:
                    conflicts.append(f"{paper.source_path} #{paper.source_index}: id {paper.paper_id!r} is also used by "
                                     f"{prev.source_path} #{prev.source_index} for another abstract")
                continue
            if old is not None and old.get("source_path") not in fileset:
                if old.get("content_key") and old.get("content_key") != key:
                    conflicts.append(f"{paper.source_path} #{paper.source_index}: id {paper.paper_id!r} is already used by "
                                     f"{old.get('source_path')} #{old.get('source_index')} for another abstract")
                else:
                    report.duplicates_skipped += 1  # the same paper, stored from another file: keep that copy
                continue
            incoming[paper.paper_id] = paper
        if conflicts and on_error != "skip":
            more = f" (and {len(conflicts) - 1} more)" if len(conflicts) > 1 else ""
            raise PaperchatError(f"{conflicts[0]}{more}; give each paper its own id, or pass --on-error skip")
        report.lines_skipped.extend(conflicts)
        return incoming

    def _find_duplicates(self, incoming: dict[str, Paper], stored: dict[str, dict[str, Any]]) -> list[tuple[Paper, str]]:
        """Remove from ``incoming`` the papers whose content key another paper already has.

        Returns ``(duplicate, owner id)`` pairs; the owner is the stored copy, or
        the first incoming one. Detection: :func:`paperchat.text.content_key`.
        """
        owners = {str(m.get("content_key")): pid for pid, m in stored.items() if m.get("content_key")}
        merges = []
        for pid, paper in list(incoming.items()):
            key = content_key(paper.abstract)
            owner = owners.setdefault(key, pid)
            if owner != pid and pid not in stored:
                merges.append((paper, owner))
                del incoming[pid]
        return merges

    def _update_metadata(self, updates: list[tuple[str, dict[str, Any]]]) -> None:
        """Write new metadata for papers (their chunks get the paper-level fields), embedding nothing."""
        for paper_id, meta in updates:
            chunk_meta = {k: v for k, v in meta.items() if k in _CHUNK_FIELDS}
            got = self.chunks.get(where={"paper_id": paper_id}, include=["metadatas"])
            if got["ids"]:
                self.chunks.update(ids=got["ids"], metadatas=[{**m, **chunk_meta} for m in got["metadatas"]])
            old = self.papers.get(ids=[paper_id], include=["metadatas"])["metadatas"][0] or {}
            self.papers.update(ids=[paper_id], metadatas=[{**old, **meta}])

    def _write_papers(self, papers, stored, chunker, embed, info, report, progress, count_tokens=None) -> None:
        from llama_index.vector_stores.chroma import ChromaVectorStore

        vector_store = ChromaVectorStore(chroma_collection=self.chunks)
        max_batch = max(1, min(int(self.client.get_max_batch_size()), 5000))
        plan = [(paper, chunker.split(paper)) for paper in papers]
        total = sum(len(nodes) for _, nodes in plan)
        done = 0
        if progress:
            progress(0, total)
        for start in range(0, len(plan), PAPER_BATCH):
            group = plan[start : start + PAPER_BATCH]
            ids = [p.paper_id for p, _ in group]
            have = set(self.chunks.get(where={"paper_id": {"$in": ids}}, include=[])["ids"])
            wanted = {n.node_id for _, nodes in group for n in nodes}
            stale = [cid for cid in have if cid not in wanted]
            if stale:
                self.chunks.delete(ids=stale)
                report.chunks_removed += len(stale)
            chunk_vecs = self._reusable_vectors(group, have, info, count_tokens)
            todo = [(paper, nodes) for paper, nodes in group if paper.paper_id not in chunk_vecs]
            if todo:
                made = embed_papers([(paper.abstract, [n.get_content() for n in nodes]) for paper, nodes in todo], embed,
                                    count_tokens)
                sent_ids, sent_vecs, sent_meta = [], [], []
                for (paper, nodes), (sentences, chunks) in zip(todo, made):
                    chunk_vecs[paper.paper_id] = chunks
                    sent_ids.append(paper.paper_id)
                    sent_vecs.append(_mean_unit(chunks).tolist())
                    sent_meta.append({"vectors": encode_vectors(sentences), "n_sentences": len(sentences),
                                      "text_hash": short_hash(paper.abstract)})
                    report.sentences_embedded += len(sentences)
                missing = []
                for paper, nodes in todo:
                    for node, vec in zip(nodes, chunk_vecs[paper.paper_id]):
                        if node.node_id not in have:
                            node.embedding = vec.tolist()
                            missing.append(node)
                for b in range(0, len(missing), max_batch):
                    vector_store.add(missing[b : b + max_batch])
                report.chunks_embedded += len(missing)
                self.sentences.upsert(ids=sent_ids, embeddings=sent_vecs, metadatas=sent_meta)
            # Paper records last: a paper record means all its chunks are stored.
            rec_ids, rec_docs, rec_vecs, rec_meta = [], [], [], []
            for paper, nodes in group:
                rec_ids.append(paper.paper_id)
                rec_docs.append(paper.abstract)
                rec_vecs.append(_mean_unit(chunk_vecs[paper.paper_id]).tolist())
                rec_meta.append(
                    {
                        **paper_metadata(paper),
                        "content_key": content_key(paper.abstract),
                        "aliases": " ".join(paper.extra.get("aliases", [])),
                        "text_hash": short_hash(paper.abstract),
                        "chunking": _chunking_key(info),
                        "n_chunks": len(nodes),
                        "chunk_ids": " ".join(n.node_id for n in nodes),
                    }
                )
                if paper.paper_id in stored:
                    report.papers_updated += 1
                else:
                    report.papers_added += 1
            self.papers.upsert(ids=rec_ids, documents=rec_docs, embeddings=rec_vecs, metadatas=rec_meta)
            done += sum(len(nodes) for _, nodes in group)
            if progress:
                progress(done, total)


    def _reusable_vectors(self, group, have: set[str], info: StoreInfo, count_tokens=None) -> dict[str, np.ndarray]:
        """Chunk vectors of papers whose chunks and sentence vectors are all stored already (a resumed run).

        Returns ``{paper_id: (n_chunks, dim)}``; the other papers are embedded.
        """
        complete = [(p, nodes) for p, nodes in group if all(n.node_id in have for n in nodes)]
        if not complete or self.sentences is None:
            return {}
        got = self.sentences.get(ids=[p.paper_id for p, _ in complete], include=["metadatas"])
        meta = dict(zip(got["ids"], got["metadatas"]))
        out = {}
        for paper, nodes in complete:
            m = meta.get(paper.paper_id) or {}
            if m.get("text_hash") != short_hash(paper.abstract):
                continue
            try:
                vecs = pool_chunks(paper.abstract, decode_vectors(str(m.get("vectors", "")), info.embed_dim),
                                   [n.get_content() for n in nodes], count_tokens)
            except ValueError:
                continue
            if vecs is not None:
                out[paper.paper_id] = vecs
        return out


def _mean_unit(vectors: np.ndarray) -> np.ndarray:
    """The normalised mean of unit vectors ``(n, dim)`` → ``(dim,)``."""
    mean = np.asarray(vectors, dtype=np.float32).mean(axis=0)
    return mean / max(float(np.linalg.norm(mean)), 1e-12)


_CHUNK_FIELDS = ("paper_id", "source_path", "source_index", "title", "label", "url", "authors", "openreview_id")
_FILLABLE = ("title", "url", "authors", "openreview_id")


def merge_metadata(old: dict[str, Any], new: dict[str, Any], fill_only: bool = False) -> dict[str, Any]:
    """The metadata a paper should have after ingesting ``new`` over ``old``.

    Titles, urls, authors and OpenReview ids are sticky: an empty new value
    keeps the old one (so a title merged in from a duplicate survives
    re-ingesting the title-less copy). With ``fill_only`` (merging a duplicate)
    only empty fields are filled, and the origin stays the old one. The label
    follows the title when there is one.
    """
    if fill_only:
        out = {k: (old.get(k) or new.get(k) or "") for k in _FILLABLE}
    else:
        out = dict(new)
        for key in _FILLABLE:
            out[key] = new.get(key) or old.get(key) or ""
    out["label"] = out["title"] or (old.get("label") if fill_only else new.get("label")) or ""
    return out


def _absorb(owner: Paper, dup: Paper) -> None:
    """Fill an incoming paper's missing title, authors and url from its duplicate; record the alias."""
    if not owner.title and dup.title:
        owner.title = owner.label = dup.title
    owner.authors = owner.authors or dup.authors
    owner.url = owner.url or dup.url
    owner.extra.setdefault("aliases", []).append(dup.paper_id)


def _chunking_key(info: StoreInfo) -> str:
    return f"{info.embed_model}/{info.chunk.size}/{info.chunk.overlap}/{info.vectors}"


def open_store(store_dir: Path | None = None, chroma_url: str | None = None, create: bool = True) -> Store:
    """Open the store: embedded Chroma in ``store_dir``, or the server at ``chroma_url``.

    Raises :class:`PaperchatError` when the folder cannot be created or written
    (embedded) or the server does not answer (server mode).
    """
    import chromadb

    if chroma_url:
        host, port, ssl = _parse_url(chroma_url)
        import platformdirs

        local = Path(platformdirs.user_cache_dir("paperchat", appauthor=False)) / "servers" / short_hash(chroma_url, 12)
        local.mkdir(parents=True, exist_ok=True)
        try:
            client = chromadb.HttpClient(host=host, port=port, ssl=ssl, settings=_chroma_settings())
            client.heartbeat()
        except Exception as exc:
            reason = (str(exc).splitlines() or [type(exc).__name__])[0][:160]
            raise PaperchatError(f"cannot reach the Chroma server at {chroma_url}: {reason}") from None
        return Store(client, local, remote=chroma_url)

    assert store_dir is not None
    store_dir = Path(store_dir).expanduser()
    if store_dir.exists() and not store_dir.is_dir():
        raise PaperchatError(f"store path {store_dir} exists and is not a folder")
    if not store_dir.exists():
        if not create:
            raise PaperchatError(f"no store at {store_dir}; run `paperchat ingest` first")
        try:
            store_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise PaperchatError(f"cannot create the store folder {store_dir} ({exc.strerror})") from None
    if create and not any(store_dir.iterdir()) and not os.access(store_dir, os.W_OK | os.X_OK):
        raise PaperchatError(f"the store folder {store_dir} is not writable")
    try:
        with _open_guard(store_dir):
            client = chromadb.PersistentClient(path=str(store_dir / "chroma"), settings=_chroma_settings())
    except PaperchatError:
        raise
    except Exception as exc:
        raise PaperchatError(f"cannot open the Chroma store in {store_dir}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
    return Store(client, store_dir)


def _open_guard(store_dir: Path):
    """Serialize opening (and so creating and migrating) the embedded Chroma folder.

    Two processes that open a new store at once would both run Chroma's schema
    migrations and one would fail ("table collections already exists"). The
    guard is a short ``filelock`` on ``<store>/open.lock``, separate from the
    write lock so a long ingest does not block readers. A read-only folder is
    opened without it.
    """
    import contextlib

    from filelock import FileLock, Timeout

    if not os.access(store_dir, os.W_OK | os.X_OK):
        return contextlib.nullcontext()
    lock = FileLock(str(store_dir / "open.lock"), timeout=LOCK_TIMEOUT_S * 3)

    @contextlib.contextmanager
    def guard():
        try:
            lock.acquire()
        except Timeout:
            raise PaperchatError(f"another paperchat process is opening the store at {store_dir}; try again") from None
        try:
            yield
        finally:
            lock.release()

    return guard()


def write_json_atomic(path: Path, obj: Any) -> None:
    """Write ``obj`` as JSON to ``path`` via a temporary file and rename."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(obj), encoding="utf-8")
    os.replace(tmp, path)
