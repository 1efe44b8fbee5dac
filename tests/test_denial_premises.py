"""A requirement a question takes as given that the abstract denies in other words is a false premise (a
fact-checker's set: "what statistical model is assumed for the gradients?" where the abstract says "We make
no assumptions" had been answered with nearby sentences)."""

from __future__ import annotations

import pytest

from paperchat.answer.denial_premises import denied_category

ROBUST = (
    "Robust Online Learning. We study online learning with corrupted gradients. We make no assumptions "
    "on how the corruptions are generated, and our algorithm attains optimal regret."
)
PROBE = (
    "Confidence Probes. Estimating confidence matters for deployment. We propose computing confidence in a "
    "post-hoc manner from pointwise information, and our estimator is model-agnostic."
)
VIASHAP = (
    "Shapley values have several desirable properties for explaining black-box model predictions. "
    "Traditionally, Shapley values are computed post-hoc, leading to additional computational cost at "
    "inference time. To overcome this, a novel method, called ViaSHAP, is proposed, that learns a function "
    "to compute Shapley values."
)


@pytest.mark.parametrize(
    "question, text, label, found",
    [
        (
            "Which noise model do the authors of Robust Online Learning assume for the corruptions?",
            ROBUST,
            "",
            ("an assumption", "make no assumptions"),
        ),
        (
            "How many epochs did Confidence Probes retrain the classifier for?",
            PROBE,
            "",
            ("training or fine-tuning", "post-hoc"),
        ),
        (
            "Why do Confidence Probes need white-box access to the network?",
            PROBE,
            "",
            ("white-box access", "model-agnostic"),
        ),
        # the question negates the thing, or writes the denial itself: nothing taken as given
        (
            "Which confidence do Confidence Probes compute without retraining the model?",
            PROBE,
            "",
            None,
        ),
        ("How is a post-hoc estimator trained in Confidence Probes?", PROBE, "", None),
        # a denial of what earlier work does is none of the paper's (ViaSHAP trains its own model)
        ("How does ViaSHAP train its Shapley value function?", VIASHAP, "ViaSHAP", None),
        ("Why does ViaSHAP need white-box access to the model?", VIASHAP, "ViaSHAP", None),
    ],
)
def test_a_requirement_the_abstract_denies_is_found(question, text, label, found):
    assert denied_category(question, text, label) == found
