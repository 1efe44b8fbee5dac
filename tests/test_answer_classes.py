"""Offline answers at conference scale, by question class (issue 17), on questions written for this test.

None of these questions is in an eval set; each class has at least two, and each
asserts the cited paper ids and the fact strings. Slow: it uses the 2,740-paper store.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

PRIME, TABSDS = (
    "hvaPL2DMpQ",
    "UtlFqRDJKl",
)  # imbalanced regression with proxies; non-parametric tabular synthesis
LDMOL, DIME = (
    "l6mkb1LBVP",
    "Aw6dBR7Vxj",
)  # text-to-molecule latent diffusion; diffusion-based MaxEnt RL


def _cited(answer) -> list[str]:
    return [s.paper_id for s in answer.sources]


@pytest.mark.parametrize(
    "question, papers",
    [
        ("How do PRIME and TabSDS differ in what they learn or generate?", {PRIME, TABSDS}),
        (
            "ldmol vs dime difusion model use?",
            {LDMOL, DIME},
        ),  # lower case, a typo: no coined name to match
        (
            "How do the framework that arranges learnable proxies uniformly in feature space for imbalanced regression and "
            "the non-parametric generator of synthetic tabular data via rank and shuffling transformations differ in their "
            "objectives?",
            {PRIME, TABSDS},
        ),
        (
            "Which of the two, the latent diffusion model for text-conditioned molecule generation or the diffusion-based "
            "maximum entropy RL method, is evaluated on continuous control?",
            {LDMOL, DIME},
        ),
    ],
)
def test_a_comparison_cites_every_paper_it_names(icml_engine, question, papers):
    answer = icml_engine.ask(question, mode="extractive")
    assert not answer.abstained
    assert papers <= set(_cited(answer))


def test_a_bare_comparison_quotes_what_each_paper_proposes(icml_engine):
    # a reviewer's session: "Compare DPCore and Ranked Entropy Minimization" quoted results, no method
    answer = icml_engine.ask("Compare DPCore and Ranked Entropy Minimization", mode="extractive")
    assert _cited(answer)[:2] == ["A6zDim0rQf", "lHaGLJ65J9"]
    assert "we propose **DPCore**, a method designed for robust performance" in answer.answer
    assert "We propose ranked entropy minimization to mitigate" in answer.answer


@pytest.mark.parametrize(
    "question, paper, fact",
    [
        (
            "With how many tokens does LongRoPE2 extend Llama-3-8B to a 128K effective context?",
            "jwMjzGpzi4",
            "10B",
        ),
        (
            "Against which GPT-4 web agents does AdvAgent's red-teaming reach high success rates?",
            "bwidSkOyWF",
            "GPT-4-based web agents",
        ),
    ],
)
def test_a_name_matches_across_hyphens(icml_engine, question, paper, fact):
    """ "Llama-3-8B" is "LLaMA3-8B"; "GPT-4" is in "GPT-4-based": neither is a name the papers lack."""
    answer = icml_engine.ask(question, mode="extractive")
    assert not answer.abstained
    assert _cited(answer)[0] == paper and fact in answer.answer


@pytest.mark.parametrize(
    "question, paper, fact",
    [
        (
            "How much faster is inference with SHARP-Distill, the hypergraph-distilled recommender, than with HGNN?",
            "3hYrORJndz",
            "68×",
        ),
        (
            "How much faster does the grammar-constrained decoding algorithm make offline preprocessing compared with "
            "existing approaches?",
            "L6CYAzpO1k",
            "17.71x",
        ),
    ],
)
def test_how_much_faster_is_a_number_not_a_count(icml_engine, question, paper, fact):
    answer = icml_engine.ask(question, mode="extractive")
    assert not answer.abstained
    assert _cited(answer)[0] == paper and fact in answer.answer


@pytest.mark.parametrize(
    "question, paper",
    [
        (
            "Which paper arranges learnable proxies uniformly in the feature space for imbalanced regression?",
            PRIME,
        ),
        (
            "Is there work that trains reward models to score each token, giving convergence about 12 times faster than "
            "outcome reward models on GSM8K?",
            "aq3YxKPZBk",
        ),
        # the asker's own words, in no abstract ("smiley symbols" for emojis, "fine ripples" for high
        # frequencies): a clear first paper answers a which-paper question
        (
            "Which paper tricks judge models into missing harmful text by inserting smiley symbols?",
            "Q0rKYiVEZq",
        ),
        (
            "Which paper showed that autoencoder latents carry too many fine ripples that slow diffusion learning?",
            "2hEDcA7xy4",
        ),
        # "which of the papers ... explained" asks for one paper; "which paper ..., and by how much" asks
        # which paper beside a figure: a clear first paper answers both
        (
            "Which of the papers this year explained why chatbots babble nonsense when told to parrot one "
            "word forever?",
            "WVth3Webet",
        ),
        (
            "Someone said coding chatbots do better if they spit out the program first and justify it "
            "afterwards. Which paper showed that, and by how much?",
            "wSZeQoJ1Vk",
        ),
    ],
)
def test_which_paper_names_the_paper_it_quotes(icml_engine, question, paper):
    answer = icml_engine.ask(question, mode="extractive")
    assert not answer.abstained and _cited(answer)[0] == paper


@pytest.mark.parametrize(
    "question",
    [
        "How many GPUs did TabSDS need to train its generator?",
        "What learning rate does LDMol use for its latent diffusion model?",
        # DiTAR's abstract defines temperature as a time point for noise but gives no value
        "What temperature did DiTAR use for inference?",
        # C-3PO's abstract speaks of LLMs and retrievers but names no model
        "Which LLM does C-3PO use as its proxy optimizer?",
        # a setting with a phrase before its verb, a size, settings by name (S4S and DISCO give none)
        "What tolerance on the ODE error did S4S allow?",
        "How large a teacher solver did S4S distill from?",
        "What sampler settings did DISCO use for time integration?",
        # topics no paper covers
        "Is there a paper on predicting avalanche risk from snowpack measurements?",
        "which paper spots counterfeit wine bottles from label photos",
        "Which paper teaches a ping-pong robot with simulated practice?",
        # one distinctive word a retrieved paper holds ("manuscripts", "transcription"), two no abstract uses
        "How does the model for handwritten historical manuscripts deal with scribe variation?",
        "What does the violin transcription model do with vibrato in orchestral recordings?",
    ],
)
def test_details_an_abstract_does_not_give_and_absent_topics_abstain(icml_engine, question):
    answer = icml_engine.ask(question, mode="extractive")
    assert answer.abstained and answer.sources == []


def test_which_paper_gives_the_title_and_the_method_name(icml_engine):
    """A "which paper" answer names the paper by its title, with its short label when the title lacks it."""
    answer = icml_engine.ask(
        "Which paper shows that an auditor can still detect texts that were supposedly removed from a "
        "language model by unlearning?",
        mode="extractive",
    )
    assert _cited(answer)[0] == "jyxwWQjU4J"
    assert answer.answer.startswith(
        "Textual Unlearning Gives a False Sense of Unlearning (U-LiRA+): "
    )
    answer = icml_engine.ask(
        "Is there work on jailbreaks that checks whether the answers they extract are any good, by "
        "teaching models to refuse easy math questions?",
        mode="extractive",
    )
    assert _cited(answer)[0] == "hRQyqtcjVv"
    assert answer.answer.startswith("The Jailbreak Tax: How Useful are Your Jailbreak Outputs?: ")


@pytest.mark.parametrize(
    "question, paper",
    [
        (
            "AdaDecode speeds up LLM decoding with adaptive layer parallelism; which auxiliary model does "
            "it use to draft tokens?",
            "VnO2GEpmlb",
        ),
        (
            "Diff-Instruct* aligns one-step text-to-image generators with human preferences; which image "
            "data do they fine-tune on?",
            "AjpoFnPzLd",
        ),
        (
            "How does the versatile influence function handle the case-specific derivations for each loss?",
            "OI3mAAY8eB",
        ),
    ],
)
def test_a_false_premise_is_declined_with_a_note(icml_engine, question, paper):
    """AdaDecode works "without requiring auxiliary models", DI* "without requiring image data", the VIF
    eliminates "the need for case-specific derivations": asking which one they use rests on a premise the
    abstract denies. The answer abstains, a note names the denied words and another the paper. (From the
    tenth round to the twenty-ninth this was a note on a quoted answer: eval/generalization/TUNING.md.)"""
    answer = icml_engine.ask(question, mode="extractive")
    assert answer.abstained and answer.sources == []
    assert "says it does without '" in answer.notes[0]
    assert answer.notes[0].endswith(": check the question's premise")
    assert f"({paper}); the abstract denies the question's premise" in answer.notes[1]


@pytest.mark.parametrize(
    "question, note",
    [
        (
            "Why does BEST-Route end up raising costs by 60%?",
            "the abstract of BEST-Route says 'reduces' where the question says 'raising': check the "
            "question's premise",
        ),
        (
            "How does SECOND end up increasing perceptual hallucinations in VLMs?",
            "the abstract of SECOND says 'reduces' where the question says 'increasing': check the "
            "question's premise",
        ),
    ],
)
def test_a_premise_the_abstract_reverses_abstains_with_a_note(icml_engine, question, note):
    """BEST-Route "reduces costs by up to 60%", SECOND "significantly reduces perceptual hallucinations":
    asking why they raise them rests on a premise the abstract reverses, so the answer abstains and says so."""
    answer = icml_engine.ask(question, mode="extractive")
    assert answer.abstained and answer.sources == []
    assert answer.notes == [note]


def test_the_same_direction_is_answered(icml_engine):
    answer = icml_engine.ask("Why does SECOND reduce perceptual hallucinations?", mode="extractive")
    assert not answer.abstained and _cited(answer)[0] == "SbyrpBNNs4"
    assert "SECOND significantly reduces perceptual hallucinations" in answer.answer


def test_the_same_paper_answers_what_it_does_say(icml_engine):
    answer = icml_engine.ask(
        "How does AdaDecode keep its outputs consistent with the original model?", mode="extractive"
    )
    assert not answer.abstained and _cited(answer)[0] == "VnO2GEpmlb"
    assert "output consistency" in answer.answer


@pytest.mark.slow
def test_a_which_papers_list_holds_each_retrieved_paper_on_its_rare_term(icml_engine):
    # a reader's literature review: 10 papers retrieved, 4 listed; CAT Merging, CABS and CALM, each
    # about model merging, were left out for ranking low among the ten
    answer = icml_engine.ask("Which papers propose methods for model merging?", mode="extractive")
    listed = {s.paper_id for s in answer.sources}
    assert {"zy7Jw91tdh", "ZZxVwVUYg3", "OgfvSDn73E", "xX8NJShgny", "D7qRwx6BOS"} <= listed


@pytest.mark.parametrize(
    "question, papers, fact",
    [
        (
            "Which sensor does the real-time driving anomaly detector pair with its RGB camera, and on which "
            "datasets does Ex-VAD report its results?",
            {"oYyaVSqEFu"},
            "event cameras",
        ),
        (
            "How much does MMInference speed up the prefilling stage, and what does ConfPO rely on to select tokens?",
            {"me6PfbATWM", "p-abe9274a3783"},
            "prefilling stage",
        ),
    ],
)
def test_names_asked_about_in_separate_clauses_are_each_answered(
    icml_engine, question, papers, fact
):
    """Two names held by two papers, each in a clause of its own, are two asks, not a name one paper lacks."""
    answer = icml_engine.ask(question, mode="extractive")
    assert not answer.abstained and papers <= set(_cited(answer)) and fact in answer.answer
