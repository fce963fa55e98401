"""The content-hash embedding cache: an in-process LRU, optionally backed by a SQLite file."""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future
from pathlib import Path

import numpy as np

from memgraph.embed.protocol import Embedder, warm
from memgraph.errors import EmbedderUnavailableError
from memgraph.models import content_hash


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
            # erased texts' vectors must not stay readable in freed pages (forget); checked: a build option
            self._db.execute("PRAGMA secure_delete = ON")
            if int(self._db.execute("PRAGMA secure_delete").fetchone()[0]) != 1:
                raise EmbedderUnavailableError("this SQLite cannot securely delete (PRAGMA secure_delete stays off)")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS embedding_cache (model TEXT, hash TEXT, vector BLOB, "
                "PRIMARY KEY (model, hash)) WITHOUT ROWID"
            )

    @property
    def dim(self) -> int:
        return self.inner.dim

    def warm(self) -> Future[None]:
        """Start loading the model behind the cache in the background (see memgraph.embed.protocol.LazyLoad)."""
        return warm(self.inner)

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
        return np.stack([np.asarray(v, dtype=np.float32) for v in out])

    def forget(self, texts: Sequence[str]) -> int:
        """Erasure: drop these texts' entries from the in-process cache and the cache file (secure_delete zeroes
        them; the write-ahead log is truncated). Returns how many texts had an entry."""
        removed = 0
        with self._lock:
            if self._db is not None:
                self._db.execute("BEGIN")
            for key in dict.fromkeys(content_hash(t) for t in texts):
                gone = self._lru.pop(key, None) is not None
                if self._db is not None:
                    cur = self._db.execute(
                        "DELETE FROM embedding_cache WHERE model = ? AND hash = ?", (self.model_name, key)
                    )
                    gone = gone or cur.rowcount > 0
                removed += gone
            if self._db is not None:
                self._db.execute("COMMIT")
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return removed

    def _remember(self, key: str, vec: np.ndarray) -> None:
        self._lru[key] = vec
        if len(self._lru) > self.max_items:
            self._lru.popitem(last=False)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
