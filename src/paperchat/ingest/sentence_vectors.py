"""Sentence embeddings made at ingest, and chunk vectors pooled from them.

Every abstract is split into sentences (:func:`paperchat.core.sentences.split_sentences`)
and each sentence is embedded once, at ingest. Two things come out of that one
pass:

* the **sentence vectors**, stored per paper, which the extractive answerer and
  the support checker score against the question, so answering embeds only the
  question (a warm offline ``ask`` at 2.7k papers went from about 260 ms to
  the retrieval time plus a few ms; README, "Benchmark");
* the **chunk vectors**: a chunk's vector is the normalised mean of the
  vectors of the sentences it holds, each weighted by its token count. That
  is the model's own mean pooling over the chunk's tokens (sentence-transformers,
  Reimers & Gurevych 2019) with each token's context limited to its sentence.
  A chunk sentence that is not one of the abstract's sentences (a sentence cut
  by the token splitter) is embedded on its own.

Embedding the sentences costs about what embedding the chunks directly did
(sentences are shorter, so attention is cheaper). On the eval sets, hybrid
retrieval with these vectors matched direct chunk embeddings on the bundled
corpus (R@1 0.873, MRR@10 0.983 against 0.985) and did better at 2,740 papers
(R@1 0.851, R@5 0.979 against 0.840 and 0.968); an unweighted mean did worse
there (R@1 0.830, R@5 0.957). README, "Sentence vectors".

The store keeps one record per sentence (:mod:`paperchat.store.chroma`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from paperchat.core.sentences import split_sentences

POOLING = "sentence-mean-tokens"  # recorded in the store as ``chunk_vectors``
#: Texts embedded per call when progress is asked for (a very long abstract), with progress after each call.
EMBED_SLICE = 128


def _norm(text: str) -> str:
    return " ".join(text.split())


def _unit(vec: np.ndarray) -> np.ndarray:
    return vec / max(float(np.linalg.norm(vec)), 1e-12)


def _pool(
    vectors: np.ndarray, texts: Sequence[str], count_tokens: Callable[[str], int] | None
) -> np.ndarray:
    """Token-count-weighted mean of ``vectors`` (one row per text in ``texts``), normalised."""
    if count_tokens is None:
        weights = np.ones(len(texts), dtype=np.float32)
    else:
        weights = np.array([max(1, count_tokens(t)) for t in texts], dtype=np.float32)
    return _unit((vectors * weights[:, None]).sum(axis=0))


def embed_papers(
    items: Sequence[tuple[str, Sequence[str]]],
    embed: Callable[[list[str]], np.ndarray],
    count_tokens: Callable[[str], int] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Sentence vectors and pooled chunk vectors for ``(abstract, chunk texts)`` pairs.

    ``embed(texts) -> (n, dim)`` unit-norm float32, called once for all the
    sentences of all the papers (plus chunk sentences that match no abstract
    sentence); ``count_tokens(text) -> int`` gives the pooling weights (equal
    weights when ``None``). With ``on_progress``, the texts go to ``embed``
    :data:`EMBED_SLICE` at a time and ``on_progress(texts embedded, texts)`` is
    called after each slice but the last; without, in one call. Returns, per paper, ``(sentence_vectors (n_sentences, dim),
    chunk_vectors (n_chunks, dim))``; rows are unit-norm float32.
    """
    texts: list[str] = []
    plans = []
    for abstract, chunk_texts in items:
        sents = split_sentences(abstract)
        first = len(texts)
        texts.extend(sents)
        where = {}
        for i, sent in enumerate(sents):
            where.setdefault(_norm(sent), first + i)
        chunk_rows = []
        for chunk in chunk_texts:
            rows = []
            for sent in split_sentences(chunk) or [chunk]:
                row = where.get(_norm(sent))
                if row is None:
                    row = len(texts)
                    texts.append(sent)
                    where[_norm(sent)] = row
                rows.append(row)
            chunk_rows.append(rows)
        plans.append((first, len(sents), chunk_rows))
    vectors = _embed_in_slices(texts, embed, on_progress)
    out = []
    for first, count, chunk_rows in plans:
        sentence_vecs = np.asarray(vectors[first : first + count], dtype=np.float32)
        chunk_vecs = np.array(
            [_pool(vectors[rows], [texts[r] for r in rows], count_tokens) for rows in chunk_rows],
            dtype=np.float32,
        )
        out.append((sentence_vecs, chunk_vecs))
    return out


def _embed_in_slices(
    texts: list[str],
    embed: Callable[[list[str]], np.ndarray],
    on_progress: Callable[[int, int], None] | None,
) -> np.ndarray:
    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    if on_progress is None or len(texts) <= EMBED_SLICE:
        return embed(texts)
    parts = []
    for start in range(0, len(texts), EMBED_SLICE):
        parts.append(np.asarray(embed(texts[start : start + EMBED_SLICE]), dtype=np.float32))
        if on_progress is not None and start + EMBED_SLICE < len(texts):
            on_progress(start + EMBED_SLICE, len(texts))
    return np.concatenate(parts)


def pool_chunks(
    abstract: str,
    sentence_vectors: np.ndarray,
    chunk_texts: Sequence[str],
    count_tokens: Callable[[str], int] | None = None,
) -> np.ndarray | None:
    """Chunk vectors pooled (as in :func:`embed_papers`) from stored sentence vectors.

    Returns ``(n_chunks, dim)``, or ``None`` when a chunk sentence has no stored vector.
    """
    sents = split_sentences(abstract)
    if len(sents) != len(sentence_vectors):
        return None
    where = {}
    for i, sent in enumerate(sents):
        where.setdefault(_norm(sent), i)
    rows_per_chunk = []
    for chunk in chunk_texts:
        rows = [where.get(_norm(sent)) for sent in split_sentences(chunk) or [chunk]]
        if any(r is None for r in rows):
            return None
        rows_per_chunk.append(rows)
    return np.array(
        [
            _pool(sentence_vectors[rows], [sents[r] for r in rows], count_tokens)
            for rows in rows_per_chunk
        ],
        dtype=np.float32,
    )
