"""The names a comparison question gives its papers, with where each stands: coined names, quoted
phrases, titles written out, capitalised items listed after a name, the items of a "vs" chain, a frame's
one-word slots (:func:`name_spans`, used by :func:`paperchat.answer.mentions.split_mentions`).
"""

from __future__ import annotations

import re

from paperchat.answer import intent as it
from paperchat.answer.frames import frames

#: "ALKN (the ...)" and "FlashTP, the optimized ... library": what a name's mention adds to it.
_APPOSITIVE = re.compile(r"\s*(?:\([^)]{3,200}\)|,\s+(?:the|a|an)\s[^,.;:?()]{3,120})")
#: A paper's title given in title case after a connective or at the question's start: three capitalised words or more, with the
#: small words titles keep in lower case between them ("Backdoor Attacks in Token Selection of Attention").
_TITLE = re.compile(
    r"(?:(?<=\bwith\s)|(?<=\band\s)|(?<=\bvs\s)|(?<=\bvs\.\s)|(?<=\bversus\s)|(?<=\bto\s)|(?<=[,:]\s)"
    r"|^(?!(?:Compare|Contrast|How|What|Which|Why|Where|When|Who|Do|Does|Did|Is|Are|Can|Tell|Give|List|Name|"
    r"Explain|Summari[sz]e|Describe|In|For|On|Of|Between|Among|Both|Given|Consider|Unlike|The|A|An)\b))"
    r"[A-Z][\w'’-]*(?:\s+(?:(?:of|in|for|the|a|an|on|to|via|from|by|with)\s+)?[A-Z][\w'’-]*){2,}"
)
#: The next item of a list of names: a capitalised phrase of up to four words ("and Pareto Merging").
_LISTED = re.compile(
    r"(?:,\s+(?:and\s+)?|\s+and\s+)([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3})(?=[\s,.;:?!]|$)"
)
#: A chain of one-word items joined by "vs" that opens the question or a clause ("speedup vs FA2" inside
#: a clause compares figures, not papers), ended by punctuation or a preposition or question word.
_VS_CHAIN = re.compile(
    r"(?:(?<=^)|(?<=[(:;,.?!]\s)|(?<=\bcompare\s))[A-Za-z][\w.+-]{2,}(?:\s+(?:vs\.?|versus)\s+[A-Za-z][\w.+-]{2,})+"
    r"(?=\s*(?:[-—:,;?.]|$)|\s+(?:for|on|in|when|what|how|which|at|with)\b)",
    re.I,
)
#: The paper before "vs" that opens the question or a clause: one word, or two or three capitalised ones.
_VS_HEAD = re.compile(
    r"(?:(?<=^)|(?<=[(:;,.?!]\s))(?:[A-Za-z][\w.+-]{2,}|[A-Z][\w+-]*(?:\s+[A-Z][\w+-]*){1,2})"
    r"(?=\s+(?:vs\.?|versus)\s)"
)
#: A short acronym many papers share ("DPO", "SAEs", "GNN") ...
_ACRONYM = re.compile(r"[A-Z][A-Z0-9]{1,4}s?")
#: ... and the capitalised word right before it, which names one paper of them ("Selective DPO", "Matryoshka SAEs").
_QUALIFIER = re.compile(r"(?<![\w-])([A-Z][a-z]{3,}(?:-[A-Za-z]+)?)\s+$")
#: Capitalised words that open a question or a clause, never a qualifier of the name after them.
_NOT_QUALIFIERS = frozenset(
    "Compare Contrast Does What Which When Where Explain Describe Summarize Summarise Both Between Among "
    "Given Consider Unlike With From Into About Using Tell Give List Name Show Find".split()
)
#: One word with a capital in a frame's slot or a list ("Unifews", "am-ELO"): a name, though no coined one.
ONE_WORD = re.compile(r"(?=[\w.+-]*[A-Z])\w[\w.+-]{2,}")


def name_spans(question: str) -> list[tuple[str, int, int]]:
    """Each name of the comparison (first occurrence), with its span plus the apposition after it."""
    out = []
    for name in it.subject_names(question):
        # a quoted name where it is quoted; else where it stands as a word ("SAEs", not in "HypotheSAEs")
        quoted = re.search(rf"['\"‘“]{re.escape(name)}['\"’”]", question)
        word = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", question)
        at = quoted.start() + 1 if quoted else word.start() if word else question.find(name)
        if at < 0:
            continue
        start, end = at, at + len(name)
        if question[start - 1 : start] in "'\"‘“" and question[end : end + 1] in "'\"’”":
            start, end = start - 1, end + 1  # the quotes around a quoted name
        elif (qualified := _QUALIFIER.search(question, 0, start)) and _ACRONYM.fullmatch(name):
            if qualified.group(1) not in _NOT_QUALIFIERS:  # "Selective DPO": not any paper on DPO
                name, start = question[qualified.start(1) : end], qualified.start(1)
        tail = _APPOSITIVE.match(question, end)
        out.append((name, start, tail.end() if tail else end))
    # "Compare CROW with Backdoor Attacks in Token Selection of ...": a title written out
    for title in _TITLE.finditer(question):
        if all(not (s <= title.start() < e) for _, s, e in out):
            out.append((title.group(), title.start(), title.end()))
    # "HarmoniCa, SADA and Morse": a capitalised item listed after a name is one too
    # (after one name, an item that a comma follows: "ScMoE, Soup-of-Experts, and ...")
    for item in _LISTED.finditer(question):
        listed = {n for n, _, _ in out}
        if (
            any(e == item.start() for _, _, e in out)
            and item.group(1) not in listed
            and (len(out) >= 2 or question[item.end(1) : item.end(1) + 1] == ",")
        ):  # the item replaces a name it starts with ("Tensor-Parallel" of "Tensor-Parallel Decoding")
            out = [n for n in out if not item.start(1) <= n[1] < item.end(1)]
            out.append((item.group(1), item.start(1), item.end(1)))
    # "paperbench vs re-bench vs itbench - ...": one-word items of a "vs" chain, written in any case
    for chain in _VS_CHAIN.finditer(question):
        for item in re.finditer(r"[A-Za-z][\w.+-]{2,}", chain.group()):
            start, end = chain.start() + item.start(), chain.start() + item.end()
            if item.group().lower() not in ("vs", "vs.", "versus") and all(
                e <= start or end <= s for _, s, e in out
            ):
                out.append((item.group(), start, end))
    # "baxbench vs the insec attack", "Star Attention vs XAttention": what opens the question or a clause
    # before "vs" is a name when it is one word, or two or three capitalised ones
    for head in _VS_HEAD.finditer(question):
        if all(e <= head.start() or head.end() <= s for _, s, e in out):
            out.append((head.group(), head.start(), head.end()))
    # "How does Unifews differ from REST ...": one capitalised word in a slot of the frame is a name
    for frame in frames(question):
        for slot in ("a", "b"):
            start, end = frame.span(slot)
            if ONE_WORD.fullmatch(frame.group(slot)) and all(
                e <= start or end <= s for _, s, e in out
            ):
                out.append((frame.group(slot), start, end))
    # "HypotheSAEs, Matryoshka SAEs and FPO ... the SAE": a name inside a longer one is no paper of its own
    out = [n for n in out if not any(n[0] != o[0] and n[0] in o[0] for o in out)]
    return sorted(out, key=lambda n: n[1])
