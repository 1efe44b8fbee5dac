"""The chat REPL: turns, follow-ups, slash commands, the turn log (testable without a terminal).

:class:`ChatSession` holds one conversation. ``session.handle(line)`` answers
a question or runs a slash command and writes plain text through ``out``;
:func:`run_terminal` (prompt_toolkit, when stdin and stdout are terminals)
and :func:`run_piped` (one question per line) are the two input loops.

A turn is remembered (kept in memory for follow-ups, written to the turn log)
only once its answer has been printed completely, so an answer cancelled with
Ctrl-C leaves no trace. Only the last ``max_turns`` turns stay in memory.

Answering is delegated to an *answerer* (the plug point for the LLM mode)::

    answerer.mode, answerer.model, answerer.streams     # "extractive", None, False offline
    answerer.ask(question, top_k, on_token) -> dict      # retrieve over all papers + answer
    answerer.answer(question, hits, records, on_token)   # answer from given retrieval hits
    answerer.summarize(record, on_token) -> dict         # one paper's summary, cited [1]
    answerer.condense(history, question) -> str | None   # follow-up rewriting (None: offline rules)

Every method returns the ``ask --json`` contract (:mod:`paperchat.pipeline`).
:class:`OfflineAnswerer` quotes the abstracts; :class:`LLMAnswerer` wraps
:mod:`paperchat.answer_llm`.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import shutil
import signal
import sys
import textwrap
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from paperchat.citations import ABSTENTION, source_entry
from paperchat.citations import cite_sentence as _cite
from paperchat.errors import PaperchatError
from paperchat.followup import BOOST, RESTRICT, STANDALONE, Resolution, UnresolvedReference, resolve, source_name
from paperchat.render import render_answer, render_papers, render_sources, source_line

#: questions longer than this many characters are refused with a message
from paperchat.pipeline import MAX_QUESTION_CHARS  # noqa: E402  (one limit for ask and chat)
#: turns kept in memory (for /history, /save and follow-ups); older ones stay in the turn log
MAX_TURNS = 50
#: turns of history given to an LLM when rewriting a follow-up
CONTEXT_TURNS = 6

Out = Callable[[str], None]

#: the interactive prompt
PROMPT = "paperchat> "

HELP = """\
Ask a question about the papers; follow-ups may say "it", "this paper", "the second one", "they".
Commands:
  /sources        the sources of the last answer
  /show N         the full abstract of source N (title, authors, url when known)
  /summarize N    a short cited summary of source N
  /why            how the last question was read: rewritten query, retrieved papers and scores
  /papers         the stored papers
  /history        the questions of this conversation
  /save FILE      write this conversation (answers and sources) to a Markdown file
  /reset          forget this conversation and start a new one
  /help           this list
  /quit           leave (also Ctrl-D)
Ctrl-C cancels an answer; the cancelled question is forgotten."""

COMMANDS = ("/help", "/sources", "/show", "/summarize", "/why", "/papers", "/history", "/save", "/reset", "/quit", "/exit")


# -- answerers ---------------------------------------------------------------


from paperchat.summarize import extractive_paper_summary as summary_sentences  # noqa: E402


class OfflineAnswerer:
    """Extractive answers (quoted abstract sentences, each cited) from an :class:`~paperchat.pipeline.Engine`."""

    mode = "extractive"
    model = None
    streams = False

    def __init__(self, engine):
        self.engine = engine
        self._vecs: dict[str, Any] = {}

    def embed(self, text: str):
        """The query embedding of ``text`` (the last few are cached)."""
        if text not in self._vecs:
            if len(self._vecs) >= 16:
                self._vecs.pop(next(iter(self._vecs)))
            self._vecs[text] = self.engine.embedder.embed_one(text)
        return self._vecs[text]

    def ask(self, question: str, top_k: int | None = None, on_token=None) -> dict[str, Any]:
        """Retrieve over all papers and answer: exactly ``Engine.ask`` (so chat and ``paperchat ask`` agree)."""
        return self.engine.ask(question, top_k=top_k)

    def answer(self, question: str, hits: list, records: dict[str, dict[str, Any]], on_token=None) -> dict[str, Any]:
        """Answer ``question`` from the given hits (rank order) only: ``Engine.answer_from_hits``, extractive."""
        return self.engine.answer_from_hits(question, hits, records, qvec=self.embed(question), mode="extractive")

    def summarize(self, record: dict[str, Any], on_token=None) -> dict[str, Any]:
        """An extractive summary of one paper (:func:`summary_sentences`), every sentence cited [1]."""
        t0 = time.perf_counter()
        sents = summary_sentences(str(record.get("abstract") or ""))
        base = {"question": f"Summarize {source_name(record)}", "mode": self.mode, "retrieved": []}
        if not sents:
            return {**base, "answer": ABSTENTION, "abstained": True, "sources": [], "timings": {"total_s": 0.0}}
        chunk_id, text = self.engine.evidence_chunk(record, sents)
        return {**base, "answer": " ".join(_cite(s, 1) for s in sents), "abstained": False,
                "sources": [source_entry(1, record, chunk_id, text)],
                "timings": {"total_s": round(time.perf_counter() - t0, 4)}}

    def condense(self, history: list[tuple[str, str]], question: str) -> str | None:
        """Offline: ``None`` (follow-ups are resolved by :func:`paperchat.followup.resolve`)."""
        return None


class LLMAnswerer(OfflineAnswerer):
    """Written answers by the configured LLM (:mod:`paperchat.answer_llm`), streamed; same interface."""

    mode = "llm"
    streams = True

    def __init__(self, engine, settings):
        super().__init__(engine)
        self.settings = settings
        self.model = settings.llm_model

    def ask(self, question: str, top_k: int | None = None, on_token=None) -> dict[str, Any]:
        """Retrieve over all papers and answer with the LLM: exactly ``Engine.ask`` in LLM mode."""
        return self.engine.ask(question, top_k=top_k, mode="llm", on_token=on_token)

    def answer(self, question: str, hits: list, records: dict[str, dict[str, Any]], on_token=None) -> dict[str, Any]:
        """The LLM's answer from the given hits only (``Engine.answer_from_hits`` in LLM mode)."""
        return self.engine.answer_from_hits(question, hits, records, qvec=self.embed(question), mode="llm",
                                            on_token=on_token)

    def summarize(self, record: dict[str, Any], on_token=None) -> dict[str, Any]:
        """:func:`paperchat.answer_llm.summarize_paper`."""
        from paperchat.answer_llm import summarize_paper

        return summarize_paper(record, self.settings, self.engine.embedder, on_token)

    def condense(self, history: list[tuple[str, str]], question: str) -> str | None:
        """:func:`paperchat.answer_llm.condense_question` (``prompts/condense.txt``)."""
        from paperchat.answer_llm import condense_question

        return condense_question(history, question, self.settings, max_turns=CONTEXT_TURNS)


def make_answerer(engine, settings):
    """The answerer the settings ask for: the LLM when ``mode`` is ``llm``, or ``auto`` with an LLM configured; else offline."""
    mode = str(getattr(settings, "mode", "auto") or "auto").lower()
    if mode == "llm":
        return LLMAnswerer(engine, settings)
    if mode == "auto":
        try:
            from paperchat.llm import llm_configured
        except ImportError:
            return OfflineAnswerer(engine)
        if llm_configured(settings):
            return LLMAnswerer(engine, settings)
    return OfflineAnswerer(engine)


# -- turns ---------------------------------------------------------------------


@dataclass
class Turn:
    """One answered turn: the question, how it was read, the answer contract and what was shown."""

    n: int
    question: str
    resolution: Resolution
    result: dict[str, Any]
    hits: list[dict[str, Any]] = field(default_factory=list)
    timings: dict[str, Any] = field(default_factory=dict)
    kind: str = "question"
    time: float = field(default_factory=time.time)
    context: list[dict[str, Any]] = field(default_factory=list)

    @property
    def sources(self) -> list[dict[str, Any]]:
        """The cited sources of the answer."""
        return self.result.get("sources") or []

    def log_record(self) -> dict[str, Any]:
        """The row written to the turn log."""
        r = self.resolution
        return {
            "time": self.time,
            "kind": self.kind,
            "question": self.question,
            "query": r.query,
            "resolution": {"kind": r.kind, "targets": r.target_ids, "labels": r.target_labels, "cue": r.cue, "note": r.note},
            "retrieved": self.hits,
            "answer": self.result.get("answer", ""),
            "sources": self.sources,
            "abstained": bool(self.result.get("abstained")),
            "mode": self.result.get("mode"),
            "model": self.result.get("model"),
            "timings": self.timings,
        }

    @classmethod
    def from_log(cls, row: dict[str, Any]) -> "Turn":
        """A turn rebuilt from a turn-log row (``chat --continue``)."""
        info = row.get("resolution") or {}
        res = Resolution(row["question"], row.get("query") or row["question"], kind=info.get("kind") or STANDALONE,
                         target_ids=list(info.get("targets") or []), target_labels=list(info.get("labels") or []),
                         cue=info.get("cue"), note=info.get("note") or "")
        result = {"question": row["question"], "answer": row["answer"], "sources": row["sources"],
                  "abstained": row["abstained"], "mode": row.get("mode"), "model": row.get("model"),
                  "retrieved": [{k: h.get(k) for k in ("paper_id", "chunk_id", "score")} for h in row["retrieved"]]}
        return cls(int(row["turn"]), row["question"], res, result, list(row["retrieved"]), dict(row.get("timings") or {}),
                   row.get("kind") or "question", float(row["time"]), list(row["sources"]))


@contextlib.contextmanager
def _interrupts_deferred():
    """Hold Ctrl-C (SIGINT) back while a turn is committed, so memory and log never disagree."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        previous = signal.signal(signal.SIGINT, lambda *_: None)
    except (ValueError, OSError):
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class ChatSession:
    """One conversation over a store.

    ``engine`` is a :class:`~paperchat.pipeline.Engine`; ``answerer`` one of
    the answerers above (default: :class:`OfflineAnswerer`); ``log`` a
    :class:`~paperchat.history.HistoryLog` or ``None`` (no logging); ``out``
    receives every line of output. ``slow`` (seconds) delays each answer
    (for tests of Ctrl-C).
    """

    def __init__(
        self,
        engine,
        answerer=None,
        out: Out | None = None,
        log=None,
        conversation_id: str | None = None,
        top_k: int | None = None,
        max_turns: int = MAX_TURNS,
        width: int = 88,
        verbose: bool = False,
        err: Out | None = None,
        slow: float = 0.0,
    ):
        from paperchat.history import new_conversation_id

        self.engine = engine
        self.answerer = answerer or OfflineAnswerer(engine)
        self.out: Out = out or (lambda text: print(text, flush=True))
        self.err: Out = err or (lambda text: print(text, file=sys.stderr, flush=True))
        self.log = log
        self.conversation_id = conversation_id or new_conversation_id()
        self.top_k = top_k
        self.turns: deque[Turn] = deque(maxlen=max_turns)
        self.turn_count = 0
        self.width = width
        self.verbose = verbose
        self.slow = slow
        self._log_failed = False

    # -- state -------------------------------------------------------------
    @property
    def last(self) -> Turn | None:
        """The last remembered turn."""
        return self.turns[-1] if self.turns else None

    @property
    def context(self) -> list[dict[str, Any]]:
        """The sources follow-ups refer to: the previous turn's (for a follow-up that cited nothing, the papers it referred to)."""
        return self.last.context if self.last else []

    def restore(self, rows: list[dict[str, Any]]) -> None:
        """Load earlier turns of this conversation (turn-log rows, oldest first)."""
        for row in rows:
            self.turns.append(Turn.from_log(row))
            self.turn_count = max(self.turn_count, int(row["turn"]))

    def reset(self) -> None:
        """Forget the conversation and start a new one (a new conversation id in the log)."""
        from paperchat.history import new_conversation_id

        self.turns.clear()
        self.turn_count = 0
        self.conversation_id = new_conversation_id()

    # -- input ---------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Answer a question or run a slash command; ``False`` when the session should end.

        A :class:`KeyboardInterrupt` raised while answering propagates with the
        conversation unchanged (the turn is not remembered).
        """
        text = line.strip()
        if not text:
            return True
        if text.startswith("/"):
            return self.command(text)
        self.ask(text)
        return True

    def command(self, text: str) -> bool:
        """Run one slash command (unknown ones get a hint); ``False`` for /quit."""
        name, _, arg = text.partition(" ")
        name, arg = name.lower(), arg.strip()
        if name in ("/quit", "/exit", "/q"):
            return False
        handlers = {
            "/help": lambda: self.out(HELP),
            "/sources": self.cmd_sources,
            "/show": lambda: self.cmd_show(arg),
            "/summarize": lambda: self.cmd_summarize(arg),
            "/summary": lambda: self.cmd_summarize(arg),
            "/why": self.cmd_why,
            "/papers": lambda: self.out(render_papers(self.engine.papers())),
            "/history": self.cmd_history,
            "/save": lambda: self.cmd_save(arg),
            "/reset": self.cmd_reset,
        }
        handler = handlers.get(name)
        if handler is None:
            close = difflib.get_close_matches(name, COMMANDS, n=1, cutoff=0.6)
            hint = f" Did you mean {close[0]}?" if close else ""
            self.out(f"Unknown command {name}.{hint} Type /help for the commands.")
            return True
        handler()
        return True

    # -- questions -------------------------------------------------------------
    def ask(self, question: str) -> Turn | None:
        """Answer ``question`` (resolving follow-ups), print the answer and its sources, remember the turn."""
        t0 = time.perf_counter()
        question = question.strip()
        if len(question) > MAX_QUESTION_CHARS:
            self.out(
                f"That question is {len(question)} characters long; the limit is {MAX_QUESTION_CHARS}. "
                "Ask about one point at a time (the question was not answered)."
            )
            return None
        try:
            res = resolve(question, self.context)
        except UnresolvedReference as exc:
            self.out(f"Cannot tell which paper you mean: {exc}. See /sources.")
            return None
        if self.slow:
            time.sleep(self.slow)
        history = [(role, text) for t in list(self.turns)[-CONTEXT_TURNS:] for role, text in (("user", t.question), ("assistant", t.result.get("answer", "")))]
        condensed = self.answerer.condense(history, question) if history else None
        if condensed and condensed != question:
            res.query = condensed
            res.note += f"; rewritten by the LLM as \"{condensed}\""
            if res.kind == RESTRICT:
                res.kind = BOOST  # the LLM rewrote it; search all papers, referred ones first
                res.note += ", retrieval over all papers with the referred ones first"
        t_retr = time.perf_counter()
        result, hits = self._answer(res)
        t_ans = time.perf_counter()
        turn = Turn(self.turn_count + 1, question, res, result, hits)
        self._show(result, t0, turn)
        turn.timings.update({
            "retrieve_answer_s": round(t_ans - t_retr, 4),
            "total_s": round(time.perf_counter() - t0, 4),
            **{k: v for k, v in (result.get("timings") or {}).items() if k not in ("total_s",)},
        })
        turn.context = turn.sources or ([s for s in self.context if s["paper_id"] in res.target_ids] if res.is_followup else [])
        self._commit(turn)
        if self.verbose:
            self.err(f"[{res.kind}] query: {res.query} · {turn.timings.get('first_output_s', 0):.2f} s to the answer, "
                     f"{turn.timings['total_s']:.2f} s in all")
        return turn

    def _answer(self, res: Resolution) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Retrieve (restricted or boosted for follow-ups) and answer; returns the contract and the hits for /why."""
        ans = self.answerer
        on_token = self._stream if ans.streams else None
        self._streamed = False
        if res.kind == STANDALONE:
            result = ans.ask(res.query, self.top_k, on_token)
            return result, self._hit_rows(result.get("retrieved") or [])
        qvec = ans.embed(res.query)
        targets, records = self._target_hits(res.target_ids, qvec)
        hits = list(targets)
        if res.kind == BOOST:
            top_k = self.top_k or self.engine.settings.top_k
            seen = {h.paper_id for h in hits}
            more = [h for h in self.engine.retriever.retrieve(res.query, top_k, qvec=qvec) if h.paper_id not in seen]
            hits += more[: max(0, top_k - len(hits))]
            records.update(self.engine.store.paper_records([h.paper_id for h in more if h.paper_id not in records]))
        question = res.query
        from paperchat.extractive import missing_names

        abstracts = [records[h.paper_id]["abstract"] for h in targets if h.paper_id in records]
        if missing_names(res.query, abstracts) and not missing_names(res.question, abstracts):
            question = res.question  # a title put in the query that the abstract does not spell out
        result = ans.answer(question, hits, records, on_token)
        if result.get("abstained") and question != res.question and not ans.streams:
            retry = ans.answer(res.question, hits, records, on_token)  # the words as asked may match better
            if not retry.get("abstained"):
                result = retry
        if result.get("abstained") and res.kind == RESTRICT and res.weak and not self._streamed:
            # "the method", "they": the referred paper has nothing on it; maybe a new topic after all
            res.kind, res.query = STANDALONE, res.question
            res.note += "; it had no answer there, so the question was answered as a new one over all papers"
            result = ans.ask(res.query, self.top_k, on_token)
            return result, self._hit_rows(result.get("retrieved") or [])
        rows = [{"paper_id": h.paper_id, "label": source_name(records.get(h.paper_id, {})) or h.paper_id,
                 "chunk_id": h.chunk_id, "score": round(float(h.score), 4),
                 "dense": None if h.dense is None else round(float(h.dense), 4),
                 "bm25": None if h.bm25 is None else round(float(h.bm25), 4),
                 "referred": h.paper_id in res.target_ids} for h in hits]
        return result, rows

    def _hit_rows(self, retrieved: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The retrieved list with labels (for /why and the log)."""
        meta = {}
        try:
            meta = self.engine.store.paper_records([r["paper_id"] for r in retrieved])
        except Exception:  # labels are cosmetic
            pass
        return [{**r, "label": source_name(meta.get(r["paper_id"], {})) or r["paper_id"]} for r in retrieved]

    def _target_hits(self, paper_ids: list[str], qvec) -> tuple[list, dict[str, dict[str, Any]]]:
        """Hits for the referred papers, scored by the cosine of their best chunk to the query."""
        import numpy as np

        from paperchat.retrieval import Hit

        store = self.engine.store
        records = store.paper_records(paper_ids)
        ids = [c for pid in paper_ids if pid in records for c in str(records[pid].get("chunk_ids") or "").split()]
        got = store.chunks.get(ids=ids, include=["embeddings", "documents", "metadatas"]) if ids else None
        best: dict[str, Hit] = {}
        if got is not None and len(got["ids"]):
            cos = np.asarray(got["embeddings"], dtype=np.float32) @ np.asarray(qvec, dtype=np.float32)
            for cid, doc, meta, c in sorted(zip(got["ids"], got["documents"], got["metadatas"], cos), key=lambda x: -x[3]):
                pid = (meta or {}).get("paper_id") or cid.split(":")[0]
                if pid in best:
                    best[pid].chunk_ids.append(cid)
                else:
                    best[pid] = Hit(pid, cid, float(c), doc, meta or {}, dense=float(c), bm25=None, chunk_ids=[cid])
        for pid in paper_ids:  # a paper without stored chunks still answers from its abstract
            if pid in records and pid not in best:
                best[pid] = Hit(pid, "", 0.0, records[pid]["abstract"], {}, dense=0.0, chunk_ids=[])
        hits = sorted(best.values(), key=lambda h: -h.score)
        return hits, records

    # -- output -------------------------------------------------------------------
    def _stream(self, piece: str) -> None:
        if not self._streamed:
            self._first_output = time.perf_counter()
            self._streamed = True
        sys.stdout.write(piece)
        sys.stdout.flush()

    def _show(self, result: dict[str, Any], t0: float, turn: Turn) -> str:
        """Print the answer (unless it was streamed) and its sources; record the time to the first character."""
        if getattr(self, "_streamed", False):
            sys.stdout.write("\n")
            sources = render_sources(result.get("sources") or [])
            text = "\n" + sources if sources else ""
            first = self._first_output
        else:
            text = render_answer(result, self.width)
            first = time.perf_counter()
        for note in result.get("notes") or []:
            self.err(f"note: {note}")
        if text:
            self.out(text)
        turn.timings["first_output_s"] = round(first - t0, 4)
        return text

    def _commit(self, turn: Turn) -> None:
        """Remember ``turn`` and write it to the log, with Ctrl-C held back."""
        with _interrupts_deferred():
            self.turns.append(turn)
            self.turn_count = turn.n
            if self.log is not None and not self._log_failed:
                try:
                    self.log.log_turn(self.conversation_id, turn.n, turn.log_record())
                except Exception as exc:  # the chat goes on without a log
                    self._log_failed = True
                    self.err(f"warning: could not write the chat history ({type(exc).__name__}: {exc}); not logging from now on")

    # -- commands ------------------------------------------------------------------
    def _source(self, arg: str) -> dict[str, Any] | None:
        """Source ``arg`` (1-based) of the last answer, or ``None`` after printing why not."""
        if self.last is None or not self.last.sources:
            self.out("No sources yet: ask a question first." if self.last is None else "The last answer cited no sources.")
            return None
        sources = self.last.sources
        arg = arg.strip().strip("[]#")
        if not arg.isdigit() or not 1 <= int(arg) <= len(sources):
            self.out(f"Give a source number from 1 to {len(sources)}, e.g. /show 1.")
            return None
        return sources[int(arg) - 1]

    def cmd_sources(self) -> None:
        """/sources: the last answer's Sources list."""
        if self.last is None:
            self.out("No sources yet: ask a question first.")
        elif not self.last.sources:
            self.out("The last answer cited no sources.")
        else:
            self.out(render_sources(self.last.sources))

    def _source_record(self, arg: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """Source N of the last answer and its stored paper record (``None``, with a message, when missing)."""
        src = self._source(arg)
        if src is None:
            return None
        rec = self.engine.store.paper_records([src["paper_id"]]).get(src["paper_id"])
        if rec is None:
            self.out(f"Paper {src['paper_id']} is no longer in the store.")
            return None
        return src, rec

    def cmd_show(self, arg: str) -> None:
        """/show N: the full abstract of source N with title, authors and url when known."""
        found = self._source_record(arg)
        if found is None:
            return
        src, rec = found
        lines = [f"[{src['n']}] {rec.get('title') or rec.get('label') or rec['paper_id']}"]
        if rec.get("title") and rec.get("label") and rec["label"] != rec["title"]:
            lines.append(f"Label: {rec['label']}")
        authors = [a for a in str(rec.get("authors") or "").split("; ") if a]
        if authors:
            lines.append("Authors: " + ", ".join(authors))
        if rec.get("url"):
            lines.append(f"URL: {rec['url']}")
        lines.append(f"Paper id: {rec['paper_id']} — {rec.get('source_path', '')} #{rec.get('source_index', '')}")
        lines += ["", "\n".join(textwrap.fill(p, self.width) for p in str(rec.get("abstract") or "").split("\n"))]
        self.out("\n".join(lines))

    def cmd_summarize(self, arg: str) -> None:
        """/summarize N: a cited summary of source N (remembered as a turn, so "it" then means that paper)."""
        t0 = time.perf_counter()
        found = self._source_record(arg)
        if found is None:
            return
        src, rec = found
        if self.slow:
            time.sleep(self.slow)
        self._streamed = False
        result = self.answerer.summarize(rec, self._stream if self.answerer.streams else None)
        name = source_name(rec)
        res = Resolution(f"/summarize {arg}", f"summary of {name}", kind=RESTRICT, target_ids=[rec["paper_id"]],
                         target_labels=[name], cue=f"source [{src['n']}]", note=f"summary of source [{src['n']}] ({name})")
        turn = Turn(self.turn_count + 1, f"/summarize {arg}", res, result, [], kind="summarize")
        self._show(result, t0, turn)
        turn.timings["total_s"] = round(time.perf_counter() - t0, 4)
        turn.context = turn.sources or [src]
        self._commit(turn)

    def cmd_why(self) -> None:
        """/why: the last question, its rewritten query, how it was read and the retrieved papers with scores."""
        t = self.last
        if t is None:
            self.out("Nothing asked yet.")
            return
        r = t.resolution
        lines = [f"Question: {t.question}", f"Query:    {r.query}" + ("  (unchanged)" if r.query == t.question else "  (rewritten)"), r.note]
        if t.hits:
            lines.append("Retrieved papers (rank, fused score" + (", dense cosine" if any(h.get("dense") is not None for h in t.hits) else "") + "):")
            for i, h in enumerate(t.hits, 1):
                extra = f", dense {h['dense']:.3f}" if h.get("dense") is not None else ""
                mark = "  ← referred to" if h.get("referred") else ""
                lines.append(f"  {i}. {h.get('label') or h['paper_id']} — {h['paper_id']} — score {float(h['score']):.3f}{extra}{mark}")
        else:
            lines.append("Retrieved papers: none")
        if t.timings:
            lines.append(f"Time: {t.timings.get('first_output_s', 0):.2f} s to the answer")
        self.out("\n".join(lines))

    def cmd_history(self) -> None:
        """/history: this conversation's questions (the ones kept in memory)."""
        if not self.turns:
            self.out("No questions yet in this conversation.")
            return
        lines = [f"Conversation {self.conversation_id}:"]
        dropped = self.turns[0].n - 1
        if dropped > 0:
            lines.append(f"  ({dropped} earlier turns are not kept in memory; `paperchat history` lists them)")
        for t in self.turns:
            cited = ", ".join(f"[{s['n']}] {source_name(s)}" for s in t.sources) or "no sources"
            lines.append(f"  {t.n}. {t.question}  → {cited}")
        self.out("\n".join(lines))

    def cmd_reset(self) -> None:
        """/reset: forget the conversation (a new conversation id)."""
        self.reset()
        self.out("Conversation reset: follow-ups now start afresh.")

    def cmd_save(self, arg: str) -> None:
        """/save FILE: write the remembered turns as Markdown (answers and sources as shown)."""
        if not arg:
            self.out("Give a file name, e.g. /save chat.md")
            return
        if not self.turns:
            self.out("Nothing to save yet.")
            return
        path = Path(arg).expanduser()
        try:
            path.write_text(transcript_markdown(list(self.turns), self.conversation_id), encoding="utf-8")
        except OSError as exc:
            self.out(f"Could not save to {path}: {exc.strerror or exc}")
            return
        self.out(f"Saved {len(self.turns)} turn{'s' if len(self.turns) != 1 else ''} to {path}")


def transcript_markdown(turns: Iterable[Turn], conversation_id: str) -> str:
    """A Markdown transcript: each question as a heading, the answer with its [n] markers, its Sources list."""
    turns = list(turns)
    lines = [f"# paperchat conversation {conversation_id}", ""]
    if turns and turns[0].n > 1:
        lines += [f"*({turns[0].n - 1} earlier turns not kept in memory)*", ""]
    for t in turns:
        lines += [f"## {t.n}. {t.question}", "", t.result.get("answer", ""), ""]
        if t.sources:
            lines += ["Sources:", ""]
            lines += [f"- {source_line(s)}" for s in t.sources]
            lines.append("")
        if t.resolution.is_followup and t.kind == "question":
            lines += [f"*Read as: {t.resolution.query}*", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


# -- input loops ---------------------------------------------------------------------


def run_piped(session: ChatSession, lines: Iterable[str], echo: bool = True) -> int:
    """Answer one question (or command) per line of ``lines`` (plain text, no prompt); returns the exit status."""
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if echo:
            session.out(f"> {line}")
        try:
            keep_going = session.handle(line)
        except PaperchatError as exc:
            session.out(f"error: {exc}")
            keep_going = True
        except Exception as exc:  # one failed turn does not end the chat
            if os.environ.get("PAPERCHAT_DEBUG"):
                raise
            first = str(exc).splitlines()[0] if str(exc) else ""
            session.out(f"error: {type(exc).__name__}: {first}")
            keep_going = True
        session.out("")
        if not keep_going:
            break
    return 0


def run_terminal(session: ChatSession, history_file: Path | None = None, banner: str = "") -> int:
    """The interactive loop (prompt_toolkit): line editing, history file, Ctrl-C / Ctrl-D; returns the exit status.

    Ctrl-C at the prompt clears the line; during an answer it cancels that
    answer (the question is forgotten). Ctrl-D (or /quit) leaves with status 0.
    """
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    history = InMemoryHistory()
    if history_file is not None:
        try:
            history_file.parent.mkdir(parents=True, exist_ok=True)
            history_file.touch(exist_ok=True)
            history = FileHistory(str(history_file))
        except OSError:
            pass
    prompt = PromptSession(history=history)
    if banner:
        session.out(banner)
    while True:
        try:
            line = prompt.prompt(PROMPT)
        except KeyboardInterrupt:
            continue  # clear the line
        except EOFError:
            return 0
        try:
            if not session.handle(line):
                return 0
        except KeyboardInterrupt:
            session.out("\n(cancelled: that question is not part of the conversation)")
        except PaperchatError as exc:
            session.out(f"error: {exc}")
        except Exception as exc:  # one failed turn does not end the chat
            if os.environ.get("PAPERCHAT_DEBUG"):
                raise
            first = str(exc).splitlines()[0] if str(exc) else ""
            session.out(f"error: {type(exc).__name__}: {first}")
        session.out("")


def terminal_width() -> int:
    """The width to wrap answers at: the terminal's, at most 100 columns."""
    return max(40, min(100, shutil.get_terminal_size((88, 24)).columns - 1))


def dump_json(obj: Any) -> str:
    """``obj`` as indented JSON (UTF-8 text kept)."""
    return json.dumps(obj, ensure_ascii=False, indent=2)
