"""The ask of a question: the part that says what to answer, apart from the part that says which paper.

A researcher's question often first describes its paper ("The anomaly
detection paper that borrows cost-volume filtering from stereo matching ...")
and only then asks ("which backbone did they use?"). Retrieval needs the
description; choosing the sentence that answers needs the ask. Scoring every
sentence against the whole question lets the description, usually the longer
part, pick sentences that restate the paper's idea instead of the one that
answers (question decomposition into a locating and an asking part, in the
spirit of Min et al. 2019, "Multi-hop Reading Comprehension through Question
Decomposition and Rescoring").

:func:`split_ask` finds the ask by structure, not by template: the last
sentence of the question that ends with a question mark (else the last
sentence), and inside it the first clause that opens with a question word
after a comma, colon, semicolon or dash. Everything before is the
description.

:func:`plain_question` reads a question's contractions once ("what's", the
shorthand "whats", "how's" -> "what is", "how is"), so the rules that read
its wording spell each ask one way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from paperchat.core.sentences import split_sentences
from paperchat.core.terms import terms

#: "How many authors does CROW have?": a count of one paper's authors, answered from its stored author list
#: (an authors question, :data:`paperchat.answer.intent.AUTHORS`; :func:`paperchat.answer.offline.metadata_answer`).
HOW_MANY_AUTHORS = re.compile(r"\bhow many (?:co-?)?authors\b", re.I)

#: A question word's contraction with "is" ("what's", "How’s", "who's"), "whats" (shorthand) and the
#: subjects "it's", "that's", "there's": read as the two words. A noun's possessive ("ConfPO's") stays.
_CONTRACTION = re.compile(
    r"\b(what|how|who|where|when|why|it|that|there)(?:['\u2019]s\b|(?<=[Ww]hat)s\b)", re.I
)


def _swaps(word: str) -> set[str]:
    """``word`` with two neighbouring letters swapped, every way ("what": "hwat", "waht", "whta")."""
    return {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)} - {word}


#: Question words typed with two letters swapped ("waht", "whcih"; a chat session's "waht papers use ...?"
#: had abstained), and "wich"; "hwo" is "how" or "who", so neither. Read as the word meant.
_TYPED = {
    typo: word
    for word in ("what", "which", "when", "where", "why", "how", "who")
    for typo in _swaps(word) - {"hwo"}
} | {"wich": "which"}
_TYPO = re.compile(r"\b(" + "|".join(sorted(_TYPED)) + r")\b", re.I)


def plain_question(question: str) -> str:
    """``question`` with its question words' contractions written out (:data:`_CONTRACTION`): "What's the
    speedup?" -> "What is the speedup?", and a question word typed with two letters swapped as meant
    (:data:`_TYPED`: "waht" -> "what"). Idempotent; the answerer reads every question through it once."""
    question = _TYPO.sub(lambda m: _cased(_TYPED[m.group(1).lower()], m.group(1)), question)
    return _CONTRACTION.sub(r"\1 is", question)


def _cased(word: str, like: str) -> str:
    """``word`` capitalised when ``like`` is ("Waht" -> "What")."""
    return word.capitalize() if like[:1].isupper() else word


_QUESTION_WORD = (
    r"(?:which|what|how|who|whom|whose|when|where|why|did|does|do|is|are|was|were|can|could|"
    r"name|give|list|tell)\b"  # terse asks: "- what is it called", "- name and how much faster"
)
_CLAUSE_ASK = re.compile(
    r"(?:[,:;—–]|\s-)\s*((?:and |but |so |then )?" + _QUESTION_WORD + r".*)$", re.I | re.S
)


@dataclass(frozen=True)
class Ask:
    """A question split into ``description`` (which paper; may be empty) and ``ask`` (what to answer).

    ``terms`` are the ask's content terms (:func:`paperchat.core.terms.terms`,
    no repeats); a question with no description has its whole text as ``ask``. ``sentence`` is the
    question's sentence that holds the ask (the ask and the clauses before it in that sentence).
    """

    description: str
    ask: str
    terms: tuple[str, ...]
    sentence: str = ""

    @property
    def described(self) -> bool:
        """Whether the question describes its paper apart from what it asks."""
        return bool(self.description.strip())


@lru_cache(maxsize=256)
def split_ask(question: str) -> Ask:
    """The :class:`Ask` of ``question`` (see the module docstring; contractions written out: :func:`plain_question`).

    Cached: one answer reads it to score sentences, to check premises and to decide whether to name
    the paper; :class:`Ask` is frozen, so the calls share one.
    """
    text = " ".join(question.split())
    sentences = split_sentences(text) or [text]
    last = next((i for i in range(len(sentences) - 1, -1, -1) if "?" in sentences[i]), None)
    index = len(sentences) - 1 if last is None else last
    sentence = sentences[index]
    before = " ".join(sentences[:index])
    match = _CLAUSE_ASK.search(sentence)
    if match and match.start() > 0:
        head = sentence[: match.start()].strip()
        ask = match.group(1).strip()
        description = f"{before} {head}".strip()
    else:
        description, ask = before, sentence
    return Ask(description, ask, tuple(dict.fromkeys(terms(ask))), sentence)


def ask_overlap(ask: Ask, sentence: str) -> float:
    """Share of the ask's content terms that ``sentence`` holds (0..1; 0 when the ask has none)."""
    if not ask.terms:
        return 0.0
    held = set(terms(sentence))
    return sum(t in held for t in ask.terms) / len(ask.terms)


#: An ask for the paper's or its method's name: "what is the framework called", "whats it called",
#: "what is its name", "name it" (contractions written out: :func:`plain_question`).
_NAME_ASK = re.compile(
    r"\bwhat(?: is| was| are)?\s+(?:it|this|that|they|the\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+called\b"
    r"|\bwhat(?: is| was)\s+(?:its|their|the\s+[\w-]+[’']?s?)\s+name\b|\bname (?:it|and|the (?:method|paper))\b",
    re.I,
)


def asks_for_name(question: str) -> bool:
    """Whether ``question`` (contractions written out: :func:`plain_question`) asks what its paper (or its
    method) is called: the answer then names the paper."""
    return _NAME_ASK.search(question) is not None


#: "Which paper found that, and how big was the improvement?", "Do you know which paper that was?": the
#: question asks which paper, whatever else it asks (:func:`asks_which_paper`).
_WHICH_PAPER = re.compile(
    r"\b(?:which|what)\s+(?:(?!(?:papers|works|studies|articles)\b)[\w-]+\s+){0,2}?"
    r"(?:paper|work|study|article)\b",
    re.I,
)


def asks_which_paper(question: str) -> bool:
    """Whether ``question`` asks which one paper (:data:`_WHICH_PAPER`), alone or beside another ask."""
    return _WHICH_PAPER.search(question) is not None


#: How a question or a request opens ("what ...", "does ...", "compare ...", "summarize ...").
_REQUEST_OPENING = re.compile(
    r"(?:what|which|how|why|who|whom|whose|when|where|does|do|did|is|are|was|were|can|could|should|would|"
    r"will|has|have|had|compare|contrast|summari[sz]e|list|describe|explain|tell|show|give|find|name|"
    r"in\s+what|in\s+which|for\s+what|on\s+what|according\s+to)\b",
    re.I,
)


def reads_as_request(text: str) -> bool:
    """Whether ``text`` reads as one question or request: it ends with "?" or opens as one does
    (:data:`_REQUEST_OPENING`), and holds no citation marker. A small model asked to rewrite a follow-up may
    answer it instead ("The answer is: CROW", "CROW removes backdoors by ... [1].")."""
    text = text.strip()
    if not text or re.search(r"\[\d+\]", text):
        return False
    return text.endswith("?") or bool(_REQUEST_OPENING.match(text))
