"""A CTO's shorthand asks (issue 17, fourteenth round, general-p).

"attn" and "perf" abbreviate common words and are no distinctive words of an off-topic question; "LM" is
the field's generic abbreviation, no paper's name; "how much compute does it actually save" is
answered by a number of "computational" cost (the counted noun matches by its stem); "... when picking
which open LLM to fine-tune" says what the paper does, it does not ask for a model. Questions written for these tests (none is in an eval set); pure functions,
and a BM25 index over a few lines of text.
"""

from __future__ import annotations

from paperchat.answer import intent as it
from paperchat.answer.counts import names_noun
from paperchat.answer.model_names import asked_model
from paperchat.answer.subjects import missing_names
from paperchat.store.bm25 import COMMON_DF, BM25Index


def _index(df: dict[str, int]) -> BM25Index:
    return BM25Index(retriever=None, ids=[], revision="r", df=df)


def test_shorthand_of_a_common_word_is_not_distinctive():
    index = _index({"attent": COMMON_DF, "perform": 400, "softmax": 30, "quokka": 0})
    assert index.abbreviates("attn")  # the skeleton of "attent"
    assert index.abbreviates("perf")  # the start of "perform"
    assert not index.abbreviates("quok")  # no common word it shortens
    rare = index.rare_terms("how much perf survives in linear attn for quokka images?", 2)
    assert "quokka" in rare
    assert "attn" not in rare and "perf" not in rare


def test_a_word_many_papers_hold_is_no_shorthand():
    assert not _index({"perf": 3, "perform": 400}).abbreviates("perf")


def test_lm_is_a_generic_abbreviation_not_a_name():
    question = "one paper made the LM loss care how close a predicted digit is. name?"
    assert missing_names(question, ["We add a number-aware loss to language models."]) == []


def test_a_name_typed_without_its_accent_is_the_name():
    # a user's test at conference scale: "PokeChamp" was declined as a name no paper mentions
    abstract = ["We introduce PokéChamp, a minimax agent for Pokémon battles."]
    assert missing_names("What win rate does PokeChamp achieve?", abstract) == []
    assert missing_names("What win rate does PokéChamp achieve?", abstract) == []
    assert missing_names("What win rate does PokeChimp achieve?", abstract) == ["PokeChimp"]


def test_a_counted_noun_matches_a_word_of_its_stem():
    assert (
        it.counted_noun("how much compute does it actually save when picking a model?") == "compute"
    )
    assert names_noun("It cuts up to 88.5% of the computational cost.", "compute", False)
    assert not names_noun("It cuts up to 88.5% of the cost.", "compute", False)


def test_which_after_a_verb_of_choosing_asks_for_no_model():
    assert asked_model("how much compute does it save when picking which open LLM to tune?") is None
    assert asked_model("Which LLM does the agent use as its planner?") == "LLM"
