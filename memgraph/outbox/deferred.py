"""`DeferredStore`: a server store that was unreachable when the engine opened, connected on first use.

Without it an agent process started during an outage could not even open its engine, and so could not queue
anything. Every store call first tries to connect (under the store's own retry budget) and raises
`TransientStoreError` while the server stays down; writes do not get that far: the engine queues them in the
outbox. Once a call connects, the real store serves every later call.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, cast

from memgraph.config import Settings
from memgraph.errors import StoreError, TransientStoreError
from memgraph.outbox.paths import outbox_path
from memgraph.store import GraphStore, open_store

log = logging.getLogger("memgraph.outbox")


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


def open_or_defer(settings: Settings) -> GraphStore:
    """`open_store`, except that a server store whose server does not answer (after the retry budget) opens
    deferred when this machine has reached it before (its outbox file exists): the engine then queues writes
    and connects once the server is back. A target never reached fails as before: a wrong address should."""
    try:
        return open_store(settings.store, settings)
    except TransientStoreError as exc:
        path = outbox_path(settings)
        if path is None or not path.exists():
            raise
        log.warning("graph server unreachable at open (%s): writes are queued in the outbox until it answers",
                    type(exc).__name__)
        name = "falkordb" if settings.store.startswith("falkordb") else "neo4j"
        deferred = DeferredStore(lambda: open_store(settings.store, settings), name=name,
                                 embedding_dim=settings.embedding_dim)
        return cast(GraphStore, deferred)
