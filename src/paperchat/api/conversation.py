"""A multi-turn conversation from Python (:meth:`paperchat.api.Paperchat.chat`): ``paperchat chat``'s session.

Follow-ups are read as ``paperchat chat`` reads them ("summarize the second one", "compare them", "any
others?"), from the papers the conversation has cited; ``Paperchat.ask`` keeps no conversation, and a
notebook session's "compare them" after a list had been answered about unrelated papers.
"""

from __future__ import annotations

from paperchat.api.arguments import python_api
from paperchat.api.results import Answer
from paperchat.core.errors import BadArgument, PaperchatError


@python_api  # "no paper matches year=2019", as Paperchat's own methods say it
class Conversation:
    """One conversation over a :class:`~paperchat.api.Paperchat`'s store (``session``: a
    :class:`paperchat.chat.session.ChatSession`). :meth:`ask` answers a question or a follow-up; ``turns``
    are the turns so far (each with its question as asked, the query it was read as, and the answer)."""

    def __init__(self, session):
        self._session = session

    @property
    def turns(self) -> list:
        """The conversation's turns (:class:`paperchat.chat.turns.Turn`), oldest first."""
        return list(self._session.turns)

    def ask(self, question: str) -> Answer:
        """The answer to ``question`` in the light of the turns before it (an :class:`~paperchat.api.Answer`;
        what the chat notes on stderr, such as how a follow-up was read, is in its ``notes``).

        Raises :class:`BadArgument` for a question that is not a string, and :class:`PaperchatError` with the
        chat's own words when it answers nothing ("'it' refers to nothing yet: ask about a paper first").
        Slash commands are the terminal's; ask them in words ("summarize the second one").
        """
        if not isinstance(question, str):
            raise BadArgument(f"the question must be a string, not {type(question).__name__}")
        if question.strip().startswith("/"):
            raise BadArgument("slash commands are the terminal chat's; ask in words instead")
        reply = self._session.ask(question)
        if reply.answer is None:
            said = [line.removeprefix("error: ") for line in reply.stderr] or [reply.text]
            raise PaperchatError(
                " ".join(s.strip() for s in said if s.strip()) or "nothing to answer"
            )
        answer = Answer.of(reply.answer)
        extra = [line.removeprefix("note: ") for line in reply.stderr]
        answer.notes += [n for n in extra if n not in answer.notes]
        return answer

    def __repr__(self) -> str:
        return f"Conversation(turns={len(self._session.turns)})"
