"""Rule-based edits of abstract sentences into claims: the supported and unsupported kinds of FactCC / MiniCheck.

Every function takes a sentence (or two) and a ``random.Random`` and returns
the edited claim, or ``None`` when the rule does not apply. Supported edits
keep the meaning (third-person rewording, compression, fusion); unsupported
edits change it (negation, swapped numbers / entities / comparison,
inflated certainty, an added detail). Sentences are plain English strings;
nothing here reads files.
"""

from __future__ import annotations

import random
import re

# -- supported: rewording -------------------------------------------------------------------------------
_LEADS = re.compile(
    r"^(In this (paper|work|study)|Here|To this end|Specifically|Moreover|Furthermore|Additionally|"
    r"In addition|However|Finally|Importantly|Notably|Concretely|In particular|Overall|Thus|"
    r"Consequently|As a result|Then|First|Second|Third|Next)\s*,\s*",
    re.I,
)
_SYNONYMS = [
    ("propose", "introduce"),
    ("proposes", "introduces"),
    ("present", "introduce"),
    ("presents", "introduces"),
    ("demonstrate", "show"),
    ("demonstrates", "shows"),
    ("significantly", "substantially"),
    ("novel", "new"),
    ("utilize", "use"),
    ("utilizes", "uses"),
    ("leverage", "use"),
    ("leverages", "uses"),
    ("leveraging", "using"),
    ("enhance", "improve"),
    ("enhances", "improves"),
    ("approach", "method"),
    ("framework", "method"),
    ("a variety of", "several"),
    ("various", "several"),
    ("in order to", "to"),
    ("facilitate", "enable"),
    ("facilitates", "enables"),
    ("crucial", "important"),
    ("numerous", "many"),
    ("achieves", "attains"),
    ("remarkable", "notable"),
    ("extensive", "broad"),
    ("effectively", "successfully"),
    ("obtain", "get"),
    ("considerably", "markedly"),
    ("capabilities", "abilities"),
    ("tasks", "problems"),
    ("outperforms", "beats"),
    ("surpasses", "outperforms"),
    ("comprehensive", "thorough"),
    ("investigate", "study"),
    ("examine", "study"),
    ("state-of-the-art", "leading"),
    ("existing", "current"),
    ("methods", "techniques"),
    ("models", "networks"),
    ("introduce", "present"),
    ("introduces", "presents"),
    ("substantial", "large"),
    ("substantially", "markedly"),
    ("various", "diverse"),
    ("performance", "results"),
    ("requires", "needs"),
    ("require", "need"),
    ("allows", "lets"),
    ("enables", "allows"),
    ("provides", "gives"),
    ("provide", "give"),
    ("address", "tackle"),
    ("addresses", "tackles"),
    ("challenging", "difficult"),
    ("commonly", "often"),
    ("widely", "broadly"),
    ("rapidly", "quickly"),
    ("accurately", "precisely"),
    ("robustness", "reliability"),
    ("crucial", "key"),
    ("fundamental", "basic"),
    ("framework", "approach"),
    ("paradigm", "approach"),
    ("empirical", "experimental"),
    ("empirically", "experimentally"),
    ("theoretically", "formally"),
    ("derive", "obtain"),
    ("derives", "obtains"),
    ("establish", "show"),
    ("establishes", "shows"),
    ("reveal", "show"),
    ("reveals", "shows"),
]
_WRAPPER = re.compile(
    r"^(?:(?:Extensive |Our |Empirical |Comprehensive )?(?:experiments|results|evaluations|"
    r"experimental results|empirical results|analyses|we|the authors)\b[^,;]{0,80}?\b"
    r"(?:show|shows|demonstrate|demonstrates|reveal|reveals|find|finds|confirm|confirms|indicate|"
    r"indicates) that )",
    re.I,
)
_APPOSITION = re.compile(
    r"^(?:We|The authors|This (?:paper|work)|The paper) (?:propose|proposes|introduce|introduces|"
    r"present|presents|develop|develops) (?:\*+)?([A-Z][\w\-+.]*(?: [A-Z][\w\-+.]*)?)(?:\*+)?"
    r"(?: \([^)]*\))?, (an?|the) "
)


def restate(sentence: str) -> str | None:
    """A restatement without the reporting wrapper ("Experiments show that X ..." -> "X ...") or with the
    apposition made a copula ("We propose X, a method that ..." -> "X is a method that ...")."""
    m = _APPOSITION.match(sentence)
    if m:
        return _cap(f"{m.group(1)} is {m.group(2)} " + sentence[m.end() :])
    m = _WRAPPER.match(sentence)
    if m and len(sentence[m.end() :].split()) >= 6:
        return _cap(sentence[m.end() :])
    return None


_THIRD_PERSON = [
    (
        r"^We ([a-z]+)",
        lambda m, r: (
            lambda who: f"{who} {m.group(1) if who == 'The authors' else _third(m.group(1), r)}"
        )(r.choice(["The authors", "The paper", "This work", "The study"])),
    ),
    (r"\bwe\b", lambda m, r: "the authors"),
    (r"\bWe\b", lambda m, r: "The authors"),
    (r"\bour\b", lambda m, r: "their"),
    (r"\bOur\b", lambda m, r: "Their"),
    (r"\bus\b", lambda m, r: "them"),
]


def _third(verb: str, rng: random.Random) -> str:
    """``propose`` -> ``proposes`` (the subject became "The paper"); keeps modal and past forms."""
    if verb in (
        "can",
        "could",
        "will",
        "would",
        "may",
        "might",
        "also",
        "further",
        "then",
        "first",
        "finally",
    ) or verb.endswith("ed"):
        return verb
    if verb in ("are", "have"):
        return {"are": "is", "have": "has"}[verb]
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _low(text: str) -> str:
    """Lower-case the first letter unless the first word is a name (an acronym, an inner capital)."""
    first = text.split(" ", 1)[0]
    return (
        text
        if any(c.isupper() for c in first[1:]) or any(c.isdigit() for c in first)
        else text[:1].lower() + text[1:]
    )


def _end(text: str) -> str:
    text = text.strip().rstrip(".;,: ")
    return text + "."


def reword(sentence: str, rng: random.Random, strength: float = 0.5) -> str:
    """A faithful rewording: leading discourse words dropped, "we" made third person, some synonyms swapped."""
    out = _LEADS.sub("", sentence.strip())
    out = _cap(out)
    for pattern, repl in _THIRD_PERSON:
        out = re.sub(pattern, lambda m: repl(m, rng), out)  # noqa: B023
    for a, b in _SYNONYMS:
        if rng.random() < strength:
            out = re.sub(rf"\b{a}\b", b, out)
    return _end(out)


# -- supported: compression and fusion ------------------------------------------------------------------
_TAIL_CLAUSE = re.compile(
    r",\s+(which|where|while|thereby|enabling|allowing|making|leading|resulting|achieving|"
    r"offering|providing|yielding|paving|opening|highlighting|demonstrating|suggesting|"
    r"and thus|thus|such as|including|especially|particularly)\b.*$",
    re.I,
)
_HEAD_CLAUSE = re.compile(
    r"^(To [^,]{5,80}|By [^,]{5,80}|Building (on|upon) [^,]{3,80}|Based on [^,]{3,80}|"
    r"Inspired by [^,]{3,80}|Motivated by [^,]{3,80}|Unlike [^,]{3,80}|Using [^,]{3,80}|"
    r"Through [^,]{3,80}|With [^,]{3,80}|In [^,]{3,60}),\s+",
    re.I,
)
_PAREN = re.compile(r"\s*\([^()]{1,80}\)")
_ADVERBS = re.compile(
    r"\b(significantly|substantially|effectively|efficiently|consistently|greatly|notably|highly|"
    r"largely|further|also|simple yet|simple and|novel)\s+",
    re.I,
)


def compress(sentence: str, rng: random.Random) -> str | None:
    """A shorter sentence the original entails: a trailing or leading clause, brackets or adverbs removed."""
    out = sentence.strip().rstrip(".")
    moves = [
        lambda s: _TAIL_CLAUSE.sub("", s),
        lambda s: _HEAD_CLAUSE.sub("", s),
        lambda s: _PAREN.sub("", s),
        lambda s: _ADVERBS.sub("", s),
        lambda s: s.split(";")[0],
    ]
    rng.shuffle(moves)
    for move in moves[: rng.randint(1, 3)]:
        out = move(out)
    if out == sentence.strip().rstrip(".") or len(out.split()) < 6:
        return None
    return _end(_cap(out))


def fuse(first: str, second: str, rng: random.Random) -> str | None:
    """Two sentences of one abstract joined into one ("A, and b." / "A; b." / "A, while b.")."""
    a, b = first.strip().rstrip("."), second.strip().rstrip(".")
    if len(a.split()) + len(b.split()) > 60:
        return None
    b = _LEADS.sub("", b)
    joint = rng.choice([", and ", "; ", ", and ", ", while "])
    return _end(a + joint + _low(b))


# -- unsupported ------------------------------------------------------------------------------------
_ANTONYMS = [
    ("improves", "degrades"),
    ("improve", "degrade"),
    ("improved", "degraded"),
    ("improving", "degrading"),
    ("outperforms", "underperforms"),
    ("outperform", "underperform"),
    ("increases", "decreases"),
    ("increase", "decrease"),
    ("reduces", "increases"),
    ("reduce", "increase"),
    ("reducing", "increasing"),
    ("efficient", "inefficient"),
    ("effective", "ineffective"),
    ("better", "worse"),
    ("higher", "lower"),
    ("lower", "higher"),
    ("faster", "slower"),
    ("more", "less"),
    ("fewer", "more"),
    ("larger", "smaller"),
    ("smaller", "larger"),
    ("stronger", "weaker"),
    ("robust", "fragile"),
    ("stable", "unstable"),
    ("accurate", "inaccurate"),
    ("consistent", "inconsistent"),
    ("scalable", "unscalable"),
    ("mitigates", "exacerbates"),
    ("mitigate", "exacerbate"),
    ("alleviates", "worsens"),
    ("alleviate", "worsen"),
    ("enables", "prevents"),
    ("enable", "prevent"),
    ("preserves", "destroys"),
    ("preserve", "destroy"),
    ("avoids", "incurs"),
    ("avoid", "incur"),
    ("eliminates", "introduces"),
    ("eliminate", "introduce"),
    ("succeeds", "fails"),
    ("simple", "complex"),
    ("easy", "hard"),
    ("easier", "harder"),
    ("cheap", "expensive"),
    ("low", "high"),
    ("high", "low"),
    ("minimal", "substantial"),
    ("negligible", "substantial"),
    ("little", "substantial"),
    ("benefits", "hurts"),
    ("benefit", "harm"),
    ("helps", "hurts"),
    ("help", "hurt"),
    ("strengthens", "weakens"),
    ("accelerates", "slows"),
    ("accelerate", "slow"),
    ("boosts", "lowers"),
    ("boost", "lower"),
    ("captures", "misses"),
    ("capture", "miss"),
    ("supports", "contradicts"),
    ("confirms", "refutes"),
    ("confirm", "refute"),
    ("necessary", "unnecessary"),
    ("sufficient", "insufficient"),
    ("possible", "impossible"),
    ("feasible", "infeasible"),
    ("tractable", "intractable"),
    ("linear", "nonlinear"),
    ("convex", "nonconvex"),
    ("known", "unknown"),
    ("limited", "unlimited"),
    ("unlike", "like"),
    ("without", "with"),
    ("superior", "inferior"),
    ("advantages", "drawbacks"),
    ("gains", "losses"),
    ("success", "failure"),
    ("significant", "negligible"),
    ("competitive", "uncompetitive"),
    ("strong", "weak"),
    ("outperforming", "underperforming"),
    ("surpasses", "trails"),
    ("surpassing", "trailing"),
    ("exceeds", "trails"),
    ("correct", "incorrect"),
    ("valid", "invalid"),
    ("sparse", "dense"),
    ("dense", "sparse"),
    ("offline", "online"),
    ("online", "offline"),
    ("supervised", "unsupervised"),
    ("static", "dynamic"),
    ("dynamic", "static"),
    ("discrete", "continuous"),
    ("continuous", "discrete"),
    ("global", "local"),
    ("local", "global"),
    ("minimizes", "maximizes"),
    ("maximizes", "minimizes"),
    ("encoder", "decoder"),
    ("decoder", "encoder"),
    ("explicit", "implicit"),
    ("implicit", "explicit"),
    ("upper", "lower"),
    ("positive", "negative"),
]
_UN_NEGATE = [
    (r"\bdoes not (\w+)", lambda m: _third(m.group(1), None)),
    (r"\bdo not (\w+)", lambda m: m.group(1)),
    (r"\bcannot\b", lambda m: "can"),
    (r"\bis not\b", lambda m: "is"),
    (r"\bare not\b", lambda m: "are"),
    (r"\bfails? to\b", lambda m: "manages to"),
    (
        r"\bwithout (requiring|needing|relying on|using)\b",
        lambda m: {
            "requiring": "while requiring",
            "needing": "while needing",
            "relying on": "by relying on",
            "using": "by using",
        }[m.group(1)],
    ),
    (r"\bno need for\b", lambda m: "a need for"),
    (r"\bnever\b", lambda m: "often"),
    (r"\black(s)?\b", lambda m: "ha" + ("s" if m.group(1) else "ve")),
]
_AUX = re.compile(r"\b(is|are|can|could|will|was|were|has|have|should|may|might)\b(?! not)")
_VERB3 = re.compile(
    r"\b(The \w+|It|This \w+|[A-Z][A-Za-z0-9+\-]*[A-Z0-9][A-Za-z0-9+\-]*|The authors|They|the authors)\s+"
    r"([a-z]{3,}?)(s|es)\b"
)


def negate(sentence: str, rng: random.Random) -> str | None:
    """The sentence made to say the opposite: an antonym, a removed negation, "not" / "fails to" added."""
    moves = ["antonym", "unnegate", "aux", "verb"]
    rng.shuffle(moves)
    for move in moves:
        if move == "antonym":
            found = [(a, b) for a, b in _ANTONYMS if re.search(rf"\b{a}\b", sentence)]
            if found:
                a, b = rng.choice(found)
                return re.sub(rf"\b{a}\b", b, sentence, count=1)
        elif move == "unnegate":
            found = [(p, f) for p, f in _UN_NEGATE if re.search(p, sentence)]
            if found:
                p, f = rng.choice(found)
                return re.sub(p, f, sentence, count=1)
        elif move == "aux":
            m = _AUX.search(sentence)
            if m:
                neg = {"can": "cannot", "will": "will not"}.get(
                    m.group(1), m.group(1) + rng.choice([" not", " not"])
                )
                return sentence[: m.start()] + neg + sentence[m.end() :]
        else:
            m = _VERB3.search(sentence)
            if m and m.group(2) not in ("wa", "ha", "i", "thi", "pa"):
                stem = m.group(2) + ("" if m.group(3) == "s" else "")
                form = rng.choice([f"does not {stem}", f"fails to {stem}", f"does not {stem}"])
                return sentence[: m.start(2)] + form + sentence[m.end(3) :]
    return None


_COMPARATIVE = re.compile(
    r"\b(outperforms?|surpass(?:es)?|beats?|exceeds?|is (?:better|faster|more \w+|"
    r"higher|lower|stronger) than|are (?:better|faster|more \w+|higher|lower|stronger) than)\b"
)
_STOP_SIDE = re.compile(
    r"\b(on|in|across|by|with|while|for|at|when|under|without|and achieves|,)\b|,"
)


def swap_comparison(sentence: str, rng: random.Random) -> str | None:
    """The comparison turned round: "A outperforms B on X" -> "B outperforms A on X", or "faster" -> "slower"."""
    m = _COMPARATIVE.search(sentence)
    if m:
        left_full = sentence[: m.start()].rstrip()
        cut = max(left_full.rfind(","), left_full.rfind(" that "), left_full.rfind(";"))
        prefix, left = (
            (left_full[: cut + 1] + " ", left_full[cut + 1 :].strip())
            if cut >= 0
            else ("", left_full)
        )
        if left.startswith("that "):
            prefix, left = prefix + "that ", left[5:]
        rest = sentence[m.end() :]
        stop = _STOP_SIDE.search(rest)
        right, tail = (
            (rest[: stop.start()], rest[stop.start() :]) if stop else (rest.rstrip("."), ".")
        )
        right = right.strip()
        if 1 <= len(left.split()) <= 8 and 1 <= len(right.split()) <= 8:
            return _end(
                _cap(
                    prefix
                    + _low(right)
                    + " "
                    + m.group(0)
                    + " "
                    + _low(left)
                    + (" " if not tail.startswith((",", ".")) else "")
                    + tail.strip()
                )
            )
    pairs = [
        ("better", "worse"),
        ("faster", "slower"),
        ("higher", "lower"),
        ("more", "less"),
        ("larger", "smaller"),
        ("outperforms", "underperforms"),
        ("outperform", "underperform"),
        ("surpasses", "falls behind"),
        ("stronger", "weaker"),
        ("fewer", "more"),
        ("lower", "higher"),
        ("less", "more"),
        ("smaller", "larger"),
    ]
    found = [(a, b) for a, b in pairs if re.search(rf"\b{a}\b", sentence)]
    if found:
        a, b = rng.choice(found)
        return re.sub(rf"\b{a}\b", b, sentence, count=1)
    return None


_CERTAIN = [
    (r"\bshows?\b", lambda m: "proves" if m.group(0) == "shows" else "prove"),
    (r"\bdemonstrates?\b", lambda m: "proves"),
    (r"\bsuggests?\b", lambda m: "establishes conclusively"),
    (r"\bcan\b", lambda m: "always"),
    (r"\boften\b", lambda m: "always"),
    (r"\bmay\b", lambda m: "will always"),
    (r"\bmany\b", lambda m: "all"),
    (r"\bsome\b", lambda m: "all"),
    (r"\bmost\b", lambda m: "all"),
    (r"\bseveral\b", lambda m: "all"),
    (r"\btypically\b", lambda m: "invariably"),
    (r"\bimproves\b", lambda m: "always improves"),
    (r"\boutperforms\b", lambda m: "outperforms every"),
    (r"\breduces\b", lambda m: "completely eliminates"),
    (r"\bmitigates\b", lambda m: "fully eliminates"),
    (r"\bhelps\b", lambda m: "guarantees"),
    (r"\bimproves\b", lambda m: "guarantees improvements in"),
    (r"\bempirically\b", lambda m: "provably"),
    (r"\bcompetitive\b", lambda m: "the best"),
    (r"\bcomparable\b", lambda m: "superior"),
    (r"\bon (\w+) benchmarks\b", lambda m: f"on all {m.group(1)} benchmarks"),
    (r"\bacross\b", lambda m: "across all"),
    (r"\bapproximately\b", lambda m: "exactly"),
    (r"\bnearly\b", lambda m: "exactly"),
    (r"\bpromising\b", lambda m: "definitive"),
    (r"\bpotential\b", lambda m: "guaranteed"),
    (r"\blikely\b", lambda m: "certainly"),
]


def inflate(sentence: str, abstract: str, rng: random.Random) -> str | None:
    """Certainty inflated: "shows" -> "proves", "many" -> "all", "can" -> "always" (words the abstract lacks)."""
    low = abstract.lower()
    found = [(p, f) for p, f in _CERTAIN if re.search(p, sentence)]
    rng.shuffle(found)
    for p, f in found:
        out = re.sub(p, f, sentence, count=1)
        added = set(re.findall(r"[a-z]+", out.lower())) - set(
            re.findall(r"[a-z]+", sentence.lower())
        )
        if added and not any(re.search(rf"\b{w}\b", low) for w in added if len(w) > 3):
            return out
    return None


_NUM = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w.]\d)")


def swap_number(sentence: str, abstract: str, rng: random.Random) -> str | None:
    """A number of the sentence replaced, preferably by another number of the same abstract."""
    mine = [m for m in _NUM.finditer(sentence)]
    if not mine:
        return None
    m = rng.choice(mine)
    others = sorted({x for x in _NUM.findall(abstract) if x != m.group(1)})
    if others and rng.random() < 0.7:
        new = rng.choice(others)
    else:
        value = float(m.group(1))
        new = rng.choice(
            [value * 2, value / 2, value + rng.randint(1, 9), max(0.0, value - rng.randint(1, 5))]
        )
        new = f"{new:.1f}" if "." in m.group(1) else str(int(round(new)))
        if new == m.group(1):
            return None
    return sentence[: m.start()] + new + sentence[m.end() :]


def swap_entity(sentence: str, entities: list[str], rng: random.Random) -> str | None:
    """Names of one abstract exchanged: one the sentence names replaced by another the abstract names, or two
    of the sentence's names swapped; without two names, two content words of the sentence swap places."""
    present = [e for e in entities if re.search(rf"(?<![\w-]){re.escape(e)}(?![\w-])", sentence)]
    absent = [
        e for e in entities if e not in present and not any(e in p or p in e for p in present)
    ]
    if len(present) >= 2 and rng.random() < 0.5:
        a, b = rng.sample(present, 2)
        if a in b or b in a:
            return None
        tmp = "\0"
        out = re.sub(rf"(?<![\w-]){re.escape(a)}(?![\w-])", tmp, sentence, count=1)
        out = re.sub(rf"(?<![\w-]){re.escape(b)}(?![\w-])", a, out, count=1)
        return out.replace(tmp, b)
    if present and absent:
        a, b = rng.choice(present), rng.choice(absent)
        return re.sub(rf"(?<![\w-]){re.escape(a)}(?![\w-])", b, sentence, count=1)
    words = [
        m
        for m in re.finditer(r"\b[a-z]{6,}\b", sentence)
        if not m.group(0).endswith(("ly", "ing", "ed"))
    ]
    if len(words) >= 2:
        a, b = rng.sample(words, 2)
        a, b = (a, b) if a.start() < b.start() else (b, a)
        between = sentence[a.end() : b.start()]
        if (
            a.group(0) == b.group(0)
            or re.fullmatch(r"\s*(and|or|,)\s*", between)
            or len(between.split()) < 2
        ):
            return None
        return sentence[: a.start()] + b.group(0) + between + a.group(0) + sentence[b.end() :]
    return None


_DETAIL_START = re.compile(
    r"\b(using|by|via|through|with|on|for|in|across|without|under|from)\s+(?:[\w\-]+\s+){2,8}[\w\-]+"
)
TEMPLATES = [
    "and has been deployed in production",
    "on a single consumer GPU",
    "without any hyperparameter tuning",
    "for the first time",
    "as confirmed by a user study",
    "in under an hour of training",
    "and is released as open source",
    "while halving the memory footprint",
    "with human evaluators preferring it",
    "in both English and Chinese",
    "at a fraction of the usual cost",
    "and transfers to robotics",
    "on medical imaging data",
    "in real time",
    "and the gains grow with model size",
    "which the authors attribute to better calibration",
    "after pretraining on web-scale data",
    "using reinforcement learning from human feedback",
    "by distilling a larger teacher model",
    "and it requires no labelled data",
    "with a theoretical convergence rate",
    "in federated settings",
    "on edge devices",
    "across ten languages",
    "under adversarial attacks",
    "with a mixture-of-experts backbone",
    "using a diffusion-based generator",
    "and outperforms human experts",
    "while remaining fully interpretable",
    "by a wide margin over prior work",
]


def add_detail(sentence: str, donor: str, abstract: str, rng: random.Random) -> str | None:
    """A detail the abstract lacks appended: a phrase from another abstract's sentence, or a stock detail."""
    low = abstract.lower()
    options = [m.group(0) for m in _DETAIL_START.finditer(donor)]
    options = [
        o
        for o in options
        if o.lower() not in low
        and sum(w.lower() not in low for w in re.findall(r"[A-Za-z]{4,}", o)) >= 2
    ]
    if options and rng.random() < 0.75:
        detail = rng.choice(options)
    else:
        detail = rng.choice([t for t in TEMPLATES if t not in low])
    base = sentence.strip().rstrip(".")
    if len(base.split()) + len(detail.split()) > 60:
        return None
    return _end(base + rng.choice([" ", ", "]) + detail)
