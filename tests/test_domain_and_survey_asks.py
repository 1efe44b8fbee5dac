"""At conference scale (the 2,740-paper ``icml_store``): a domain scientist's, a science journalist's, a skeptic's
and a survey author's questions (forty-fourth round): fields no paper covers, what the store does not
record (affiliations, citation counts, finer dates), counts of a name as papers write it, and lists asked
for "every paper"."""

from __future__ import annotations

import pytest

from paperchat.answer.paper_counts import listed_topic, topic_forms
from paperchat.answer.unrecorded import asked_affiliation


def _ids(answer) -> list[str]:
    return [s.paper_id for s in answer.sources]


def test_a_field_no_abstract_names_is_declined(icml_engine):
    # a graph-prompt paper and a peptide-sequencing paper had been quoted, with no note
    for question in [
        "Which papers analyze metabolomics data?",
        "Is there anything on microbiome sequencing?",
    ]:
        answer = icml_engine.ask(question, mode="extractive")
        assert answer.abstained and not answer.sources, question
    # a field some abstracts name is answered
    answer = icml_engine.ask("Anything for single-cell data?", mode="extractive")
    assert not answer.abstained and {"jnPHZqcUdn", "0m4VsLwj5s"} <= set(_ids(answer))
    # with the count note a list carries
    series = icml_engine.ask("Anything for time series forecasting?", mode="extractive")
    assert series.notes[-1].startswith('30 stored papers write "time series forecasting"')


def test_counts_read_names_as_papers_write_them(icml_engine):
    # "MATH" the benchmark in capitals (the word "math" had been counted: 38)
    math = icml_engine.ask("How many papers report results on MATH?", mode="extractive")
    assert math.count == 13 and "MATH-Perturb" in math.answer
    # "CIFAR-10" and "CIFAR10" are one dataset (27 and 8 abstracts of the ICML file)
    cifar = icml_engine.ask("How many papers evaluate on CIFAR-10?", mode="extractive")
    assert cifar.count == 32 and '(also as "CIFAR10")' in cifar.answer
    # a coined name with its version numbers: "AlphaFold2", "AlphaFold3" had been left out
    alphafold = icml_engine.ask("Which papers use AlphaFold?", mode="extractive")
    assert {"8tQdwSCJmA", "Afmi28vgIf", "qzM37nOy3N"} <= set(_ids(alphafold))
    assert alphafold.count == 5
    # "**S**election" (bold markup inside a word) is no "election"
    elections = icml_engine.ask("How many papers are about elections?", mode="extractive")
    assert set(_ids(elections)) == {"Y7GpMDrWG4", "E1E6T7KHlR"}
    # "copyrighted" writes copyright (DIS-CO had been left out)
    copyright_ = icml_engine.ask("How many papers are about copyright?", mode="extractive")
    assert copyright_.count == 11 and "q0P4rrDImq" in _ids(copyright_)
    # "report a" is the count's verb, not words of its topic
    negative = icml_engine.ask("How many papers report a negative result?", mode="extractive")
    assert set(_ids(negative)) == {"TOn1rhgdeD", "BiXwdXZxs7"}


def test_what_the_store_does_not_record_is_declined_with_a_note(icml_engine):
    for question, note in [
        (
            "What did OpenAI researchers present?",
            "without affiliations: which papers come from OpenAI",
        ),
        (
            "What did the researchers from Google DeepMind present?",
            "which papers come from Google DeepMind is not in it",
        ),
        ("Which KV cache paper is the most cited?", "the store keeps no citation counts"),
        (
            "Which is the earliest paper on KV cache compression?",
            "every stored paper it may be answered from is from 2025",
        ),
    ]:
        answer = icml_engine.ask(question, mode="extractive")
        assert answer.abstained and note in answer.notes[0], question


def test_every_paper_lists_and_a_list_missing_some_writers_says_so(icml_engine):
    # "List every paper on machine unlearning." had cited 2 papers with no count
    # (then a verifier's "List every paper on speculative decoding." had shown 7 of the 11: the count's)
    every = icml_engine.ask("List every paper on machine unlearning.", mode="extractive")
    assert every.count == 14 and len(every.sources) >= 10
    assert every.answer.startswith('14 stored papers write "machine unlearning"')
    assert not any("every" in note for note in every.notes)  # 'lacks "every"' had been noted
    decoding = icml_engine.ask("List every paper on speculative decoding.", mode="extractive")
    assert decoding.count == 11
    # as many papers as write it, 3 of them not writing it: said (there had been no note)
    graph = icml_engine.ask("Which papers are about graph transformers?", mode="extractive")
    assert "this list shows 10, the most relevant, 7 of them writing it" in graph.notes[-1]


def test_agree_compares_and_capability_verbs_are_no_missing_words(icml_engine):
    # "Do A and B agree ...?" quotes both (GrokFormer alone had been quoted)
    agree = icml_engine.ask(
        "Do GNN+ and GrokFormer agree on whether graph transformers outperform classic GNNs?",
        mode="extractive",
    )
    assert set(_ids(agree)) == {"p-fb365a7031bd", "wFBBh8bcoC"}
    # 'does not write "handle"' had stood under the sentence that decides it
    unisim = icml_engine.ask(
        "Can UniSim handle proteins as well as small molecules?", mode="extractive"
    )
    assert _ids(unisim) == ["W598uW37zt"] and not unisim.notes
    assert "small molecules, peptides, and proteins" in unisim.answer


@pytest.mark.unit
@pytest.mark.parametrize(
    "question, org",
    [
        ("What did the researchers from Google DeepMind present?", "Google DeepMind"),
        ("What did OpenAI researchers present?", "OpenAI"),
        ("Which researchers from Tsinghua University work on diffusion?", "Tsinghua University"),
        ("Which Stanford researchers work on RL?", "Stanford"),
        ("What has Sergey Levine's lab published?", None),  # a person's: an author question
        ("What did researchers at ICML find about LLMs?", None),  # the venue
        ("How do researchers at the frontier evaluate models?", None),
    ],
)
def test_an_organisation_asked_for(question, org):
    assert asked_affiliation(question) == org


@pytest.mark.unit
def test_name_forms_and_every_paper_topics():
    assert topic_forms("CIFAR-10") == ["CIFAR-10", "CIFAR10"]
    assert topic_forms("CIFAR10") == ["CIFAR10", "CIFAR-10"]
    assert topic_forms("LLMs") == ["LLMs", "LLM"]
    assert listed_topic("List every paper on machine unlearning.") == "machine unlearning"
    assert listed_topic("Show me all the papers about KV cache") == "KV cache"


def test_orals_spotlights_and_posters_are_read_from_the_stored_presentation(icml_engine):
    # the ICML 2025 file gives each paper's presentation; the store had dropped it ("the store does not
    # record whether a paper was an oral"), so "How many papers were orals?" had counted a keyword
    orals = icml_engine.ask("How many papers were orals?", mode="extractive")
    assert orals.count == 108 and orals.answer.startswith(
        "108 stored papers were presented as orals"
    )
    assert icml_engine.ask("How many spotlights are there?", mode="extractive").count == 211
    # a list over the orals only; a topic no oral holds is declined with a note
    diffusion = icml_engine.ask("Which oral papers are about diffusion?", mode="extractive")
    assert diffusion.notes[0] == "answered from the 108 stored papers presented as orals"
    assert "KPRIwWhqAZ" in _ids(diffusion)  # DeFoG, an oral
    unlearning = icml_engine.ask(
        "Which oral papers are about machine unlearning?", mode="extractive"
    )
    assert unlearning.abstained and unlearning.notes == [
        'none of the 108 stored papers presented as orals has every word of "machine unlearning" '
        "in its title or abstract"
    ]
    # one paper's presentation, from its record
    defog = icml_engine.ask("Was DeFoG a spotlight?", mode="extractive")
    assert _ids(defog) == ["KPRIwWhqAZ"] and "presented as an oral" in defog.answer
    flatvi = icml_engine.ask("Did FlatVI get a spotlight?", mode="extractive")
    assert _ids(flatvi) == ["DoDXFkF10S"] and "presented as a spotlight" in flatvi.answer
    others = icml_engine.ask("How many papers were not orals?", mode="extractive")
    assert others.count == 2624  # 211 spotlights and 2,413 posters


@pytest.mark.unit
def test_a_presentation_kind_in_a_question_and_in_a_corpus_field():
    from paperchat.answer.presentations import asked_presentation
    from paperchat.ingest.venue import presentation

    assert asked_presentation("Which unlearning papers were orals?").kind == "oral"
    assert asked_presentation("How many orals are there?").rest == "How many papers are there?"
    assert asked_presentation("Which papers were accepted as a spotlight?").kind == "spotlight"
    ask = asked_presentation("What is the title of the ICML 2025 oral about speculative decoding?")
    assert ask.rest == "What is the title of the paper about speculative decoding?"
    assert asked_presentation("Which papers study oral cancer?") is None
    # its record answers "Was ConfPO an oral?" (a venue question)
    assert asked_presentation("Was ConfPO an oral?") is None
    # a verifier's: the ordinary senses are no kind, "orally" and "not" are read
    assert asked_presentation("Which papers generate posters or graphic designs?") is None
    assert asked_presentation("Which papers put the spotlight on fairness?") is None
    assert asked_presentation("How many papers were presented orally?").kind == "oral"
    not_orals = asked_presentation("How many papers were not orals?")
    assert not_orals.negated and not_orals.holds("poster") and not not_orals.holds("")
    ask = asked_presentation("Which papers were highlighted as spotlights about LLM reasoning?")
    assert ask.rest == "Which papers about LLM reasoning?"
    assert presentation({"presentation": "Spotlight Poster"}) == "spotlight"
    assert presentation({"venue": "ICML 2025 (Oral)"}) == "oral"
    assert presentation({"venue": "ICML 2025"}) == ""


def test_a_survey_authors_and_a_journalists_phrasings(icml_engine):
    # "the main approaches to X" is a list (RocketKV alone had been quoted)
    approaches = icml_engine.ask(
        "What are the main approaches to KV-cache compression?", mode="extractive"
    )
    assert {"RyOpooIxDF", "oa7MYAO6h6", "7SHbJENgHX"} <= set(_ids(approaches))
    assert not approaches.notes  # 'lacks "main"' had been noted
    # "What causes LLMs to ...?" asks why, not which LLM ("the abstract names no LLMs" had declined it)
    causes = icml_engine.ask(
        "What causes LLMs to make errors when generating code?", mode="extractive"
    )
    assert not causes.abstained and _ids(causes)[0] == "aEnkBIhYvO"
    # a whole title, unquoted and seven words long, names its paper (TuCo had been named)
    limits = icml_engine.ask(
        "What limitations does Overtrained Language Models Are Harder to Fine-Tune admit?",
        mode="extractive",
    )
    assert limits.abstained and "(YW6edSufht): its abstract states no limitation" in limits.notes[0]


def test_any_others_after_a_topic_list_are_the_papers_writing_it(icml_engine):
    from paperchat.chat.session import ChatSession

    chat = ChatSession(icml_engine, mode="extractive")
    first = chat.handle("Which papers are about KV cache?").answer
    more = chat.handle("any others?").answer
    # diffusion feature-caching papers (Ca2-VDM, HarmoniCa) had been listed
    assert more.sources and not set(_ids(more)) & set(_ids(first))
    assert "MhVJCxYEEi" in _ids(more)  # SepLLM writes "KV cache"
    assert not {"YbtH1aoE1V", "NQyqpK6d72"} & set(_ids(more))


@pytest.mark.unit
def test_a_factor_and_a_preposition_are_no_unrecorded_metadata():
    from paperchat.answer.unrecorded import unrecorded_note

    def note(question):
        return unrecorded_note(question, lambda: {2025}, lambda: {"ICML"})

    assert note("... matches the baseline while being how many times more efficient?") is None
    assert note("In teams of AI chatbots where one agent errs, what share is recovered?") is None
    assert note("How many times was RocketKV cited?").startswith("the store keeps no citation")
    assert note("Which is the oldest paper on diffusion?").startswith("every stored paper")
    assert note("What is the newest paper on diffusion models?").startswith("every stored paper")
    assert note("Which unlearning paper came out first?").startswith("every stored paper")
    assert note("Which paper on graph transformers has the most citations?").startswith("the store")
    assert note("Which papers come from Meta AI?").startswith(
        "the store keeps each paper's authors"
    )
    assert note("What are the latest methods for unlearning?") is None
    assert unrecorded_note("Which is the oldest paper?", lambda: {2019, 2025}, set) is None
