"""A technique a question takes as used that its paper's abstract never mentions is a false premise (a
fact-checker's set: "How does CAROTS use the reconstruction error of a variational autoencoder ...?" had
been answered with CAROTS's nearest sentences); and a question no stored paper writes a word of abstains."""

from __future__ import annotations

import pytest

from paperchat.answer.technique_premises import unused_thing

CROW = (
    "CROW: Eliminating Backdoors from Large Language Models via Internal Consistency Regularization. "
    "We propose Internal Consistency Regularization (CROW), a defense leveraging the observation that "
    "backdoored models exhibit unstable layer-wise hidden representations when triggered. CROW enforces "
    "consistency across layers via adversarial perturbations and regularization during finetuning, "
    "neutralizing backdoors without requiring clean reference models or knowledge of the trigger."
)


@pytest.mark.parametrize(
    "question, thing",
    [
        ("Why did CROW need a reward model to remove backdoors?", "a reward model"),
        ("How does CROW use graph neural networks to find the trigger?", "graph neural networks"),
        (
            "How does CROW combine contrastive pretraining with finetuning?",
            "contrastive pretraining",
        ),
        # what the abstract writes, as written or as a hyphenated or inflected form of it
        ("How does CROW use adversarial perturbations to enforce consistency?", None),
        ("How does CROW use layer-wise consistency during finetuning?", None),
        ("How does CROW rely on perturbed hidden representations?", None),
        ("Why does CROW use regularizers?", None),
        # no presupposition (a yes/no question asks it), or no thing named ("use it", "use what ...")
        ("Does CROW use a reward model?", None),
        ("Could I use CROW on my chatbot?", None),
        ("How do I use it commercially?", None),
        # the training a question takes as needed, not what is trained (an eval author's "Why does CRANE
        # need to fine-tune the LLM on grammar data?" had been answered with CRANE's results)
        ("Why does CROW need to pretrain the model on clean data?", "pretrain the model"),
        ("Why does CROW need to finetune the backdoored model?", None),  # "during finetuning"
        ("Why does CROW need to remove backdoors?", None),  # no training verb: "to" ends the thing
        # the asker's own doing ("How can I parallelize ... using graphics cards?", the bundled set's q034)
        ("How can I remove backdoors using graphics cards?", None),
    ],
)
def test_a_thing_the_abstract_never_mentions_is_found(question, thing):
    assert unused_thing(question, CROW) == thing


def test_a_technique_the_abstract_never_mentions_abstains_with_a_note(bundled_engine):
    wrong = bundled_engine.ask(
        "Why did CROW need a reward model to remove backdoors?", mode="extractive"
    )
    assert wrong.abstained and wrong.notes == [
        "the abstract of CROW never mentions 'a reward model': check the question's premise"
    ]
    right = bundled_engine.ask(
        "How does CROW use consistency regularization to remove backdoors?", mode="extractive"
    )
    assert not right.abstained and right.sources[0].paper_id == "p-f951bc7f7256"


@pytest.mark.parametrize(
    "question, shown", [("asdf", '"asdf"'), ("zxcv qwerty", '"zxcv", "qwerty"')]
)
def test_a_question_no_paper_writes_a_word_of_abstains(bundled_engine, question, shown):
    answer = bundled_engine.ask(question, mode="extractive")
    assert answer.abstained and answer.sources == []
    assert answer.notes == [f"no stored paper writes any word of the question ({shown})"]


def test_with_paper_counts_the_rarest_word_decides():
    # "a graph neural network" where the abstract writes only "neural": its rarest word is unwritten
    text = "UNOT: a neural operator over discrete measures, trained by minimax optimal transport."
    counts = {"graph": 300, "neural": 900}
    question = "How does UNOT use a graph neural network to encode measures?"
    assert unused_thing(question, text) is None
    assert unused_thing(question, text, lambda w: counts.get(w, 1)) == "a graph neural network"
