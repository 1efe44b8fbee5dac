"""The sentences that count what a "how many / how much X" question asks about.

"How many problems does the benchmark hold?" is answered by a sentence that
holds a number within :data:`COUNT_WINDOW` words of the counted noun ("problems");
without one, the answerer abstains. A number word that describes ("three
dimensional waveforms", "3D") counts nothing. The noun is matched as the
question writes it, as the longer word it abbreviates when no paper of the
corpus uses it ("mem" for "memory", "params" for "parameters"), and as the word
it misspells ("activaton"), read with the store's BM25 index
(:meth:`paperchat.store.bm25.BM25Index.respelled`).

"What value of the discount factor did they use?" and "what LoRA rank did they
use?" ask for a setting's value (:func:`paperchat.answer.intent.setting_noun`):
abstracts rarely give one, so a sentence must hold a number and the setting.
"""

from __future__ import annotations

import re

from paperchat.answer.roles import holds_number
from paperchat.cite.cue_words import stem
from paperchat.core.terms import STOPWORDS, terms

#: Words that name an amount of compute by its unit: "72 A100 GPU hours", "1e21 FLOPs", "8 TPUs".
_COMPUTE_UNIT = re.compile(
    r"\(?(?:[GT]PUs?|FLOPs?)(?:-(?:hours?|days?))?[.,;:)]*|PF-?days?[.,;:)]*", re.I
)

#: Nouns of an amount of money (by Snowball stem), and what states one: a currency sign before a number or
#: a currency word ("$1 million", "\\$5", "1M USD", "300 dollars", "€20").
_MONEY_NOUNS = frozenset({"money", "dollar", "usd", "payout", "earn", "revenu", "fund"})
#: A model's size in parameters written as a number with B or M: "7B", "1.5B", "350M".
_MODEL_SIZE = re.compile(r"\b\d+(?:\.\d+)?[BM]\b")
_CURRENCY = re.compile(r"[$€£]\s?\d|\b(?:USD|EUR|GBP|dollars?|euros?)\b")


def names_noun(text: str, noun: str, abbreviation: bool) -> bool:
    """Whether ``text`` holds the content term ``noun`` or a word of its Snowball stem ("compute":
    "computational"), or, for an ``abbreviation`` (a word no paper of the corpus uses, such as "mem" or
    "params"), a longer word it starts ("memory", "parameters"). A hyphenated term's parts count: a
    "25M-parameter transformer" names its parameters; a unit of compute (:data:`_COMPUTE_UNIT`) names
    "compute", a currency (:data:`_CURRENCY`) money, and a model size ("7B", :data:`_MODEL_SIZE`) parameters."""
    key = stem(noun)
    if key == "comput" and any(_COMPUTE_UNIT.fullmatch(w) for w in text.split()):
        return True
    if key in _MONEY_NOUNS and _CURRENCY.search(text):  # "\\$1 million USD" is money
        return True
    if key == "paramet" and _MODEL_SIZE.search(text):  # "(1B and 7B)" are sizes in parameters
        return True
    if noun.lower() in STOPWORDS:
        # "papers" (PaperBench's "replicate 20 ... papers"), which terms() drops
        return re.search(rf"\b{re.escape(noun.lower())}s?\b", text, re.I) is not None
    held = terms(text)
    held += [part for t in held if "-" in t for part in t.split("-") if part]
    if noun in held or abbreviation and len(noun) >= 3 and any(t.startswith(noun) for t in held):
        return True
    return any(stem(t) == key for t in held)


#: A question word that opens an ask ("what ...", ", and how many ...").
_ASK_WORD = re.compile(
    r"(?:^|[,;:]\s*|\band\s+|[.?!]\s+)(?:what|how|which|why|who|where|when)\b", re.I
)


def one_ask_of_several(question: str, papers: int) -> bool:
    """Whether a count is one of several asks of a comparison of ``papers`` papers: "What quick move does the
    robot use, and how many people tested the suit?" asks two things of two papers, so a count no
    sentence gives declines one ask, not the answer."""
    return papers >= 2 and len(_ASK_WORD.findall(question)) >= 2


#: Words apart that a number and the counted noun may stand ("24,332 instances of agent scenarios").
COUNT_WINDOW = 8
#: A number word that describes, not counts: "three dimensional", "two-dimensional", "3D".
_DESCRIBING = re.compile(r"(?:\w+-)?dimensional\b|\d[dD]\b", re.I)


#: A number inside a name counts nothing: "an NVIDIA A100 GPU", "GPT-4", "Llama-2-7B", "TransNAS-Bench-101"
#: (letters lead the word).
#: Math after the letters is part of the name too ("GSM-$\\infty$"); a LaTeX command is no name ("$\\sim$3").
#: A number that leads a name in capitals is part of it too ("3-SAT", "2-WL").
_NAMED = re.compile(r"[^\w\\]*(?:[A-Za-z][A-Za-z.-]*(?:\d|\$)|\d+-[A-Z]{2,})")


#: A ratio counts nothing: "3.04$\\times$ higher throughput", "2x faster", "45% fewer", "$76.1\\%$" (LaTeX),
#: "ten times more".
_RATIO = re.compile(r"\W*(?:(?:\\sim|\\approx)\$?)?[\d.,]+\s*(?:\$?\\times\$?|×|x\b|\\?%)", re.I)
_RATIO_NEXT = re.compile(r"(?:\$?\\times\$?|×|times|\\?%|percent|fold)(?!\w)", re.I)
#: Units a number before them measures, not counts things with: "$0.004$ GPU Days to generate
#: architecture" gives no number of architectures.
_UNIT_NEXT = re.compile(
    r"\W*(?:GPU-?)?(?:hours?|days?|minutes?|seconds?|ms|GB|MB|TB|KB|GiB|MiB|[GT]?FLOPs?)", re.I
)


#: Math without dollars counts too: "\\tilde{O}(D) tasks", "O(n) samples", "\\sqrt{T} rounds"; a command that
#: sets text ("\\textit{trained}", "\\emph{...}") is no math.
_MATH = re.compile(r"\W*(?:\\(?!text|emph|underline|url|href|cite)[a-z]+\{|O\()")


#: A number written with digits: "700", "1,000", "6.03", "$3.5$" (the digits are read without commas).
_DIGITS = re.compile(r"\d[\d,]*(?:\.\d+)?")


#: Punctuation around a number standing on its own: "(700", "1,000,", "$3.5$", "~400".
_AROUND = "()[]{},.;:?!$~\"'"


def given_numbers(question: str) -> frozenset[str]:
    """The numbers ``question`` writes with digits as words of their own, commas dropped ("How many of the
    1,000 questions ...": ``{"1000"}``); digits inside a name or with a unit ("GPT-4", "8B", "3.5-hour") are
    not counted. A number the question gives is no answer to what it asks: "how many of MapEval's 700
    questions are visual?" is not answered by "700 multiple-choice questions"."""
    words = (w.strip(_AROUND) for w in question.split())
    return frozenset(w.replace(",", "") for w in words if _DIGITS.fullmatch(w))


def _given_at(word: str, given: frozenset[str]) -> bool:
    """Whether every number ``word`` writes with digits is one of ``given`` (and it writes one)."""
    found = [m.group().replace(",", "") for m in _DIGITS.finditer(word)]
    return bool(found) and all(n in given for n in found)


def _number_at(words: list[str], i: int, given: frozenset[str] = frozenset()) -> bool:
    """Whether ``words[i]`` states a number (digits, a number word, inline or bare math) that is no part of
    a name (:data:`_NAMED`), does not describe (:data:`_DESCRIBING`, itself or the word after it) and is
    not one the question gives (``given``, :func:`given_numbers`)."""
    w = words[i]
    return bool(
        ("$" in w or holds_number(w) or _MATH.match(w))
        and not _DESCRIBING.match(w)
        and not _NAMED.match(w)
        and not (i + 1 < len(words) and _DESCRIBING.match(words[i + 1]))
        and not (given and _given_at(w, given))
    )


def _ratio_at(words: list[str], i: int) -> bool:
    """Whether ``words[i]`` is a ratio or percentage ("3x", "45%") or a number the next word makes one
    ("ten times", "3 fold")."""
    return bool(_RATIO.match(words[i]) or (i + 1 < len(words) and _RATIO_NEXT.match(words[i + 1])))


def _unit_at(words: list[str], i: int, holds_noun) -> bool:
    """Whether a unit of time, memory or compute (:data:`_UNIT_NEXT`, after "GPU" or not) follows ``words[i]``
    and is not the counted noun (``holds_noun``): "0.004 GPU Days" measures a duration, it counts no
    architectures; it counts "GPU days"."""
    unit = (
        words[i + 1 : i + 3]
        if i + 1 < len(words) and words[i + 1].upper() == "GPU"
        else words[i + 1 : i + 2]
    )
    return (
        bool(unit)
        and _UNIT_NEXT.fullmatch(unit[-1].rstrip(".,;:)")) is not None
        and not any(holds_noun(w) for w in unit)
    )


def _number_near(
    text: str, holds_noun, whole: bool = False, given: frozenset[str] = frozenset()
) -> bool:
    """Whether a number of ``text`` stands within :data:`COUNT_WINDOW` words of a word ``holds_noun`` accepts;
    with ``whole``, a ratio (:data:`_RATIO`) is no such number: it counts no things ("how many GPUs").
    A number of ``given`` (the question's own, :func:`given_numbers`) is none."""
    words = text.split()
    numbers = [
        i
        for i in range(len(words))
        if _number_at(words, i, given)
        and not (whole and (_ratio_at(words, i) or _unit_at(words, i, holds_noun)))
    ]
    nouns = [i for i, w in enumerate(words) if holds_noun(w)]
    return any(abs(i - j) <= COUNT_WINDOW for i in numbers for j in nouns)


#: "By how much ...?", "how much faster ...?", "how much does it cut / gain / save ...?": a change, which a
#: sentence states with a ratio or percentage ("up to 153x speedup") or a number beside a word of change.
_ASKS_CHANGE = re.compile(
    # a speedup or a percentage asked in shorthand: "what was the max e2e speedup", "by how many %",
    # "what % training mem did it save"
    r"\b(?:what|exact|max|maximum|headline)\s+(?:[\w-]+\s+){0,3}?speed-?ups?\b"
    r"|\bby how (?:much|many\s+(?:%|percent))"
    r"|\bwhat\s+(?:%|percent)\s+(?:[\w-]+\s+){0,3}?(?:did|does|do)\b"
    r"|\bhow much (?:\w+ )?(?:faster|slower|better|worse|higher|lower|more|less|smaller|larger|bigger|cheaper)\b"
    # what a method adds: "how much extra latency does the shuffling add?", "how much additional compute"
    r"|\bhow much (?:extra|additional|added)\b"
    r"|\bhow much (?:does|did|do|can|could|would) (?:[\w'-]+ ){1,8}?"
    r"(?:gain|improve|reduce|cut|save|beat|outperform|boost|speed|lower|raise|increase|decrease|shrink|"
    r"accelerate|help|hurt)\b"
    # a saving of a thing: "how much human labelling did it save?", "how much memory does it cut?" (the
    # number must still be one of that thing: paperchat.answer.intent.counted_noun)
    r"|\bhow much (?:[\w-]+\s+){1,3}?(?:does|did|do|can|could|would|will)\s+(?:[\w'-]+\s+){1,6}?"
    r"(?:save|saves|saved|cut|cuts|reduce|reduces|reduced|shave|trim)\b"
    # "how big was the resilience gap between ...?": a difference
    r"|\bhow (?:big|large|much|wide) (?:was|is|were|are) (?:the|that|this) (?:[\w-]+\s+){0,2}?"
    r"(?:gap|difference|drop|improvement|gain|reduction|speed-?up)\b",
    re.I,
)
_CHANGE_WORD = re.compile(
    r"\b(?:improv|reduc|gain|faster|slower|speed|better|outperform|surpass|lower|higher|fewer|less|more|"
    r"sav|cut|boost|increas|decreas|accelerat|drop|advantage|margin)\w*",
    re.I,
)


def asks_change(question: str) -> bool:
    """Whether ``question`` asks by how much something changes ("how much faster", "by how much does it
    beat ...", "how much labelling did it save"), not an amount ("how much memory does it need?")."""
    return _ASKS_CHANGE.search(question) is not None


def states_change(text: str, given: frozenset[str] = frozenset()) -> bool:
    """Whether ``text`` states a change: a ratio or percentage ("153x", "6.5%", "3.04$\\times$"), or a
    number with digits in a sentence holding a word of change ("improves from 58.8 to 90.0"); a number of
    ``given`` (the question's own, :func:`given_numbers`) is none."""
    words = [w for w in text.split() if not (given and _given_at(w, given))]
    if any(
        (_RATIO.match(w) or holds_number(w)) and _ratio_at(words, i) for i, w in enumerate(words)
    ):
        return True
    return _CHANGE_WORD.search(text) is not None and any(
        any(ch.isdigit() for ch in w) and not _NAMED.match(w) and not _NO_AMOUNT.fullmatch(w)
        for w in words
    )


def amount_sentences(cands: list, question: str) -> list:
    """The candidates (objects with ``text`` and ``role``) that can answer "how much / what accuracy ...?"
    about one paper, best first as given: those stating a change (:func:`states_change`) when the question
    asks one (:func:`asks_change`), else those stating a number (:func:`states_number`); a percentage when
    it asks one ("..., as a percentage?"), a speed when it asks "how much faster" (a time, a rate or a factor:
    :data:`_STATES_SPEED`); code links never. A number the question gives
    (:func:`given_numbers`) states nothing; "by several orders of magnitude" (:data:`_ORDERS`) states one."""
    fits = states_change if asks_change(question) else states_number
    percent = _ASKS_PERCENT.search(question) is not None  # "..., as a percentage?": a percentage
    # "how much faster is CoSD?": a speed, not "improves accuracy by up to 10%"
    speed = _ASKS_SPEED.search(question) is not None
    given = given_numbers(question)
    return [
        c
        for c in cands
        if c.role != "resource"
        # "by several orders of magnitude" is an amount without a digit
        and (fits(c.text, given) or _ORDERS.search(c.text) is not None)
        and (not percent or _PERCENT.search(c.text))
        and (not speed or _STATES_SPEED.search(c.text))
    ]


#: A change of speed asked, and the words a sentence that states one holds (a time, a rate, a factor "3x").
_ASKS_SPEED = re.compile(r"\bhow much (?:faster|quicker|slower)\b|\bhow (?:fast|quick)\b", re.I)
_STATES_SPEED = re.compile(
    r"speed|fast|quick|slow|accelerat|latency|throughput|time|wall-?clock|second|minute|hour|"
    r"\d\s*(?:x|×)(?!\w)|\\times|FLOPs?\b|efficien",
    re.I,
)
#: An amount stated in orders of magnitude ("reducing the variance ... by several orders of magnitude"), from
#: a grounding audit's "How much does NAL reduce the variance ...?" (thirty-third round).
_ORDERS = re.compile(r"\borders? of magnitude\b", re.I)
#: An amount asked as a percentage, and a percentage stated ("45%", "$76.1\\%$", "$51.5$\\%", "12 percent").
_ASKS_PERCENT = re.compile(r"\b(?:as an? |in |what |which |how many )(?:percent(?:age)?\b|%)", re.I)
_PERCENT = re.compile(r"\d\$?\s*(?:\\?%|percent\b)|\bpercentage points?\b", re.I)


def states_number(text: str, given: frozenset[str] = frozenset()) -> bool:
    """Whether ``text`` states a number that is no part of a name ("A100", "CIFAR-100") and does not describe
    ("3D", "two-dimensional"): digits, a number word or inline math. "How much / how large / what
    accuracy ...?" is answered by a sentence that does. An enumerator ("(1)", "(ii)") and "one" ("one token
    after another") state no amount, nor does a number of ``given`` (the question's own, :func:`given_numbers`)."""
    words = text.split()
    return any(
        _number_at(words, i, given)
        and (not _NO_AMOUNT.fullmatch(words[i]) or _one_of_unit(words, i))
        for i in range(len(words))
    )


#: Words that look like numbers but state no amount: enumerators and "one".
_NO_AMOUNT = re.compile(r"\(?(?:\d|[ivx]+)\)[,:]?|[Oo]ne[,;:.]?", re.I)
#: A unit of time or a scale after "one" makes it an amount ("in about one second": "How long does
#: LightningDrag take?" had abstained, an abstention audit of the thirty-fourth round found; "with one
#: trillion time points": an eval author's "How big is TimeBench ...?" had abstained, fortieth round).
_TIME_UNIT = re.compile(
    r"(?:second|minute|hour|day|week|month|hundred|thousand|million|billion|trillion)s?[,;:.]?",
    re.I,
)


def _one_of_unit(words: list[str], i: int) -> bool:
    """Whether ``words[i]``, "one", is an amount: a unit of time or a scale (:data:`_TIME_UNIT`) follows it."""
    return (
        words[i].lower() == "one"
        and i + 1 < len(words)
        and _TIME_UNIT.fullmatch(words[i + 1]) is not None
    )


def counting_sentences(
    cands: list,
    noun: str,
    lexicon,
    whole: bool = False,
    given: frozenset[str] = frozenset(),
    aliases: frozenset[str] = frozenset(),
) -> list:
    """The candidates (objects with ``text``) that hold ``noun`` with a number (or LaTeX: "$d$ random bits")
    near it (:func:`_number_near`); ``whole`` for a count of things ("how many X"), which no ratio gives;
    a number of ``given`` (the question's own, :func:`given_numbers`) counts nothing. A word of ``aliases``
    (abbreviations the papers define for the noun, :func:`defined_abbreviations`) holds the noun too.

    ``lexicon`` is the store's BM25 index (``df``, ``tokenize``, ``respelled``, ``terms_of``), or ``None``
    (then the noun is matched as written only).
    """
    unknown = (  # the noun as the index reads it, when no paper uses that word
        [t for t in lexicon.tokenize([noun])[0] if not lexicon.df.get(t, 0)]
        if lexicon is not None
        else []
    )
    respelled = {r for t in unknown for r in lexicon.respelled(t)}  # "activaton" -> "activ"

    def holds_noun(text: str) -> bool:
        return (
            names_noun(text, noun, bool(unknown))
            or bool(respelled and respelled & lexicon.terms_of(text))
            or bool(aliases and aliases & {w.strip(".,;:()") for w in text.split()})
        )

    return [
        c for c in cands if holds_noun(c.text) and _number_near(c.text, holds_noun, whole, given)
    ]


#: A count asked of an evaluation ("On how many datasets is AWL evaluated?"), and a sentence that evaluates.
_ASKS_EVALUATED = re.compile(r"\b(?:evaluat|validat|test|benchmark|assess)\w*\b", re.I)
_EVALUATES = re.compile(
    r"\b(?:evaluat|validat|test|experiment|benchmark|assess)\w*\b.{0,60}?\bon\s+(?:\w+\s+){0,2}?\d",
    re.I,
)


def evaluated_first(counted: list, question: str) -> list:
    """``counted`` (sentences holding the count, best first) with those that evaluate on the count ("We
    validate our method on 6 scientific benchmark datasets") first when ``question`` asks how many things
    a paper is evaluated on: an eval author's "On how many datasets is AWL evaluated?" had been answered
    with "... surpassing GPT-4o ... on 4 custom-created datasets"."""
    if len(counted) < 2 or not _ASKS_EVALUATED.search(question):
        return counted
    evaluating = [c for c in counted if _EVALUATES.search(c.text)]
    return evaluating + [c for c in counted if c not in evaluating]


#: An abbreviation defined in running text: the words before it, then "(LMM)" or "(LMMs)".
_DEFINITION = re.compile(r"((?:[A-Za-z][\w-]*\s+){1,6})\((?P<short>[A-Z][A-Za-z0-9]{1,9}?)s?\)")


def defined_abbreviations(abstract: str, noun: str) -> frozenset[str]:
    """The abbreviations ``abstract`` defines for a phrase ending in ``noun`` (by stem), singular and plural:
    "a pre-trained large multimodal model (LMM)" gives ``{"LMM", "LMMs"}`` for "model", so "47 LMMs"
    counts models. The phrase's last words must begin with the abbreviation's letters, as definitions
    are written (Schwartz & Hearst 2003 match initials the same way)."""
    key = stem(noun)
    out: set[str] = set()
    for match in _DEFINITION.finditer(abstract):
        short, words = match.group("short"), match.group(1).split()
        if stem(words[-1].lower()) != key or len(short) > len(words):
            continue
        initials = "".join(w[0] for w in words[-len(short) :]).lower()
        if initials == short.lower():
            out |= {short, short + "s"}
    return frozenset(out)


def value_sentences(cands: list, setting: str, lexicon) -> list:
    """The candidates that hold a number and every content term of ``setting`` ("discount factor": both words;
    matched as :func:`counting_sentences` matches a counted noun)."""
    words = terms(setting)
    if not words:
        return []
    held = counting_sentences(cands, words[-1], lexicon)
    return [c for c in held if set(words[:-1]) <= _with_parts(terms(c.text))]


def _with_parts(words: list[str]) -> set[str]:
    """``words`` and the parts of the hyphenated ones: "win-rate" holds "win" ("what win rate ...")."""
    return set(words) | {part for w in words if "-" in w for part in w.split("-") if part}
