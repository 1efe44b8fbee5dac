"""What the offline question templates of ``paperchat eval draft`` read and return: the :class:`Corpus`, its
papers' words, and :func:`cand`, the candidate question.

The templates ask from what abstracts state explicitly.

Each generator reads a :class:`Corpus` (the papers, their sentences, word document frequencies, an exhaustive
phrase search) and returns unchecked candidates (:mod:`paperchat.evaluation.authoring.draft` checks and balances them):
dicts in the eval-set format whose ``gold`` is a list of paper ids, plus ``template``, ``source``
(``{paper_id, sentence}``, 0-based) and ``note``; a near-miss also carries ``absent``, its made-up name.

* ``introduces-description`` (kind ``paraphrase``) / ``introduces-direct`` (``lookup``): the method an abstract
  names ("we propose X", "X, a ...", "a ... called X"), asked by its description (head noun phrase plus the
  rarest noun phrases of its sentence, never the name) or by its name ("What does X do?");
* ``reports-number`` (``lookup``): a figure a named method reports; the fact is the number as written;
* ``shared-term`` (``multi-paper``): a coined name, an acronym's expansion or a technical word pair held by
  2 to 5 papers, every one of them gold (every title and abstract is searched);
The unanswerable templates (``near-miss``, ``false-premise``) are in
:mod:`paperchat.evaluation.authoring.unanswerable`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from paperchat.core.sentences import split_sentences
from paperchat.core.terms import looks_like_name

_MARKUP = re.compile(r"\\(?:text(?:bf|it|sc|tt|rm)|emph|mathrm|mathbf|mathcal|texttt)\{([^{}]*)\}")


WORD = re.compile(r"[^\W\d_]\w*(?:-\w+)*")


TOKEN = re.compile(r"[^\W_]+")


#: Head nouns of a method's description ("a lightweight ... forecasting *model*").
HEADS = frozenset(
    """method framework model approach algorithm technique architecture benchmark dataset defense
    defence attack tool system pipeline network estimator optimizer loss objective strategy scheme metric library
    suite agent policy paradigm module mechanism procedure protocol regularizer regularization transformer prior
    sampler solver planner representation family recipe formulation modeling test criterion kernel encoder decoder
    tokenizer simulator environment platform toolkit measure bound game variant extension generalization""".split()
)


#: Words too generic to describe a paper or to name a shared topic.
FILLER = frozenset(
    """experiment experiments experimental result results extensive significant significantly existing
    various novel wide range real-world state-of-the-art key challenge challenges performance effective effectively
    efficient efficiently recent recently prior previous comprehensive demonstrate demonstrates outperform outperforms
    superior achieve achieves achieved improve improves improved improvement better strong first large-scale empirical
    empirically framework approach method methods problem problems issue issues limitation limitations insight
    insights code available github https findings benchmark benchmarks dataset datasets task tasks model models often
    however remain remains furthermore moreover thus while well also specifically respectively including several
    number different further important crucial substantial lead leads leading help helps able allow allows enable
    enables provide provides given make makes made take takes need needs additional notable broad class case studies
    success understanding theoretical computational efficiency training data popular simple lightweight general
    typically commonly widely highly particular particularly specific generally overall effectiveness robust designed
    leverage leverages leveraging propose proposes introduce introduces present presents develop develops paper work
    study analysis setting settings way ways level levels type types part parts form forms terms large small
    fewer""".split()
)


STOP_DESC = frozenset(
    """that which who whose where to by with based using via through while and or but designed
    built leveraging capable able when whereas such than as from across""".split()
)


VERBS = frozenset(
    """address overcome align represent evaluate manage equip observe enable tackle mitigate capture
    yield integrate maintain require learn compute derive identify exploit motivate inspire explore focus apply obtain
    rely combine reduce increase improve ensure guide assess study show reveal exhibit treat model generate built made
    given known shown taken""".split()
)


VERB_CUE = frozenset("to we can may will must should that which who it they also thereby".split())


INTRO = re.compile(
    r"\b(?:we|this (?:paper|work|study)|our|here)\b[^.]{0,80}?\b(?:introduc|propos|present|develop|"
    r"design|call|nam|dub|term|build|offer|releas|establish|construct|devis|formulat)",
    re.I,
)


def coined(name: str) -> bool:
    """Whether ``name`` is a coined name (``ConfPO``, ``GNN+``, ``LLaMA-2``), not Title-Case words (``Feynman-Kac``)
    or a short acronym (``OS``, ``RMs``)."""
    core = name[:-1] if name.endswith("s") and name[:-1].isupper() else name
    if len(re.sub(r"[^\w]", "", core)) < 3 or not looks_like_name(name):
        return False
    return any(
        re.search(r"\d|.[A-Z]", part) or (part.isupper() and len(part) >= 2)
        for part in re.split(r"[-+.]", name)
    ) or name.endswith("+")


def plain(text: str) -> str:
    """``text`` without markup or links (``\\textbf{X}`` -> X, ``\\%`` -> %, ``$\\times$`` -> ×, no ``$*{}^``)."""
    text = (
        re.sub(r"https?://\S+", "", _MARKUP.sub(r"\1", text))
        .replace("\\%", "%")
        .replace("\\times", "×")
    )
    return " ".join(re.sub(r"[$*{}^]|\\", "", text).split())


def tokens(text: str) -> list[str]:
    """Lower-cased letter/digit runs of ``text``: what the verbatim checks compare."""
    return TOKEN.findall(plain(text).lower())


class DraftPaper(NamedTuple):
    """A stored paper as the templates read it: its sentences as stored and without markup."""

    paper_id: str
    title: str
    label: str
    abstract: str
    sentences: list[str]
    plain: list[str]


class Corpus:
    """Every paper, with word document frequencies and an exhaustive phrase search.

    ``records`` yields ``(paper id, title, label, abstract)``; papers are kept in paper-id order.
    """

    def __init__(self, records: Iterable[tuple[str, str, str, str]]):
        self.papers = [
            DraftPaper(pid, title or "", label or "", text or "", sents, [plain(s) for s in sents])
            for pid, title, label, text in sorted(records)
            for sents in [split_sentences(text or "")]
        ]
        self.by_id = {p.paper_id: p for p in self.papers}
        self.text = {p.paper_id: plain(p.title + "\n" + p.abstract).lower() for p in self.papers}
        self.abstract_lower = {p.paper_id: p.abstract.lower() for p in self.papers}
        self.blob = "\n".join(self.text.values())
        self.df: Counter[str] = Counter()
        self.postings: dict[str, set[str]] = {}
        for pid, text in self.text.items():
            self.df.update(set(WORD.findall(text)))
            for tok in set(TOKEN.findall(text)):
                self.postings.setdefault(tok, set()).add(pid)

    def anywhere(self, text: str) -> bool:
        """Whether ``text`` occurs (case-insensitive substring) in any stored title or abstract."""
        return text.lower() in self.blob

    def papers_with(self, phrase: str, plural: bool = True) -> set[str]:
        """Ids of every paper whose title or abstract holds ``phrase`` as whole words (any case; ``plural``: +s/es)."""
        toks = TOKEN.findall(phrase.lower())
        if not toks:
            return set()
        ends = ("", "s", "es") if plural else ("",)
        pools = [self.postings.get(t, set()) for t in toks[:-1]] + [
            set().union(*(self.postings.get(toks[-1] + e, set()) for e in ends))
        ]
        parts = [re.escape(p) for p in re.split(r"[\s-]+", phrase.lower()) if p]
        pattern = re.compile(
            r"(?<![^\W_])"
            + r"[\s-]+".join(parts)
            + ("(?:s|es)?" if plural else "")
            + r"(?![^\W_]|-\w)"
        )
        return {pid for pid in set.intersection(*pools) if pattern.search(self.text[pid])}


def cand(
    kind: str,
    template: str,
    question: str,
    gold: list[str],
    facts: list[list[str]],
    pid: str,
    sent: int | None,
    note: str,
    **extra,
) -> dict:
    """A candidate question (see the module docstring)."""
    return {
        "question": question,
        "kind": kind,
        "answerable": kind != "unanswerable",
        "gold": gold,
        "facts": facts,
        "template": template,
        "source": {"paper_id": pid, "sentence": sent},
        "note": note,
        **extra,
    }
