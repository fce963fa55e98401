"""`DeferredStore`: a server store that was unreachable when the engine opened, connected on first use.

Without it an agent process started during an outage could not even open its engine, and so could not queue
anything. Every store call first tries to connect (under the store's own retry budget) and raises
`TransientStoreError` while the server stays down; writes do not get that far: the engine queues them in the
outbox. Once a call connects, the real store serves every later call.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from memgraph.errors import StoreError
from memgraph.store import GraphStore


class DeferredStore:
    """Stands in for a `GraphStore` (the engine types it as one): attributes other than `name`,
    `embedding_dim`, `close` and `connected` come from the real store, opened by `opener` on first use."""

    def __init__(self, opener: Callable[[], GraphStore], *, name: str, embedding_dim: int) -> None:
        self.name = name
        self.embedding_dim = embedding_dim
        self._opener = opener
        self._store: GraphStore | None = None
        self._closed = False
        self._lock = threading.Lock()

    @property
    def connected(self) -> bool:
        return self._store is not None

    def _real(self) -> GraphStore:
        store = self._store
        if store is not None:
            return store
        with self._lock:
            if self._closed:
                raise StoreError("the store is closed")
            if self._store is None:
                self._store = self._opener()
            return self._store

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("_opener", "_store", "_closed", "_lock"):
            raise AttributeError(name)
        return getattr(self._real(), name)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._store is not None:
                self._store.close()
