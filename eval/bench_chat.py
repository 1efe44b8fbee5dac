"""Chat REPL latency and memory: time from Enter to the first answer character.

Runs ``paperchat chat`` as a subprocess with piped stdin (offline, extractive),
one question per line, and reads each turn's ``first_output_s`` (measured by
the REPL from the moment it reads the line to its first printed answer
character) back from the turn log with ``paperchat history --json`` (so with
``--store`` the timed turns are added to that store's history). The first
turn warms the process up and is not counted. Peak resident memory is the
chat process's ``ru_maxrss`` (Linux: KiB).

    python eval/bench_chat.py                       # fresh temporary store, bundled corpus
    python eval/bench_chat.py --store DIR           # an existing store (e.g. with the 2.7k corpus)
    python eval/bench_chat.py --turns 20 --json

Questions: the answerable, self-contained questions of eval/questions.jsonl, in order.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def questions(n: int) -> list[str]:
    rows = [
        json.loads(line)
        for line in (HERE / "questions.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    picked = [
        r["question"] for r in rows if r.get("answerable") and r.get("kind") not in ("follow-up",)
    ]
    return picked[: n + 1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--store",
        help="existing store folder (default: a fresh temporary one with the bundled corpus)",
    )
    ap.add_argument("--turns", type=int, default=20, help="timed turns (after one warm-up turn)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="paperchat-bench-chat-"))
    try:
        store = Path(args.store) if args.store else tmp / "store"
        env = {
            **os.environ,
            "PAPERCHAT_STORE": str(store),
            "PAPERCHAT_HISTORY": "1",
            "PAPERCHAT_MODE": "extractive",
            "PAPERCHAT_CONFIG": str(tmp / "none.toml"),
        }
        (tmp / "none.toml").write_text("", encoding="utf-8")
        if not args.store:
            subprocess.run(
                [sys.executable, "-m", "paperchat", "ingest", "--quiet"], env=env, check=True
            )
        qs = questions(args.turns)
        # A small parent process runs the chat, so ru_maxrss covers the chat alone (not the ingest above).
        wrapper = (
            "import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
        )
        done = subprocess.run(
            [sys.executable, "-c", wrapper, sys.executable, "-m", "paperchat", "chat"],
            input="\n".join(qs) + "\n",
            env=env,
            text=True,
            capture_output=True,
            check=True,
        )
        peak_mib = int(done.stdout.strip().splitlines()[-1]) / 1024
        out = subprocess.run(
            [sys.executable, "-m", "paperchat", "history", "--json", "-n", str(len(qs))],
            env=env,
            text=True,
            capture_output=True,
            check=True,
        ).stdout
        turns = json.loads(out)
        firsts = [float(t["timings"]["first_output_s"]) * 1000 for t in turns[1:]]
        if not firsts:
            print("no timed turns were logged", file=sys.stderr)
            return 1
        firsts.sort()
        figures = {
            "turns": len(firsts),
            "first_char_median_ms": round(statistics.median(firsts), 1),
            "first_char_p95_ms": round(firsts[min(len(firsts) - 1, int(0.95 * len(firsts)))], 1),
            "first_char_max_ms": round(firsts[-1], 1),
            "peak_rss_mib": round(peak_mib),
        }
        if args.json:
            print(json.dumps(figures, indent=2))
        else:
            for key, value in figures.items():
                print(f"{key:24} {value}")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
