"""A bounded on-disk cache of sentence vectors, shared by every store of one user.

Ingest embeds each abstract sentence once per store (:mod:`paperchat.ingest.sentence_vectors`); a
second store of the same files (a rebuild, a store on a Chroma server, another chunk size, a scratch
copy) would embed them all again: about 380 s of CPU for the 2,732 ICML 2025 abstracts on one core.
This cache keeps each sentence's vector under the SHA-256 of the embedding model's fingerprint and the
text, so such an ingest runs the model only on sentences it has never seen.

* Where: ``<user cache dir>/paperchat/vectors`` (``platformdirs.user_cache_dir``), or the folder the
  ``vector_cache`` setting names (``PAPERCHAT_VECTOR_CACHE``); ``off`` (or ``none``, ``no``, ``false``,
  ``0``) turns it off.
* Bounded: at most ``vector_cache_mib`` MiB (default 256, about 120,000 vectors of 384 dimensions with their keys);
  past it the oldest entries go first. The cache is diskcache's (``diskcache.Cache``, SQLite;
  several processes may read and write it at once), not a store: Chroma alone answers vector
  queries, and nothing is read from here but the vector of an exact text the model has embedded
  before.
* Which models: only those that give a fingerprint of their own weights
  (:meth:`paperchat.ingest.embedding.Embedder.fingerprint`): the offline model does (the SHA-256 of its
  ONNX file and its tokenizer's); a remote model, whose weights may change behind its name, does not and is never cached.
* Never in the way: an entry of the wrong size, whose bytes fail their digest, or that is not finite is
  a miss; a write lock another process holds is waited on for :data:`LOCK_WAIT_S` at most; and a cache that cannot be opened, read or
  written (damaged, read-only, a full disk) leaves the ingest to embed without it, with one note.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

#: Bytes of the BLAKE2b digest stored before each vector, so a damaged entry is a miss, never a wrong vector.
DIGEST = 8
#: Seconds to wait for another process's write lock on the cache before embedding without it.
LOCK_WAIT_S = 5.0
#: Values of the ``vector_cache`` setting that turn the cache off.
OFF = frozenset({"off", "none", "no", "false", "0"})
#: Default size bound in MiB (``vector_cache_mib``): about 120,000 vectors of 384 float32 with their keys (2.2 KB each in SQLite).
DEFAULT_LIMIT_MIB = 256


def default_folder() -> Path:
    """``<user cache dir>/paperchat/vectors``."""
    from paperchat.core.config_file import user_cache_dir

    return user_cache_dir() / "vectors"


class CachedEmbedding:
    """An embedder whose :meth:`embed` takes known texts' vectors from a :class:`diskcache.Cache`.

    ``embedder`` is a :class:`paperchat.ingest.embedding.Embedder` with a non-``None``
    ``fingerprint()``; ``folder`` the cache folder; ``limit_mib`` its size bound. :meth:`embed`
    returns what ``embedder.embed`` would (``(len(texts), dim)`` float32, unit-norm rows): the cached
    rows are the bytes that model wrote. ``hits`` and ``misses`` count texts, and ``served`` holds the texts
    whose vectors came from the cache; ``notes`` holds the one line said when the cache could not be used.
    """

    def __init__(self, embedder, folder: Path, limit_mib: int = DEFAULT_LIMIT_MIB):
        self.embedder = embedder
        self.folder = Path(folder)
        self.limit_mib = limit_mib
        self.hits = 0
        self.misses = 0
        self.served: set[str] = set()
        self.notes: list[str] = []
        self._cache = None
        self._prefix = b""
        self._broken = False

    def count_tokens(self, text: str) -> int:
        """The wrapped embedder's token count."""
        return self.embedder.count_tokens(text)

    def _open(self):
        if self._cache is None and not self._broken:
            import diskcache

            self._prefix = f"{self.embedder.fingerprint()}\0".encode()
            self.folder.mkdir(parents=True, exist_ok=True)
            self._cache = diskcache.Cache(
                str(self.folder),
                size_limit=self.limit_mib * 2**20,
                eviction_policy="least-recently-stored",  # a read writes nothing
                timeout=LOCK_WAIT_S,
                # No culling inside a write: within one transaction SQLite's page count does not shrink,
                # so each write would evict more; :meth:`_store` culls once its batch is committed.
                cull_limit=0,
            )
        return self._cache

    def _give_up(self, exc: Exception) -> None:
        self._broken = True
        self.notes.append(
            f"the vector cache at {self.folder} could not be used ({type(exc).__name__}: {exc}); "
            "embedded without it"
        )
        self.close()

    def _key(self, text: str) -> str:
        return hashlib.sha256(self._prefix + text.encode("utf-8", "surrogatepass")).hexdigest()

    def embed(self, texts: Sequence[str], batch_size: int = 8) -> np.ndarray:
        """Vectors of ``texts``: cached ones read, the rest embedded (then stored)."""
        texts = list(texts)
        found: dict[int, np.ndarray] = {}
        dim = self.embedder.dim
        try:
            cache = self._open()
            if cache is not None:
                for i, text in enumerate(texts):
                    vec = _unpack(cache.get(self._key(text)), dim)
                    if vec is not None:
                        found[i] = vec
        except Exception as exc:  # sqlite3/OS errors of a damaged or unreadable cache
            self._give_up(exc)
            found = {}
        todo = [i for i in range(len(texts)) if i not in found]
        out = np.zeros((len(texts), dim), dtype=np.float32)
        if todo:
            made = np.asarray(
                self.embedder.embed([texts[i] for i in todo], batch_size), dtype=np.float32
            )
            out[todo] = made
            self._store([texts[i] for i in todo], made)
        for i, vec in found.items():
            out[i] = vec
        self.hits += len(found)
        self.misses += len(todo)
        self.served.update(texts[i] for i in found)
        return out

    def _store(self, texts: list[str], vectors: np.ndarray) -> None:
        if self._cache is None:
            return
        try:
            with self._cache.transact():
                for text, vec in zip(texts, vectors):
                    self._cache.set(self._key(text), _pack(vec))
            self._cache.cull()  # the oldest out, until the cache is within its bound
        except Exception as exc:
            self._give_up(exc)

    def close(self) -> None:
        """Close the cache's database (it reopens on the next :meth:`embed`, unless it failed)."""
        if self._cache is not None:
            try:
                self._cache.close()
            except Exception:  # closing a damaged database: nothing left to save
                pass
            self._cache = None


def _pack(vec: np.ndarray) -> bytes:
    """A vector's float32 bytes after an 8-byte BLAKE2b digest of them."""
    raw = np.ascontiguousarray(vec, dtype=np.float32).tobytes()
    return hashlib.blake2b(raw, digest_size=DIGEST).digest() + raw


def _unpack(value, dim: int) -> np.ndarray | None:
    """The vector :func:`_pack` stored in ``value``; ``None`` (a miss) for anything else: no entry, another
    size, or bytes whose digest does not match (SQLite keeps no checksum of its own)."""
    if not isinstance(value, bytes) or len(value) != DIGEST + 4 * dim:
        return None
    raw = value[DIGEST:]
    if hashlib.blake2b(raw, digest_size=DIGEST).digest() != value[:DIGEST]:
        return None
    vec = np.frombuffer(raw, dtype=np.float32)
    return vec if np.isfinite(vec).all() else None  # Chroma refuses NaN: never let one reach it


def cached(embedder, setting: str | None, limit_mib: int):
    """``embedder`` behind a :class:`CachedEmbedding`, or ``embedder`` itself when the cache is off
    (``setting`` is one of :data:`OFF`), ``limit_mib`` is 0, or the model gives no fingerprint. ``setting`` is the
    ``vector_cache`` setting (a folder; ``None``: :func:`default_folder`)."""
    if (setting or "").strip().lower() in OFF or limit_mib <= 0:
        return embedder
    if getattr(embedder, "fingerprint", lambda: None)() is None:
        return embedder
    folder = Path(setting).expanduser() if setting else default_folder()
    return CachedEmbedding(embedder, folder, limit_mib)
