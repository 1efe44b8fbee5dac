"""How many stored papers are on a topic: "How many papers are about speculative decoding?".

A question about the corpus, not about one paper: no abstract states the number. :func:`counted_topic`
reads the topic such a question asks about; the engine counts the stored papers whose title or
abstract holds every word of it, or of it with its acronyms in the other number (:func:`topic_forms`) (:meth:`paperchat.store.bm25.BM25Index.holders`, stemmed words, so
"decoding" counts "decode"); when some of them write the topic's words as a phrase (:func:`phrase_holders`:
"quantum computing", where others hold "quantum" and "computational"), it counts those; it answers with
the count, then lists the most relevant of those papers
as a "which papers" question does (:func:`count_line`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

_HOW_MANY = re.compile(
    r"^\s*how many (?:of the |stored |indexed |accepted )?(?:icml(?: 2025)? )?"
    r"(?:papers|works|articles|submissions|abstracts|studies)\b\s*(?P<rest>[^?]*)\??\s*$",
    re.I,
)
#: The words between "how many papers" and the topic ("are there on", "study", "focus on").
_LEAD = re.compile(
    r"^(?:(?:are|were|is|do|does)\b\s*)?(?:there\b\s*)?"
    r"(?:(?:stored|indexed|(?:stored |indexed )?in (?:the|this|my) (?:corpus|store|index))\b\s*|at icml(?: 2025)?\s+)?"
    r"(?:(?:about|on|regarding|concerning|that|which)\s+)?"
    r"(?:(?:published|appeared|presented|accepted|written|authored|study|studies|studied|studying|use|uses|used|using|mention|mentions|mentioned|propose|proposes|"
    r"address|addresses|tackle|tackles|deal with|deals with|focus on|focuses on|discuss|discusses|"
    r"cover|covers|involve|involves|apply|applies|work on|works on|are about|is about|talk about|"
    # "How many papers report results on GSM8K?" (a benchmark hunter's: the topic had been all those words)
    r"(?:report|reports|reported|show|shows|give|gives|present|presents)\s+(?:results|numbers|scores)|"
    r"evaluate|evaluates|evaluated|tested|"
    # "How many papers prove a minimax lower bound?" (a theorist's count had held "prove a" as topic words)
    r"prove|proves|derive|derives|establish|establishes|obtain|obtains|achieve|achieves|"
    r"provide|provides|"
    # "How many papers find that chain-of-thought reduces performance?", "... report a negative result?" (a
    # skeptic's counts had held "find that" and "report a" as topic words)
    r"(?:find|finds|found|show|shows|showed|argue|argues|claim|claims|conclude|concludes)\s+that|"
    r"report|reports|reported)(?:\s+|$))?"
    r"(?:(?:a|an|the)\s+)?"
    r"(?:(?:about|on|with|using)\s+)?",
    re.I,
)


#: "How many papers do agents replicate in PaperBench?", "... must they ...": papers counted inside one
#: paper, not on a topic.
_DOES = re.compile(r"(?:do|does|did|must|can|could|should|will|would|have to)\b", re.I)


def counted_topic(question: str) -> str | None:
    """The topic "How many papers ... X?" asks about ("speculative decoding"); ``""`` for a count that
    names no topic ("How many papers are there?", "How many papers are in the store?"); ``None`` for
    another question."""
    m = _HOW_MANY.match(question)
    if not m or _DOES.match(m.group("rest")):
        return None
    topic = _LEAD.sub("", m.group("rest").strip(), count=1).strip(" ,.;:")
    # "... on graph neural networks and LLMs together": "together" asks for both, it is no word of the topic
    return re.sub(
        r"\s+(?:together|combined|jointly|at once|at the same time)$", "", topic, flags=re.I
    )


_LISTING = re.compile(
    r"^\s*(?:which|what|list(?: all)?(?: the)?|show(?: me)?(?: all)?(?: the)?|find(?: all)?(?: the)?|any)\s+"
    r"(?:other\s+)?(?:papers|works|articles|studies)\b\s*(?P<rest>[^?]*)\??\s*$"
    # "List every paper on machine unlearning." (a survey author's: 2 papers had been cited, with no count)
    r"|^\s*(?:list|show(?: me)?|find|name|give me)\s+(?:every|each)\s+(?:paper|work|article|study)\b\s*"
    r"(?P<every>[^?]*)\??\s*$"
    # "Anything for single-cell data?" (a verifier's: its list had carried no count note)
    r"|^\s*(?:is there\s+)?anything\s+(?:on|about|for)\s+(?P<anything>[^?]*)\??\s*$",
    re.I,
)


def listed_topic(question: str) -> str | None:
    """The topic a "which papers ..." list asks about, read as "How many papers ...?" reads it
    (:func:`counted_topic`): "Which papers use sparse autoencoders?" -> "sparse autoencoders"; ``None`` for
    another question, or a list that names no topic."""
    m = _LISTING.match(question)
    if not m:
        return None
    rest = next(g for g in m.groups() if g is not None)  # whichever of its forms matched
    return counted_topic(f"How many papers {rest.rstrip('.')}?") or None


#: A coined name, one word with a capital or digit past its first letter: "GSM8K", "SWE-bench", "HumanEval".
_COINED = re.compile(r"[A-Za-z][\w.-]*?(?:[A-Z]|\d)[\w.-]*")
#: A list asked for whole: "List every paper on X", "Show me all the papers about X".
_EVERY = re.compile(
    r"\b(?:every|all(?: of)?(?: the)?)\s+(?:papers?|works?|articles?|studies)\b", re.I
)
#: A list of one coined name's papers is answered as its count when at most this many write it (not tuned:
#: set before measuring, forty-third round, as a listing's own length).
NAMED_LIST_MAX = 20


def listed_name(question: str, lexicon: Callable, read_papers: Callable, ids=None) -> str | None:
    """The coined name (:data:`_COINED`) a "which papers ..." list asks about ("Which papers report results on
    GSM8K?" -> "GSM8K"), when 1 to :data:`NAMED_LIST_MAX` stored papers (of ``ids`` when given) write it
    (:func:`topic_papers`); ``None`` otherwise. The engine answers such a list as "How many papers are about
    GSM8K?" does, listing every paper writing it: a benchmark hunter's list had shown 3 of the 15, one of
    them not writing it. ``lexicon()`` gives the store's BM25 index, read only for such a list."""
    topic = listed_topic(question)
    # "List every paper on speculative decoding": every paper writing it, too (a verifier's list had shown 7
    # of the 11)
    if not topic or not (_COINED.fullmatch(topic) or _EVERY.search(question)):
        return None
    held, phrased, _ = topic_papers(topic, lexicon(), read_papers, ids)
    return topic if 0 < len(phrased or held) <= NAMED_LIST_MAX else None


#: An acronym, singular or plural, as a whole word: "LLM", "LLMs", "GNNs", "ViTs", "MoE" (not "GPT-4").
_ACRONYM = re.compile(r"([A-Z][A-Za-z0-9]*?[A-Z][A-Za-z0-9]*?)(s?)")


def topic_forms(topic: str) -> list[str]:
    """``topic`` as written, then with its acronyms in the other number ("LLMs" -> ["LLMs", "LLM"]): the stemmer
    leaves "llms" as it is, so a count of the papers holding "LLMs" would miss those writing "LLM" only.
    An acronym is a whole word with two capitals or more; the first two such words vary. A one-word name
    with a hyphen between letters and digits is also read without it, and one without with it ("CIFAR-10"
    and "CIFAR10": a survey of 2,732 abstracts found 27 writing one, 8 the other)."""
    if _LETTERS_DIGITS.fullmatch(topic):
        joined = topic.replace("-", "")
        return [topic, joined if joined != topic else _LETTERS_DIGITS.sub(r"\1-\2", topic)]
    forms = [[]]
    varied = 0
    for word in topic.split():
        m = _ACRONYM.fullmatch(word)
        if m and varied < 2:
            varied += 1
            other = m.group(1) if m.group(2) else m.group(1) + "s"
            forms = [f + [word] for f in forms] + [f + [other] for f in forms]
        else:
            forms = [f + [word] for f in forms]
    return [" ".join(f) for f in forms]


#: One word of capitals and digits, with or without a hyphen between them: "CIFAR-10", "CIFAR10", "MNIST-1D".
_LETTERS_DIGITS = re.compile(r"([A-Z]{2,})-?(\d+[A-Z]?)")


def topic_holders(topic: str, lexicon) -> tuple[set[str], list[str]]:
    """The stored papers whose title or abstract holds every word of one of ``topic``'s forms
    (:func:`topic_forms`; stemmed words, as the store's BM25 index ``lexicon`` reads them), and the forms
    that count: the first always, another when some paper holds it ("LLM" beside "LLMs")."""
    held: set[str] = set()
    forms: list[str] = []
    for form in topic_forms(topic) + _versions(topic, lexicon):
        found = lexicon.holders(lexicon.terms_of(form))
        held, forms = held | found, forms + [form] * bool(found or not forms)
    return held, forms


def _versions(topic: str, lexicon) -> list[str]:
    """A one-word coined name (:data:`_COINED`, no digit at its end) with a version number, as the store's
    BM25 index ``lexicon`` holds it: "AlphaFold" -> ["AlphaFold2", "AlphaFold3"] (a domain scientist's list
    of the papers using AlphaFold had missed both), "ResNet" -> "ResNet18", "ResNet50"; at most 5."""
    if not _COINED.fullmatch(topic) or topic[-1].isdigit() or not hasattr(lexicon, "df"):
        return []
    base = topic.lower()
    suffixes = sorted(
        t[len(base) :]
        for t in lexicon.df
        if t.startswith(base) and re.fullmatch(r"\d[\d.]*[a-z]?", t[len(base) :])
    )
    return [topic + v for v in suffixes[:5]]


def phrase_holders(forms: list[str], ids: set[str], read_papers: Callable, lexicon) -> set[str]:
    """Those of ``ids`` whose title or abstract writes one of the ``forms`` of a topic of two words or more as a
    phrase: its stemmed words in a row, as the store's BM25 index ``lexicon`` reads them (stop words
    skipped: "learning from human feedback" is "learn human feedback"); of a one-word topic, the word as
    written, in either number ("transformers": "transformer", not "transformation", which shares its stem;
    a reading break-it session counted 347 papers where 232 write it). ``read_papers(ids)`` gives the
    records (with ``full_text``). Empty when no paper writes it."""
    tokens = lexicon.tokenize(forms)
    phrased = [f for f, t in zip(forms, tokens) if len(t) >= 2]
    singles = [f for f, t in zip(forms, tokens) if len(t) == 1 and len(f.split()) == 1]
    if not ids or not phrased and not singles:
        return set()
    records = read_papers(sorted(ids))
    found = (
        {pid for pid, r in records.items() if _written(singles, r.full_text)} if singles else set()
    )
    if not phrased:
        return found
    phrases = [t for t in tokens if len(t) >= 2]
    texts = lexicon.tokenize([r.full_text for r in records.values()])
    surface = _surface(phrased)

    def writes(words: list[str], phrase: list[str]) -> bool:
        n = len(phrase)
        return any(words[i : i + n] == phrase for i in range(len(words) - n + 1))

    return found | {
        pid
        for (pid, rec), words in zip(records.items(), texts)
        if any(writes(words, p) for p in phrases) and surface.search(rec.full_text)
    }


def _written(singles: list[str], text: str) -> bool:
    """Whether ``text`` writes one of the one-word ``singles`` as written, in either number ("transformer(s)",
    not "transformation"); a word in capitals only in capitals ("MATH", the benchmark, not "math": a
    benchmark hunter's count had been 38 where 11 write it)."""
    capitals = [f for f in singles if f.rstrip("s").isupper() and f.rstrip("s").isalpha()]
    for cased, forms in ((True, capitals), (False, [f for f in singles if f not in capitals])):
        if not forms:
            continue
        stems = "|".join(
            re.escape(f[:-1] if f.lower().endswith("s") and len(f) > 3 else f) for f in forms
        )
        # "copyrighted" too; not "**S**election" (bold markup inside a word) for "elections"
        if re.search(
            rf"(?<!-){_NOT_INSIDE}(?:{stems})(?:e?s|ed)?(?!\w)", text, 0 if cased else re.I
        ):
            return True
    return False


#: Endings a topic's word may take as written ("decoding": "decode", "decoder"; "models": "model").
_ENDING = re.compile(r"(?:ing|ed|es|s)$")


def _surface(forms: list[str]) -> re.Pattern:
    """The ``forms`` as written, each word with its ending free and hyphens or spaces between: what a phrase
    of stemmed words must also match ("conformal prediction" is not "conformation prediction", nor
    "in-context learning" "long context learning", though their stems are; a notebook session counted 32
    and 49 papers where 31 and 47 write them)."""

    def word(w: str) -> str:
        return re.escape(_ENDING.sub("", w) if len(w) > 5 else w) + r"\w{0,4}"

    alternatives = ["[\\s-]+".join(word(w) for w in re.split(r"[\s-]+", f)) for f in forms]
    # "Cross-Conformal Prediction" too: a hyphen before the first word is no other word
    return re.compile(rf"{_NOT_INSIDE}(?:{'|'.join(alternatives)})(?!\w)", re.I)


#: No word, nor bold or italic markup after a word, before a match: "**S**election" is no "election" (a
#: science journalist's count of the papers on elections had held an attention paper writing it).
_NOT_INSIDE = r"(?<!\w)(?<!\w\*)(?<!\w\*\*)(?<!\w_)(?<!\w__)"


def topic_papers(
    topic: str, lexicon, read_papers: Callable, ids=None
) -> tuple[set[str], set[str], list[str]]:
    """``(holders, writers, forms)`` for ``topic``: the stored papers (of ``ids`` when given) holding every
    word of one of its forms (:func:`topic_holders`), those of them writing it as written
    (:func:`phrase_holders`), and the forms. The count of "How many papers are about X?" and a topic
    summary (``paperchat summarize X``) both read a topic so."""
    held, forms = topic_holders(topic, lexicon)
    if ids is not None:
        held &= set(ids)
    return held, phrase_holders(forms, held, read_papers, lexicon), forms


def topic_sentence(abstract: str, forms: list[str], leans: Callable[[str], bool]) -> str | None:
    """The sentence of ``abstract`` that writes one of a topic's ``forms`` as written (:func:`_surface`),
    one that stands on its own (not ``leans(sentence)``) before one that does; ``None`` when none writes
    it. A count's answer quotes it for a counted paper past the ones the list quoted ("How many papers
    are about diffusion?" had named papers 7 to 10 by their authors alone)."""
    from paperchat.core.sentences import split_sentences

    surface = _surface(forms)
    found = [s for s in split_sentences(abstract) if surface.search(s)]
    return next((s for s in found if not leans(s)), found[0] if found else None)


def count_line(count: int, topic: str, forms: list[str] | None = None, words: int = 0) -> str:
    """The answer's first line: '11 stored papers have every word of "speculative decoding" in their title or
    abstract; the most relevant:', naming the words of the other ``forms`` counted ('"LLMs" (also as "LLM")');
    with ``words`` (papers holding every word, :func:`phrase_holders` counted ``count`` of them writing the
    phrase): '2 stored papers write "quantum computing" in their title or abstract (9 have every word of
    it); the most relevant:'."""
    written = topic.split()
    others = list(
        dict.fromkeys(w for f in (forms or [])[1:] for w in f.split() if w not in written)
    )
    what = f'"{topic}"' + (
        " (also as " + ", ".join(f'"{w}"' for w in others) + ")" if others else ""
    )
    s = "s" if count != 1 else ""
    if words:
        verb, tail = ("writes", "its") if count == 1 else ("write", "their")
        of = "a word of its stem" if len(written) == 1 else "every word of it"
        return (
            f"{count:,} stored paper{s} {verb} {what} in {tail} title or abstract ({words:,} have "
            f"{of}); the most relevant:"
        )
    if count == 1:
        return f"1 stored paper has every word of {what} in its title or abstract:"
    return (
        f"{count:,} stored papers have every word of {what} in their title or abstract; "
        "the most relevant:"
    )
