"""Non-ASCII text as LaTeX that pdflatex reads without packages: an accented letter braced (``{\\'e}``), a
Greek letter or a symbol as inline math (``$\\alpha$``), through latexcodec (pybtex's own codec)."""

from __future__ import annotations

import codecs
import re
import unicodedata

#: A dotless i under a combining accent ("Rodrı́guez" in the data): written as the i it accents, so that
#: NFC composes "í".
_DOTLESS_ACCENTED = re.compile("\u0131(?=[\u0300-\u036f])")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


#: Greek letters LaTeX writes as Latin ones (it has no \\Alpha or \\omicron).
_GREEK_AS_LATIN = dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΧο", "ABEZHIKMNOPTXo", strict=True))


#: Hyphens LaTeX writes as "-": U+2010 HYPHEN, U+2011 NON-BREAKING HYPHEN.
_HYPHENS = frozenset("\u2010\u2011")


def _latex_char(m: re.Match) -> str:
    """One non-ASCII character as LaTeX, by latexcodec (pybtex's own codec): an accented letter braced
    (``{\\'e}``, so BibTeX's styles read one letter for labels and sorting), a symbol as inline math
    (``$\\alpha$``), punctuation as LaTeX writes it (``---``); a character LaTeX has no command for (CJK)
    stays as it is."""
    char = m.group(0)
    if unicodedata.name(char, "").startswith("GREEK"):
        # "ά": its letter, without the accent math mode cannot put on it; "Ε", "ο": the Latin letter they are
        # written as (latexcodec's "$\\Epsilon$" is no LaTeX command: "Undefined control sequence")
        char = unicodedata.normalize("NFD", char)[0]
        if latin := _GREEK_AS_LATIN.get(char):
            return latin
        if char == "ς":
            return "$\\varsigma$"
    if (
        char in _HYPHENS
    ):  # latexcodec has none for a non-breaking hyphen (U+2011, in 2 ICML 2025 titles)
        return "-"
    try:
        latex = codecs.encode(char, "ulatex+ascii").strip()
    except (UnicodeError, ValueError):
        return m.group(0)
    # an accent on a dotless i ("\\'\\i") is read back by biber as "ı" and a combining accent, which
    # pdflatex rejects; "\\'i" is read as "í", and LaTeX's T1 and OT1 encodings set it alike
    latex = re.sub(r"(\\[`'^\"~=.uvHc])\\([ij])\b\s*", r"\1\2", latex)
    return "{" + latex + "}" if latex.startswith("\\") else latex


def ascii_latex(text: str) -> str:
    """``text`` (already LaTeX-escaped, outside math) with its non-ASCII characters written as LaTeX
    (:func:`_latex_char`): "Álvaro" -> "{\\'A}lvaro", "α-Divergence" -> "$\\alpha$-Divergence", so that
    pdflatex with BibTeX reads the entry (raw UTF-8 had stopped it: "Unicode character ́ (U+0301) not set
    up for use with LaTeX", and ``alpha.bst`` made labels of broken bytes, a LaTeX user found)."""
    import latexcodec  # noqa: F401 - registers the "ulatex" codecs (pybtex's writer imports it too)

    text = unicodedata.normalize("NFC", _DOTLESS_ACCENTED.sub("i", text))
    return _NON_ASCII.sub(_latex_char, text)
