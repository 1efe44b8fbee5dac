"""A slip no paper writes is read as the word the papers write, for retrieval and the answer alike (a
phone-style session: "reinforcment lerning from human feedbak" was declined, "difusion lm sampling"
retrieved a distillation paper)."""

from __future__ import annotations

LIGHTGTS = "p-34c64e0fe1f8"


def test_a_slip_is_respelled_and_names_are_kept(bundled_engine):
    lexicon = bundled_engine.store.bm25()
    assert lexicon.respell("lightweight time seires forecasting") == (
        "lightweight time series forecasting",
        ["'seires' as 'series'"],
    )
    # a word the papers write, a capitalised or short word, and a word kept (an author's name) stay
    assert (
        lexicon.respell("Seires of lightweight models by yoonnn", lambda w: w == "yoonnn")[1] == []
    )


def test_a_question_with_a_slip_is_answered_as_meant(bundled_engine):
    answer = bundled_engine.ask(
        "Which paper proposes a lightweight general time seires forecasting model?",
        mode="extractive",
    )
    assert [s.paper_id for s in answer.sources][:1] == [LIGHTGTS]
    assert (
        answer.question
        == "Which paper proposes a lightweight general time seires forecasting model?"
    )
    assert "read 'seires' as 'series'" in answer.notes
