"""Display text: what the terminal shows of stored text (emphasis markup removed; stored text unchanged)."""

from __future__ import annotations

import re

_EMPHASIS = (
    (
        re.compile(r"\\(?:emph|textit|textbf|texttt|textsc|underline)\{([^{}\n]*)\}"),
        r"\1",
    ),  # \emph{graph feedback}
    (re.compile(r"\*\*([^*\n]+?)\*\*"), r"\1"),  # **Cognac**
    (
        re.compile(r"(?<![\w*\\])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![\w*])"),
        r"\1",
    ),  # *italic*, not a*b*c
    (re.compile(r"`([^`\n]+)`"), r"\1"),  # `code`
)


def plain_emphasis(text: str) -> str:
    """``text`` without the emphasis markup abstracts carry (Markdown ``**b**``, ``*i*``, backticks; LaTeX
    ``\\emph{…}``, ``\\textbf{…}``): what the terminal shows. Math (``$…$``) is left as written.

    Display only: ``--json`` answers and the citation checks keep the abstracts' exact text.
    """
    for pattern, repl in _EMPHASIS:
        text = pattern.sub(repl, text)
    return text
