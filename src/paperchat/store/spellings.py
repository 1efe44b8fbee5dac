"""A question's words in the spelling the stored papers use, read with the store's BM25 index
(:class:`paperchat.store.bm25.BM25Index`): a British spelling in the US form more papers write
("normalising" -> "normalizing"), a word typed without its accents in the accented form papers write
("Schrodinger" -> "Schrödinger"). Slips of a letter are the index's own
(:meth:`~paperchat.store.bm25.BM25Index.respell`), which reads these first.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from paperchat.core.text import fold

#: British endings and their US forms: "normalising", "behaviour", "analysed", "centre", "defence".
_BRITISH = tuple(
    (re.compile(pattern), us)
    for pattern, us in (
        (r"is(ation|ations|e|ed|es|ing|er|ers)$", r"iz\1"),
        (r"ys(e|ed|es|ing|er|ers)$", r"yz\1"),
        (r"our(s|ed|ing|al|ite|ites)?$", r"or\1"),
        (r"tre(s)?$", r"ter\1"),
        (r"ence(s)?$", r"ense\1"),
    )
)
#: Words whose "-ise" is no British spelling of "-ize" ("expertise": the stem of "expertize" is "expert",
#: which many papers write; the verifier's "which papers need domain expertise").
_ISE_WORDS = re.compile(
    r"(?:expert|prem|prom|no|ra|pra|prec|conc|enterpr|exerc|franch|merchand|comprom|surpr|compr|superv|rev|"
    r"dev|adv|disgu|dem|repr|treat|parad|po|ar|r|exc|inc|desp|telev|improv|advert|chast|circumc|\w*w)is"
)
#: A lower-case word long enough to be read for its British ending.
_LOWER = re.compile(r"(?<![\w-])[a-z]{6,}(?![\w-])")
#: A word, any case, that may have been typed without its accents.
_PLAIN = re.compile(r"(?<![\w-])[A-Za-z]{5,}(?![\w-])")


def american(index, word: str) -> str | None:
    """The US spelling of a British lower-case ``word`` (:data:`_BRITISH`) when twice as many papers (two or
    more) write it, else ``None``. "which papers use normalising flows" had listed 3 of the 11 papers on
    normalizing flows (an international researcher's session); "noise" has no US form papers write."""
    for pattern, us in _BRITISH[1:] if _ISE_WORDS.match(word) else _BRITISH:
        other = pattern.sub(us, word)
        if other != word and index.word_df(other) >= max(2, 2 * index.word_df(word)):
            return other
    return None


def accented(index, word: str) -> str | None:
    """The accented word papers write for ``word`` typed without accents ("Schrodinger" -> "schrödinger":
    the index's term, which it reads as the same word), when no paper writes ``word`` as typed; else
    ``None``. "summarize 'Schrodinger bridge'" had found no paper on it while nine write "Schrödinger"."""
    stems = index.tokenize([word])[0]
    if len(stems) != 1 or index.df.get(stems[0], 0):
        return None
    table = getattr(index, "_accents", None)
    if table is None:  # each accented term by its unaccented stem, made once per index
        table = {}
        for term in sorted(t for t in index.vocab if not t.isascii()):
            plain = index.tokenize([fold(term)])[0]  # "schrödinger" -> "schrodinger"
            if len(plain) == 1:
                table.setdefault(plain[0], term)
        index._accents = table
    return table.get(stems[0])


def in_corpus_spelling(
    index, text: str, keep: Callable[[str], bool] = lambda w: False
) -> tuple[str, list[str]]:
    """``text`` with each British spelling (:func:`american`) and each word typed without the accents papers
    write (:func:`accented`) in the papers' form, and the changes as ``'typed' as 'read'``; a word ``keep``
    keeps (an author's name) is left as typed."""
    fixes: list[str] = []

    def read(m: re.Match, how) -> str:
        word = m.group(0)
        if keep(word) or not (other := how(index, word)):
            return word
        fixes.append(f"'{word}' as '{other}'")
        return other

    text = _LOWER.sub(lambda m: read(m, american), text)
    return _PLAIN.sub(lambda m: read(m, accented), text), fixes
