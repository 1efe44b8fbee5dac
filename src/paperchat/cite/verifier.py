"""The learned citation verifier: P(the evidence supports the claim) from a small cross-encoder on onnxruntime.

The model is all-MiniLM-L6-v2 fine-tuned on synthetic (claim, evidence)
pairs made from the ICML 2025 abstracts (``training/verifier.py`` rebuilds
it; the README gives its provenance and figures), exported to ONNX with
int8 weights. It ships inside the package, with its WordPiece
``tokenizer.json``, in ``paperchat/cite/models/``; nothing is downloaded.

The pair is encoded as the training encoded it: ``[CLS] claim [SEP]
evidence [SEP]``, at most :data:`MAX_TOKENS` tokens, the evidence cut first
(:func:`paperchat.cite.evidence.pick_evidence` picks the evidence). The
session loads on first use (about 0.2 s), not at import.
"""

from __future__ import annotations

import importlib.resources
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from paperchat.core.errors import PaperchatError
from paperchat.core.onnx import session_options

MODEL_FILE = "verifier-int8.onnx"
TOKENIZER_FILE = "tokenizer.json"
#: tokens of one (claim, evidence) pair, as trained
MAX_TOKENS = 160


def model_dir() -> Path:
    """The folder holding the verifier's files: ``paperchat/cite/models`` (installed wheel or checkout)."""
    return Path(str(importlib.resources.files("paperchat.cite").joinpath("models")))


class Verifier:
    """The cross-encoder; :meth:`scores` maps (claim, evidence) pairs to probabilities of support in [0, 1].

    Loading is lazy and thread-safe; ``threads`` caps onnxruntime's intra-op threads (default:
    ``PAPERCHAT_THREADS``, else all cores; :mod:`paperchat.core.onnx`).
    A missing or unreadable model file raises :class:`PaperchatError` on first use.
    """

    def __init__(self, folder: Path | None = None, threads: int | None = None):
        self.folder = folder or model_dir()
        self._threads = threads
        self._session = None
        self._tokenizer = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory."""
        return self._session is not None

    def load(self) -> None:
        """Load the ONNX session and the tokenizer now (a no-op once loaded)."""
        if self._session is not None:
            return
        with self._lock:
            if self._session is not None:
                return
            import onnxruntime as ort
            from tokenizers import Tokenizer

            model, vocab = self.folder / MODEL_FILE, self.folder / TOKENIZER_FILE
            if not model.is_file() or not vocab.is_file():
                raise PaperchatError(
                    f"the citation verifier's model is missing ({model}); reinstall paperchat"
                )
            options = session_options(self._threads)
            try:
                session = ort.InferenceSession(
                    str(model), sess_options=options, providers=["CPUExecutionProvider"]
                )
                tokenizer = Tokenizer.from_file(str(vocab))
            except (
                Exception
            ) as exc:  # onnxruntime raises its own exception types for a damaged file
                raise PaperchatError(
                    f"the citation verifier's model {model} cannot be read ({exc}); "
                    "reinstall paperchat"
                ) from exc
            tokenizer.no_padding()
            self._tokenizer = tokenizer
            self._session = session

    def _encode(
        self, pairs: Sequence[tuple[str, str]]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        encs = []
        for claim, evidence in pairs:
            try:
                self._tokenizer.enable_truncation(max_length=MAX_TOKENS, strategy="only_second")
                encs.append(self._tokenizer.encode(claim, evidence))
            except Exception:  # the claim alone is longer than MAX_TOKENS: cut both
                self._tokenizer.enable_truncation(max_length=MAX_TOKENS, strategy="longest_first")
                encs.append(self._tokenizer.encode(claim, evidence))
        width = max(len(e.ids) for e in encs)
        ids = np.zeros((len(encs), width), dtype=np.int64)
        mask, types = np.zeros_like(ids), np.zeros_like(ids)
        for i, e in enumerate(encs):
            n = len(e.ids)
            ids[i, :n], mask[i, :n], types[i, :n] = e.ids, e.attention_mask, e.type_ids
        return ids, mask, types

    def scores(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """P(supported) of each (claim, evidence) pair, in order; pairs run one at a time (no padding cost)."""
        if not pairs:
            return []
        self.load()
        out = []
        with self._lock:  # the tokenizer's truncation setting is shared state
            for pair in pairs:
                ids, mask, types = self._encode([pair])
                logit = self._session.run(
                    None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
                )[0]
                out.append(float(1.0 / (1.0 + np.exp(-logit[0, 0]))))
        return out


_SHARED: Verifier | None = None
_SHARED_LOCK = threading.Lock()


def get_verifier() -> Verifier:
    """The process-wide :class:`Verifier` (created on first call; its model loads on first use)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = Verifier()
        return _SHARED
