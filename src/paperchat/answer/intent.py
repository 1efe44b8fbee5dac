"""What a question asks for, and what role each abstract sentence plays: the offline answerer's reading.

:func:`read_question` returns an :class:`Intent`: the kind of answer wanted

* ``summary``: "Summarize X", "Give me an overview of X" -> problem, method and result of that one paper;
* ``authors`` / ``title``: "Who wrote X?", "What is the title of the paper that ...?" -> the stored metadata;
* ``find``: "Which paper(s) ...", "Is there work on ...?" -> the papers that fit, each named, with the
  sentence that says why (``plural``: every paper above the relevance bar);
* ``define``: "What is X?", "What does X propose?" -> the sentence that defines X first;
* ``quantity``: "How many ...", "By how much ...", "What speed-up ..." -> the sentence that holds the number;
* ``entity``: "Which datasets / models / benchmarks ..." -> the sentence that
  names them;
* ``finding``: "How does A compare with B?", "What did they find?" -> result
  sentences, not background or the premise a paper argues against;
* ``mechanism``: "How does X work?", "Walk me through X's pipeline" -> neither
  background nor results; whatever the kind, :attr:`Intent.how` (the asking
  sentence asks how a method works) adds the sentences that follow the proposal
  (:mod:`paperchat.answer.method_span`);
* ``general``: anything else.

``detail`` is an experimental detail the question asks for by name ("learning
rate", "batch size", "GPUs"): abstracts rarely give one, so when no retrieved
sentence holds it the answerer abstains rather than quote nearby text.

What each abstract sentence does (its role) is read by :mod:`paperchat.answer.roles`.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace

from paperchat.answer.asks import HOW_MANY_AUTHORS, plain_question, split_ask
from paperchat.answer.details import (  # noqa: F401 - the answerer's
    asked_detail,
    detail_asked_in,
    detail_first,
    holds_detail,
)
from paperchat.core.terms import name_tokens, terms
from paperchat.core.text import in_capitalised_run

SUMMARY = "summary"
AUTHORS = "authors"
TITLE = "title"
FIND = "find"
DEFINE = "define"
QUANTITY = "quantity"
ENTITY = "entity"
FINDING = "finding"
MECHANISM = "mechanism"
GENERAL = "general"


@dataclass(frozen=True)
class Intent:
    """How a question is read (see the module docstring).

    ``names`` are the coined names it mentions (``ConfPO``, ``GNN+``);
    ``subject`` the one a summary, definition or metadata question is about. ``how``: it also asks how
    a method works ("..., and how is that score computed?"), whatever its kind.
    """

    kind: str
    plural: bool = False
    names: tuple[str, ...] = ()
    subject: str | None = None
    detail: str | None = None
    how: bool = False


_SUMMARY = re.compile(
    r"^\s*(?:please\s+)?(?:summari[sz]e|sum up|give (?:me )?(?:an? |a short |a brief )?(?:overview|summary|rundown)|"
    r"(?:an? |brief |short )?(?:overview|summary) of|tl;?dr|what is the (?:paper|work) (?:on |about )?.*\babout\b)",
    re.I,
)
_AUTHORS = re.compile(
    r"\bwho (?:wrote|are the authors|is the (?:first|last|lead|corresponding) author|authored|proposed|introduced)\b"
    # (opening the question only: "The authors who built a dataset ... report ...?" asks something else)
    r"|^\s*who\s+(?:developed|created|invented|made|built|(?:is|are)\s+behind)\b"
    r"|\bauthors? (?:of|behind)\b|\bwhich (?:researchers|authors)\b|" + HOW_MANY_AUTHORS.pattern,
    re.I,
)
_TITLE = re.compile(
    r"\b(?:(?:full |exact )?title of|what is the (?:full |exact )?title|what is the paper (?:called|titled)|"
    r"titled)\b",
    re.I,
)
_FIND_PLURAL = re.compile(
    r"\b(?:which|what|any|list|name|find|show me)\s+(?:\w+\s+){0,2}?(?:papers|works|studies|articles|methods|"
    r"approaches|(?<=every )(?:paper|work|study))\b|\bare there (?:any )?(?:papers|works|studies|methods)\b|\bpapers (?:that|which|on|about|using)\b"
    r"|^\s*(?:is there )?anything (?:on|about|for)\b|\bwhat are the (?:main|key|major|different|common) (?:approaches|methods|techniques)\b"
    # "which paper are about grokking": a plural verb says a list (an international researcher); "Anything for X?"
    r"|\b(?:which|what) (?:paper|work|study|article) (?:are|were|have)\b",
    re.I,
)
#: "Which of the papers this year was the one that ...?", "Which of the papers this year argued that ...?":
#: one paper asked for, though "papers" is plural (a singular verb or one in the past tense follows it).
_ONE_OF_THEM = re.compile(
    r"\bwhich (?:one )?of (?:the|these|those|this year's) (?:\w+\s+){0,2}?(?:papers|works|studies)\b"
    r"(?:[^?.]*?\b(?:is|was) (?:the (?:one|paper|work|study)|it)\b"
    r"|(?:\s+(?:this|last) year)?\s+(?:is|was|has|did|\w+ed)\b)",
    re.I,
)
_FIND_ONE = re.compile(
    r"\b(?:which|what) (?:\w+\s+){0,2}?(?:paper|work|study|article|method|approach|framework|defen[cs]e|"
    r"attack|tool|system|technique|algorithm|model|benchmark)\b"
    r"|\bis there (?:a |any |some )?(?:new )?(?:work|paper|research|study|method|approach|way|theory)\b"
    r"|\bis there an? (?:\S+ ){0,3}?(?:tool|system|technique|algorithm|model|benchmark|framework|planner|defen[cs]e|"
    r"attack|method|approach|architecture|dataset)\b"
    r"|\b(?:i'?m|i am) looking for\b|\bany (?:work|research|paper) (?:on|that|about)\b|\bi remember (?:a|an|the|some)\b"
    r"|\bhas anyone\b|\bdoes any (?:paper|work)\b"
    r"|\b(?:i need|find me|point me to) (?:the|a|that) (?:paper|work|study|article)\b",
    re.I,
)
#: A question that opens by asking which paper (a common slip of "which" included).
_FIND_LEAD = re.compile(
    r"^\s*(?:which|what|wich|whcih|whihc)\s+(?:[\w-]+\s+){0,2}?(?:paper|work|study|article)\b", re.I
)
_DEFINE = re.compile(
    r"^\s*(?:what(?: is| are)\s+(?P<a>[^?]{1,60}?)\s*\??\s*$|what does (?P<b>\S+) (?:do|propose|introduce|mean)\b|"
    r"explain (?P<c>[^?]{1,60})|what is the (?:main |key )?idea (?:of|behind) (?P<d>[^?]{1,60}))",
    re.I,
)
_QUANTITY = re.compile(
    # not "... rather than how much data there is": a question inside a statement asks nothing
    r"\bhow (?:many|much|large|fast|big|long|small|often)\b(?! (?:[\w-]+ ){1,3}there (?:is|are|was|were)\b)"
    r"|\bby (?:how much|what (?:factor|margin|percentage|fraction))\b"
    r"|\bwhat (?:[\w-]+\s+){1,3}(?:does|do|did) (?:[\w-]+\s+){1,6}?(?:achieve|reach|get|obtain|report|score|attain)\b"
    r"|\b(?:what|(?:give|list|report|state)(?: me)? the) (?:[\w-]+\s+){0,4}?"
    r"(?:speed-?ups?|accuracy|percentage|percent|score|fraction|ratio|rate|improvement|error|reduction|gain|"
    r"sizes?|lengths?|widths?|depths?|durations?|number|count|proportion|cost|latency|throughput|performance|"
    r"success rate|win rate|"
    r"perplexity)\b"
    # shorthand: "what % mem did it save", "by how many %", "exact speedup number"
    r"|\b(?:what|how many)\s+(?:%|percent)|\b(?:exact|precise|max|headline)\s+(?:[\w-]+\s+)?(?:number|figure)\b"
    # a search-box ask that opens with the amount: "avg speedup for the faster CAV method"
    r"|^\s*(?:(?:avg|average|mean|median|max|maximum|peak|overall|total|best|reported)\s+)?"
    r"(?:speed-?ups?|accuracy|memory (?:saving|reduction)s?|compression (?:ratio|rate)|win rate|error rate)"
    r" (?=(?:for|of|on|in|with|over|vs)\b)",
    re.I,
)
_ENTITY = re.compile(
    r"\b(?:which|what)\s+(?:\w+\s+){0,3}?(?:datasets?|benchmarks?|models?|baselines?|tasks?|environments?|"
    r"languages?|metrics?|domains?|architectures?|llms|vlms|games?|algorithms?|techniques?|components?|"
    r"variants?|modalities|applications?|settings?|problems?|features?|encoders?)\b|\bon which\b",
    re.I,
)
_FINDING = re.compile(
    r"\bcompare[sd]?\b|\bcompared (?:to|with)\b|\bversus\b|\bvs\.?\b|\bwhat (?:did|do|does) (?:\w+\s+){0,4}?(?:find|show|observe|conclude|reveal)\b"
    r"|\b(?:outperform|better than|worse than|match)\b|\bwhat happens\b|\bwhy\b",
    re.I,
)
#: "How does X work / get its speedup / turn A into B?", "walk me through", "what is the trick": how a method works.
_MECHANISM = re.compile(
    r"\bhow (?:does|do|did|is|are|was|were|can|could)\b|\bwalk (?:me |us )?through\b|\bstep[- ]by[- ]step\b"
    r"|(?:'s|\bits|\btheir) pipeline\b|\bmechani(?:sms?|stically|cally)\b|\btrick\b|\bunder the hood\b"
    r"|\bwhat is (?:the |their |its )?(?:approach|method|recipe|procedure)\b(?!'s name| called| named)"
    r"|\bwhat (?:are|were) (?:the |its |their )?(?:main |key |core )?(?:pieces|parts|ingredients|building blocks|"
    r"steps|stages)\b",
    re.I,
)
#: What a comparison asks of each paper's method: "how do their approaches differ", "diff in how they attack",
#: "what mechanism does each rely on", "how does each pick data" (not "how does each compare / perform").
_APPROACH = re.compile(
    r"\bapproach(?:es)?\b|\bmethods?\b|\bmechanisms?\b|\bstrateg(?:y|ies)\b|\btechniques?\b"
    r"|\bprocess(?:es)?\b|\bin how\b|\bhow (?:each|they|it)\b"
    r"|\bhow (?:do|does|did) (?:each|they|the two|the three|both)\b"
    r"(?! (?:\w+ ){0,3}(?:compare|perform|fare|score|rank))"
    # "what does each one change / add / introduce", "the main component each one introduces"
    r"|\bwhat (?:\w+\s+){0,2}?(?:does|do|did|is|are) (?:each|they|both|the two|the three|either)(?: one)?"
    r"\s+(?:\w+\s+){0,2}?(?:introduc|add|chang|us|propos|contribut|modif|do|build|bring|offer)\w*\b"
    r"|\bcomponents?\b",
    re.I,
)
#: Words that make a question a comparison of the papers it names.
COMPARE = re.compile(
    r"\b(?:compare[sd]?|comparison|contrast|differ(?:s|ence|ences|ent)?|versus|vs\.?|both|each|(?:dis)?agree\w*|contradict\w*|"
    r"between|which of (?:them|the (?:two|three))|which one|either (?:one|of)|the other|another|"
    # "Which of any4 and GANQ is more accurate?", "Is QuantSpec faster than BanditSpec?" (a practitioner's:
    # one of the two had been quoted, as if the winner)
    r"which of [\w.$-]+(?:\s[\w.$-]+){0,3}?\s(?:and|or)\s[\w.$-]+|"
    r"(?:more|less|\w{3,}er)\s+(?:[\w-]+\s+){0,2}?than\s+(?-i:\w*[A-Z]\w*)|"
    r"(?:the )?(?:former|latter)|respectively"
    r"|^\s*(?:which\s+(?:one\s+)?(?:is|was|has|had|achieves?|gets?|gives?|runs?|uses?|needs?|requires?|scales?|"
    r"performs?|works?|reports?|costs?|reach(?:es)?|attains?|obtains?|offers?|supports?|handles?|consumes?|"
    r"saves?|yields?|shows?|delivers?|produces?|takes?|claims?)\b[^?]*?|(?:is|are|was|were|does|do|did|has)\s+)"
    r"(?-i:\b[\w-]*[A-Z][\w-]*\s+or\s+[\w-]*[A-Z][\w-]*))\b",
    re.I,
)
_QUOTED = re.compile(r"(?:^|[\s(])['\"‘“]([^'\"’”]{3,60})['\"’”](?=[\s,.;:?)]|$)")


def comparison_subjects(question: str) -> list[str]:
    """The names a comparison question gives for its papers, in order (empty for other questions).

    A name is a coined name (:func:`paperchat.core.terms.name_tokens`) or a phrase in quotes; a question is a
    comparison when it has at least two of them and a comparison word (:data:`COMPARE`; "Which is faster,
    QuantSpec or RAPID?" too)."""
    if not COMPARE.search(question):
        return []
    subjects = subject_names(question)
    return subjects if len(subjects) >= 2 else []


def subject_names(question: str) -> list[str]:
    """The phrases in quotes of ``question``, then its coined names outside them, in order.

    One lower-case word in quotes is emphasis ("three takes on 'experts'", "'hard' perturbations"), not a name.
    """
    subjects = [
        m.group(1).strip()
        for m in _QUOTED.finditer(question)
        if not re.fullmatch(r"[a-z]+", m.group(1).strip())
    ]
    return subjects + [n for n in name_tokens(question) if not any(n in s for s in subjects)]


def read_question(question: str) -> Intent:
    """The :class:`Intent` of ``question`` (rules over its wording; no model). Its contractions are written
    out first (:func:`paperchat.answer.asks.plain_question`): "What's the speedup of ...?" asks an amount, as
    "What is the speedup ...?" does, not what a thing is."""
    question = plain_question(question)
    # the sentence that asks, not one that describes ("... a popular representation-similarity trick ...")
    asking = split_ask(question).sentence
    intent = _read(question, asking)
    if intent.kind in (FINDING, SUMMARY, AUTHORS, TITLE) or intent.plural:
        return intent  # "How does A compare with B?" asks a result; a list, a summary or metadata no method
    return replace(intent, how=_MECHANISM.search(asking) is not None)


def asks_approach(sentence: str) -> bool:
    """Whether a comparison's asking ``sentence`` asks how each paper works (:data:`_APPROACH`), so each
    paper's method move is quoted (:func:`paperchat.answer.method_span.method_span`)."""
    return _APPROACH.search(sentence) is not None


def how_terms(question: str) -> set[str]:
    """The content terms of the words that ask how ("walk", "pipeline", "mechanically"): what to do, not
    which paper or which part of it, so no sentence is relevant for holding them."""
    return {t for m in _MECHANISM.finditer(split_ask(question).sentence) for t in terms(m.group())}


def _read(question: str, asking: str) -> Intent:
    """The kind of ``question`` and what it names; ``asking`` is its asking sentence (:func:`split_ask`)."""
    names = tuple(name_tokens(question))
    detail_text = asked_detail(question)
    subject = names[0] if names else None
    if _AUTHORS.search(question):
        return Intent(AUTHORS, names=names, subject=subject)
    if _TITLE.search(question):
        return Intent(TITLE, names=names, subject=subject)
    if _SUMMARY.search(question):
        return Intent(SUMMARY, names=names, subject=subject)
    if _FIND_PLURAL.search(question):
        return Intent(
            FIND, plural=not _ONE_OF_THEM.search(question), names=names, detail=detail_text
        )
    if _FIND_LEAD.search(question):  # "Which paper: ... how fast SSL converges?" asks for the paper
        return Intent(FIND, names=names, detail=detail_text)
    if any(not in_capitalised_run(question, m.end()) for m in _QUANTITY.finditer(question)):
        return Intent(QUANTITY, names=names, subject=subject, detail=detail_text)
    if _ENTITY.search(question):
        return Intent(ENTITY, names=names, subject=subject, detail=detail_text)
    define = _DEFINE.search(question)
    # "What is the license of X?" asks a detail, not what X is
    if define and names and not detail_text:
        return Intent(DEFINE, names=names, subject=subject)
    if _FIND_ONE.search(question):
        return Intent(FIND, names=names, detail=detail_text)
    if _FINDING.search(question):
        return Intent(FINDING, names=names, subject=subject, detail=detail_text)
    if _MECHANISM.search(asking):  # the asking sentence, as ``Intent.how``
        return Intent(MECHANISM, names=names, subject=subject, detail=detail_text)
    return Intent(GENERAL, names=names, subject=subject, detail=detail_text)


_INSTRUCTION = re.compile(
    r"^\s*(?:please\s+)?(?:summari[sz]e|sum up|give (?:me )?(?:an? |a short |a brief )?(?:overview|summary|rundown) of|"
    r"(?:an? |brief |short )?(?:overview|summary) of|tl;?dr:?|who (?:wrote|are the authors of|is the (?:first|last|lead) author of)|"
    r"how many (?:co-?)?authors (?:does|do|did)|(?:list|show|find)(?: me)?(?: all| the)?(?: icml)? (?:papers|works)|"
    r"what is the (?:full |exact )?title of)\s+(?:the\s+)?(?:paper|work|article)?\s*(?:on|about|that|which|titled|called)?\s*",
    re.I,
)


def retrieval_query(question: str) -> str:
    """The question without its instruction words ("Give me an overview of Vintix." -> "Vintix."), for retrieval.

    Instruction words say what to do with a paper, not which paper; left in, they pull in papers that are
    themselves overviews or summaries (or, "How many authors does the paper ...", other papers on authors)."""
    stripped = _INSTRUCTION.sub("", question).strip()
    return stripped if len(stripped) >= 3 else question


#: Hyperparameters a question asks the value of by name ("what LoRA rank did they use?").
_SETTING_NOUNS = (
    r"(?:rank|top-k|budget|factor|coefficient|temperature|threshold|weight|ratio|dimension|window|margin|"
    r"penalty|lambda|alpha|beta|gamma|epsilon|horizon|(?<!model )size|probability|rate|constant|tolerance)"
)
_SETTING = re.compile(
    r"\bwhat (?:exact |specific |numerical |small |large |default |optimal |best )?values? (?:of|for) "
    r"(?:the |that |their |its |this )?(?P<a>[\w-]+(?: [\w-]+)?)"
    # "by what factor was it cut" asks a change, not a setting
    r"|(?<!by )\bwhat (?P<b>(?:[\w-]+ ){0,2}?"
    + _SETTING_NOUNS
    # "what tolerance on constraint violation did they allow", "how large a background sample did they ..."
    + r")s? (?:(?:on|in|for|of|in front of|between) (?:\S+ ){1,4}?)?(?:did|do|does|was|were|is|are)\b"
    # "what approximation ratio does it achieve?" asks a result, not a setting (a newcomer's session)
    + r"(?!(?: [\w-]+){0,5}? (?:achiev|reach|attain|obtain|report|prov|guarantee|get)\w*)"
    + r"|\bhow (?:large|big) an? (?P<c>[\w-]+(?: [\w-]+)?) (?:did|do|does|was|were|is)\b",
    re.I,
)


#: Words that end the setting's name ("what value of the discount factor did ...").
_SETTING_STOP = frozenset("did do does was were is are they in for on when used".split())


def setting_noun(question: str) -> str | None:
    """For "what value of X ..." and "what <hyperparameter> did they use" questions, X as written ("discount
    factor", "LoRA rank", "cache budget"), else ``None``. Its value is a number the abstract must give."""
    match = _SETTING.search(question)
    if not match:
        return None
    words = []
    for word in (match.group("a") or match.group("b") or match.group("c")).split():
        if word.lower() in _SETTING_STOP:
            break
        words.append(word)
    return " ".join(words) or None


_COMPARATIVE = re.compile(
    r"[a-z]+er|extra|more|less|better|worse|overhead|improvement|gain|speed-?up", re.I
)
#: A verb of change after "how much X" ("how much node classification improves"): X changes, it is not counted.
_CHANGE_VERB = re.compile(
    r"(?:improv|increas|decreas|drop|reduc|declin|grow|grew|shrink|shrank|rise|rose|fall|fell|gain|boost"
    r"|chang|degrad|lower|rais)\w*$",
    re.I,
)
CORPUS_NOUNS = {"paper", "work", "study", "article", "abstract", "publication", "author"}


#: Words that end the noun phrase after "how much" (a verb or a word that starts a clause).
_PHRASE_END = frozenset(
    "does do did is are was were can could will would should has have had it they we you the a an "
    "of in on for to by with".split()
)
#: A unit asked for after the question: "..., in bits?", "..., in GPU-hours?".
_UNIT = re.compile(r",\s*in\s+([A-Za-z][\w-]*s)\s*\?\s*$")


def asks_how_many(question: str) -> bool:
    """Whether ``question`` asks "how many": a count of things, which a ratio ("3x", "45%") does not give; "how
    many fewer / more / times" asks a change, which a ratio does give."""
    return bool(re.search(r"\bhow many\b(?!\s+(?:fewer|more|less|times|x)\b)", question, re.I))


def counted_noun(question: str) -> str | None:
    """For "how many X" / "how much X" / "what share of X" / "..., in X?" questions, the content term of X's head
    noun (else ``None``).

    "How many random bits does ..." counts bits: for "how many" (and "what
    percentage / fraction / share / proportion of"), the first plural among
    the next three words, else the first word; for "how much", the last word of the noun phrase that
    follows (of at most three words: "how much activation memory does ..." asks for memory). A part of a
    whole counts the whole's noun: "how many of the 700 questions are visual?" counts questions (but "how
    much of the gap ...?" asks a share).
    """
    match = re.search(
        r"\b(?:how (many|much)|what (?:percentage|fraction|share|proportion) of(?: the)?)\s+"
        # counted out of a whole: "how many of the 700 questions", "how many of MapEval's tasks"
        r"(?:(?<=many )of\s+(?:(?:the|its|their|these|those)\s+|[\w-]+['’]s\s+)?(?:[\d,.]+\s+)?)?"
        r"((?:[A-Za-z][\w'’-]*\s*){1,3})",
        question,
        re.I,
    )
    if not match:  # "which one embeds the longer message, in bits?": a number of bits
        unit = _UNIT.search(question)
        found = terms(unit.group(1)) if unit else []
        return found[0] if found else None
    words = [w.lower() for w in match.group(2).split()]
    if match.group(1) and match.group(1).lower() == "much":
        if _COMPARATIVE.fullmatch(words[0]) or any(_CHANGE_VERB.match(w) for w in words[1:]):
            # "how much faster / extra", "how much node classification improves": a change, not a count
            return None
    # "Tulu-3's samples": a possessive is no plural
    plural = [w for w in words if w.endswith("s") and not w.endswith(("ss", "us", "'s", "’s"))]
    if (match.group(1) or "many").lower() == "many":
        word = plural[0] if plural else words[0]
    else:  # "how much activation memory does ...": a phrase a verb ends has its head last
        phrase = list(itertools.takewhile(lambda w: w not in _PHRASE_END, words))
        word = phrase[-1] if phrase and len(phrase) < len(words) else words[0]
    if word.rstrip("s") in CORPUS_NOUNS:
        return word.rstrip("s")
    found = terms(word)
    return found[0] if found else None
