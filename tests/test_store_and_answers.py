"""Real Chroma stores in temporary folders, the real embedding model, real answers."""

from __future__ import annotations

import json
import shutil

import pytest
from conftest import SEED_000, SEED_003

from paperchat.core.contract import ABSTENTION
from paperchat.core.errors import PaperchatError
from paperchat.core.settings import load_settings
from paperchat.engine import Engine
from paperchat.ingest.chunking import ChunkSettings


def _engine(folder, **kw) -> Engine:
    return Engine(load_settings({"store": str(folder)}), **kw)


def test_confpo_question_cites_the_confpo_abstract_as_1(bundled_engine, seed_ids):
    res = bundled_engine.ask("What does ConfPO use to pick preference-critical tokens?")
    assert res.abstained is False and res.mode == "extractive"
    first = res.sources[0]
    assert first.n == 1
    assert first.paper_id == seed_ids[(SEED_000, 3)] == "p-abe9274a3783"
    assert (first.path, first.index) == (SEED_000, 3)
    assert first.label == "ConfPO"
    assert "[1]" in res.answer
    assert "confidence" in res.answer
    assert res.retrieved[0].paper_id == "p-abe9274a3783"


def test_attention_theory_question_sources_both_papers(bundled_engine, seed_ids):
    res = bundled_engine.ask("Which papers give theoretical analyses of attention in transformers?")
    cited = {s.paper_id for s in res.sources}
    assert seed_ids[(SEED_000, 4)] in cited  # backdoor attacks in token selection of attention
    assert seed_ids[(SEED_003, 11)] in cited  # asymptotic analysis: tokens converge (consensus)


def test_off_topic_question_abstains_without_citations(bundled_engine):
    res = bundled_engine.ask("What is the boiling point of ethanol?")
    assert res.abstained is True
    assert res.answer == ABSTENTION
    assert res.sources == []
    assert "[" not in res.answer


def test_every_answer_sentence_carries_a_citation(bundled_engine):
    from paperchat.core.sentences import split_sentences

    res = bundled_engine.ask("Which six techniques does the GNN+ framework add to classic GNNs?")
    sentences = split_sentences(res.answer)
    assert sentences and all("[" in s for s in sentences)
    numbers = [s.n for s in res.sources]
    assert numbers == list(range(1, len(numbers) + 1))


def test_top_k_is_capped_at_the_corpus_size(bundled_engine):
    hits = bundled_engine.retrieve("graph neural networks", top_k=100)
    assert len(hits) == 38
    assert len({h.paper_id for h in hits}) == 38  # grouped by paper


@pytest.mark.integration  # ingests the bundled corpus into stores of its own
def test_reingest_is_idempotent_and_embeds_nothing(tmp_path):
    from paperchat.ingest.corpus import bundled_corpus_files

    engine = _engine(tmp_path)
    first = engine.ingest(bundled_corpus_files())
    ids_before = sorted(cid for cid, _text, _title in engine.store.all_chunks())
    assert (first.total_papers, first.chunks_embedded) == (38, first.total_chunks)
    for _ in range(2):
        again = _engine(tmp_path).ingest(bundled_corpus_files())
        assert again.chunks_embedded == 0 and again.papers_unchanged == 38 and not again.changed
        assert again.total_chunks == first.total_chunks
    assert sorted(cid for cid, _text, _title in _engine(tmp_path).store.all_chunks()) == ids_before
    # Metadata joined later updates titles in place, still embedding nothing.
    from conftest import SEED_METADATA

    meta = _engine(tmp_path).ingest(bundled_corpus_files(), metadata=SEED_METADATA)
    assert (meta.chunks_embedded, meta.papers_updated) == (0, 38)
    rows = {p.paper_id: p for p in _engine(tmp_path).papers()}
    assert rows["p-abe9274a3783"].title.startswith("ConfPO: Exploiting Policy Model Confidence")
    assert len(rows["p-abe9274a3783"].chunk_ids) == 2


def test_reingest_removes_papers_a_file_no_longer_holds(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    a = data / "a.jsonl"
    b = data / "b.jsonl"
    a.write_text(
        "".join(
            json.dumps({"id": f"A{i}", "abstract": f"Graph paper {i} studies message passing."})
            + "\n"
            for i in range(3)
        )
    )
    b.write_text(json.dumps({"id": "B0", "abstract": "A diffusion paper about guidance."}) + "\n")
    engine = _engine(tmp_path / "store")
    engine.ingest([a, b])
    a.write_text(
        json.dumps({"id": "A0", "abstract": "Graph paper 0 studies message passing."}) + "\n"
    )
    report = _engine(tmp_path / "store").ingest([a])
    assert (report.papers_removed, report.papers_unchanged, report.chunks_embedded) == (2, 1, 0)
    assert sorted(p.paper_id for p in _engine(tmp_path / "store").papers()) == ["A0", "B0"]
    rebuilt = _engine(tmp_path / "store").ingest([a], rebuild=True)
    # A0 was stored before: rewritten, not added; B0 is not in the rebuilt files
    assert (
        rebuilt.total_papers,
        rebuilt.papers_added,
        rebuilt.papers_updated,
        rebuilt.papers_removed,
    ) == (
        1,
        0,
        1,
        1,
    )


def test_malformed_file_leaves_the_store_untouched(tmp_path, bundled_store):
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps({"id": "G1", "abstract": "Kept paper."}) + "\n")
    engine = _engine(tmp_path / "store")
    engine.ingest([good])
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"abstract": "fine"}\n{"abstract": \n')
    with pytest.raises(PaperchatError, match="bad.jsonl:2"):
        _engine(tmp_path / "store").ingest([good, bad])
    assert [p.paper_id for p in _engine(tmp_path / "store").papers()] == ["G1"]


def test_changed_embedding_model_or_chunks_without_rebuild_fails_clearly(bundled_store):
    engine = Engine(
        load_settings({"store": str(bundled_store), "embed_model": "openai:text-embedding-3-small"})
    )
    with pytest.raises(PaperchatError, match=r"paperchat ingest --rebuild") as err:
        engine.retrieve("anything")
    assert "minilm-l6-int8" in str(err.value) and "openai:text-embedding-3-small" in str(err.value)
    other_chunks = _engine(bundled_store, chunk=ChunkSettings(256, 0))
    with pytest.raises(PaperchatError, match=r"chunks 192/32 tokens \(asked for 256/0\)"):
        other_chunks.retrieve("anything")


def test_bm25_works_after_reopen_and_rebuilds_a_lost_index(bundled_store):
    from paperchat.retrieve.hybrid import HybridRetriever

    engine = _engine(bundled_store)
    bm25 = HybridRetriever(engine.store, engine.embedder, mode="bm25")
    top = bm25.retrieve("LightGTS periodical tokenization time series", 3)
    assert top[0].paper_id == "p-34c64e0fe1f8" and top[0].bm25 > 0
    shutil.rmtree(bundled_store / "bm25")
    again = HybridRetriever(_engine(bundled_store).store, engine.embedder, mode="bm25").retrieve(
        "LightGTS", 1
    )
    assert again[0].paper_id == "p-34c64e0fe1f8"
    assert (bundled_store / "bm25" / "paperchat.json").exists()


def test_a_second_writer_fails_clearly_while_the_store_is_locked(tmp_path, monkeypatch):
    from filelock import FileLock

    import paperchat.store.writer as writer_mod

    good = tmp_path / "g.jsonl"
    good.write_text(json.dumps({"id": "G1", "abstract": "Kept paper."}) + "\n")
    engine = _engine(tmp_path / "store")
    engine.ingest([good])
    monkeypatch.setattr(writer_mod, "LOCK_WAIT_S", 0.2)
    changed = (
        tmp_path / "g2.jsonl"
    )  # an unchanged file is answered from the manifest without the lock
    changed.write_text(json.dumps({"id": "G2", "abstract": "Another paper."}) + "\n")
    with FileLock(str(tmp_path / "store" / "write.lock")):
        with pytest.raises(PaperchatError, match="another paperchat process is writing"):
            _engine(tmp_path / "store").ingest([changed])
    assert _engine(tmp_path / "store").store.counts() == (1, 1)


def test_store_path_that_cannot_be_a_folder(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(PaperchatError, match="cannot create the store folder"):
        _engine(blocker / "store").store  # noqa: B018
    with pytest.raises(PaperchatError, match="exists and is not a folder"):
        _engine(blocker).store  # noqa: B018


def _icml_records(ids):
    from conftest import ICML_JSONL

    rows = {}
    for line in ICML_JSONL.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if rec["id"] in ids:
            rows[rec["id"]] = rec
    return [rows[i] for i in ids]


@pytest.mark.integration  # ingests the bundled corpus into stores of its own
def test_near_duplicates_merge_into_one_paper_in_either_order(tmp_path):
    from paperchat.ingest.corpus import bundled_corpus_files

    # ConfPO's copy in the ICML file (final period dropped) and two other papers.
    jsonl = tmp_path / "icml_three.jsonl"
    recs = _icml_records(["ZG7bkp6ScT", "asDx9sPAUN"])
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")

    seeds_first = _engine(tmp_path / "a")
    seeds_first.ingest(bundled_corpus_files())
    report = _engine(tmp_path / "a").ingest([jsonl])
    assert (report.duplicates_merged, report.papers_added, report.total_papers) == (1, 1, 39)
    rows = {p.paper_id: p for p in _engine(tmp_path / "a").papers()}
    assert "ZG7bkp6ScT" not in rows
    assert rows["p-abe9274a3783"].title.startswith("ConfPO: Exploiting Policy Model Confidence")
    assert rows["p-abe9274a3783"].aliases == ["ZG7bkp6ScT"]
    # Re-ingesting the title-less seed copy keeps the merged title; nothing is embedded.
    again = _engine(tmp_path / "a").ingest(bundled_corpus_files())
    assert (again.chunks_embedded, again.papers_updated) == (0, 0)
    assert {p.paper_id: p for p in _engine(tmp_path / "a").papers()}[
        "p-abe9274a3783"
    ].label == "ConfPO"
    assert _engine(tmp_path / "a").ingest([jsonl]).changed is False

    jsonl_first = _engine(tmp_path / "b")
    jsonl_first.ingest([jsonl])
    report = _engine(tmp_path / "b").ingest(bundled_corpus_files())
    assert (report.duplicates_merged, report.total_papers) == (1, 39)
    record = _engine(tmp_path / "b").store.papers(["ZG7bkp6ScT"])["ZG7bkp6ScT"]
    assert record.aliases == ["p-abe9274a3783"]


def test_an_id_used_for_another_abstract_is_an_error_or_skipped(tmp_path):
    mine = tmp_path / "mine.jsonl"
    mine.write_text(
        json.dumps({"id": "zeta-1", "abstract": "ZetaPrune prunes attention heads by zeta scores."})
        + "\n"
    )
    _engine(tmp_path / "store").ingest([mine])
    clash = tmp_path / "clash.jsonl"
    clash.write_text(
        json.dumps({"id": "zeta-1", "abstract": "A different paper about graph sparsification."})
        + "\n"
        + json.dumps({"id": "other", "abstract": "Another paper about kernels."})
        + "\n"
    )
    with pytest.raises(
        PaperchatError, match=r"clash.jsonl #1: id 'zeta-1' is already used by mine.jsonl #1"
    ):
        _engine(tmp_path / "store").ingest([clash])
    report = _engine(tmp_path / "store").ingest([clash], on_error="skip")
    assert report.papers_added == 1 and "id 'zeta-1' is already used" in report.lines_skipped[0]
    records = _engine(tmp_path / "store").store.papers(["zeta-1"])
    assert records["zeta-1"].abstract.startswith("ZetaPrune")  # the stored paper was not replaced
    twice = tmp_path / "twice.jsonl"
    twice.write_text(
        json.dumps({"id": "d", "abstract": "Wren."})
        + "\n"
        + json.dumps({"id": "d", "abstract": "Finch."})
        + "\n"
    )
    with pytest.raises(
        PaperchatError, match=r"twice.jsonl #2: id 'd' is also used by twice.jsonl #1"
    ):
        _engine(tmp_path / "store").ingest([twice])


def test_questions_are_cleaned_and_bounded(bundled_engine):
    res = bundled_engine.ask("What does ConfPO use to pick preference-critical tokens?\udcff")
    assert res.question == "What does ConfPO use to pick preference-critical tokens?"
    with pytest.raises(PaperchatError, match="limit is 2000"):
        bundled_engine.ask("graphs " * 400)
    with pytest.raises(PaperchatError, match="empty"):
        bundled_engine.ask("\udcff  ")


def test_sentence_vectors_are_stored_at_ingest_and_chunks_pool_them(bundled_engine, seed_ids):
    import numpy as np

    from paperchat.core.sentences import split_sentences
    from paperchat.ingest.sentence_vectors import pool_chunks

    confpo = seed_ids[(SEED_000, 3)]
    abstract = bundled_engine.store.papers([confpo])[confpo].abstract
    sents = split_sentences(abstract)
    stored = {
        pid: vecs
        for pid, (_hash, vecs) in bundled_engine.store.sentence_vectors(
            [confpo, "no-such-paper"]
        ).items()
    }
    assert list(stored) == [confpo] and stored[confpo].shape == (len(sents), 384)
    fresh = bundled_engine.embedder.embed(sents)
    assert float(np.min(np.sum(fresh * stored[confpo], axis=1))) > 0.9999
    # the sentence collection answers max-similarity queries for a question (not a stored vector): ConfPO's three
    # best sentences by exact cosine, best first, then another paper's
    qvec = bundled_engine.embedder.embed_one(
        "What does ConfPO use to pick preference-critical tokens?"
    )
    nearest = bundled_engine.store.nearest_sentences(qvec, 4)
    exact = sorted((stored[confpo] @ qvec).tolist(), reverse=True)[:3]
    assert [pid for pid, _cos in nearest] == [confpo] * 3 + [nearest[3][0]] and nearest[3][
        0
    ] != confpo
    assert [cos for _pid, cos in nearest[:3]] == pytest.approx(exact, abs=1e-4)
    assert exact[2] > nearest[3][1]
    # Each stored chunk vector is the normalised, token-count-weighted mean of its sentences' vectors.
    got = bundled_engine.store.collection("chunks").get(
        where={"paper_id": confpo}, include=["documents", "embeddings"]
    )
    pooled = pool_chunks(
        abstract, stored[confpo], got["documents"], bundled_engine.embedder.count_tokens
    )
    assert pooled is not None and pooled.shape == (len(got["ids"]), 384)
    assert np.allclose(pooled, np.array(got["embeddings"]), atol=2e-3)
    assert not np.allclose(
        pool_chunks(abstract, stored[confpo], got["documents"]), pooled, atol=2e-3
    )


def test_an_offline_answer_embeds_only_the_question(bundled_store, seed_ids):
    engine = _engine(bundled_store)
    calls: list[int] = []
    real = engine.embedder
    original = real.embed

    def counting(texts, *a, **kw):
        calls.append(len(texts))
        return original(texts, *a, **kw)

    real.embed = counting
    real.__dict__.pop(
        "_query_vectors", None
    )  # the shared embedder may hold this question from another test
    try:
        res = engine.ask("Which two techniques does LightGTS introduce?")
    finally:
        del real.embed
    assert res.abstained is False and res.sources[0].label == "LightGTS"
    assert calls == [1]


def test_a_store_whose_chunk_vectors_were_made_another_way_asks_for_a_rebuild(tmp_path):
    one = tmp_path / "one.jsonl"
    one.write_text(
        json.dumps({"id": "A1", "abstract": "We study sparse attention. It is fast."}) + "\n"
    )
    _engine(tmp_path / "store").ingest([one])
    engine = _engine(tmp_path / "store")
    chunks = engine.store.collection("chunks")
    meta = dict(chunks.metadata)
    meta.pop("chunk_vectors")  # a store written before chunk vectors were pooled from sentences
    chunks.modify(metadata=meta)
    with pytest.raises(
        PaperchatError, match=r"chunk vectors made by 'direct'.*paperchat ingest --rebuild"
    ):
        _engine(tmp_path / "store").retrieve("sparse attention")
    assert _engine(tmp_path / "store").ingest([one], rebuild=True).total_papers == 1


def test_a_rebuild_whose_embedder_fails_keeps_the_store(tmp_path):
    one = tmp_path / "one.jsonl"
    one.write_text(
        json.dumps({"id": "A1", "abstract": "We study sparse attention. It is fast."}) + "\n"
    )
    _engine(tmp_path / "store").ingest([one])
    unreachable = Engine(
        load_settings(
            {
                "store": str(tmp_path / "store"),
                "embed_model": "openai:text-embedding-3-small",
                "llm_api_key": "sk-test-not-real",
                "llm_base_url": "http://127.0.0.1:9/v1",
            }
        )
    )
    with pytest.raises(
        PaperchatError, match=r"the embeddings endpoint at http://127\.0\.0\.1:9/v1 failed"
    ):
        unreachable.ingest([one], rebuild=True)
    kept = _engine(tmp_path / "store")
    assert [p.paper_id for p in kept.papers()] == ["A1"]
    assert kept.store.info().embed_model == "minilm-l6-int8"


def test_a_repeated_query_is_embedded_once_and_its_vector_is_read_only(bundled_store):
    """Embedder.embed_one keeps the last QUERY_CACHE query vectors: asking again runs no model."""
    engine = _engine(bundled_store)
    real = engine.embedder
    calls: list[int] = []
    original = real.embed

    def counting(texts, *a, **kw):
        calls.append(len(texts))
        return original(texts, *a, **kw)

    real.embed = counting
    try:
        first = real.embed_one("a query asked twice about sparse attention")
        again = real.embed_one("a query asked twice about sparse attention")
    finally:
        del real.embed
    assert calls == [1] and again is first and not first.flags.writeable
