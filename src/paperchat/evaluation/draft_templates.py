"""Offline question templates for ``paperchat eval draft``: questions from what abstracts state explicitly.

Each generator reads a :class:`Corpus` (the papers, their sentences, word document frequencies, an exhaustive
phrase search) and returns unchecked candidates (:mod:`paperchat.evaluation.draft` checks and balances them):
dicts in the eval-set format whose ``gold`` is a list of paper ids, plus ``template``, ``source``
(``{paper_id, sentence}``, 0-based) and ``note``; a near-miss also carries ``absent``, its made-up name.

* ``introduces-description`` (kind ``paraphrase``) / ``introduces-direct`` (``lookup``): the method an abstract
  names ("we propose X", "X, a ...", "a ... called X"), asked by its description (head noun phrase plus the
  rarest noun phrases of its sentence, never the name) or by its name ("What does X do?");
* ``reports-number`` (``lookup``): a figure a named method reports; the fact is the number as written;
* ``shared-term`` (``multi-paper``): a coined name, an acronym's expansion or a technical word pair held by
  2 to 5 papers, every one of them gold (every title and abstract is searched);
The unanswerable templates (``near-miss``, ``false-premise``) are in :mod:`paperchat.evaluation.draft`, beside
the check that a made-up name occurs nowhere.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from paperchat.core.sentences import split_sentences
from paperchat.core.terms import STOPWORDS, looks_like_name, name_tokens

_MARKUP = re.compile(r"\\(?:text(?:bf|it|sc|tt|rm)|emph|mathrm|mathbf|mathcal|texttt)\{([^{}]*)\}")
_WORD = re.compile(r"[^\W\d_]\w*(?:-\w+)*")
_TOKEN = re.compile(r"[^\W_]+")
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
_STOP_DESC = frozenset(
    """that which who whose where to by with based using via through while and or but designed
    built leveraging capable able when whereas such than as from across""".split()
)
_VERBS = frozenset(
    """address overcome align represent evaluate manage equip observe enable tackle mitigate capture
    yield integrate maintain require learn compute derive identify exploit motivate inspire explore focus apply obtain
    rely combine reduce increase improve ensure guide assess study show reveal exhibit treat model generate built made
    given known shown taken""".split()
)
_VERB_CUE = frozenset("to we can may will must should that which who it they also thereby".split())
_INTRO = re.compile(
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
    return _TOKEN.findall(plain(text).lower())


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
            self.df.update(set(_WORD.findall(text)))
            for tok in set(_TOKEN.findall(text)):
                self.postings.setdefault(tok, set()).add(pid)

    def anywhere(self, text: str) -> bool:
        """Whether ``text`` occurs (case-insensitive substring) in any stored title or abstract."""
        return text.lower() in self.blob

    def papers_with(self, phrase: str, plural: bool = True) -> set[str]:
        """Ids of every paper whose title or abstract holds ``phrase`` as whole words (any case; ``plural``: +s/es)."""
        toks = _TOKEN.findall(phrase.lower())
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


# -- what a paper introduces ------------------------------------------------------------------------------------
class Intro(NamedTuple):
    """A method a paper introduces: ``name`` as written, ``head`` (its description's head noun phrase, or ``""``),
    ``keys`` (the rarest noun phrases of its sentence) and ``sentence`` (index)."""

    name: str
    head: str
    keys: list[str]
    sentence: int


def _phrase_words(words: list[str], limit: int, stop: frozenset[str]) -> list[str]:
    """The leading words of ``words`` up to a stop word, a non-word or a comma (which ends after its word)."""
    out: list[str] = []
    for raw in words[:limit]:
        w = raw.rstrip(",;:.")
        if w.lower() in stop or not re.fullmatch(r"[A-Za-z][\w-]*", w):
            break
        out.append(w)
        if w != raw:
            break
    return out


def _head(after: list[str]) -> str:
    """The head noun phrase (at most 6 words) of the words after "a/an", or ``""`` when it has no head noun."""
    kept = _phrase_words(after, 9, _STOP_DESC)
    heads = [i for i, w in enumerate(kept[:7]) if w.lower() in HEADS]
    if not heads:
        return ""
    out, rest = kept[: heads[-1] + 1], after[heads[-1] + 1 :]
    if rest and rest[0] in ("for", "of") and len(out) < 5 and out[-1] == after[heads[-1]]:
        pp = _phrase_words(rest[1:], 5 - len(out), STOPWORDS | _STOP_DESC)
        out += [rest[0]] + pp if pp else []
    return " ".join(w for w in out if w.lower() not in ("novel", "new"))


def _keys(corpus: Corpus, sentence: str, avoid: set[str], n: int = 2) -> list[str]:
    """The ``n`` rarest noun phrases of ``sentence`` (2-3 words first, then rare long words), none holding ``avoid``."""
    ws: list[str] = []
    for piece in re.split(r"[,;:()\[\]\u2014\u2013\"']|\s-\s", sentence.lower()):
        ws += _WORD.findall(piece) + ["|"]
    skip = {t.lower() for t in name_tokens(sentence)} | avoid | STOPWORDS | FILLER | HEADS | _VERBS

    def ok(i: int) -> bool:
        w = ws[i] if i < len(ws) else "|"
        return (
            len(w) > 3
            and w not in skip
            and w.rstrip("s") not in _VERBS
            and not re.search(r"\d|ly$|i[sz]es$", w)
            and not (i and ws[i - 1] in _VERB_CUE)
        )

    def size(
        i: int,
    ) -> int:  # a third word when it ends a noun phrase ("implicit neural representations")
        third = ws[i + 2] if i + 2 < len(ws) else "|"
        noun = third in HEADS or third.endswith(
            ("s", "ion", "ing", "ity", "ure", "ment", "ness", "data")
        )
        return (
            3
            if noun
            and (ok(i + 2) or third in HEADS or third in FILLER)
            and not third.endswith("ed")
            else 2
        )

    rare = max(2, len(corpus.papers) // 200)
    pairs = [
        (max(corpus.df[ws[i]], 1) * max(corpus.df[ws[i + 1]], 1) ** 0.5, i, size(i))
        for i in range(len(ws) - 1)
        if ok(i)
        and ok(i + 1)
        and not ws[i].endswith(("ed", "ing"))
        and not ws[i + 1].endswith("ed")
    ]
    singles = [
        (corpus.df[w], i, 1)
        for i, w in enumerate(ws)
        if ok(i)
        and len(w) >= 7
        and corpus.df[w] <= rare
        and not w.endswith(("ed", "ing", "ize", "ise"))
    ]
    out: list[str] = []
    used: set[int] = set()
    for _df, i, span in sorted(pairs) + sorted(singles):
        phrase = " ".join(ws[i : i + span])
        if not used & set(range(i, i + span)) and phrase not in out and len(out) < n:
            used.update(range(i, i + span))
            out.append(phrase)
    return out


def find_intro(corpus: Corpus, paper: DraftPaper) -> Intro | None:
    """The method ``paper`` introduces (see :class:`Intro`), or ``None`` when its abstract names none.

    The paper's coined label is looked for first (the first sentence holding it), then a coined name that
    an introducing sentence defines ("we propose X, a ...", "a ... called X", "Expanded Name (X)") and
    that at most two papers use.
    """
    label_first = [(i, s, True) for i, s in enumerate(paper.plain)] if coined(paper.label) else []
    for idx, sent, label_pass in label_first + [(i, s, False) for i, s in enumerate(paper.plain)]:
        intro_sentence = bool(_INTRO.search(sent))
        for name in (
            [paper.label]
            if label_pass
            else [n for n in name_tokens(sent) if intro_sentence and coined(n)]
        ):
            q = re.escape(name)
            if (
                name not in paper.abstract
                or not re.search(r"(?<![\w-])" + q + r"(?![\w+-])", sent)
                or len(corpus.papers_with(name, plural=False)) > 2
            ):
                continue  # not written so in the abstract, or a name many papers use (SGLD, MDPs)
            avoid = {name.lower(), *_WORD.findall(name.lower())}
            expansions = re.findall(
                r"((?:[\"'`]*[A-Za-z][\w-]*[\"'`]*\s+){1,6})\(\s*"
                + q
                + r"\s*\)|"
                + q
                + r"\s*\(([^)]{3,80})\)",
                sent,
            )
            for (
                m
            ) in expansions:  # "Keeping Exploration Alive": the name spelled out is the name too
                avoid |= set(_WORD.findall(" ".join(m).lower()))
            after = re.search(
                q + r"\)?\s*(?:\([^)]*\))?\s*[,:]\s*(?:which is\s+)?(?:a|an)\s+(.*)", sent
            )
            before = re.search(
                r"\b(?:a|an)\s+((?:[\w-]+\s+){0,7}?[\w-]+),?\s+(?:called|named|dubbed|termed|coined|"
                r"namely)?\s*" + q + r"\b",
                sent,
            )
            head = _head(after.group(1).split()) if after else ""
            if (
                not head and before
            ):  # "an efficient ... algorithm called X": back from the head noun to a stop word
                ws = before.group(1).split()
                while ws and ws[-1].lower() not in HEADS:
                    ws.pop()
                head = " ".join(
                    _phrase_words(ws[::-1], 5, (STOPWORDS - HEADS) | _STOP_DESC | {"novel", "new"})[
                        ::-1
                    ]
                )
            if label_pass or head or after or before or expansions:
                return Intro(
                    name, head, _keys(corpus, sent, avoid | set(_WORD.findall(head.lower()))), idx
                )
    return None


def subject(paper: DraftPaper, intro: Intro | None) -> str | None:
    """How a question names ``paper``: the method it introduces, its coined label, else its (short) title."""
    if intro:
        return intro.name
    if coined(paper.label) and paper.label in paper.abstract:
        return paper.label
    title = paper.title.split(":")[0] if len(paper.title.split()) > 14 else paper.title
    return f'the paper "{title.strip()}"' if 3 <= len(title.split()) <= 14 else None


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


def article(phrase: str) -> str:
    """ "a" or "an" for ``phrase``."""
    first = (phrase.split() or ["x"])[0]
    if (
        first.split("-")[0].isupper() and len(first.split("-")[0]) > 1
    ):  # an acronym: "an LDP-based ...", "a GNN ..."
        return "an" if first[0] in "AEFHILMNORSX" else "a"
    return (
        "an"
        if first[0].lower() in "aeiou" and not first.lower().startswith(("one", "uni", "use", "eu"))
        else "a"
    )


def introduces(corpus: Corpus, paper: DraftPaper, intro: Intro, rng: random.Random) -> list[dict]:
    """The ``introduces-description`` and ``introduces-direct`` questions of a paper that introduces ``intro``."""
    out = []
    head, keys, pid = intro.head or "method", intro.keys, paper.paper_id
    if len(keys) + len(intro.head.split()) >= 2 and (keys or len(head.split()) >= 4):
        lead = rng.choice(
            [
                "Which paper introduces",
                "Which paper proposes",
                "Which work presents",
                "Is there a paper that proposes",
            ]
        )
        tail = rng.choice(
            [" built around ", " that relies on ", ", centred on ", " that uses "]
        ) + " and ".join(keys)
        out.append(
            cand(
                "paraphrase",
                "introduces-description",
                f"{lead} {article(head)} {head}{tail if keys else ''}?",
                [pid],
                [[intro.name]],
                pid,
                intro.sentence,
                f"{intro.name}, described without its name",
            )
        )
    if keys:
        form = rng.choice(
            [
                "What does {n} do?",
                "What is {n}?",
                "How does {n} work?",
                "What problem does {n} address?",
            ]
        )
        out.append(
            cand(
                "lookup",
                "introduces-direct",
                form.format(n=intro.name),
                [pid],
                [[keys[0]]],
                pid,
                intro.sentence,
                f"what {intro.name} is",
            )
        )
    return out


# -- figures a paper reports ------------------------------------------------------------------------------------
_NUMBER = re.compile(
    r"(?<![\w.,\-^{}/\\])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
    r"(\s?(?:\\%|%|\$\\times\$|\\times|×|x(?![A-Za-z])|-fold|[KM](?![A-Za-z])|\+))?"
)
_METRIC = re.compile(
    r"\b(accuracy|f1(?:-score)?|success rate|auc|auroc|precision|recall|win rate|pass@1|bleu|"
    r"perplexity|fid|psnr|ssim|error|throughput|latency|reward)\b[^.]{0,25}$"
)
_COUNT_NOUNS = frozenset(
    """datasets benchmarks tasks environments languages domains games problems samples examples
    instances images videos hours models categories classes participants users questions prompts pairs trajectories
    molecules proteins graphs agents robots scenes documents tokens""".split()
)
_EVAL_NOUNS = frozenset(
    "datasets benchmarks tasks environments languages domains games problems".split()
)


def _number_question(number: str, unit: str, before: str, after: str, s: str) -> str | None:
    """The question a number asks, by what surrounds it (``{d}`` is left for the dataset), or ``None``."""
    around = before[-70:] + " " + after[:40]
    if "%" in unit and re.search(r"reduc|lower|decreas|\bcut|fewer|less|sav|drop", around):
        return f"How large a reduction does {s} report{{d}}?"
    if "%" in unit and re.search(
        r"improv|gain|boost|higher|increas|outperform|better|surpass|up to", around
    ):
        return f"How large an improvement does {s} report{{d}}?"
    if any(u in unit for u in ("×", "times", "x", "fold")) or re.match(
        r"\s*(?:times|×)\s*(?:faster|speed)", after
    ):
        return f"What speed-up does {s} report{{d}}?"
    metric = _METRIC.search(before[-70:])
    if metric and ("%" in unit or "." in number):
        return f"What {metric.group(1)} does {s} reach{{d}}?"
    noun = next(
        (w.strip(",.;:)") for w in after.split()[:4] if w.strip(",.;:)") in _COUNT_NOUNS), None
    )
    if noun and not unit.strip("+ ") and "." not in number:
        return (
            f"On how many {noun} is {s} evaluated{{d}}?"
            if noun in _EVAL_NOUNS
            else f"How many {noun} does {s} involve{{d}}?"
        )
    return None


def reports(corpus: Corpus, paper: DraftPaper, subj: str) -> list[dict]:
    """``reports-number`` questions: figures the abstract states, asked of ``subj`` (one a sentence, two a paper)."""
    out: list[dict] = []
    for idx, raw in enumerate(paper.sentences):
        for m in _NUMBER.finditer(raw):
            number, unit = m.group(1), (m.group(2) or "")
            if not unit.strip() and (
                raw[m.end() : m.end() + 1].isalnum()
                or re.fullmatch(r"(19|20)\d\d", number)
                or ("." not in number and int(number.replace(",", "")) < 2)
            ):
                continue  # part of a name ("2D"), a year, or a 0/1
            form = _number_question(
                number, unit, raw[: m.start()].lower(), raw[m.end() :].lower(), subj
            )
            if not form:
                continue
            dataset = ""
            for name in name_tokens(paper.plain[idx]):
                prep = re.search(
                    r"\b(on|over|in|across|against|than)\s+(?:the\s+)?" + re.escape(name) + r"\b",
                    raw,
                )
                if prep and name not in subj:
                    dataset = f" {'over' if prep.group(1) == 'than' else prep.group(1)} {name}"
                    break
            written = m.group(0).strip()
            spellings = [written] + (
                [number, number.replace(",", "")] if len(number) >= 2 or not unit.strip() else []
            )
            facts = [
                v
                for v in dict.fromkeys(spellings)
                if v.lower() in corpus.abstract_lower[paper.paper_id]
            ]
            out.append(
                cand(
                    "lookup",
                    "reports-number",
                    form.format(d=dataset),
                    [paper.paper_id],
                    [facts],
                    paper.paper_id,
                    idx,
                    f"the figure {written} in sentence {idx}",
                )
            )
            break
        if len(out) == 2:
            break
    return out


# -- topics several papers share --------------------------------------------------------------------------------
def _phrases(paper: DraftPaper) -> Iterable[tuple[int, str, int]]:
    """``(priority, phrase, sentence)``: acronym expansions (0), coined names (1), technical word pairs (2)."""
    for idx, sent in enumerate(paper.plain):
        for m in re.finditer(r"((?:[A-Za-z][\w-]*\s+){1,5}?)\(([A-Z][A-Za-z0-9]*?)s?\)", sent):
            letters = [c for c in m.group(2) if c.isupper()]
            ws = m.group(1).split()[-len(letters) :] if letters else []
            if len(ws) == len(letters) >= 2 and all(w[0].upper() == c for w, c in zip(ws, letters)):
                yield 0, " ".join(ws).lower(), idx
        yield from ((1, name, idx) for name in name_tokens(sent) if coined(name))
        for piece in re.split(r"[.,;:()\[\]\u2014\u2013]", sent.lower()):
            ws = ["we"] + _WORD.findall(piece)
            for before, a, b in zip(ws, ws[1:], ws[2:]):
                if (
                    len(a) > 4
                    and len(b) > 4
                    and not {a, b} & (STOPWORDS | FILLER | _VERBS | _VERB_CUE)
                    and before not in _VERB_CUE
                    and a.rstrip("s") not in _VERBS
                    and not re.search(r"\d", a + b)
                    and not a.endswith(("ly", "ing", "ed", "izes", "ises", "ize", "ify"))
                    and not b.endswith(("ly", "ed", "es"))
                ):
                    yield 2, f"{a} {b}", idx


def _stem(phrase: str) -> str:
    """A phrase without its plural ``s`` ("backdoor attacks" -> "backdoor attack"; "similarities" stays)."""
    return phrase[:-1] if phrase.endswith("s") and not phrase.endswith(("ss", "ies")) else phrase


def shared(
    corpus: Corpus,
    rng: random.Random,
    papers: list[DraftPaper] | None = None,
    limit: int | None = None,
    low: int = 2,
    high: int = 5,
) -> list[dict]:
    """``shared-term`` questions: a phrase that ``low``..``high`` papers hold, with all of them as gold.

    Phrases are read from ``papers`` (default: all) in order until ``limit`` paper groups are found; each
    phrase is searched in every stored title and abstract, and must be in each abstract it names.
    """
    best: dict[frozenset[str], tuple[int, str, str, str, int]] = {}
    seen: set[str] = set()
    for paper in papers if papers is not None else corpus.papers:
        if limit is not None and len(best) >= limit:
            break
        for prio, phrase, idx in _phrases(paper):
            key = _stem(phrase.lower()) if prio != 1 else phrase.lower()
            toks = _TOKEN.findall(key)
            if (
                key in seen
                or not toks
                or min(len(corpus.postings.get(t, ())) for t in toks[:-1] or toks) < low
            ):
                continue
            seen.add(key)
            hits = corpus.papers_with(phrase, plural=prio != 1)
            if (
                not low <= len(hits) <= high
                or not all(key in corpus.abstract_lower[h] for h in hits)
                or (prio == 1 and not all(phrase in corpus.by_id[h].abstract for h in hits))
            ):
                continue  # too rare or common, in a title only, or an ordinary word capitalised ("Fine-Tuning")
            group = frozenset(hits)
            if group not in best or (prio, -len(phrase)) < (best[group][0], -len(best[group][1])):
                shown = re.search(
                    r"(?<![^\W_])" + re.escape(key) + r"(?:s|es)?(?![^\W_])", paper.plain[idx], re.I
                )
                best[group] = (prio, shown.group(0) if shown else phrase, key, paper.paper_id, idx)
    out = []
    for group, (prio, phrase, key, pid, idx) in sorted(
        best.items(), key=lambda kv: (kv[1][:2], sorted(kv[0]))
    ):
        verb = rng.choice(
            ["mention", "use", "involve"] if prio == 1 else ["deal with", "involve", "mention"]
        )
        out.append(
            cand(
                "multi-paper",
                "shared-term",
                f"Which papers {verb} {phrase}?",
                sorted(group),
                [[key]],
                pid,
                idx,
                f"every paper whose title or abstract holds '{phrase}' ({len(group)})",
                priority=prio,
            )
        )
    return out
