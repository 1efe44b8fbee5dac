"""The chat's slash commands: each takes the session (:class:`paperchat.chat.session.ChatSession`) and its
argument and returns a :class:`~paperchat.chat.turns.Reply`."""

from __future__ import annotations

import difflib
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from paperchat.chat.transcript import transcript_markdown
from paperchat.chat.turns import Reply, Turn
from paperchat.core.contract import Source
from paperchat.core.display import plain_emphasis
from paperchat.core.resolution import RESTRICT, Resolution
from paperchat.ingest.records import PaperRecord

Session = Any  # a paperchat.chat.session.ChatSession (imported by it, so not named here)

HELP = """\
Ask a question about the papers; follow-ups may say "it", "this paper", "the second one", "they".
Commands:
  /sources        the sources of the last answer
  /show N         the full abstract of source N (title, authors, url when known)
  /summarize N    a short cited summary of source N
  /why            how the last question was read: rewritten query, retrieved papers and scores
  /papers         the stored papers
  /history        the questions of this conversation
  /save FILE      write this conversation (answers, sources, citation checks) to a Markdown file
  /export FILE    write the papers this conversation cited as BibTeX entries (refs.bib);
                  /export FILE 1 3: sources 1 and 3 of the last list only
                  (an existing FILE is kept: /save FILE --force, /export FILE --force replace it)
  /reset          forget this conversation and start a new one
  /help           this list
  /quit           leave (also Ctrl-D)
Ctrl-C cancels an answer; the cancelled question is forgotten."""

COMMANDS = (
    "/help",
    "/sources",
    "/show",
    "/summarize",
    "/why",
    "/papers",
    "/history",
    "/save",
    "/export",
    "/reset",
    "/quit",
    "/exit",
)


def _source(session: Session, arg: str, command: str) -> tuple[Source, PaperRecord] | Reply:
    """Source ``arg`` (1-based) of the list (:attr:`ChatSession.list_turn`, what "the first one" counts too) and its
    stored record, or a Reply saying why not."""
    if session.last is None:
        return Reply(text="No sources yet: ask a question first.")
    listed = session.list_turn
    if listed is None:
        return Reply(text="No answer so far cited sources.")
    sources = listed.sources
    arg = arg.strip().strip("[]#")
    if not arg.isdigit() or not 1 <= int(arg) <= len(sources):
        if len(sources) == 1:
            return Reply(text=f"The last answer has 1 source: {command} 1.")
        return Reply(
            text=f"Give a source number of the last answer, from 1 to {len(sources)}, e.g. {command} 1."
        )
    src = sources[int(arg) - 1]
    rec = session.engine.store.papers([src.paper_id]).get(src.paper_id)
    if rec is None:
        return Reply(text=f"Paper {src.paper_id} is no longer in the store.")
    return src, rec


def cmd_sources(session: Session, arg: str, on_token) -> Reply:
    """/sources: the last answer's Sources list."""
    if session.last is None:
        return Reply(text="No sources yet: ask a question first.")
    if not session.last.sources:
        return Reply(text="The last answer cited no sources.")
    return Reply(sources=list(session.last.sources))


def cmd_show(session: Session, arg: str, on_token) -> Reply:
    """/show N: the full abstract of source N with title, authors and url when known."""
    found = _source(session, arg, "/show")
    if isinstance(found, Reply):
        return found
    src, rec = found
    lines = [f"[{src.n}] {rec.name}"]
    listed = session.list_turn
    if (
        listed is not None
        and next((t for t in reversed(session.turns) if t.sources), None) is not listed
    ):
        lines.append(
            f'(source {src.n} of the answer to "{listed.question}")'
        )  # not the Sources shown last
    if rec.title and rec.label and rec.label != rec.title:
        lines.append(f"Label: {rec.label}")
    if rec.authors:
        lines.append("Authors: " + ", ".join(rec.authors))
    if rec.url:
        lines.append(f"URL: {rec.url}")
    lines.append(
        f"Paper id: {rec.paper_id} — {rec.source_path}{f' #{rec.source_index}' if rec.source_index else ''}"
    )
    lines += [
        "",
        "\n".join(
            textwrap.fill(plain_emphasis(p), session.width) for p in rec.abstract.split("\n")
        ),
    ]
    return Reply(text="\n".join(lines))


def cmd_summarize(session: Session, arg: str, on_token) -> Reply:
    """/summarize N: a cited summary of source N (remembered as a turn, so "it" then means that paper)."""
    t0 = time.perf_counter()
    found = _source(session, arg, "/summarize")
    if isinstance(found, Reply):
        return found
    src, rec = found
    if session.slow:
        time.sleep(session.slow)
    first: list[float] = []

    def stream(piece: str) -> None:
        first.append(time.perf_counter())
        if on_token:
            on_token(piece)

    answer = session.engine.summarize_record(rec, session.mode, stream)
    res = Resolution(
        f"/summarize {arg}",
        f"summary of {rec.name}",
        kind=RESTRICT,
        target_ids=[rec.paper_id],
        target_labels=[rec.name],
        cue=f"source [{src.n}]",
        note=f"summary of source [{src.n}] ({rec.name})",
    )
    turn = Turn(session.turn_count + 1, f"/summarize {arg}", res, answer, [], kind="summarize")
    turn.timings = {
        "first_output_s": round((first[0] if first else time.perf_counter()) - t0, 4),
        "total_s": round(time.perf_counter() - t0, 4),
    }
    turn.context = turn.sources or [src]
    reply = Reply(answer=answer, streamed=bool(first), stderr=[f"note: {n}" for n in answer.notes])
    reply.stderr += session.commit(turn)
    return reply


def cmd_why(session: Session, arg: str, on_token) -> Reply:
    """/why: the last question, its rewritten query, how it was read and the retrieved papers with scores."""
    t = session.last
    if t is None:
        return Reply(text="Nothing asked yet.")
    r = t.resolution
    lines = [
        f"Question: {t.question}",
        f"Query:    {r.query}" + ("  (unchanged)" if r.query == t.question else "  (rewritten)"),
        r.note,
    ]
    if t.hits:
        dense = any(h.get("dense") is not None for h in t.hits)
        lines.append(
            "Retrieved papers (rank, fused score" + (", dense cosine" if dense else "") + "):"
        )
        for i, h in enumerate(t.hits, 1):
            extra = f", dense {h['dense']:.3f}" if h.get("dense") is not None else ""
            mark = "  ← referred to" if h.get("referred") else ""
            lines.append(
                f"  {i}. {h.get('label') or h['paper_id']} — {h['paper_id']} — score {float(h['score']):.3f}{extra}{mark}"
            )
    else:
        lines.append("Retrieved papers: none")
    if t.timings:
        lines.append(f"Time: {t.timings.get('first_output_s', 0):.2f} s to the answer")
    return Reply(text="\n".join(lines))


def cmd_history(session: Session, arg: str, on_token) -> Reply:
    """/history: this conversation's questions (the ones kept in memory)."""
    if not session.turns:
        return Reply(text="No questions yet in this conversation.")
    lines = [f"Conversation {session.conversation_id}:"]
    dropped = session.turns[0].n - 1
    if dropped > 0:
        lines.append(
            f"  ({dropped} earlier turns are not kept in memory; `paperchat history` lists them)"
        )
    for t in session.turns:
        cited = ", ".join(f"[{s.n}] {s.name}" for s in t.sources) or "no sources"
        lines.append(f"  {t.n}. {t.question}  → {cited}")
    return Reply(text="\n".join(lines))


def cmd_reset(session: Session, arg: str, on_token) -> Reply:
    """/reset: forget the conversation (a new conversation id)."""
    session.reset()
    return Reply(text="Conversation reset: follow-ups now start afresh.")


def _split_force(arg: str) -> tuple[str, bool]:
    """``(file name, force)`` of a ``/save`` or ``/export`` argument: "chat.md --force" -> ("chat.md", True);
    a bare "--force" names no file."""
    arg = arg.strip()
    force = arg == "--force" or arg.endswith(" --force")
    return arg.removesuffix("--force").strip() if force else arg, force


def _refused(path: Path, arg: str, force: bool, command: str, example: str) -> Reply | None:
    """Why ``command`` (``/save``, ``/export``) does not write ``path``: a folder, or a file that exists and
    no ``--force``; ``None`` when it may."""
    if path.is_dir():
        return Reply(text=f"{path} is a folder; give a file name, e.g. {command} {path / example}")
    if path.exists() and not force:
        return Reply(text=f"{path} exists; {command} {arg} --force replaces it.")
    return None


def cmd_save(session: Session, arg: str, on_token) -> Reply:
    """/save FILE: write the remembered turns as Markdown (answers and sources as shown)."""
    arg, force = _split_force(arg)
    if not arg:
        return Reply(text="Give a file name, e.g. /save chat.md")
    if not session.turns:
        return Reply(text="Nothing to save yet.")
    path = Path(arg).expanduser()
    refused = _refused(path, arg, force, "/save", "chat.md")
    if refused:
        return refused
    try:
        path.write_text(
            transcript_markdown(list(session.turns), session.conversation_id), encoding="utf-8"
        )
    except OSError as exc:
        return Reply(text=f"Could not save to {path}: {exc.strerror or exc}")
    n = len(session.turns)
    return Reply(text=f"Saved {n} turn{'s' if n != 1 else ''} to {path}")


def cmd_export(session: Session, arg: str, on_token) -> Reply:
    """/export FILE.bib [N ...]: the papers the remembered turns cited (in order of first citation), or sources N
    of the list (what /show N counts), as BibTeX entries. A file name holds no space (a reading-group
    session's "/export pick.bib 1 3" had written a file named "pick.bib 1 3")."""
    from paperchat.core.errors import PaperchatError

    arg, force = _split_force(arg)
    name, *picks = arg.split() or [""]
    if not name:
        return Reply(text="Give a file name, e.g. /export refs.bib")
    ids = list(dict.fromkeys(s.paper_id for turn in session.turns for s in turn.sources))
    if not ids:
        return Reply(text="No answer so far cited papers: nothing to export.")
    if picks:  # "/export picks.bib 1 3": sources 1 and 3 of the list, not every paper cited
        chosen = [_source(session, n, "/export refs.bib") for n in picks]
        refused = next((c for c in chosen if isinstance(c, Reply)), None)
        if refused:
            return refused
        ids = list(dict.fromkeys(src.paper_id for src, _ in chosen))
    path = Path(name).expanduser()
    refused = _refused(path, name, force, "/export", "refs.bib")
    if refused:
        return refused
    try:
        n = session.engine.write_bibtex(path, ids)
    except PaperchatError as exc:
        return Reply(text=f"Could not export to {path}: {exc}")
    said = f"Exported {n} BibTeX {'entry' if n == 1 else 'entries'} to {path}"
    if picks:  # which papers the numbers counted (a reference-manager session could not tell)
        said += ": " + "; ".join(
            f"[{k}] {src.title or src.paper_id}" for k, (src, _) in zip(picks, chosen)
        )
    return Reply(text=said)


HANDLERS: dict[str, Callable[[Session, str, object], Reply]] = {
    "/help": lambda s, a, t: Reply(text=HELP),
    "/sources": cmd_sources,
    "/show": cmd_show,
    "/summarize": cmd_summarize,
    "/summary": cmd_summarize,
    "/why": cmd_why,
    "/papers": lambda s, a, t: Reply(papers=s.engine.papers(s.filters)),
    "/history": cmd_history,
    "/save": cmd_save,
    "/export": cmd_export,
    "/reset": cmd_reset,
}


def run_command(session: Session, text: str, on_token=None) -> Reply:
    """Run one slash command (unknown ones get a hint); ``/quit`` ends the session."""
    name, _, arg = text.partition(" ")
    name, arg = name.lower(), arg.strip()
    if name in ("/quit", "/exit", "/q"):
        return Reply(done=True)
    handler = HANDLERS.get(name)
    if handler is None:
        close = difflib.get_close_matches(name, COMMANDS, n=1, cutoff=0.6)
        hint = f" Did you mean {close[0]}?" if close else ""
        return Reply(text=f"Unknown command {name}.{hint} Type /help for the commands.")
    return handler(session, arg, on_token)
