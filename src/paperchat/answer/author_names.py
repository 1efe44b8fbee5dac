"""Authors' names as the stored metadata writes them, looked up by the words a question types: "Bengio",
"Y. Bengio", "Hernandez-Lobato", "Mihaela Schaar" (:func:`_matches`; any case and accents, an initial
standing for a word, a middle name or particle left out), through an :class:`AuthorIndex` the engine
builds once per store revision. :mod:`paperchat.answer.authorship` reads the questions."""

from __future__ import annotations

import re
from collections.abc import Mapping

from paperchat.core.text import fold
from paperchat.ingest.authors import OTHERS, SUFFIXES
from paperchat.ingest.records import PaperRecord


def name_words(name: str) -> list[str]:
    """A name's words, folded, without dots or hyphens, one apostrophe: "Y. Bengio" -> ["y", "bengio"],
    "Hernández-Lobato" -> ["hernandez", "lobato"], "O’Donnell" -> ["o'donnell"]; a suffix is left out
    ("Martin Luther King, Jr." -> ["martin", "luther", "king"])."""
    words = [w for w in re.split(r"[\s.,-]+", fold(name).replace("’", "'")) if w]
    return words[:-1] if len(words) > 1 and words[-1] in SUFFIXES else words


def _matches(typed: list[str], author: list[str]) -> bool:
    """Whether the ``typed`` words name the ``author`` (both :func:`name_words`): one typed word is one of the
    author's words ("Bengio"); several are the author's words in order, the last one the author's last
    word, so a middle name, initial or particle may be left out ("Michael Jordan" for "Michael I. Jordan",
    "Mihaela Schaar" for "Mihaela Van Der Schaar") but another person sharing a first name is not
    ("Sergey Brin" is not "Sergey Levine"). A one-letter typed word is an initial (any word starting
    with it); the last typed word must be a whole word."""
    if not typed or len(typed[-1]) < 2:
        return False
    if len(typed) == 1:  # a surname: not the first of several words ("Li" is Bo Li, not Li Shen)
        return typed[0] in author[1:] or author == typed
    if typed[-1] != author[-1]:
        return False
    at = 0
    for w in typed[:-1]:
        at = next(
            (
                i + 1
                for i in range(at, len(author) - 1)
                if w == author[i] or (len(w) == 1 and author[i].startswith(w))
            ),
            -1,
        )
        if at < 0:
            return False
    return True


class AuthorIndex:
    """The stored authors, looked up by the words of a name (built once per store revision by the engine).

    ``records``: paper id -> :class:`PaperRecord` (abstracts not needed). Building it folds every author
    name once (about 0.1 s at 2,740 papers and 14,000 author slots); a lookup reads only the authors
    that share the typed name's last word.
    """

    def __init__(self, records: Mapping[str, PaperRecord]):
        self._papers: dict[str, list[str]] = {}
        self._first: dict[str, str] = {}  # paper id -> its first author
        for pid, record in records.items():
            for author in record.authors:
                if (
                    author != OTHERS
                ):  # "and others" (:data:`paperchat.ingest.authors.OTHERS`) names no one
                    self._papers.setdefault(author, []).append(pid)
            if record.authors:
                self._first[pid] = record.authors[0]
        self._by_word: dict[str, list[tuple[list[str], str]]] = {}
        for author in self._papers:
            words = name_words(author)
            for word in set(words):
                self._by_word.setdefault(word, []).append((words, author))

    def names(self) -> list[str]:
        """Every stored author name, as written."""
        return list(self._papers)

    def papers_with(self, authors) -> set[str]:
        """The ids of the papers with one of ``authors`` (stored names, as written) among their authors."""
        return {pid for author in authors for pid in self._papers.get(author, ())}

    def has_word(self, word: str) -> bool:
        """Whether ``word`` (any case and accents) is a word of a stored author's name ("bengio")."""
        return fold(word) in self._by_word

    def papers_of(self, typed: list[str], first: bool = False) -> dict[str, list[str]]:
        """Stored author name -> ids of their papers, for the authors whose name holds ``typed`` (folded
        words, :func:`_matches`); with ``first``, only the papers they are the first author of."""
        found = {
            author: [p for p in self._papers[author] if not first or self._first.get(p) == author]
            for words, author in (self._by_word.get(typed[-1], []) if typed else [])
            if _matches(typed, words)
        }
        return {author: pids for author, pids in found.items() if pids}
