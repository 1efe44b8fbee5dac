"""Checking a store (``paperchat check``): is it whole, do its collections agree, do its vector indexes load?

:func:`folder_findings` reads an embedded store's files before Chroma does:
its database (missing, empty or not SQLite is damage), its index files
(cut short is damage) and index folders of dropped collections (a note).
:func:`check_store` reads everything a damaged store would get wrong and
returns one :class:`Finding` per check: the database and the store's state
can be read; no ingest was interrupted part-way (a partial store is never
called sound); the current generation's three collections exist; every paper's
chunks are stored and every chunk belongs to a stored paper; every chunk
has a vector; every paper has its sentence vectors; each collection's vector
index answers a query (a truncated index file fails here); the BM25 cache
is the current revision's (a stale one is only rebuilt, so it is a note).
:func:`cache_findings` names the files beside an embedded store that are
only caches: an ingest manifest saved at another revision (a note: the next
ingest re-reads its files) and the ``snapshot/`` folder earlier paperchats
kept (unused now; the next ingest that writes deletes it). Checking writes
nothing.
Anything a check raises is a failed finding, worded by
:func:`paperchat.store.failures.explain`, never a bare exception.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from paperchat.core.errors import PaperchatError
from paperchat.store.chroma import KINDS, ChromaStore
from paperchat.store.failures import StoreUnavailable, store_error


@dataclass
class Finding:
    """One check: what was checked, whether it passed, and what was found (``ok`` ``None``: a note)."""

    check: str
    ok: bool | None
    detail: str
    #: a failure that is damage (False: the store could not be reached, read or changed now; see
    #: :class:`paperchat.store.failures.StoreUnavailable`), so the verdict does not advise a rebuild
    damage: bool = True

    def to_json(self) -> dict:
        return {"check": self.check, "ok": self.ok, "detail": self.detail}


def _vectors(store: ChromaStore, kind: str) -> dict[str, bool]:
    """``{id: has a vector}`` for every record of a collection."""
    out: dict[str, bool] = {}
    with store.guarded():
        for got in store.pages(kind, ["embeddings"]):
            for rid, vec in zip(got["ids"], got["embeddings"]):
                out[rid] = vec is not None and len(vec) > 0
    return out


def _runner(findings: list[Finding], store: ChromaStore):
    """``run(name, fn)``: record ``fn()``'s ``(ok, detail)`` (anything raised is a failure, in one line); False
    when it failed."""

    def run(name: str, fn) -> bool:
        damage = True
        try:
            with store.guarded():
                ok, detail = fn()
        except PaperchatError as exc:
            ok, detail, damage = False, str(exc), not isinstance(exc, StoreUnavailable)
        except Exception as exc:  # noqa: BLE001 - check reports, it never crashes
            error = store_error(exc, None if store.remote else store.local_dir, store.remote)
            ok, detail, damage = False, str(error), not isinstance(error, StoreUnavailable)
        findings.append(Finding(name, ok, detail, damage))
        return ok is not False

    return run


def check_store(store: ChromaStore) -> list[Finding]:
    """Every check of the module docstring, in order; stops early when the store cannot be read at all."""
    findings: list[Finding] = []
    run = _runner(findings, store)
    if not run(
        "store state",
        lambda: (True, f"generation {store.current or 'none'}, revision {store.revision()}"),
    ):
        return findings
    run("ingest", lambda: _ingest_state(store))
    collections = _collection_checks(store)
    # read while an ingest writes: a failure may be the write in flight
    if _being_written(findings):
        collections = [
            Finding(f.check, None, f"{f.detail} ({WHILE_WRITTEN})", False) if f.ok is False else f
            for f in collections
        ]
    return findings + collections


#: What a check that failed while an ingest was writing the store says of itself.
WHILE_WRITTEN = "read while an ingest writes the store; check again when it has finished"


def _being_written(findings: list[Finding]) -> bool:
    """Whether the ingest finding says an ingest is writing the store now (not a stopped rebuild)."""
    return any(
        f.check == "ingest" and f.ok is None and not f.detail.startswith(STOPPED_REBUILD)
        for f in findings
    )


#: How the ingest check opens its note on a rebuild stopped part-way (the store in use is whole).
STOPPED_REBUILD = "a rebuild was stopped part-way"
#: The rebuild command check's findings advise; `paperchat check` writes it with the store it checked.
REBUILD_HINT = "`paperchat ingest --rebuild FILES`"


def _ingest_state(store: ChromaStore) -> tuple[bool | None, str]:
    """Whether an ingest is recorded as under way (a note) or interrupted (a failure: the store is partial)."""
    from paperchat.store.lease import LEASE_S, stalled
    from paperchat.store.runs import being_written, describe, resume_hint

    runs = store.runs()
    meta = store.read_meta()
    writing = bool(runs) and being_written(store)
    if writing and store.remote and (late := stalled(store)):
        # a lease run out is no live lease: this machine's writer holds the lock but is stopped or hung
        return False, (
            f"an ingest of the store at {store.where()} has not written for over {LEASE_S:.0f} s ({late}): "
            f"it is stopped or hung; end it, then {resume_hint(runs, store.where())}"
        )
    if runs:
        return (None if writing else False), describe(
            runs, writing, store.counts()[0], store.where()
        )
    if int(meta.get("pending") or 0):
        return None, (
            f"{STOPPED_REBUILD}; the store readers use is whole, and the next "
            f"{REBUILD_HINT} drops the half-built generation {meta['pending']}"
        )
    return True, "no ingest was interrupted"


def folder_findings(store_dir: Path) -> list[Finding]:
    """An embedded store's files, read before Chroma opens them: the database, the index files, leftovers."""
    from paperchat.store.integrity import DENIED, database_damage, folder_bytes, leftover_folders

    chroma = Path(store_dir) / "chroma"
    damage = database_damage(chroma)
    if damage is not None and damage.endswith(DENIED):
        return [
            Finding(
                "database",
                False,
                f"{damage}. Give this user read and write access to the store folder",
                damage=False,
            )
        ]
    if damage is not None:
        return [
            Finding(
                "database",
                False,
                f"{damage}. Restore the store from a backup, or start afresh with "
                f"{REBUILD_HINT} (the stored papers are lost)",
            )
        ]
    findings = [Finding("database", True, f"{chroma / 'chroma.sqlite3'} is a SQLite database")]
    findings += index_file_findings(chroma)
    left = leftover_folders(chroma)
    if left:
        size = sum(folder_bytes(p) for p in left)
        findings.append(
            Finding(
                "leftover index folders",
                None,
                (
                    f"{len(left)} folder{'s' if len(left) != 1 else ''} of dropped collections ({size / 1e6:.1f} MB) in "
                    f"{chroma}, e.g. {left[0].name}; the next `paperchat ingest` that writes removes "
                    f"{'them' if len(left) != 1 else 'it'}"
                ),
            )
        )
    return findings


def cache_findings(store: ChromaStore) -> list[Finding]:
    """Notes on the caches beside an embedded store (see the module docstring); never failures, never writes."""
    if store.remote:
        return []
    from paperchat.ingest import manifest
    from paperchat.store.integrity import folder_bytes

    findings: list[Finding] = []
    path = manifest.path_of(store.local_dir)
    saved = manifest.load(store.local_dir)
    if saved is not None and saved["revision"] != store.revision():
        findings.append(
            Finding(
                "ingest manifest",
                None,
                (
                    f"{path} was saved at revision {saved['revision']}, the store is at {store.revision()} (a restored "
                    "`chroma/` folder, or a write whose manifest could not be saved): not trusted, the next "
                    "`paperchat ingest` re-reads its files and saves it again"
                ),
            )
        )
    elif saved is not None:
        findings.append(
            Finding("ingest manifest", True, f"current ({len(saved['runs'])} recorded run(s))")
        )
    elif path.exists():
        findings.append(
            Finding(
                "ingest manifest",
                None,
                f"{path} cannot be read: the next `paperchat ingest` "
                "re-reads its files and saves it again",
            )
        )
    old = store.local_dir / "snapshot"
    if old.is_dir():
        findings.append(
            Finding(
                "unused snapshot folder",
                None,
                (
                    f"{old} ({folder_bytes(old) / 1e6:.1f} MB) is the read snapshot of an earlier paperchat, unused now "
                    "(Chroma answers every query); the next `paperchat ingest` that writes deletes it"
                ),
            )
        )
    return findings


def index_file_findings(chroma_dir) -> list[Finding]:
    """The vector index files' sizes against their headers (:func:`paperchat.store.integrity.index_damage`)."""
    from paperchat.store.integrity import index_damage

    damage = index_damage(chroma_dir)
    return [Finding("vector index files", False, line) for line in damage] or [
        Finding("vector index files", True, "every index file is whole")
    ]


def _collection_checks(store: ChromaStore) -> list[Finding]:
    findings: list[Finding] = []
    run = _runner(findings, store)
    if not store.current:
        # a server restarted on another data folder comes back empty: not sound for a health check (a
        # server session); one `paperchat remove` emptied on purpose is
        lost = bool(store.remote and not store.read_meta().get("emptied"))
        why = (
            "the server holds no paperchat store (was it started on another --path?); "
            "`paperchat ingest` fills it"
            if lost
            else "the store is empty (paperchat ingest adds papers)"
        )
        findings.append(Finding("papers", False if lost else None, why, damage=False))
        return findings
    if not run(
        "collections",
        lambda: (True, ", ".join(f"{k} {store.collection(k).count()}" for k in KINDS)),
    ):
        return findings
    read: dict = {}

    def read_all():
        read.update(
            info=store.info(),
            papers=store.papers(abstracts=False),
            chunks=_vectors(store, "chunks"),
        )
        read["sentences"] = store.sentence_vectors(list(read["papers"]))
        return True, f"{len(read['papers'])} papers, {len(read['chunks'])} chunks"

    if not run("read the collections", read_all):
        return findings
    info, papers, chunks, sentences = (
        read["info"],
        read["papers"],
        read["chunks"],
        read["sentences"],
    )
    wanted = {cid for rec in papers.values() for cid in rec.chunk_ids}
    missing = sorted(wanted - set(chunks))
    orphans = sorted(set(chunks) - wanted)
    run(
        "chunks of every paper",
        lambda: (
            not missing,
            f"{len(missing)} chunk(s) missing, e.g. {missing[0]}"
            if missing
            else f"all {len(wanted)} chunks of {len(papers)} papers are stored",
        ),
    )
    run(
        "no orphan chunks",
        lambda: (
            not orphans,
            f"{len(orphans)} chunk(s) of no stored paper, e.g. {orphans[0]}"
            if orphans
            else "every chunk belongs to a stored paper",
        ),
    )
    novec = sorted(cid for cid, has in chunks.items() if not has)
    run(
        "chunk vectors",
        lambda: (
            not novec,
            f"{len(novec)} chunk(s) without a vector" if novec else "every chunk has a vector",
        ),
    )
    lacking = sorted(set(papers) - set(sentences))
    run(
        "sentence vectors",
        lambda: (
            not lacking,
            f"{len(lacking)} paper(s) without sentence vectors, e.g. {lacking[0]}"
            if lacking
            else f"every paper's sentences are stored ({sum(len(v) for _h, v in sentences.values())})",
        ),
    )
    probe = np.full(info.embed_dim or 1, 1.0 / np.sqrt(max(info.embed_dim, 1)), dtype=np.float32)

    def query(kind: str):
        with store.guarded():
            store.collection(kind).query(
                query_embeddings=[probe.tolist()], n_results=1, include=["distances"]
            )
        return True, "answers a query"

    for kind in KINDS:
        run(f"{kind} vector index", lambda kind=kind: query(kind))
    folder = store.local_dir / "bm25"
    from paperchat.store.bm25 import BM25Index, saved_revision

    cached = BM25Index.load(folder, store.revision())
    same = cached is not None and bool(cached.ids) and set(cached.ids) == set(papers)
    saved = saved_revision(folder)
    findings.append(
        Finding(
            "BM25 index",
            None if cached is None else same,
            "missing: built on the next question"
            if cached is None and saved is None
            else f"stale (built at revision {saved}, the store is at {store.revision()}): rebuilt "
            "on the next question"
            if cached is None and saved != store.revision()
            else f"unreadable (a file of {folder} is damaged): rebuilt on the next question"
            if cached is None
            else f"current ({len(cached.ids)} papers)"
            if same
            else f"holds {len(cached.ids)} papers, the store {len(papers)}",
        )
    )
    return findings


def verdict(findings: list[Finding], where: str) -> str:
    """One line: what the checks found and what to do."""
    bad = [f for f in findings if f.ok is False]
    if not bad and _being_written(findings):
        if any(f.detail.endswith(f"({WHILE_WRITTEN})") for f in findings):
            return f"the store at {where} is being written and could not be read whole; check it again when the ingest has finished"
        return f"the store at {where} is being written: what it holds so far is consistent; check it again when the ingest has finished"
    if not bad:
        return f"the store at {where} is sound"
    if not any(f.damage for f in bad):
        return f"the store at {where} could not be checked: " + "; ".join(
            dict.fromkeys(f.detail for f in bad)
        )
    return (
        f"the store at {where} has {len(bad)} problem(s): "
        + "; ".join(f"{f.check}: {f.detail}" for f in bad)
        + ". If an ingest was interrupted, run it again (it resumes); if problems remain, rebuild with "
        f"{REBUILD_HINT} (or restore a backup)"
    )
