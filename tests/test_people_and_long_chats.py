"""At conference scale (the 2,740-paper ``icml_store``): questions about authors in a researcher's own words
and long chat sessions that narrow, switch and come back to a topic. Found by two newcomers' sessions (a
researcher who follows authors, one preparing a tutorial in one long chat)."""

from __future__ import annotations

from paperchat.chat.session import ChatSession

LEVINE = {
    "9qzpNSTUYp", "FLPFPYJeVU", "KVf2SFL1pi", "beeNgQEfe2", "bivU8fTTDo", "dYur3yabMj",
    "hmGhP5DO2W", "lNVHg9npif", "perpuTFEF7", "tlLkY9E2bZ", "uCkwqAG0uS",
}  # fmt: skip
WAN_AND_HUANG = {
    "2XvF67vbCK", "Bd9JlrqZhN", "0p86Mhg014", "y7pDvbi9xz", "nAk0ENu8LS", "FKqmIAnkrb", "ny0m8YEUzH",
}  # fmt: skip
VECHEV = {
    "AAl89VNNy1", "qnE2m3pIAb", "SZCdoPvpls", "il3KRr4H9u", "jSYBqtOJS4", "B0fdg3vqqW", "hSCxEZLvxI",
    "focYle7CfD", "TV17MLZGuA",
}  # fmt: skip


def _ids(answer) -> list[str]:
    return [s.paper_id for s in answer.sources]


def test_did_an_author_work_on_a_topic_answers_from_their_papers(icml_engine):
    # "Did Bo Li work on red teaming?" quoted GOAT, which Bo Li did not write; UDora is his
    answer = icml_engine.ask("Did Bo Li work on red teaming?", mode="extractive")
    assert _ids(answer) == ["pRmxQHgjb1"] and "red teaming" in answer.answer
    assert answer.notes[-1].startswith(
        'answered from the 12 stored papers by an author named "Bo Li"'
    )
    answer = icml_engine.ask("Did Ion Stoica work on video generation?", mode="extractive")
    assert _ids(answer)[0] == "u8CA3qIS0V"  # Sparse VideoGen (VideoJAM and PISA are not his)
    # "van der" is a name's particle, no German: the question had been declined as not in English
    answer = icml_engine.ask(
        "Has Mihaela van der Schaar worked on digital twins?", mode="extractive"
    )
    assert _ids(answer) == ["jk3TjZAHem"] and not any("English" in n for n in answer.notes)
    # a title that "works on" something is no author
    answer = icml_engine.ask("Does Flow Matching work on graphs?", mode="extractive")
    assert not answer.abstained and not any("author" in n for n in answer.notes)


def test_two_authors_papers_together_and_an_authors_count_on_a_topic(icml_engine):
    # both had abstained, their notes saying the papers were found
    answer = icml_engine.ask(
        "Which papers did Guancheng Wan and Wenke Huang write together?", mode="extractive"
    )
    assert set(_ids(answer)) == WAN_AND_HUANG
    answer = icml_engine.ask(
        "Which papers did Owain Evans co-author with Jan Betley?", mode="extractive"
    )
    assert _ids(answer) == ["aOIJ2gVRWW"]
    answer = icml_engine.ask(
        "How many papers did Sergey Levine write about offline RL?", mode="extractive"
    )
    assert answer.count == 1 and _ids(answer) == ["KVf2SFL1pi"]  # Flow Q-Learning
    # "Levine, Sergey" is Sergey Levine, not every Levine
    answer = icml_engine.ask("papers by Levine, Sergey", mode="extractive")
    assert set(_ids(answer)) == LEVINE
    # a surname of several words, and no "not English" note for its particles (the verifier's)
    answer = icml_engine.ask("papers by van der Schaar, Mihaela", mode="extractive")
    assert len(answer.sources) == 12 and answer.notes == [
        '12 stored papers by an author named "van der Schaar, Mihaela" (Mihaela Van Der Schaar)'
    ]


def test_summarize_an_authors_work_summarizes_each_of_their_papers(icml_engine):
    # "Summarize" had been read as part of the name: 'no stored paper has an author named "Summarize
    # Martin Vechev"'
    answer = icml_engine.ask("Summarize Martin Vechev's work", mode="extractive")
    assert set(_ids(answer)) == VECHEV and " co-author" not in answer.answer
    assert answer.notes[-1] == (
        'summarized the 9 stored papers by an author named "Martin Vechev" (Martin Vechev)'
    )
    # each paper's line quotes its abstract, cited to a stored chunk
    assert all(s.chunk_id and s.text for s in answer.sources)
    answer = icml_engine.ask("What is Taiji Suzuki's research about?", mode="extractive")
    assert len(answer.sources) == 8 and not answer.abstained


def test_back_to_an_earlier_topic_chooses_among_its_papers(icml_engine):
    # "which one" had chosen among the speculative-decoding papers asked about in between
    chat = ChatSession(icml_engine, mode="extractive")
    scaling = _ids(chat.handle("What papers are there on test-time scaling?").answer)
    decoding = _ids(chat.handle("which papers study speculative decoding?").answer)
    assert scaling and decoding and not set(scaling) & set(decoding)
    back = chat.handle("Back to the test-time scaling papers: which one is cheapest?").answer
    assert back.sources and set(_ids(back)) <= set(scaling)
    # a lead-in that only changes the topic is not searched for ('[1] lacks "topic"')
    switched = chat.handle("Now a different topic: what papers are there on sparse autoencoders?")
    assert not any('"topic"' in n for n in switched.answer.notes)
    plain = ChatSession(icml_engine, mode="extractive")
    assert _ids(switched.answer) == _ids(
        plain.handle("what papers are there on sparse autoencoders?").answer
    )


def test_which_ones_and_which_of_them_are_kinds_narrow_the_list(icml_engine):
    # "which ones are about graphs?" (the README's wording) had been a new search over all papers
    chat = ChatSession(icml_engine, mode="extractive")
    listed = chat.handle("what papers study conformal prediction?").answer.sources
    narrowed = chat.handle("which ones are about graphs?").answer
    assert narrowed.abstained and narrowed.answer == (
        f'None of the {len(listed)} papers of the previous answer writes "graphs" in its title or '
        "abstract."
    )
    # "which of them are benchmarks?" had quoted every paper of the list again
    chat = ChatSession(icml_engine, mode="extractive")
    listed = chat.handle("What papers are there on sparse autoencoders?").answer.sources
    kinds = chat.handle("which of them are benchmarks?").answer
    assert _ids(kinds) == ["BCKSxOFX85"]  # FPO, the one of the five writing "benchmark"
    assert kinds.notes[-1] == (
        f'1 of the {len(listed)} papers of the previous answer writes "benchmarks"; the answer is from it'
    )


def test_a_misspelt_author_gets_the_stored_names_spelled_like_it(icml_engine):
    # an author session: "papers by Sergei Levine" and "Stephan Gunneman" got only "no stored paper has an
    # author named ...", where titles and labels get "did you mean"
    answer = icml_engine.ask("papers by Sergei Levine", mode="extractive")
    assert answer.abstained and answer.notes == [
        'no stored paper has an author named "Sergei Levine"; did you mean "Sergey Levine"?'
    ]
    answer = icml_engine.ask("What did Martin Vechv publish?", mode="extractive")
    assert answer.notes[-1].endswith('did you mean "Martin Vechev"?')
    assert icml_engine.ask("papers by Geoffrey Hinton").notes == [
        'no stored paper has an author named "Geoffrey Hinton"'
    ]


def test_what_else_the_authors_of_a_paper_published(icml_engine):
    # an author session: only ConfPO's own authors were listed; Chang D. Yoo wrote two other papers
    answer = icml_engine.ask(
        "What did the authors of ConfPO publish besides ConfPO?", mode="extractive"
    )
    assert set(_ids(answer)) == {"k77bq8AJVy", "sDK6bSmHgM"}
    assert "Chang D. Yoo" in answer.answer
    # "Who are the authors of ConfPO?" still names them
    answer = icml_engine.ask("Who are the authors of ConfPO?", mode="extractive")
    assert "Hee Suk Yoon" in answer.answer and len(answer.sources) == 1


def test_author_asks_in_other_words(icml_engine):
    # the verifier's: "collaborate", "the research of", and a misspelt name after "Summarize"
    answer = icml_engine.ask(
        "Did Jun Zhu and Jianfei Chen collaborate on any papers?", mode="extractive"
    )
    assert set(_ids(answer)) == {
        "iYmV2xRSNW", "LUFPNGiCUw", "nC8XliUxeg", "74c3Wwk8Tc", "gM6aboVgTO"
    }  # fmt: skip
    answer = icml_engine.ask("Tell me about the research of Taiji Suzuki", mode="extractive")
    assert len(answer.sources) == 8 and answer.notes[-1].startswith(
        "summarized the 8 stored papers"
    )
    answer = icml_engine.ask("Summarize Martin Vechv's work", mode="extractive")
    assert answer.notes == [
        'no stored paper has an author named "Martin Vechv"; did you mean "Martin Vechev"?'
    ]
