"""``paperchat bench --scale N``: speed, memory and disk at tens of thousands of papers, embedding nothing.

For each size ``N``, :func:`run_scale`:

1. copies the base store (a real store of the conference: ``--base-store``,
   else one built once by ``paperchat ingest`` into the user cache folder
   and reused; the base itself is never written) into a temporary folder,
   once, and re-ingests the corpus files there (so records an earlier
   paperchat wrote are brought up to date once), then copies that for each size;
2. grows the copy to ``N`` papers with replicas of its papers
   (:mod:`paperchat.evaluation.bench.scale_store`; a size at or below the base's
   count measures the base as it is);
3. re-ingests the corpus files once as a fresh process (``first re-ingest``:
   the full diff of every record, since writing replicas changed the store),
   so the next re-ingests find the run recorded;
4. measures, as fresh processes (``python -m paperchat ...``, wall clock,
   median, min and max of ``repeat`` runs after one warm-up run; peak
   resident memory from ``wait4``, :mod:`paperchat.evaluation.bench.cold`):
   ``ask`` on :data:`QUESTIONS` (each ``repeat`` times), ``papers --json``,
   and an unchanged ``ingest`` of the corpus files; all with
   ``PAPERCHAT_DAEMON=off`` and, when the installed paperchat has a
   ``daemon`` command, ``ask`` and ``papers --json`` again with
   ``PAPERCHAT_DAEMON=auto`` after ``paperchat daemon start`` (a warm daemon, as every command after
   the first meets it);
5. measures warm retrieval (top 5) p50 and p95 in ms over the eval questions,
   in one process after a warm-up query, and the store's size on disk (MiB,
   after the runs above, so with the BM25 index the first ``ask`` wrote).
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from paperchat.core.errors import PaperchatError

#: the fresh ``ask`` questions (eval q001, q003, q005): about bundled papers, which the conference holds too
QUESTIONS = (
    "What does ConfPO use to pick preference-critical tokens?",
    "Which six techniques does the GNN+ framework add to classic GNNs?",
    "What observation about hidden representations is CROW's backdoor defense built on?",
)
#: the size ``--scale`` measures when given without a number
DEFAULT_SIZE = 20_000
#: the conference file, relative to the folder holding the project checkout (the shared reference data)
CONFERENCE = Path("shared") / "data" / "icml2025_abstracts.jsonl"

Note = Callable[[str], None]


def find_conference() -> Path | None:
    """The conference file (:data:`CONFERENCE`) beside this checkout or the current folder's parents, or ``None``."""
    here = Path(__file__).resolve()
    for folder in [*here.parents, *Path.cwd().resolve().parents, Path.cwd().resolve()]:
        if (folder / CONFERENCE).is_file():
            return folder / CONFERENCE
    return None


def _env(store: Path, daemon: str = "off") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    return env | {
        "PAPERCHAT_STORE": str(store),
        "PAPERCHAT_MODE": "extractive",
        "PAPERCHAT_DAEMON": daemon,
        "ANONYMIZED_TELEMETRY": "False",
    }


EXE = [sys.executable, "-m", "paperchat"]


def _run(argv: list[str], env: dict[str, str], what: str) -> subprocess.CompletedProcess:
    out = subprocess.run(argv, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise PaperchatError(f"{what} failed: {last}")
    return out


def base_store_for(corpus: list[Path], note: Note) -> tuple[Path, bool]:
    """A store of ``corpus`` in the user cache folder, built by ``paperchat ingest`` when missing (minutes);
    ``(folder, built now)``. A folder whose build did not finish is built again."""
    from paperchat.core.config_file import user_cache_dir
    from paperchat.core.text import short_hash
    from paperchat.ingest.manifest import content_hash, file_key

    key = short_hash("|".join(f"{file_key(f)}:{content_hash(f)}" for f in corpus), 12)
    folder = user_cache_dir() / "bench-scale" / f"base-{key}"
    done = folder / "bench-base.json"
    if done.is_file():
        note(f"base store: {folder} (built earlier from {', '.join(map(str, corpus))})")
        return folder, False
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    note(f"building the base store in {folder} with `paperchat ingest` (minutes; reused next time)")
    if subprocess.run(EXE + ["ingest", *map(str, corpus)], env=_env(folder)).returncode != 0:
        raise PaperchatError(f"building the base store in {folder} failed (see above)")
    done.write_text(json.dumps({"corpus": [file_key(f) for f in corpus]}), encoding="utf-8")
    return folder, True


def disk_mib(folder: Path) -> float:
    """Space the files under ``folder`` take on disk (MiB, allocated blocks)."""
    total = 0
    for root, _dirs, files in os.walk(folder):
        for name in files:
            try:
                st = os.lstat(os.path.join(root, name))
            except OSError:
                continue
            total += getattr(st, "st_blocks", 0) * 512 or st.st_size
    return total / 2**20


def _check_holds(store, corpus: list[Path]) -> None:
    """Raise :class:`PaperchatError` when the store lacks papers of ``corpus`` (a re-ingest would embed them)."""
    from paperchat.ingest.corpus import load_file

    records = store.papers(abstracts=False)
    known = set(records) | {a for r in records.values() for a in r.aliases}
    for path in corpus:
        missing = [p.paper_id for p in load_file(path)[0] if p.paper_id not in known]
        if missing:
            raise PaperchatError(
                f"the base store does not hold {len(missing)} of the papers of {path} (e.g. "
                f"{missing[0]}); give --base-store a store built from it, or leave it out"
            )


def _cold(argvs: list[list[str]], env: dict[str, str], repeat: int) -> dict[str, Any]:
    """Fresh-process figures of the commands ``argvs`` (each run ``repeat`` times after one warm-up of the first)."""
    from paperchat.evaluation.bench.cold import _spawn

    _run(argvs[0], env, f"`paperchat {argvs[0][3]}`")
    runs = [_spawn(argv, env) for argv in argvs for _ in range(repeat)]
    walls = [w for w, _m, _p, _c in runs]
    return {
        "median_s": statistics.median(walls),
        "min_s": min(walls),
        "max_s": max(walls),
        "cpu_s": statistics.median(c for _w, _m, _p, c in runs),
        "peak_rss_mib": max(m for _w, m, _p, _c in runs),
        "runs": len(runs),
    }


def daemon_supported(env: dict[str, str]) -> bool:
    """Whether the installed paperchat has a ``daemon`` command (``paperchat daemon --help`` exits 0)."""
    return subprocess.run(EXE + ["daemon", "--help"], env=env, capture_output=True).returncode == 0


def warm_retrieval(store: str, n_questions: int = 60) -> dict[str, float]:
    """Warm top-5 retrieval over the first ``n_questions`` eval questions in this process: p50 and p95 (ms)."""
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine
    from paperchat.evaluation.bench.speed import _pct, _questions

    engine = Engine(load_settings({"store": store}))
    questions = _questions()[:n_questions]
    engine.retrieve(questions[0], 5)
    times = []
    for q in questions:
        t = time.perf_counter()
        engine.retrieve(q, 5)
        times.append((time.perf_counter() - t) * 1000)
    return {"p50": _pct(times, 0.5), "p95": _pct(times, 0.95), "questions": len(times)}


_WARM = (
    "import json, sys; from paperchat.evaluation.bench.scale import warm_retrieval as w; "
    "print(json.dumps(w(sys.argv[1], int(sys.argv[2]))))"
)


def measure(
    store: Path, corpus: list[Path], repeat: int, n_questions: int, daemon: bool
) -> dict[str, Any]:
    """Steps 3 to 5 of the module docstring on a grown ``store`` (fresh processes)."""
    env = _env(store)
    ingest = EXE + ["ingest", *map(str, corpus), "--quiet"]
    t = time.perf_counter()
    _run(ingest, env, "the first re-ingest")
    out: dict[str, Any] = {"first_reingest_s": time.perf_counter() - t}
    cold = {
        "ask": _cold([EXE + ["ask", q, "--quiet"] for q in QUESTIONS], env, repeat),
        "papers --json": _cold([EXE + ["papers", "--json"]], env, repeat),
        "ingest (unchanged)": _cold([ingest], env, repeat),
    }
    out["cold"] = cold
    if daemon:
        warm_env = _env(store, "auto")
        try:  # a daemon started and answering first: what every command after the first one meets
            _run(EXE + ["daemon", "start"], warm_env, "daemon start")
            out["cold_daemon"] = {
                "ask": _cold([EXE + ["ask", q, "--quiet"] for q in QUESTIONS], warm_env, repeat),
                "papers --json": _cold([EXE + ["papers", "--json"]], warm_env, repeat),
            }
        except PaperchatError as exc:
            out["cold_daemon"] = {"error": str(exc)}
        finally:
            subprocess.run(EXE + ["daemon", "stop"], env=warm_env, capture_output=True)
    got = _run([sys.executable, "-c", _WARM, str(store), str(n_questions)], env, "warm retrieval")
    warm = json.loads(got.stdout.strip().splitlines()[-1])
    out |= {
        "retrieval_ms_p50": warm["p50"],
        "retrieval_ms_p95": warm["p95"],
        "warm_questions": warm["questions"],
    }
    out["disk_mib"] = disk_mib(store)
    return out


def measure_size(
    base: Path,
    target: int,
    corpus: list[Path],
    repeat: int = 5,
    n_questions: int = 60,
    daemon: bool = False,
    progress: Callable[[int, int], None] | None = None,
    keep: Path | None = None,
) -> dict[str, Any]:
    """Copy ``base``, grow the copy to ``target`` papers and measure it (see the module docstring).

    ``keep``: build the copy there (its parent is made) and leave it, instead of in a temporary folder; a
    store already there (an earlier run's) is grown to ``target`` if it holds fewer papers, and measured.
    """
    from paperchat.evaluation.bench.scale_store import scale_store
    from paperchat.store import open_store

    with tempfile.TemporaryDirectory(prefix="paperchat-scale-") as tmp:
        folder = keep or Path(tmp) / "store"
        reused = (
            folder / "chroma"
        ).is_dir()  # left by an earlier --keep run: measured again, not regrown
        if not reused:
            folder.parent.mkdir(parents=True, exist_ok=True)
            shutil.copytree(base, folder, ignore=shutil.ignore_patterns("*.lock"))
        store = open_store(folder, create=False)
        try:
            report = scale_store(store, target, progress=progress)
            sentences = store.collection("sentences").count()
        finally:
            store.close()
        out: dict[str, Any] = {
            "target": target,
            "papers": report.papers_after,
            "replicas": report.replicas,
            "chunks": report.total_chunks,
            "sentences": sentences,
            "build_s": report.seconds,
        }
        out |= measure(folder, corpus, repeat, n_questions, daemon)
        out["load_average_1min"] = os.getloadavg()[
            0
        ]  # others' work on the machine slows the figures down
        return out


def run_scale(
    sizes: list[int],
    corpus: list[Path],
    base_store: Path | None = None,
    repeat: int = 5,
    n_questions: int = 60,
    note: Note = print,
    progress_for: Callable[[int], Any] | None = None,
    keep: Path | None = None,
) -> dict[str, Any]:
    """Every size's figures (see the module docstring), smallest first, with the machine and the base used.

    ``progress_for(size)`` returns a progress callback for growing the store to ``size``; ``note`` prints a line;
    ``keep``: leave each size's store in ``keep/<size>`` instead of deleting it (one already there is measured again).
    Raises :class:`PaperchatError` when a step fails (its last line of stderr in the message).
    """
    built = False
    if base_store is None:
        base_store, built = base_store_for(corpus, note)
    elif not (base_store / "chroma").is_dir():
        raise PaperchatError(
            f"--base-store {base_store} is not a paperchat store (it has no chroma folder)"
        )
    daemon = daemon_supported(_env(base_store))
    out: dict[str, Any] = {
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
        },
        "date": time.strftime("%Y-%m-%d"),
        "base_store": str(base_store),
        "base_built_now": built,
        "corpus": [str(f) for f in corpus],
        "repeat": repeat,
        "daemon": daemon,
        "sizes": [],
    }
    with tempfile.TemporaryDirectory(prefix="paperchat-scale-base-") as tmp:
        primed = _primed_copy(base_store, Path(tmp) / "base", corpus, note)
        for size in sorted(set(sizes)):
            note(f"measuring at {size:,} papers")
            progress = progress_for(size) if progress_for else None
            folder = keep / str(size) if keep is not None else None
            out["sizes"].append(
                measure_size(primed, size, corpus, repeat, n_questions, daemon, progress, folder)
            )
    return out


def _primed_copy(base: Path, folder: Path, corpus: list[Path], note: Note) -> Path:
    """A copy of ``base`` in ``folder`` after one ``paperchat ingest`` of ``corpus`` (records an earlier paperchat
    wrote are brought up to date once here, not in every size's copy); raises when the base lacks their papers."""
    from paperchat.store import open_store

    shutil.copytree(base, folder, ignore=shutil.ignore_patterns("*.lock"))
    store = open_store(folder, create=False)
    try:
        _check_holds(store, corpus)
    finally:
        store.close()
    note("re-ingesting the corpus once into a copy of the base (the base is not written)")
    _run(
        EXE + ["ingest", *map(str, corpus), "--quiet"],
        _env(folder),
        "re-ingesting the copy of the base",
    )
    return folder


def _spread(row: dict[str, Any]) -> str:
    return f"{row['median_s']:.2f} ({row['min_s']:.2f}-{row['max_s']:.2f})"


ROWS: list[tuple[str, Callable[[dict], Any]]] = [
    ("papers", lambda s: f"{s['papers']:,}"),
    ("chunks / sentence vectors", lambda s: f"{s['chunks']:,} / {s['sentences']:,}"),
    ("grow the store (s)", lambda s: f"{s['build_s']:.0f}"),
    ("store on disk (MiB)", lambda s: f"{s['disk_mib']:.0f}"),
    ("fresh ask, median (min-max) s", lambda s: _spread(s["cold"]["ask"])),
    ("fresh ask, peak RSS (MiB)", lambda s: f"{s['cold']['ask']['peak_rss_mib']:.0f}"),
    ("fresh papers --json (s)", lambda s: _spread(s["cold"]["papers --json"])),
    ("fresh ingest, unchanged (s)", lambda s: _spread(s["cold"]["ingest (unchanged)"])),
    ("first re-ingest after growing (s)", lambda s: f"{s['first_reingest_s']:.1f}"),
    (
        "warm retrieval p50 / p95 (ms)",
        lambda s: f"{s['retrieval_ms_p50']:.0f} / {s['retrieval_ms_p95']:.0f}",
    ),
    ("load average at the end (1 min)", lambda s: f"{s['load_average_1min']:.1f}"),
    ("warm daemon: ask (s)", lambda s: _spread(s["cold_daemon"]["ask"])),
    ("warm daemon: papers --json (s)", lambda s: _spread(s["cold_daemon"]["papers --json"])),
]


def format_scale(figures: dict[str, Any]) -> str:
    """The figures as a text table: one row per figure, one column per size (a figure not measured is blank)."""
    sizes = figures["sizes"]
    cells = []
    for label, cell in ROWS:
        row = []
        for s in sizes:
            try:
                row.append(cell(s))
            except (KeyError, TypeError):
                row.append("")
        if any(row):
            cells.append((label, row))
    width = max(len(label) for label, _ in cells)
    cols = [max(18, *(len(r[i]) for _l, r in cells)) for i in range(len(sizes))]
    head = [f"{s['papers']:,} papers".rjust(w) for s, w in zip(sizes, cols)]
    lines = [f"{'':{width}}  " + "  ".join(head)]
    lines += [
        f"{label.ljust(width)}  " + "  ".join(v.rjust(w) for v, w in zip(row, cols))
        for label, row in cells
    ]
    machine = figures.get("machine", {})
    lines.append(
        f"\n{figures.get('date', '')}, {machine.get('cpus', '?')} cores; fresh processes: median of "
        f"{figures.get('repeat', '?')} runs (ask: of each of {len(QUESTIONS)} questions) with "
        f"PAPERCHAT_DAEMON=off; base store {figures.get('base_store', '')}"
    )
    return "\n".join(lines)
