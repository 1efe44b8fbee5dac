"""Citation markers ``[n]``: parsing, renumbering in order of first use, streaming, citing a sentence.

This is the only module that knows the marker syntax: ``[1]``, ``[1, 3]``,
``[2-4]`` (a range), in any mix; the forms some models write instead (``[Source 1]``, ``【1】``) are
read too (``[^1]``, ``[1†source]``, ``[1: CROW]``), and renumbering writes them as ``[n]``. As paper-qa does with its context keys,
an LLM cites the numbers of the sources it was given; the numbers are then
renumbered in order of first use (:class:`Renumberer`), out-of-range ones
are dropped, and the Sources list shows only the cited papers.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from paperchat.core.sentences import split_sentences

#: A word some models put before the number ("[Source 1]", "[Paper 2, Paper 3]", "[Ref: 4]").
_NUMBER_WORD = r"(?:(?:sources?|papers?|refs?|references?|docs?|documents?)\s*:?\s*#?\s*)"
_NUMBER = rf"{_NUMBER_WORD}?\^?\d+"  # "1", "Source 1", "^1" (a footnote)
#: What some models write after the number, dropped: "[1†source]" (OpenAI's file citations), "[1: CROW]".
_AFTER = r"(?:†[^\]】\[]{0,40}|\s*:\s*[A-Za-z][^\]】\[]{0,60})?"
#: A citation marker: ``[1]``, ``[1, 3]``, ``[2-4]``, with a word before a number, in full-width brackets
#: (``【1】``), a footnote (``[^1]``) or with a source's name after (``[1†source]``, ``[1: CROW]``); the
#: renumbered answer writes every one as ``[n]``.
#: ... but not an interval that opens at 0 ("[0, 1]", "[0,10]"): no source is numbered 0, and a model's "range
#: [0, 1]" had become "range [1]", citing the first source (a grounding skeptic's session).
_INTERVAL = r"(?!0\s*[,;]\s*\d)"
MARKER = re.compile(rf"[\[【]{_INTERVAL}({_NUMBER}(?:\s*[-–,;]\s*{_NUMBER})*){_AFTER}[\]】]", re.I)
_SPACED_MARKER = re.compile(rf"\s*\[{_INTERVAL}\d+(?:\s*[-–,]\s*\d+)*\]")
_LEADING_MARKERS = re.compile(rf"^((?:\[{_INTERVAL}\d+(?:\s*[-–,]\s*\d+)*\]\s*)+)")
_OPEN = re.compile(r"[\[【][\w\s,;:#\-–^†]*")


def parse_marker(body: str) -> list[int]:
    """Numbers in one marker body: ``"1"`` -> [1], ``"1, 3"`` -> [1, 3], ``"2-4"`` -> [2, 3, 4]."""
    out: list[int] = []
    body = re.sub(_NUMBER_WORD, "", body, flags=re.I).replace("^", "")
    for part in re.split(r"\s*[,;]\s*", body.strip()):
        if not part:
            continue
        m = re.fullmatch(r"(\d+)\s*[-–]\s*(\d+)", part)
        if m:
            a, b = int(m.group(1)), int(m.group(2))
            out.extend(range(a, b + 1) if a <= b and b - a < 50 else [a, b])
        else:
            out.append(int(part))
    return out


def find_citations(text: str) -> list[int]:
    """Every cited number in ``text`` in order of appearance (with repeats)."""
    return [n for m in MARKER.finditer(text) for n in parse_marker(m.group(1))]


def strip_markers(text: str) -> str:
    """``text`` without ``[n]`` markers."""
    return _SPACED_MARKER.sub("", text).strip()


def tidy(text: str) -> str:
    """Spacing left by removed markers or characters fixed: no space before punctuation, single spaces."""
    text = re.sub(r"[ \t]+([.,;:!?])", r"\1", text)
    return re.sub(r"[ \t]{2,}", " ", text)


_MATH = re.compile(r"(\$[^$]*\$)")
_LATEX_OPTION = re.compile(r"(\\[A-Za-z]+)\[(?=\d)")


def quotable(text: str) -> str:
    """A source's ``text`` as an answer quotes it, so that no number of its own in brackets reads as a citation.

    The source's own references to its bibliography (``"prior work [1]"``, ``"[5, 7]"``), which paperchat
    cannot resolve, are left out; a bracket in inline math or after a LaTeX command (``$[0,1]$``,
    ``\\sqrt[3]{n}``) gets a space after it, which LaTeX does not render (``$[ 0,1]$``). Idempotent.
    """
    parts = _MATH.split(text)
    for i, part in enumerate(parts):
        if i % 2:
            parts[i] = re.sub(r"\[(?=\d)", "[ ", part)
        else:
            parts[i] = _SPACED_MARKER.sub("", _LATEX_OPTION.sub(r"\1[ ", part))
    return "".join(parts)


def cite_sentence(sentence: str, n: int) -> str:
    """``sentence`` (:func:`quotable`) with the marker ``[n]`` before its final punctuation (a period is added
    if none)."""
    s = quotable(sentence).rstrip()
    end = ""
    if s and s[-1] in ".!?。！？":
        s, end = s[:-1].rstrip(), s[-1]
    return f"{s} [{n}]{end or '.'}"


#: a sentence that ends with a list item's number: "2." alone, or "... two main steps: 1."
_ENUMERATOR_END = re.compile(r"(?:^|:\s*)\(?\d{1,2}[.)]$")


#: A list item's opening: a bullet or an item number ("* ", "- ", "2. ", "3) ").
_ITEM = re.compile(r"^\s*(?:[*\-•]|\d{1,2}[.)])\s+")
#: The end of a line that ends what it says: sentence punctuation or a citation marker.
_ENDS = re.compile(r"(?:[.!?;]|[\]】])\s*$")
#: A lead-in that cites ("CROW enforces ... finetuning [1]:") is a claim of its own: the item after it is
#: checked alone (an invented, uncited bullet had passed inside it, a local-LLM session).
_CITED_LEAD = re.compile(r"[\]】]\s*:\s*$")
#: A sentence ending inside a closing quote or bracket ('... by "volunteers." BenchBuilder ...', "(see the
#: appendix!) CROW ..."), which the shared splitter (abstracts' too, whose stored sentence vectors it must
#: keep matching) leaves joined.
_QUOTED_END = re.compile(r"(?<=[.!?][\"”’)])\s+(?=[\"“(\[]?[A-Z0-9])")


def _lines(paragraph: str) -> list[str]:
    """A paragraph's lines that each hold sentences of their own, list bullets and item numbers dropped: a new
    line starts one when it opens a list item or the line before ends a sentence or a citation, not a
    lead-in ending in a colon (an uncited bullet, or a line without a full stop, had run into the cited
    line above and passed with it; an item's number had been checked as a number of the claim); else it
    goes on the line before (text wrapped mid-sentence)."""
    lines: list[str] = []
    for line in paragraph.split("\n"):
        if not line.strip():
            continue
        if lines and (
            (lines[-1].endswith(":") and not _CITED_LEAD.search(lines[-1]))
            or not (_ITEM.match(line) or _ENDS.search(lines[-1]))
        ):
            # a lead-in ("Key points:") goes with its first item, as one sentence had held both
            lines[-1] = f"{lines[-1]} {_ITEM.sub('', line).strip()}"
        else:
            lines.append(_ITEM.sub("", line).strip())
    return lines


def answer_sentences(answer: str) -> list[str]:
    """Split an answer into sentences, keeping each ``[n]`` marker with the sentence it follows; a line of a
    list, or one after a line that ends a sentence or a citation, starts a sentence (:func:`_lines`).

    A marker placed after the full stop (``"Claim. [2] Next..."``) is moved back to the sentence before
    it when that one cites nothing, in the same paragraph; a marker that opens a paragraph, or follows a
    sentence with its own citation, cites the sentence it opens (``"[1] ConfPO focuses on ..."``).
    """
    out: list[str] = []
    for paragraph in re.split(r"\n\s*\n", answer):
        opens = len(out)  # the paragraph's first sentence is out[opens]
        split = (
            p
            for line in _lines(paragraph)
            for s in split_sentences(line)
            for p in _QUOTED_END.split(s)
        )
        for sent in split:
            m = _LEADING_MARKERS.match(sent)
            if m and len(out) > opens and not find_citations(out[-1]):
                out[-1] = out[-1] + " " + m.group(1).strip()
                sent = sent[m.end() :].strip()
            if sent:
                out.append(sent)
    # a list item's number split off as a sentence of its own ("... two steps: 1." "Tokenize ...") goes
    # with the item it numbers, not checked alone
    merged: list[str] = []
    for sent in out:
        if merged and _ENUMERATOR_END.search(merged[-1]):
            merged[-1] = f"{merged[-1]} {sent}"
        else:
            merged.append(sent)
    return merged


class Renumberer:
    """Renumbers citation markers in order of first use, for ``n_sources`` sources.

    ``order[i]`` is the original number of new source ``i + 1``;
    ``invalid`` the numbers outside ``1..n_sources`` seen (they are dropped).
    """

    def __init__(self, n_sources: int):
        self.n_sources = n_sources
        self.order: list[int] = []
        self.invalid: list[int] = []

    def marker(self, body: str) -> str:
        """The renumbered form of one marker body (``""`` when every number in it is out of range)."""
        nums: list[int] = []
        for n in parse_marker(body):
            if not 1 <= n <= self.n_sources:
                if n not in self.invalid:
                    self.invalid.append(n)
                continue
            if n not in self.order:
                self.order.append(n)
            new = self.order.index(n) + 1
            if new not in nums:
                nums.append(new)
        return "[" + ", ".join(map(str, nums)) + "]" if nums else ""

    def text(self, text: str) -> str:
        """``text`` with every marker renumbered (spacing tidied where markers were dropped)."""
        return tidy(MARKER.sub(lambda m: self.marker(m.group(1)), text))


def renumber(text: str, n_sources: int) -> tuple[str, list[int], list[int]]:
    """Renumber the markers of ``text`` in order of first use: ``(new text, order, invalid)`` (see :class:`Renumberer`)."""
    r = Renumberer(n_sources)
    return r.text(text), r.order, r.invalid


def _find_any(text: str, chars: str, start: int) -> int:
    """The first index at or after ``start`` of any of ``chars`` in ``text`` (``-1``: none)."""
    return min((i for i in (text.find(c, start) for c in chars) if i >= 0), default=-1)


class StreamRenumber:
    """Renumbers markers in streamed text exactly as :func:`renumber` does.

    ``feed(piece)`` passes text on to ``emit`` with complete markers renumbered
    and holds back a marker that is still open; ``close()`` flushes what is
    held back.
    """

    def __init__(self, n_sources: int, emit: Callable[[str], None]):
        self.renumberer = Renumberer(n_sources)
        self.emit = emit
        self._held = ""
        #: trailing spaces held back: a dropped marker may leave them before a full stop
        self._space = ""

    @property
    def order(self) -> list[int]:
        return self.renumberer.order

    def feed(self, piece: str) -> None:
        """Take one streamed piece."""
        text, self._held = self._held + piece, ""
        out, i = [], 0
        while i < len(text):
            j = _find_any(text, "[【", i)
            if j < 0:
                out.append(text[i:])
                break
            out.append(text[i:j])
            k = _find_any(text, "]】", j)
            if k < 0:
                if _OPEN.fullmatch(text[j:]) and len(text) - j < 40:
                    self._held = text[j:]
                else:
                    out.append(text[j:])
                break
            m = MARKER.fullmatch(text, j, k + 1)
            if m:
                out.append(self.renumberer.marker(m.group(1)))
                i = k + 1
            else:
                out.append(text[j])
                i = j + 1
        text = tidy(self._space + "".join(out))  # as renumber tidies the whole text
        kept = text.rstrip(" \t")
        self._space = text[len(kept) :]
        if kept:
            self.emit(kept)

    def close(self) -> None:
        """Flush held-back text (an unfinished marker at the end of the stream)."""
        if self._held or self._space:
            self.emit(self._space + self._held)
            self._held = self._space = ""


def link_markers(text: str, link: Callable[[int], str]) -> str:
    """``text`` with each cited number turned into a Markdown link to ``link(n)`` (no link where it gives ``""``):
    ``"… [1]."`` -> ``"… [[1](https://…)]."``, ``"[1, 3]"`` -> ``"[[1](…), [3](…)]"``."""

    def one(n: int) -> str:
        url = link(n)
        return f"[{n}]({url})" if url else str(n)

    return MARKER.sub(
        lambda m: "[" + ", ".join(one(n) for n in parse_marker(m.group(1))) + "]", text
    )
