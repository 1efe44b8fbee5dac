"""Content terms and coined names of a text: the word-level heuristics retrieval, citation checks and
answers share (stopwords, plural folding, names such as ``GNN+`` or ``K2IE``)."""

from __future__ import annotations

import re

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
    # the field's generic abbreviations of tasks and tools, written in questions where abstracts spell them out
    "QA",
    "LM",
    "LMs",
    "MT",
    "IR",
    "CV",
    "ASR",
    "TTS",
    "OCR",
    "RAG",
    "MDP",
    "MDPs",
    "MCMC",
    "MARL",
    "NAS",
    "NLG",
    "NLU",
    "LR",
    "SFT",
    "RLHF",
    "e2e",
    "E2E",
}


def looks_like_name(word: str) -> bool:
    """Whether ``word`` looks like a coined name (``ConfPO``, ``GNN+``, ``K2IE``, ``CROW``), not a common acronym."""
    if (
        len(word) < 2
        or len(word) > 24
        or word in _COMMON
        or word[-1:] == "s"
        and word[:-1] in _COMMON
    ):
        return False  # "AIs", "MLPs": a common acronym's plural
    core = word.rstrip("+")
    has_upper_inside = any(c.isupper() for c in core[1:])
    has_digit = any(c.isdigit() for c in core)
    return (
        has_upper_inside or has_digit or word.endswith("+") or (core.isupper() and len(core) >= 2)
    )


_NAME_TOKEN = re.compile(
    r"(?<![^\W_])(?<![^\W_][-+.])(?:(?<![-+.])\d+[A-Z][A-Za-z0-9]*(?=[-+.][A-Za-z0-9])|[A-Za-z][A-Za-z0-9]*)(?:[-+.][A-Za-z0-9]+)*\+*"
)  # "256x256" holds no name; "3D-LMVIC" is one (a digit may lead a hyphenated one, not inside "3.3-70B-Instruct");
# none starts inside a word ("Transfer-FNO", nor "FNO", is a name of its own in "μTransfer-FNO")


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
