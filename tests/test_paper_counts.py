"""'How many papers are about X?': the stored papers whose title or abstract holds every word of X, counted,
then the most relevant listed (a break-it session: it had abstained, or answered with a paper's own count)."""

from __future__ import annotations

import pytest

from paperchat.answer.paper_counts import count_line, counted_topic

ARORA = "p-3c67db56192f"


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("How many papers are about speculative decoding?", "speculative decoding"),
        ("How many papers use diffusion models?", "diffusion models"),
        ("How many papers are there on federated learning?", "federated learning"),
        ("how many ICML papers focus on graph neural networks?", "graph neural networks"),
        ("How many papers are there?", ""),  # no topic: the store's papers are counted
        ("How many papers are in the store?", ""),  # a break-it session: had counted "in the store"
        ("How many papers were published?", ""),
        # a reading break-it session: "together" had been a word of the topic, and no paper held it
        (
            "How many papers are there on graph neural networks and LLMs together?",
            "graph neural networks and LLMs",
        ),
        ("How many parameters does ConfPO use?", None),  # a paper's own count
        ("How many tokens does ConfPO select per sequence?", None),
    ],
)
def test_the_topic_a_count_of_papers_asks_about(question, topic):
    assert counted_topic(question) == topic


def test_papers_on_a_topic_are_counted_and_listed(bundled_engine):
    answer = bundled_engine.ask("How many papers are about backdoor attacks?", mode="extractive")
    first, *rest = answer.answer.split("\n")
    assert first == count_line(2, "backdoor attacks")
    assert first == (
        '2 stored papers have every word of "backdoor attacks" in their title or abstract; the most relevant:'
    )
    # the list is the "which papers" answer over those two, then each counted paper it quoted nothing of,
    # by its sentence writing the topic (a count had listed fewer papers than it counted; then named
    # them by title and authors alone)
    assert [s.paper_id for s in answer.sources] == [ARORA, "p-f951bc7f7256"]
    assert rest[1] == (
        "CROW: Eliminating Backdoors from Large Language Models via Internal Consistency Regularization: "
        "Large Language Models (LLMs) are vulnerable to backdoor attacks that manipulate outputs via hidden "
        "triggers [2]."
    )
    assert answer.sources[1].chunk_id and "hidden triggers" in answer.sources[1].text
    assert answer.to_json()["count"] == 2  # for scripts: the number the first line states
    assert rest[0].startswith("Backdoor Attacks in Token Selection of Attention Mechanism: ")
    assert rest[0].endswith("[1].")
    none = bundled_engine.ask("How many papers are about quokka counting?", mode="extractive")
    assert none.abstained and none.notes == [
        'no stored paper has every word of "quokka counting" in its title or abstract'
    ]


@pytest.mark.parametrize(
    ("topic", "forms"),
    [
        ("LLMs", ["LLMs", "LLM"]),
        ("GNN for molecules", ["GNN for molecules", "GNNs for molecules"]),
        ("ViTs and CNNs", ["ViTs and CNNs", "ViT and CNNs", "ViTs and CNN", "ViT and CNN"]),
        ("GPT-4 agents", ["GPT-4 agents"]),  # not a whole word
        ("Transformers", ["Transformers"]),  # one capital: the stemmer reads it
    ],
)
def test_acronyms_are_counted_in_both_numbers(topic, forms):
    from paperchat.answer.paper_counts import topic_forms

    assert topic_forms(topic) == forms


def test_a_count_of_an_acronym_counts_its_plural_too(bundled_engine):
    # a break-it session: "LLMs" counted 452 papers at 2,740 and "LLM" 310, the stemmer keeping "llms"
    answer = bundled_engine.ask("How many papers are about VLM?", mode="extractive")
    assert answer.answer.split("\n")[0] == (
        '2 stored papers have every word of "VLM" (also as "VLMs") in their title or abstract; '
        "the most relevant:"
    )
    assert {s.paper_id for s in answer.sources} <= {"p-d4cbb5d25faa", "p-f45cf8f7c2fb"}


def test_the_stores_papers_and_a_years_papers_are_counted_and_listed(bundled_engine):
    # a break-it session: "How many papers are there?" and "Which papers were published in 2025?" abstained
    total = bundled_engine.ask("How many papers are there?", mode="extractive")
    assert (total.answer, total.count, total.sources) == ("The store holds 38 papers.", 38, [])
    year = bundled_engine.ask("How many papers were published in 2025?", mode="extractive")
    assert (year.answer, year.count) == ("38 stored papers appeared in 2025.", 38)
    listed = bundled_engine.ask("Which papers were published in 2025?", mode="extractive")
    first, *lines = listed.answer.split("\n")
    assert first == "38 stored papers appeared in 2025:" and len(lines) == len(listed.sources) == 20
    assert listed.notes == ["18 more not listed (`paperchat papers --year 2025` lists them all)"]
    assert all(line.endswith(f"[{n}].") for n, line in enumerate(lines, 1))


def test_a_count_lists_papers_that_hold_the_topic_in_their_title_only(tmp_path):
    # a break-it session: "How many papers are about pruning?" abstained when "pruning" was in a title only
    import json

    from paperchat import Paperchat

    rows = [
        {
            "id": "prune1",
            "title": "Lottery Tickets for Pruning",
            "authors": ["Ada Lovelace"],
            "abstract": "We find sparse subnetworks that train to full accuracy from the start.",
        },
        {
            "id": "other",
            "title": "Graph Transformers",
            "authors": ["Alan Turing"],
            "abstract": "We study attention over graphs and its expressive power on molecules.",
        },
    ]
    corpus = tmp_path / "mine.jsonl"
    corpus.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    pc = Paperchat(tmp_path / "store", mode="extractive")
    pc.ingest([corpus])
    answer = pc.ask("How many papers are about pruning?")
    assert answer.answer == (
        '1 stored paper has every word of "pruning" in its title or abstract:\n'
        '"Lottery Tickets for Pruning" is by Ada Lovelace [1].'
    )
    assert [s.paper_id for s in answer.sources] == ["prune1"] and answer.count == 1


def test_a_one_word_topic_counts_the_papers_writing_it():
    # a reading break-it session: "How many papers use transformers?" counted 347 papers by the stem
    # "transform" ("transformation"), where 232 write "transformer(s)"
    from types import SimpleNamespace

    from paperchat.answer.paper_counts import phrase_holders

    texts = {
        "a": "A transformer-based model.",
        "b": "Transformers scale.",
        "c": "A graph transformation.",
        "d": "We transform inputs.",
    }
    records = {pid: SimpleNamespace(full_text=t) for pid, t in texts.items()}
    lexicon = SimpleNamespace(tokenize=lambda forms: [f.lower().split() for f in forms])
    assert phrase_holders(["transformers"], set(texts), lambda ids: records, lexicon) == {"a", "b"}
    assert count_line(2, "transformers", ["transformers"], 4).startswith(
        '2 stored papers write "transformers" in their title or abstract (4 have a word of its stem)'
    )
