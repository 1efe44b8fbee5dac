"""Yes/no questions about one paper: the sentence that decides them, first.

"Is S4S data-free?" is answered by "Moreover, our method is lightweight, data-free, ..." (a sentence
that does not name S4S), not by the sentences that name it best. The paper's name found the paper;
what decides the question is its predicate, the question's other terms. :func:`deciding_first` puts
the paper's sentence holding the most of the predicate's weight (BM25's inverse document frequency,
Robertson and Zaragoza 2009, "The Probabilistic Relevance Framework: BM25 and Beyond") first, when
no picked sentence holds as much. Written from a PhD student's session (thirty-first round); no eval
set has more than a few such questions, so ten questions of the lead's own, listed in
``eval/generalization/TUNING.md`` (thirty-second round), checked it. "What does X <verb> ...?" is read the
same way from the thirty-third round (its object decides which sentence answers it).
"""

from __future__ import annotations

import math
import re

#: A question that opens with an auxiliary and asks about something, not whether a paper exists
#: ("Is S4S data-free?", "Does TARL need rewards?"; not "Is there a paper ...", "Has anyone ...", nor a
#: request: "Can you explain ...").
_ABOUT = re.compile(
    r"^\s*(?:is|are|was|were|does|do|did|can|could|will|would|has|have)\s+"
    r"(?!there\b|you\b|anyone\b|anybody\b|any\b|some\w*\b|an?y? (?:icml |recent )?(?:paper|work|study)\b)\S",
    re.I,
)


#: "What does X <verb> ...?": answered, as a yes/no question is decided, by the sentence holding the verb and
#: its object ("each embedding a watermark" for "What does STAMP embed in each rephrase?", a newcomer's
#: session: the sentence naming STAMP best had been quoted alone).
_WHAT_DOES = re.compile(r"^\s*what\s+(?:does|do|did)\s+\S", re.I)


def asks_about(question: str) -> bool:
    """Whether ``question`` is a yes/no question about something (:data:`_ABOUT`)."""
    return _ABOUT.match(question) is not None


def deciding_first(question: str, name: str, own: list, picked: list, lexicon, limit: int) -> list:
    """``picked`` (candidate sentences with ``text``) led by the sentence of ``own`` (the asked-about
    paper's candidates) that holds the most idf weight of the question's terms beyond ``name`` (the
    paper's name as the question writes it), when it holds more than the first picked sentence (a
    picked one that holds as much leads instead) or the first picked is background (others' work, which
    decides nothing about the paper); at most ``limit`` sentences. ``lexicon`` is the store's BM25 index
    (``tokenize``, ``terms_of``, ``df``, ``ids``); with ``None``, or for a question that is no yes/no
    question about something (:func:`asks_about`) nor a "What does X ...?" (:data:`_WHAT_DOES`),
    ``picked`` unchanged. The lead is no background sentence when another holds some of the weight."""
    wh = _WHAT_DOES.match(question) is not None
    if lexicon is None or not own or not (asks_about(question) or wh):
        return picked
    # "What does STAMP embed in each rephrase?": the paper's own sentence, not its background; "Does
    # BanditSpec require training a draft model?" had led with "Previous methods ... train draft models"
    own = [c for c in own if c.role != "background"] or own
    named = lexicon.terms_of(name) if name else set()
    n = max(len(lexicon.ids), 1)
    weight = {
        t: math.log(1 + n / lexicon.df[t])
        for t in lexicon.tokenize([question])[0]
        if t not in named and lexicon.df.get(t)
    }

    # each sentence tokenized once
    scores = {
        id(c): sum(weight[t] for t in lexicon.terms_of(c.text) & weight.keys())
        for c in own + picked
    }

    def held(cand) -> float:
        return scores[id(cand)]

    best = max(own, key=held)
    # a picked sentence that holds as much leads instead of a new one
    mates = [c for c in picked if c.paper_id == best.paper_id and c.role != "background"]
    best = max(mates + [best], key=held)
    background = bool(picked) and picked[0].role == "background" and best.role != "background"
    if not picked or held(best) <= held(picked[0]) + 1e-9 and not (background and held(best) > 0):
        return picked
    return [best] + [c for c in picked if c is not best][: limit - 1]


_AUXILIARIES = frozenset(
    "do does did is are was were can could has have had will would should may".split()
)
#: Words that frame a claim rather than state it: "Is it true that FOL improves ...?" (a meta-reviewer's
#: note had said FOL "does not write 'true'"), "Does X really report up to ...?".
_FRAMING = frozenset(
    "true false correct right accurate really actually indeed truly claim claims claimed report reports "
    "reported state states stated say says said up about "
    # capability verbs: "Can UniSim handle proteins ...?" is decided by "across small molecules, peptides,
    # and proteins" (a domain scientist's note had said UniSim "does not write 'handle'")
    "handle handles support supports cope deal deals work works".split()
)
#: Words an abstract may write for a yes/no question's verb: "Does unMORE need human labels?" is decided by
#: "does not require human labels" (a methods reader's session: the note had said it lacks "need").
_SAME_AS = {
    "need": ("require", "necessitate", "necessary"),
    "needs": ("require", "necessitate", "necessary"),
    "require": ("need", "necessitate"),
    "requires": ("need", "necessitate"),
    "use": ("utilize", "employ", "leverage", "adopt"),
    "uses": ("utilize", "employ", "leverage", "adopt"),
}
#: share of stored papers at most that write a word the note names when the abstract holds the question's others
RARE_SHARE = 0.1


def unaddressed_note(question: str, name: str, paper, lexicon) -> str | None:
    """For a yes/no question about the paper ``name`` names (:func:`asks_about`), a note when its abstract
    (``paper.full_text``, ``paper.paper_id``) writes none of the question's other words ("Is CateKV
    training-free?": neither "training" nor "free"), so the quoted sentences cannot decide it; else
    ``None``. A note, not an abstention: no eval set asks enough such questions to set an abstention on."""
    if lexicon is None or not name or not asks_about(question):
        return None
    # "ImageNet 64×64" writes "64x64"
    text = re.sub(r"\s*(?:×|\$\\times\$)\s*", "x", paper.full_text)
    named, held = lexicon.terms_of(name), lexicon.terms_of(text)
    words = [
        w
        for w in dict.fromkeys(re.findall(r"[\w-]+", question))
        # (not "Does": a practitioner's note read 'writes none of "Does", "run", "CPUs"')
        if (t := lexicon.terms_of(w)) and not t <= named and w.lower() not in _AUXILIARIES
    ]

    def written(w: str) -> bool:
        # "Qwen" in "Qwen2.5-7B-Instruct" (a practitioner's note had said KVTuner "does not write 'Qwen'")
        return bool(lexicon.terms_of(w) & held) or (
            w[:1].isupper() and re.search(rf"(?<![\w-]){re.escape(w)}", text) is not None
        )

    holds_some = any(written(w) for w in words)
    if holds_some:
        # a less common word it lacks while holding others ("Does FedCEO provide a convergence guarantee?":
        # its "rigorous privacy guarantees" had read as a yes; a course TA's session)
        rare = len(lexicon.ids) * RARE_SHARE
        words = [
            w
            for w in words
            if w.lower() not in _AUXILIARIES | _FRAMING
            and not written(w)
            and not any(lexicon.terms_of(o) & held for o in _SAME_AS.get(w.lower(), ()))
            and all(lexicon.df.get(t, 0) <= rare for t in lexicon.terms_of(w))
        ]
    if not words:
        return None
    shown = ", ".join(f'"{w}"' for w in words[:4])
    lacks = (
        f"writes none of {shown}"
        if len(words) > 1 and not holds_some
        else f"does not write {shown}"
    )
    return (
        f"the abstract of {name} ({paper.paper_id}) {lacks}: the quotes may not decide the question"
    )
