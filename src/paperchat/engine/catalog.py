"""The engine's reads of the stored papers' records (:class:`Catalog`, a base of
:class:`paperchat.engine.Engine`): the catalog without abstracts, read once per store revision, and what is
derived from it (filters' papers, merged duplicates' ids, the author index)."""

from __future__ import annotations

import copy

from paperchat.core import phases
from paperchat.engine.rebuilds import again_after_rebuild
from paperchat.ingest.records import PaperRecord
from paperchat.retrieve.filters import Filters, matching_ids


class Catalog:
    """Record reads for a class with ``store``, ``_catalog`` (revision, records, derived) and ``_filtered``
    (revision, filters, ids) attributes."""

    @again_after_rebuild
    def papers(self, filters: Filters | None = None, abstracts: bool = False) -> list[PaperRecord]:
        """Every stored paper that passes ``filters``, by origin; with its abstract if ``abstracts``. Without
        abstracts, copies of :meth:`catalog`'s records (a store read once per revision: ``list_papers`` had read
        every record from Chroma on each call, 0.3 s of CPU at 2,740 papers)."""
        if abstracts:
            records = self.store.papers(abstracts=True)
        else:
            self.store.refresh()  # another process's write since the catalog was read
            records = {pid: copy.copy(r) for pid, r in self.catalog().items()}
        ids = self.paper_ids(filters)
        phases.mark("store read")
        chosen = [r for r in records.values() if ids is None or r.paper_id in ids]
        return sorted(chosen, key=lambda r: (r.source_path, r.source_file, r.source_index))

    def paper_ids(self, filters: Filters | None) -> frozenset[str] | None:
        """The ids of the papers ``filters`` lets through (:func:`~paperchat.retrieve.filters.matching_ids`);
        ``None`` when it lets every paper through. Raises :class:`PaperchatError` when it matches none."""
        if not filters:
            return None
        revision = self.store.revision()
        if self._filtered[:2] != (revision, filters):
            records = self.catalog()
            ids = matching_ids(filters, records, self.content_ids(filters.papers or ()))
            self._filtered = (revision, filters, None if len(ids) == len(records) else ids)
        return self._filtered[2]

    def content_ids(self, wanted) -> dict[str, str]:
        """``p-…`` ids among ``wanted`` that no stored paper has -> the stored paper whose abstract derives
        them (:func:`~paperchat.ingest.corpus.content_ids`): a paper's id from a store where its file gave
        none names it here too. Reads the abstracts only when such an id is wanted."""
        from paperchat.ingest.corpus import content_ids

        missing = [w for w in wanted if w not in self.catalog()]
        return content_ids(missing, self.store.papers)

    def id_aliases(self, wanted) -> dict[str, str]:
        """Ids that name stored papers under another id: merged duplicates' (``store.aliases()``), and the
        ``p-…`` ids among ``wanted`` that only :meth:`content_ids` resolves (one read of the abstracts, only
        when such an id is wanted)."""
        aliases = dict(self.aliases())
        aliases.update(self.content_ids([w for w in wanted if w not in aliases]))
        return aliases

    def aliases(self) -> dict[str, str]:
        """Merged duplicates' ids -> the kept paper's id (as ``store.aliases()``), from :meth:`catalog`, once
        per store revision (every question had read all 2,740 records for it: 0.3 s of CPU an ``ask``)."""
        records = self.catalog()
        extras = self._catalog[2]
        if "aliases" not in extras:
            extras["aliases"] = {a: pid for pid, rec in records.items() for a in rec.aliases}
        return extras["aliases"]

    def catalog(self) -> dict[str, PaperRecord]:
        """Every stored paper's record without its abstract (paper id -> record), read once per store
        revision (about 0.25 s at 2,740 papers); filters, author questions and "did you mean" read it."""
        revision = self.store.revision()
        if self._catalog[0] != revision:
            self._catalog = (revision, self.store.papers(abstracts=False), {})
        return self._catalog[1]

    def author_index(self):
        """The stored authors by name (:class:`~paperchat.answer.author_names.AuthorIndex`), built once per
        store revision from :meth:`catalog`."""
        from paperchat.answer.author_names import AuthorIndex

        records = self.catalog()
        if "authors" not in self._catalog[2]:
            self._catalog[2]["authors"] = AuthorIndex(records)
        return self._catalog[2]["authors"]

    def cite_keys(self) -> dict[str, str]:
        """Every stored paper's BibTeX key (:func:`paperchat.cite.bibtex.cite_keys` of :meth:`catalog`), once
        per store revision (``get_bibtex`` of one paper had made all 2,740 keys on each call: 0.3 s)."""
        from paperchat.cite.bibtex import cite_keys

        records = self.catalog()
        if "keys" not in self._catalog[2]:
            self._catalog[2]["keys"] = cite_keys(records)
        return self._catalog[2]["keys"]

    def write_bibtex(self, path, paper_ids: list[str]) -> int:
        """Write ``paper_ids``' BibTeX entries to ``path`` (:func:`paperchat.cite.bibtex.write_bibtex`), keyed
        as :meth:`cite_keys` keys the papers stored now; returns how many entries it holds."""
        from paperchat.cite.bibtex import write_bibtex

        self.store.refresh()  # keys of the papers stored now, another process's writes too
        return write_bibtex(path, paper_ids, self.catalog(), self.cite_keys())
