"""Questions that ask which named thing a paper used (a dataset, a solver, a checkpoint), and whether its
abstract names any.

"Which conic solver do they call?" is answered by a name (MOSEK, SCS); "which datasets make up the
results?" by dataset names (Cora, CIFAR-10). An abstract that names nothing the question and the title do
not already name cannot answer it, however close its sentences come to the question, so the answerer
abstains, as :mod:`paperchat.answer.model_names` does for a model asked for by name. Set from general-x
(a reproducibility engineer's questions), whose undisclosed details mostly ask for such a name.
"""

from __future__ import annotations

import re

from paperchat.core.sentences import split_sentences

#: The kinds of thing a paper names rather than describes ("which dataset", "what solver").
_KINDS = (
    r"(datasets?|data sets?|benchmarks?|architectures?|checkpoints?|solvers?|simulators?|optimi[sz]ers?|"
    r"prior famil(?:y|ies)|prior distributions?|(?:noise )?distributions?|librar(?:y|ies)|toolkits?)"
)
_ASKED = re.compile(
    r"\b(?:which|what)\s+(?:(?:specific|exact|particular|kind of|type of)\s+)?"
    r"(?:(?!(?:over|of|for|in|on|to|with|from|by|than)\b)[\w-]+\s+){0,2}?" + _KINDS + r"\b",
    re.I,
)
#: A verb after the ask that makes the thing the paper's own ("which dataset do they introduce?"): its
#: name is the paper's, in the title.
_OWN = re.compile(
    r"\b(?:introduc|propos|releas|construct|build|built|creat|curat|present|develop|design|contribut)\w*",
    re.I,
)
#: A name: capitals or digits inside a word (CIFAR-10, ImageNet, QM9, GPT-4), or a capitalised word that
#: does not open a sentence (Cora, Gaussian, Atari).
_NAME = re.compile(r"\b[A-Z][\w-]*[A-Z0-9][\w-]*|(?<=[\w,;:)] )[A-Z][a-z]+(?:-[A-Za-z]+)?\b")


#: "Which benchmark measures over-refusal in LLMs?": the thing asked for is the subject of a verb, and no
#: paper is referred to: it asks for a benchmark paper by what it does, whose name its title holds (a
#: benchmark hunter's session had OR-Bench and NoLiMa declined, "the abstract names no benchmark").
_DESCRIBED = re.compile(
    r"^\s*(?:which|what)\s+(?:[\w-]+\s+){0,2}?" + _KINDS + r"\s+"
    # (not another kind's noun: "Which benchmark datasets were used ...?" asks for the datasets)
    r"(?!(?:does|is|was|has|and|or|paper|papers|work|study)\b)(?!"
    + _KINDS
    + r"\b)[a-z]+(?:es|s|ed)\b",
    re.I,
)
_REFERS = re.compile(
    r"\b(?:they|them|their|its?|this|these|the\s+(?:paper|authors|work|study))\b", re.I
)


def asked_entity(asking: str) -> str | None:
    """The kind of named thing the asking sentence ``asking`` asks for ("dataset", "solver"), else ``None``;
    not when it asks for the paper's own contribution ("which benchmark do they release?"), nor for a
    paper by what its benchmark or dataset does (:data:`_DESCRIBED`)."""
    match = _ASKED.search(asking)
    if not match or _OWN.search(asking, match.end()):
        return None
    if _DESCRIBED.match(asking) and not _REFERS.search(asking):
        return None
    return match.group(1).lower()


#: An abbreviation the abstract defines, with the capitalised words before it: "Inverse Flow Matching (IFM)".
_DEFINED = re.compile(r"((?:\b[A-Z][\w-]*\s+){0,6})\(([A-Za-z][\w-]*)s?\)")


def _own_terms(text: str) -> set[str]:
    """The abstract's own terms, in lower case: abbreviations it defines ("(IFM)", "(GNNs)") and the
    capitalised words of their expansions. These name its concepts, not the things it used."""
    out: set[str] = set()
    for lead, short in _DEFINED.findall(text):
        out |= {short.lower(), short.lower().rstrip("s")} | {w.lower() for w in lead.split()}
    return out


def new_names(text: str, known: str) -> set[str]:
    """The names (:data:`_NAME`) ``text`` (an abstract) holds that ``known`` (the question and the paper's
    title) does not, compared in lower case, word by word; the abstract's own defined terms
    (:func:`_own_terms`), words it also writes in lower case and abbreviations it puts in the plural
    ("SDEs": a class of things, not one) are no names."""
    seen = {w.lower() for w in re.findall(r"[\w-]+", known)} | _own_terms(text)
    # words the abstract also writes in lower case ("Score Matching" beside "score") are common words
    seen |= {w for w in re.findall(r"\b[a-z][\w-]*", text)}
    seen |= {part for w in seen for part in w.split("-")}
    seen |= {w.rstrip("s") for w in seen}
    plural = {
        n[:-1] for n in re.findall(r"\b[A-Z]{2,}s\b", text)
    }  # "SDEs": a class of things, so "SDE" too
    return {
        name
        for name in _NAME.findall(text)
        if name.lower().rstrip("s") not in seen and name.rstrip("s") not in plural
    }


def names_something_new(text: str, known: str, kind: str = "") -> bool:
    """Whether ``text`` (an abstract) holds a name that ``known`` does not (:func:`new_names`), or, given
    the asked ``kind`` ("benchmark"), a thing of that kind named by a capitalised word (:func:`names_kind`).
    Data (a dataset, a benchmark) is named where the paper is evaluated: a name counts for it only in a
    sentence of evaluation or results (:data:`_EVALUATED`, :data:`_RESULTS`), not the method's own parts
    ("we propose Pruned MP-GNNs, K-Path GNNs" names no benchmark; a grounding audit, thirty-third round)."""
    names = asked_names(text, known, kind)
    return bool(names) or bool(kind and names_kind(text, kind, known))


def asked_names(text: str, known: str, kind: str = "") -> set[str]:
    """The :func:`new_names` of ``text`` (an abstract) that can be a thing of ``kind``: for data (a dataset,
    a benchmark) those written in a sentence of evaluation or results (:data:`_EVALUATED`, :data:`_RESULTS`)."""
    names = new_names(text, known)
    if names and re.match(_DATA_KINDS, kind):
        sentences = [s for s in split_sentences(text) if _EVALUATED.search(s) or _RESULTS.search(s)]
        names = {n for n in names if any(n in s for s in sentences)}
    return names


#: The asked kinds that are data, and the words of a result sentence ("achieves 91% on Cora").
_DATA_KINDS = r"(?:datasets?|data sets?|benchmarks?)$"
_RESULTS = re.compile(
    r"\b(?:achiev|outperform|surpass|accura|state-of-the-art|sota\b|test(?:s|ed|ing)?\b|trained on)",
    re.I,
)


def names_kind(text: str, kind: str, known: str) -> bool:
    """Whether ``text`` names a thing of ``kind`` (an :func:`asked_entity`: "benchmark", "libraries") with a
    capitalised word up to two words before the kind's noun, inside a sentence ("on the MD ensemble
    benchmark"), that ``known`` (the question and the title) does not hold. An abbreviation the abstract
    defines is its own concept for :func:`new_names`; written before the noun, it names the benchmark.
    From a grounding audit's "What benchmark does EBA use?" (thirty-third round), which had been declined."""
    stem = re.sub(r"(?:ies|y|s)$", "", kind)
    seen = {w.lower() for w in re.findall(r"[\w-]+", known)}
    named = re.finditer(
        r"(?<=[a-z,;:] )([A-Z][\w-]*)(?:\s+[a-z][\w-]*){0,2}?\s+" + re.escape(stem) + r"\w*\b", text
    )
    return any(m.group(1).lower() not in seen for m in named)


#: Words that place a name among a paper's data or evaluation ("on OGBench and D4RL tasks").
_EVALUATED = re.compile(
    r"\b(?:datasets?|data|benchmarks?|tasks?|corpus|corpora|suites?|evaluat\w*|experiments?)\b",
    re.I,
)


def named_first(
    picked: list, own: list, abstract: str, known: str, limit: int, kind: str = ""
) -> list:
    """``picked`` (candidate sentences with ``text`` and ``score``) led by the best sentence of ``own`` (the
    paper's) that holds a :func:`new_names` name, one that also says it is data or evaluation
    (:data:`_EVALUATED`) first, when none of ``picked`` holds one; at most ``limit`` sentences. "Which
    benchmarks does Flow Q-Learning evaluate on?" had quoted the opening sentence, not "... on 73 OGBench
    and D4RL tasks". For data, names of the asked ``kind`` only (:func:`asked_names`: "Jensen–Shannon" in
    the method sentence is no dataset)."""
    names = asked_names(abstract, known, kind)
    if not names or any(any(n in c.text for n in names) for c in picked):
        return picked
    holding = [c for c in own if any(n in c.text for n in names)]
    holding.sort(key=lambda c: (_EVALUATED.search(c.text) is None, -c.score))
    return (
        holding[:1] + [c for c in picked if c is not holding[0]][: limit - 1] if holding else picked
    )
