"""Chunking abstracts: LlamaIndex's ``SentenceSplitter`` over paperchat's own sentences.

The splitter (``llama_index.core.node_parser.SentenceSplitter``) packs whole
sentences into chunks of at most ``size`` tokens with ``overlap`` tokens of
whole sentences carried over, counting tokens with the embedding model's own
WordPiece tokenizer, so a chunk never exceeds what the model reads (256
tokens for MiniLM). Its sentence boundaries come from
:func:`paperchat.core.sentences.split_sentences` (``chunking_tokenizer_fn``), the
same splitter that makes the sentence vectors, so every chunk is a run of
whole abstract sentences and its vector is exactly the pooled vectors of
those sentences (:mod:`paperchat.ingest.sentence_vectors`). A sentence longer
than a chunk is cut by the splitter's own fallbacks (clauses, then words).

Chunk ids are deterministic: ``<paper id>:<position>:<8 hex of the SHA-256
of the chunk text>``, so re-chunking unchanged text gives the same ids.

Defaults (``CHUNK_SIZE`` = 192, ``CHUNK_OVERLAP`` = 32 tokens) were picked by
measuring Recall@5 on ``eval/questions.jsonl`` (README, "Chunk settings").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from paperchat.core.sentences import split_sentences
from paperchat.core.text import short_hash

CHUNK_SIZE = 192
CHUNK_OVERLAP = 32


@dataclass(frozen=True)
class ChunkSettings:
    """Token-based chunking parameters (tokens of the embedding model's tokenizer)."""

    size: int = CHUNK_SIZE
    overlap: int = CHUNK_OVERLAP


@dataclass(frozen=True)
class ChunkText:
    """One chunk of a paper: its id, 0-based position and text."""

    chunk_id: str
    position: int
    text: str


def chunk_id(paper_id: str, position: int, text: str) -> str:
    """The deterministic id of a chunk: paper id, 0-based position and content hash."""
    return f"{paper_id}:{position}:{short_hash(text, 8)}"


def paper_of(chunk_id_: str) -> str:
    """The paper id in a chunk id (``paper id:position:hash``)."""
    return chunk_id_.rsplit(":", 2)[0]


def _sentences_with_spaces(text: str) -> list[str]:
    """:func:`split_sentences` with a space after every sentence but the last (the splitter joins them with "")."""
    sents = split_sentences(text)
    return [s + " " for s in sents[:-1]] + sents[-1:]


class Chunker:
    """Splits abstracts into :class:`ChunkText` s (see the module docstring).

    ``tokenize`` is ``str -> list`` (the embedding model's tokens of a text).
    """

    def __init__(self, settings: ChunkSettings, tokenize: Callable[[str], list]):
        from llama_index.core.node_parser import SentenceSplitter

        self.settings = settings
        self._splitter = SentenceSplitter(
            chunk_size=settings.size,
            chunk_overlap=settings.overlap,
            tokenizer=tokenize,
            chunking_tokenizer_fn=_sentences_with_spaces,
        )

    def split(self, paper_id: str, abstract: str) -> list[ChunkText]:
        """The chunks of one abstract, in order."""
        text = " ".join(abstract.split())  # one paragraph: sentences are the first split
        return [
            ChunkText(chunk_id(paper_id, i, t), i, t)
            for i, t in enumerate(self._splitter.split_text(text))
        ]
