"""A chat session: turns, follow-ups and the turn log, with no terminal in it.

``session.handle(line, on_token)`` answers a question or runs a slash command
(:mod:`paperchat.chat.commands`) and returns a :class:`Reply`; the CLI's
loops (:mod:`paperchat.cli.terminal`) read lines and render replies. A turn
is remembered (kept for follow-ups, written to the turn log) only once its
answer is complete, so an answer cancelled with Ctrl-C leaves no trace. Only
the last ``max_turns`` turns stay in memory.

Follow-ups that name no paper of their own are resolved offline against
the previous answer's sources (:func:`paperchat.chat.followup.resolve`); the
engine retrieves and answers by that resolution
(:meth:`paperchat.engine.Engine.ask_followup`; with an LLM it also rewrites
the follow-up by the ``condense`` prompt).
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from paperchat.chat.commands import run_command
from paperchat.chat.ellipsis import carried_on, spelled_out
from paperchat.chat.followup import UnresolvedReference, find_reference, query_label, resolve
from paperchat.chat.more import answer_more, more_ask
from paperchat.chat.returns import returns_to, without_lead_in
from paperchat.chat.turns import Reply, Turn, interrupts_deferred
from paperchat.core.contract import LLM, Source
from paperchat.core.display import terminal_note
from paperchat.core.errors import PaperchatError
from paperchat.core.terms import name_tokens
from paperchat.core.text import clean_question

#: Commands a user types without their slash ("help", "exit"), which had been searched as questions.
_BARE_COMMANDS = {
    "help": "/help",
    "commands": "/help",
    "exit": "/exit",
    "quit": "/exit",
    "bye": "/exit",
}

#: turns kept in memory (for /history, /save and follow-ups); older ones stay in the turn log
MAX_TURNS = 50
#: turns of history given to an LLM when rewriting a follow-up
CONTEXT_TURNS = 6

OnToken = Callable[[str], None]


class ChatSession:
    """One conversation over a store.

    ``engine`` is a :class:`~paperchat.engine.Engine`; ``mode`` the answer
    mode (``llm`` or ``extractive``, decided once for the session; ``fallback``:
    it was ``auto``, so an unreachable LLM gives offline answers); ``log`` a
    :class:`~paperchat.chat.history.HistoryLog` or ``None``; ``width`` the
    column to wrap command output at; ``slow`` (seconds) delays each answer
    (for tests of Ctrl-C); ``filters`` (:class:`~paperchat.retrieve.filters.Filters`)
    restrict every question's retrieval to the papers they let through.
    """

    def __init__(
        self,
        engine,
        mode: str = "extractive",
        log=None,
        conversation_id: str | None = None,
        top_k: int | None = None,
        max_turns: int = MAX_TURNS,
        width: int = 88,
        verbose: bool = False,
        slow: float = 0.0,
        fallback: bool = False,
        filters=None,
    ):
        from paperchat.chat.history import new_conversation_id

        self.engine = engine
        self.mode = mode
        self.log = log
        self.conversation_id = conversation_id or new_conversation_id()
        self.top_k = top_k
        self.turns: deque[Turn] = deque(maxlen=max_turns)
        self.turn_count = 0
        self.width = width
        self.verbose = verbose
        self.slow = slow
        self.fallback = fallback
        self.filters = filters
        self._log_failed = False
        self._vecs: dict[str, Any] = {}

    # -- state ----------------------------------------------------------------
    @property
    def last(self) -> Turn | None:
        """The last remembered turn."""
        return self.turns[-1] if self.turns else None

    @property
    def context(self) -> list[Source]:
        """The sources follow-ups refer to: the previous turn's (for a follow-up that cited nothing, the papers it referred to)."""
        return self.last.context if self.last else []

    @property
    def list_turn(self) -> Turn | None:
        """The turn whose Sources are *the list*: what ``/show N``, ``/summarize N`` and ordinals ("the second one")
        count. It is the last answer that cited papers, except that an answer about papers of the list (a
        follow-up such as "summarize the second one") keeps the list it picked from, when it cites them in the
        list's order: one of them, the list's first ones, or those its ordinals named ("compare the first and
        the third"); an answer that cited nothing (an abstention) does not change it."""
        shown: Turn | None = None
        for turn in self.turns:
            if not turn.sources:
                continue
            order = [s.paper_id for s in shown.sources] if shown is not None else []
            cited = [s.paper_id for s in turn.sources]
            # its papers in the list's order: the list's numbers still name what is on screen; several of them in
            # another order ("what GPU did they use?" citing the ten again, reordered) are a list of their own,
            # and so are several the plural picked out ("which of them use diffusion?" citing the 1st, 2nd
            # and 4th as [1] [2] [3]: "the third one" is then ADiT, shown [3], not the list's third)
            picked = len(cited) > 1 and cited != order[: len(cited)]
            by_ordinal = (find_reference(turn.question) or ("",))[0] == "ordinal"
            kept = (
                set(cited) <= set(order)
                and [p for p in order if p in cited] == cited
                and (by_ordinal or not picked)
            )
            if shown is None or not (turn.resolution.is_followup and kept):
                shown = turn
        return shown

    def _context_for(self, question: str) -> list[Source]:
        """The sources ``question``'s reference counts: the list for an ordinal, and for a plural ("compare
        them") after an answer about one paper of the list; else the previous turn's (:attr:`context`)."""
        ref = find_reference(question)
        listed = self.list_turn.sources if self.list_turn else []
        if ref is not None and ref[0] == "ordinal":
            # after an LLM answer that cited none, "the second one" counts the papers it was given (a local
            # model's numbered list without markers: "No earlier answer showed papers")
            return self.context if self._uncited() else listed
        if ref is not None and ref[0] == "plural" and len(self.context) < 2 <= len(listed):
            return listed
        return self.context

    def _uncited(self) -> bool:
        """Whether the last turn is an LLM answer that cited none of the papers it was given (its context)."""
        last = self.last
        return bool(
            last
            and not last.sources
            and last.context
            and last.answer.mode == LLM
            and not last.answer.abstained
            and not last.resolution.is_followup
        )

    def _showed(self) -> str:
        """How the last answer holds the papers follow-ups refer to: "cited", or "was given" (none cited)."""
        return "was given" if self._uncited() else "cited"

    def _given(self, answer) -> list[Source]:
        """The papers an answer that cites none was given, as sources (no cited text): those its question
        names by label, else all of them in rank order; what follow-ups then refer to."""
        from paperchat.answer.named_papers import label_named

        ids = list(dict.fromkeys(r.paper_id for r in answer.retrieved))
        records = self.engine.store.papers(
            ids[: self.top_k or self.engine.settings.top_k], abstracts=False
        )
        given = [records[p] for p in ids if p in records]
        given = [r for r in given if label_named(answer.question, r)] or given
        return [Source.from_record(n, r, "", "") for n, r in enumerate(given, 1)]

    def _abstracts(self, context: list[Source]) -> dict[str, str]:
        """The abstracts of the ``context`` papers by id (read through the retriever's record cache); empty
        when the store cannot give them (the resolver then reads the cited chunks)."""
        try:
            records = self.engine.retriever.records([s.paper_id for s in context])
        except Exception:  # a follow-up is still resolved without them
            return {}
        return {pid: r.full_text for pid, r in records.items()}

    def restore(self, rows: list[dict[str, Any]]) -> None:
        """Load earlier turns of this conversation (turn-log rows, oldest first)."""
        for row in rows:
            self.turns.append(Turn.from_log(row))
            self.turn_count = max(self.turn_count, int(row["turn"]))

    def reset(self) -> None:
        """Forget the conversation and start a new one (a new conversation id in the log)."""
        from paperchat.chat.history import new_conversation_id

        self.turns.clear()
        self.turn_count = 0
        self.conversation_id = new_conversation_id()
        if self.log is not None and not self._log_failed:
            try:
                self.log.log_reset(self.conversation_id)
            except Exception:  # as for a turn (commit): the chat goes on without its log
                self._log_failed = True

    def embed(self, text: str):
        """The query embedding of ``text`` (the last few are cached)."""
        if text not in self._vecs:
            if len(self._vecs) >= 16:
                self._vecs.pop(next(iter(self._vecs)))
            self._vecs[text] = self.engine.embedder.embed_one(text)
        return self._vecs[text]

    # -- input ------------------------------------------------------------------
    def handle(self, line: str, on_token: OnToken | None = None) -> Reply:
        """Answer a question or run a slash command (see :mod:`paperchat.chat.commands`).

        ``on_token(piece)`` receives a streamed LLM answer as it arrives. A
        :class:`KeyboardInterrupt` raised while answering propagates with the
        conversation unchanged (the turn is not remembered).
        """
        text = line.strip()
        if not text:
            return Reply()
        if text.startswith("/"):
            return run_command(self, text, on_token)
        bare = text.lower().rstrip("?!. ")
        # "help" or "exit" typed without the slash: the command, not a search
        if bare in _BARE_COMMANDS:
            return run_command(self, _BARE_COMMANDS[bare], on_token)
        return self.ask(text, on_token)

    def ask(self, question: str, on_token: OnToken | None = None) -> Reply:
        """Answer ``question`` (resolving follow-ups) and remember the turn."""
        t0 = time.perf_counter()
        try:
            question = clean_question(question, self.engine.settings.llm_api_key)
        except PaperchatError as exc:
            return Reply(stderr=[f"error: {exc} (the question was not answered)"])
        question = without_lead_in(question)  # "Now a different topic: ..."
        # "Back to the test-time scaling papers: which one is cheapest?": that earlier answer's papers
        back = returns_to(
            question,
            lambda: [(t.question, [f"{s.title} {s.text}" for s in t.sources]) for t in self.turns],
        )
        if back and back[1] is None:
            return Reply(
                text=f'No earlier answer in this conversation was about "{back[2]}"; ask the question in '
                "full (name the topic or the papers), or see /history."
            )
        returned = list(self.turns)[back[1]].sources if back else None
        question = back[0] if back else question
        if self.turns and not back and (more := more_ask(question)):
            # "any others like that?", "more like the second one", "any others by the same authors?"
            return answer_more(self, more, question)
        # a return to an earlier topic is read against that answer's papers, not the last one's
        if not back and (meant := spelled_out(question, len(self.context))):
            # "numbers?", "tldr", "limitations?" after an answer: about its paper(s), not a new search
            if len(self.context) >= 3 and " it" in meant.replace("its", "it"):
                example = re.sub(
                    r"\bits\b", "the first one's", re.sub(r"\bit\b", "the first one", meant)
                )
                return Reply(
                    text=f"Which paper do you mean? The last answer {self._showed()} {len(self.context)} papers; ask "
                    f'e.g. "{example}" (or name the paper).'
                )
            question = meant
        elif (
            not back
            and find_reference(question) is None
            and (
                more := carried_on(
                    question,
                    [query_label(s) or s.title for s in self.context],
                    lambda: list(self._abstracts(self.context).values()),
                )
            )
        ):
            # "and on which models?", "whats the accuracy drop?" after one paper's answer
            question = more
        context = returned if returned is not None else self._context_for(question)
        ref = find_reference(question)
        # With an LLM and earlier turns, the condense prompt sees the conversation (an answer that cited
        # nothing still followed a question that named its paper); otherwise there is nothing to refer to.
        llm_can_resolve = self.mode == LLM and bool(self.turns)
        if (
            not context
            and ref is not None
            and (ref[0] == "ordinal" or not llm_can_resolve)  # "the first one" needs a list shown
            and ref[0] in ("it", "demonstrative", "ordinal")
            and not name_tokens(question)
        ):
            return Reply(
                text=f'Which paper do you mean by "{ref[1]}"? No earlier answer showed papers to refer to; '
                "ask with the paper's name, or ask a question first."
            )
        if (
            ref is not None
            and not name_tokens(question)
            and (
                # "summarize it" (or "that paper") after a list of nine: which of them is not for the rules
                # to guess
                (ref[0] in ("it", "demonstrative") and len(context) >= 3)
                # "compare them" as a first question: no papers shown to compare
                or (not context and ref[0] == "plural" and len(question.split()) <= 6)
            )
        ):
            said = (
                f'The last answer {self._showed()} {len(context)} papers; say "the first one" (or its number), or '
                "name the paper."
                if context
                else "No earlier answer showed papers to refer to; ask with the papers' names, or ask a question first."
            )
            return Reply(
                text=f'Which paper{"s" if ref[0] == "plural" else ""} do you mean by "{ref[1]}"? {said}'
            )
        try:
            current = returned if returned is not None else self.context
            res = resolve(question, context, self._abstracts(context), current=current)
        except UnresolvedReference as exc:
            return Reply(text=f"Cannot tell which paper you mean: {exc}. See /sources.")
        if self.slow:
            time.sleep(self.slow)
        first: list[float] = []

        def stream(piece: str) -> None:
            # whitespace alone shows no answer (the offline one follows)
            if not first and piece.strip():
                first.append(time.perf_counter())
            if on_token:
                on_token(piece)

        t_retr = time.perf_counter()
        recent = [(t.question, t.answer.answer) for t in list(self.turns)[-CONTEXT_TURNS:]]
        found = self.engine.ask_followup(
            res,
            recent,
            mode=self.mode,
            top_k=self.top_k,
            on_token=stream,
            filters=self.filters,
            fallback=self.fallback,
        )
        answer, hits = found.answer, found.hits
        t_ans = time.perf_counter()
        turn = Turn(self.turn_count + 1, question, res, answer, hits)
        turn.timings.update(
            {
                "first_output_s": round((first[0] if first else t_ans) - t0, 4),
                "retrieve_answer_s": round(t_ans - t_retr, 4),
                "total_s": round(time.perf_counter() - t0, 4),
                **{k: v for k, v in answer.timings.items() if k != "total_s"},
            }
        )
        if turn.sources:
            turn.context = turn.sources
        elif res.is_followup:  # it cited nothing: the papers it referred to
            turn.context = [s for s in context if s.paper_id in res.target_ids]
        elif answer.abstained:  # an abstention changes nothing: "it" still means the paper before
            turn.context = self.context
        else:  # an LLM answer that cited nothing: the papers it was given ("it" had nothing to refer to)
            turn.context = self._given(answer)
        reply = Reply(
            answer=answer,
            streamed=bool(first),
            stderr=[f"note: {terminal_note(n)}" for n in answer.notes],
        )
        reply.stderr += self.commit(turn)
        if self.verbose:
            reply.stderr.append(
                f"[{res.kind}] query: {res.query} · {turn.timings['first_output_s']:.2f} s to the answer, "
                f"{turn.timings['total_s']:.2f} s in all"
            )
        return reply

    def commit(self, turn: Turn) -> list[str]:
        """Remember ``turn`` and write it to the log, with Ctrl-C held back; returns warnings for stderr."""
        with interrupts_deferred():
            self.turns.append(turn)
            self.turn_count = turn.n
            if self.log is not None and not self._log_failed:
                try:
                    self.log.log_turn(self.conversation_id, turn.n, turn.log_record())
                except Exception as exc:  # the chat goes on without a log
                    self._log_failed = True
                    why = (
                        str(exc)
                        if isinstance(exc, PaperchatError)
                        else f"{type(exc).__name__}: {exc}"
                    )
                    return [
                        f"warning: could not write the chat history ({why}); not logging from now on"
                    ]
        return []
