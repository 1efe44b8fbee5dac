"""Figures a "which paper ...?" question gives ("Which paper achieves a 7x speedup for Hamiltonian
prediction?"): a figure with its unit names the paper that states it, as a name would.

:func:`given_figures` reads the question's figures (a number with ``x``, ``×``, ``times`` or ``%``);
:func:`states_figures` whether an abstract states each of them, however it writes the unit (``7x``,
``7×``, ``$7\\times$``, ``$\\sim 7\\times$``, ``90\\%``). From a notebook user's session (thirty-ninth
round): four of twelve such questions had cited a paper the question's other words fit, not the one
stating the figure, which retrieval had ranked first or fourth.
"""

from __future__ import annotations

import re

#: A figure with its unit, as a question writes it: "7x", "2.1x", "1.73 times", "94.75%", "12×".
_FIGURE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(x|×|times|%)(?!\w)", re.I)
#: What an abstract writes around a figure's unit in LaTeX: math dollars, "\sim", "\times", "\%".
_LATEX = re.compile(r"\$|\\sim\b|~|\\,|\\(?=%)")


def given_figures(question: str) -> list[tuple[str, str]]:
    """``(number, unit)`` of each figure ``question`` gives, the unit ``x`` for a factor or ``%``.

    >>> given_figures("Which paper gets a 2.1x speedup and 40% less memory?")
    [('2.1', 'x'), ('40', '%')]
    """
    return [(n, "%" if u == "%" else "x") for n, u in _FIGURE.findall(question)]


def states_figures(text: str, figures: list[tuple[str, str]]) -> bool:
    """Whether ``text`` states every figure of ``figures`` (:func:`given_figures`) with its unit; "1.7x" is
    not "7x", nor "7.5x"."""
    if not figures:  # the usual question gives none: no abstract is rewritten for it
        return False
    plain = _LATEX.sub("", text).replace("\\times", "x").replace("×", "x")
    return all(
        re.search(
            rf"(?<![\d.]){re.escape(n)}\s*(?:{re.escape(u)}|times\b)(?![A-Za-z0-9])", plain, re.I
        )
        for n, u in figures
    )


def figure_first(picked: list, own: list, figures: list[tuple[str, str]], limit: int) -> list:
    """``picked`` (candidate sentences with ``text``) led by the first sentence of ``own`` (the paper's, best
    first) that states ``figures``, when it is not yet first; at most ``limit`` sentences."""
    best = next((c for c in own if states_figures(c.text, figures)), None)
    if best is None or (picked and picked[0] is best):
        return picked
    return [best] + [c for c in picked if c is not best][: limit - 1]
