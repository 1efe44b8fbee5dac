"""False premises: what the question asks about, the paper says it does without (paperchat.answer.premises)."""

from paperchat.answer.premises import denied_terms, reversed_direction

ASD = (
    "Speculative decoding usually relies on a small draft model. "
    "We introduce Autospeculative Decoding, an extension of speculative decoding to DDPMs that does not "
    "require any auxiliary draft models. It speeds up sampling of the diffusion model by a factor of 2."
)


def test_a_word_the_paper_only_denies_is_a_false_premise():
    assert denied_terms(
        "which small draft model did they pair with the big diffusion model?", ASD
    ) == ["draft"]


def test_what_only_background_sentences_assert_does_not_count_for_the_paper():
    # "relies on a small draft model" is what earlier methods do (a background sentence)
    assert denied_terms("which draft model?", ASD) == ["draft"]
    assert denied_terms("how much faster is the diffusion model?", ASD) == []


def test_a_question_that_negates_the_word_too_has_no_false_premise():
    text = (
        "Peptide sequencing is slow. "  # an opening sentence is background
        "We read peptides straight from the spectra, eliminating the need for reference databases."
    )
    assert denied_terms("which method reads peptides without a database?", text) == []
    # "instead of" and "rather than" negate too (an eval-workflow session: FedLMG's question agreed with
    # its abstract and was told to check its premise)
    assert denied_terms("what do they read instead of searching reference databases?", text) == []
    assert denied_terms("what do they read rather than a reference database?", text) == []
    assert denied_terms("which reference database do they search?", text) == [
        "reference",
        "database",
    ]


def test_training_free_denies_training():
    text = (
        "Long contexts are hard. "
        "We propose a training-free method that rescales one frequency to extrapolate further."
    )
    assert denied_terms("how many training steps does it take?", text) == ["training"]
    assert denied_terms("how far can it extrapolate with zero training?", text) == []


def test_a_negation_far_before_or_across_a_comma_is_about_something_else():
    text = (
        "Spoken dialogue is hard to model. Current corpora are not suited to real-time speech, so we "
        "create a large-scale dataset of conversations. Unlike common generative models, ours uses a "
        "system of equations."
    )
    assert denied_terms("how many pairs are in the dataset?", text) == []
    assert denied_terms("which generative models does it extend?", text) == []


ROUTER = (
    "Serving every query with the largest model is costly. "
    "We route each query to a small or a large model and sample several responses. "
    "Experiments show that our router reduces costs by up to 60% with less than 1% performance drop."
)


def test_a_direction_the_abstract_reverses_is_a_false_premise():
    assert reversed_direction("Why does the router end up raising costs by 60%?", ROUTER) == (
        "raising",
        "reduces",
    )
    # less latency is faster: "slower" where the abstract "reduces latency"
    text = "A merge method for diffusion models. Our method reduces generation latency by 24%."
    assert reversed_direction("why does it make generation 24% slower?", text) == (
        "slower",
        "reduces",
    )


def test_only_a_question_that_takes_its_claim_as_given_is_read_for_its_premise():
    # "how much does it raise costs?" asks; "why does it raise costs?" presupposes
    assert reversed_direction("How much does the router raise costs?", ROUTER) is None


def test_a_direction_the_abstract_also_states_is_no_false_premise():
    text = ROUTER + " On long queries, costs rise by 5% because more responses are sampled."
    assert reversed_direction("Why does the router end up raising costs?", text) is None
    # what the direction is about must be the same thing: performance drops, costs fall
    assert reversed_direction("Why does the router reduce costs?", ROUTER) is None


def test_a_term_right_after_a_name_is_that_names_and_no_premise():
    # "MATH score" is the benchmark's score, not the "step-level score annotation" the paper avoids
    text = (
        "Small models can reason. Our reward model avoids naive step-level score annotation. "
        "On MATH it improves Qwen2.5-Math-7B from 58.8% to 90.0%."
    )
    assert denied_terms("rstar-math MATH score w/ qwen2.5-math-7b", text) == []
    assert denied_terms("how are the step-level scores annotated?", text) == [
        "step-level",
        "scores",
        "annotated",
    ]


POSITIONS = (
    "Rotary position embeddings were designed for text. "
    "Our embedding features low-frequency temporal allocation to mitigate periodic oscillations, "
    "and a diagonal layout to keep spatial symmetry."
)


def test_a_compound_the_abstract_turns_round_is_a_false_premise():
    # "high-frequency" against "low-frequency": the first half of a compound gives its direction
    assert reversed_direction(
        "Why does it assign the high-frequency components to the temporal axis?", POSITIONS
    ) == ("high-frequency", "low-frequency")
    assert (
        reversed_direction(
            "Why does it assign the low-frequency components to the temporal axis?", POSITIONS
        )
        is None
    )
    # a compound of another thing ("high-resolution" video) reverses nothing
    assert (
        reversed_direction("Why does it need high-resolution temporal frames?", POSITIONS) is None
    )


def test_a_bare_not_denies_only_after_a_verb_of_needing():
    # the twenty-ninth round: "does not reduce X" says nothing of having X (a tuning question about an
    # ensemble-clustering paper had been read as presupposing what it "does not reduce")
    text = "Clustering is old. We show diversity does not reduce the bias. Our method does not rely on labels."
    assert denied_terms("how do they reduce the bias?", text) == []
    assert denied_terms("which labels does it rely on?", text) == ["labels"]


def test_a_word_of_the_title_is_never_denied_nor_one_the_question_writes_free():
    text = (
        "Protein Structure Tokenization: Benchmarking and New Recipe\n"
        "Tokenizers are many. There is no benchmark for them, so we build one with 24 tasks."
    )
    assert denied_terms("by how much did the benchmark tokenizer improve?", text) == []
    free = "Segment Anyword\nMasks are costly. We segment any word without training, from a frozen model."
    assert denied_terms("what mIoU did the training free segmentation thing reach?", free) == []
    assert denied_terms("which training data does it use?", free) == ["training"]
