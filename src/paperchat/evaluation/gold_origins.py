"""Where an eval set's gold papers are: ``(file, position)`` pairs read as stored paper ids."""

from __future__ import annotations

from pathlib import Path

from paperchat.core.errors import PaperchatError


class GoldOrigins(dict):
    """``(file, 1-based position) -> paper id`` over the stored ``records`` (id -> record) and the ``bundled``
    corpus's origins. ``file`` is a file's name, or, where two stored files share a name, enough of its path
    to tell them apart ("A/papers.jsonl", or the whole path ``papers --json`` prints): a bare shared name is
    refused, not read as either file. A position in a file whose papers were merged into copies from another
    file (a record's ``also_in``) is read from that file on a miss, once per file: the conference's copy of a
    bundled paper is gold as ``{"path": "icml2025_abstracts.jsonl", "index": 461}``."""

    def __init__(self, records: dict, bundled: dict):
        files: dict[str, set[str]] = {}
        for r in records.values():
            files.setdefault(r.source_path, set()).add(r.source_file or r.source_path)
        self._shared = {name: sorted(paths) for name, paths in files.items() if len(paths) > 1}
        self._by_file = {
            (r.source_file, r.source_index): pid for pid, r in records.items() if r.source_file
        }
        known = {
            (r.source_path, r.source_index): pid
            for pid, r in records.items()
            if r.source_path not in self._shared
        }
        super().__init__({**known, **bundled})
        also_in = {f for r in records.values() for f in r.also_in}
        self._files = {Path(f).name: f for f in sorted(also_in)}
        self._read: set[str] = set()

    def __missing__(self, key):
        name, index = key
        # a path: the one stored file it ends (its last parts, or all of it)
        if "/" in name or "\\" in name:
            parts = Path(name).parts
            found = {f for f, _i in self._by_file if Path(f).parts[-len(parts) :] == parts}
            if len(found) == 1 and (file := found.pop(), index) in self._by_file:
                return self._by_file[(file, index)]
            raise KeyError(key)
        if name in self._shared:
            shown = ", ".join(self._shared[name][:3])
            raise PaperchatError(
                f"gold paper {name} #{index}: {len(self._shared[name])} stored files are named {name} "
                f'({shown}); give the file\'s path instead, e.g. {{"path": "{self._shared[name][0]}", '
                f'"index": {index}}}'
            )
        if name not in self._files or name in self._read:
            raise KeyError(key)
        self._read.add(name)
        from paperchat.ingest.corpus import load_file

        try:
            papers, _report = load_file(self._files[name], on_error="skip")
        except PaperchatError:
            raise KeyError(key) from None
        for paper in papers:
            self.setdefault((name, paper.source_index), paper.paper_id)
        return self[key]
