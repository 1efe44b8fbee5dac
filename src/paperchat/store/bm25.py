"""The BM25 index over the store's chunks, kept beside the store and rebuilt when the store changes.

Okapi BM25 (Robertson & Zaragoza 2009) with the ``bm25s`` library (Lù 2024),
English stopwords and the Snowball stemmer (PyStemmer). A chunk is indexed
with its paper's title (when known) before its text. The index is saved in
``<store>/bm25/`` (in server mode, a per-URL cache folder) with the store
revision it was built from; :func:`load_or_build` rebuilds it from the
store's chunks whenever the revision differs, so it works on a store
reopened after a restart, or written by another process.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, Callable, Iterable


def write_json_atomic(path: Path, obj: Any) -> None:
    """Write ``obj`` as JSON to ``path`` via a temporary file and rename."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(obj), encoding="utf-8")
    os.replace(tmp, path)


def bm25_text(text: str, title: str) -> str:
    """What BM25 indexes for a chunk: the paper's title (when known) and the chunk text."""
    return f"{title}\n{text}" if title else text


class BM25Index:
    """A bm25s index over chunk ids; ``search(question, k)`` returns ``(chunk id, score)`` pairs."""

    def __init__(self, retriever, ids: list[str], revision: str):
        self.retriever = retriever
        self.ids = ids
        self.revision = revision
        self.vocab = set(retriever.vocab_dict.keys()) if getattr(retriever, "vocab_dict", None) else set()

    @staticmethod
    def tokenize(texts: list[str]) -> list[list[str]]:
        """bm25s tokens (lower-cased, English stopwords removed, Snowball-stemmed)."""
        import bm25s
        import Stemmer

        return bm25s.tokenize(texts, stopwords="en", stemmer=Stemmer.Stemmer("english"), return_ids=False,
                              show_progress=False)

    @classmethod
    def build(cls, ids: list[str], texts: list[str], revision: str) -> "BM25Index":
        """Index ``texts`` (one per chunk id)."""
        import bm25s

        retriever = bm25s.BM25()
        if texts:
            retriever.index(cls.tokenize(texts), show_progress=False)
        return cls(retriever, ids, revision)

    def save(self, folder: Path) -> None:
        """Write the index to ``folder`` (replaced whole, via a temporary folder)."""
        tmp = folder.with_name(folder.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        self.retriever.save(str(tmp), show_progress=False)
        write_json_atomic(tmp / "paperchat.json", {"revision": self.revision, "ids": self.ids})
        shutil.rmtree(folder, ignore_errors=True)
        tmp.rename(folder)

    @classmethod
    def load(cls, folder: Path, revision: str) -> "BM25Index | None":
        """The index saved in ``folder`` if it was built at ``revision``, else ``None``."""
        import bm25s

        try:
            info = json.loads((folder / "paperchat.json").read_text(encoding="utf-8"))
            if info.get("revision") != revision:
                return None
            retriever = bm25s.BM25.load(str(folder), show_progress=False, verbosity=0)
        except (OSError, ValueError, KeyError):
            return None
        return cls(retriever, info["ids"], revision)

    def search(self, question: str, k: int) -> list[tuple[str, float]]:
        """Top-``k`` ``(chunk id, BM25 score)`` pairs with a positive score, best first."""
        if not self.ids:
            return []
        tokens = [t for t in self.tokenize([question])[0] if t in self.vocab]
        if not tokens:
            return []
        k = min(k, len(self.ids))
        docs, scores = self.retriever.retrieve([tokens], k=k, show_progress=False, n_threads=1)
        return [(self.ids[int(d)], float(s)) for d, s in zip(docs[0], scores[0]) if s > 0]


def load_or_build(folder: Path, revision: str, chunks: Callable[[], Iterable[tuple[str, str, str]]]) -> BM25Index:
    """The index for ``revision``: loaded from ``folder``, else built from ``chunks()`` and saved.

    ``chunks()`` yields ``(chunk id, text, paper title)``. A folder that
    cannot be written (a read-only store) still answers: the index is kept in
    memory and rebuilt next time.
    """
    index = BM25Index.load(folder, revision)
    if index is not None:
        return index
    ids, texts = [], []
    for cid, text, title in chunks():
        ids.append(cid)
        texts.append(bm25_text(text, title))
    index = BM25Index.build(ids, texts, revision)
    try:
        index.save(folder)
    except OSError:
        pass
    return index
