"""A paper's name typed with a slip: the abstention offers the stored labels spelled like it, as `summarize`
does (a break-it session: "What does BanditSpc do?" abstained with no hint while `summarize BanditSpc`
offered BanditSpec). The name is not read as the label: a near name is as often a paper that is not stored
(the conference eval's "ProofAugur" is not ProofAug), so the answer stays the abstention."""

from __future__ import annotations


def test_the_abstention_offers_the_label(bundled_engine):
    answer = bundled_engine.ask("What does LigthGTS forecast?", mode="extractive")
    assert answer.abstained and answer.sources == []
    assert answer.notes[-1] == 'no stored paper writes "LigthGTS"; did you mean LightGTS?'
    # a name the store has, in another case too, gets no such note; nor does a name close to no label
    for question in ("What does LightGTS forecast?", "What does lightGTS forecast?"):
        assert not any("did you mean" in n for n in bundled_engine.ask(question).notes)
    far = bundled_engine.ask("What does FooBarNet forecast?", mode="extractive")
    assert far.abstained and not any("did you mean" in n for n in far.notes)
