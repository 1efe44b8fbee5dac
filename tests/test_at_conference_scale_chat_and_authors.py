"""At conference scale (the 2,740-paper ``icml_store``): a chat comparison of two papers of a list, and questions
answered from the stored metadata (an author's papers). Found by a newcomer's break-it session at 2,732 papers."""

from __future__ import annotations

import re

LEVINE = {
    "9qzpNSTUYp", "FLPFPYJeVU", "KVf2SFL1pi", "beeNgQEfe2", "bivU8fTTDo", "dYur3yabMj",
    "hmGhP5DO2W", "lNVHg9npif", "perpuTFEF7", "tlLkY9E2bZ", "uCkwqAG0uS",
}  # fmt: skip
FLOW_Q_LEARNING = "KVf2SFL1pi"  # Seohong Park, Qiyang Li, Sergey Levine
MIXBRIDGE = "09WRNhHYkM"  # MixBridge: ... Backdoor Attack through Mixture of Schrödinger Bridges


def test_compare_two_papers_of_a_list_answers_from_each(icml_engine):
    # "compare the second and the fourth" was declined ("nothing retrieved is relevant enough"): the
    # rewritten query named them by label, the papers were marked by title, so it was not read as a bare
    # comparison of named papers
    from paperchat.chat.session import ChatSession

    chat = ChatSession(icml_engine, mode="extractive")
    listed = chat.handle("Which papers study machine unlearning for LLMs?").answer.sources
    assert len(listed) >= 4
    answer = chat.handle("compare the second and the fourth").answer
    assert not answer.abstained
    assert {s.paper_id for s in answer.sources} == {listed[1].paper_id, listed[3].paper_id}


def test_the_first_two_of_a_list_are_cited_in_the_list_order(icml_engine):
    # a chat break-it session: "the first two" after a list cited its second paper as [1] and its first as
    # [2] (ranked by score), so "/show 1" then meant the other paper
    from paperchat.chat.session import ChatSession

    chat = ChatSession(icml_engine)
    listed = [
        s.paper_id for s in chat.handle("Which papers study conformal prediction?").answer.sources
    ]
    assert len(listed) >= 3
    assert [s.paper_id for s in chat.handle("the first two").answer.sources] == listed[:2]
    third_first = chat.handle("compare the third and the first").answer
    assert [s.paper_id for s in third_first.sources] == [listed[2], listed[0]]


def test_ordinals_over_papers_whose_titles_hold_words_their_abstracts_lack(icml_engine):
    # a reading break-it session: after "Which papers study membership inference attacks?", "summarize the
    # second one" and "compare the first and the second ones" abstained: the rewritten query held the
    # titles ("Black-Box"), which the abstracts do not write, so the words as asked were answered instead
    from paperchat.chat.session import ChatSession

    chat = ChatSession(icml_engine, mode="extractive")
    listed = chat.handle("Which papers study membership inference attacks?").answer.sources
    assert len(listed) >= 2
    summary = chat.handle("summarize the second one").answer
    assert not summary.abstained and [s.paper_id for s in summary.sources] == [listed[1].paper_id]
    both = chat.handle("compare the first and the second ones").answer
    assert {s.paper_id for s in both.sources} == {listed[0].paper_id, listed[1].paper_id}


def test_an_authors_papers_at_conference_scale(icml_engine):
    answer = icml_engine.ask("Which papers did Sergey Levine write?", mode="extractive")
    assert {s.paper_id for s in answer.sources} == LEVINE
    assert answer.notes == ['11 stored papers by an author named "Sergey Levine" (Sergey Levine)']
    line = '"Flow Q-Learning" is by Sergey Levine and 2 co-authors ['
    assert line in answer.answer
    topic = icml_engine.ask(
        "What has Sergey Levine written about offline reinforcement learning?", mode="extractive"
    )
    assert [s.paper_id for s in topic.sources] == [FLOW_Q_LEARNING]
    # a surname many authors share: 20 listed, the rest counted in a note
    chen = icml_engine.ask("Which papers were written by Chen?", mode="extractive")
    assert len(chen.sources) == 20
    assert chen.notes[1].endswith(
        'more not listed (`paperchat papers --author "Chen"` lists the papers of every author with the name '
        '"Chen" as a first, middle or last name)'
    )
    # a second helper's break-it session: a name that matched no author fell back to its first word
    # ("papers by Michael Jordan on ..." answered from 75 papers by authors named Michael)
    jordan = icml_engine.ask("Which papers did Michael Jordan write?", mode="extractive")
    assert len(jordan.sources) == 3
    assert jordan.notes == [
        '3 stored papers by an author named "Michael Jordan" (Michael I. Jordan)'
    ]
    hinton = icml_engine.ask("Which papers did Geoffrey Hinton write?", mode="extractive")
    assert hinton.abstained and hinton.notes == [
        'no stored paper has an author named "Geoffrey Hinton"'
    ]


def test_a_count_of_papers_on_a_two_word_topic_counts_the_papers_writing_it_as_a_phrase(
    icml_engine,
):
    # a break-it session: "quantum computing" counted 9 papers, 7 of them holding "quantum" and "computational"
    answer = icml_engine.ask("How many papers are about quantum computing?", mode="extractive")
    assert answer.answer.split("\n")[0] == (
        '2 stored papers write "quantum computing" in their title or abstract (9 have every word of it); '
        "the most relevant:"
    )
    assert answer.to_json()["count"] == 2
    records = icml_engine.store.papers([s.paper_id for s in answer.sources])
    assert records and all("quantum comput" in r.full_text.lower() for r in records.values())
    # the words as written, not only their stems: not "conformation prediction" (WGFormer), nor "long context
    # learning" (a notebook session counted 32 and 49 where 31 and 47 papers write them)
    for topic, n in (("conformal prediction", 31), ("in-context learning", 47)):
        answer = icml_engine.ask(f"How many papers are about {topic}?", mode="extractive")
        assert answer.to_json()["count"] == n, topic
    # a top-k as large as the count lists every paper counted, those with no sentence to quote by title
    # (a notebook session: 31 of 36 listed)
    answer = icml_engine.ask(
        "How many papers are about optimal transport?", top_k=36, mode="extractive"
    )
    records = icml_engine.store.papers([s.paper_id for s in answer.sources])
    assert answer.count == 36 and len(records) == 36
    # ("optimally transporting" too: the words as written, their endings free)
    assert all(re.search(r"optimal\w*[\s-]+transport", r.full_text, re.I) for r in records.values())
    # each counted paper past the quoted ones is quoted too, by its sentence writing the topic, not by its
    # authors ("How many papers are about diffusion?" had named papers 7 to 10 by their authors alone)
    quoting = [
        s
        for s in answer.sources
        if s.chunk_id and re.search(r"optimal\w*[\s-]+transport", s.text, re.I)
    ]
    # of the other two, one title alone writes it (named by title and authors), and the sentence the
    # answer picked for the other (DUGFTH9W8B, its title writing "Optimal Transport") does not
    assert len(quoting) == 34 and answer.answer.count(" co-author") == 1
    assert "9hiq7LaV4G" not in {s.paper_id for s in quoting}


def test_a_list_shorter_than_its_topic_says_how_many_papers_write_it(icml_engine):
    # a literature-review session: 9 sparse-autoencoder papers listed, 19 writing it, and no word of them
    answer = icml_engine.ask("Which papers use sparse autoencoders?", mode="extractive")
    shown = len(answer.sources)
    assert 0 < shown < 19
    # and how many of those shown write it (a long chat session: "7 write 'test-time scaling'; this list
    # shows 4" had read as four of the seven, where one of the four writes it)
    records = icml_engine.store.papers([s.paper_id for s in answer.sources])
    of = sum(bool(re.search(r"sparse autoencoders?", r.full_text, re.I)) for r in records.values())
    assert 0 < of < shown
    assert answer.notes[-1] == (
        f'19 stored papers write "sparse autoencoders" in their title or abstract; this list shows '
        f'{shown}, the most relevant, {of} of them writing it (`paperchat ask "How many papers are about '
        'sparse autoencoders?" --top-k 19` lists them)'
    )
    # a broad topic is counted by its words, without reading 248 abstracts for the phrase
    broad = icml_engine.ask("Which papers are about diffusion models?", mode="extractive")
    assert broad.notes[-1].startswith(
        '248 stored papers have every word of "diffusion models" in their title or abstract; this list '
        'shows 10, the most relevant (`paperchat ask "How many papers are about diffusion models?" '
        "--top-k 50` lists 50 of them)"  # each of the ten holds them
    )
    # a list longer than its topic's count says so when it leaves some of them out (a survey author's 10
    # on graph transformers had held 3 not writing it, with no note)
    quantum = icml_engine.ask("Which papers study quantum computing?").notes
    assert quantum[-1].startswith(
        '2 stored papers write "quantum computing" in their title or abstract; this list shows 10, the '
        "most relevant, 1 of them writing it"
    )


def test_a_follow_up_answered_over_all_papers_says_so_beside_the_answer(icml_engine):
    # a literature-review session: "what about its limitations?" after two speculative-decoding papers quoted
    # RULEBREAKERS' "limitation" sentence, and only /why said it was a new question
    from paperchat.chat.session import ChatSession

    chat = ChatSession(icml_engine, mode="extractive")
    chat.handle("Which papers are about speculative decoding?")
    compared = chat.handle("compare the first and the third ones").answer
    answer = chat.handle("what about its limitations?").answer
    assert "answered as a new one over all papers" in chat.last.resolution.note
    assert not {s.paper_id for s in compared.sources} & {s.paper_id for s in answer.sources}
    assert answer.notes[-1] == (
        "the 2 papers referred to say nothing on this: answered as a new question over all papers"
    )


def test_any_others_after_follow_ups_is_more_of_the_list(icml_engine):
    # a literature-review session: "any others?" after "compare them" abstained, "no stored paper beyond
    # the 8 shown fits 'compare An End-to-End Model ..., StealthInk, ...'", though the list had more
    from paperchat.chat.session import ChatSession

    chat = ChatSession(icml_engine, mode="extractive")
    listed = chat.handle("Which papers study watermarking of LLM-generated text?").answer
    chat.handle("what does the first one propose?")
    chat.handle("compare them")
    more = chat.handle("any others?").answer
    assert not more.abstained
    assert "Optimizing Adaptive Attacks against Watermarks for Language Models" in more.answer
    assert not {s.paper_id for s in listed.sources} & {s.paper_id for s in more.sources}
    assert chat.last.resolution.note.startswith(
        'more for "Which papers study watermarking of LLM-generated text?"'
    )


def test_a_second_papers_sentence_starts_its_own_line_under_its_title(icml_engine):
    # a break-it session: RE-Bench's "We compare humans to ..." ran on after Windows Agent Arena's sentences,
    # so "we" read as Windows Agent Arena's authors
    answer = icml_engine.ask(
        "How do humans compare with agents on Windows Agent Arena?", mode="extractive"
    )
    assert [s.paper_id for s in answer.sources] == ["W9s817KqYf", "3rB0bVU6z6"]
    first, second = answer.answer.split("\n")
    assert first.startswith("Our work not only speeds up") and first.endswith("[1].")
    assert second.startswith(
        "RE-Bench: Evaluating Frontier AI R&D Capabilities of Language Model Agents against Human "
        "Experts: We compare humans to several public frontier models"
    )


def test_which_of_these_keeps_the_listed_papers_that_write_the_words(icml_engine):
    # a chat break-it session: "which of these use diffusion?" after a list of backdoor papers quoted every
    # one of them, though one writes "diffusion"
    from paperchat.chat.session import ChatSession

    chat = ChatSession(icml_engine, mode="extractive")
    listed = chat.handle("Which papers study backdoor attacks?").answer.sources
    assert MIXBRIDGE in {s.paper_id for s in listed}
    diffusion = chat.handle("which of these use diffusion?").answer
    assert [s.paper_id for s in diffusion.sources] == [MIXBRIDGE]
    assert diffusion.notes[-1] == (
        f'1 of the {len(listed)} papers of the previous answer writes "diffusion"; the answer is from it'
    )

    chat = ChatSession(icml_engine, mode="extractive")
    listed = chat.handle("Which papers study backdoor attacks?").answer.sources
    none = chat.handle("which of them use quantum annealing?").answer
    assert none.abstained and none.sources == []
    assert none.answer == (
        f'None of the {len(listed)} papers of the previous answer writes "quantum annealing" in its title '
        "or abstract."
    )
    # not a paper writing the words only under a negation (a notebook session: ASD "does not require any
    # auxiliary draft models" was kept)
    chat = ChatSession(icml_engine, mode="extractive")
    listed = chat.handle("Which papers study speculative decoding?").answer.sources
    assert "n08niE37ku" in {s.paper_id for s in listed}  # ASD, of the list
    drafting = chat.handle("which of these use a draft model?").answer
    assert drafting.sources and "n08niE37ku" not in {s.paper_id for s in drafting.sources}


def test_two_authors_together_are_both_named_in_the_note(icml_engine):
    # a README audit: the note named "Mang Ye" alone for "... Mang Ye and Wenke Huang together"
    answer = icml_engine.ask("papers by Mang Ye and Wenke Huang together", mode="extractive")
    assert answer.notes[0] == (
        '8 stored papers by authors named "Mang Ye" and "Wenke Huang" together (Mang Ye with Wenke Huang)'
    )
