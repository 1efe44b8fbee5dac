"""Returns to an earlier topic and lead-ins that only change it (:mod:`paperchat.chat.returns`), and a
name's particles in the English check (:func:`paperchat.core.text.not_in_english`)."""

from __future__ import annotations

from paperchat.chat.returns import returns_to, without_lead_in
from paperchat.core.text import not_in_english

EARLIER = [
    ("What papers are there on test-time scaling?", ["JETTS: test-time scaling evaluators"]),
    ("which papers study speculative decoding?", ["BanditSpec: speculative decoding"]),
    ("tell me about the first one", ["BanditSpec: speculative decoding"]),
]


def earlier():
    """The turns :func:`returns_to` reads, as the chat session gives them."""
    return EARLIER


def test_back_to_a_topic_finds_the_newest_turn_that_asked_about_it():
    assert returns_to("Back to the test-time scaling papers: which one is cheapest?", earlier) == (
        "which one is cheapest?",
        0,
        "test-time scaling",
    )
    # the newest turn whose every cited paper writes the topic, though its question does not
    assert returns_to(
        "Going back to speculative decoding, which of these is fastest?", earlier
    ) == (
        "which of these is fastest?",
        2,
        "speculative decoding",
    )
    # an earlier turn by its place
    assert returns_to("Going back to the first question, which of those use RL?", earlier)[:2] == (
        "which of those use RL?",
        0,
    )
    assert returns_to("back to the previous list: which one is best?", earlier)[1] == 1
    # a topic no earlier turn had: said, not answered from the last list (the verifier's "back to the
    # diffusion papers" had been answered from the speculative-decoding list)
    assert returns_to("back to graph transformers: which one is best?", earlier) == (
        "which one is best?",
        None,
        "graph transformers",
    )
    # one paper described is no return
    assert (
        returns_to("going back to the chain-of-thought paper, what are its findings?", earlier)
        is None
    )
    assert returns_to("What papers are there on test-time scaling?", earlier) is None


def test_lead_ins_that_only_change_the_topic_are_dropped():
    assert (
        without_lead_in("Now a different topic: which papers use SAEs?") == "which papers use SAEs?"
    )
    assert without_lead_in("Let's switch: what is BanditSpec?") == "what is BanditSpec?"
    assert without_lead_in("New topic - papers on unlearning") == "papers on unlearning"
    assert without_lead_in("OK, unrelated question: which papers study MoE?") == (
        "which papers study MoE?"
    )
    assert (
        without_lead_in("Which topic do most papers study?") == "Which topic do most papers study?"
    )


def test_a_names_particles_are_no_sign_of_another_language():
    known = lambda word: True  # noqa: E731
    assert not not_in_english("Has Mihaela van der Schaar worked on digital twins?", known)
    assert not not_in_english("Is Fernando De la Torre an author?", known)
    assert not not_in_english("papers by van der Schaar, Mihaela", known)
    assert not_in_english("Was ist der Unterschied zwischen LoRA und DoRA?", known)


def test_close_author_names():
    from paperchat.ingest.authors import close_names

    names = ["Sergey Levine", "Stephan Günnemann", "Min-Ling Zhang", "Daniel S. Levine"]
    assert close_names("Sergei Levine", names) == ["Sergey Levine"]
    assert close_names("Stephan Gunneman", names) == ["Stephan Günnemann"]
    assert close_names("Minling Zhang", names) == ["Min-Ling Zhang"]
    assert close_names("Geoffrey Hinton", names) == []


def test_names_fold_letters_nfkd_cannot():
    # a reference-manager session: --author Dordevic matched no "Ðorđević" (an eth for Đ)
    from paperchat.core.text import fold

    assert fold("Ðorđević Łukasiewicz Søren") == "dordevic lukasiewicz soren"
