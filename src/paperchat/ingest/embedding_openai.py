"""OpenAI (or OpenAI-compatible) embeddings: ``--embed-model openai:<model>``."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from paperchat.core.errors import PaperchatError
from paperchat.ingest.embedding import Embedder


class OpenAIEmbedder(Embedder):
    """OpenAI (or OpenAI-compatible) embeddings through the openai client.

    ``model`` is the endpoint's model name (``text-embedding-3-small``: 1536
    dimensions). Vectors are L2-normalised here so scores stay cosines.
    """

    def __init__(
        self, model: str, api_key: str | None, base_url: str | None, dim: int | None = None
    ):
        self.model = model
        self.model_id = f"openai:{model}"
        self._client = None
        self._api_key = api_key
        self._base_url = base_url
        self.dim = dim or {
            "text-embedding-3-small": 1536,
            "text-embedding-3-large": 3072,
            "text-embedding-ada-002": 1536,
        }.get(model, 0)

    def _client_(self):
        if self._client is None:
            import openai

            if not self._api_key and not self._base_url:
                raise PaperchatError(
                    "OpenAI embeddings need OPENAI_API_KEY (or a base URL); or use --embed-model minilm-l6-int8"
                )
            self._client = openai.OpenAI(
                api_key=self._api_key or "not-needed", base_url=self._base_url
            )
        return self._client

    def count_tokens(self, text: str) -> int:
        return max(1, len(text) // 4)

    def embed(self, texts: Sequence[str], batch_size: int = 128) -> np.ndarray:
        texts = list(texts)
        rows: list[list[float]] = []
        import openai

        from paperchat.core.errors import redact

        for start in range(0, len(texts), batch_size):
            try:
                resp = self._client_().embeddings.create(
                    model=self.model, input=texts[start : start + batch_size]
                )
            except openai.OpenAIError as exc:
                where = self._base_url or "api.openai.com"
                raise PaperchatError(
                    f"the embeddings endpoint at {where} failed: {redact(exc, self._api_key)[:200]}"
                ) from None
            rows.extend(d.embedding for d in resp.data)
        arr = np.array(rows, dtype=np.float32).reshape(len(texts), -1)
        if arr.size:
            self.dim = arr.shape[1]
        return arr / np.clip(np.linalg.norm(arr, axis=1, keepdims=True), 1e-12, None)
