"""The papers a comparison is about: each one retrieved on its own, so an answer can cite every one.

"How do FlatQuant and HDRQ differ?" names two papers; "the one where ..., and the one dealing with
..." describes them. One search for the whole question ranks the paper whose abstract shares most
of its words first and may leave the others out of the top-k. :func:`complete_hits` takes the
question's mentions (:func:`paperchat.answer.mentions.split_mentions`), searches each name with
the clause around it and each description on its own, and puts a paper for each among the hits
(query decomposition, as in multi-hop retrieval: Min et al. 2019, "Multi-hop Reading Comprehension
through Question Decomposition and Rescoring"). :func:`subject_papers` finds the papers of a
comparison among retrieved ones when retrieval did not mark them.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import unicodedata
from collections.abc import Callable

from paperchat.answer import intent as it
from paperchat.answer.labels import labelled_clauses
from paperchat.answer.mention_lists import Mention
from paperchat.answer.mentions import OWN_BASELINE, about_several, split_mentions, topic
from paperchat.answer.named_papers import label_named, title_head_run, written
from paperchat.core.terms import name_tokens, terms
from paperchat.retrieve.titles import head_label, titles_compared

_CLAUSE_BREAK = re.compile(
    r"\s*(?:[,;:()?]|\.\s|\s-\s|\s—\s|\band\b|\bvs\.?\b|\bversus\b|\bwhile\b|\bwhereas\b)\s*", re.I
)
#: Papers searched per named or described subject (a name takes the first that mentions it).
SUBJECT_TOP_K = 5
#: Share of a comparison's terms a second, unnamed paper must add (tuned on general-a).
COVER_MIN_NEW = 0.1


def plain(text: str) -> str:
    """``text`` lower-cased without accents ("PokéChamp": "pokechamp") or the markup splitting names ($ ^ *)."""
    return _unaccented(text.replace("$", "").replace("^", "").replace("*", "")).lower()


#: Unicode hyphens and the en dash, written "-" in names ("Schwarz–Schur" is the "Schwarz-Schur" a user types).
_DASHES = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013", "-"))


def _unaccented(text: str) -> str:
    """``text`` without accents, its hyphens and en dashes written "-" (:data:`_DASHES`)."""
    return "".join(
        c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)
    ).translate(_DASHES)


def _squash(text: str) -> str:
    """Lower case without hyphens between letters and digits ("Llama-2-7B" and "LLaMA2-7B" -> "llama27b"), nor
    the space before a version number ("MGD 3" -> "mgd3")."""
    text = re.sub(r"(?<=[a-z])\s(?=[0-9]+\b)", "", text.lower())
    return re.sub(r"(?<=[a-z0-9])-(?=[a-z0-9])", "", text)


def missing_names(question: str, texts: list[str]) -> list[str]:
    """Coined names in ``question`` that occur (as whole tokens, any case) in none of ``texts``.

    A name matches with or without its inner hyphens ("Llama-2-7B" is "LLaMA2-7B") and as the head of
    a hyphenated compound of a word ("ImageNet-trained") or a size ("ImageNet-1K"), not of a version ("KEA"
    is not "KEA-2"), and in the plural or singular ("GFlowNet" is in "GFlowNets").
    """
    raw = " ".join(texts)
    corpus = " ".join(plain(t) for t in texts)
    squashed = _squash(corpus)
    missing = []
    for name in name_tokens(question):
        # singular or plural: "GFlowNet" is in "GFlowNets", and "GFlowNets" in "GFlowNet"
        tail = r"(?:e?s)?(?:-\d+k(?![a-z0-9]))?(?![a-z0-9+]|-(?![a-z]{4,})[a-z0-9])"
        key = _unaccented(name[:-1] if len(name) > 3 and name.endswith("s") else name)
        pattern = r"(?<![a-z0-9-])" + re.escape(key.lower()) + tail
        loose = r"(?<![a-z0-9])" + re.escape(_squash(key)) + r"(?:e?s)?(?![a-z0-9+])"
        if (
            not re.search(pattern, corpus)
            and not re.search(loose, squashed)
            and not spelled_out(name, raw)
        ):
            missing.append(name)
    return missing


#: Digits that stand for words in an abbreviation ("T2I": text-to-image, "B2B").
_DIGIT_WORDS = {"2": "to", "4": "for"}


def spelled_out(name: str, text: str) -> bool:
    """Whether ``text`` spells out the abbreviation ``name`` ("t2i": "text-to-image", "ARI": "Adjusted Rand Index").

    The initials of consecutive words (a digit of :data:`_DIGIT_WORDS` matches its word) equal the
    name's letters, and the words are one hyphenated compound or all capitalised, as definitions of
    abbreviations are written (Schwartz & Hearst 2003, "A simple algorithm for identifying abbreviation
    definitions in biomedical text", match initials the same way). Names of three to five characters
    only: a shorter one is spelled out by chance too often.
    """
    key = name.lower()
    if not 3 <= len(key) <= 5 or not key.isalnum() or not key[0].isalpha():
        return False
    words = list(re.finditer(r"[A-Za-z0-9]+", text))
    # the last word may be a compound after a common prefix ("VAE": "Variational Autoencoder")
    for letters in (key, key[:-2] + "\0"):
        for i in range(len(words) - len(letters) + 1):
            run = words[i : i + len(letters)]
            if not all(_initial(w.group(), ch, key[-2:]) for w, ch in zip(run, letters)):
                continue
            hyphenated = all(text[a.end() : b.start()] == "-" for a, b in zip(run, run[1:]))
            if hyphenated or all(w.group()[0].isupper() for w in run):
                return True
    return False


#: Prefixes a compound word starts with ("Autoencoder", "Hypernetwork", "Multiagent"): its second part's
#: initial counts as a letter of an abbreviation too.
_COMPOUND_PREFIXES = tuple("auto hyper multi self cross inter super semi meta over".split())


def _initial(word: str, ch: str, last_two: str) -> bool:
    """Whether ``word`` gives the letter ``ch`` of an abbreviation (``"\0"``: the last two, ``last_two``, as a
    compound: "Autoencoder" gives "ae")."""
    low = word.lower()
    if ch == "\0":
        return any(
            low.startswith(prefix)
            and prefix[0] == last_two[0]
            and low[len(prefix) :][:1] == last_two[1]
            for prefix in _COMPOUND_PREFIXES
        )
    return low == _DIGIT_WORDS[ch] if ch in _DIGIT_WORDS else low[0] == ch


def mentions(text: str, name: str) -> bool:
    """Whether ``text`` mentions ``name``: a coined name as :func:`missing_names` matches it, else the phrase
    as whole words, a plural allowed (case and white space folded: "prox" is not in "ProxSparse")."""
    if name_tokens(name) == [name]:
        return not missing_names(name, [text])
    phrase = re.escape(" ".join(name.lower().split()))
    return bool(
        re.search(rf"(?<![a-z0-9]){phrase}(?:e?s)?(?![a-z0-9])", " ".join(plain(text).split()))
    )


def subject_papers(question: str, papers: list, intent: it.Intent) -> list[str]:
    """When the question compares several named papers that no one paper covers, the paper of each (in order).

    A paper is named by a coined name or a quoted phrase its text holds
    (:func:`paperchat.answer.intent.comparison_subjects`), or by its label.
    """
    if not it.COMPARE.search(question):
        return []
    names = it.comparison_subjects(question) or list(intent.names)
    texts = {p.paper_id: p.full_text for p in papers}
    if len(names) >= 2 and any(all(mentions(t, n) for n in names) for t in texts.values()):
        return []  # one paper holds every name
    out: list[str] = []
    for name in names:
        holder = next((pid for pid, t in texts.items() if mentions(t, name)), None)
        if holder is not None and holder not in out:
            out.append(holder)
    out += [p.paper_id for p in papers if label_named(question, p) and p.paper_id not in out]
    if len(out) < 2 and _SEVERAL.search(_OWN_BASELINE.sub(" ", question)):
        return _covering_papers(question, papers)
    return out if len(out) > 1 else []


#: A question about several papers even without their names ("X vs Y", "how do the two papers differ").
_SEVERAL = re.compile(
    r"\b(?:vs\.?|versus|compare[sd]?|contrast(?:ed|s)?|differ(?:s|ence|ences)?|which of (?:the|them|these)|"
    r"(?:two|three|both|these) (?:[\w-]+ ){0,3}?(?:papers|works|methods|approaches|studies)|"
    r"the (?:papers|works|methods|approaches|studies)|the former|the latter|"
    r"each (?:one|paper|work|method|study|approach))\b",
    re.I,
)
#: A comparison with the paper's own baseline ("compared with standard pre-training", "vs the FSL
#: baselines"): it names no second paper.
_OWN_BASELINE = re.compile(
    r"\b(?:compared? (?:with|to)|relative to|vs\.?|versus)\s+" + OWN_BASELINE, re.I
)
_THREE = re.compile(
    r"\b(?:three|3) (?:[\w-]+ ){0,3}?(?:papers|works|methods|approaches|studies)\b|\bvs\.?\b.*\bvs\.?\b",
    re.I,
)


def _covering_papers(question: str, papers: list) -> list[str]:
    """The papers a comparison is about when it gives no names: greedy cover of the question's terms.

    The first retrieved paper, then the paper holding most of the question's
    content terms the chosen ones lack (ties: retrieval share), while it adds
    at least :data:`COVER_MIN_NEW` of them; two papers, three when the question
    says three. Each paper of a comparison matches its own part of the question.
    """
    qterms = set(terms(question))
    if not papers or not qterms:
        return []
    held = {p.paper_id: qterms & set(terms(p.full_text)) for p in papers}
    chosen = [papers[0]]
    covered = set(held[papers[0].paper_id])
    for _ in range(2 if _THREE.search(question) else 1):
        gains = [
            (len(held[p.paper_id] - covered) / len(qterms), p.share, p)
            for p in papers
            if p not in chosen
        ]
        if not gains:
            break
        gain, _share, best = max(gains, key=lambda g: (g[0], g[1]))
        if gain < COVER_MIN_NEW:
            break
        chosen.append(best)
        covered |= held[best.paper_id]
    return [p.paper_id for p in chosen] if len(chosen) > 1 else []


def clause_of(question: str, name: str) -> str:
    """The clause of ``question`` that holds ``name``: the name with the words around it up to a break."""
    at = question.find(name)
    if at < 0:
        return name
    starts = [m.end() for m in _CLAUSE_BREAK.finditer(question, 0, at)]
    ends = [m.start() for m in _CLAUSE_BREAK.finditer(question, at + len(name))]
    start, end = (starts[-1] if starts else 0), (ends[0] if ends else len(question))
    return question[start:end].strip() or name


def _named_paper(question, mention, hits, retrieve, read, texts, heads):
    """The paper a named mention means: the first that mentions its name, or ``None``.

    A name that also describes its paper ("the 'price of freedom' one that compares ...") is searched
    with its description first. Otherwise the first hit that mentions it; else the first of
    :data:`SUBJECT_TOP_K` papers searched for the name alone, then for its clause, that mentions it.
    A paper whose title opens with the name ("WATCH: Adaptive ...") comes before one that mentions it
    in another case ("watch-time"), looked for in one more search if need be. (Preferring a paper whose
    title holds the name over a hit whose abstract cites it was dropped in the eleventh round: TUNING.md.)
    A title's head the name opens ("CAT Merging") is searched first, named before a paper labelled "CAT".
    """
    held = [] if mention.text != mention.name else hits
    queries = [mention.text] if mention.text != mention.name else []
    head = title_head_run(question, mention.name).lower()
    queries += [head] * bool(head) + [mention.name, clause_of(question, mention.name)]
    first = None
    for found in [held] + [None] * len(queries):
        if found is None:
            found = retrieve(queries.pop(0), SUBJECT_TOP_K)
            read(found)
        titled = [h for h in found if head and texts[h.paper_id].lower().startswith(head + ":")]
        titled += [h for h in found if heads.get(h.paper_id) == mention.name]  # or labelled by it
        labelled = next(iter(titled), None)
        if labelled is not None:
            return labelled
        if first is not None:  # one more search found no paper labelled by the name
            return first
        first = next((h for h in found if mentions(texts[h.paper_id], mention.name)), None)
        if first is not None and written(mention.name, texts[first.paper_id]):
            return first  # it writes the name as the question does: no search for a paper labelled by it
    return first


#: A relative clause set off after a name, led by a noun of its own: "LaCache, the paper that chops ...".
_SET_OFF = re.compile(r",\s+(?:the|a|an)\s+(?:[\w-]+\s+){0,3}?(?:that|which|who|where)\b", re.I)


def _set_off(
    mention: Mention, holder, retrieve: Callable[[str, int], list], shared: str
) -> list[Mention]:
    """``mention`` cut in two when its set-off clause describes another paper, else ``[mention]``.

    "LaCache, the paper that chops huge inputs into chunks ..., and the one that keeps a fixed-size
    cache ..." may be an apposition (the clause describes LaCache) or a list of three. The clause is
    searched on its own (with the question's ``shared`` topic, :data:`SUBJECT_TOP_K` papers); when the
    name's paper (``holder``) is not among them, the clause is a described paper of its own (a
    :class:`Mention` with no name) and the name stands alone. A clause that is no relative ("FlashTP,
    the optimized tensor-product library") or a parenthesis ("ALKN (the ... method)") stays the name's.
    """
    if holder is None or mention.name is None:
        return [mention]
    cut = _SET_OFF.search(mention.text, mention.text.find(mention.name) + len(mention.name))
    if cut is None:
        return [mention]
    clause = mention.text[cut.start() :].lstrip(" ,")
    if any(
        h.paper_id == holder.paper_id for h in retrieve(f"{shared} {clause}".strip(), SUBJECT_TOP_K)
    ):
        return [mention]
    at = mention.start + cut.start()
    return [
        Mention(mention.text[: cut.start()], mention.name, mention.start, at),
        Mention(clause, None, mention.end - len(clause), mention.end),
    ]


def _assign(options: list[list], taken: set[str]) -> list:
    """One paper for each description (``None`` when none is left), no paper twice nor in ``taken``.

    ``options`` are each description's searched hits, best first. Two descriptions that find the
    same paper: the one it fits better (its fused score as a share of that search's first) keeps it,
    the other takes its next best; few descriptions of :data:`SUBJECT_TOP_K` hits: tried exhaustively.
    """
    scored = [
        [(h.score / opts[0].score if opts[0].score > 0 else 0.0, h) for h in opts]
        for opts in options
    ]
    best: tuple[float, list] = (float("-inf"), [None] * len(options))
    for combo in itertools.product(*[opts + [(-1.0, None)] for opts in scored]):
        ids = [h.paper_id for _s, h in combo if h is not None]
        total = sum(score for score, _h in combo)
        if len(ids) == len(set(ids)) and not taken & set(ids) and total > best[0] + 1e-9:
            best = (total, [h for _s, h in combo])
    return best[1]


def description_query(shared: str, description: str, ask: str = "") -> str:
    """The query a described paper of a comparison is searched with: the question's ``shared`` topic
    (:func:`~paperchat.answer.mentions.topic`), the ``description`` and the clause that asks about it by label
    (:func:`~paperchat.answer.labels.labelled_clauses`), space-joined. The question encoder is trained on
    these queries too (``training/query_encoder.py``), so both build them here."""
    return " ".join(part for part in (shared.strip(), description.strip(), ask.strip()) if part)


def described_queries(question: str) -> list[tuple[int, str]]:
    """``(mention index, query)`` for each paper ``question`` describes without a name, in order
    (:func:`description_query`; empty for a question that mentions fewer than two papers)."""
    found = split_mentions(question)
    shared, asks = topic(question, found), labelled_clauses(question, found)
    return [
        (i, description_query(shared, m.text, asks.get(i, "")))
        for i, m in enumerate(found)
        if m.name is None
    ]


def complete_hits(
    question: str,
    hits: list,
    retrieve: Callable[[str, int], list],
    read_papers: Callable,
    top_k: int,
) -> list:
    """``hits`` with a paper for every paper a comparison mentions, those first (in the question's order).

    The mentions are names or descriptions (:func:`paperchat.answer.mentions.split_mentions`). A
    name keeps the first paper that mentions it (:func:`_named_paper`; two names one paper holds
    are one paper); each description gets a paper of its own (:func:`_assign`) from its own search (with the
    question's :func:`~paperchat.answer.mentions.topic`).
    In a question about several papers (:func:`paperchat.answer.mentions.about_several`) each
    mentioned paper is marked with its mention (``Hit.mention``: the answerer then quotes each one).
    Mentioned papers are ranked with the question's best score. ``retrieve(query, k)`` returns hits
    (objects with ``paper_id`` and ``score``); ``read_papers(ids)`` the stored records by id (with
    ``title`` and ``abstract``). Other hits follow, to ``top_k`` papers (never fewer than the
    mentioned ones). Questions that do not mention two or more papers get ``hits`` unchanged.
    """
    found = split_mentions(question)
    if not found:  # "How do <title> and <title> differ?": no name, two quoted titles
        return titles_compared(question, hits, read_papers) if it.COMPARE.search(question) else hits
    texts: dict[str, str] = {}
    heads: dict[str, str] = {}  # each read paper's label when its title opens with it (head_label)

    def read(more: list) -> None:  # the papers' texts, one store read for all that are not read yet
        new = [h.paper_id for h in more if h.paper_id not in texts]
        records = read_papers(new) if new else {}
        texts.update({pid: r.full_text if (r := records.get(pid)) else "" for pid in new})
        heads.update({pid: head_label(records[pid]) if pid in records else "" for pid in new})

    read(hits)
    shared = topic(question, found)
    resolved: list[tuple[Mention, object]] = []  # each mention, and the paper its name names
    for m in found:
        holder = _named_paper(question, m, hits, retrieve, read, texts, heads) if m.name else None
        parts = _set_off(m, holder, retrieve, shared)
        resolved += [(parts[0], holder)] + [(part, None) for part in parts[1:]]
    found = [m for m, _ in resolved]
    chosen: dict[int, object] = {}
    for i, (_m, holder) in enumerate(resolved):
        if holder is not None and all(h.paper_id != holder.paper_id for h in chosen.values()):
            chosen[i] = holder
    described = [i for i, m in enumerate(found) if m.name is None]
    asks = labelled_clauses(question, found)  # "what does B use instead of the missing data"
    options = [
        retrieve(description_query(shared, found[i].text, asks.get(i, "")), SUBJECT_TOP_K)
        for i in described
    ]
    taken = {h.paper_id for h in chosen.values()}
    chosen.update({i: h for i, h in zip(described, _assign(options, taken)) if h is not None})
    if len(chosen) < 2:
        return hits
    top = max((h.score for h in hits), default=1.0)
    mark = about_several(question, found)
    held = {h.paper_id: h for h in hits}
    named = [  # a paper found by its own search is ranked with the question's best
        dataclasses.replace(
            held.get(chosen[i].paper_id) or dataclasses.replace(chosen[i], score=top),
            mention=found[i].text if mark else "",
        )
        for i in sorted(chosen)
    ]
    rest = [h for h in hits if all(h.paper_id != n.paper_id for n in named)]
    return named + rest[: max(0, top_k - len(named))]
