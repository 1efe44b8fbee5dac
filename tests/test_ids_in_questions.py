"""A question that names a paper by its id, or is only an author's name, is about that paper or author (an
MCP session: an agent found a paper with search_papers and asked "What does KVf2SFL1pi propose?", which had
been declined; a phone-style session's "sergey levine" had been declined too)."""

from __future__ import annotations

import pytest

from paperchat.answer.named_papers import ids_named

CONFPO = "p-abe9274a3783"


def test_ids_a_question_writes_are_found_in_any_case():
    ids = {CONFPO, "KVf2SFL1pi"}
    assert ids_named("What does kvf2sfl1pi propose, and p-abe9274a3783?", ids, {}) == {
        "kvf2sfl1pi": "KVf2SFL1pi",
        "p-abe9274a3783": CONFPO,
    }
    # words of ten letters, and ids no stored paper has, are none
    assert ids_named("What is generation about in ZZZZZZZZZ9?", ids, {}) == {}


@pytest.mark.parametrize(
    "question", [f"What does {CONFPO} propose?", f"What does the paper {CONFPO} propose?"]
)
def test_a_question_naming_an_id_is_answered_from_that_paper(bundled_engine, question):
    answer = bundled_engine.ask(question, mode="extractive")
    assert [s.paper_id for s in answer.sources] == [CONFPO]
    assert "We introduce ConfPO" in answer.answer
    assert answer.notes[-1] == (
        f"{CONFPO} is the id of 'ConfPO: Exploiting Policy Model Confidence for Critical Token Selection "
        "in Preference Optimization': answered from that paper"
    )


@pytest.mark.parametrize("question", ["hee suk yoon", "Hee Suk Yoon's papers?"])
def test_a_question_that_is_only_an_authors_name_lists_their_papers(bundled_engine, question):
    # a phone-style session: "sergey levine" was declined though he has 11 stored papers
    answer = bundled_engine.ask(question, mode="extractive")
    assert [s.paper_id for s in answer.sources] == [CONFPO]
    assert answer.answer.startswith('"ConfPO: Exploiting Policy Model Confidence')


@pytest.mark.parametrize("question", ["graph neural networks", "Hee Suk papers"])
def test_words_that_are_no_whole_stored_name_are_no_author(bundled_engine, question):
    from paperchat.answer.authorship import bare_author

    assert bare_author(question, bundled_engine.author_index()) is None


def test_a_named_id_the_filters_leave_out_is_said_so(bundled_engine):
    # an MCP session: abstained with "answered from that paper", the filters having kept the paper out
    from paperchat.retrieve.filters import Filters

    crow = Filters(papers=("p-f951bc7f7256",))
    answer = bundled_engine.ask(f"What does {CONFPO} propose?", mode="extractive", filters=crow)
    assert answer.abstained and answer.sources == []
    assert answer.notes[0].endswith("in Preference Optimization': the filters leave it out")


def test_a_search_for_a_papers_id_finds_that_paper_first(bundled_store):
    # an MCP session: search_papers("JpbqiD7n9r"), an id the agent held, gave five unrelated papers
    from paperchat import Paperchat

    pc = Paperchat(bundled_store)
    for query in (CONFPO, f" {CONFPO}\n", f"paper://{CONFPO}"):
        hits = pc.search(query, top_k=3)
        assert hits[0].paper_id == CONFPO and len(hits) == 3


def test_a_named_id_whose_question_is_declined_was_read_not_answered_from(bundled_engine):
    # the verifying helper: "answered from that paper" stood beside "the abstract states no such number"
    answer = bundled_engine.ask(f"What GPU does {CONFPO} train on?", mode="extractive")
    assert answer.abstained
    assert any(
        n.startswith(f"{CONFPO} is the id of") and n.endswith(": read as that paper")
        for n in answer.notes
    )
