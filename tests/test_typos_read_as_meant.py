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


def test_english_words_the_papers_lack_are_no_slips(bundled_engine):
    # the generalization gate: "splicing", "nudging", "smells", "clause", "shaking" had been read as
    # "slicing", "judging", "smalls", "classe", "sharing"; British "localised" as "localismed"
    from paperchat.ingest.english import is_english

    for word in ("nudging", "smells", "clause", "shaking", "newlines", "localised", "pitting"):
        assert is_english(word), word
    for slip in ("segmnet", "lerning", "feedbak", "difusion", "trnasformer", "activaton"):
        assert not is_english(slip), slip
    # "splicing" is no whole word of the vocabulary, but a letter too many is never taken out
    words = "splicing nudging smells clause shaking newlines localised pitting"
    assert bundled_engine.store.bm25().respell(words) == (words, [])
