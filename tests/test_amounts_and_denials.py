"""Amounts asked of one paper, and premises its abstract denies (issue 17).

"How much faster ...?" / "by how much ...?" is answered with the sentence that states the change (a ratio or
a percentage), quoted first even when the question's long description matched other sentences better; an
abstract that states no such number makes the answer abstain. A question about something the paper says it
does without ("which data augmentation does SCISSOR rely on?" where SCISSOR "eliminates the need for data
augmentation") is answered with a note naming the denied words.

Questions written for these tests (none is in an eval set); the answers are asked of the 2,740-paper ICML
2025 store (``icml_engine``).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from paperchat.answer.counts import (
    amount_sentences,
    asks_change,
    counting_sentences,
    defined_abbreviations,
    given_numbers,
    names_noun,
    states_change,
    states_number,
)

#: ConfPO (bundled corpus, ``SEED_000`` #3) as the 2,740-paper store holds it
CONFPO = "p-abe9274a3783"


@pytest.mark.parametrize(
    "question, change",
    [
        ("how much faster does it make them?", True),
        ("By how much does it beat the strongest baseline?", True),
        ("How much does it gain over the previous best methods?", True),
        ("how much does the new loss improve recall?", True),
        ("How much memory does it need?", False),  # an amount, not a change
        ("How large is the benchmark?", False),
        ("How much extra latency does the shuffling add at inference?", True),  # what a method adds
        ("How much additional compute did it spend?", True),
    ],
)
def test_a_change_is_asked_by_how_much_and_a_comparative(question, change):
    assert asks_change(question) is change


@pytest.mark.parametrize(
    "sentence, change",
    [
        ("ARROW achieves up to 153x speedup while achieving higher accuracy.", True),
        ("It shows an improvement of up to 6.5% over state-of-the-art methods.", True),
        ("It reaches 3.04$\\times$ higher throughput.", True),
        ("On MATH it improves the 7B model from 58.8 to 90.0.", True),
        # numbers, but no change: a count of datasets, an enumeration, a name
        ("We applied ARROW to four types of algorithms and 25 datasets.", False),
        ("It has two pipelines: (1) a reconstruction and (2) a decoder.", False),
        ("It improves results on CIFAR-100 and ImageNet.", False),
        # an enumerator beside a word of change ("(1) ... reduces ...") states no change
        ("It rests on (1) plug-and-play modules that reduce cost.", False),
    ],
)
def test_a_change_is_a_ratio_a_percentage_or_a_number_beside_a_word_of_change(sentence, change):
    assert states_change(sentence) is change


def test_a_number_inside_a_name_or_a_description_is_no_amount():
    assert not states_number("We search spaces such as TransNAS-Bench-101 and NATS-Bench.")
    assert not states_number("It generates 3D waveforms.")
    assert states_number("We only need $0.004$ GPU days.")
    # "one" with a unit of time is an amount ("How long does LightningDrag take?" had abstained)
    assert states_number("It edits images in about one second on general images.")
    assert not states_number("It generates one token after another.")
    assert states_number("The corpus holds 1.2 million waveforms.")
    assert not states_number("We prove that decoder-only Transformers can decide 3-SAT.")  # a name
    assert states_number("We train a 3-layer network.")
    # a LaTeX command that sets text is no math; one that writes math is
    assert not states_number("We test whether it can be \\textit{trained} to do so.")
    assert states_number("It needs \\tilde{O}(D) tasks.")


def test_a_number_the_question_gives_answers_nothing():
    question = (
        "Of the 1,200 prompts that GPT-4 users wrote in 3.5 hours, how many were written by hand?"
    )
    assert given_numbers(question) == {"1200", "3.5"}  # not GPT-4's 4
    assert given_numbers("How many GPUs did the 8B model need (3-hour runs)?") == frozenset()
    total = SimpleNamespace(text="We collect 1,200 prompts from 40 annotators.", role="result")
    split = SimpleNamespace(text="Of these, 310 prompts are handwritten.", role="result")
    given = given_numbers(question)
    # "40 annotators" stands within the window of "prompts", so the first sentence still counts prompts
    assert counting_sentences([total], "prompts", None, True) == [total]
    assert counting_sentences([total], "prompts", None, True, given) == [total]
    only_total = SimpleNamespace(text="The benchmark holds 1,200 prompts.", role="result")
    assert counting_sentences([only_total, split], "prompts", None, True, given) == [split]
    assert not states_number("The study took 3.5 hours.", given)
    assert states_number("The study took 3.5 hours.")
    assert not states_change("It improves 3.5 points.", frozenset({"3.5"}))
    assert [c.text for c in amount_sentences([only_total], "How much of the 1,200 prompts?")] == []


def test_an_abbreviation_the_abstract_defines_counts_its_noun():
    abstract = (
        "Can a pre-trained large multimodal model (LMM) be ranked without labels? "
        "We evaluate 47 state-of-the-art LMMs across 9 benchmarks."
    )
    aliases = defined_abbreviations(abstract, "model")
    assert aliases == {"LMM", "LMMs"}
    assert defined_abbreviations(abstract, "benchmark") == frozenset()
    # initials that do not spell the abbreviation define nothing
    assert defined_abbreviations("a simple model (LMM) here", "model") == frozenset()
    evaluated = SimpleNamespace(text="We evaluate 47 state-of-the-art LMMs across 9 benchmarks.")
    assert counting_sentences([evaluated], "model", None, True) == []
    assert counting_sentences([evaluated], "model", None, True, aliases=aliases) == [evaluated]


def test_a_currency_states_an_amount_of_money():
    payouts = SimpleNamespace(text=r"1400 tasks, valued at \\\$1 million USD total in payouts.")
    assert counting_sentences([payouts], "money", None) == [payouts]
    assert counting_sentences([payouts], "dollars", None) == [payouts]
    assert counting_sentences([SimpleNamespace(text="We use 5 datasets.")], "money", None) == []


def test_the_sentences_that_can_answer_an_amount_skip_code_links():
    cands = [
        SimpleNamespace(text="Code is at https://github.com/x/y2.", role="resource"),
        SimpleNamespace(text="It uses two encoders.", role="method"),
        SimpleNamespace(text="It is 12% faster than the baseline.", role="result"),
    ]
    assert [c.text for c in amount_sentences(cands, "How much faster is it?")] == [
        "It is 12% faster than the baseline."
    ]
    assert [c.role for c in amount_sentences(cands, "How large is the model?")] == [
        "method",
        "result",
    ]


@pytest.mark.slow
def test_the_sentence_that_states_the_change_is_quoted_first(icml_engine):
    # each question's description matches the method sentences best; the amount is in a later sentence
    arrow = icml_engine.ask(
        "The causal discovery accelerator for time series that weaves time into the search, wrapping "
        "existing algorithms so they run on many time lags at once: how much faster does it make them?",
        mode="extractive",
    )
    assert [s.paper_id for s in arrow.sources] == ["C3gAIlPhjV"]
    assert "ARROW achieves up to 153x speedup" in arrow.answer.split(" [1]")[0]
    curv = icml_engine.ask(
        "The graph anomaly detector that reads curvature of the graph, mixing Riemannian geometry with "
        "the node features to catch odd nodes: how much does it gain over the previous best methods?",
        mode="extractive",
    )
    assert [s.paper_id for s in curv.sources] == ["O3dsbpAcqJ"]
    assert (
        "an improvement of up to 6.5% over state-of-the-art GAD methods"
        in curv.answer.split(" [1]")[0]
    )


@pytest.mark.slow
def test_an_amount_the_abstract_does_not_state_is_declined(icml_engine):
    # neither ActionPiece's nor ATA's abstract states any number
    for question in (
        "By how much does ActionPiece improve recall over tokenizing each action independently?",
        "How much faster does ATA train than greedy asynchronous methods?",
        # OVERTONE's abstract says "negligible computation overhead", with no number
        "How much extra computation does OVERTONE's token-level smoothing add to knowledge editing?",
    ):
        answer = icml_engine.ask(question, mode="extractive")
        assert answer.abstained and answer.sources == [], question


@pytest.mark.slow
def test_what_a_method_adds_is_answered_with_the_number_that_states_it(icml_engine):
    answer = icml_engine.ask(
        "How much additional compute did MixMin spend to improve the data mixture?",
        mode="extractive",
    )
    assert [s.paper_id for s in answer.sources] == ["wpaxYGgp2n"]
    assert "less than 0.2% additional compute" in answer.answer


@pytest.mark.slow
def test_a_premise_the_abstract_denies_is_declined_and_named_in_a_note(icml_engine):
    # the answer abstains (a note only from the tenth round to the twenty-ninth), and the note names the
    # denied words as the question writes them, and the paper
    scissor = icml_engine.ask(
        "Which data augmentation does SCISSOR rely on to debias?", mode="extractive"
    )
    assert scissor.abstained and scissor.sources == []
    assert scissor.notes[0] == (
        "the abstract of SCISSOR says it does without 'data augmentation': check the question's premise"
    )
    assert "(Rgd7poMTDp); the abstract denies the question's premise" in scissor.notes[1]
    medrax = icml_engine.ask(
        "What additional training does MedRAX need before answering chest X-ray queries?",
        mode="extractive",
    )
    assert "does without 'additional training'" in medrax.notes[0]
    # asked without the premise, or as yes or no, the same paper answers with no note
    for question in (
        "What does SCISSOR do to mitigate semantic bias?",
        "Does SCISSOR need data augmentation?",
    ):
        plain = icml_engine.ask(question, mode="extractive")
        assert not plain.abstained and plain.sources[0].paper_id == "Rgd7poMTDp", question
        assert plain.notes == [], question


@pytest.mark.slow
def test_a_count_the_question_itself_gives_is_no_answer(icml_engine):
    # BaxBench's abstract gives its 392 tasks and MathConstruct's its 127 problems, with no breakdown
    for question in (
        "How many of BaxBench's 392 tasks target Python frameworks?",
        "How many of the 127 MathConstruct problems were taken from the IMO?",
    ):
        answer = icml_engine.ask(question, mode="extractive")
        assert answer.abstained and answer.sources == [], question
    # a part the abstract does give is answered with its own number
    answer = icml_engine.ask(
        "How many of the 500 SafeArena tasks are harmful ones?", mode="extractive"
    )
    assert [s.paper_id for s in answer.sources] == ["7TrOBcxSvy"]
    assert "SafeArena comprises 250 safe and 250 harmful tasks" in answer.answer


@pytest.mark.slow
def test_a_technique_asked_of_one_named_paper_is_answered_from_that_paper(icml_engine):
    # ConfPO's abstract never mentions LoRA; papers on LoRA adapters must not answer for it
    answer = icml_engine.ask("Does ConfPO use LoRA adapters?", mode="extractive")
    assert [s.paper_id for s in answer.sources] == [CONFPO]
    answer = icml_engine.ask("Does ConfPO rely on a Bradley-Terry reward model?", mode="extractive")
    assert [s.paper_id for s in answer.sources] == [CONFPO]
    assert "model-free" in answer.answer


def test_a_model_size_written_7b_is_a_number_of_parameters():
    assert names_noun("across different model sizes (1B and 7B)", "parameters", False)
    assert names_noun("a 350M model", "parameters", False)
    assert not names_noun("trained on 7 datasets", "parameters", False)


def test_how_many_parameters_is_answered_by_the_model_sizes_an_abstract_gives(icml_engine):
    # a break-it session: it abstained ("no sentence gives a number of parameter") though MASS gives "(1B and 7B)"
    answer = icml_engine.ask(
        "How many parameters does the largest model in the MASS paper have?", mode="extractive"
    )
    assert [s.paper_id for s in answer.sources][:1] == ["RvYO10B5ss"]
    assert "model sizes (1B and 7B)" in answer.answer


def test_how_much_faster_is_answered_by_a_speed_not_another_gain():
    def cand(text):
        return SimpleNamespace(text=text, role="result")

    accuracy = cand(
        "CoSD improves accuracy by up to 10% across benchmarks compared to existing methods."
    )
    speed = cand("We demonstrate up to 13.5x acceleration in attention computation.")
    latency = cand("It cuts latency by 40% on an A100.")
    question = "How much faster is CoSD than autoregressive decoding?"
    # a break-it session: the accuracy gain had been quoted as the answer
    assert amount_sentences([accuracy], question) == []
    assert amount_sentences([accuracy, speed, latency], question) == [speed, latency]
    assert amount_sentences([accuracy], "By how much does CoSD beat the baselines?") == [accuracy]


def test_a_verb_of_needing_is_no_premise_its_object_is():
    # a notebook session: "What does ConfPO not require?" was declined for "require", which the abstract
    # writes after "without"; the thing required is the premise
    from paperchat.answer.premises import denied_terms

    abstract = (
        "ConfPO: Exploiting Policy Model Confidence\nWe introduce ConfPO, a method for preference learning "
        "that identifies preference-critical tokens based solely on the training policy's confidence, "
        "without requiring any auxiliary models or compute."
    )
    assert denied_terms("What does ConfPO not require?", abstract) == []
    assert denied_terms("What does ConfPO require?", abstract) == []
    assert denied_terms("Why does ConfPO need an auxiliary reward model?", abstract) == [
        "auxiliary"
    ]


def test_one_and_a_scale_word_is_an_amount_stated_first(icml_engine):
    # an eval author: "How big is TimeBench ...?" abstained ("the abstract states no such number") though
    # Sundial's abstract curates "TimeBench with one trillion time points"
    from paperchat.answer.counts import states_number

    assert states_number("We curate TimeBench with one trillion time points.")
    assert not states_number("We generate one token after another.")
    answer = icml_engine.ask("How big is TimeBench used to pretrain Sundial?", mode="extractive")
    assert [s.paper_id for s in answer.sources] == ["LO7ciRpjI5"]
    assert answer.answer.startswith("Towards time series foundation models")
    assert "one trillion time points" in answer.answer


def test_a_count_of_what_a_paper_is_evaluated_on_leads_with_its_evaluation(icml_engine):
    # an eval author: "On how many datasets is AWL evaluated?" led with "... surpassing GPT-4o and
    # Claude-3.5 on 4 custom-created datasets" where the abstract validates "on 6 scientific benchmark datasets"
    answer = icml_engine.ask("On how many datasets is AWL evaluated?", mode="extractive")
    assert [s.paper_id for s in answer.sources] == ["owulFly8oQ"]
    assert answer.answer.startswith("We validate our method on 6 scientific benchmark datasets")
