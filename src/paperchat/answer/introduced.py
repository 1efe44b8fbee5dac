"""Lists of papers that contribute a benchmark or a dataset on a topic: "Which papers introduce a benchmark
for sparse autoencoders?", "Which papers release a new dataset for LLM safety?".

A list ranked by meaning fills up with papers on the topic, most of which introduce no benchmark: a
benchmark hunter's "... a benchmark for sparse autoencoders?" listed ten method papers with SAEBench
ninth, and missed AxBench. :func:`asked_contribution` reads the kind and the topic;
:func:`introducing_sentence` finds the sentence in which a paper introduces a thing of that kind (a verb
of making it, then the kind's noun: "we introduce SAEBench, a comprehensive evaluation suite ..." needs
"suite" among the kinds). The engine lists the papers holding every word of the topic that have one
(:mod:`paperchat.engine.introduced`).
"""

from __future__ import annotations

import re

from paperchat.core.sentences import split_sentences

#: The kinds of contribution a list may ask for, and the nouns an abstract introduces one with.
KINDS = {
    "benchmark": r"(?:benchmarks?|\w*bench\b|evaluation\s+(?:suites?|frameworks?)|test\s+suites?|testbeds?|leaderboards?)",
    "dataset": r"(?:datasets?|data\s+sets?|corpus|corpora|collections?\s+of)",
}
_ASKS = re.compile(
    r"^\s*(?:which|what|list|find|show(?:\s+me)?|any|are\s+there(?:\s+any)?)\s+(?:the\s+|all\s+(?:the\s+)?)?"
    r"(?:papers?|works?|studies)\s+(?:that\s+|which\s+)?"
    r"(?:introduce|introduced|propose|proposed|present|presented|release|released|build|built|create|created|"
    r"construct|constructed|contribute|contributed|offer|curate|curated)s?\s+"
    r"(?:(?:a|an|new|novel|the|any|large-scale|public)\s+)*(?P<kind>benchmarks?|datasets?)\s+"
    r"(?:for|on|of|in|about|covering|to\s+(?:evaluate|test|measure|assess))\s+(?P<topic>[^?]+?)\s*[?.!]*\s*$",
    re.I,
)
#: A verb of making a thing ("we introduce", "we construct"; not "At present, there is no benchmark").
_MAKES = (
    r"(?<!\bat )\b(?:introduc|present|propos|releas|build|built|construct|creat|curat|develop|collect|"
    r"design|contribut|assembl)\w*\b"
)


def asked_contribution(question: str) -> tuple[str, str] | None:
    """``(kind, topic)`` of a list asking for the papers that introduce a benchmark or a dataset on a topic
    (``kind``: a key of :data:`KINDS`), else ``None``."""
    m = _ASKS.match(question)
    if not m:
        return None
    kind = "benchmark" if m.group("kind").lower().startswith("benchmark") else "dataset"
    return kind, m.group("topic").strip()


def introducing_sentence(abstract: str, title: str, kind: str) -> str | None:
    """The first sentence of ``abstract`` in which the paper introduces a thing of ``kind``: a verb of making
    it (:data:`_MAKES`), then within 120 characters and no preposition between ("evaluated on standard
    benchmarks" introduces none) the kind's noun (:data:`KINDS`), not after "existing", "standard", ...;
    else, when the ``title`` names one ("SAEBench: ...", "... Benchmark for ..."), its first sentence with
    such a verb; ``None`` when neither."""
    noun = KINDS[kind]
    made = re.compile(
        rf"{_MAKES}(?:(?!\b(?:on|across|over|in|using|with|against|from|than)\b)[^.]){{0,120}}?"
        rf"(?<!existing )(?<!standard )(?<!popular )(?<!public )(?<!common )(?<!several )(?<!multiple )"
        rf"(?<!various )(?<!prior )(?<!previous ){noun}",
        re.I,
    )
    sentences = split_sentences(abstract)
    found = next((s for s in sentences if made.search(s)), None)
    if found or not (
        re.search(noun, title or "", re.I) or kind == "benchmark" and _TITLED.search(title or "")
    ):
        return found
    # the title names it: the sentence saying what the paper makes ("We introduce RE-IMAGINE, a framework")
    return next((s for s in sentences if re.search(_MAKES, s, re.I)), None)


#: A title naming a benchmark ("SAEBench: ...", "AxBench: ...", "OR-Bench: ...").
_TITLED = re.compile(r"\b[\w-]*Bench\b|\bBenchmark", re.I)
