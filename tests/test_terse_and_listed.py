"""Terse questions (typos, abbreviations, spelled-out acronyms) and comparisons listed or described (issue 17).

The pure tests read questions the way the answerer does; the answers are asked of the 2,740-paper ICML
2025 store (``icml_store``), with questions written for these tests (none is in an eval set).
"""

from __future__ import annotations

import pytest

from paperchat.answer import intent as it
from paperchat.answer.asks import plain_question, split_ask
from paperchat.answer.focus import OFF_TOPIC_MIN_PAPERS, PaperText, names_apart, off_topic
from paperchat.answer.mentions import split_mentions
from paperchat.answer.subjects import missing_names, spelled_out
from paperchat.store.bm25 import BM25Index

DOCS = {
    "a": "Training deep networks with activation re-materialization saves memory.",
    "b": "We study the training dynamics of transformers on language tasks.",
    "c": "A benchmark for machine translation of low-resource languages.",
}


@pytest.fixture(scope="module")
def index():
    return BM25Index.build(list(DOCS), list(DOCS.values()), "test")


def test_papers_holding_every_term(index):
    assert index.holding({"train"}) == 2  # a and b
    assert index.holding({"train", "memori"}) == 1
    assert index.holding({"train", "translat"}) == 0
    assert index.holding({"train", "nosuchterm"}) == 0 and index.holding(set()) == 0


def test_a_topic_of_two_common_words_lists_every_paper_holding_both(icml_engine):
    # "differential privacy": neither word is rare (156 and 108 of 2,740 papers), both together are (43);
    # the topic summary had cited the three papers above the retrieval-share cut of the ten retrieved
    answer = icml_engine.summarize("differential privacy", mode="extractive")
    records = icml_engine.store.papers([s.paper_id for s in answer.sources])
    assert len(answer.sources) == 10
    assert all("privacy" in r.full_text.lower() for r in records.values())


def test_a_misspelt_word_is_read_as_the_word_it_misspells(index):
    assert index.respelled("trainng") == ["train"]  # one letter dropped
    (stem,) = index.tokenize(["rematerialization"])[0]  # "remateri": terms are stemmed
    assert index.respelled(stem) == ["materi"]  # the abstract hyphenates it
    assert index.respelled("scribe") == []  # no word one edit away, no known prefix
    assert index.respelled("benchmark") == []  # a known word is not respelled


def test_rare_terms_keep_a_misspelt_word_only_when_the_word_it_misspells_is_rare(index):
    # "trainng" is "train", held by two of three papers: not distinctive; "rematerialization" is
    assert index.rare_terms("trainng with rematerialization", max_df=1) == ["materi"]


def _paper(pid: str) -> PaperText:
    return PaperText(pid, "", DOCS[pid], cos=0.3, share=1.0)


@pytest.mark.parametrize(
    "question, expected",
    [
        # "translation" is held by the paper retrieved, but "handwritten" and "scribe" by no paper at all
        ("machine translation of handwritten scribe languages", True),
        # one unused word beside a held one may be the asker's paraphrase
        ("machine translation of scribe languages", False),
        ("a benchmark for machine translation of low-resource languages", False),
    ],
)
def test_two_words_no_abstract_uses_make_a_topic_absent(index, question, expected):
    assert off_topic(question, [_paper("c")], index, OFF_TOPIC_MIN_PAPERS) is expected


@pytest.mark.parametrize(
    "question, expected",
    [
        # the asker's own word, no abstract's ("roundup"): other words may say what the question is about
        ("roundup?", False),
        # a name or acronym no abstract uses is an absent thing (issue 17, twenty-fourth round)
        ("QWERTYNet?", True),
        ("QWERTYs?", True),
    ],
)
def test_one_word_no_abstract_uses_is_an_absent_thing_only_when_written_as_a_name(
    index, question, expected
):
    assert len(index.rare_terms(question, 2)) == 1  # the one word, held by no paper
    assert off_topic(question, [_paper("a")], index, OFF_TOPIC_MIN_PAPERS) is expected


@pytest.mark.parametrize(
    "question, apart",
    [
        ("What ARI does Spotscape reach on DLPFC?", False),  # one ask about one paper
        (
            "Which sensor does the detector add to its RGB frames, and on which datasets does Ex-VAD report?",
            True,
        ),
        (
            "How much faster is FlashSketch than FAISS on SIFT1M, and what recall does it keep?",
            False,
        ),
    ],
)
def test_names_in_clauses_of_their_own_are_asks_about_two_papers(question, apart):
    assert names_apart(question, it.read_question(question).names) is apart


def test_an_abbreviation_spelled_out_in_the_abstract_is_mentioned():
    assert spelled_out("t2i", "empowers text-to-image diffusion models")
    assert spelled_out("ARI", "we report the Adjusted Rand Index on all slices")
    assert not spelled_out(
        "ARI", "a relationship is inferred"
    )  # lower-case words, no hyphens: chance
    assert not spelled_out("KV", "key value")  # two letters are spelled out by chance too often
    assert missing_names("t2i models and CoBSAT", ["text-to-image ... the CoBSAT benchmark"]) == []


def test_a_version_number_after_a_space_is_the_same_name():
    assert missing_names("MGD3 vs others", ["MGD 3 : Mode-Guided Dataset Distillation"]) == []
    assert missing_names("What is KEA?", ["KEA-2 improves ..."]) == ["KEA"]  # still not a version's


def test_a_terse_ask_after_a_dash_is_the_ask():
    ask = split_ask(
        plain_question(
            "kv cache method keeping critical tokens - whats it called, how much mem saved"
        )
    )
    assert ask.description == "kv cache method keeping critical tokens"
    assert ask.ask == "what is it called, how much mem saved"
    assert (
        split_ask("t2i diffusion with a vlm - name and benchmark acc").ask
        == "name and benchmark acc"
    )


def test_one_and_the_other_are_two_described_papers():
    q = (
        "Two unlearning papers: one replaces fine-tuning with in-context examples, the other "
        "unlearns images by training on adversarial examples near them. Is either one exact?"
    )
    assert [(m.name, m.text) for m in split_mentions(q)] == [
        (None, "one replaces fine-tuning with in-context examples"),
        (None, "the other unlearns images by training on adversarial examples near them"),
    ]


def test_one_and_the_other_after_two_names_restate_them():
    q = "Quamba2 vs QuEST: one quantizes after training, the other trains in low precision?"
    assert [m.name for m in split_mentions(q)] == ["Quamba2", "QuEST"]


def test_a_capitalised_item_listed_after_names_is_a_name():
    q = "HarmoniCa, SADA and Modulated Diffusion: what does each do to speed up sampling?"
    assert [m.name for m in split_mentions(q)] == ["HarmoniCa", "SADA", "Modulated Diffusion"]


def test_a_title_in_title_case_and_a_phrase_after_vs_are_mentions():
    q = "Compare CROW with Backdoor Attacks in Token Selection of Attention Mechanism"
    assert [m.name for m in split_mentions(q)] == [
        "CROW",
        "Backdoor Attacks in Token Selection of Attention Mechanism",
    ]
    q = "compare RelGNN vs classic GNNs for graph-level tasks"
    assert [(m.name, m.text) for m in split_mentions(q)] == [
        ("RelGNN", "RelGNN"),
        (None, "classic GNNs for graph-level tasks"),
    ]


def test_a_list_item_led_by_any_noun_is_described():
    q = "AdaSplash and that block-sparse attention that scores blocks along anti-diagonals: where does the sparsity come from in each?"
    assert [(m.name, m.text) for m in split_mentions(q)] == [
        ("AdaSplash", "AdaSplash"),
        (None, "that block-sparse attention that scores blocks along anti-diagonals"),
    ]


def test_either_or_in_a_description_is_no_comparison():
    q = (
        "Long clips either loop or slow down. One paper lowered a single 'intrinsic' frequency of "
        "the position embedding. What is the method called?"
    )
    assert split_mentions(q) == []


def test_what_is_the_license_of_x_asks_a_detail():
    intent = it.read_question("What is the license of the CursorCore code release?")
    assert intent.kind != it.DEFINE and intent.detail == "license"


@pytest.mark.parametrize(
    "question, mentions",
    [
        (  # a list a name starts: the second item and a description listed after it
            "HiRemate, Tensor-Parallel Decoding, and the offloading one that swaps activations to host "
            "memory: what does each save?",
            [
                ("HiRemate", "HiRemate"),
                ("Tensor-Parallel Decoding", "Tensor-Parallel Decoding"),
                (None, "the offloading one that swaps activations to host memory"),
            ],
        ),
        (  # a title at the question's start, then a noun phrase listed after it
            "Graph Attention Sampling and the lightweight GNN recommender with learned hashing: how does "
            "each one scale?",
            [
                ("Graph Attention Sampling", "Graph Attention Sampling"),
                (None, "the lightweight GNN recommender with learned hashing"),
            ],
        ),
        (  # one lower-case word in quotes is emphasis, not a paper's name
            "Two takes on 'memory': how do MemoryLLM and the paper that compresses the KV cache into a "
            "recurrent state differ?",
            [
                ("MemoryLLM", "MemoryLLM"),
                (None, "the paper that compresses the KV cache into a recurrent state"),
            ],
        ),
    ],
)
def test_items_listed_after_a_name_are_mentions(question, mentions):
    assert [(m.name, m.text) for m in split_mentions(question)] == mentions


def test_a_quoted_lower_case_word_is_no_name():
    assert it.subject_names("three takes on 'experts' and 'price of freedom'") == [
        "price of freedom"
    ]


def test_an_initialism_whose_last_word_is_a_compound_is_spelled_out():
    assert spelled_out("VAE", "the pre-trained Variational Autoencoder embeddings")
    assert spelled_out("SMN", "a Sparse Metanetwork")  # "meta" + "network"
    assert not spelled_out(
        "VAE", "a Variational Attention layer"
    )  # no compound: "Attention" gives only "a"


def test_a_vs_chain_of_one_word_names_in_lower_case_names_each_paper():
    q = "mlebench vs swe-lancer vs kernelbench - which is hardest for agents"
    assert [m.name for m in split_mentions(q)] == ["mlebench", "swe-lancer", "kernelbench"]
    # inside a clause "vs" compares figures, and a phrase after it is a description, as before
    assert [m.name for m in split_mentions("compare RelGNN vs classic GNNs for graph tasks")] == [
        "RelGNN",
        None,
    ]


def test_a_question_that_opens_by_asking_which_paper_asks_for_the_paper():
    # "how fast" in the description does not make it a question about a number
    assert (
        it.read_question("Which paper: embedding norm controls how fast SSL converges?").kind
        == it.FIND
    )
    assert it.read_question("wich paper finds rope matters for text-to-music").kind == it.FIND


def _answer(icml_engine, question):
    answer = icml_engine.ask(question, mode="extractive")
    assert not answer.abstained, question
    return [s.paper_id for s in answer.sources], answer.answer


@pytest.mark.slow
@pytest.mark.parametrize(
    "question, paper, facts",
    [
        (  # a typo and a compound the abstract hyphenates, once abstained as off-topic
            "how much activaton memory does the hierarchical rematerialization approach cut",
            "rnx11J4hsg",  # HiRemate
            ["50-70% memory reduction"],
        ),
        (  # "mem" abbreviates "memory" (no paper writes "mem"), once abstained for want of a count
            "kv cache compression that keeps only the critical tokens of consistent heads - how much mem does it save",
            "u7dlwgKstN",  # CateKV
            ["2.72", "CateKV"],
        ),
        (  # "t2i" is spelled out as "text-to-image", once abstained as a name no paper mentions
            "t2i diffusion w/ a vlm for in-context reasoning - whats it called and its cobsat accuracy",
            "2v91xhNdsz",  # ThinkDiff
            ["ThinkDiff", "46.3%"],
        ),
    ],
)
def test_terse_questions_are_answered_from_the_right_paper(icml_engine, question, paper, facts):
    cited, text = _answer(icml_engine, question)
    assert cited[0] == paper
    assert all(f in text for f in facts)


@pytest.mark.slow
@pytest.mark.parametrize(
    "question, papers",
    [
        (
            "HarmoniCa, SADA and Modulated Diffusion: what does each do to speed up diffusion sampling?",
            ["NQyqpK6d72", "ThMQfsBnje", "y8hMadAgrz"],
        ),
        (
            "Two unlearning papers: one replaces fine-tuning with in-context examples so that forgetting is "
            "cheap, the other unlearns images by training on adversarial examples near them. Is either one exact?",
            ["TzNVZEsqTi", "BkrIQPREkn"],  # exact unlearning for ICL data; AMUN
        ),
        (
            "GuidedQuant and that quantizer which needs no backprop and models cross-layer dependencies "
            "in attention: which one uses gradients?",
            ["ZawsPjlIGu", "Uvj6XcSJ5d"],
        ),
    ],
)
def test_listed_and_described_papers_are_each_cited(icml_engine, question, papers):
    cited, _text = _answer(icml_engine, question)
    assert cited == papers


@pytest.mark.parametrize(
    "question",
    [
        "What is the license of the CursorCore code release?",
        "What license is the ETTA code released under?",
    ],
)
def test_a_code_licence_the_abstract_does_not_give_is_an_abstention(bundled_engine, question):
    assert bundled_engine.ask(question, mode="extractive").abstained


LISTED = {
    "cp": "Conformal prediction gives calibrated sets for diffusion models that generate controls.",
    "cq": "Conformal prediction with coverage guarantees for regression.",
    "tr": "Trajectory forecasting for autonomous vehicles in traffic.",
    "tp": "Trajectory prediction of pedestrians in crowds.",
}


def test_a_list_keeps_the_papers_that_hold_every_distinctive_term_of_the_question():
    from paperchat.answer.lists import fitting

    index = BM25Index.build(list(LISTED), list(LISTED.values()), "test")
    papers = [PaperText(pid, "", text, cos=0.3, share=1.0) for pid, text in LISTED.items()]
    # with 500 papers, every term here is held by at most 10 % of them: all must be held
    assert fitting("conformal prediction for diffusion models", papers, index, 500) == {"cp"}
    assert fitting("trajectory papers for vehicles", papers, index, 500) == {"tr"}
    # two alternatives a slash joins: either one is enough
    assert fitting("trajectory work on vehicles / pedestrians", papers, index, 500) == {"tr", "tp"}
    # a small corpus (under OFF_TOPIC_MIN_PAPERS) is never restricted
    assert fitting("conformal prediction for diffusion", papers, index, 4) == set(LISTED)


def test_a_paper_listed_for_a_rare_word_alone_must_hold_the_questions_other_rare_words(icml_engine):
    # "watermark" is rare (listed for it alone) and "diffusion" fairly rare (9 % of papers): the list had held
    # nine papers, six of them watermarks for text or LLMs; the two above the retrieval-share cut stay
    answer = icml_engine.ask(
        "Which papers propose watermarks for diffusion models?", mode="extractive"
    )
    records = icml_engine.store.papers([s.paper_id for s in answer.sources])
    assert {"GKZySvM2t9", "m7Mx14cxv8", "NniXePXVXw"} <= set(records)  # KGMark, GaussMarker, MDDM
    assert sum("diffusion" not in r.full_text.lower() for r in records.values()) <= 2


def test_a_which_paper_answer_no_cited_paper_fits_says_so(icml_engine):
    # a break-it session: "Which paper uses diffusion models to design CRISPR guide RNAs?" listed a CRISPR
    # paper without diffusion and two RNA design papers without CRISPR, with no word of it
    answer = icml_engine.ask(
        "Which paper uses diffusion models to design CRISPR guide RNAs?", mode="extractive"
    )
    assert answer.notes == [
        'no cited paper writes all of "diffusion", "CRISPR", "guide"; [1] lacks "diffusion", "guide": each '
        "fits part of the question, so check it fits yours"
    ]
    # the closest paper's missing word is named: an area chair's LCG question had read as if the right
    # paper lacked "congruential", which it writes
    answer = icml_engine.ask(
        "Has anyone used a transformer to learn to predict outputs of linear congruential generators?",
        mode="extractive",
    )
    assert answer.sources[0].paper_id == "asDx9sPAUN"
    assert answer.notes == [
        'no cited paper writes all of "outputs", "congruential"; [1] lacks "outputs": each fits part of '
        "the question, so check it fits yours"
    ]
    fits = icml_engine.ask(
        "Which papers propose watermarks for diffusion models?", mode="extractive"
    )
    assert not any(n.startswith("no cited paper writes all") for n in fits.notes)


def test_a_listing_request_is_searched_by_its_topic():
    # a reading break-it session: "List the papers on watermarking" listed 3 papers where "Which papers
    # study watermarking?" listed 10: "List the papers" was searched as words of the topic
    from paperchat.answer.intent import retrieval_query

    assert retrieval_query("List the papers on watermarking") == "watermarking"
    assert retrieval_query("Show me papers on watermarking") == "watermarking"
    assert retrieval_query("List the datasets ConfPO uses") == "List the datasets ConfPO uses"


def test_a_list_asked_by_a_name_quotes_each_retrieved_paper_writing_it(icml_engine):
    # an eval author: "Which papers evaluate on LIBERO?" and "Which papers use AIRS?" abstained (the
    # sentences naming them scored below the bar) while retrieval ranked both papers first
    answer = icml_engine.ask("Which papers evaluate on LIBERO?", mode="extractive")
    assert not answer.abstained
    assert {s.paper_id for s in answer.sources} >= {"N2Dey442PJ", "n1cqQK4hhC"}
    assert "CortexBench and LIBERO benchmarks" in answer.answer
    answer = icml_engine.ask("Which papers use AIRS?", mode="extractive")
    assert [s.paper_id for s in answer.sources] == ["4umRQdvuW5", "G2mAZTpJcz"]
    assert "released as part of the AIRS library" in answer.answer


def test_a_list_quotes_a_sentence_that_stands_on_its_own():
    # a science writer's topic summaries quoted "To mitigate this, ..." and "We show that this model can be
    # extracted ..." where the paper's next best sentence stands on its own
    from types import SimpleNamespace as C

    from paperchat.answer.lists import one_per_paper

    papers = [PaperText("p", "T", "abstract", cos=0.5, share=1.0)]
    cands = [
        C(paper_id="p", score=0.6, role="other", text="To mitigate this, we cache the keys."),
        C(paper_id="p", score=0.5, role="other", text="We propose KVCache, a key cache for LLMs."),
    ]
    assert [c.text for c in one_per_paper(cands, papers, 0.3)] == [
        "We propose KVCache, a key cache for LLMs."
    ]
    assert [c.text for c in one_per_paper(cands[:1], papers, 0.3)] == [
        "To mitigate this, we cache the keys."
    ]  # the only sentence that fits stays
