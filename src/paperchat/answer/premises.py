"""False premises: a question that asks about something its paper says it does without.

"Which small draft model did they pair with the diffusion model?" presupposes a
draft model; the paper's abstract says its method "does not require any
auxiliary draft models". Quoting the abstract's nearest sentences would answer
a question the paper rejects, so the answerer abstains and says why.

:func:`denied_terms` finds the words of the question's ask
(:mod:`paperchat.answer.asks`) that the paper's abstract uses only under a
negation close before them ("without X", "no X", "does not require any X",
"avoids X", "eliminating the need for X"), while the question itself does not
negate them. Only the paper's own sentences count: a background sentence saying
what earlier methods rely on does not make it a premise of this paper. Words are compared by their Snowball stems, and negation is read
with the support checker's tokens, clause breaks and stemmer
(:mod:`paperchat.cite.cue_words`), so the two read words alike. The window is narrow on
purpose (:data:`NEGATION_WINDOW` words, not across a comma or clause break):
a negation far before a word is about something else.

:func:`reversed_direction` finds the other common false premise: a question that takes its claim as
given ("why does X make generation slower?") where the paper's own sentences say the thing goes the
other way ("X reduces generation latency by 24%") and never the question's way. The answerer then
abstains with a note (:func:`reversal_note`), and so it does for a denied term, naming the denied words as
the question writes them (:func:`denied_phrase`). The denied term was a note only from the tenth round to
the twenty-ninth: as an abstention it had declined answerable held-out questions. It abstains again since
a bare "not" counts only before a verb of needing, a word of the title is never denied, and a "which
paper" question (which describes its paper) is not read for premises (``eval/generalization/TUNING.md``).
"""

from __future__ import annotations

import re

from paperchat.answer.denial_premises import denial_note
from paperchat.answer.number_premises import number_note
from paperchat.answer.roles import own_sentences
from paperchat.answer.technique_premises import technique_note
from paperchat.cite.cue_words import BREAK, TOKEN, stem, tokenize
from paperchat.core.sentences import split_sentences
from paperchat.core.terms import STOPWORDS, terms

#: Words before a term that a negation may stand at and still govern it ("does not require any auxiliary draft").
NEGATION_WINDOW = 5
#: Words that deny what follows them. Narrower than the checker's negators: a contrast ("unlike X") says
#: what other work does, not that this paper does without X.
DENIALS = frozenset(
    """without no not never neither nor cannot none zero avoid avoids avoiding avoided
    eliminate eliminates eliminating removing removes""".split()
)


#: Stems of the verbs of needing that make a bare "not" deny what follows: "does not require any X", "does
#: not rely on X" (while "does not reduce X" says nothing of having X).
_NEEDING = ("requir", "need", "reli", "use", "depend", "assum", "involv", "train")
#: The verbs of needing that are no thing a paper could do without.
_NEEDS = ("requir", "need", "reli", "depend")
#: A question asking what a paper does without, whose answer is a denial (a methods reader's "What
#: assumption does SketchTune avoid?" had been declined as a false premise).
_DOES_WITHOUT = re.compile(
    r"\b(?:avoid|eliminat|bypass|sidestep|circumvent|dispens|relax|get(?:s)? rid of|do(?:es)? away with)\w*",
    re.I,
)


def _negated_at(tokens: list[str], i: int) -> bool:
    """Whether a negation stands within :data:`NEGATION_WINDOW` words before ``tokens[i]``, in its clause; a
    bare "not" ("never", "cannot", "n't") only with a verb of needing between (:data:`_NEEDING`)."""
    needing = False
    for j in range(i - 1, max(-1, i - 1 - NEGATION_WINDOW), -1):
        w = tokens[j]
        if w in BREAK:
            return False
        needing = needing or stem(w).startswith(_NEEDING)
        if w in ("not", "never", "cannot") or w.endswith("n't"):
            return needing
        if w in DENIALS:
            return True
    return False


def _polarity(text: str, stems: set[str], own_only: bool = False) -> dict[str, set[bool]]:
    """``{stem: {negated?}}`` for each occurrence in ``text`` of a word whose stem is in ``stems``.

    ``own_only``: skip the background sentences of an abstract (what other work does,
    :func:`paperchat.answer.roles.own_sentences`), so only what the paper says of itself counts.
    """
    out: dict[str, set[bool]] = {}
    for sentence in own_sentences(text) if own_only else split_sentences(text) or [text]:
        tokens = tokenize(sentence)
        for i, w in enumerate(tokens):
            if not w[0].isalpha():
                continue
            if w.endswith("-free") and stem(w[:-5]) in stems:  # "training-free": no training
                out.setdefault(stem(w[:-5]), set()).add(True)
            elif stem(w) in stems:
                out.setdefault(stem(w), set()).add(_negated_at(tokens, i))
    return out


#: A name as written: two capitals or letters and digits ("MATH", "GPT-4", "Qwen2.5").
_NAME = re.compile(r"[A-Z]\S*[A-Z]|[A-Za-z]\d|\d[A-Za-z]")


def _after_names(ask: str) -> set[str]:
    """Stems of the words of ``ask`` that follow a name: "MATH score" is the benchmark's score, no machinery
    of the paper's that it could do without."""
    words = re.findall(r"[\w.-]+", ask)
    return {stem(w.lower()) for prev, w in zip(words, words[1:]) if _NAME.search(prev)}


def denied_terms(ask: str, text: str) -> list[str]:
    """Words of ``ask`` (as written) that a paper's ``text`` (its title, a line break, its abstract) mentions
    only under a close negation, and ``ask`` does not negate.

    Content words of four letters or more, not right after a name (:func:`_after_names`), not in the title (a
    paper titled "... Benchmarking ..." does not do without benchmarks); a word the question writes before
    "free" ("the training free one") is negated by the question too. ``[]`` when there is none (the usual
    case).
    """
    if _DOES_WITHOUT.search(ask):
        return []  # "What assumption does SketchTune avoid?": its "avoiding the low-rank assumption" answers
    surface: dict[str, str] = {}
    after_names = _after_names(ask)
    title = text.split("\n", 1)[0] if "\n" in text else ""
    titled = {stem(w) for w in tokenize(title)}
    for w in tokenize(ask):
        # a verb of needing is no premise, its object is ("What does ConfPO not require?" had been declined
        # for "require", which its abstract writes after "without")
        if stem(w).startswith(_NEEDS):
            continue
        if w[0].isalpha() and len(w) >= 4 and w not in STOPWORDS and w not in DENIALS:
            if stem(w) not in after_names and stem(w) not in titled:
                surface.setdefault(stem(w), w)
    asked = _polarity(ask, set(surface))
    # "the training free segmentation thing", "... instead of running foundation models": the question
    # denies it too (an eval-workflow session: FedLMG's "clients do not need access to any foundation
    # models" had read as a premise the question makes)
    for s, w in surface.items():
        if re.search(rf"\b{re.escape(w)}[\s-]+free\b", ask, re.I) or re.search(
            # "better than training a linear model from scratch": the alternative compared, no premise
            rf"\b(?:instead\s+of|rather\s+than|than|versus|vs\.?|compared\s+(?:to|with))\b[^,;.?]{{0,40}}?"
            rf"\b{re.escape(w)}",
            ask,
            re.I,
        ):
            asked.setdefault(s, set()).add(True)
    said = _polarity(text, set(surface), own_only=True)
    return [
        surface[s] for s in surface if said.get(s) == {True} and True not in asked.get(s, {False})
    ]


#: A clause that asks yes or no ("..., and does it add overhead?"): the abstract's denial answers it ("with
#: zero additional overhead"), so it presupposes nothing.
_YES_NO = re.compile(
    r"(?:^|[,;:]\s*|[.?!]\s+|\b(?:and|or|but)\s+)(?:does|do|did|can|could|will|would|has|have)\s+(?:it|they|this|that|\w+)\b",
    re.I,
)


def asks_yes_no(question: str) -> bool:
    """Whether a clause of ``question`` asks yes or no with an auxiliary ("does it ...?", "..., and can they
    ...?"), whose answer a denial of the abstract can be."""
    return _YES_NO.search(question.strip()) is not None


def denied_phrase(ask: str, denied: list[str]) -> str:
    """The longest run of adjacent words of ``ask`` that are all ``denied`` (:func:`denied_terms`), as
    written: "data augmentation" rather than "data" alone; the first denied word when none are adjacent."""
    wanted = {w.lower() for w in denied}
    best: list[str] = []
    run: list[str] = []
    for w in TOKEN.findall(ask.replace("’", "'")):  # the words denied_terms read, as written
        run = run + [w] if w.lower() in wanted else []
        if len(run) > len(best):
            best = run
    return " ".join(best) if best else (denied[0] if denied else "")


#: Questions that take their claim as given: "why does X ...?", "how does X end up ...?", "how do they
#: explain ...?". A direction in that claim the abstract reverses is a false premise.
PRESUPPOSING = re.compile(
    r"\bwhy\b|\bhow come\b|\bhow (?:does|do|did) (?:[\w-]+\s+){1,4}?(?:end up|manage to|get to)\b"
    r"|\b(?:how|what) (?:do|does|did) (?:they|the authors) (?:explain|attribute)\b|\bwhat (?:explains|causes)\b",
    re.I,
)
#: Direction words (Snowball stems), each family with its opposite: "increasing hallucination" where the
#: abstract "reduces hallucination", "smaller for the 8B model" where it is "larger", "slower" where it is
#: "faster", "worse" where the abstract says the thing is "prevented".
DIRECTIONS = {
    "up": ("increas rais boost amplifi inflat more higher larger greater bigger grow rise", "down"),
    "down": ("decreas reduc lower less fewer smaller shrink declin diminish", "up"),
    "worse": ("wors exacerb", "better"),
    "better": ("prevent mitig allevi improv better", "worse"),
    "slow": ("slower slowdown", "fast"),
    "fast": ("faster acceler speedup", "slow"),
}
#: Content words apart that a direction word and the term it is about may stand.
DIRECTION_WINDOW = 4
#: Stems of durations: "reduces latency" makes a thing faster, "more overhead" slower.
_DURATIONS = {"latenc", "runtim", "overhead", "wall-clock"}
#: Words too general to tie a direction in the question to one in the abstract.
_GENERAL = {
    "make",
    "end",
    "use",
    "model",
    "method",
    "paper",
    "author",
    "result",
    "show",
    "get",
    "need",
}


#: Each direction stem's family.
_FAMILY_OF = {w: family for family, (words, _) in DIRECTIONS.items() for w in words.split()}
#: Compounds that go one way or the other by their first half: "high-frequency" against "low-frequency",
#: "large-scale" against "small-scale", "long-range" against "short-range".
_COMPOUND = re.compile(r"^(high|low|large|small|long|short)-([a-z]+)$")
_COMPOUND_OPPOSITE = {
    "high": "low",
    "low": "high",
    "large": "small",
    "small": "large",
    "long": "short",
    "short": "long",
}


def _family(word: str) -> str | None:
    """The direction family of a content term (as :func:`paperchat.core.terms.terms` gives it): a stem of
    :data:`DIRECTIONS`, or a compound of :data:`_COMPOUND` ("high-frequency" is its own family)."""
    compound = _COMPOUND.match(word)
    if compound:
        return word
    return _FAMILY_OF.get(stem(word))


def _opposite(family: str) -> str:
    """The family that goes the other way: "down" for "up", "low-frequency" for "high-frequency"."""
    compound = _COMPOUND.match(family)
    if compound:
        return f"{_COMPOUND_OPPOSITE[compound.group(1)]}-{compound.group(2)}"
    return DIRECTIONS[family][1]


def _directions(text: str) -> list[tuple[str, str, set[str]]]:
    """``(word, family, terms near it)`` for each direction word of ``text`` (content terms, stemmed)."""
    words = terms(text)
    stems = [stem(w) for w in words]
    kinds = [_family(w) for w in words]
    out = []
    for i, family in enumerate(kinds):
        if family is None:
            continue
        near = {
            stems[j]
            for j in range(max(0, i - DIRECTION_WINDOW), min(len(stems), i + DIRECTION_WINDOW + 1))
            if j != i and kinds[j] is None and stems[j] not in _GENERAL
        }
        written = re.search(rf"\b{re.escape(words[i])}\w*", text, re.I)  # "reduces", not "reduce"
        word = written.group() if written else words[i]
        out.append((word, family, near))
        if family in ("up", "down") and near & _DURATIONS:  # less latency is faster, more is slower
            out.append((word, "slow" if family == "up" else "fast", near))
    return out


def reversed_direction(question: str, abstract: str) -> tuple[str, str] | None:
    """``(the question's word, the abstract's)`` when a question that takes its claim as given
    (:data:`PRESUPPOSING`) says a thing goes one way and the paper's own sentences say it goes the other
    way ("how does VISTA end up increasing hallucination by 40%?" where VISTA "reduces hallucination by
    about 40%"), and never the question's way; else ``None``. A direction and its thing are tied when
    they stand within :data:`DIRECTION_WINDOW` content words of each other, in both texts.
    """
    if not PRESUPPOSING.search(question):
        return None
    asked = _directions(question)
    if not asked:
        return None
    said = [d for sentence in own_sentences(abstract) for d in _directions(sentence)]
    for word, family, near in asked:
        opposite = _opposite(family)
        agree = any(f == family and n & near for _, f, n in said)
        against = next((w for w, f, n in said if f == opposite and n & near), None)
        if against and not agree:
            return word, against
    return None


def named(question: str, paper) -> str:
    """How a note names ``paper`` (``title``, ``label``): its short label when the question uses it, else its
    title (a label made from the title, "SSL", means nothing to an asker who never wrote it)."""
    label = paper.label or ""
    return label if label and label.lower() in question.lower() else paper.title


def reversal_note(question: str, paper, df=None, finds: bool = False) -> str:
    """The note for a premise ``paper``'s abstract reverses (:func:`reversed_direction`), whose amount it
    gives otherwise (:func:`paperchat.answer.number_premises.changed_number`), whose technique it never
    mentions (:func:`paperchat.answer.technique_premises.unused_thing`) or, unless the question asks yes or
    no nor looks for a paper (``finds``), whose requirement it denies in other words
    (:func:`paperchat.answer.denial_premises.denied_category`), or ``""``.

    ``paper`` has ``title``, ``abstract`` and ``label`` (its short name, may be empty); ``df`` counts a
    word's papers (:func:`paperchat.answer.technique_premises.unused_thing`).
    """
    flipped = reversed_direction(question, paper.full_text)
    if not flipped:
        # "Why is TabFlex 10x faster than TabPFN?" where the abstract says "2×"; "How does PEINR use an
        # LSTM ...?" where its abstract names no LSTM
        name = named(question, paper)
        return (
            number_note(question, paper, name)
            or technique_note(question, paper, name, df)
            # (not for a question looking for a paper: "Which method lets me train a 7B model ...?" is
            # no premise about the paper found, whose "training-free" only says it is not the one)
            or ("" if asks_yes_no(question) or finds else denial_note(question, paper, name))
        )
    return (
        f"the abstract of {named(question, paper)} says '{flipped[1]}' where the question says "
        f"'{flipped[0]}': check the question's premise"
    )
