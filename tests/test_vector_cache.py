"""The sentence-vector cache every store shares (paperchat/ingest/vector_cache.py): a second store of the same
papers runs no model and gets the same bytes; it stays within its bound; a broken cache never stops an ingest."""

from __future__ import annotations

import json
import zlib

import numpy as np
import pytest
from cli_env import run_cli
from conftest import ICML_JSONL

from paperchat.core.settings import load_settings
from paperchat.engine import Engine
from paperchat.ingest.embedding import get_embedder
from paperchat.ingest.vector_cache import CachedEmbedding, cached

FIRST = [
    "asDx9sPAUN"
]  # the first paper of the ICML file: "(How) Can Transformers Predict Pseudo-Random Numbers?"


@pytest.fixture
def five_papers(tmp_path):
    path = tmp_path / "five.jsonl"
    path.write_text(
        "\n".join(ICML_JSONL.read_text(encoding="utf-8").splitlines()[:5]) + "\n", encoding="utf-8"
    )
    return path


def _engine(store, cache) -> Engine:
    return Engine(load_settings({"store": str(store), "vector_cache": str(cache)}))


def _chunk_vectors(engine: Engine) -> dict[str, np.ndarray]:
    store = engine.open_store()
    return store.chunk_vectors([cid for cid, _text, _title in store.all_chunks()])


def test_a_second_store_of_the_same_papers_reads_every_vector_from_the_cache(tmp_path, five_papers):
    first_engine = _engine(tmp_path / "a", tmp_path / "vc")
    first = first_engine.ingest([five_papers])
    assert (first.papers_added, first.sentences_cached) == (5, 0)
    second_engine = _engine(tmp_path / "b", tmp_path / "vc")
    second = second_engine.ingest([five_papers])
    assert second.papers_added == 5
    assert second.sentences_cached == second.sentences_embedded == first.sentences_embedded > 30
    a, b = _chunk_vectors(first_engine), _chunk_vectors(second_engine)
    assert sorted(a) == sorted(b) and all(np.array_equal(a[k], b[k]) for k in a)  # the same bytes
    answer = second_engine.ask("Can transformers learn pseudo-random number sequences?")
    assert answer.sources[0].paper_id == FIRST[0]


def test_the_cli_says_how_many_vectors_came_from_the_cache_and_json_counts_them(
    tmp_path, five_papers
):
    env = {"PAPERCHAT_VECTOR_CACHE": str(tmp_path / "vc")}
    first = run_cli("ingest", str(five_papers), "--json", store=tmp_path / "a", env=env)
    assert first.returncode == 0 and json.loads(first.stdout)["sentences_cached"] == 0
    n = json.loads(first.stdout)["sentences_embedded"]
    second = run_cli("ingest", str(five_papers), store=tmp_path / "b", env=env)
    assert second.returncode == 0, second.stderr
    assert f"and {n} sentences embedded ({n} of them from the vector cache) in " in second.stdout
    off = run_cli(
        "ingest",
        str(five_papers),
        "--json",
        store=tmp_path / "c",
        env={"PAPERCHAT_VECTOR_CACHE": "off"},
    )
    assert json.loads(off.stdout)["sentences_cached"] == 0


def test_the_cache_is_off_for_off_a_zero_bound_and_a_model_without_a_fingerprint(tmp_path):
    minilm = get_embedder()
    assert cached(minilm, "off", 256) is minilm and cached(minilm, " OFF ", 256) is minilm
    assert cached(minilm, str(tmp_path), 0) is minilm

    class Remote:  # an embeddings endpoint: its weights may change behind the model's name
        dim = 3

        def fingerprint(self):
            return None

    remote = Remote()
    assert cached(remote, str(tmp_path), 256) is remote
    wrapped = cached(minilm, str(tmp_path / "vc"), 64)
    assert isinstance(wrapped, CachedEmbedding)
    assert (wrapped.folder, wrapped.limit_mib) == (tmp_path / "vc", 64)
    assert minilm.fingerprint().startswith("minilm-l6-int8:") and len(minilm.fingerprint()) > 80


def test_a_damaged_cache_is_one_note_and_the_ingest_embeds_without_it(tmp_path, five_papers):
    folder = tmp_path / "vc"
    folder.mkdir()
    (folder / "cache.db").write_bytes(b"not a database" * 100)
    report = _engine(tmp_path / "a", folder).ingest([five_papers])
    assert report.papers_added == 5 and report.sentences_cached == 0
    notes = [n for n in report.notes if "vector cache" in n]
    assert len(notes) == 1 and notes[0].startswith(
        f"the vector cache at {folder} could not be used ("
    )
    assert notes[0].endswith("); embedded without it")
    assert (folder / "cache.db").read_bytes() == b"not a database" * 100  # left as it was


class Counting:
    """A stand-in model with a fingerprint: a text's vector is a fixed function of it; counts texts embedded."""

    dim = 384

    def __init__(self):
        self.embedded = 0

    def fingerprint(self):
        return "counting-v1"

    def count_tokens(self, text):
        return len(text.split())

    def embed(self, texts, batch_size=8):
        self.embedded += len(texts)
        out = np.stack(
            [
                np.random.default_rng(zlib.crc32(t.encode("utf-8", "surrogatepass"))).normal(
                    size=self.dim
                )
                for t in texts
            ]
        ).astype(np.float32)
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def test_the_cache_stays_within_its_bound_and_keeps_the_newest(tmp_path):
    model = Counting()
    cache = CachedEmbedding(model, tmp_path / "vc", limit_mib=1)
    texts = [f"sentence number {i}" for i in range(3000)]  # 3,000 vectors of 1.5 KB: 4.4 MiB
    for start in range(0, 3000, 300):
        cache.embed(texts[start : start + 300])
    assert model.embedded == 3000 and cache.hits == 0
    volume = cache._open().volume()
    assert volume <= 1.25 * 2**20, volume
    again = cache.embed(texts[-100:])  # the newest are kept
    assert cache.hits == 100 and model.embedded == 3000
    assert np.array_equal(again, model.embed(texts[-100:]))
    cache.close()


def test_a_wrong_sized_or_damaged_entry_is_a_miss_never_a_wrong_vector(tmp_path):
    model = Counting()
    cache = CachedEmbedding(model, tmp_path / "vc")
    cache.embed(["alpha", "beta", "delta"])
    db = cache._open()
    db.set(cache._key("beta"), b"\0" * 10)  # a wrong size
    value = bytearray(db.get(cache._key("delta")))
    value[100] ^= 0x01  # one flipped bit in the vector's bytes
    db.set(cache._key("delta"), bytes(value))
    out = cache.embed(["alpha", "beta", "gamma", "delta"])
    assert (cache.hits, cache.misses) == (1, 6)  # alpha read; beta, gamma and delta embedded again
    assert np.array_equal(out, model.embed(["alpha", "beta", "gamma", "delta"]))
    cache.close()


def test_config_shows_the_folder_the_default_resolves_to_and_a_folder_given(tmp_path, monkeypatch):
    monkeypatch.delenv("PAPERCHAT_VECTOR_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    shown = json.loads(run_cli("config", "--json", store=tmp_path / "s").stdout)["settings"]
    assert shown["vector_cache"] == {
        "value": str(tmp_path / "xdg" / "paperchat" / "vectors"),
        "from": "default",
    }
    assert shown["vector_cache_mib"] == {"value": 256, "from": "default"}
    given = run_cli("config", "--json", env={"PAPERCHAT_VECTOR_CACHE": "off"})
    assert json.loads(given.stdout)["settings"]["vector_cache"] == {
        "value": "off",
        "from": "env:PAPERCHAT_VECTOR_CACHE",
    }


def test_a_nan_entry_with_a_good_digest_is_a_miss_and_off_words_turn_the_cache_off(tmp_path):
    from paperchat.ingest.vector_cache import _pack

    model = Counting()
    cache = CachedEmbedding(model, tmp_path / "vc")
    cache.embed(["alpha"])
    cache._open().set(cache._key("alpha"), _pack(np.full(384, np.nan, dtype=np.float32)))
    out = cache.embed(["alpha"])
    assert cache.hits == 0 and np.isfinite(out).all()  # Chroma would refuse a NaN: embedded again
    cache.embed(["a lone surrogate \ud800 from a badly decoded file"])
    cache.embed(["a lone surrogate \ud800 from a badly decoded file"])
    assert (cache.hits, cache.notes) == (1, [])  # keyed like any text, not a note
    cache.close()
    minilm = get_embedder()
    assert all(cached(minilm, word, 256) is minilm for word in ("none", "False", "no", "0"))


def test_an_empty_cache_folder_is_a_one_line_error(tmp_path, five_papers):
    out = run_cli(
        "ingest", str(five_papers), store=tmp_path / "s", env={"PAPERCHAT_VECTOR_CACHE": "  "}
    )
    assert out.returncode != 0
    assert out.stderr.strip() == (
        "error: setting vector_cache from env:PAPERCHAT_VECTOR_CACHE: an empty value; "
        "leave it out to use the default"
    )
    assert not (tmp_path / "s").exists()


def test_sentences_from_the_cache_never_outnumber_the_sentences_embedded(tmp_path):
    """A paper whose long sentence is cut across chunks embeds the cut pieces too: 7 sentences, 10 texts. The
    report had said "7 sentences embedded (10 of them from the vector cache)"."""
    path = tmp_path / "one.jsonl"
    (line,) = [
        row for row in ICML_JSONL.read_text(encoding="utf-8").splitlines() if '"9B5pBbzCwQ"' in row
    ]
    path.write_text(line + "\n", encoding="utf-8")
    first = _engine(tmp_path / "a", tmp_path / "vc").ingest([path])
    second = _engine(tmp_path / "b", tmp_path / "vc").ingest([path])
    assert (first.sentences_embedded, first.sentences_cached) == (7, 0)
    assert (second.sentences_embedded, second.sentences_cached) == (7, 7)
