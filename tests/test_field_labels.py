"""A label that names a field's term is left out after the title an answer names a paper by (issue 17)."""

from __future__ import annotations

from types import SimpleNamespace

from paperchat.answer.field_labels import field_labels, spelled_out
from paperchat.answer.offline import paper_name
from paperchat.ingest.records import PaperRecord
from paperchat.store.bm25 import BM25Index


def test_the_words_an_abbreviation_spells_out():
    assert (
        spelled_out("BC", "Behavior cloning (BC) learns from demonstrations.") == "Behavior cloning"
    )
    assert (
        spelled_out("DOF", "the number of degrees of freedom (DOF) grows") == "degrees of freedom"
    )
    assert (
        spelled_out("SEs", "we derive structural encodings (SEs) for graphs")
        == "structural encodings"
    )
    assert (
        spelled_out("KEA", "we propose keep everything (KEA) for") == ""
    )  # initials do not spell it
    assert spelled_out("ConfPO", "We introduce ConfPO (ConfPO)") == ""  # no abbreviation


def test_a_label_many_papers_write_or_spell_out_is_a_field_term():
    # an area chair's session: "Rethinking Latent Redundancy in Behavior Cloning ... (BC)" and "Sparse
    # Autoencoders, Again? (VAE)" read as the papers' method names
    docs = {f"v{i}": "We train a variational autoencoder (VAE) on images." for i in range(6)}
    docs |= {f"b{i}": "Behavior cloning imitates an expert." for i in range(6)}
    docs["mine"] = "We propose ConfPO, a token selection method; ConfPO is simple."
    docs |= {f"n{i}": f"We train on 16 GPUs, run {i}." for i in range(6)}
    lexicon = BM25Index.build(list(docs), list(docs.values()), "test")
    papers = [
        SimpleNamespace(label="VAE", abstract="the variational autoencoder (VAE) is sparse"),
        SimpleNamespace(label="BC", abstract="Behavior cloning (BC) is brittle; BC needs data"),
        SimpleNamespace(label="ConfPO", abstract=docs["mine"]),
        SimpleNamespace(label="Score as Action", abstract="we propose Score as Action"),
        SimpleNamespace(label="F-16", abstract="we fly an F-16 jet"),  # "16" is no label's word
    ]
    assert field_labels(papers, lexicon) == {"vae", "bc"}
    assert field_labels(papers, None) == set()
    record = PaperRecord("x", title="Rethinking Latent Redundancy in Behavior Cloning", label="BC")
    assert paper_name(record, {"bc"}) == "Rethinking Latent Redundancy in Behavior Cloning"
    assert paper_name(record) == "Rethinking Latent Redundancy in Behavior Cloning (BC)"
