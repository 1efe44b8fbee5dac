"""The offline answerer's choice of sentences: what to quote from the retrieved abstracts, or to abstain.

Every sentence of the top papers is scored against the question (:mod:`paperchat.answer.candidates`):
``0.55 * cosine(question, sentence) + 0.30 * term overlap + 0.15 * paper cosine`` (term overlap: the
share of the question's content terms the sentence holds); a question that describes its paper before
it asks (:mod:`paperchat.answer.asks`) adds ``ASK_WEIGHT`` x the share of the ask's terms the sentence
holds, so the sentence that answers outranks the ones that restate the description; then moved by what
the question asks (:mod:`paperchat.answer.intent`, :func:`paperchat.answer.roles.role_shift`): a sentence
holding a number for "how many", names for "which datasets", a result for "how does A compare", the
defining sentence for "what is X"; background sentences (the premise a paper argues against) and code
links sink. Selection, best first, skips near-duplicates of a picked sentence (cosine above 0.85:
maximal marginal relevance in the spirit of Carbonell & Goldstein 1998):

* a question about one paper quotes that paper (up to ``MAX_SENTENCES``); another paper's sentence
  only when it scores nearly as well (``OTHER_PAPER_RATIO``), so it also answers;
* "Which papers ..." takes the best sentence of every paper :mod:`paperchat.answer.lists` lists;
* "Which paper ...?" that gives a figure ("a 7x speedup") quotes the retrieved paper stating it, that
  sentence first (:mod:`paperchat.answer.figures`);
* "Which paper ...?", and a clause asking which method, add the sentence that names the paper's method
  (:func:`paperchat.answer.method_span.proposal`); a list that comes down to one paper is answered as that paper;
* each clause of a question in several clauses ("..., and finds that ...") adds its own best sentence
  (:mod:`paperchat.answer.clauses`);
* a comparison quotes each paper it mentions for itself (:mod:`paperchat.answer.compared`); its ask of
  several questions gives each question the sentence of the paper that fits it best;
* "How does X work?" (for a comparison, "how does each ...?") adds the sentences of X's method, after
  its proposal and before its evaluation (:mod:`paperchat.answer.method_span`), from X alone;
* a picked sentence that points back ("the two techniques above") brings the sentences before it; the
  sentence holding the asked head leads (:mod:`.asked_head`), or the one deciding a yes/no (:mod:`.yes_no`).

It abstains (:class:`Extract` ``abstained``) when the best sentence is not relevant enough
(``ABSTAIN_BELOW``); when the question names something (``KEA-2``, ``ImageNet``) no retrieved paper
mentions, or asks a figure of a named paper that lacks the figure's other names; when it asks for a number
(of a comparison: in none of its papers; "..., in bits?" asks for one), a setting's value ("what LoRA rank")
or a detail ("GPUs") no relevant sentence holds (a dataset: none where it is evaluated), or which model
was used and the abstract names none (:mod:`paperchat.answer.model_names`); when it asks "how much / how large / what accuracy" of one paper
whose abstract states no such number (:func:`paperchat.answer.counts.amount_sentences`: "by how much" asks a
change, a ratio or percentage; when the picked sentences state none but another sentence does, that one is
quoted first); when the abstract reverses or denies its premise
(:func:`paperchat.answer.premises.reversed_direction`, :func:`paperchat.answer.premises.denied_terms`); and, over a large
corpus, when its distinctive words occur in no paper at all (:func:`paperchat.answer.focus.off_topic`). The
constants were set on the tuning sets (eval/generalization/TUNING.md, "Tuned constants").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from paperchat.answer import counts
from paperchat.answer import intent as it
from paperchat.answer.asked_head import asked_head, head_first
from paperchat.answer.asks import split_ask
from paperchat.answer.candidates import DUPLICATE_COS, Candidate, focus_paper, pick, score_sentences
from paperchat.answer.clauses import (
    clause_cover,
    with_antecedents,
)
from paperchat.answer.compared import PER_SUBJECT, subject_sentences
from paperchat.answer.counts import amount_sentences, counting_sentences, value_sentences
from paperchat.answer.entity_asks import asked_entity, named_first, names_something_new
from paperchat.answer.figures import figure_first, given_figures, states_figures
from paperchat.answer.focus import (
    PaperText,
    clear_winner,
    focus_papers,
    off_topic,
    partial_proper_nouns,
)
from paperchat.answer.lists import list_sentences
from paperchat.answer.method_span import asks_how_named, asks_which_one, method_span, proposal
from paperchat.answer.model_names import asked_model, model_first, names_a_model
from paperchat.answer.named_papers import label_named
from paperchat.answer.premises import asks_yes_no, denied_phrase, denied_terms, named, reversal_note
from paperchat.answer.rates import rate_first
from paperchat.answer.sentences import SentenceIndex
from paperchat.answer.subjects import missing_names, subject_papers
from paperchat.answer.yes_no import deciding_first
from paperchat.core.terms import terms

#: Setting nouns that also name results ("success rate", "win probability": :func:`~paperchat.answer.intent.setting_noun`).
RESULT_SETTINGS = frozenset({"rate", "probability"})
MAX_SENTENCES = 3
ABSTAIN_BELOW = 0.27
#: Words of a question that asks only to compare the papers it names.
_COMPARING_WORDS = frozenset("compare contrast differ difference vs versus both".split())
MAX_PAPERS = 3
#: An ask for a paper's results, which its abstract may give in words: "what (main) results does X report?".
_RESULTS_ASKED = re.compile(r"\bwhat (?:[\w-]+\s+)?(?:results?|findings?|outcomes?)\b", re.I)
#: Off-topic test (:func:`paperchat.answer.focus.off_topic`) only when the best sentence's cosine is below this.
OFF_TOPIC_COS = 0.56


@dataclass
class Extract:
    """The picked sentences (in answer order), the relevance used for abstention, and whether it abstained.

    ``why`` says why it abstained; ``note`` (an abstention's) tells the user which premise of the question fails.
    """

    sentences: list[Candidate]
    relevance: float
    abstained: bool
    why: str = ""
    #: for the reader: a premise of the question that the abstract reverses (it abstained) or denies
    note: str = ""
    #: the sentences answer for the papers a comparison mentions, each in turn
    per_paper: bool = False
    #: the paper an abstention is about (a detail its abstract does not give), for the reader's pointer
    paper: str = ""


def extract(
    question: str,
    qvec: np.ndarray,
    papers: list[PaperText],
    index: SentenceIndex,
    n_papers: int = 0,
    lexicon=None,
    intent: it.Intent | None = None,
) -> Extract:
    """Pick answer sentences from ``papers`` (best first), or abstain (see the module docstring).

    ``n_papers`` is the size of the corpus; ``lexicon`` (the store's BM25
    index: ``rare_terms(question, max_df)``, ``terms_of(text)``) tells the
    question's distinctive words, for the off-topic test.
    """
    intent = intent or it.read_question(question)
    focus = focus_papers(question, papers, intent)
    if focus is None:
        # a paper the question names by its label is found: say what its abstract lacks
        holder = next((p for p in papers if p.label and p.label in intent.names), None)
        lacks = missing_names(question, [holder.full_text]) if holder else []
        return Extract(
            [],
            0.0,
            True,
            f"the abstract does not mention {', '.join(lacks)}"
            if lacks
            else "the question names something the retrieved papers do not mention",
            paper=holder.paper_id if lacks else "",
        )
    # "Which paper achieves a 7x speedup ...?": the retrieved paper stating the figure, as a name would
    figures = given_figures(question) if intent.kind == it.FIND and not intent.plural else []
    # (of all retrieved: "2.1x ... with TinyLLaMA" is stated beside "TinyLLaMA-1.1B", a version, no name match)
    focus = [p for p in papers if states_figures(p.full_text, figures)] or focus
    if not (
        intent.kind == it.FIND and intent.plural
    ):  # a comparison quotes every paper it mentions
        focus = focus[: max(MAX_PAPERS, sum(bool(p.mention) for p in focus))]
    cands = score_sentences(question, qvec, focus, index, intent)
    if not cands:
        return Extract([], 0.0, True, "no sentence to quote")
    relevance = max(c.base for c in cands)
    named_each = sum(bool(p.mention) for p in focus) >= 2
    # the one paper a question names by label ("What is WATCH?") is relevant, as are the papers a question
    # that asks only to compare them names ("Compare DISCO and WATCH."), each found by its own search
    by_label = len(focus) == 1 and label_named(question, focus[0])
    mentioned = {t for p in focus if p.mention for t in terms(p.mention)}
    bare = named_each and not set(terms(question)) - mentioned - _COMPARING_WORDS
    if relevance < ABSTAIN_BELOW and not (asks_how_named(intent, focus[0]) or bare or by_label):
        return Extract([], relevance, True, "nothing retrieved is relevant enough")
    main = focus_paper(cands, focus)
    main_paper = next(p for p in focus if p.paper_id == main)
    # a comparison's distinctive words are spread over its papers; papers its mentions found each by
    # their own search are on topic by construction
    comparing = it.COMPARE.search(question) is not None
    compared = focus[:MAX_PAPERS] if comparing else [main_paper]
    if (
        not named_each
        and not clear_winner(intent, papers, question)
        and max(c.cos for c in cands) < OFF_TOPIC_COS
        and off_topic(question, compared, lexicon, n_papers)
    ):
        return Extract(
            [], relevance, True, "the question's distinctive words occur in no retrieved paper"
        )
    # a comparison's names are spread over the papers its mentions found, each by its own search
    named_in = [p for p in focus if p.mention] if named_each else [main_paper]
    if intent.kind in (it.QUANTITY, it.ENTITY) and partial_proper_nouns(question, named_in):
        why = "the paper does not mention some of the names the question asks about"
        return Extract([], relevance, True, why)
    count_noun = it.counted_noun(question)
    # "how many papers ..." is about the corpus, not in any abstract; not "How many papers must agents
    # replicate in PaperBench?", asked of a paper its label names
    if count_noun in it.CORPUS_NOUNS and not label_named(question, main_paper):
        return Extract([], relevance, True, "a count of papers is not in any abstract")
    own = [c for c in cands if c.paper_id == main]
    mentioned = [p.paper_id for p in focus if p.mention]
    # a comparison's count or value may come from any paper it mentions ("which one embeds more bits?")
    pool = [c for c in cands if c.paper_id in mentioned] if len(mentioned) >= 2 else own
    counted = (
        counting_sentences(
            pool,
            count_noun,
            lexicon,
            it.asks_how_many(question),
            counts.given_numbers(question),
            frozenset().union(
                *(counts.defined_abbreviations(p.abstract, count_noun) for p in focus)
            ),
        )
        if count_noun
        else []
    )
    counted = counts.evaluated_first(counted, question)
    if count_noun and not counted and not counts.one_ask_of_several(question, len(mentioned)):
        return Extract(
            [], relevance, True, f"no sentence gives a number of {count_noun}", paper=main
        )
    model = None if intent.kind == it.FIND or named_each else asked_model(question)
    if model and not names_a_model(main_paper.full_text, model):
        return Extract([], relevance, True, f"the abstract names no {model}", paper=main)
    # one paper's named thing or setting value; a comparison's asks are answered each from its own paper
    split = split_ask(question)
    one = intent.kind != it.FIND and len(mentioned) < 2
    entity = asked_entity(split.sentence) if one else None
    if (
        entity
        and not any(  # the paper it is about, or one the question names ("... does Ex-VAD use?")
            names_something_new(p.abstract, f"{question}\n{p.title}", entity)
            for p in focus
            if p is main_paper or p.mention or (p.label and p.label in intent.names)
        )
    ):
        return Extract([], relevance, True, f"the abstract names no {entity}", paper=main)
    setting = it.setting_noun(question)
    if setting and len(mentioned) >= 2 and setting.split()[-1].lower() in RESULT_SETTINGS:
        setting = None  # "what success rate does the first report": a comparison's result, asked of one paper
    if setting and not value_sentences(pool, setting, lexicon):
        return Extract(
            [], relevance, True, f"no sentence gives a value of the {setting}", paper=main
        )
    # not one a sentence before it names, nor one a "which paper" question describes its paper with
    detail = it.detail_asked_in(split.sentence, intent.detail, intent.kind == it.FIND)
    # a comparison's detail may be any of its papers' ("which one runs on a single consumer GPU": MERGE3's)
    if detail and not any(it.holds_detail(c.text, detail) for c in pool):
        return Extract([], relevance, True, f"the abstract does not give the {detail}", paper=main)
    subjects = mentioned if len(mentioned) >= 2 else subject_papers(question, focus, intent)
    one_paper = not (subjects or intent.plural)
    # "does it add overhead?" is answered "no" by a denial: it presupposes nothing
    denied = (
        denied_terms(split.ask, main_paper.full_text)
        if one_paper and not asks_yes_no(question) and intent.kind != it.FIND
        else []
    )
    reversal = (
        reversal_note(question, main_paper, lexicon and lexicon.word_df, intent.kind == it.FIND)
        if one_paper
        else ""
    )
    # "how does VISTA end up increasing hallucination?" where VISTA "reduces hallucination"
    if reversal:
        return Extract(
            [], relevance, True, "the abstract does not bear out the question's premise", reversal
        )
    # "which draft model ...?" where the paper "does not require any draft models": the question's premise
    # fails (a note only from the tenth round to the twenty-ninth; premises.py and TUNING.md say why)
    if denied:
        why = (
            f"the abstract of {named(question, main_paper)} says it does without "
            f"'{denied_phrase(split.ask, denied)}': check the question's premise"
        )
        return Extract(
            [], relevance, True, "the abstract denies the question's premise", why, paper=main
        )
    if len(mentioned) >= 2:  # "How do X and the one that ... differ?": each paper, for the ask
        picked = subject_sentences(question, qvec, focus, index, subjects, bare, ABSTAIN_BELOW)
    elif intent.kind == it.FIND and intent.plural:
        picked = list_sentences(
            question, cands, focus, lexicon, n_papers, ABSTAIN_BELOW, intent.names
        )
        # "which of the papers ...?" that one paper answers: more of it, and its name
        if len(picked) == 1:
            only = [c for c in cands if c.paper_id == picked[0].paper_id]
            picked += [
                c for c in pick(only, picked[0].paper_id, intent, MAX_SENTENCES) if c not in picked
            ]
            picked += proposal(only, picked)
    elif subjects:  # "How do KEA and SENSEI differ?": each named paper answers for itself
        picked = [
            c
            for pid in subjects
            for c in pick([c for c in cands if c.paper_id == pid], pid, intent, PER_SUBJECT)
        ]
    else:  # "How does X work?" is about X alone: no other paper's sentence, unless it compares
        alone = intent.how and not comparing
        picked = pick(own if alone else cands, main, intent, MAX_SENTENCES)
        picked += clause_cover(
            question,
            picked,
            own,
            index.embedder.embed_one,
            MAX_SENTENCES,
            ABSTAIN_BELOW,
            DUPLICATE_COS,
        )
        if intent.how:  # "How does X work?": the sentences after its proposal
            picked += method_span(own, picked, MAX_SENTENCES + 1, intent.subject)
        elif intent.kind == it.FIND or asks_which_one(question):  # its method's name, too
            picked += proposal(own, picked)
    if intent.kind == it.QUANTITY and one_paper and not counted:
        # "how much did it cut FPR95?": a sentence of the paper that states the amount, or no answer
        amounts = amount_sentences(own, question)
        # "What results does C-TRPO report?" is answered by results in words too (a notebook session)
        if not amounts and not _RESULTS_ASKED.search(question):
            return Extract([], relevance, True, "the abstract states no such number", paper=main)
        if amounts and not any(c in amounts for c in picked):
            counted = amounts[:1]  # quoted first, as a count is
            picked = counted + picked[: MAX_SENTENCES - 1]
        elif amounts:
            # the picked sentence stating the amount, first ("... with one trillion time points")
            counted = [c for c in picked if c in amounts][:1]
    picked = with_antecedents(picked, cands)
    paper_order: list[str] = [main] if one_paper else []  # a one-paper answer starts with its paper
    for cand in picked:
        if cand.paper_id not in paper_order:
            paper_order.append(cand.paper_id)
    # the asked-for detail first, else the abstract's order
    by_score = intent.kind in (it.QUANTITY, it.ENTITY, it.FINDING) and not bare
    picked.sort(key=lambda c: (paper_order.index(c.paper_id), -c.score if by_score else c.position))
    if entity:  # "which benchmarks does it evaluate on?": a sentence that names one, first
        known = f"{question}\n{main_paper.title}"
        picked = named_first(picked, own, main_paper.abstract, known, MAX_SENTENCES, entity)
    # "Is S4S data-free?" leads with "data-free" (title words that found an unnamed paper decide nothing)
    if one_paper:
        name = intent.subject or main_paper.title
        picked = deciding_first(question, name, own, picked, lexicon, MAX_SENTENCES)
    # "Which paper achieves a 7x speedup ...?": the sentence stating it, first
    if figures and one_paper:
        picked = figure_first(picked, own, figures, MAX_SENTENCES)
    if model and one_paper and not entity:  # "Which models is BanditSpec evaluated on?": one named
        picked = model_first(picked, own, model, MAX_SENTENCES)
    if intent.kind == it.DEFINE:
        first = [c for c in picked if c.role == "definition"][:1]
        picked = first + [c for c in picked if c not in first]
    # "What are the two loss functions ...?": the sentence holding "loss functions"; a detail's sentence first
    if one_paper:
        picked = head_first(picked, own, asked_head(split.sentence), MAX_SENTENCES)
        picked = it.detail_first(picked, own, detail)
    # "How many problems ...": the sentence that counts them first
    if counted and len(mentioned) < 2:
        picked = counted[:1] + [c for c in picked if c is not counted[0]]
    if (
        one_paper
    ):  # "What regret does it achieve?": the paper's own bound, not the setting or earlier work's
        picked = rate_first(picked, own, question, MAX_SENTENCES)
    if not picked:
        return Extract([], relevance, True, "no sentence is relevant enough")
    return Extract(picked, relevance, False, per_paper=len(mentioned) >= 2)
