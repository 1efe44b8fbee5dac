"""Which sentence says a paper introduces a benchmark or a dataset (a benchmark hunter's lists had held
method papers that only evaluate on benchmarks)."""

from __future__ import annotations

from paperchat.answer.introduced import asked_contribution, introducing_sentence


def test_the_kind_and_topic_a_list_asks_for():
    assert asked_contribution("Which papers introduce a benchmark for sparse autoencoders?") == (
        "benchmark",
        "sparse autoencoders",
    )
    assert asked_contribution("List papers that release new datasets for protein design") == (
        "dataset",
        "protein design",
    )
    assert asked_contribution("Which papers use a benchmark for code?") is None


def test_a_sentence_introducing_one_not_one_evaluating_on_one():
    said = "Here we introduce SAEBench, a comprehensive evaluation suite for SAEs."
    assert introducing_sentence(said, "SAEBench", "benchmark") == said
    for text in (
        "We propose X. It achieves SOTA on standard benchmarks.",
        "We propose X, which beats baselines on existing benchmarks.",
        "Extensive experiments on established benchmarks show that X wins.",
    ):
        assert introducing_sentence(text, "X: a method", "benchmark") is None
    # a title naming one: the sentence saying what the paper makes, not "At present, there is no benchmark"
    text = "At present, there is no benchmark for this. We introduce AxBench, a suite of steering tasks."
    assert introducing_sentence(text, "AxBench: Steering LLMs?", "benchmark") == (
        "We introduce AxBench, a suite of steering tasks."
    )
    assert introducing_sentence("We construct a new dataset of 10k dialogues.", "T", "dataset")
