"""Terse chat follow-ups that name only what they ask for: "numbers?", "tldr", "limitations?", "datasets
used?", "whats the speedup", "who wrote that", "which is better".

Typed after an answer, such a reply asks about that answer's paper(s), though it holds no "it" or "the
second one" that :mod:`paperchat.chat.followup` could resolve; read as a new search it had matched
papers that merely write "numbers" or "limit" (a phone-style break-it session). :func:`spelled_out`
writes it out as the full question with a reference ("What results does it report?"; "do they" after
an answer citing two papers), which the follow-up rules then resolve. Only a whole reply made of such
words is read so; anything else is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_LEAD = (
    r"(?:(?:and|so|ok|okay|hm+|hmm+|also|now|what\s+about|how\s+about|any|got|show(?:\s+me)?|give\s+me|"
    r"what(?:'s|s|\s+is|\s+are|\s+r|\s+were|\s+was)?|the|its|their|main|key|reported|"
    # "is there code?" (a practitioner's chat: a search for code-generation papers)
    r"(?:is|are)\s+there(?:\s+(?:any|some))?)\s+)*"
)
_TAIL = r"(?:\s+(?:used|pls|please|then|again|reported|here))*\s*[?.!]*\s*$"
#: (what a reply asks for, the question for one paper, the question for two)
_ASPECTS = (
    (
        r"tl;?\s*dr|eli5|summary|summari[sz]e|gist|overview|idea|short\s+version|in\s+short|"
        r"explain(?:\s+(?:it|that|this))?(?:\s+(?:simpler|simply|briefly|more\s+simply|like\s+i'?m\s+(?:5|five)))?",
        "Summarize it.",
        "Summarize both.",
    ),
    (
        r"numbers?|results?|performance|accuracy|gains?|improvements?|metrics?|scores?|how\s+(?:good|well)",
        "What results does it report?",
        "What results do they report?",
    ),
    (
        r"speed-?ups?|how\s+fast|latency",
        "What speedup does it report?",
        "What speedups do they report?",
    ),
    (
        r"limitations?|weakness(?:es)?|drawbacks?|downsides?|caveats?|cons",
        "What are its limitations?",
        "What are their limitations?",
    ),
    (r"datasets?|data", "What datasets does it use?", "What datasets do they use?"),
    # "how many benchmarks?" after an answer about DOLPHIN: its count (a notebook session: a new search)
    (
        r"how\s+many\s+benchmarks?",
        "How many benchmarks does it use?",
        "How many benchmarks do they use?",
    ),
    (r"how\s+many\s+datasets?", "How many datasets does it use?", "How many datasets do they use?"),
    (r"how\s+many\s+tasks?", "How many tasks does it use?", "How many tasks do they use?"),
    (
        r"how\s+many\s+(?:params|parameters)|(?:model\s+)?size",
        "How many parameters does it have?",
        "How many parameters do they have?",
    ),
    (
        r"benchmarks?|evaluation|experiments?",
        "What benchmarks does it use?",
        "What benchmarks do they use?",
    ),
    (
        r"baselines?",
        "What baselines does it compare against?",
        "What baselines do they compare against?",
    ),
    (r"code|github|repo|link", "Is its code available?", "Is their code available?"),
    # "where can I get the data?" after CASE-Bench (a verifier's chat: another paper's link)
    (
        r"where\s+(?:can|do|could)\s+i\s+(?:get|find|download)\s+(?:the\s+|its\s+|their\s+)?"
        r"(?:data|dataset|benchmark)|download(?:\s+link)?",
        "Where can I download its data?",
        "Where can I download their data?",
    ),
    (
        r"authors?|who\s+(?:wrote|made|authored|did)(?:\s+(?:that|this|these|those))?",
        "Who wrote it?",
        "Who wrote them?",
    ),
    (
        r"year|when|venue|published|when\s+(?:was|is)\s+(?:that|this)\s+(?:published|out)",
        "When was it published?",
        "When were they published?",
    ),
    (
        r"method|approach|how|how\s+does\s+(?:that|this)\s+work",
        "How does it work?",
        "How do they work?",
    ),
)
_READ = [
    (re.compile(rf"^{_LEAD}(?:{words}){_TAIL}", re.I), one, two) for words, one, two in _ASPECTS
]
_WHICH = re.compile(
    r"^(?:so\s+|ok\s+)?which\s+(?:is|was|'s)\s+(better|faster|best|fastest|cheaper|more\s+accurate|stronger|simpler)"
    r"\s*[?.!]*\s*$",
    re.I,
)


def spelled_out(reply: str, cited: int) -> str | None:
    """The full question a terse ``reply`` asks of the previous answer, which cited ``cited`` papers
    (``"it"`` for one or three and more, ``"they"`` for two), or ``None`` when it is no such reply or
    nothing was cited. "which is better" after two or more papers is "Which one is better?"."""
    text = " ".join((reply or "").split())
    if not cited or not text or len(text.split()) > 6:
        return None
    m = _WHICH.match(text)
    if m:
        return f"Which one is {m.group(1).lower()}?" if cited >= 2 else None
    for pattern, one, two in _READ:
        if pattern.match(text):
            return two if cited == 2 else one
    return None


#: A reply that carries on from the answer before: "and on which models?", "also the datasets?".
_CARRY_ON = re.compile(r"^(?:and|also|plus|so|ok(?:ay)?|then)\b[,\s]*", re.I)
#: A short question of its own: "whats the accuracy drop?", "how many task instances?".
_WH = re.compile(r"^(?:what(?:'s|s)?|which|how|where|on\s+which|in\s+which|for\s+which)\b", re.I)
#: Words that make a reply a new search, not a question about the papers just shown ("and any other
#: papers on it?", "how many papers on diffusion?").
_NEW_SEARCH = re.compile(
    r"\b(?:papers?|works|studies|articles|others?|any(?:one|body|thing)|else|another|more)\b", re.I
)
#: The longest reply read as carrying on (in words).
CARRY_ON_WORDS = 7


def carried_on(reply: str, names: list[str], texts: Callable[[], list[str]]) -> str | None:
    """The question a short ``reply`` asks of the one or two papers of the answer before (``names``: the names
    to ask them by; ``texts()``: their titles and abstracts, read only for a reply that may carry on), or
    ``None``.

    A reply of at most :data:`CARRY_ON_WORDS` words with no name, that opens with "and" / "also" / "so" or a
    question word, and whose every content word those papers write ("and on which models?", "whats the
    accuracy drop?" after FlatQuant, whose abstract gives "less than 1% accuracy drop"), is asked of them by
    name: ``"<reply>, in FlatQuant?"`` ("it" would not do: "which models" reads as a search for papers). A
    numbers hunter's chat had read each as a new search over all papers (a softmax-models paper for "and on
    which models?"). Not for a reply asking for papers ("and any others?", "how many papers on diffusion?":
    :mod:`paperchat.chat.more` and a new search) or naming a topic those papers do not write ("and what about
    graph transformers?").
    """
    from paperchat.core.terms import name_tokens, terms

    text = " ".join((reply or "").split())
    if not names or len(names) > 2 or not text or len(text.split()) > CARRY_ON_WORDS:
        return None
    if _NEW_SEARCH.search(text) or name_tokens(text):
        return None
    lead = _CARRY_ON.match(text)
    rest = text[lead.end() :] if lead else text
    if not terms(rest) or not (lead or _WH.match(rest)):
        return None
    # every content word written by those papers, after "and" too: "and what about graph transformers?"
    # after FlatQuant is a new search (the verifier's)
    held = {w for t in texts() for w in terms(t)}
    if (
        not set(terms(_WH.sub("", re.sub(r"^(?:what|how)\s+about\b", "", rest, flags=re.I))))
        <= held
    ):
        return None
    rest = rest.rstrip(" ?.!")
    return f"{rest[:1].upper()}{rest[1:]}, in {' and '.join(names)}?"
