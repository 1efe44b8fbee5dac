"""The unanswerable templates of ``paperchat eval draft``: ``near-miss`` (a made-up name one edit from a
real one, checked to occur nowhere in the store) and ``false-premise`` (a figure the paper's abstract does not
give)."""

from __future__ import annotations

import random
import re

from paperchat.evaluation.authoring.corpus import Corpus, DraftPaper, cand, coined
from paperchat.evaluation.authoring.introduces import Intro, article


# -- unanswerable templates --------------------------------------------------------------------------------
def perturb(name: str, rng: random.Random) -> str:
    """A near-miss of ``name``: a suffix, a prefix, or one letter changed (``ConfPO`` -> ``ConfPO-XL``, ``ConfPA``)."""
    how = rng.choice(("suffix", "prefix", "letter"))
    if how == "suffix":
        return name.rstrip("+") + rng.choice(["-XL", "++", "-2", "v2", "-Lite", "-Pro", "Net"])
    if how == "prefix":
        return rng.choice(["Meta", "Hyper", "Neo", "Uni", "Omni"]) + name
    i = rng.choice([i for i, c in enumerate(name) if c.isalpha() and i > 0] or [0])
    new = rng.choice([c for c in "ABCDEFGHIJKLMNOPRSTUVWXYZ" if c != name[i].upper()])
    return name[:i] + (new if name[i].isupper() else new.lower()) + name[i + 1 :]


def near_miss(corpus: Corpus, paper: DraftPaper, intro: Intro, rng: random.Random) -> list[dict]:
    """A ``near-miss`` question: the method's name perturbed so that no stored title or abstract holds it."""
    tries = (perturb(intro.name, rng) for _ in range(6))
    fake = next((f for f in tries if coined(f) and not corpus.anywhere(f)), None)
    if fake is None:
        return []
    forms = [
        "What does {f} do?",
        "How does {f} work?",
        "Which paper introduces {f}?",
        "What results does {f} report?",
    ]
    if len(intro.head.split()) >= 2:
        forms.append("Which paper introduces {f}, " + article(intro.head) + " " + intro.head + "?")
    return [
        cand(
            "unanswerable",
            "near-miss",
            rng.choice(forms).format(f=fake),
            [],
            [],
            paper.paper_id,
            intro.sentence,
            f"near-miss of {intro.name}; made-up name: {fake}",
            absent=fake,
        )
    ]


#: Figures abstracts rarely give: (what, what in an abstract would give it, the question).
FIGURES = (
    (
        "GPUs",
        r"[gt]pu|a100|h100|v100|accelerator|hardware|comput",
        "How many GPUs were used in the experiments of {s}?",
    ),
    (
        "parameter count",
        r"param|\d\s?[mb]\b|billion|million|size",
        "What is the parameter count of {s}?",
    ),
    (
        "training time",
        r"hour|\bdays?\b|minute|wall-clock|second|time|fast|speed",
        "How long did training take in the experiments of {s}?",
    ),
    (
        "learning rate",
        r"learning[- ]rate|step[- ]?size|schedul",
        "What learning rate was used in the experiments of {s}?",
    ),
    ("batch size", r"batch", "What batch size was used in the experiments of {s}?"),
    (
        "user study",
        r"participant|user study|human|annotat|survey|volunteer|crowd|people|clinician|expert",
        "How many participants took part in a user study of {s}?",
    ),
    (
        "seeds",
        r"seed|\bruns?\b|repeat|trial",
        "Over how many random seeds were the results of {s} averaged?",
    ),
)


def false_premise(paper: DraftPaper, subj: str, rng: random.Random) -> list[dict]:
    """A ``false-premise`` question: a figure of ``subj`` that its abstract (and title) does not give."""
    text = (paper.title + "\n" + paper.abstract).lower()
    absent = [f for f in FIGURES if not re.search(f[1], text)]
    if not absent:
        return []
    what, _pattern, form = rng.choice(absent)
    return [
        cand(
            "unanswerable",
            "false-premise",
            form.format(s=subj),
            [],
            [],
            paper.paper_id,
            None,
            f"false premise: the abstract of {paper.paper_id} gives no {what}",
        )
    ]
