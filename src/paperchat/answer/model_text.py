"""The LLM's reply read as an answer: the abstention sentence told apart, and the model's own list of
sources at its end left out (paperchat lists the sources itself).

Small models often end an answer with "Sources:" and lines such as "[1] Fake paper": printed as they
came, the output held two lists whose ``[1]`` named different papers, and the citation check read the
model's list as sentences. A line that is a header of such a list (``Sources:``, ``**References**``,
``### Citations``, "Bibliography", "Works cited"; markup and a colon allowed, nothing else on it but
the list's first entry) ends the answer. :func:`cut_own_sources` cuts a whole text; :class:`OwnSourcesCut`
does the same to a stream, holding back only a line that may still become such a header.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from paperchat.cite.markers import strip_markers
from paperchat.core.contract import ABSTENTION

_WORDS = ("sources", "source", "references", "citations", "bibliography", "works cited")
#: a header line: markup, one of the words, an optional colon and markup; after a colon, a list's first entry
HEADER = re.compile(
    r"[ \t>*#_-]*(?:" + "|".join(_WORDS) + r")[ \t*_]*(?::[ \t*_]*(?:\[\d+\].*)?)?[ \t]*", re.I
)
_MARKUP = " \t>*#_-"


def cut_own_sources(text: str) -> tuple[str, bool]:
    """``text`` up to the first line that heads a list of sources (see the module docstring), and whether
    one was cut; the text itself when none is."""
    at = 0
    for line in text.splitlines(keepends=True):
        if at and HEADER.fullmatch(line.rstrip("\r\n")):
            return text[:at].rstrip(), True
        at += len(line)
    return text, False


def _may_become_header(partial: str) -> bool:
    """Whether a line begun as ``partial`` may still become a header (a prefix of one of the words)."""
    word = partial.lstrip(_MARKUP).lower()
    return len(partial) < 40 and any(w.startswith(word) or word.startswith(w) for w in _WORDS)


class OwnSourcesCut:
    """Passes streamed text on to ``emit``, holding back a line that may become a sources header (and the
    blank lines before it), and dropping everything from a line that is one (``cut`` says whether it was):
    a README audit's stub answer had kept three blank lines where the model's list stood."""

    def __init__(self, emit: Callable[[str], None]):
        self.emit = emit
        self.cut = False
        self._line = ""  # the current line, when held back
        self._started = False  # the answer has text: a header on its first line is no list's
        self._bol = True  # the next character starts a line
        self._blank = (
            ""  # blank lines held back until a line that is no sources header follows them
        )

    def feed(self, piece: str) -> None:
        """Take one streamed piece."""
        if self.cut:
            return
        text, self._line = self._line + piece, ""
        out = []
        for line in text.splitlines(keepends=True):
            complete = line.endswith(("\n", "\r"))
            if self._bol and self._started:
                if complete and HEADER.fullmatch(line.rstrip("\r\n")):
                    self.cut = True
                    break
                if not complete and _may_become_header(line):
                    self._line = line  # wait for the rest of this line
                    break
            if self._bol and self._started and complete and not line.strip():
                self._blank += line  # blank lines wait: a sources header after them takes them too
                continue
            out.append(self._blank + line)
            self._blank = ""
            self._started = self._started or bool(line.strip())
            self._bol = complete
        if out:
            self.emit("".join(out))

    def close(self) -> None:
        """Flush a held-back line, unless it is a header."""
        if self._line and not self.cut:
            if HEADER.fullmatch(self._line):
                self.cut = True
            else:
                self.emit(self._blank + self._line)
        self._line = self._blank = ""


def is_abstention(text: str) -> bool:
    """True when ``text`` is the abstention sentence (markers, quotes and case ignored)."""

    def norm(s: str) -> str:
        return re.sub(r"[\s\"'“”.]+", " ", s).strip().lower()

    return norm(strip_markers(text)) == norm(ABSTENTION)
