"""Yes/no questions about one paper quote the sentence that decides them first (issue 17).

Questions written for these tests (none is in an eval set); the answers are asked of the 2,740-paper ICML
2025 store (``icml_store``).
"""

from __future__ import annotations

import pytest

from paperchat.answer.yes_no import asks_about


@pytest.mark.parametrize(
    "question, about",
    [
        ("Is S4S data-free?", True),
        ("does TARL depend on environment rewards?", True),
        ("Can QuantSpec run without a draft model?", True),
        ("Is there a paper on avalanche forecasting?", False),
        ("Has anyone used LLMs to grade essays?", False),
        ("Are any papers about protein folding?", False),
        ("What does S4S learn?", False),
        ("Can you explain the two stages of S4S?", False),  # a request
    ],
)
def test_a_yes_no_question_about_something(question, about):
    assert asks_about(question) is about


@pytest.mark.slow
@pytest.mark.parametrize(
    "question, paper, deciding",
    [
        # the deciding sentence says "our method", not "S4S"
        ("Is S4S data-free?", "9OaZCNbV2w", "lightweight, data-free"),
        ("Does NExtLong need real long documents?", "Q9DAI0AYv1", "non-synthetic long documents"),
        # not "Previous methods ... train draft models in an offline or online manner": others' work
        ("Does BanditSpec require training a draft model?", "ghkWIlliZ8", "a training-free online"),
    ],
)
def test_the_deciding_sentence_comes_first(icml_engine, question, paper, deciding):
    answer = icml_engine.ask(question, mode="extractive")
    assert not answer.abstained and answer.sources[0].paper_id == paper
    assert deciding in answer.answer.split("[1]")[0]


@pytest.mark.slow
def test_a_yes_no_question_its_abstract_does_not_address_gets_a_note(icml_engine):
    # a reviewer's session: "Is CateKV training-free?" quoted a memory result, no word of training
    answer = icml_engine.ask("Is CateKV training-free?", mode="extractive")
    assert answer.sources[0].paper_id == "u7dlwgKstN"
    assert answer.notes == [
        'the abstract of CateKV (u7dlwgKstN) does not write "training-free": the quotes may not decide '
        "the question"
    ]
    assert icml_engine.ask("Is S4S data-free?", mode="extractive").notes == []
    # a less common word it lacks beside words it holds (a course TA's session: FedCEO's "rigorous privacy
    # guarantees" read as a yes); common words ("provide", "require") and auxiliaries are not named
    answer = icml_engine.ask("Does FedCEO provide a convergence guarantee?", mode="extractive")
    assert answer.notes == [
        'the abstract of FedCEO (C7dmhyTDrx) does not write "convergence": the quotes may not decide '
        "the question"
    ]
    assert icml_engine.ask("Does BanditSpec require training a draft model?").notes == []
    # a claim's frame is no word the abstract must write (a meta-reviewer's "Is it true that FOL ...?" had
    # a note that FOL "does not write 'true'"), and "64x64" is written as "64×64"
    answer = icml_engine.ask(
        "Is it true that FOL improves accuracy by up to 39.24% over baselines on CIFAR-100?",
        mode="extractive",
    )
    assert answer.sources[0].paper_id == "jwjvkWsePB" and answer.notes == []
    answer = icml_engine.ask(
        "Does Score-of-Mixture Training evaluate on CIFAR-10 and ImageNet 64x64?", mode="extractive"
    )
    assert answer.sources[0].paper_id == "zk5k2NQcEA" and answer.notes == []
