"""Asks that want a value, a model or a name (issue 17).

A setting's value asked by name ("what LoRA rank did they use?") is quoted from a sentence that holds a
number and the setting, or the answer abstains; "which LLM ..." is answered from an abstract that names a
model, or abstains (the abstentions are tested with the other details abstracts do not give, in
``test_answer_classes.py``); "what is the method called" is answered with the paper's title.

Questions written for these tests (none is in an eval set); the answers are asked of the 2,740-paper ICML
2025 store (``icml_store``).
"""

from __future__ import annotations

import pytest

from paperchat.answer.counts import counting_sentences
from paperchat.answer.details import detail_asked_in
from paperchat.answer.intent import asks_how_many, setting_noun
from paperchat.answer.model_names import asked_model, names_a_model


@pytest.mark.parametrize(
    "question, setting",
    [
        ("What value of the discount factor did they use?", "discount factor"),
        ("which backbone was it applied to, and what LoRA rank did they use?", "LoRA rank"),
        ("What cache budget does it run with?", "cache budget"),
        ("what value of k did they settle on?", "k"),
        ("What temperature did DiTAR use for inference?", "temperature"),
        # a phrase between the setting and its verb; "how large a ..." asks a size
        ("What tolerance on the ODE error did S4S allow?", "tolerance"),
        ("What constant in front of the log term did they pick?", "constant"),
        ("How large a replay buffer did they keep?", "replay buffer"),
        ("How large a speedup does QuantSpec give?", "speedup"),
        ("What technique is used to align the views?", None),  # a technique, not a value
        ("What loss function does it use?", None),
    ],
)
def test_a_setting_is_what_the_value_asked_for_is_of(question, setting):
    assert setting_noun(question) == setting


@pytest.mark.slow
def test_a_value_the_abstract_gives_is_quoted(icml_engine):
    answer = icml_engine.ask(
        "What rank did Pivoting Factorization (PIFA) report its memory savings at?",
        mode="extractive",
    )
    assert not answer.abstained
    assert answer.sources[0].paper_id == "5OLRHkzTYk"
    assert "at rank = 50" in answer.answer and answer.answer.endswith("[1].")
    speedup = icml_engine.ask("How large a speedup does QuantSpec give?", mode="extractive")
    assert speedup.sources[0].paper_id == "7SHbJENgHX" and "2.5" in speedup.answer


@pytest.mark.parametrize(
    "question, kind",
    [
        ("Which LLM does it use as its reasoning backbone?", "LLM"),
        ("which pretrained language model did they fine-tune?", "language model"),
        ("What vision encoder sits in front of the policy?", "encoder"),
        ("Which papers use LLMs to write proofs?", None),  # papers, not a model
        ("Which datasets do they evaluate on?", None),
    ],
)
def test_the_ask_for_a_model_by_name(question, kind):
    assert asked_model(question) == kind


def test_a_model_is_named_by_family_size_or_a_coined_name_before_its_kind():
    assert names_a_model("We fine-tune Llama-3.1-8B and Qwen2.5.")
    assert names_a_model("a 7B decoder trained from scratch")
    assert names_a_model("state encoded by an Attention-DeepSets encoder", "encoder")
    assert not names_a_model("state encoded by an attention encoder", "encoder")
    assert not names_a_model(
        "We propose a retrieval proxy that aligns the retriever and the reader.", "LLM"
    )
    # an architecture by its kind answers "what model", not "which LLM"; the field's "deep networks" names none
    cnn = "we analyze the training dynamics of a two-layer convolutional neural network"
    assert names_a_model(cnn, "model") and not names_a_model(cnn, "LLM")
    assert not names_a_model("Deep neural networks are vulnerable to backdoor attacks.", "model")


def test_a_which_paper_question_asks_a_detail_only_after_a_question_word():
    asked = "Which paper benchmarks error mitigation on noisy quantum hardware?"
    assert detail_asked_in(asked, "hardware") == "hardware"  # any other question asks it
    assert detail_asked_in(asked, "hardware", which_paper=True) is None  # it describes the paper
    both = "Which paper trains on TPUs, and what hardware did it use?"
    assert detail_asked_in(both, "hardware", which_paper=True) == "hardware"


@pytest.mark.slow
def test_a_model_the_abstract_names_is_quoted(icml_engine):
    answer = icml_engine.ask(
        "Which base model does KBQA-o1 improve with its agentic search?", mode="extractive"
    )
    assert not answer.abstained and answer.sources[0].paper_id == "QuecSemZIy"
    assert "Llama-3.1-8B" in answer.answer
    # a described architecture; a "which paper" question's "hardware" describes its paper (both had abstained)
    for question, paper_id, fact in (
        (
            "What model does the paper on label noise in feature learning analyze?",
            "kwHvs1UdTM",
            "two-layer convolutional neural network",
        ),
        (
            "Which paper released twenty-two datasets for learning-based error mitigation on quantum hardware?",
            "PSNce503is",
            "QEM",
        ),
    ):
        answer = icml_engine.ask(question, mode="extractive")
        assert not answer.abstained and answer.sources[0].paper_id == paper_id, question
        assert fact in answer.answer, question
    # the sentence that names the models leads (it had quoted BanditSpec's bandit formulation only)
    for question, paper_id, models in (
        ("Which models is BanditSpec evaluated on?", "ghkWIlliZ8", "LLaMA3 and Qwen2"),
        ("What backbone does CROW use?", "p-f951bc7f7256", "Llama-2 (7B, 13B)"),
    ):
        answer = icml_engine.ask(question, mode="extractive")
        assert [s.paper_id for s in answer.sources] == [paper_id], question
        assert models in answer.answer.split(" [1]")[0], question


@pytest.mark.parametrize(
    "question, asks",
    [
        ("The KV-cache paper ...: what is the framework called, and what bit-width?", True),
        ("secure federated recsys - whats it called and comm reduction?", True),
        ("dynamic layer pruning - name and how much params cut", True),
        ("What did they find about the called function?", False),
    ],
)
def test_an_ask_for_the_name(question, asks):
    from paperchat.answer.asks import asks_for_name, plain_question

    assert (
        asks_for_name(plain_question(question)) is asks
    )  # the answerer reads contractions written out


@pytest.mark.slow
def test_a_question_that_asks_the_name_is_answered_with_it(icml_engine):
    """The question names a model (Llama-3.1-8B) and a generic abbreviation (QA): the answer still names the
    paper it describes, because the question asks what the method is called."""
    answer = icml_engine.ask(
        "The agentic knowledge base QA method that uses Monte Carlo Tree Search to boost Llama-3.1-8B on "
        "GrailQA: what is the method called, and what F1 does it reach?",
        mode="extractive",
    )
    assert not answer.abstained and answer.sources[0].paper_id == "QuecSemZIy"
    assert answer.answer.startswith("KBQA-o1: Agentic Knowledge Base Question Answering")
    assert "78.5%" in answer.answer


class _Sentence:
    def __init__(self, text: str):
        self.text = text


@pytest.mark.parametrize(
    "sentence, counts",
    [
        (
            "Based on SyncMind, we create SyncBench, a benchmark featuring 24,332 instances of scenarios.",
            True,
        ),
        ("We train the generator on 1.2 million waveforms from three regions.", True),
        # "three dimensional" describes the waveforms; it does not count them
        (
            "Once trained, it can generate three dimensional seismic waveforms with accurate arrivals.",
            False,
        ),
        ("It generates 3D waveforms with accurate phase arrivals.", False),
        # a number far from the noun counts something else
        (
            "We evaluate 3 models on a long and carefully curated list of diverse and realistic waveforms.",
            False,
        ),
    ],
)
def test_a_count_is_a_number_near_the_counted_noun(sentence, counts):
    noun = "instance" if "instances" in sentence else "waveform"
    assert bool(counting_sentences([_Sentence(sentence)], noun, None)) is counts


@pytest.mark.parametrize(
    "sentence, noun, counts",
    [
        # "how many parameters did that little model have?": a hyphenated term's part is the noun
        ("We show a small 25M-parameter transformer solves Einstein's puzzle.", "parameter", True),
        ("A 7B-parameter model trained on 1T tokens.", "parameter", True),
        # "how much compute does building it take?": a unit of compute names the compute
        ("We create the base model within 72 A100 GPU hours.", "compute", True),
        ("Pre-training costs 1e21 FLOPs.", "compute", True),
        # an amount of time alone is no amount of compute
        ("The videos are 3 hours long.", "compute", False),
    ],
)
def test_a_count_is_named_by_a_hyphenated_part_or_a_unit_of_compute(sentence, noun, counts):
    assert bool(counting_sentences([_Sentence(sentence)], noun, None)) is counts


@pytest.mark.parametrize(
    "sentence, counts",
    [
        # "How many GPUs ...?": a number inside a name counts nothing (a newcomer's question had been
        # answered with "on an NVIDIA A100 GPU")
        ("Decoding is measured on an NVIDIA A100 GPU.", False),
        ("H100 GPUs serve every model.", False),
        ("We train on 8 A100 GPUs for two days.", True),
        ("Training uses eight GPUs.", True),
    ],
)
def test_a_number_inside_a_name_counts_nothing(sentence, counts):
    assert bool(counting_sentences([_Sentence(sentence)], "gpu", None)) is counts


@pytest.mark.parametrize(
    "sentence, whole, counts",
    [
        # "How many GPUs were used to train ShadowKV?" had been answered with a speed-up on "an A100 GPU"
        ("It reaches 3.04$\\times$ higher throughput on an A100 GPU.", True, False),
        ("It serves 6x larger batches per GPU.", True, False),
        ("Training takes 45% fewer GPUs.", True, False),
        ("We use 4 GPUs for every run.", True, True),
        # "how much memory" / "how many fewer" ask a change, which a ratio gives
        ("It reaches 3.04$\\times$ higher throughput on an A100 GPU.", False, True),
    ],
)
def test_a_ratio_counts_no_things(sentence, whole, counts):
    assert bool(counting_sentences([_Sentence(sentence)], "gpu", None, whole)) is counts


@pytest.mark.parametrize(
    "question, whole",
    [
        ("How many GPUs were used to train ShadowKV?", True),
        ("how many fewer llm calls does it need", False),
        ("How many more tokens does it keep?", False),
        ("How many times faster is decoding?", False),
        ("How much memory does it save?", False),
    ],
)
def test_how_many_asks_a_count_of_things(question, whole):
    assert asks_how_many(question) is whole


@pytest.mark.slow
def test_a_count_of_gpus_is_not_a_speedup_and_a_warmup_schedule_is_a_detail(icml_engine):
    # a newcomer's questions: ShadowKV's abstract gives "3.04x higher throughput on an A100 GPU" and
    # no number of GPUs; QuantSpec's gives no warmup at all
    for question in (
        "How many GPUs were used to train ShadowKV?",
        "What is the warmup schedule in QuantSpec?",
    ):
        answer = icml_engine.ask(question, mode="extractive")
        assert answer.abstained and answer.sources == [], question


def test_math_without_dollars_is_a_number():
    # "How many training tasks suffice ...?" had been declined: the abstract's count is "\tilde{O}(D) tasks"
    sentence = (
        r"Generalization to all D^T tasks is achievable by training on only \tilde{O}(D) tasks."
    )
    assert counting_sentences([_Sentence(sentence)], "task", None)
    assert counting_sentences([_Sentence("It needs O(n) samples.")], "sample", None)
    assert not counting_sentences(
        [_Sentence("Once trained, the samples are kept.")], "sample", None
    )


@pytest.mark.slow
def test_a_newcomers_count_and_proposal_questions_quote_the_sentence_that_answers(icml_engine):
    tasks = icml_engine.ask(
        "How many training tasks suffice to generalize to all D^T tasks in autoregressive "
        "compositional structure?",
        mode="extractive",
    )
    assert [s.paper_id for s in tasks.sources] == ["iZdGZSWe1A"]
    assert r"by training on only \tilde{O}(D) tasks [1]" in tasks.answer
    watch = icml_engine.ask(
        "What does WATCH propose for monitoring AI deployments?", mode="extractive"
    )
    assert [s.paper_id for s in watch.sources] == ["GMjkK2CKx5"]
    assert watch.answer.startswith(
        "In this paper, we address these limitations by proposing a weighted generalization"
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("question", "gold", "fact"),
    [
        (  # "25M-parameter": the counted noun is part of a hyphenated word
            "A small model that erases its scratch work while reasoning solved Einstein's puzzle; how "
            "many parameters does it have?",
            "6wglsDXIei",
            "25M-parameter transformer",
        ),
        (  # "72 A100 GPU hours": compute is given by its unit
            "How much compute does it take to build Orthus-base?",
            "dPyA4ZYs7n",
            "72 A100 GPU hours",
        ),
    ],
)
def test_a_count_given_in_a_hyphenated_word_or_a_unit_of_compute_is_quoted(
    icml_engine, question, gold, fact
):
    answer = icml_engine.ask(question, mode="extractive")
    assert not answer.abstained
    assert answer.sources[0].paper_id == gold
    assert fact in answer.answer


@pytest.mark.slow
def test_what_results_is_answered_by_results_in_words(icml_engine):
    # a notebook session: "What results does C-TRPO report?" abstained, "the abstract states no such
    # number", though "Experiments show that C-TRPO reduces constraint violations ..."
    answer = icml_engine.ask("What results does C-TRPO report?", mode="extractive")
    assert not answer.abstained and answer.sources[0].paper_id == "4zRb89SbzG"
    assert "reduces constraint violations while maintaining competitive returns" in answer.answer
