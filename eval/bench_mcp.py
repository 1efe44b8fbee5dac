"""Warm latency of each ``paperchat mcp`` tool, and of filtered retrieval, on an existing store.

MCP: starts ``paperchat --store STORE mcp`` as a subprocess and drives it with the SDK's stdio client,
as an agent's host does; the first call of each tool warms it up and is not counted, then each tool is
called ``--repeat`` times (round-trip time at the client: JSON-RPC over the pipes included).

Filtered retrieval: in this process, the engine's hybrid retrieval (question embedded, then dense chunk,
dense sentence and BM25 searches, fused) with each filter in turn, ``--repeat`` times after a warm-up.

Besides wall time, each figure has the CPU time spent (``cpu_ms``: of this process per call, p50/p95;
for the server, its mean per call from /proc, Linux only): on a machine busy with other work, wall
time measures the wait for a core, CPU time what the call costs.

    python eval/bench_mcp.py --store DIR                 # e.g. a store with the 2,732 ICML 2025 papers
    python eval/bench_mcp.py --store DIR --repeat 30 --json

Offline (extractive answers); the questions are the conference dev questions (eval/conference/dev.jsonl).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def questions(n: int) -> list[str]:
    rows = [
        json.loads(line)
        for line in (HERE / "conference" / "dev.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    return [r["question"] for r in rows if r.get("answerable", True)][:n]


def summary(ms: list[float], prefix: str = "") -> dict[str, float]:
    ms = sorted(ms)
    return {
        f"{prefix}p50_ms": round(statistics.median(ms), 1),
        f"{prefix}p95_ms": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 1),
        f"{prefix}max_ms": round(ms[-1], 1),
    }


def server_cpu_ms() -> float | None:
    """CPU time (user + system, ms) used so far by this process's child (the server), or ``None`` off Linux."""
    try:
        children = [
            int(pid)
            for task in Path("/proc/self/task").iterdir()
            for pid in (task / "children").read_text().split()
        ]
        fields = Path(f"/proc/{children[-1]}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


async def bench_tools(store: str, repeat: int) -> dict[str, dict[str, float]]:
    from mcp import Client, StdioServerParameters

    env = {k: v for k, v in os.environ.items() if k in ("PYTHONPATH", "PAPERCHAT_CONFIG")}
    env.update(ANONYMIZED_TELEMETRY="False", HF_HUB_OFFLINE="1", PAPERCHAT_MODE="extractive")
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "paperchat", "--store", store, "mcp"], env=env
    )
    qs = questions(repeat + 1)
    async with Client(params) as client:
        listing = (await client.call_tool("list_papers", {"limit": repeat + 1})).structured_content[
            "papers"
        ]
        ids = [p["paper_id"] for p in listing]
        venue = listing[0]["venue"] or None
        calls = {
            "search_papers": lambda i: ("search_papers", {"query": qs[i], "top_k": 5}),
            "ask": lambda i: ("ask", {"question": qs[i]}),
            "ask (venue filter)": lambda i: (
                "ask",
                {"question": qs[i], "filters": {"venue": venue}},
            ),
            "get_paper": lambda i: ("get_paper", {"paper_id": ids[i]}),
            "summarize": lambda i: ("summarize", {"target": ids[i]}),
            "list_papers": lambda i: ("list_papers", {"limit": 50, "offset": i}),
        }
        figures = {}
        for label, make in calls.items():
            times, cpu0 = [], None
            for i in range(repeat + 1):
                name, arguments = make(i)
                t0 = time.perf_counter()
                result = await client.call_tool(name, arguments)
                elapsed = (time.perf_counter() - t0) * 1000
                if result.is_error:
                    raise SystemExit(f"{label}: {result.content[0].text}")
                if i:  # the first call of each tool warms it up
                    times.append(elapsed)
                else:
                    cpu0 = server_cpu_ms()
            cpu1 = server_cpu_ms()
            figures[label] = {"n": len(times), **summary(times)}
            if cpu0 is not None and cpu1 is not None:
                figures[label]["server_cpu_ms_mean"] = round((cpu1 - cpu0) / len(times), 1)
    return figures


def bench_filtered_retrieval(store: str, repeat: int) -> dict[str, dict[str, float]]:
    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine
    from paperchat.retrieve.filters import Filters

    engine = Engine(load_settings({"store": store, "mode": "extractive"}))
    records = engine.store.papers(abstracts=False)
    some = sorted(records.values(), key=lambda r: r.paper_id)
    author = next(a for r in some for a in r.authors if len(a.split()[-1]) > 3).split()[-1]
    venue = next((r.venue for r in some if r.venue), None)
    cases = {
        "none": Filters(),
        "author": Filters.of(author=author),
        "papers (20 ids)": Filters.of(papers=[r.paper_id for r in some[:20]]),
    }
    if venue:
        cases["venue"] = Filters.of(venue=venue)
    qs = questions(repeat + 1)
    figures = {}
    for label, filters in cases.items():
        times, cpu = [], []
        for i, q in enumerate(qs):
            t0, c0 = time.perf_counter(), time.process_time()
            ids = engine.paper_ids(filters)
            engine.retrieve(q, 5, qvec=engine.embedder.embed_one(q), paper_ids=ids)
            if i:
                times.append((time.perf_counter() - t0) * 1000)
                cpu.append((time.process_time() - c0) * 1000)
        figures[label] = {
            "n": len(times),
            **summary(times),
            **summary(cpu, "cpu_"),
            "papers": len(ids) if ids is not None else len(records),
        }
    return figures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", required=True, help="an existing store folder")
    ap.add_argument(
        "--repeat", type=int, default=20, help="timed calls per tool (after one warm-up call)"
    )
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    import anyio

    figures = {
        "mcp_tools": anyio.run(bench_tools, args.store, args.repeat),
        "filtered_retrieval": bench_filtered_retrieval(args.store, args.repeat),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        for part, rows in figures.items():
            print(part)
            for label, row in rows.items():
                print(f"  {label:20} " + "  ".join(f"{k} {v}" for k, v in row.items()))
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
