"""Labels that name a field's term, not a paper: left out after the title an answer names a paper by.

A paper's short label (:func:`paperchat.ingest.labels.short_label`) may be an abbreviation its abstract
defines and uses, which names what it studies rather than its own method: "Rethinking Latent Redundancy in
Behavior Cloning ... (BC)", "Sparse Autoencoders, Again? (VAE)", "... Causal Graph Cut Approach (MSE)". Put
after the title, such a label reads as the paper's method name (an area chair's session, fortieth round).
A one-word label is a field's term when many stored papers write it (:data:`COMMON_LABEL_PAPERS`), or when
the words the abstract spells it out with ("behavior cloning (BC)") are held together by that many papers.
The label is still the paper's for ``--paper``, ``summarize`` and the catalog; only the answer's naming
leaves it out.
"""

from __future__ import annotations

import re

#: A label (or its spelled-out words together) written by more stored papers than this is a field's term
#: (not tuned: set before measuring, fortieth round; "VAE" 24 papers, "MSE" 10, a coined "ConfPO" 1).
COMMON_LABEL_PAPERS = 5


def spelled_out(label: str, abstract: str) -> str:
    """The words before "(LABEL)" in ``abstract`` whose initials spell ``label`` ("behavior cloning" for "BC",
    "degrees of freedom" for "DOF", small words skipped), or ``""``."""
    letters = label.rstrip("s") if re.fullmatch(r"[A-Z]{2,}s", label) else label
    if not re.fullmatch(r"[A-Z]{2,6}", letters):
        return ""
    match = re.search(
        rf"((?:[\w-]+\s+){{{len(letters)},{2 * len(letters)}}})\({re.escape(label)}\)", abstract
    )
    if not match:
        return ""
    words = match.group(1).split()
    small = {"of", "and", "the", "for", "in", "to", "a", "on"}
    for i in range(len(words) - 1, -1, -1):  # back from the parenthesis until the initials spell it
        kept = words[i:]
        every = "".join(w[0] for w in kept).upper()
        content = "".join(w[0] for w in kept if w.lower() not in small).upper()
        if letters.upper() in (every, content):
            return " ".join(kept)
        if len(content) > len(letters):
            return ""
    return ""


def field_labels(records, lexicon) -> set[str]:
    """The labels (lower case) of ``records`` (objects with ``label`` and ``abstract``) that name a field's
    term (see the module docstring); none without a ``lexicon`` (the store's BM25 index)."""
    if lexicon is None:
        return set()
    out = set()
    for record in records:
        label = record.label or ""
        if not label or " " in label:
            continue
        # a label of letters alone ("F-16" is read by its "16", which many papers write)
        one_word = re.fullmatch(r"[A-Za-z]+", label) is not None
        if (one_word and lexicon.word_df(label) > COMMON_LABEL_PAPERS) or (
            (words := spelled_out(label, record.abstract or ""))
            and lexicon.holding(lexicon.terms_of(words)) > COMMON_LABEL_PAPERS
        ):
            out.add(label.lower())
    return out
