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


def test_a_coined_label_typed_in_lower_case_names_its_paper(icml_engine):
    # a break-it session: "xattention speedup?" quoted LV-XAttn's "10.62x" beside XAttention's sentence
    answer = icml_engine.ask("xattention speedup?", mode="extractive")
    assert [s.paper_id for s in answer.sources] == ["KG6aBfGi6e"]
    assert "13.5x" in answer.answer


def test_only_a_mixed_case_label_of_six_characters_or_more_is_coined():
    from paperchat.answer.focus import _coined

    assert _coined("XAttention") and _coined("ConfPO") and _coined("SafeDiffCon")
    assert not _coined("CROW") and not _coined("Flow") and not _coined("MoE")
    assert not _coined("Tree-Sliced")  # a title's capitalised words, not a coined name


def test_a_name_written_as_asked_wins_over_one_that_differs_in_capitals(icml_engine):
    # a break-it session: "How does PID work?" answered about PiD (a detector), though another abstract
    # proposes "a post-intervention distribution (PID)"
    pid = icml_engine.ask("How does PID work?", mode="extractive")
    assert [s.paper_id for s in pid.sources] == ["Zis7Mgk2Sf"]
    pid_lower = icml_engine.ask("What is PiD?", mode="extractive")
    assert [s.paper_id for s in pid_lower.sources] == ["gye2zYytx6"]
