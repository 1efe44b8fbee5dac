"""What a question names, and the abstention sweep: pure functions, no store."""

from __future__ import annotations

from paperchat.answer.intent import comparison_subjects
from paperchat.answer.intent import counted_noun as _counted_noun
from paperchat.answer.subjects import clause_of, complete_hits, mentions, missing_names
from paperchat.evaluation.sweep import abstention_sweep
from paperchat.ingest.records import PaperRecord
from paperchat.retrieve.hybrid import Hit


def test_names_match_across_hyphens_and_compounds_but_not_versions():
    assert missing_names("Does it speed up Llama-2-7B?", ["for LLaMA2-7B at 40% sparsity"]) == []
    assert (
        missing_names(
            "an MNIST or ImageNet model", ["stitched into MNIST or ImageNet-trained models"]
        )
        == []
    )
    assert missing_names("What does KEA-2 propose?", ["KEA is a method"]) == ["KEA-2"]
    assert missing_names("What does KEA propose?", ["KEA-2 is a method"]) == ["KEA"]


def test_how_much_faster_asks_for_a_size_not_a_count():
    assert _counted_noun("How much faster is decoding?") is None
    assert _counted_noun("how much extra parameter overhead does it add?") is None
    assert _counted_noun("How many tokens of data did they need?") == "token"
    assert _counted_noun("How much memory does it save?") == "memory"


def test_a_comparison_names_its_papers_by_coined_name_or_quoted_phrase():
    q = "Both ALKN and the 'mechanistic unlearning' paper restrict updates. How do they differ?"
    assert comparison_subjects(q) == ["mechanistic unlearning", "ALKN"]
    assert comparison_subjects("What does ALKN propose?") == []  # not a comparison
    assert comparison_subjects("How do FlatQuant and HDRQ differ?") == ["FlatQuant", "HDRQ"]
    assert (
        clause_of("FlatQuant and HDRQ are both PTQ papers. How do they differ?", "HDRQ")
        == "HDRQ are both PTQ papers"
    )
    assert mentions("Mechanistic Unlearning: robust knowledge removal", "mechanistic unlearning")


def test_complete_hits_adds_the_named_paper_that_one_search_missed():
    hit = lambda pid, score: Hit(pid, f"{pid}:0", score, "", {})  # noqa: E731
    texts = {
        "a": "FlatQuant flattens weights",
        "b": "HDRQ merges models",
        "c": "unrelated",
        "d": "also unrelated",
    }
    records = {pid: PaperRecord(pid, abstract=t) for pid, t in texts.items()}
    asked: list[str] = []

    def retrieve(query, k):
        asked.append(query)
        return [hit("c", 0.9), hit("b", 0.5)]

    hits = complete_hits(
        "How do FlatQuant and HDRQ differ?",
        [hit("a", 2.0), hit("c", 1.0), hit("d", 0.5)],
        retrieve,
        lambda ids: {i: records[i] for i in ids},
        3,
    )
    assert [h.paper_id for h in hits] == ["a", "b", "c"]
    assert hits[1].score == 2.0  # ranked with the question's best, not its own query's scale
    assert asked == ["HDRQ"]  # the name alone found it; FlatQuant was already among the hits


def test_the_sweep_trades_coverage_for_accuracy():
    rows = [
        {"answerable": True, "abstained": False, "correct": True, "evidence": 0.6},
        {"answerable": True, "abstained": False, "correct": False, "evidence": 0.3},
        {"answerable": False, "abstained": False, "correct": False, "evidence": 0.28},
        {"answerable": False, "abstained": True, "correct": True, "evidence": 0.1},
    ]
    points = {p["threshold"]: p for p in abstention_sweep(rows, thresholds=(0.0, 0.29, 0.5))}
    assert points[0.0] == {
        "threshold": 0.0,
        "answered": 0.75,
        "selective_accuracy": 0.3333,
        "accuracy": 0.5,
        "n": 4,
    }
    assert (
        points[0.29]["answered"] == 0.5
        and points[0.29]["selective_accuracy"] == 0.5
        and points[0.29]["accuracy"] == 0.75
    )
    assert (
        points[0.5]["answered"] == 0.25
        and points[0.5]["selective_accuracy"] == 1.0
        and points[0.5]["accuracy"] == 0.75
    )
    assert abstention_sweep([]) == []


def test_a_phrase_mention_is_whole_words():
    # "preselect vs prox for pretraining data": "prox" is not in "PROXSPARSE"
    assert mentions("PROXSPARSE: sparsity masks", "prox") is False
    assert mentions("We compare diffusion models", "diffusion model")
    assert mentions("Mechanistic Unlearning: robust removal", "mechanistic unlearning")


def test_words_before_the_first_mention_are_a_topic_only_with_a_content_term():
    # "How does" was searched with "the paper on transferring activation-space interventions between LLMs"
    # and ranked another paper first
    from paperchat.answer.mentions import split_mentions, topic

    q = "How does TruthFlow differ from the paper on transferring activation-space interventions between LLMs?"
    assert topic(q, split_mentions(q)) == ""
    q = "Graph generation: the model that samples in few steps, versus the one that treats topology as continuous?"
    assert topic(q, split_mentions(q)) == "Graph generation:"


def test_a_capitalised_word_before_a_shared_acronym_is_part_of_the_name():
    # "Of Selective DPO and the preference-data metric ...": "DPO" alone was held by the first
    # preference paper that mentions DPO, and the answer quoted AlphaDPO
    from paperchat.answer.mentions import split_mentions

    def names(q):
        return [m.name for m in split_mentions(q)]

    q = (
        "Of Selective DPO and the preference-data metric that measures the gap between a model's current "
        "implicit reward margin and the target explicit margin, which one filters data by difficulty?"
    )
    assert names(q) == ["Selective DPO", None]
    assert names("How does Selective DPO differ from SimPO?") == ["Selective DPO", "SimPO"]
    assert names("Compare DPO and KTO on safety.") == ["DPO", "KTO"]  # a verb is no qualifier
    assert names("Both DPO and IPO use pairs; how do they differ?") == ["DPO", "IPO"]


def test_a_headers_colon_list_of_described_papers_is_a_comparison_without_its_header_words():
    # "How do they fit together?" is no comparison wording, and "Fine-tuning" in the header was taken for a name
    from paperchat.answer.mentions import split_mentions

    q = (
        "Fine-tuning and safety from three angles: an attack that picks a handful of odd-but-innocent "
        "training examples to wreck alignment, a defense that edits the weight changes after fine-tuning, "
        "and an alignment method that focuses on the safety examples most easily forgotten. How do they fit together?"
    )
    found = split_mentions(q)
    assert [m.name for m in found] == [None, None, None]
    assert [m.text.split()[:2] for m in found] == [
        ["an", "attack"],
        ["a", "defense"],
        ["an", "alignment"],
    ]
