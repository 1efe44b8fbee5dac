"""Questions an LLM eval run got no answer to, kept out of the figures instead of ending the run.

``eval --mode llm`` asks a real server a hundred questions or more; one timeout, one 5xx after every retry,
or one reply with no text had ended the whole run with nothing written (an LLM session found). A failure of
one question is recorded (id, question, the error's one-line message) and the run goes on; a failure that
every later question would meet too ends it at once: the server refused the key or the model, or could not
be reached (:data:`FATAL`), or :data:`MAX_IN_A_ROW` questions failed one after another.
"""

from __future__ import annotations

from typing import Any

from paperchat.core.errors import (
    LLMAuthError,
    LLMConfigError,
    LLMConnectionError,
    LLMError,
    LLMModelNotFound,
    PaperchatError,
)

#: Failures no later question escapes: the run ends with the error itself.
FATAL = (LLMConfigError, LLMAuthError, LLMModelNotFound, LLMConnectionError)

#: Questions failing one after another that end the run (the server is down in all but name).
MAX_IN_A_ROW = 5


class FailedAnswers:
    """The questions of a run that got no answer: ``failed`` is a list of ``{id, question, error}``.

    :meth:`ask` returns the engine's answer, or ``None`` after recording the failure; it raises the error
    itself for a :data:`FATAL` one, and a :class:`PaperchatError` saying so after :data:`MAX_IN_A_ROW`
    failures in a row.
    """

    def __init__(self) -> None:
        self.failed: list[dict[str, Any]] = []
        self._in_a_row = 0

    def ask(self, engine, q: dict[str, Any], asked: str, top_k: int | None, mode: str):
        """``engine.ask(asked, top_k=top_k, mode=mode)``, or ``None`` when the LLM failed on ``q`` alone."""
        try:
            answer = engine.ask(asked, top_k=top_k, mode=mode)
        except FATAL:
            raise
        except LLMError as exc:
            self.failed.append({"id": q["id"], "question": q["question"], "error": str(exc)})
            self._in_a_row += 1
            if self._in_a_row >= MAX_IN_A_ROW:
                raise PaperchatError(
                    f"{MAX_IN_A_ROW} questions in a row got no LLM answer, the last: {exc}"
                ) from None
            return None
        self._in_a_row = 0
        return answer


def failure_line(failed: list[dict[str, Any]], asked: int) -> str:
    """One line for the summary: how many of ``asked`` questions got no answer, and the first's error."""
    first = failed[0]
    return (
        f"{len(failed)} of {asked} questions got no LLM answer and are left out of the figures "
        f"(results.json 'failed'); first, {first['id']}: {first['error']}"
    )
