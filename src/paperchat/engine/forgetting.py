"""``paperchat remove``: take out of the store the papers some files gave it, whether or not the files still exist.

Re-ingesting a changed file removes the papers it no longer holds, but a file deleted or moved cannot
be ingested, so its papers stayed: only ``ingest --rebuild`` with every other file listed took them
out. Removing a file's papers is ingesting it as if it held none: the same plan
(:func:`paperchat.ingest.plan.plan_ingest`) removes them, and a paper another file also holds stays,
owned by that file (``origin.also_in``).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from paperchat.core.errors import PaperchatError


def _under(path: str, key: str) -> bool:
    """Whether the stored file ``path`` is ``key`` or lies in the folder ``key``."""
    return path == key or path.startswith(key.rstrip(os.sep) + os.sep)


def forget(engine, paths: list[Path | str]):
    """Remove from ``engine``'s store the papers of the files ``paths`` name (a folder: every stored file in
    it); returns the :class:`~paperchat.ingest.run.IngestReport` (``papers_removed``; papers kept for
    another file are in ``notes``); an interrupted ingest of only those files is no longer recorded
    (``check`` had asked to finish it). Raises :class:`PaperchatError` when no stored paper came from one of
    ``paths`` (before anything is written), and what the store raises.
    """
    from paperchat.core.commands import command
    from paperchat.engine.ingesting import chunker_factory
    from paperchat.ingest import manifest
    from paperchat.ingest.run import run_ingest
    from paperchat.store import open_writer

    t0 = time.perf_counter()
    # Path("") is the current folder: every paper under it
    if any(not str(p).strip() for p in paths):
        raise PaperchatError("a path to remove is empty; name the file or folder")
    paths = [Path(p) for p in paths]
    keys = [manifest.file_key(p) for p in paths]
    store = engine.open_store()
    stored = store.papers(abstracts=False)
    # a file whose papers were all merged into another file's copies holds them too (origin.also_in)
    held = {f for r in stored.values() for f in (r.source_file, *r.also_in) if f}
    # an interrupted ingest of files removed now has nothing left to finish (check had failed on it for good)
    abandoned = {
        run
        for run in store.runs()
        if (files := manifest.run_files(run))
        and all(any(_under(f, k) for k in keys) for f in files)
    }
    begun = {f for run in abandoned for f in manifest.run_files(run)}
    for path, key in zip(paths, keys):
        if not any(_under(f, key) for f in held | begun):
            raise PaperchatError(
                f"no stored paper came from {path} (`{command(engine.settings, 'papers')}` lists each "
                "paper's file)"
            )
    files = sorted(f for f in held if any(_under(f, key) for key in keys))
    info = engine.wanted_info()
    repeat = command(engine.settings, "remove", *(str(p) for p in paths))
    with open_writer(store, info, run=("remove:" + "\n".join(files), repeat)) as writer:
        writer.drop_runs(abandoned)
        report = run_ingest(
            writer,
            [],
            files,
            info,
            chunker_factory(engine),
            engine.embedder,
        )
        if abandoned:  # what the stopped ingest wrote before its papers goes with them
            writer.drop_orphans()
        report.total_papers, report.total_chunks = store.counts()
        # emptied on purpose: no first run may fill it with the bundled corpus
        if not report.total_papers:
            store.write_meta(emptied=True)
    report.seconds = time.perf_counter() - t0
    return report
