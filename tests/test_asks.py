"""The ask of a question, apart from the description of its paper (paperchat.answer.asks)."""

from paperchat.answer.asks import ask_overlap, split_ask


def test_a_description_then_a_question_splits_at_the_question_word():
    ask = split_ask(
        "The anomaly detection paper that borrows cost-volume filtering from stereo matching: "
        "which pretrained backbone did they use?"
    )
    assert ask.description == (
        "The anomaly detection paper that borrows cost-volume filtering from stereo matching"
    )
    assert ask.ask == "which pretrained backbone did they use?"
    assert ask.terms == ("pretrained", "backbone") and ask.described


def test_a_described_paper_in_an_earlier_sentence_is_description():
    ask = split_ask(
        "There was a paper on pruning LLMs with PCA over query-key products. How many tokens did it retrain on?"
    )
    assert ask.description == "There was a paper on pruning LLMs with PCA over query-key products."
    assert ask.ask == "How many tokens did it retrain on?"
    assert ask.terms == ("token", "retrain")


def test_the_first_asking_clause_starts_the_ask():
    ask = split_ask(
        "For Olica, the structured pruning method, what is it called, and how much data does it need?"
    )
    assert ask.description == "For Olica, the structured pruning method"
    assert ask.ask == "what is it called, and how much data does it need?"


def test_a_plain_question_is_all_ask():
    ask = split_ask("Which paper introduces ConfPO?")
    assert ask.description == "" and not ask.described
    assert ask.ask == "Which paper introduces ConfPO?" and ask.terms == ("introduce", "confpo")


def test_ask_overlap_is_the_share_of_ask_terms_a_sentence_holds():
    ask = split_ask("About Liger: which pretrained weights build the gates?")
    assert ask.terms == ("pretrained", "weight", "build", "gate")
    assert (
        ask_overlap(ask, "Liger repurposes the pretrained key matrix weights to build gates.")
        == 1.0
    )
    assert ask_overlap(ask, "Liger converts pretrained LLMs into recurrent models.") == 0.25
    assert ask_overlap(split_ask("Which paper was that?"), "Anything.") == 0.0


def test_which_of_the_papers_was_the_one_asks_for_one_paper():
    from paperchat.answer import intent as it

    one = it.read_question(
        "Which of the papers this year was the one that fooled LLM judges with emojis?"
    )
    assert (one.kind, one.plural) == (it.FIND, False)
    many = it.read_question("Which of the papers this year fool LLM judges?")
    assert (many.kind, many.plural) == (it.FIND, True)
    # a singular or past-tense verb after "which of the papers" asks for one paper too
    for question in (
        "Which of the papers this year argued that certified radius is the wrong yardstick?",
        "Which of the studies has a patch for models that cannot repeat one word?",
    ):
        asked = it.read_question(question)
        assert (asked.kind, asked.plural) == (it.FIND, False), question
    many = it.read_question("Which of the papers propose new watermarks for LLM text?")
    assert (many.kind, many.plural) == (it.FIND, True)


def test_which_paper_beside_another_ask():
    from paperchat.answer.asks import asks_which_paper

    assert asks_which_paper("Which paper found that, and how big was the improvement?")
    assert asks_which_paper("Do you know which paper that was?")
    assert not asks_which_paper("Which papers study watermarks?")
    assert not asks_which_paper("How many parameters does the model have?")
