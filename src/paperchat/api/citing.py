"""The Python API's BibTeX methods (:class:`Citing`, a base of :class:`paperchat.api.Paperchat`): entries for
an answer's cited papers, paper ids, records or search hits, as text or written to a file."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from paperchat.api.arguments import cited_paper_ids, python_api
from paperchat.api.results import SearchHit
from paperchat.core.contract import Answer as ContractAnswer
from paperchat.core.errors import BadArgument, PaperchatError
from paperchat.ingest.records import PaperRecord, resolve_id

PathLike = str | os.PathLike


@python_api  # messages name the API's methods, as Paperchat's do
class Citing:
    """:meth:`bibtex` and :meth:`write_bibtex` for a class with ``engine`` and ``_ready()``."""

    def _cited_ids(self, papers: Any) -> tuple[list[str], dict[str, PaperRecord]]:
        """Paper ids from what :meth:`bibtex` takes, each checked against the store (in order, each once), and
        the stored records (without abstracts) they were checked against."""
        ids = cited_paper_ids(papers)
        self.engine.store.refresh()  # another process's write since the catalog was read
        records = self.engine.catalog()
        # a merged duplicate's id, or an id in another case
        if any(pid not in records for pid in ids):
            aliases = self.engine.id_aliases(ids)
            ids = [resolve_id(pid, records, aliases) or pid for pid in ids]
        missing = [pid for pid in dict.fromkeys(ids) if pid not in records]
        if missing:
            raise PaperchatError(
                f"no paper with id {', '.join(missing[:3])}{' ...' if len(missing) > 3 else ''} in the store; "
                "`paperchat papers` lists them"
            )
        return list(dict.fromkeys(ids)), records

    def bibtex(self, papers: ContractAnswer | str | Iterable[str | PaperRecord | SearchHit]) -> str:
        """BibTeX entries (pybtex; :mod:`paperchat.cite.bibtex`) for an answer's cited papers, one paper id, or
        several ids, papers (:meth:`papers`) or search hits (:meth:`search`); ``""`` for an answer that cites none.

        Raises :class:`PaperchatError` for an id no stored paper has.
        """
        from paperchat.cite.bibtex import entries

        self._ready()
        ids, records = self._cited_ids(papers)
        return entries(ids, records, self.engine.cite_keys())

    def write_bibtex(
        self, path: PathLike, papers: ContractAnswer | str | Iterable[str | PaperRecord | SearchHit]
    ) -> int:
        """Write :meth:`bibtex` of ``papers`` to ``path`` (replaced); returns the number of entries. With no paper
        to cite (an abstention) the file is left as it was and 0 is returned, as ``ask --bibtex`` does."""
        from paperchat.cite.bibtex import write_bibtex

        if not isinstance(path, (str, os.PathLike)) or not str(path):
            raise BadArgument(f"path must be a file path, not {path!r}"[:120])
        self._ready()
        ids, records = self._cited_ids(papers)
        return write_bibtex(path, ids, records, self.engine.cite_keys()) if ids else 0
