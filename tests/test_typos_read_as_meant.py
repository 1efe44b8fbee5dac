"""A slip no paper writes is read as the word the papers write, for retrieval and the answer alike (a
phone-style session: "reinforcment lerning from human feedbak" was declined, "difusion lm sampling"
retrieved a distillation paper)."""

from __future__ import annotations


def test_a_slip_is_respelled_and_real_words_and_names_are_kept(bundled_engine):
    lexicon = bundled_engine.store.bm25()
    assert lexicon.respell("trnasformer in context lerning") == (
        "transformer in context learning",
        ["'trnasformer' as 'transformer'", "'lerning' as 'learning'"],
    )
    # words the 38 papers lack are no slips of the rare words one letter away ("missing" of "omission",
    # "adding" of "aid"), nor a word made from one they write ("predictor"), nor a name kept, nor a
    # capitalised word
    kept = "a predictor adding missing entries by yoonnn Lerning"
    assert lexicon.respell(kept, lambda w: w == "yoonnn") == (kept, [])


def test_a_question_with_a_slip_is_answered_as_meant(bundled_engine):
    meant = bundled_engine.ask("Which papers use transformer models?", mode="extractive")
    typed = bundled_engine.ask("Which papers use trnasformer models?", mode="extractive")
    assert typed.sources and [s.paper_id for s in typed.sources] == [
        s.paper_id for s in meant.sources
    ]
    assert typed.question == "Which papers use trnasformer models?"
    assert "read 'trnasformer' as 'transformer'" in typed.notes
