"""The unchanged re-ingest fast path: repeating a recorded ``paperchat ingest FILES`` on unchanged files.

The ingest manifest (:mod:`paperchat.ingest.manifest`) says what each run
since the last change read and counted, and the store revision it was
saved at. It is trusted only when Chroma's committed revision, read from
its database without importing Chroma
(:func:`paperchat.store.committed.committed_revision`), is that revision:
a ``chroma/`` folder restored from a backup, or a write whose manifest
could not be saved, takes the full path. Reads only; writes nothing.
"""

from __future__ import annotations

from pathlib import Path

from paperchat.ingest.records import StoreInfo
from paperchat.ingest.run import IngestReport


def unchanged_report(store_dir: Path, wanted: StoreInfo, key: str) -> IngestReport | None:
    """The report of repeating recorded ingest ``key`` on unchanged files into the embedded store in
    ``store_dir``, or ``None`` when the full path must run (no manifest, one of another revision or other
    settings than ``wanted``, a file whose size or SHA-256 changed, a revision that cannot be read plainly).

    Nothing is parsed and Chroma is not imported. Raises :class:`~paperchat.core.errors.StoreError` for a
    damaged store folder (never called unchanged).
    """
    from paperchat.ingest import manifest
    from paperchat.store.committed import committed_revision

    saved = manifest.load(store_dir)
    if saved is None or not saved.get("info") or key not in saved["runs"]:
        return None
    if StoreInfo.from_metadata(saved["info"]).differences(wanted)[0]:
        return None
    revision = committed_revision(store_dir)
    if revision is None or revision != saved["revision"] or revision == "empty":
        return None
    counts = manifest.unchanged(saved["runs"], key)
    if counts is None:
        return None
    from paperchat.store.opening import check_folder

    check_folder(Path(store_dir), create=False)
    report = IngestReport(**counts, repeated=True)
    report.total_papers, report.total_chunks = saved["counts"]
    return report
