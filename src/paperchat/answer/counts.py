"""The sentences that count what a "how many / how much X" question asks about.

"How many problems does the benchmark hold?" is answered by a sentence that
holds a number and the counted noun ("problems"); without one, the answerer
abstains. The noun is matched as the question writes it, as the longer word
it abbreviates when no paper of the corpus uses it ("mem" for "memory",
"params" for "parameters"), and as the word it misspells ("activaton"), read
with the store's BM25 index (:meth:`paperchat.store.bm25.BM25Index.respelled`).

"What value of the discount factor did they use?" and "what LoRA rank did they
use?" ask for a setting's value (:func:`paperchat.answer.intent.setting_noun`):
abstracts rarely give one, so a sentence must hold a number and the setting.
"""

from __future__ import annotations

from paperchat.answer import intent as it
from paperchat.core.terms import terms


def names_noun(text: str, noun: str, abbreviation: bool) -> bool:
    """Whether ``text`` holds the content term ``noun``, or, for an ``abbreviation`` (a word no paper of the
    corpus uses, such as "mem" or "params"), a longer word it starts ("memory", "parameters")."""
    held = terms(text)
    return noun in held or abbreviation and len(noun) >= 3 and any(t.startswith(noun) for t in held)


def counting_sentences(cands: list, noun: str, lexicon) -> list:
    """The candidates (objects with ``text``) that hold a number (or LaTeX: "$d$ random bits") and ``noun``.

    ``lexicon`` is the store's BM25 index (``df``, ``tokenize``, ``respelled``, ``terms_of``), or ``None``
    (then the noun is matched as written only).
    """
    unknown = (  # the noun as the index reads it, when no paper uses that word
        [t for t in lexicon.tokenize([noun])[0] if not lexicon.df.get(t, 0)]
        if lexicon is not None
        else []
    )
    respelled = {r for t in unknown for r in lexicon.respelled(t)}  # "activaton" -> "activ"
    return [
        c
        for c in cands
        if (
            names_noun(c.text, noun, bool(unknown))
            or respelled
            and respelled & lexicon.terms_of(c.text)
        )
        and (it.holds_number(c.text) or "$" in c.text)
    ]


def value_sentences(cands: list, setting: str, lexicon) -> list:
    """The candidates that hold a number and every content term of ``setting`` ("discount factor": both words;
    matched as :func:`counting_sentences` matches a counted noun)."""
    words = terms(setting)
    if not words:
        return []
    held = counting_sentences(cands, words[-1], lexicon)
    return [c for c in held if set(words[:-1]) <= set(terms(c.text))]
