"""Chunking papers into LlamaIndex nodes.

Abstracts are split with LlamaIndex's ``SentenceSplitter`` (token-based,
sentence-aware) using the embedding model's own WordPiece tokenizer as the
token counter, so a chunk never exceeds what the model reads (256 tokens for
MiniLM). Chunk ids are deterministic: ``<paper id>:<position>:<8 hex of the
SHA-256 of the chunk text>``, so re-chunking unchanged text gives the same ids.

Defaults (``CHUNK_SIZE`` = 192, ``CHUNK_OVERLAP`` = 32 tokens) were picked by
measuring Recall@5 on ``eval/questions.jsonl`` (see README, "Chunk settings").
"""

from __future__ import annotations

from dataclasses import dataclass

from paperchat.corpus import Paper
from paperchat.text import short_hash

CHUNK_SIZE = 192
CHUNK_OVERLAP = 32


@dataclass(frozen=True)
class ChunkSettings:
    """Token-based chunking parameters (tokens of the embedding model's tokenizer)."""

    size: int = CHUNK_SIZE
    overlap: int = CHUNK_OVERLAP

    def as_metadata(self) -> dict[str, int]:
        """The settings as Chroma collection metadata."""
        return {"chunk_size": self.size, "chunk_overlap": self.overlap}


def chunk_id(paper_id: str, position: int, text: str) -> str:
    """The deterministic id of a chunk: paper id, 0-based position and content hash."""
    return f"{paper_id}:{position}:{short_hash(text, 8)}"


def paper_metadata(paper: Paper) -> dict[str, str | int]:
    """The flat (Chroma-safe) metadata every chunk of ``paper`` carries."""
    return {
        "paper_id": paper.paper_id,
        "source_path": paper.source_path,
        "source_index": paper.source_index,
        "title": paper.title,
        "label": paper.label,
        "url": paper.url,
        "authors": "; ".join(paper.authors),
        "openreview_id": str(paper.extra.get("openreview_id", "") or ""),
    }


class Chunker:
    """Splits papers into ``llama_index.core.schema.TextNode`` objects.

    ``count_tokens`` is a callable ``str -> int`` (the embedding model's
    tokenizer); LlamaIndex's splitter takes a tokenizer returning a token
    list, which is adapted here.
    """

    def __init__(self, settings: ChunkSettings, tokenize):
        from llama_index.core.node_parser import SentenceSplitter

        self.settings = settings
        self._splitter = SentenceSplitter(
            chunk_size=settings.size,
            chunk_overlap=settings.overlap,
            tokenizer=tokenize,
        )

    def split(self, paper: Paper) -> list:
        """The nodes of one paper, in order; each with id, text and :func:`paper_metadata`."""
        from llama_index.core.schema import NodeRelationship, RelatedNodeInfo, TextNode

        meta = paper_metadata(paper)
        nodes = []
        for position, text in enumerate(self._splitter.split_text(paper.abstract)):
            node = TextNode(
                id_=chunk_id(paper.paper_id, position, text),
                text=text,
                metadata={**meta, "chunk_index": position},
            )
            node.relationships[NodeRelationship.SOURCE] = RelatedNodeInfo(node_id=paper.paper_id)
            nodes.append(node)
        return nodes
