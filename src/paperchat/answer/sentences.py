"""Sentences of abstracts and their vectors, for the offline answerer (stored at ingest; cached here)."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from paperchat.core.sentences import split_sentences


class SentenceIndex:
    """Sentences of abstracts and their vectors: the ones stored at ingest, else embedded now; cached (LRU).

    ``store`` gives ``sentence_vectors(ids)``; ``embedder`` embeds the
    sentences of a paper whose stored vectors are missing or do not match its
    abstract's sentences. ``get(papers)`` takes ``(paper id, abstract)``
    pairs and returns ``{paper id: (sentences, vectors (n, dim))}``.
    """

    def __init__(self, store, embedder, size: int = 4096):
        self.store = store
        self.embedder = embedder
        self.size = size
        self._cache: OrderedDict[str, tuple[str, list[str], np.ndarray]] = OrderedDict()

    def get(self, papers: list[tuple[str, str]]) -> dict[str, tuple[list[str], np.ndarray]]:
        wanted = dict(papers)
        todo = [
            pid for pid, abstract in wanted.items() if self._cache.get(pid, ("",))[0] != abstract
        ]
        if todo:
            stored = self.store.sentence_vectors(todo)
            embed: list[tuple[str, list[str]]] = []
            for pid in todo:
                sents = split_sentences(wanted[pid])
                vecs = stored.get(pid, ("", None))[1]
                if vecs is not None and len(vecs) == len(sents):
                    self._cache[pid] = (wanted[pid], sents, vecs)
                elif sents:
                    embed.append((pid, sents))
            if embed:
                vecs = self.embedder.embed([s for _, sents in embed for s in sents])
                start = 0
                for pid, sents in embed:
                    self._cache[pid] = (wanted[pid], sents, vecs[start : start + len(sents)])
                    start += len(sents)
        out = {}
        for pid in wanted:
            if pid in self._cache:
                self._cache.move_to_end(pid)
                out[pid] = self._cache[pid][1:]
        while len(self._cache) > self.size:
            self._cache.popitem(last=False)
        return out

    def cached(self, paper_id: str) -> tuple[list[str], np.ndarray] | None:
        """A paper's sentences and their vectors ``(n_sentences, dim)`` if :meth:`get` has them, else ``None``
        (the eval's citation check reuses them instead of embedding the cited abstract again)."""
        entry = self._cache.get(paper_id)
        return None if entry is None else (entry[1], entry[2])
