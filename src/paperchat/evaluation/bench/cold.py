"""What users wait for: each command as a fresh process, the way a shell starts it (part of ``paperchat bench``).

For ``paperchat --help``, ``ask``, ``ask --mode llm`` (against an instant
loopback server, :mod:`paperchat.evaluation.bench.instant_llm`), ``papers --json``,
``history`` and an unchanged ``ingest`` of the bench corpus,
:func:`run_cold` starts ``repeat`` processes one after another and reports
the wall clock (median, min and max, seconds), the CPU time (user + system,
median) and peak resident memory (MiB, from ``wait4``). The LLM ``ask``'s
target is the offline ``ask``'s median + 0.5 s + the server's own median
time per answer. Every run
also records its phase marks (:mod:`paperchat.core.phases`), reported as the
median time spent between marks: ``start`` is the interpreter starting and
importing the CLI; the rest are named after the mark that ends them. One
more ``ask`` runs under ``python -X importtime`` for the import time by
top-level package (self time summed, ms; imports overlap nothing, so they add
up to the import share of ``start`` and later phases).
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

QUESTION = "What does ConfPO use to pick preference-critical tokens?"
#: the issue-14 targets (seconds, median wall clock on an idle 2-core machine)
TARGETS = {"ask": 0.7, "ingest (unchanged)": 1.0, "papers --json": 0.3, "history": 0.3}


#: Runs one command and prints its wall time and peak RSS. It is a small process of its own, because a child
#: forked from the bench (hundreds of MiB by then) would report the bench's memory as its own peak.
_LAUNCHER = """
import json, os, subprocess, sys, time
t_wall, t0 = time.perf_counter(), time.time()
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_pid, _status, usage = os.wait4(proc.pid, 0)
print(json.dumps([time.perf_counter() - t_wall, usage.ru_maxrss / 1024, t0, usage.ru_utime + usage.ru_stime]))
"""


def _spawn(argv: list[str], env: dict[str, str]) -> tuple[float, float, list, float]:
    """Run one process; ``(wall s, peak RSS MiB, phase marks relative to the spawn, CPU s)``."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as fh:
        marks_file = fh.name
    out = subprocess.run(
        [sys.executable, "-c", _LAUNCHER, *argv],
        env={**env, "PAPERCHAT_PHASES": marks_file},
        capture_output=True,
        text=True,
    )
    wall, rss, t0, cpu = json.loads(out.stdout)
    try:
        marks = [(name, t - t0) for name, t in json.loads(Path(marks_file).read_text())["marks"]]
    except (OSError, ValueError, KeyError):
        marks = []
    finally:
        Path(marks_file).unlink(missing_ok=True)
    return wall, rss, marks, cpu


def _phases(runs: list[list]) -> dict[str, float]:
    """Median seconds spent reaching each mark from the previous one (``start``: spawn to the CLI)."""
    spans: dict[str, list[float]] = {}
    for marks in runs:
        prev = 0.0
        for name, t in marks:
            spans.setdefault("start" if name == "cli" else name, []).append(t - prev)
            prev = t
    return {name: statistics.median(v) for name, v in spans.items()}


def import_breakdown(argv: list[str], env: dict[str, str], top: int = 8) -> dict[str, float]:
    """Import self time (ms) by top-level package of one run of ``argv`` under ``python -X importtime``."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", *argv[1:]], env=env, capture_output=True, text=True
    )
    totals: Counter = Counter()
    for line in out.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)", line)
        if m:
            totals[m.group(2).split(".")[0]] += int(m.group(1))
    return {name: us / 1000 for name, us in totals.most_common(top)} | {
        "(all)": sum(totals.values()) / 1000
    }


def run_cold(store: Path, files: list[Path], repeat: int = 5) -> dict[str, Any]:
    """The fresh-process figures on ``store`` (already holding ``files``); see the module docstring."""
    from paperchat.evaluation.bench.instant_llm import InstantLLM

    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    env |= {"PAPERCHAT_STORE": str(store), "PAPERCHAT_MODE": "extractive"}
    exe = [sys.executable, "-m", "paperchat"]
    out: dict[str, Any] = {}
    with InstantLLM() as llm:
        commands = {
            "--help": exe + ["--help"],
            "ask": exe + ["ask", QUESTION, "--quiet"],
            "ask --mode llm": exe
            + [
                "ask",
                QUESTION,
                "--quiet",
                "--mode",
                "llm",
                "--base-url",
                llm.base_url,
                "--model",
                "bench-model",
            ],
            "papers --json": exe + ["papers", "--json"],
            "history": exe + ["history"],
            "ingest (unchanged)": exe + ["ingest", *map(str, files), "--quiet"],
        }
        for name, argv in commands.items():
            subprocess.run(argv, env=env, capture_output=True)  # the first run warms the page cache
            llm.server_s.clear()
            runs = [_spawn(argv, env) for _ in range(repeat)]
            walls = [w for w, _m, _p, _c in runs]
            out[name] = {
                "median_s": statistics.median(walls),
                "min_s": min(walls),
                "max_s": max(walls),
                "cpu_s": statistics.median(c for _w, _m, _p, c in runs),
                "peak_rss_mib": max(m for _w, m, _p, _c in runs),
                "phases_s": _phases([p for _w, _m, p, _c in runs]),
                "target_s": TARGETS.get(name),
                "runs": repeat,
            }
            if name == "ask --mode llm":
                server = statistics.median(llm.server_s) if llm.server_s else 0.0
                out[name] |= {"server_s": server, "target_s": out["ask"]["median_s"] + 0.5 + server}
    out["ask_imports_ms"] = import_breakdown(commands["ask"], env)
    return out


def format_cold(cold: dict[str, Any]) -> str:
    """The fresh-process figures as text: one row per command, then its phases, then the ask imports."""
    lines = [
        f"{'fresh process':22s} {'median':>7s} {'min':>6s} {'max':>6s} {'target':>7s} {'CPU':>6s} {'peak MiB':>9s}"
        "  phases (median s)"
    ]
    for name, row in cold.items():
        if not isinstance(row, dict) or "median_s" not in row:
            continue
        target = f"{row['target_s']:.2f}" if row.get("target_s") else ""
        phases = ", ".join(f"{k} {v:.3f}" for k, v in row["phases_s"].items())
        lines.append(
            f"{name:22s} {row['median_s']:7.3f} {row['min_s']:6.3f} {row['max_s']:6.3f} {target:>7s} "
            f"{row.get('cpu_s', 0.0):6.3f} {row['peak_rss_mib']:9.0f}  {phases}"
        )
    imports = cold.get("ask_imports_ms") or {}
    if imports:
        lines.append(
            "ask imports by package (self ms): "
            + ", ".join(f"{k} {v:.0f}" for k, v in imports.items())
        )
    return "\n".join(lines)
