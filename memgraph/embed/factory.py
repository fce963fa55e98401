"""Which backend embeds: `default_embedder(settings)` builds the engine's embedder from the settings.

Measured on two CPU cores (bench/embed.py, bench/RESULTS.md "Embedding"), ONNX Runtime beats
sentence-transformers both for batches of 32 and for a single query, and starts in ~0.5 s against ~8 s, so on a
CPU it serves everything. sentence-transformers serves (a) a model the ONNX path cannot reproduce exactly, with
the reason logged, and (b) bulk batches on an accelerator named by `embed_device` (cuda, mps), where torch is
far faster than a CPU; queries and small writes still go to ONNX there, so a cold `recall` never loads torch.
Both give the same vectors (cosine >= 0.9999), so a memory embedded by one is found by a query embedded by
the other.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np

from memgraph.embed.cache import CachedEmbedder
from memgraph.embed.model import resolve_model_path
from memgraph.embed.onnx_backend import OnnxEmbedder, OnnxUnsupportedError
from memgraph.embed.protocol import Embedder, LazyLoad
from memgraph.embed.st_backend import SentenceTransformerEmbedder
from memgraph.embed.tokens import TokenCounter

if TYPE_CHECKING:
    from memgraph.config import Settings

log = logging.getLogger("memgraph.embed")

Backend = Literal["auto", "onnx", "sentence-transformers"]


class AutoEmbedder(LazyLoad):
    """ONNX when the model allows it, sentence-transformers otherwise (logged); optionally a second,
    sentence-transformers backend on an accelerator for batches of at least `bulk_min` texts."""

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        model_name: str = "all-MiniLM-L6-v2",
        dim: int = 384,
        batch_size: int = 32,
        backend: Backend = "auto",
        device: str | None = None,
        cache_dir: str | Path | None = None,
        threads: int | None = None,
        bulk_min: int = 32,
    ) -> None:
        super().__init__()
        self.model_path = resolve_model_path(model_path)
        self.model_name = model_name
        self.dim = dim
        self.batch_size = batch_size
        self.backend: Backend = backend
        self.device = device
        self.cache_dir = cache_dir
        self.threads = threads
        self.bulk_min = bulk_min
        #: Why the ONNX path is not used (None while it is, or before loading).
        self.fallback_reason: str | None = None
        self._query: OnnxEmbedder | SentenceTransformerEmbedder | None = None
        self._bulk: SentenceTransformerEmbedder | None = None
        if backend != "sentence-transformers" and device and device != "cpu":
            self._bulk = self._st(device)
        self._counter: TokenCounter | None = None
        self._counter_lock = threading.Lock()

    @property
    def serving(self) -> str:
        """The backend that answers queries: 'onnx' or 'sentence-transformers' (after loading)."""
        return "onnx" if isinstance(self._query, OnnxEmbedder) else "sentence-transformers"

    def will_export(self) -> bool:
        """Whether loading will export the model to ONNX first (the first run on this machine: ~20 s with torch
        on two cores) rather than open a cached graph (~0.3 s). For a spinner's text; cheap (stats files)."""
        if self.loaded or self.backend == "sentence-transformers":
            return False
        probe = OnnxEmbedder(self.model_path, cache_dir=self.cache_dir)
        return not probe.graph_ready()

    def _st(self, device: str | None) -> SentenceTransformerEmbedder:
        return SentenceTransformerEmbedder(
            self.model_path, model_name=self.model_name, dim=self.dim, batch_size=self.batch_size, device=device
        )

    def _load_model(self) -> None:
        if self.backend == "sentence-transformers":
            query: OnnxEmbedder | SentenceTransformerEmbedder = self._st(self.device)
        else:
            onnx = OnnxEmbedder(
                self.model_path,
                model_name=self.model_name,
                dim=self.dim,
                batch_size=self.batch_size,
                cache_dir=self.cache_dir,
                threads=self.threads,
            )
            try:
                onnx.load()
                query = onnx
            except OnnxUnsupportedError as exc:
                if self.backend == "onnx":
                    raise
                self.fallback_reason = str(exc)
                log.warning(
                    "embedding %s with sentence-transformers (slower to start): the ONNX path cannot "
                    "reproduce it: %s", self.model_path, exc,
                )
                query = self._st(self.device)
        query.load()
        self.dim = query.dim
        self._query = query

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self._bulk is not None and len(texts) >= self.bulk_min:
            return self._bulk.encode(texts)
        self.load()
        assert self._query is not None
        return self._query.encode(texts)

    def count_tokens(self, text: str) -> int:
        """The tokenizer alone (no model load): tokenizer.json of the model directory."""
        if self._counter is None:
            with self._counter_lock:
                if self._counter is None:
                    self._counter = TokenCounter(self.model_path)
        return self._counter.count(text)


def default_embedder(settings: Settings) -> CachedEmbedder:
    """The engine's embedder: AutoEmbedder behind the content-hash cache (a SQLite file in the cache directory,
    else the store's data directory, else in memory only). Cheap: nothing loads until `warm()` or the first
    text."""
    s = settings
    inner: Embedder = AutoEmbedder(
        s.embedding_model_path,
        model_name=s.embedding_model,
        dim=s.embedding_dim,
        batch_size=s.embed_batch_size,
        backend=s.embed_backend,
        device=s.embed_device,
        cache_dir=s.model_cache_dir,
        threads=s.embed_threads,
        bulk_min=s.embed_bulk_min,
    )
    cache_dir = Path(s.embed_cache_dir).expanduser() if s.embed_cache_dir else s.data_dir()
    path = cache_dir / "embedding_cache.sqlite3" if cache_dir else None
    return CachedEmbedder(inner, max_items=s.embed_cache_size, path=path)
