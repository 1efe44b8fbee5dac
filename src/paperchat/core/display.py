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
    (re.compile(r"(?<!\\)\\%"), "%"),  # 4.4\% (LaTeX's escaped percent)
    (re.compile(r"\\+\$(?=\d)"), "$"),  # \$1 million, \\\$50 (an escaped dollar before an amount)
)
#: a math span that is only a number and a symbol: "$9.3\times$", "$\sim$78", "$\pm 0.2$"
_SYMBOL = re.compile(r"\$\s*([\d.,]*)\s*\\(times|sim|approx|pm|leq?|geq?)\s*([\d.,]*)\s*\$")
#: a math span (kept whole: a numbers hunter's "$\mu^*_h(s,a)$" had lost its "*" as emphasis)
_MATH = re.compile(r"((?<!\\)\$[^$\n]+(?<!\\)\$)")
#: a math span that is only a number, a times sign or a percent: "$\textbf{128x}$" -> "128x"
_NUMBER = re.compile(r"\$\s*(\d[\d.,]*\s*(?:x|×|%)?)\s*\$")
_SYMBOLS = {
    "times": "×",
    "sim": "~",
    "approx": "≈",
    "pm": "±",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
}


def plain_emphasis(text: str) -> str:
    """``text`` without the emphasis markup abstracts carry (Markdown ``**b**``, ``*i*``, backticks; LaTeX
    ``\\emph{…}``, ``\\textbf{…}``, an escaped ``\\%``, or ``\\$`` before an amount): what the terminal
    shows. A math span that is only a number and a symbol is the symbol (``$9.3\\times$`` -> ``9.3×``), one
    that is only a number is the number (``$\\textbf{128x}$`` -> ``128x``); other math is left as written,
    its ``*`` and ``_`` too.

    Display only: ``--json`` answers and the citation checks keep the abstracts' exact text.
    """
    # math spans at odd places: a "*" there is math ("$\mu^*$"), no emphasis
    parts = _MATH.split(text)
    for i, part in enumerate(parts):
        for pattern, repl in _EMPHASIS[:1] if i % 2 else _EMPHASIS:
            part = pattern.sub(repl, part)
        parts[i] = part
    text = _SYMBOL.sub(lambda m: f"{m.group(1)}{_SYMBOLS[m.group(2)]}{m.group(3)}", "".join(parts))
    return _NUMBER.sub(r"\1", text)


def terminal_note(note: str) -> str:
    """An answer's note as the terminal shows it: the field ``sentences`` exists in ``--json`` only, and the
    terminal lists those sentences under "Citation checks:" (a local-LLM session)."""
    return note.replace("(see `sentences`)", "(see Citation checks)")
