"""Questions answered from the stored metadata, on the real bundled store: an author's papers ("Which papers did
Raman Arora write?"), or a topic answered from that author's papers only, and where and when a paper appeared
("When was ConfPO published?"); and the author-name matching on its own."""

from __future__ import annotations

import pytest

from paperchat.answer.authorship import AuthorIndex, author_in_question
from paperchat.ingest.records import PaperRecord
from paperchat.retrieve.filters import Filters

ARORA = "p-3c67db56192f"  # "Backdoor Attacks in Token Selection of Attention Mechanism" (Yunjuan Wang, Raman Arora)
LIGHTGTS = "p-34c64e0fe1f8"  # Peng Chen among 8 authors (and Chenjuan Guo, not a Chen)
QUADRUPLE = "p-923eb9661ca3"  # Yicong Chen among 6
RELGNN = "p-1d90af2b1c95"  # Tianlang Chen, Charilaos Kanatsoulis, Jure Leskovec
CONSENSUS = "p-688ba385e77f"  # Álvaro Rodrı́guez Abella, João Pedro Silvestre, Paulo Tabuada


def _index() -> AuthorIndex:
    return AuthorIndex(
        {
            "a": PaperRecord("a", authors=["Yoshua Bengio", "Ada Lovelace"]),
            "b": PaperRecord("b", authors=["Emmanuel Bengio"]),
            "c": PaperRecord("c", authors=["Mihaela Van Der Schaar", "Sébastien Bubeck"]),
            "d": PaperRecord("d", authors=["Chenjuan Guo", "Adam Smith"]),
        }
    )


@pytest.mark.parametrize(
    ("question", "typed", "ids", "rest", "listing"),
    [
        (
            "Which papers were written by Yoshua Bengio?",
            "Yoshua Bengio",
            {"a"},
            "Which papers were written?",
            True,
        ),
        ("What did Y. Bengio publish?", "Y. Bengio", {"a"}, "What did publish?", True),
        ("Bengio's papers on GFlowNets", "Bengio", {"a", "b"}, "papers on GFlowNets", False),
        (
            "papers by sebastien bubeck about bandits",
            "sebastien bubeck",
            {"c"},
            "papers about bandits",
            False,
        ),
        ("What papers are by Emmanuel Bengio?", "Emmanuel Bengio", {"b"}, "What papers are?", True),
        (
            "List papers with Mihaela van der Schaar as an author",
            "Mihaela van der Schaar",
            {"c"},
            "List papers with as an author",
            True,
        ),
    ],
)
def test_the_author_a_question_asks_for(question, typed, ids, rest, listing):
    ask = author_in_question(question, _index())
    assert (ask.typed, set(ask.ids), ask.rest, ask.listing) == (typed, ids, rest, listing)


def test_two_authors_joined_are_the_papers_they_share():
    # a reading break-it session: "Which papers were written by Mang Ye and Wenke Huang together?" abstained
    from paperchat.answer.authorship import joint_author

    question = "Which papers were written by Yoshua Bengio and Ada Lovelace together?"
    index = _index()
    ask = joint_author(question, author_in_question(question, index), index)
    assert (ask.typed, ask.also, set(ask.ids), ask.listing) == (
        "Yoshua Bengio",
        "Ada Lovelace",
        {"a"},
        True,
    )
    assert ask.who == 'authors named "Yoshua Bengio" and "Ada Lovelace" together'
    # a second name no stored author has leaves the first author's papers
    other = "Which papers did Yoshua Bengio and Alan Turing write?"
    assert joint_author(other, author_in_question(other, index), index).also == ""


def test_a_name_of_several_words_is_one_person():
    # a second break-it session: "Michael Jordan" had matched every Michael, "Mihaela Schaar" every Mihaela
    index = AuthorIndex(
        {
            "j": PaperRecord("j", authors=["Michael I. Jordan"]),
            "b": PaperRecord("b", authors=["Michael M. Bronstein", "Li Shen"]),
            "s": PaperRecord("s", authors=["Mihaela Van Der Schaar", "Bo Li"]),
            "h": PaperRecord("h", authors=["José Miguel Hernández-Lobato", "Timothy J. O’Donnell"]),
            "k": PaperRecord("k", authors=["Martin Luther King, Jr."]),
        }
    )
    for question, ids in [
        ("papers by Michael Jordan on conformal prediction", {"j"}),
        ("papers by Mihaela Schaar", {"s"}),
        ("papers by José Miguel Hernández Lobato", {"h"}),
        ("papers by Timothy O'Donnell", {"h"}),
        ("Li's papers", {"s"}),  # a surname: Bo Li, not Li Shen
        ("papers by Michael Smith", set()),  # no such person, not every Michael
        ("papers by Martin Luther King", {"k"}),  # a suffix after the stored name
        ("King's papers", {"k"}),
        ("Which papers did Sergey Brin write?", set()),
    ]:
        assert set(author_in_question(question, index).ids) == ids, question


def test_et_al_names_a_first_author():
    # "Song et al.'s papers" are the papers whose first author is Song, not every paper with a Song among
    # its authors; with a topic the phrase is left to the question ("the attack of Zou et al." is prior work)
    index = _index()
    for question, typed, ids in [
        ("Which papers did Bengio et al. write?", "Bengio", {"a", "b"}),
        ("Yoshua Bengio et al.'s papers", "Yoshua Bengio", {"a"}),
    ]:
        ask = author_in_question(question, index)
        assert (ask.typed, set(ask.ids), ask.listing, ask.first) == (typed, ids, True, True), (
            question
        )
    assert author_in_question("Which papers did Yoshua Bengio et al. write?", index).who == (
        'a first author named "Yoshua Bengio"'
    )
    assert author_in_question("What did Bengio et al. propose for GFlowNets?", index) is None
    # no stored first author of that name: no author ask
    assert author_in_question("Did Bubeck et al. study bandits?", index) is None


def test_names_that_are_not_an_authors():
    index = _index()
    # a word of a longer name is not the name ("Chen" is not "Chenjuan"); "by Adam" is not "papers by"
    assert author_in_question("Which papers were written by Chen?", index).ids == frozenset()
    assert author_in_question("Which papers improve training by Adam?", index) is None
    assert author_in_question("What did the authors publish about bandits?", index) is None
    # a word in capitals is not a name ("has AI write tests" is not an author "Ai Han")
    assert (
        author_in_question(
            "a paper that has AI write tests",
            AuthorIndex({"e": PaperRecord("e", authors=["Ai Han"])}),
        )
        is None
    )
    # a capitalised name no author has, asked for nothing but its papers: an ask without papers
    google = author_in_question("Which papers were written by Google DeepMind?", index)
    assert (google.typed, google.ids, google.listing) == ("Google DeepMind", frozenset(), True)
    # ... while a topic after it stays a topic question
    assert author_in_question("papers by Google on protein folding", index) is None


def test_an_authors_papers_are_listed_from_the_metadata(bundled_engine):
    answer = bundled_engine.ask("Which papers did Raman Arora write?", mode="extractive")
    assert answer.answer == (
        '"Backdoor Attacks in Token Selection of Attention Mechanism" is by Raman Arora and 1 co-author [1].'
    )
    assert [s.paper_id for s in answer.sources] == [ARORA]
    assert answer.sources[0].text == (
        "Title: Backdoor Attacks in Token Selection of Attention Mechanism\nAuthors: Yunjuan Wang, Raman Arora"
    )
    assert answer.notes == ['1 stored paper by an author named "Raman Arora" (Raman Arora)']


def test_a_surname_lists_every_author_of_that_name(bundled_engine):
    answer = bundled_engine.ask("Chen's papers", mode="extractive")
    assert {s.paper_id for s in answer.sources} == {LIGHTGTS, QUADRUPLE, RELGNN}
    assert "is by Tianlang Chen and 2 co-authors [" in answer.answer
    assert answer.notes[0].startswith('3 stored papers by an author named "Chen" (')
    assert answer.count is None and "count" not in answer.to_json()
    # how many: the count leads, and --json gives it as a number
    many = bundled_engine.ask("How many papers did Chen write?", mode="extractive")
    assert many.answer.split("\n")[0] == '3 stored papers by an author named "Chen":'
    assert many.count == 3 and many.to_json()["count"] == 3
    # accents typed or not
    plain = bundled_engine.ask("What did Alvaro Rodriguez Abella publish?", mode="extractive")
    assert [s.paper_id for s in plain.sources] == [CONSENSUS]


def test_a_topic_is_answered_from_the_authors_papers_only(bundled_engine):
    answer = bundled_engine.ask(
        "What has Jure Leskovec written about relational databases?", mode="extractive"
    )
    assert not answer.abstained
    assert {s.paper_id for s in answer.sources} == {RELGNN}
    assert answer.question == "What has Jure Leskovec written about relational databases?"
    assert (
        'answered from the 1 stored paper by an author named "Jure Leskovec" (Jure Leskovec)'
        in answer.notes
    )


def test_no_such_author_or_none_through_the_filters(bundled_engine):
    nobody = bundled_engine.ask("Which papers were written by DeepMind?", mode="extractive")
    assert nobody.abstained and nobody.sources == []
    assert nobody.notes == [
        'no stored paper has an author named "DeepMind" (authors are stored by name, without affiliations)'
    ]
    filtered = bundled_engine.ask(
        "Which papers did Raman Arora write?", mode="extractive", filters=Filters(author="Leskovec")
    )
    assert filtered.abstained
    assert filtered.notes == ['no paper by an author named "Raman Arora" passes the filters']


CONFPO = "p-abe9274a3783"
CONFPO_TITLE = "ConfPO: Exploiting Policy Model Confidence for Critical Token Selection in Preference Optimization"


@pytest.mark.parametrize(
    "question",
    [
        "When was ConfPO published?",
        "Which conference did ConfPO appear in?",
        "What is the venue of ConfPO?",
        # a break-it session: these had quoted abstract sentences
        "What year is ConfPO from?",
        "In what year did ConfPO come out?",
        "Is ConfPO an ICML paper?",
        "Is ConfPO a NeurIPS 2024 paper?",
    ],
)
def test_where_and_when_a_paper_appeared(bundled_engine, question):
    answer = bundled_engine.ask(question, mode="extractive")
    assert answer.answer == f'"{CONFPO_TITLE}" appeared at ICML 2025 [1].'
    assert [s.paper_id for s in answer.sources] == [CONFPO]
    assert answer.sources[0].text.endswith("\nVenue: ICML 2025")


def test_a_year_or_venue_in_another_sense_is_not_a_venue_question(bundled_engine):
    for question in ("Is ConfPO an LLM paper?", "What year is the data from in ConfPO?"):
        assert "appeared at" not in bundled_engine.ask(question, mode="extractive").answer


def test_presented_in_another_sense_is_not_a_venue_question(bundled_engine):
    answer = bundled_engine.ask(
        "When ConfPO is presented with preference data, which tokens does it optimize?",
        mode="extractive",
    )
    assert "appeared at" not in answer.answer
    assert [s.paper_id for s in answer.sources] == [CONFPO]


@pytest.mark.parametrize(
    "asked",
    [
        "Did {who} write ConfPO?",
        "Was ConfPO written by {who}?",  # had been answered from the person's papers
        "Is ConfPO by {who}?",
        "Is {who} an author of ConfPO?",  # answered without saying whether
    ],
)
@pytest.mark.parametrize("who", ["Hee Suk Yoon", "Raman Arora", "Geoffrey Hinton"])
def test_did_an_author_write_a_paper_is_answered_by_who_wrote_it(bundled_engine, asked, who):
    # an author of it, an author of another paper, and a name no stored author has (which had abstained)
    answer = bundled_engine.ask(asked.format(who=who), mode="extractive")
    assert answer.answer == (
        f'"{CONFPO_TITLE}" is by Hee Suk Yoon, Eunseop Yoon, Mark A. Hasegawa-Johnson, Sungwoong Kim and '
        "Chang D. Yoo [1]."
    )
    assert [s.paper_id for s in answer.sources] == [CONFPO]
    verdict = "one of its authors" if who == "Hee Suk Yoon" else "not among its authors"
    assert answer.notes == [f"{who} is {verdict}"]


def test_the_venue_of_a_paper_no_title_names_abstains(bundled_engine):
    # a second break-it session: "When was BERT published?" gave a paper that mentions BERT as appearing at
    # ICML; "When was this published?" gave some retrieved paper
    for question in ("When was BERT published?", "When was this published?"):
        answer = bundled_engine.ask(question, mode="extractive")
        assert answer.abstained and answer.sources == []
    assert answer.notes == ["no stored paper's title or label names the paper asked about"]


@pytest.mark.parametrize(
    ("question", "year", "rest"),
    [
        ("Which papers were published in 2024?", 2024, "Which papers were published?"),
        ("Which papers from 2023 study diffusion?", 2023, "Which papers study diffusion?"),
        ("List 2025 papers on graph neural networks", 2025, "List papers on graph neural networks"),
        # an own-corpus session: "are from 2024" had counted abstracts writing "2024"
        ("How many papers are from 2024?", 2024, "How many papers are?"),
    ],
)
def test_the_year_a_question_restricts_its_papers_to(question, year, rest):
    from paperchat.answer.year_asks import asked_year

    asked = asked_year(question)
    assert (asked.year, asked.rest) == (year, rest)


def test_a_year_in_the_topic_is_not_one_of_appearance():
    from paperchat.answer.year_asks import asked_year

    assert asked_year("What did the 2024 election show?") is None


def test_papers_of_a_year_come_from_the_stored_years(bundled_engine):
    # a break-it session: "Which papers were published in 2024?" listed papers whose abstracts wrote "2024"
    none = bundled_engine.ask("Which papers were published in 2024?", mode="extractive")
    assert none.abstained and none.notes == [
        "no stored paper appeared in 2024 (stored years: 2025)"
    ]
    some = bundled_engine.ask("Which papers from 2025 study backdoor attacks?", mode="extractive")
    assert ARORA in {s.paper_id for s in some.sources}
    assert "answered from the 38 stored papers that appeared in 2025" in some.notes


def test_et_al_lists_the_first_authors_papers(bundled_engine):
    listed = bundled_engine.ask("Yunjuan Wang et al.'s papers", mode="extractive")
    assert [s.paper_id for s in listed.sources] == [ARORA]
    assert listed.notes == ['1 stored paper by a first author named "Yunjuan Wang" (Yunjuan Wang)']


def test_how_many_authors_and_a_year_no_paper_has(bundled_engine):
    # a break-it session: "How many authors does CROW have?" abstained; "Which 2017 paper introduced the
    # Transformer architecture?" quoted a 2025 paper
    crow = bundled_engine.ask("How many authors does CROW have?", mode="extractive")
    assert crow.answer == (
        '"CROW: Eliminating Backdoors from Large Language Models via Internal Consistency Regularization" has '
        "4 authors: Nay Myat Min, Long H. Pham, Yige Li and Jun Sun [1]."
    )
    assert [s.paper_id for s in crow.sources] == ["p-f951bc7f7256"]
    old = bundled_engine.ask(
        "Which 2017 paper introduced the Transformer architecture?", mode="extractive"
    )
    assert old.abstained and old.notes == ["no stored paper appeared in 2017 (stored years: 2025)"]


def test_how_many_authors_a_title_has_retrieves_that_title(bundled_engine):
    # a reading break-it session: "How many authors does the paper Flow Q-Learning have?" answered for
    # "Linear Q-Learning Does Not Diverge ...": the question's words about authors had been searched too
    from paperchat.answer.intent import retrieval_query

    assert (
        retrieval_query("How many authors does the paper Flow Q-Learning have?")
        == "Flow Q-Learning have?"
    )
    answer = bundled_engine.ask("How many authors does the paper ConfPO have?", mode="extractive")
    assert (
        answer.answer.startswith(f'"{CONFPO_TITLE}" has 5 authors: ')
        and answer.sources[0].paper_id == CONFPO
    )


def test_a_title_typed_in_lower_case_without_its_hyphens_names_the_paper(bundled_engine):
    # a phone-style session: "when was flow q learning published" was declined ("no stored paper's title
    # or label names the paper asked about") though "who wrote flow q learning" found it
    answer = bundled_engine.ask(
        "when was calibrated physics informed uncertainty quantification published?",
        mode="extractive",
    )
    assert answer.answer.startswith(
        '"Calibrated Physics-Informed Uncertainty Quantification" appeared at ICML 2025 [1].'
    )


@pytest.mark.parametrize(
    ("question", "venue", "rest"),
    [
        ("Which papers appeared at NeurIPS?", "NeurIPS", "Which papers?"),
        (
            "How many NeurIPS papers are about backdoors?",
            "NeurIPS",
            "How many papers are about backdoors?",
        ),
        (
            "Which papers from NeurIPS 2024 study backdoors?",
            "NeurIPS",
            "Which papers from 2024 study backdoors?",
        ),
        ("What is ICML?", None, None),
    ],
)
def test_the_venue_a_question_restricts_its_papers_to(question, venue, rest):
    from paperchat.answer.venue_asks import asked_venue

    asked = asked_venue(question, {"ICML", "NeurIPS"})
    assert (asked.venue, asked.rest) == (venue, rest) if venue else asked is None
    # a store of one venue: its name is no restriction
    assert asked_venue(question, {"NeurIPS"}) is None


def test_a_venues_papers_are_listed_and_counted_from_the_metadata(two_venue_store):
    # an own-corpus session: "Which papers appeared at NeurIPS?" listed 3 of the store's NeurIPS papers
    from conftest import SECOND_VENUE

    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    engine = Engine(load_settings({"store": str(two_venue_store)}))
    listed = engine.ask("Which papers appeared at NeurIPS?", mode="extractive")
    assert listed.answer.startswith("4 stored papers appeared at NeurIPS:")
    assert sorted(s.paper_id for s in listed.sources) == sorted(SECOND_VENUE)
    counted = engine.ask("How many papers are from NeurIPS 2024?", mode="extractive")
    assert (counted.answer, counted.count) == ("4 stored papers appeared at NeurIPS in 2024.", 4)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "How many papers were accepted at ICML 2025?",
            "38 stored papers appeared at ICML in 2025.",
        ),
        ("How many papers were published at ICML?", "38 stored papers appeared at ICML."),
    ],
)
def test_a_count_of_a_one_venue_stores_papers_at_that_venue_counts_them_all(
    bundled_engine, question, said
):
    # a notebook break-it session: in a store of ICML papers "How many papers were accepted at ICML 2025?"
    # counted the 1 paper whose abstract writes "ICML"
    answer = bundled_engine.ask(question, mode="extractive")
    assert (answer.answer, answer.count, answer.sources) == (said, 38, [])


def test_a_count_at_a_stored_venue_in_a_year_it_lacks_abstains(bundled_engine):
    answer = bundled_engine.ask("How many papers were accepted to ICML 2024?", mode="extractive")
    assert answer.abstained
    assert answer.notes == ["no stored paper appeared in 2024 (stored years: 2025)"]


def test_a_counts_topic_that_is_only_a_stored_venue():
    from paperchat.answer.venue_asks import venue_topic

    assert venue_topic("at ICML 2025", {"ICML"}) == ("ICML", 2025)
    assert venue_topic("to the icml", {"ICML"}) == ("ICML", None)
    assert venue_topic("at ICML on diffusion", {"ICML"}) is None
    assert venue_topic("diffusion", {"ICML"}) is None


def test_a_question_about_orals_says_the_store_does_not_record_them(bundled_engine):
    # a notebook session: "Which oral papers are about reinforcement learning?" listed posters, saying nothing
    from paperchat.engine.metadata_reads import PRESENTATION_NOTE

    answer = bundled_engine.ask(
        "Which oral papers are about reinforcement learning?", mode="extractive"
    )
    assert PRESENTATION_NOTE in answer.notes
    assert PRESENTATION_NOTE not in bundled_engine.ask("What is ConfPO?", mode="extractive").notes


@pytest.mark.parametrize(
    "question",
    [
        "What is the acceptance rate of ICML 2025?",
        "What was the best paper at ICML 2025?",
        "Where was ICML 2025 held?",
    ],
)
def test_a_question_about_the_conference_itself_abstains_saying_why(bundled_engine, question):
    # a notebook session: each quoted an unrelated sentence of CoreMatching's abstract, cited
    answer = bundled_engine.ask(question, mode="extractive")
    assert answer.abstained and answer.sources == []
    assert answer.notes == [
        "the store holds the papers' abstracts and metadata, not facts about ICML itself (its acceptance "
        "rate, awards, talks, dates or place)"
    ]


def test_a_corresponding_author_question_says_the_store_does_not_record_one(bundled_engine):
    from paperchat.engine.metadata_reads import CORRESPONDING_NOTE

    answer = bundled_engine.ask("Who is the corresponding author of CROW?", mode="extractive")
    assert [s.paper_id for s in answer.sources] == ["p-f951bc7f7256"]
    assert CORRESPONDING_NOTE in answer.notes


@pytest.mark.parametrize(
    ("question", "year", "op", "rest"),
    [
        # an author session: "What did Sergey Levine publish before 2025?" listed his 2025 papers
        (
            "What did Sergey Levine publish before 2025?",
            2025,
            "before",
            "What did Sergey Levine publish?",
        ),
        (
            "Which papers were published prior to 2024?",
            2024,
            "before",
            "Which papers were published?",
        ),
        ("papers from after 2023 on diffusion", 2023, "after", "papers on diffusion"),
        (
            "How many papers were written since 2025?",
            2025,
            "since",
            "How many papers were written?",
        ),
    ],
)
def test_a_range_of_years_a_question_restricts_its_papers_to(question, year, op, rest):
    from paperchat.answer.year_asks import asked_year

    asked = asked_year(question)
    assert (asked.year, asked.op, asked.rest) == (year, op, rest)
    assert [asked.holds(y) for y in (year - 1, year, year + 1, None)] == {
        "before": [True, False, False, False],
        "after": [False, False, True, False],
        "since": [False, True, True, False],
    }[op]


def test_an_authors_papers_of_years_the_store_lacks_abstain(bundled_engine):
    before = bundled_engine.ask("What did Raman Arora publish before 2025?", mode="extractive")
    assert before.abstained and before.notes == [
        'no stored paper by an author named "Raman Arora" appeared before 2025 (stored years: 2025)'
    ]
    since = bundled_engine.ask("What did Raman Arora publish since 2025?", mode="extractive")
    assert [s.paper_id for s in since.sources] == [ARORA]
    every = bundled_engine.ask("How many papers were published after 2020?", mode="extractive")
    assert (every.answer, every.count) == ("38 stored papers appeared after 2020.", 38)


@pytest.mark.parametrize(
    "question",
    [
        # an author session: "Who are Sergey Levine's co-authors?" abstained
        "Who are Jure Leskovec's co-authors?",
        "Who has Jure Leskovec collaborated with?",
        "List the collaborators of Jure Leskovec",
        "Who wrote papers with Jure Leskovec?",
    ],
)
def test_an_authors_co_authors_are_listed_from_the_metadata(bundled_engine, question):
    answer = bundled_engine.ask(question, mode="extractive")
    assert answer.answer == (
        "Jure Leskovec has 2 co-authors on 1 stored paper:\n"
        "Tianlang Chen: 1 paper [1].\nCharilaos Kanatsoulis: 1 paper [1]."
    )
    assert [s.paper_id for s in answer.sources] == [RELGNN]


def test_a_count_of_co_authors_and_a_topic_beside_them():
    from paperchat.answer.coauthors import coauthor_ask, coauthors_answer

    index = _index()
    ask = coauthor_ask("How many co-authors does Yoshua Bengio have?", index)
    assert (ask.author, ask.ids, ask.count) == ("Yoshua Bengio", frozenset({"a"}), True)
    records = {"a": PaperRecord("a", title="T", authors=["Yoshua Bengio", "Ada Lovelace"])}
    answer = coauthors_answer("q", ask, records)
    assert (answer.count, answer.answer.splitlines()[1]) == (1, "Ada Lovelace: 1 paper [1].")
    # "Bengio" names two stored authors: the one with more papers answers, the note names the other
    both = coauthor_ask("Who are Bengio's collaborators?", index)
    assert (both.author, both.others) == ("Emmanuel Bengio", ("Yoshua Bengio",))
    # a topic after the co-authors: only the papers holding it count; something else asked is no such ask
    on = coauthor_ask("Who did Yoshua Bengio collaborate with on GFlowNets?", index)
    assert (on.author, on.topic) == ("Yoshua Bengio", "GFlowNets")
    assert coauthor_ask("Who are the co-authors of Attention Is All You Need?", index) is None
    assert (
        coauthor_ask("Who are Bengio's co-authors and which datasets do they use?", index) is None
    )
    none = coauthors_answer("q", on, {})
    assert none.abstained and none.notes == [
        'no paper by "Yoshua Bengio" holds every word of "GFlowNets"'
    ]


def test_who_wrote_a_paper_no_store_holds_abstains(bundled_engine):
    # a reading session: "Who wrote Attention Is All You Need?" named the authors of "Consensus Is All
    # You Get" (CONSENSUS), and "Who are the authors of BERT?" those of a paper mentioning BERT
    answer = bundled_engine.ask("Who wrote Attention Is All You Need?", mode="extractive")
    assert answer.abstained
    assert answer.notes == ['no stored paper is titled or named "Attention Is All You Need"']
    assert bundled_engine.ask("Who are the authors of BERT?", mode="extractive").abstained
    assert bundled_engine.ask("Who are the co-authors of GPT-4?", mode="extractive").abstained
    for question in ("Who wrote CROW?", "Who developed CROW?", 'Who wrote "ConfPO"?'):
        answer = bundled_engine.ask(question, mode="extractive")
        assert not answer.abstained and answer.answer.endswith(" [1].")
    assert bundled_engine.ask("Who developed CROW?").sources[0].paper_id == "p-f951bc7f7256"


def test_a_name_an_abstract_coins_is_its_paper():
    from paperchat.answer.focus import PaperText
    from paperchat.answer.titled import names_another_paper

    paper = PaperText("x", "Learning Operators", "Here we introduce DISCO, a model that ...", 0, 0)
    assert names_another_paper("Who developed DISCO?", paper) == ""
    assert names_another_paper("Who proposed GPT-4?", paper) == "GPT-4"
    # a description, not a name, is left to the relevance check
    assert (
        names_another_paper("Who proposed operators learned from short trajectories?", paper) == ""
    )
