"""Text hygiene, sentence splitting and term extraction.

Stored text keeps LaTeX (``$\\textit{de novo}$``, ``$K^2$``), Markdown
emphasis and non-Latin scripts exactly; :func:`clean_text` only NFC-normalizes
and removes what would break storage or JSON (lone surrogates, NUL and other
C0 control characters except newline and tab).
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_WS = re.compile(r"\s+")


def clean_text(text: str) -> str:
    """NFC-normalize ``text`` and drop lone surrogates and control characters.

    Newlines and tabs are kept; leading/trailing white space is stripped.
    """
    text = _SURROGATE.sub("", text)
    text = _CONTROL.sub("", text)
    text = unicodedata.normalize("NFC", text)
    return re.sub(
        r"(?<=\S) {2,}(?=\S)", " ", text
    ).strip()  # what was removed leaves no double space


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


# Abbreviations after which a period does not end a sentence.
_ABBREV = (
    "e.g.",
    "i.e.",
    "et al.",
    "etc.",
    "vs.",
    "cf.",
    "Fig.",
    "Eq.",
    "Sec.",
    "resp.",
    "approx.",
    "w.r.t.",
)
_SENT_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[$\\*]?[A-Z0-9])|(?<=[。！？])\s*(?=\S)")


def split_sentences(text: str) -> list[str]:
    """Split an abstract into sentences.

    A rule-based splitter for scientific prose: a sentence ends at ``.``, ``!``
    or ``?`` followed by white space and a capital letter, digit, ``$``, ``*`` or
    an opening bracket, except after common abbreviations (``e.g.``, ``et al.``)
    and inside inline math (``$...$``); and at the full-width ``。！？`` of
    Chinese and Japanese text. Returns the non-empty sentences, stripped, in order.
    """
    text = _WS.sub(" ", text).strip()
    if not text:
        return []
    pieces: list[str] = []
    start = 0
    for match in _SENT_END.finditer(text):
        candidate = text[start : match.start()]
        if candidate.count("$") % 2 == 1:  # inside inline math
            continue
        if any(candidate.endswith(a) for a in _ABBREV):
            continue
        pieces.append(candidate.strip())
        start = match.end()
    pieces.append(text[start:].strip())
    return [p for p in pieces if p]


_TERM = re.compile(r"[A-Za-z][A-Za-z0-9+\-]*[A-Za-z0-9+]|[A-Za-z]|\d+(?:\.\d+)?%?")

STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had has
    have having he her here hers herself him himself his how i if in into is it its itself just me more
    most my myself no nor not now of off on once only or other our ours ourselves out over own same she
    should so some such than that the their theirs them themselves then there these they this those
    through to too under until up very was we were what when where which while who whom why will with
    would you your yours yourself yourselves paper papers abstract propose proposed proposes approach
    method methods work study show shows use used uses using based new one two via tell give describe
    explain does do did what which paper's whose within without across among many much""".split()
)


def term_coverage(needles: set[str] | list[str], text: str) -> float | None:
    """Share of the content terms ``needles`` that occur among the :func:`terms` of ``text`` (0..1).

    ``None`` when there are no needles: the caller decides what an empty
    question or claim scores (the answerer 0, the support checker 1).
    """
    needles = set(needles)
    if not needles:
        return None
    return len(needles & set(terms(text))) / len(needles)


def terms(text: str) -> list[str]:
    """Lower-cased content terms of ``text`` (stopwords removed), in order, with repeats.

    Keeps names with digits and ``+``/``-`` (``GNN+``, ``K-means``) whole and
    drops a plural ``s`` so "tokens" matches "token".
    """
    out = []
    for raw in _TERM.findall(text):
        word = raw.lower()
        if word in STOPWORDS or len(word) < 2:
            continue
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.append(word)
    return out


# Common acronyms that are not coined names of methods or datasets.
_COMMON = {
    "We",
    "In",
    "The",
    "This",
    "Our",
    "To",
    "However",
    "LLM",
    "LLMs",
    "AI",
    "GPU",
    "GPUs",
    "RL",
    "ML",
    "DNN",
    "DNNs",
    "CNN",
    "CNNs",
    "GNN",
    "GNNs",
    "VLM",
    "VLMs",
    "NLP",
    "MLP",
    "TTA",
    "PDE",
    "ST",
    "BO",
    "TC",
    "TD",
    "CIT",
    "SAC",
    "GT",
    "GTs",
    "SGGMs",
    "KV",
    "MMS",
    "RKHS",
    "RKHSs",
    "IID",
    "OOD",
    "SOTA",
    "PDEs",
    "SGMs",
    "MoE",
    "EMA",
    "PO",
    "KIEs",
    "SCO",
    "UQ",
    "CP",
    "SDE",
    "INRs",
    "LLaMA",
    "SGD",
    "GD",
    "ICML",
    "NeurIPS",
    "ICLR",
    "CVPR",
    "ACL",
    "AAAI",
    "IJCAI",
    "EMNLP",
    "KDD",
    "DL",
    "NN",
    "NNs",
}


def looks_like_name(word: str) -> bool:
    """Whether ``word`` looks like a coined name (``ConfPO``, ``GNN+``, ``K2IE``, ``CROW``), not a common acronym."""
    if len(word) < 2 or len(word) > 24 or word in _COMMON:
        return False
    core = word.rstrip("+")
    has_upper_inside = any(c.isupper() for c in core[1:])
    has_digit = any(c.isdigit() for c in core)
    return (
        has_upper_inside or has_digit or word.endswith("+") or (core.isupper() and len(core) >= 2)
    )


_NAME_TOKEN = re.compile(
    r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]*(?:[-+.][A-Za-z0-9]+)*\+*"
)  # "256x256" holds no name


def name_tokens(text: str) -> list[str]:
    """Coined names in ``text`` (see :func:`looks_like_name`), in order, without repeats."""
    plain = text.replace("$", "").replace("^", "").replace("*", "")
    out: list[str] = []
    for tok in _NAME_TOKEN.findall(plain):
        tok = tok.rstrip(".")
        if any(part.isalpha() and part.islower() for part in re.split(r"[-+.]", tok)):
            continue  # a compound of ordinary words ("AI-designed", "RNA-measurement")
        if looks_like_name(tok) and tok not in out:
            out.append(tok)
    return out


#: The longest question accepted (characters), in ask, chat and summaries.
MAX_QUESTION_CHARS = 2000


def clean_question(question: str | None) -> str:
    """The question, cleaned (:func:`clean_text`, white space folded).

    Raises :class:`~paperchat.core.errors.PaperchatError` when it is empty or
    longer than :data:`MAX_QUESTION_CHARS` characters.
    """
    from paperchat.core.errors import PaperchatError

    question = " ".join(clean_text(question or "").split())
    if not question:
        raise PaperchatError("the question is empty; ask something about the papers")
    if len(question) > MAX_QUESTION_CHARS:
        raise PaperchatError(
            f"the question is {len(question)} characters long; the limit is {MAX_QUESTION_CHARS}"
        )
    return question


_PROPER = re.compile(r"(?<=[\w,;)\]] )[A-Z][a-z]{2,}(?:-[A-Za-z]+)?\b")
_NOT_PROPER = frozenset(
    """What Which Who Whom Whose When Where Why How Does Do Did Is Are Was Were Can Could Would Should Will
    The This That These Those There Their They Its And But For With Without From Into Onto About Between Under Over Summarize
    Give Tell Explain Describe List Compare Name Show Find Please""".split()
)


def proper_nouns(text: str) -> list[str]:
    """Capitalised words inside a sentence (not its first word): "Atari", "Breakout", "Kenya" (in order, no repeats)."""
    out: list[str] = []
    for word in _PROPER.findall(text.replace("*", "")):
        if word not in _NOT_PROPER and word not in out:
            out.append(word)
    return out


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
