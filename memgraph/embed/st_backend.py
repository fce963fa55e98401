"""The reference embedder: sentence-transformers (and torch), imported only when the model loads (~8 s).

It serves models the ONNX path cannot reproduce, bulk embedding on an accelerator (`embed_device`), and it is
what the ONNX path is verified against.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memgraph.embed.model import resolve_model_path
from memgraph.embed.protocol import LazyLoad
from memgraph.embed.tokens import TokenCounter
from memgraph.errors import EmbedderUnavailableError


class SentenceTransformerEmbedder(LazyLoad):
    """A sentence-transformers model from a local directory, loaded on first use (or `warm()`), kept on the
    device given (default: sentence-transformers' choice, cuda if present)."""

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        model_name: str = "all-MiniLM-L6-v2",
        dim: int = 384,
        batch_size: int = 32,
        device: str | None = None,
    ) -> None:
        super().__init__()
        self.model_path = resolve_model_path(model_path)
        self.model_name = model_name
        self.dim = dim
        self.batch_size = batch_size
        self.device = device
        self._model: Any = None
        self._counter: TokenCounter | None = None
        self._counter_lock = threading.Lock()

    def _load_model(self) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]  # a library must not draw bars on the caller's terminal
        except ImportError as exc:
            raise EmbedderUnavailableError(f"sentence-transformers is not installed: {exc}") from exc
        try:
            model = SentenceTransformer(str(self.model_path), device=self.device)
        except Exception as exc:
            raise EmbedderUnavailableError(f"could not load {self.model_path}: {exc}") from exc
        got = model.get_embedding_dimension() if hasattr(model, "get_embedding_dimension") else None
        if got is None and hasattr(model, "get_sentence_embedding_dimension"):
            got = model.get_sentence_embedding_dimension()
        if got and got != self.dim:
            self.dim = int(got)
        self._model = model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        self.load()
        vecs = self._model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vecs, dtype=np.float32)

    def count_tokens(self, text: str) -> int:
        if self._counter is None:
            with self._counter_lock:
                if self._counter is None:
                    self._counter = TokenCounter(self.model_path)
        return self._counter.count(text)
