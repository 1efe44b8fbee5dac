"""What an abstract sentence does and holds: its role, a number, names.

:func:`sentence_role` labels an abstract sentence ``definition``, ``result``, ``background``,
``resource`` (code links) or ``other``, by the cue phrases scientific abstracts use for each move
(Teufel & Moens 2002, "argumentative zoning"); :func:`holds_number` and :func:`names_count` tell a
sentence that can answer "how many" or "which datasets".
"""

from __future__ import annotations

import re

from paperchat.answer import intent as it

#: Score changes by a sentence's role, per question kind (:func:`role_shift`; set on the tuning sets,
#: eval/generalization/TUNING.md): a result for "How does A compare with B?", the defining sentence for
#: "What is X?", neither background nor results for "How does X work?".
ROLE_SHIFT = {
    it.FINDING: {"result": 0.2, "background": -0.2, "definition": -0.05},
    it.DEFINE: {"definition": 0.12, "background": -0.05},
    it.QUANTITY: {"background": -0.05},
    it.ENTITY: {"background": -0.05},
    it.FIND: {"definition": 0.04, "background": -0.06},
    it.GENERAL: {"result": 0.02, "background": -0.05},
    it.MECHANISM: {"result": -0.1, "background": -0.1},
}

_RESOURCE = re.compile(
    r"https?://|\bgithub\.(?:com|io)\b|\b(?:on|at|via|from) github\b|\bcode (?:is|and (?:data|models?) (?:are|is)|will be) (?:publicly |openly )?"
    r"(?:available|released)|\bproject page\b|\bour code\b|\bavailable at\b",
    re.I,
)
_DEFINITION = re.compile(
    r"\b(?:we (?:introduce|propose|present|develop|design)|in this (?:study|work|paper), we (?:explore|study|"
    r"investigate)|this (?:paper|work) (?:introduces|proposes|presents)|"
    r"(?:called|named|dubbed|termed)\b|our (?:method|approach|framework|model|algorithm|benchmark),|"
    r"by (?:proposing|introducing|presenting|developing))",
    re.I,
)
_FINDING_CUE = re.compile(
    r"\b(?:we (?:find|found|show|showed|demonstrate|observe|prove|establish|confirm|reveal|discover)|"
    r"(?:results?|experiments?|evaluations?|analys[ie]s|findings?) (?:show|demonstrate|indicate|reveal|"
    r"confirm|suggest|highlight)|this (?:highlights|suggests|shows|demonstrates|reveals|indicates))\b",
    re.I,
)
_RESULT = re.compile(
    r"\b(?:outperform\w*|surpass\w*|achiev\w*|improv(?:es|ed|ing|ement)|match(?:es|ing)?|beat\w*|reduc(?:es|ed|ing)|"
    r"speed-?ups?|faster|state-of-the-art|consistently|significantly|competitive|remain(?:s)? (?:strong|competitive))\b"
    r"|\d+(?:\.\d+)?\s*(?:%|×|x\b)",
    re.I,
)
_BACKGROUND = re.compile(
    r"\b(?:literature|(?:prior|previous) (?:work|works|studies|methods|approaches)|existing (?:methods|approaches|work|"
    r"works|techniques|benchmarks)|it is (?:widely|commonly|generally) (?:believed|assumed|accepted)|"
    r"(?:are|is) (?:often |widely |commonly |generally )?(?:regarded|believed|assumed|considered|thought) "
    r"(?:as|to)|frequently suggests|conventional wisdom|recent (?:work|works|studies|advances|years|approaches|methods)|"
    r"has (?:long )?been|have (?:long )?been|despite|remains? (?:an open|challenging|unclear))\b"
    # a gap statement ("Nevertheless, it remains underexplored how ...")
    r"|\bremains? (?:largely |relatively )?(?:under-?explored|unexplored|understudied|poorly understood)\b"
    r"|\b(?:has|have) received (?:little|limited|less) attention\b"
    r"|^(?:however|while|although|nevertheless|nonetheless)\b"
    # the belief a paper tests ("Intuitively, higher image quality should increase detection difficulty": a
    # skeptic's answer had quoted it as the finding the paper refutes)
    r"|^(?:intuitively|naively)\b|\bone (?:might|would|may) (?:expect|think|assume)\b"
    # others' methods as the subject, after at most two opening clauses ("In order to attain optimal rates,
    # state-of-the-art algorithms ... require ...": a meta-reviewer's claim about AKORN read it as AKORN's)
    r"|^(?:[^,]{0,100},\s*){0,2}(?:the\s+)?(?:state-of-the-art|classical|conventional|traditional|standard|popular|"
    r"mainstream|most|many|current|existing|prior|previous|typical)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:methods|algorithms|approaches|solvers|models|techniques|works|frameworks|systems|baselines|pipelines)\b",
    re.I,
)


_BEATS_PRIOR = re.compile(
    r"\b(?:outperform\w*|surpass\w*|beat(?:s|ing)?|exceed\w*|better than)\s+(?:\w+\s+){0,2}?"
    r"(?:prior|existing|previous)\b",
    re.I,
)


#: Cue phrases and the role they give, first match wins ("..., outperforming prior methods": the prior
#: work is what it beats, so a result before background).
_CUES = (
    (_RESOURCE, "resource"),
    (_FINDING_CUE, "result"),
    (_DEFINITION, "definition"),
    (_BEATS_PRIOR, "result"),
    (_BACKGROUND, "background"),
    (_RESULT, "result"),
)


def background_cue(sentence: str) -> bool:
    """Whether ``sentence`` holds a background cue ("prior work", "existing methods", "However, ..."): a
    sentence :func:`sentence_role` calls background with one is about others' work, not only first."""
    return _BACKGROUND.search(sentence) is not None


def sentence_role(sentence: str, position: int) -> str:
    """The role of an abstract sentence: ``resource``, ``definition``, ``result``, ``background`` or ``other``.

    ``position`` is its 0-based place in the abstract (an opening sentence
    without a result cue is background).
    """
    for cue, role in _CUES:
        if cue.search(sentence):
            # "We release all code at [github...], and demonstrate ... latency reductions of up to 22%": a
            # result beside the link (a grounding audit: the figure asked for was never quoted)
            if role == "resource" and _RESULT.search(_LINK.sub(" ", sentence)):
                return "result"
            return role
    return "background" if position == 0 else "other"


#: A link, as a Markdown link or a bare URL.
_LINK = re.compile(r"\[[^\]]*\]\([^)]*\)|https?://\S+|\S+\.(?:com|org|io)/\S*")


_NUMBER = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozens?|hundreds?|thousands?|"
    r"millions?|billions?|half|twice|double|triple|fold)\b",
    re.I,
)
_LIST = re.compile(
    r"(?:\b[A-Z][\w+.\-]*\d[\w+.\-]*|\b[A-Z][a-z]*[A-Z][\w+\-]*|\b[A-Z]{2,}[\w+\-]*)"
)


def own_sentences(text: str) -> list[str]:
    """The sentences of ``text`` (an abstract) that are not background (:func:`sentence_role`): what the paper
    says of itself, not what earlier work does."""
    from paperchat.core.sentences import split_sentences

    return [
        s
        for i, s in enumerate(split_sentences(text) or [text])
        if sentence_role(s, i) != "background"
    ]


def holds_number(sentence: str) -> bool:
    """Whether ``sentence`` states a number (digits or a number word)."""
    return _NUMBER.search(sentence) is not None


def names_count(sentence: str) -> int:
    """How many name-like tokens (``ImageNet``, ``GPT-4o``, ``CIFAR-10``, ``MMLU``) ``sentence`` holds."""
    return len(_LIST.findall(sentence.replace("$", "").replace("*", "")))


def role_shift(role: str, text: str, kind: str) -> float:
    """How much a sentence of ``role`` and ``text`` moves in the ranking for a question of ``kind`` (an
    :class:`paperchat.answer.intent.Intent` kind): :data:`ROLE_SHIFT`, a code link sinks (-0.3), a number
    rises for "how many" (+0.12, else -0.04) and names for "which datasets" (+0.04 each, at most +0.12)."""
    shift = ROLE_SHIFT.get(kind, {}).get(role, 0.0)
    if role == "resource":
        shift -= 0.3
    # a question the abstract asks ("(2) What is the optimal policy ...?") restates the ask, answers nothing
    if text.rstrip(" *_").endswith("?"):
        shift -= 0.15
    if kind == it.QUANTITY:
        shift += 0.12 if holds_number(text) else -0.04
    elif kind == it.ENTITY:
        shift += min(0.12, 0.04 * names_count(text))
    return shift
