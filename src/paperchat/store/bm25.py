"""The BM25 index over the store's papers, kept beside the store and rebuilt when the store changes.

Okapi BM25 (Robertson & Zaragoza 2009) with the ``bm25s`` library (Lù 2024),
English stopwords and the Snowball stemmer (PyStemmer). A paper is indexed
as its title and whole abstract: abstracts are short, and a paper-level
index beat chunk-level BM25 on the eval questions (README, "Retrieval").
The index also keeps each term's document frequency, so retrieval can
tell a rare term of the question (:meth:`BM25Index.rare_term_papers`).

It is a cache, saved in ``<store>/bm25/`` (in server mode, a per-URL cache
folder; one index, replaced whole) with the store revision it was built
from. :func:`load_or_build` is given the revision Chroma has committed and
rebuilds the index from the store's papers whenever the saved one differs,
so it is right on a store reopened after a restart, written by another
process or restored from a backup. A cache that cannot be saved (a
read-only folder, a full disk) is a note on stderr, and the index is used
from memory.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from paperchat.core.notes import note


def write_json_atomic(path: Path, obj: Any) -> None:
    """Write ``obj`` as JSON to ``path`` via a temporary file and rename."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(obj), encoding="utf-8")
    os.replace(tmp, path)


def bm25_text(title: str, abstract: str) -> str:
    """What BM25 indexes for a paper: its title (when known) and its abstract."""
    return f"{title}\n{abstract}" if title else abstract


#: Stemmed words of how people ask, not of what they ask about ("I remember a paper ...", "Has anyone ...").
CONVERSATIONAL = frozenset(
    "rememb anyon someon somebodi anybodi wonder curiou recal heard seen pleas thank hello "
    "tell know think guess look mayb possibl anyth someth overview summar realli actual basic "
    "exact simpli whenev wherev whatev howev instead rather quit pretti".split()
)


#: Papers a term must be held by to be common: a short word that abbreviates one is no distinctive word
#: (:meth:`BM25Index.abbreviates`).
COMMON_DF = 50
#: The share of papers that must write the word a slip is read as (at least 3 papers): a valid word
#: of a question that a small store lacks ("missing" in the 38 bundled papers) is no slip of a rare one
#: ("omissing"), so it is read as typed. 0.2% of 2,740 papers is 6.
RESPELL_SHARE = 0.002
#: Prefixes an abstract may hyphenate ("re-materialization", "non-convex") where a question does not.
_PREFIXES = tuple(
    "re pre non co de un sub semi multi inter post self cross meta over under anti super hyper".split()
)


class BM25Index:
    """A bm25s index over paper ids; ``search(question, k)`` returns ``(paper id, score)`` pairs.

    ``df`` maps each stemmed term to the number of papers that hold it.
    """

    def __init__(self, retriever, ids: list[str], revision: str, df: dict[str, int]):
        self.retriever = retriever
        self.ids = ids
        self.revision = revision
        self.df = df
        self.vocab = (
            set(retriever.vocab_dict.keys()) if getattr(retriever, "vocab_dict", None) else set()
        )
        self._last_mask: tuple = (None, None)

    @staticmethod
    def tokenize(texts: list[str]) -> list[list[str]]:
        """bm25s tokens (lower-cased, English stopwords removed, Snowball-stemmed)."""
        import bm25s
        import Stemmer

        return bm25s.tokenize(
            texts,
            stopwords="en",
            stemmer=Stemmer.Stemmer("english"),
            return_ids=False,
            show_progress=False,
        )

    @classmethod
    def build(cls, ids: list[str], texts: list[str], revision: str) -> BM25Index:
        """Index ``texts`` (one per paper id)."""
        import bm25s

        retriever = bm25s.BM25()
        df: dict[str, int] = {}
        if texts:
            tokens = cls.tokenize(texts)
            for doc in tokens:
                for term in set(doc):
                    df[term] = df.get(term, 0) + 1
            retriever.index(tokens, show_progress=False)
        return cls(retriever, ids, revision, df)

    def save(self, folder: Path) -> None:
        """Write the index to ``folder`` (replaced whole, via a temporary folder)."""
        # two readers may build it at once, two processes or two threads of one
        tmp = folder.with_name(f"{folder.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        try:
            tmp.mkdir(parents=True)
            self.retriever.save(str(tmp), show_progress=False)
            write_json_atomic(
                tmp / "paperchat.json", {"revision": self.revision, "ids": self.ids, "df": self.df}
            )
            shutil.rmtree(folder, ignore_errors=True)
            tmp.rename(folder)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    @classmethod
    def load(cls, folder: Path, revision: str) -> BM25Index | None:
        """The index saved in ``folder`` if it was built at ``revision``, else ``None``."""
        import bm25s

        try:
            info = json.loads((folder / "paperchat.json").read_text(encoding="utf-8"))
            if info.get("revision") != revision:
                return None
            retriever = bm25s.BM25.load(str(folder), show_progress=False, verbosity=0)
        except Exception:  # a damaged cache (an emptied .npy raises EOFError): rebuilt
            return None
        return cls(retriever, info["ids"], revision, info.get("df") or {})

    def search(
        self, question: str, k: int, paper_ids: frozenset[str] | None = None
    ) -> list[tuple[str, float]]:
        """Top-``k`` ``(paper id, BM25 score)`` pairs with a positive score, best first.

        ``paper_ids``: only these papers are scored (bm25s's ``weight_mask``), so
        all ``k`` places go to them.
        """
        if not self.ids or (paper_ids is not None and not paper_ids):
            return []
        tokens = [t for t in self.tokenize([question])[0] if t in self.vocab]
        if not tokens:
            return []
        k = min(k, len(self.ids))
        mask = None if paper_ids is None else self._mask(paper_ids)
        docs, scores = self.retriever.retrieve(
            [tokens], k=k, show_progress=False, n_threads=1, weight_mask=mask
        )
        return [(self.ids[int(d)], float(s)) for d, s in zip(docs[0], scores[0]) if s > 0]

    def _mask(self, paper_ids: frozenset[str]):
        """A float32 array over the indexed papers: 1 for ``paper_ids``, 0 for the rest (the last one is kept)."""
        import numpy as np

        if self._last_mask[0] != paper_ids:
            mask = np.zeros(len(self.ids), dtype=np.float32)
            mask[[i for i, pid in enumerate(self.ids) if pid in paper_ids]] = 1.0
            self._last_mask = (paper_ids, mask)
        return self._last_mask[1]

    def upper_bound(self, question: str) -> float:
        """The largest BM25 score any paper could get for ``question``: ``sum idf(t) * (k1 + 1)`` over its known terms.

        BM25's term weight ``tf * (k1 + 1) / (tf + k1 * norm)`` never exceeds
        ``k1 + 1`` (Robertson & Zaragoza 2009), and bm25s's default idf is
        Lucene's ``ln(1 + (N - df + 0.5) / (df + 0.5))``. Dividing by this puts
        a weak lexical match near 0 and a full one near 1, whatever the question.
        """
        import math

        n = len(self.ids)
        k1 = float(getattr(self.retriever, "k1", 1.5))
        terms = [t for t in dict.fromkeys(self.tokenize([question])[0]) if t in self.vocab]
        return sum(
            math.log(1 + (n - self.df.get(t, 0) + 0.5) / (self.df.get(t, 0) + 0.5)) for t in terms
        ) * (k1 + 1)

    def terms_of(self, text: str) -> set[str]:
        """The stemmed terms of ``text`` as the index reads them."""
        return set(self.tokenize([text])[0])

    def holders(self, terms: set[str]) -> set[str]:
        """The ids of the papers that hold every one of ``terms`` (stemmed, as :meth:`terms_of` gives them);
        read from bm25s's term-by-paper score matrix (its CSC arrays: a term's papers are its column's row
        indices)."""
        scores = getattr(self.retriever, "scores", None)
        vocab = getattr(self.retriever, "vocab_dict", None) or {}
        if not terms or not scores or any(t not in vocab for t in terms):
            return set()
        indptr, indices = scores["indptr"], scores["indices"]
        held: set[int] | None = None
        for t in sorted(terms, key=lambda t: self.df.get(t, 0)):  # the rarest first
            i = vocab[t]
            papers = set(indices[indptr[i] : indptr[i + 1]].tolist())
            held = papers if held is None else held & papers
        return {self.ids[i] for i in held or ()}

    def word_df(self, word: str) -> int:
        """How many papers hold ``word`` as the index reads it (its least held term; 0 for none)."""
        return min((self.df.get(t, 0) for t in self.tokenize([word])[0]), default=0)

    def holding(self, terms: set[str]) -> int:
        """How many papers hold every one of ``terms`` (:meth:`holders`)."""
        return len(self.holders(terms))

    def respelled(self, term: str) -> list[str]:
        """The indexed terms an unknown ``term`` (no paper holds it) stands for, or ``[]``.

        A slip of one letter ("trainng", "activaton": Norvig's one-edit candidates, stemmed, the
        most frequent known one) or a compound the abstracts hyphenate ("rematerialization" for
        "Re-materialization": a known term after one of :data:`_PREFIXES`). Only terms of
        six letters or more: a short unknown word is an abbreviation as often as a slip.
        """
        fixed = self._one_edit(term)
        if fixed:
            return [fixed[0]]
        if len(term) < 6 or self.df.get(term, 0) or any(ch.isdigit() for ch in term):
            return []
        tails = [
            term[len(p) :] for p in _PREFIXES if term.startswith(p) and len(term) - len(p) >= 4
        ]
        return next(([t] for t in tails if self.df.get(t, 0)), [])

    def _one_edit(
        self, word: str, min_df: int = 1, dropped: bool = False
    ) -> tuple[str, str] | None:
        """``(indexed term, the word as spelled)`` for an unknown ``word`` of six letters or more one edit
        away from indexed terms (the most frequent of them, held by ``min_df`` papers or more), else ``None``
        (Norvig's candidates); with ``dropped``, only a letter left out or two swapped ("lerning",
        "segmnet"), not one too many or a wrong one, which as often make another word ("splicing",
        "nudging")."""
        import Stemmer

        if len(word) < 6 or self.df.get(word, 0) or any(ch.isdigit() for ch in word):
            return None
        stem = Stemmer.Stemmer("english").stemWord
        letters = "abcdefghijklmnopqrstuvwxyz"
        cuts = [(word[:i], word[i:]) for i in range(len(word) + 1)]
        edits = {a + b[1] + b[0] + b[2:] for a, b in cuts if len(b) > 1}
        edits |= {a + c + b for a, b in cuts for c in letters}
        if not dropped:
            edits |= {a + b[1:] for a, b in cuts if b}
            edits |= {a + c + b[1:] for a, b in cuts if b for c in letters}
        known = {stem(e): e for e in sorted(edits) if stem(e) != word}
        best = max(known, key=lambda t: self.df.get(t, 0), default="")
        return (best, known[best]) if self.df.get(best, 0) >= max(min_df, 1) else None

    def unknown(self, word: str) -> bool:
        """Whether no paper writes ``word`` (any case), nor a word one edit from it, nor its tail after a
        prefix (:meth:`respelled`)."""
        stems = self.tokenize([word.lower()])[0]
        if not stems or any(self.df.get(t, 0) or self.respelled(t) for t in stems):
            return False
        return self._one_edit(word.lower()) is None

    def respell(
        self, question: str, keep: Callable[[str], bool] = lambda w: False
    ) -> tuple[str, list[str]]:
        """``question`` with each lower-case word of six letters or more that no paper holds (and ``keep``
        does not keep, such as an author's name) written as the word one edit away that papers hold
        ("reinforcment lerning from human feedbak" -> "reinforcement learning from human feedback"), and
        the fixes as ``'typed' as 'meant'``. A word with a capital or a digit (a name) is left as typed, and
        so is an English word (:func:`paperchat.ingest.english.is_english`), one whose nearest word
        :data:`RESPELL_SHARE` of the papers do not write, and one that needs a letter taken out or changed."""
        from paperchat.ingest.english import is_english
        from paperchat.store.spellings import in_corpus_spelling

        question, fixes = in_corpus_spelling(self, question, keep)  # "normalising", "Schrodinger"
        common = max(3, math.ceil(RESPELL_SHARE * len(self.ids)))

        def fix(m: re.Match) -> str:
            word = m.group(0)
            # a word the papers write, or one made from such a word ("predictor" from "predict") is no slip
            heads = (word, word[:-1], word[:-2])
            if any(t in self.vocab for ts in self.tokenize(list(heads)) for t in ts) or keep(word):
                return word
            if is_english(word):  # a word the papers lack, not a slip: "splicing", "smells"
                return word
            found = self._one_edit(word, min_df=common, dropped=True)
            # the word meant is a word: English, or one many papers write ("hallucination")
            if not found or not (is_english(found[1]) or self.df.get(found[0], 0) >= COMMON_DF):
                return word
            fixes.append(f"'{word}' as '{found[1]}'")
            return found[1]

        return re.sub(r"(?<![\w-])[a-z]{6,}(?![\w-])", fix, question), fixes

    def abbreviates(self, term: str) -> bool:
        """Whether ``term``, a word of four or five letters that at most two papers hold, is the shorthand of
        a common term (one :data:`COMMON_DF` papers or more hold): it starts that term ("perf":
        "perform"), or its skeleton, the first letter and the consonants ("attn": "attent", "attnt")."""
        if not 4 <= len(term) <= 5 or self.df.get(term, 0) > 2:
            return False

        def skeleton(word: str) -> str:
            return word[0] + "".join(ch for ch in word[1:] if ch not in "aeiouy")

        return any(
            len(w) > len(term) and (w.startswith(term) or skeleton(w).startswith(term))
            for w, n in self.df.items()
            if n >= COMMON_DF and w[0] == term[0]
        )

    def rare_terms(self, question: str, max_df: int) -> list[str]:
        """The question's terms (longer than 3 letters, no digits) held by at most ``max_df`` papers, or by none.

        An unknown term is read as the term it misspells (:meth:`respelled`), kept only when that is rare too;
        a shorthand of a common term (:meth:`abbreviates`: "attn", "perf") is not rare.
        """
        out: list[str] = []
        for t in dict.fromkeys(self.tokenize([question])[0]):
            if len(t) <= 3 or any(ch.isdigit() for ch in t) or t in CONVERSATIONAL:
                continue
            if self.abbreviates(t):
                continue
            for term in self.respelled(t) or [t]:
                if self.df.get(term, 0) <= max_df and term not in out:
                    out.append(term)
        return out


def saved_revision(folder: Path) -> str | None:
    """The revision the index saved in ``folder`` was built at (``None``: none saved, or unreadable)."""
    try:
        revision = json.loads((folder / "paperchat.json").read_text(encoding="utf-8")).get(
            "revision"
        )
    except (OSError, ValueError, AttributeError):
        return None
    return revision if isinstance(revision, str) else None


_NOTED: set[str] = set()


def load_or_build(
    folder: Path, revision: str, papers: Callable[[], Iterable[tuple[str, str, str]]]
) -> BM25Index:
    """The index for ``revision``: loaded from ``folder``, else built from ``papers()`` and saved.

    ``papers()`` yields ``(paper id, title, abstract)``. A folder that cannot
    be written (a read-only store, a full disk) still answers: the index is
    kept in memory, a note says so (:func:`paperchat.core.notes.note`, once per folder and process),
    and it is built again next time.
    """
    index = BM25Index.load(folder, revision)
    if index is not None:
        return index
    ids, texts = [], []
    for pid, title, abstract in papers():
        ids.append(pid)
        texts.append(bm25_text(title, abstract))
    index = BM25Index.build(ids, texts, revision)
    try:
        index.save(folder)
    except OSError as exc:
        if str(folder) not in _NOTED:
            _NOTED.add(str(folder))
            note(
                f"note: the BM25 index could not be saved in {folder} ({exc.strerror or type(exc).__name__}); "
                "it is built again by each command until it can be"
            )
    return index
