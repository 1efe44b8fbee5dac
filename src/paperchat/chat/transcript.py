"""The Markdown transcript of a conversation (``/save FILE``): what the user saw, turn by turn."""

from __future__ import annotations

from collections.abc import Iterable


def transcript_markdown(turns: Iterable, conversation_id: str) -> str:
    """Each question as a heading, the answer with its ``[n]`` markers, its Sources list, how a follow-up was read.

    ``turns`` are :class:`paperchat.chat.session.Turn` s, oldest first.
    """
    turns = list(turns)
    lines = [f"# paperchat conversation {conversation_id}", ""]
    if turns and turns[0].n > 1:
        lines += [f"*({turns[0].n - 1} earlier turns not kept in memory)*", ""]
    for t in turns:
        lines += [f"## {t.n}. {t.question}", "", t.answer.answer, ""]
        marks = t.answer.check_marks()
        if marks:
            lines += ["Citation checks:", "", *[f"- {m}" for m in marks], ""]
        if t.sources:
            lines += ["Sources:", ""]
            lines += [f"- {s.line()}" for s in t.sources]
            lines.append("")
        if t.resolution.is_followup and t.kind == "question":
            lines += [f"*Read as: {t.resolution.query}*", ""]
    return "\n".join(lines).rstrip("\n") + "\n"
