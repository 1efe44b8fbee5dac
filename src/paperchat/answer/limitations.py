""" "What are the limitations of ConfPO?": a paper's own limitations, which its abstract seldom states.

Abstracts describe what a paper does and what it beats; a sentence naming the limitations of *prior*
work ("To address this limitation, we propose ...") is not the paper's own. Of the 2,732 ICML 2025
abstracts, about 170 have a sentence that pairs a limitation word with "we"/"our" and no word for other
work, and read by hand, almost all of those are still a method's motivation or a gap it fills ("...
remains open"). So a question asking for the limitations of a paper it names abstains, with a note that
abstracts seldom state them, rather than quoting the method sentences a relevance ranking would pick
(they had read as the answer). A question about a topic's limitations ("What are the limitations of
diffusion models?") is answered as any other: papers state the limits of the work they improve on.
"""

from __future__ import annotations

import re

#: A question asking for a paper's weak points ("limitations", "drawbacks", "failure modes", "downsides"),
#: not for the weakness of other work it addresses ("Which limitation of DPO does ConfPO address?").
_WEAK = (
    r"(?:limitations?|weakness(?:es)?|weak\s+(?:points?|spots?)|drawbacks?|shortcomings?|downsides?|"
    r"failure\s+(?:modes?|cases?)|caveats?|disadvantages?|cons|pitfalls?)"
)
_ASKS = re.compile(
    rf"\b(?:what|which)\s+(?:are|is|were|was)\s+(?:the\s+|its\s+|their\s+)?(?:\w+\s+)?{_WEAK}\b"
    rf"|\b{_WEAK}\s+(?:of|does|do|did)\b|\b(?:has|have|had)\s+(?:any\s+)?(?:\w+\s+)?{_WEAK}\b"
    rf"|(?:'s|’s|\bits|\btheir)\s+(?:\w+\s+)?{_WEAK}\b"
    r"|\b(?:where|when|how|why)\s+(?:does|do|did|might|can|could|would)\s+\S+(?:\s+\S+)?\s+"
    r"(?:fail|break\s+down|struggle|fall\s+short)\b"
    # "What's the catch with QuantSpec?" (a practitioner's session had its speedups quoted)
    r"|\bthe\s+catch\s+(?:with|in|of|to)\b",
    re.I,
)
_ADDRESSED = re.compile(
    r"\b(?:address|overcome|solve|fix|tackle|mitigate|remedy|alleviate|avoid|resolve|handle|target|"
    r"motivat|improv|compar|differ|versus|vs\.?)\w*|\bof\s+(?:existing|prior|previous|current|standard|"
    r"conventional|traditional|earlier|other|the\s+(?:baseline|prior|previous|existing))\b",
    re.I,
)
#: The note of the abstention: where a paper's limitations are written instead.
LIMITS_NOTE = (
    "its abstract states no limitation of its own (abstracts seldom do); the paper's discussion or "
    "conclusion is where to look"
)


def asks_limitations(question: str) -> bool:
    """Whether ``question`` asks for a paper's own limitations ("What are the limitations of ConfPO?",
    "Does FlipAttack have drawbacks?"), not for the prior work's a paper addresses."""
    return bool(_ASKS.search(question)) and not _ADDRESSED.search(question)


def limited_paper(names, papers: list, by_name: list):
    """The one paper a limitations question is about (:class:`~paperchat.answer.focus.PaperText` s in rank
    order): the one ``by_name`` holds (named by its label or its title's head), else of the papers that write
    every coined name of ``names``, the first that introduces the first name ("we propose HippoRAG 2",
    named in its abstract only) or the first; else the only paper given (a chat follow-up's "what about its
    limitations?"); ``None`` for a topic's limitations ("of diffusion models")."""
    named = list(by_name)
    if len(named) != 1 and names:
        low = [n.lower() for n in names]
        writing = [p for p in papers if all(n in p.full_text.lower() for n in low)]
        # the paper that introduces the name before one that compares with it
        intro = rf"\b(?:propos|introduc|present|call|dub|nam)\w*\b[^.]{{0,80}}\b{re.escape(low[0])}"
        named = sorted(writing, key=lambda p: not re.search(intro, p.full_text.lower()))[:1]
    if len(named) == 1:
        return named[0]
    return papers[0] if len(papers) == 1 else None
