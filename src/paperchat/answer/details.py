"""Details abstracts rarely give, asked for by name: "What learning rate did they use?", "Where is the code for
ConfPO released?".

A question that names one (:func:`asked_detail`) is answered only from a sentence that holds it
(:func:`holds_detail`); else the answerer abstains, naming the paper it found ("the abstract does not give
the learning rate"), rather than quote nearby text. Code is held only by a link or a sentence saying the
code is available: "code injection" in CROW's abstract is no code release; a download ("Where can I download
the OR-Bench dataset?") by a link or the data said to be released ("open-source LLMs" is none).
"""

from __future__ import annotations

import re

#: Experimental details abstracts rarely give; asked for by name, they must be there to be answered.
_DETAIL = re.compile(
    r"\b(learning rates?|batch sizes?|gpus?|tpus?|gpu[- ]hours?|hours|epochs?|random seeds?|seeds|optimizers?|"
    r"hardware|wall[- ]clock|weight decay|dropout rate|warm-?up(?:[ -](?:steps|schedules?|ratio|period))?|training steps|memory footprint|"
    r"participants|annotators|licen[cs]es?|code licen[cs]es?|hyper-?parameters?|(?:filter|sampler|solver) settings|"
    # a theorist's: "Which theorem number states ...?", "the constants hidden in the O(log log T) bound"
    r"theorem numbers?|lemma numbers?|which theorem|hidden constants|constants hidden|proof techniques?)\b",
    re.I,
)
#: How a note names a detail asked in other words ("the abstract does not give the theorem number").
_NAMED = {"which theorem": "theorem number", "constants hidden": "hidden constants"}
#: "How much were the CASE-Bench annotators paid?" (a benchmark hunter's: a p-value had been quoted): pay,
#: before the "annotators" it is asked of.
_PAY = re.compile(r"\b(?:wages?|compensation|compensated|paid)\b", re.I)
#: "Where can I download the OR-Bench dataset?", "Where is MIB hosted?": a link asked for, as code is.
_DOWNLOAD = re.compile(
    r"\bwhere\s+(?:can|could|do|does|should|would)\s+(?:i|we|you|one)\s+(?:download|get|find|access|obtain)\b"
    r"|\bwhere\s+(?:is|are)\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+){0,3}?\s+(?:hosted|available|released|downloadable)\b"
    r"|\bdownload\s+(?:link|url|page)\b|\bhow\s+(?:can|do)\s+(?:i|we)\s+(?:download|get\s+hold\s+of)\b",
    re.I,
)
#: What tells a reader where data is: a link, or the data said to be available.
_DATA_GIVEN = re.compile(
    r"https?://|www\.|\bgithub\b|\bhugging\s*face\b|\b(?:publicly|openly|freely)\s+(?:available|released)\b"
    r"|\b(?:data|datasets?|benchmarks?|code)\b[^.]{0,40}\b(?:available|released|open[- ]sourced)\b"
    r"|\bwe\s+(?:publicly\s+)?(?:release|open[- ]source)\b",
    re.I,
)
#: A question asking where a paper's code is: "Where is the code for ConfPO released?", "Is the code of
#: CROW available?", "github link for X" (not "code generation", "code injection", nor "the open-source LLM it
#: uses": tuning qd46 and qx41 had been declined for it).
_CODE = re.compile(
    r"\b(?:source\s+)?code\b(?=\s+(?:for|of|is|are|was|been|be|available|released|public|link|url|repo"
    r"|repository|base)\b)|\b(?:github|gitlab)\b|\bcode\s*(?:base|repo(?:sitory)?)\b"
    # "Where is the any4 code?" (a verifier's: the link had been left out)
    r"|\bwhere\b[^?]*\bcode\s*[?.!]*\s*$",
    re.I,
)
#: What tells a reader where code is: a link, or the code said to be available.
_CODE_GIVEN = re.compile(
    r"https?://|www\.|\bgithub\b|\bgitlab\b|\b(?:code|implementation|repository)\b[^.]{0,60}\b(?:available|released|"
    r"public|open[- ]sourced?)\b|\b(?:available|released|open[- ]sourced?)\b[^.]{0,60}\b(?:code|implementation)\b",
    re.I,
)
#: What names hardware without the word: a GPU, TPU or CPU, or a GPU's model ("A100", "RTX 3090").
_HARDWARE = re.compile(
    r"\b(?:[AHVLT]\d{2,3}|RTX\s?\d{4}|GTX\s?\d{4}|[GTCN]PUs?|FPGAs?|ASICs?|Jetson|TPUv\d)\b"
)
#: The names :func:`asked_detail` gives a code question and a download question.
CODE = "code link"
DOWNLOAD = "download link"
_LINKS = (CODE, DOWNLOAD)


def asked_detail(question: str) -> str | None:
    """The detail ``question`` asks for by name, lower case ("learning rate", :data:`CODE`), else ``None``."""
    if _PAY.search(question):
        return "pay"
    if detail := _DETAIL.search(question):
        return _NAMED.get(detail.group(1).lower(), detail.group(1).lower())
    if _CODE.search(question):
        return CODE
    return DOWNLOAD if _DOWNLOAD.search(question) else None


def holds_detail(sentence: str, detail: str) -> bool:
    """Whether ``sentence`` mentions the detail ``detail`` (singular or plural; :data:`CODE`: a link, or the
    code said to be available; :data:`DOWNLOAD`: a link, or the data said to be released; "hardware": a
    GPU's name too; "pay": a wage or compensation)."""
    if detail == CODE:
        return _CODE_GIVEN.search(sentence) is not None
    if detail == DOWNLOAD:
        return _DATA_GIVEN.search(sentence) is not None
    if detail == "hardware" and _HARDWARE.search(sentence):
        return True  # "on an A100 GPU" (a practitioner's "What hardware did ShadowKV use?" had abstained)
    if detail.startswith("proof technique"):  # "Our proof relies on a coupling argument"
        return (
            re.search(r"\b(?:proof|argument|technique)s?\b(?!\s+that)", sentence, re.I) is not None
        )
    if detail == "pay":
        return re.search(r"\b(?:pay|paid|wages?|compensat\w*)\b", sentence, re.I) is not None
    stem = detail.rstrip("s")
    return (
        re.search(r"\b" + re.escape(stem).replace(r"\ ", r"[\s-]") + r"s?\b", sentence, re.I)
        is not None
    )


def detail_asked_in(sentence: str, detail: str | None, which_paper: bool = False) -> str | None:
    """``detail`` when the asking ``sentence`` itself names it (as :func:`asked_detail` reads it: "which
    optimizer did they use?"), else ``None``: a sentence before it may use the word to describe the paper ("A
    paper couples language models with a combinatorial optimizer. Which ..."). A ``which_paper`` question
    asks for the detail only after a question word ("Which paper ..., and what GPUs did it use?"): "Which
    paper ... mitigate errors on noisy quantum hardware?" describes its paper with the word (tuning aa41 had
    abstained, "the abstract does not give the hardware"; on the tuning sets and conference dev, all seven
    "which paper" questions naming a detail used it so)."""
    if not detail or not (detail in sentence.lower() or detail == asked_detail(sentence)):
        return None
    if which_paper and not re.search(
        rf"\b(?:what|which|how many|how much)\s+(?:[\w-]+\s+){{0,3}}?{re.escape(detail)}",
        sentence,
        re.I,
    ):
        return None
    return detail


def detail_first(picked: list, own: list, detail: str | None) -> list:
    """``picked`` (candidates with ``text``) with the first of ``own`` that holds a :data:`CODE` or
    :data:`DOWNLOAD` ``detail`` at its head, one with a URL before one only saying it is available ("Where is
    the code for X?": the sentence with the link, which a code question had left out); as it is for another
    detail (a "GPU" first had led with "existing GPU kernels suffer ...", conference cq046)."""
    given = [c for c in own if detail in _LINKS and holds_detail(c.text, detail)]
    # a link before a sentence only saying it is available
    given = sorted(given, key=lambda c: re.search(r"https?://|www\.", c.text) is None)[:1]
    return given + [c for c in picked if c not in given] if given else picked
