"""Which retrieved papers an answer may quote: the names a question gives (coined names, capitalised
words) checked against each paper's title and abstract.

A question that names something no retrieved paper mentions, or asks a figure of a named paper under
other names the paper lacks, gets no papers (the answerer abstains); see :func:`focus_papers`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperchat.answer import intent as it
from paperchat.answer.asks import asks_which_paper
from paperchat.answer.clauses import split_clauses
from paperchat.answer.named_papers import label_named, written
from paperchat.answer.subjects import mentions, missing_names, plain
from paperchat.core.terms import terms
from paperchat.retrieve.titles import head_names, named_by_head, titled

#: Content terms (besides the missing names) from which a question describes its paper well enough that a name no
#: retrieved paper holds is incidental, not the subject (tuned on general-a and conference dev: 24+ vs at most 16).
INCIDENTAL_NAME_TERMS = 20


@dataclass(frozen=True)
class PaperText:
    """A retrieved paper as the answerer sees it: id, title and abstract, paper cosine, and its retrieval
    share: its fused score min-max scaled over the retrieved papers (1 for the first, 0 for the last);
    ``score`` is the fused score itself (0 when not known)."""

    paper_id: str
    title: str
    abstract: str
    cos: float
    share: float
    label: str = ""
    mention: str = ""  # how a comparison mentions this paper (``Hit.mention``), else ""
    score: float = 0.0

    @property
    def full_text(self) -> str:
        """The title and the abstract, one line break between them (what name and term checks read)."""
        return f"{self.title}\n{self.abstract}"


_PROPER = re.compile(r"(?<=[\w,;)\]] )[A-Z][a-z]{2,}(?:-[A-Za-z]+)?\b")
_NOT_PROPER = frozenset(
    """What Which Who Whom Whose When Where Why How Does Do Did Is Are Was Were Can Could Would Should Will
    The This That These Those There Their They Its And But For With Without From Into Onto About Between Under Over Summarize
    Give Tell Explain Describe List Compare Name Show Find Please""".split()
)


def proper_nouns(text: str) -> list[str]:
    """Capitalised words inside a sentence (not its first word): "Atari", "Breakout", "Kenya" (in order, no repeats)."""
    out: list[str] = []
    for word in _PROPER.findall(text.replace("*", "")):
        if word not in _NOT_PROPER and word not in out:
            out.append(word)
    return out


def partial_proper_nouns(question: str, papers: list[PaperText]) -> bool:
    """Whether the papers together hold some but not all of the question's capitalised names ("Atari
    Breakout"): one paper, or the papers a comparison's mentions found."""
    nouns = proper_nouns(question)
    text = " ".join(plain(p.full_text) for p in papers).replace("-", " ")
    held = [
        n for n in nouns if n.lower().replace("-", " ") in text
    ]  # "Gaussian-process": "Gaussian process"
    return bool(held) and len(held) < len(nouns)


def focus_papers(
    question: str, papers: list[PaperText], intent: it.Intent
) -> list[PaperText] | None:
    """The papers the answer may quote: those that mention every name the question gives (``None``: abstain).

    A question that quotes a paper's title (:func:`paperchat.retrieve.titles.titled`) and compares nothing
    gets that paper. Without names, or in a comparison whose papers retrieval matched to its mentions
    (:func:`paperchat.answer.subjects.complete_hits`), every paper may be quoted. A question that names
    something no retrieved paper mentions gets ``None``, unless it describes
    its paper in :data:`INCIDENTAL_NAME_TERMS` other content terms or more; so does a question
    about one named paper that asks for a figure under other names (a
    dataset, a metric) the paper does not mention.
    """
    if sum(bool(p.mention) for p in papers) >= 2:
        # a comparison's mentioned papers each answer for themselves, as do the papers a chat follow-up
        # refers to ("what do the first two propose?", put in the query by title)
        return papers
    quoted = titled(question, {p.paper_id: p.title for p in papers})
    if quoted and not it.COMPARE.search(question):
        return [p for p in papers if p.paper_id in quoted]  # a pasted title names its paper
    # "What is WATCH?": the paper whose title opens with the name, though its abstract may not say it
    by_id = {p.paper_id: p for p in papers}
    labelled = named_by_head(head_names(question), by_id)
    one = by_id[labelled[0]] if len(labelled) == 1 else None
    if one and set(intent.names) <= {one.label} and not it.COMPARE.search(question):
        return [one]
    if not intent.names:
        # "xattention speedup?": a coined label typed in lower case names its paper too
        typed = [
            p for p in papers if _coined(p.label) and written(p.label.lower(), question.lower())
        ]
        # a listing ("Which papers propose tree-sliced ...?") is about a topic, not one paper
        listing = intent.kind == it.FIND and intent.plural
        return typed if len(typed) == 1 and not (listing or it.COMPARE.search(question)) else papers
    texts = [p.full_text for p in papers]
    subjects = it.comparison_subjects(question)
    if (
        subjects
        and all(any(mentions(t, n) for t in texts) for n in subjects)
        and not any(all(mentions(t, n) for n in subjects) for t in texts)
    ):
        return papers  # "How do ALKN and 'mechanistic unlearning' differ?": each named paper answers for itself
    # "What is new in WeGeFT compared to LoRA?": WeGeFT's abstract writes its baseline too, so the papers
    # holding every name answer (it had quoted SeedLoRA, a paper on LoRA), as subject_papers reads it
    missing = missing_names(question, texts)
    if (
        missing
        and len(set(terms(question)) - {m.lower() for m in missing}) >= INCIDENTAL_NAME_TERMS
    ):
        return papers  # a long description names the paper; a name it lacks is the asker's word ("ChatGPT usage")
    if missing:
        return None
    holding = [p for p, t in zip(papers, texts) if not missing_names(question, [t])]
    # "How does PID work?": the paper writing "PID" as asked, not the one named "PiD" (a short name's capitals
    # tell acronyms apart; a longer one's are style: "signSGD" is "SIGNSGD")
    short = [n for n in intent.names if len(n) <= 5]
    exact = [p for p in holding if all(written(n, p.full_text) for n in short)]
    holding = exact if short and exact else holding
    if holding:
        named = [
            p for p in papers if p not in holding and label_named(question, p)
        ]  # "Habi and SafeDiffCon ..."
        return (
            holding
            + named
            + (
                [p for p in papers if p not in holding + named]
                if intent.kind == it.FIND and intent.plural
                else []
            )
        )
    held = [n for n in intent.names if any(not missing_names(n, [t]) for t in texts)]
    by_paper = {
        p.paper_id for p, t in zip(papers, texts) for n in intent.names if not missing_names(n, [t])
    }
    several = (
        len(by_paper) > 1
        and len(held) == len(intent.names)
        and (it.COMPARE.search(question) or names_apart(question, intent.names))
    )  # "Compare A and B"; "what does A draw on, and on which datasets does B report?"
    subject = [
        p
        for p, t in zip(papers, texts)
        if intent.subject and not missing_names(intent.subject, [t])
    ]
    if (
        subject
        and not several
        and intent.kind in (it.QUANTITY, it.ENTITY, it.DEFINE, it.SUMMARY, it.AUTHORS, it.TITLE)
    ):
        return (
            None  # "What ARI does Spotscape reach on DLPFC?": Spotscape's abstract names no DLPFC
        )
    if (
        subject
        and not several
        and _asks_yes_no_of(question, intent.subject or "")
        and not any(label_named(question, p) for p in papers if p not in subject)
    ):
        # "Does ConfPO use LoRA adapters?": ConfPO answers, not a paper on LoRA (a name no other retrieved
        # paper is labelled by is the asker's word for a technique)
        return subject
    return papers


def _asks_yes_no_of(question: str, name: str) -> bool:
    """Whether ``question`` asks yes or no with ``name`` as its grammatical subject ("Does ConfPO use ...?")."""
    aux = r"(?:does|did|do|is|was|are|can|could|will|would|has|have)\s+"
    return (
        bool(name)
        and re.match(aux + re.escape(name) + r"(?![\w-])", question.strip(), re.I) is not None
    )


def names_apart(question: str, names: tuple[str, ...]) -> bool:
    """Whether ``question``'s clauses (:func:`paperchat.answer.clauses.split_clauses`) hold its names apart:
    two clauses with a name each and no clause with them all, as asks about two papers are written."""
    clauses = split_clauses(question)
    named = [{n for n in names if n in c} for c in clauses]
    return sum(bool(ns) for ns in named) >= 2 and all(len(ns) < len(names) for ns in named)


def _coined(label: str) -> bool:
    """Whether ``label`` is a coined name of six characters or more in mixed case ("XAttention", "ConfPO"), which
    typed in lower case is still that name (not "CROW", "Flow" or "Tree-Sliced", which are words too)."""
    inner = [c for i, c in enumerate(label) if i and c.isupper() and label[i - 1] not in "- "]
    return len(label) >= 6 and any(c.islower() for c in label) and bool(inner)


#: Off-topic test, over corpora of at least OFF_TOPIC_MIN_PAPERS papers: the question has a content word
#: that no paper it would quote holds (the answerer also asks that no sentence is close: ``OFF_TOPIC_COS``).
OFF_TOPIC_MIN_PAPERS = 500
RARE_SHARE = 0.004  # a word held by at most this share of the papers is distinctive
#: Question words that no abstract of the corpus uses (not misspellings of one) that make a topic absent
#: even when another distinctive word occurs in a retrieved paper (general-d, -j, conference dev).
UNUSED_WORDS = 2


#: Words that name the corpus a question is about ("Which ICML 2025 paper ..."), never its topic: the few
#: abstracts that mention a venue make them rare, not distinctive.
VENUE_WORDS = "ICML NeurIPS ICLR conference proceedings"


def off_topic(question: str, papers: list[PaperText], lexicon, n_papers: int) -> bool:
    """Whether none of the question's distinctive words (held by few papers, or by none) occurs in ``papers``
    (two of them, or one no abstract uses that the question writes as a name: "CVEs"), or
    :data:`UNUSED_WORDS` of them occur in no paper of the corpus at all.

    ``lexicon`` is the store's BM25 index (``rare_terms``, ``terms_of``, ``df``) or ``None``; ``n_papers``
    the corpus size (below :data:`OFF_TOPIC_MIN_PAPERS`: never off-topic). A misspelt word counts as the
    word it misspells (:meth:`paperchat.store.bm25.BM25Index.rare_terms`).
    """
    if lexicon is None or n_papers < OFF_TOPIC_MIN_PAPERS:
        return False
    # "which ICML 2025 paper": the corpus, not its topic
    venue = set(lexicon.tokenize([VENUE_WORDS])[0])
    rare = [
        t
        for t in lexicon.rare_terms(question, max(2, int(n_papers * RARE_SHARE)))
        if t not in venue
    ]
    held = set().union(*(lexicon.terms_of(p.full_text) for p in papers))
    unused = [t for t in rare if lexicon.df.get(t, 0) == 0]
    if len(unused) >= UNUSED_WORDS:
        return True  # "handwritten ... manuscripts ... scribe": a topic no abstract is about
    if not rare or set(rare) & held:
        return False
    # one uncommon word alone may be a paraphrase's; one no abstract uses is an absent thing when the asker
    # writes it as a name ("CVEs"), not a word of their own ("a privacy attack roundup")
    return len(rare) >= 2 or (
        lexicon.df.get(rare[0], 0) == 0
        and (
            _written_as_name(question, rare[0], lexicon)
            or _names_a_field(question, rare[0], lexicon)
        )
    )


#: A science's or its object's name by its ending: "metabolomics", "microbiome", "seismology", "endoscopy".
_FIELD_NOUN = re.compile(r"\w{3,}(?:omics|omes?|olog(?:y|ies)|oscopy)", re.I)


def _names_a_field(question: str, term: str, lexicon) -> bool:
    """Whether a word of ``question`` that gives the BM25 ``term`` names a field of science or its object
    (:data:`_FIELD_NOUN`): no abstract using it is a field the corpus does not cover, as a name no abstract
    uses is (a domain scientist's "Which papers analyze metabolomics data?" had quoted a graph-prompt
    paper; not tuned on any eval set)."""
    words = re.findall(r"[\w-]+", question)
    return any(_FIELD_NOUN.fullmatch(w) and term in lexicon.tokenize([w])[0] for w in words)


def _written_as_name(question: str, term: str, lexicon) -> bool:
    """Whether a word of ``question`` that gives the BM25 ``term`` has a capital after its first letter or a
    digit ("CVEs", "K2IE"), as names and acronyms are written."""
    words = re.findall(r"[\w-]+", question)
    return any(
        term in lexicon.tokenize([w])[0]
        for w in words
        if any(c.isupper() for c in w[1:]) or any(c.isdigit() for c in w)
    )


#: A "which paper ...?" question whose first retrieved paper leads the second (second's fused score at most
#: this share of the first's) is answered from it even when the asker's words occur in no abstract
#: ("sprinkling little pictographs" for emojis): a clear winner is retrieval's answer to a which-paper
#: question, where an absent topic retrieves a flat list (general-e, -f and conference dev: answerable
#: 0.80, 0.88; unanswerable 0.91 and above).
WHICH_PAPER_LEAD = 0.9


def clear_winner(intent: it.Intent, papers: list[PaperText], question: str) -> bool:
    """Whether a "which paper ...?" question (one paper asked for; or ``question`` asks which paper beside
    another ask, :func:`paperchat.answer.asks.asks_which_paper`: "Which paper found that, and how big
    was the improvement?") retrieved a clear first paper (:data:`WHICH_PAPER_LEAD`)."""
    which = intent.kind == it.FIND or asks_which_paper(question)
    if not which or intent.plural or len(papers) < 2 or papers[0].score <= 0:
        return False
    return papers[1].score <= WHICH_PAPER_LEAD * papers[0].score
