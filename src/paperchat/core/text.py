"""Text hygiene: cleaning stored and asked text, and the ids and keys derived from it.

Stored text keeps LaTeX (``$\\textit{de novo}$``, ``$K^2$``), Markdown
emphasis and non-Latin scripts exactly; :func:`clean_text` only NFC-normalizes
and removes what would break storage or JSON (lone surrogates, NUL and other
C0 control characters except newline and tab).
"""

from __future__ import annotations

import functools
import hashlib
import html
import re
import unicodedata
from collections.abc import Callable

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: A terminal escape sequence (ANSI CSI: colours, cursor moves; OSC: titles, links), removed whole so no
#: "[31m" is left in a question and no model's answer can drive the reader's terminal.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
#: Letters Unicode does not decompose into an ASCII letter and a mark ("Ørsted", the dotless "ı" of "Rodrı́guez").
_LETTERS = str.maketrans(
    {
        "Ø": "O",
        "ø": "o",
        "Æ": "AE",
        "æ": "ae",
        "Œ": "OE",
        "œ": "oe",
        "ß": "ss",
        "Ł": "L",
        "ł": "l",
        "Đ": "D",
        "đ": "d",
        # Icelandic eth, which metadata often writes for Đ ("Ðorđević": a reference-manager session's
        # --author Dordevic had matched no one)
        "Ð": "D",
        "ð": "d",
        "Þ": "Th",
        "þ": "th",
        "ı": "i",
    }
)


def fold(text: str) -> str:
    """``text`` as names are compared: case-folded, accents dropped, letters without a decomposition spelt
    in ASCII, spaces single ("Sébastien  Bubeck" -> "sebastien bubeck", "Rodrı́guez" -> "rodriguez")."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_LETTERS))
    return " ".join(
        "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold().split()
    )


#: An HTML character reference ("&amp;", "&#233;", "&mdash;"), as scraped metadata often holds.
_ENTITY = re.compile(r"&(?:#\d{1,7}|#x[0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,30});")


def unescape_html(text: str) -> str:
    """``text`` with its HTML character references decoded (``html.unescape``): "Cats &amp; Dogs" is
    "Cats & Dogs" (an operator's scraped titles had shown "&amp;", and BibTeX "\\&amp;")."""
    return html.unescape(text) if _ENTITY.search(text) else text


def clean_text(text: str) -> str:
    """NFC-normalize ``text`` and drop lone surrogates, terminal escape sequences and control characters.

    Newlines and tabs are kept; leading/trailing white space is stripped.
    """
    text = strip_controls(_SURROGATE.sub("", text))
    text = unicodedata.normalize("NFC", text)
    return re.sub(
        r"(?<=\S) {2,}(?=\S)", " ", text
    ).strip()  # what was removed leaves no double space


#: A BibTeX brace that protects case ("Learning {BERT}-style"): one not opening a LaTeX command's argument
#: (``\\mathcal{O}``), outside inline math.
_MATH_SPAN = re.compile(r"(\$[^$]*\$)")


def unbraced(title: str) -> str:
    """``title`` without BibTeX's case-protecting braces outside inline math: "Learning {BERT}-style" ->
    "Learning BERT-style" (a reference-manager session's title exported from BibTeX could not be found by
    the words a reader sees); a command's braces ("\\emph{x}") and math ("$\\mathcal{O}(n)$") stay."""
    if "{" not in title and "}" not in title:
        return title
    parts = _MATH_SPAN.split(title)
    for i in range(0, len(parts), 2):
        if not re.search(
            r"\\(?:[A-Za-z]+|[^A-Za-z\s])\s*\{", parts[i]
        ):  # \emph{x}, Schr\"{o}dinger
            parts[i] = parts[i].replace("{", "").replace("}", "")
    return "".join(parts)


def strip_controls(text: str) -> str:
    """``text`` without terminal escape sequences (:data:`_ANSI`) and C0 control characters but newline and tab;
    for what is printed as it streams (no strip, no NFC: a piece of a longer text)."""
    return _CONTROL.sub("", _ANSI.sub("", text))


def normalize_for_id(text: str) -> str:
    """The form of a text that its derived id hashes: cleaned, white space folded, lower-cased."""
    return " ".join(clean_text(text).split()).lower()  # str.split() splits on what \s matches


def short_hash(text: str, n: int = 16) -> str:
    """The first ``n`` hex digits of the SHA-256 of ``text`` (UTF-8)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:n]


_NOT_ALNUM = re.compile(r"[\W_]+")  # anything but letters and digits, of any script


@functools.lru_cache(maxsize=16384)
def content_key(text: str) -> str:
    """A key equal for near-identical copies of an abstract: the hash of its letters and digits only.

    The text is NFKC-normalized and case-folded, then everything but the
    letters and digits of any script (Unicode categories L and N, as regex
    ``\\w`` without ``_``) is dropped, so copies that differ in white space,
    punctuation (a dropped final period), case or Unicode form get the same
    key, and any change of a word, in any script, does not. Memoized: one
    ingest asks for each abstract's key several times.
    """
    folded = unicodedata.normalize("NFKC", normalize_for_id(text)).casefold()
    return short_hash(_NOT_ALNUM.sub("", folded), 16)


#: The longest question accepted (characters), in ask, chat and summaries.
MAX_QUESTION_CHARS = 2000


#: Full-width forms of ASCII (U+FF01..U+FF5E) and the ideographic space, as a Japanese or Chinese input method
#: types them: their ASCII letters ("Ｗｈａｔ ｄｏｅｓ ＣｏｎｆＰＯ ..." had found no word and abstained).
_FULL_WIDTH = {0xFF01 + i: 0x21 + i for i in range(0x5E)} | {0x3000: 0x20}


def clean_question(question: str | None, secret: str | None = None) -> str:
    """The question, cleaned (:func:`clean_text`, full-width ASCII folded to ASCII, white space folded), with ``secret`` (the configured API
    key, pasted by accident) masked as ``***``: it never reaches the LLM, the history or a transcript.

    Raises :class:`~paperchat.core.errors.PaperchatError` when it is empty or
    longer than :data:`MAX_QUESTION_CHARS` characters.
    """
    from paperchat.core.errors import PaperchatError, secret_to_mask

    question = " ".join(clean_text(question or "").translate(_FULL_WIDTH).split())
    if secret_to_mask(secret):
        question = question.replace(secret_to_mask(secret), "***")
    if not question:
        raise PaperchatError("the question is empty; ask something about the papers")
    if len(question) > MAX_QUESTION_CHARS:
        raise PaperchatError(
            f"the question is {len(question)} characters long; the limit is {MAX_QUESTION_CHARS}"
        )
    return question


def in_capitalised_run(text: str, end: int) -> bool:
    """Whether the word of ``text`` that ends at or before character ``end`` is a capitalised word between two
    more, in a text not written in title case (under 60 % of its words capitalised): a word of a title or
    name ("Score" in "what about Conformity Score Averaging for Classification?"), not one of the sentence's."""
    words = text.split()
    caps = [w[:1].isupper() for w in words]
    at = len(text[:end].split()) - 1
    inside = 0 < at < len(words) - 1 and all(caps[at - 1 : at + 2])
    return inside and sum(caps) < 0.6 * len(words)


def one_sentence(name: str) -> str:
    """``name`` (a paper's title, as an answer's heading names it) kept one sentence for the sentence splitter:
    an inner ". ", "? " or "! " written " — " after its mark ("... Training? — A Theoretical Perspective")."""
    return re.sub(r"([.?!])\s+", r"\1 — ", name).replace(". —", " —")


#: Function words of Spanish, French, German, Portuguese and Italian questions that English never writes.
_FOREIGN_WORDS = frozenset(
    """qué cómo cuál cuáles cuántos dónde es el los las del por para una sobre según qu'est-ce quoi comment
    quels quelles quel est sont avec dans pour selon une des und der die das ist wie welche welcher mit
    ein eine einer nicht oder que é
    über für sind não são uma como quais qual che cosa sono della degli""".split()
)


#: The particles of a person's name between a capitalised first name (or "by", "of", "from") and the
#: surname ("van der", "de la").
_PARTICLES = re.compile(
    r"\b([A-Z][a-z]+|by|of|from) (?i:van|von|de|da|del|della|di|du|dos|das|le|la)"
    r"(?: (?i:der|den|de|la|los|las|del|dos))? (?=[A-Z])"
)


def not_in_english(question: str, is_word: Callable[[str], bool] | None = None) -> bool:
    """Whether ``question`` reads as written in another language than English: most of its letters outside
    Latin script (Chinese, Russian, ...), two function words English never writes ("¿Qué es el ...?",
    "Comment les ...?"), or, given ``is_word`` (whether a lower-case word is English or a word the papers
    write), two words of four letters or more it does not know, with one of those function words or a
    letter outside ASCII ("Was ist maschinelles Verlernen?", "O que é decodificação especulativa?"; slips
    of English, "algortihm acheive", have neither). Coined names ("BanditSpec") are no words to judge. The abstracts are
    English: an abstention on such a question says so (an MCP session's Spanish, French and Chinese
    questions had abstained without a word)."""
    letters = [c for c in question if c.isalpha()]
    latin = "áéíóúñüçàèâêôûäöß"
    if (
        letters
        and sum(not ("a" <= c.lower() <= "z" or c in latin) for c in letters) > len(letters) / 2
    ):
        return True
    # a name's particles are no function words: "Mihaela van der Schaar", "Fernando De la Torre"
    words = re.findall(r"[\w'-]+", _PARTICLES.sub(r"\1 ", question))
    function = sum(w.lower() in _FOREIGN_WORDS for w in words) + ("¿" in question)
    if function >= 2 or is_word is None:
        return function >= 2
    # a capital after the first letter makes a name ("BanditSpec", "LLaMA"), not a word to judge
    long = [w for w in words if len(w) >= 4 and w.isalpha() and not any(c.isupper() for c in w[1:])]
    unknown = [w for w in long if not is_word(w.lower())]
    accented = any(not w.isascii() and w[0].islower() for w in unknown)  # not a name ("Müller")
    return len(unknown) >= 2 and bool(function or accented)
