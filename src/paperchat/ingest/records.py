"""What the store keeps of a paper (:class:`PaperRecord`) and what a store is built with (:class:`StoreInfo`).

A record is written at ingest and read by every later stage; its
:meth:`PaperRecord.to_meta` form is flat (strings and integers only), as
Chroma metadata must be. Lists are joined: authors with ``"; "``, aliases and
chunk ids with spaces.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from paperchat.core.contract import display_name
from paperchat.ingest.chunking import ChunkSettings
from paperchat.ingest.corpus import Paper
from paperchat.ingest.venue import presentation, publication

#: Bumped when stored data changes form; a store of another version asks for ``ingest --rebuild``.
SCHEMA_VERSION = 3
#: How chunk vectors are made (:mod:`paperchat.ingest.sentence_vectors`).
POOLING = "sentence-mean-tokens"

#: Fields a paper's chunks carry too (so a chunk hit names its paper without a second read).
CHUNK_FIELDS = (
    "paper_id",
    "source_path",
    "source_index",
    "title",
    "label",
    "url",
    "authors",
    "openreview_id",
)


@dataclass
class PaperRecord:
    """One stored paper: identity, origin, metadata, content keys and its chunk ids.

    ``source_path`` / ``source_index`` are the corpus file's name and the
    paper's 1-based position in it, ``source_file`` the file's resolved path
    (empty in records written before paperchat recorded it: such a record is
    never removed by re-ingesting a file of the same name); ``venue`` and ``year`` where it appeared
    (``""`` and ``None`` when unknown; :mod:`paperchat.ingest.venue`); ``content_key`` is
    :func:`paperchat.core.text.content_key` of the abstract (near-duplicate
    detection), ``text_hash`` a hash of the exact abstract, ``chunking`` the
    settings the chunks were made with, ``aliases`` the ids of merged
    near-duplicate copies, ``also_in`` the resolved paths of other corpus files
    that hold the same abstract (a copy merged or skipped from them): the paper
    stays stored while any of them still does (:mod:`paperchat.ingest.plan`); ``presentation`` how it was
    presented (``"oral"``, ``"spotlight"``, ``"poster"``; ``""`` when unknown:
    :func:`paperchat.ingest.venue.presentation`).
    """

    paper_id: str
    abstract: str = ""
    title: str = ""
    label: str = ""
    url: str = ""
    authors: list[str] = field(default_factory=list)
    source_path: str = ""
    source_index: int = 0
    openreview_id: str = ""
    aliases: list[str] = field(default_factory=list)
    content_key: str = ""
    text_hash: str = ""
    chunking: str = ""
    chunk_ids: list[str] = field(default_factory=list)
    venue: str = ""
    year: int | None = None
    source_file: str = ""
    also_in: list[str] = field(default_factory=list)
    presentation: str = ""

    @property
    def full_text(self) -> str:
        """The title and the abstract, one line break between them (what name and term checks read)."""
        return f"{self.title}\n{self.abstract}"

    @property
    def appeared(self) -> str:
        """Where and when the paper appeared, as known: "ICML 2025", "ICML", "2025", or ``""``."""
        return " ".join(x for x in (self.venue, str(self.year) if self.year else "") if x)

    @property
    def name(self) -> str:
        """The title, else the label, else the paper id."""
        return display_name(self.title, self.label, self.paper_id)

    @classmethod
    def from_paper(cls, paper: Paper, **fields_: Any) -> PaperRecord:
        """The record of a loaded paper (``fields_`` set the content keys and chunk ids)."""
        venue, year = publication({**paper.extra, "url": paper.url}, paper.source_path)
        return cls(
            paper.paper_id,
            paper.abstract,
            paper.title,
            paper.label,
            paper.url,
            list(paper.authors),
            paper.source_path,
            paper.source_index,
            str(paper.extra.get("openreview_id", "") or ""),
            list(paper.extra.get("aliases", [])),
            venue=venue,
            year=year or None,
            source_file=paper.source_file,
            also_in=sorted(set(paper.extra.get("also_in", [])) - {paper.source_file}),
            presentation=presentation(paper.extra),
            **fields_,
        )

    def chunk_meta(self) -> dict[str, str | int]:
        """The flat metadata each of the paper's chunks carries (:data:`CHUNK_FIELDS`)."""
        meta = self.to_meta()
        return {k: meta[k] for k in CHUNK_FIELDS}

    def to_meta(self) -> dict[str, str | int]:
        """The flat (Chroma-safe) metadata of the paper record."""
        return {
            "paper_id": self.paper_id,
            "source_path": self.source_path,
            "source_index": int(self.source_index),
            "source_file": self.source_file,
            "title": self.title,
            "label": self.label,
            "url": self.url,
            "authors": "; ".join(self.authors),
            "openreview_id": self.openreview_id,
            "content_key": self.content_key,
            "aliases": " ".join(self.aliases),
            "text_hash": self.text_hash,
            "chunking": self.chunking,
            "n_chunks": len(self.chunk_ids),
            "chunk_ids": " ".join(self.chunk_ids),
            "venue": self.venue,
            "year": int(self.year or 0),  # Chroma metadata holds no null: 0 is unknown
            "also_in": "\n".join(self.also_in),
            "presentation": self.presentation,
        }

    @classmethod
    def from_meta(
        cls, paper_id: str, meta: dict[str, Any] | None, abstract: str = ""
    ) -> PaperRecord:
        """The inverse of :meth:`to_meta`."""
        m = meta or {}
        return cls(
            paper_id=paper_id,
            abstract=abstract or "",
            title=str(m.get("title") or ""),
            label=str(m.get("label") or ""),
            url=str(m.get("url") or ""),
            authors=[a for a in str(m.get("authors") or "").split("; ") if a],
            source_path=str(m.get("source_path") or ""),
            source_index=int(m.get("source_index") or 0),
            openreview_id=str(m.get("openreview_id") or ""),
            aliases=str(m.get("aliases") or "").split(),
            content_key=str(m.get("content_key") or ""),
            text_hash=str(m.get("text_hash") or ""),
            chunking=str(m.get("chunking") or ""),
            chunk_ids=str(m.get("chunk_ids") or "").split(),
            venue=str(m.get("venue") or ""),
            year=int(m.get("year") or 0) or None,
            source_file=str(m.get("source_file") or ""),
            also_in=[f for f in str(m.get("also_in") or "").split("\n") if f],
            presentation=str(m.get("presentation") or ""),
        )


@dataclass(frozen=True)
class StoreInfo:
    """What a store is built with: embedding model id and dimension, chunk settings, vector pooling, schema."""

    embed_model: str
    embed_dim: int
    chunk: ChunkSettings
    vectors: str = POOLING
    schema: int = SCHEMA_VERSION

    @property
    def chunking_key(self) -> str:
        """The key a paper record keeps of how its chunks were made (a change re-chunks the paper)."""
        return f"{self.embed_model}/{self.chunk.size}/{self.chunk.overlap}/{self.vectors}/{self.schema}"

    def as_metadata(self) -> dict[str, Any]:
        """The settings as Chroma collection metadata."""
        return {
            "embed_model": self.embed_model,
            "embed_dim": self.embed_dim,
            "chunk_size": self.chunk.size,
            "chunk_overlap": self.chunk.overlap,
            "chunk_vectors": self.vectors,
            "schema_version": self.schema,
        }

    @classmethod
    def from_metadata(cls, meta: dict[str, Any]) -> StoreInfo:
        return cls(
            str(meta.get("embed_model", "?")),
            int(meta.get("embed_dim", 0) or 0),
            ChunkSettings(
                int(meta.get("chunk_size", 0) or 0), int(meta.get("chunk_overlap", 0) or 0)
            ),
            str(meta.get("chunk_vectors", "direct")),
            int(meta.get("schema_version", 0) or 0),
        )

    def differences(self, wanted: StoreInfo) -> tuple[list[str], bool]:
        """How this store differs from ``wanted``: ``(descriptions, the user can choose the old settings)``."""
        diffs = []
        if self.embed_model != wanted.embed_model:
            diffs.append(f"embedding model {self.embed_model} (asked for {wanted.embed_model})")
        if wanted.embed_dim and self.embed_dim and self.embed_dim != wanted.embed_dim:
            diffs.append(f"dimension {self.embed_dim} (asked for {wanted.embed_dim})")
        if self.chunk != wanted.chunk:
            diffs.append(
                f"chunks {self.chunk.size}/{self.chunk.overlap} tokens "
                f"(asked for {wanted.chunk.size}/{wanted.chunk.overlap})"
            )
        choosable = bool(diffs)
        if self.vectors != wanted.vectors:
            diffs.append(
                f"chunk vectors made by '{self.vectors}' (this version makes them by '{wanted.vectors}')"
            )
        elif self.schema != wanted.schema:
            diffs.append(
                f"an earlier paperchat (store format {self.schema}; this version uses {wanted.schema})"
            )
        return diffs, choosable


def id_in_any_case(wanted: str, ids: Iterable[str]) -> str | None:
    """The one id of ``ids`` that is ``wanted`` in another case ("PO9bBEPNWY" for "PO9bBEPNWy"), or ``None``
    when no id or several are (an id typed in the wrong case names its paper only when it can name one)."""
    same = [pid for pid in ids if pid.lower() == wanted.lower()]
    return same[0] if len(same) == 1 else None


def resolve_id(wanted: str, ids: Collection[str], aliases: Mapping[str, str]) -> str | None:
    """The stored id ``wanted`` names: itself, the kept paper of a merged duplicate's id (``aliases``: merged
    id -> kept id), or either typed in another case when only one id is (:func:`id_in_any_case`);
    ``None`` when it names none."""
    if wanted in ids:
        return wanted
    if wanted in aliases:
        return aliases[wanted]
    same = id_in_any_case(wanted, ids)
    alias = id_in_any_case(wanted, aliases) if same is None else None
    return same or (aliases[alias] if alias else None)
