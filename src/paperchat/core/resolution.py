"""What a chat question refers to: the :class:`Resolution` the chat makes and the engine answers.

:func:`paperchat.chat.followup.resolve` reads a question against the
previous answer's sources and returns a :class:`Resolution`;
:meth:`paperchat.engine.Engine.ask_followup` retrieves and answers by it.
It lives here, below both, so neither imports the other for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

STANDALONE = "standalone"
RESTRICT = "restrict"
BOOST = "boost"


@dataclass
class Resolution:
    """How a chat question relates to the previous answer.

    ``kind`` is ``standalone`` (retrieve over all papers), ``restrict``
    (answer from ``target_ids`` only) or ``boost`` (retrieve over all papers
    with ``target_ids`` first). ``query`` is the rewritten question used for
    retrieval, ``cue`` the phrase that referred back (``None`` when
    standalone), ``weak`` whether that cue is a generic phrase ("the method",
    "they") that may also start a new topic, ``note`` a one-line explanation
    for ``/why``.
    """

    question: str
    query: str
    kind: str = STANDALONE
    target_ids: list[str] = field(default_factory=list)
    target_labels: list[str] = field(default_factory=list)
    cue: str | None = None
    weak: bool = False
    note: str = "new question: retrieval over all papers"

    @property
    def is_followup(self) -> bool:
        """True when the question refers to earlier sources."""
        return self.kind != STANDALONE
