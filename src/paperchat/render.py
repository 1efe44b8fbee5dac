"""Terminal rendering of answers, sources and paper lists (plain text, no ML imports)."""

from __future__ import annotations

import sys
import textwrap
from typing import Any, Callable

NO_LLM_NOTE = (
    "note: no LLM configured; answered extractively by quoting the abstracts. "
    "Set OPENAI_API_KEY (or --base-url for a local OpenAI-compatible server) to get written answers."
)


def _wrap(text: str, width: int = 88) -> str:
    return "\n".join(textwrap.fill(p, width=width) for p in text.split("\n"))


def source_line(src: dict[str, Any]) -> str:
    """``[n] Title or label — paper id — file #position (url)``."""
    origin = src.get("origin") or {}
    where = f"{origin.get('path', '')} #{origin.get('index', '')}".strip()
    parts = [f"[{src['n']}] {src.get('title') or src.get('label')}", src["paper_id"], where]
    line = " — ".join(p for p in parts if p)
    if src.get("url"):
        line += f"  {src['url']}"
    return line


def render_sources(sources: list[dict[str, Any]]) -> str:
    """The numbered Sources block (empty string when there are none)."""
    if not sources:
        return ""
    return "Sources:\n" + "\n".join("  " + source_line(s) for s in sources)


def render_answer(result: dict[str, Any], width: int = 88) -> str:
    """An ``ask`` result as terminal text: the answer, a blank line, the Sources list."""
    out = [_wrap(result["answer"], width)]
    sources = render_sources(result.get("sources") or [])
    if sources:
        out += ["", sources]
    return "\n".join(out)


def render_papers(papers: list[dict[str, Any]]) -> str:
    """A table of stored papers: id, label or title, chunk count, origin."""
    if not papers:
        return "(no papers stored)"
    rows = []
    for p in papers:
        name = p["title"] or p["label"]
        if len(name) > 60:
            name = name[:59] + "…"
        origin = f"{p['origin']['path']} #{p['origin']['index']}"
        rows.append((p["paper_id"], name, str(p["chunks"]), origin))
    widths = [max(len(r[i]) for r in rows + [("id", "label / title", "chunks", "origin")]) for i in range(4)]
    header = ("id", "label / title", "chunks", "origin")
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    lines.append(f"{len(papers)} papers, {sum(p['chunks'] for p in papers)} chunks")
    return "\n".join(lines)


def render_checks(result: dict[str, Any]) -> str:
    """The citation-check marks of an LLM answer: one ⚠ line per unsupported sentence (empty if none)."""
    lines = []
    for i, sent in enumerate(result.get("sentences") or [], 1):
        if sent.get("supported"):
            continue
        cites = ", ".join(f"[{n}]" for n in sent.get("citations") or []) or "no citation"
        why = ""
        if sent.get("missing"):
            why = "; not in the cited source: " + ", ".join(str(m) for m in sent["missing"])
        text = sent["text"] if len(sent["text"]) <= 90 else sent["text"][:89] + "…"
        lines.append(f"  ⚠ sentence {i} ({cites}, support {sent.get('score', 0):.2f}{why}): {text}")
    if result.get("incomplete"):
        lines.append("  ⚠ the answer is incomplete: the stream broke off")
    return ("Citation checks:\n" + "\n".join(lines)) if lines else ""


def render_answer_marked(result: dict[str, Any], width: int = 88) -> str:
    """Like :func:`render_answer`, with ⚠ after each sentence the citation check did not support."""
    answer = result["answer"]
    for sent in result.get("sentences") or []:
        if not sent.get("supported") and sent["text"] in answer:
            answer = answer.replace(sent["text"], sent["text"] + " ⚠", 1)
    return render_answer({**result, "answer": answer}, width)


def _is_tty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


LOG_EVERY_S = 10.0  # PAPERCHAT_PROGRESS_INTERVAL overrides it (seconds; 0: a line per batch)


def _log_interval() -> float:
    import os

    try:
        return max(0.0, float(os.environ.get("PAPERCHAT_PROGRESS_INTERVAL", LOG_EVERY_S)))
    except ValueError:
        return LOG_EVERY_S


def _log_lines(desc: str, unit: str) -> Callable[[int, int], None]:
    """Progress for a stderr that is not a terminal (logs, CI): a plain line at most every
    ``PAPERCHAT_PROGRESS_INTERVAL`` seconds (default 10), and one at the end."""
    import time

    state = {"start": time.perf_counter(), "last": 0.0, "total": None}
    every = _log_interval()

    def callback(done: int, total: int) -> None:
        now = time.perf_counter()
        if done == 0 or total != state["total"]:
            state.update(start=now, last=now, total=total)
            return
        if done < total and now - state["last"] < every:
            return
        state["last"] = now
        rate = done / max(now - state["start"], 1e-9)
        eta = f", about {int((total - done) / rate)} s left" if done < total and rate > 0 else ""
        print(f"{desc}: {done}/{total} {unit}s ({100 * done // max(total, 1)}%), {rate:.1f} {unit}/s{eta}",
              file=sys.stderr, flush=True)

    return callback


def progress_bar(desc: str, unit: str = "chunk", quiet: bool = False) -> Callable[[int, int], None] | None:
    """A progress callback ``(done, total)`` drawing a tqdm bar (rate, ETA) on stderr; ``None`` when quiet.

    When stderr is not a terminal (a log file, CI), plain lines are written
    instead: at most one every ``LOG_EVERY_S`` seconds, and one at the end.

    The callback may serve several runs in a row (e.g. two ingests): a new
    bar starts whenever ``done`` goes back to 0 or the total changes.
    """
    if quiet:
        return None
    if not _is_tty(sys.stderr):
        return _log_lines(desc, unit)
    state: dict = {}

    def callback(done: int, total: int) -> None:
        bar = state.get("bar")
        if bar is None or done < bar.n or total != bar.total:
            if bar is not None:
                bar.close()
            from tqdm import tqdm

            bar = state["bar"] = tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return callback
