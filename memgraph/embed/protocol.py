"""The embedder interface the engine needs, and the warm-up seam the cold paths use."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Protocol, runtime_checkable

import numpy as np

log = logging.getLogger("memgraph.embed")


@runtime_checkable
class Embedder(Protocol):
    """What the engine needs from an embedding model."""

    model_name: str

    @property
    def dim(self) -> int:
        """Length of each vector."""
        ...

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed a batch: (len(texts), dim) float32, L2-normalised."""
        ...

    def count_tokens(self, text: str) -> int:
        """Tokens of `text` under the model's own tokenizer (no special tokens, no truncation)."""
        ...


class LazyLoad:
    """Loads a model once, on first use or ahead of it in a background thread (`warm`).

    A cold command (a CLI call, the MCP server's first tool call) starts `warm()` before it opens its store,
    so the two overlap; `encode` then waits for the load in flight instead of starting a second one.
    """

    def __init__(self) -> None:
        self._load_lock = threading.Lock()
        self._loaded = False
        self._warming: Future[None] | None = None

    def _load_model(self) -> None:
        """Subclasses do the slow part here (imports, files, sessions); called at most once successfully."""
        raise NotImplementedError

    def load(self) -> None:
        """Load now, in this thread (waits for a load another thread started). Raises what loading raised."""
        if self._loaded:
            return
        with self._load_lock:
            if not self._loaded:
                self._load_model()
                self._loaded = True

    @property
    def loaded(self) -> bool:
        return self._loaded

    def warm(self) -> Future[None]:
        """Start loading in a daemon thread; the future completes when the model is ready (or holds the error,
        which `encode` raises again). Calling it again returns the same future, unless that one failed."""
        with _WARM_LOCK:
            failed = self._warming is not None and self._warming.done() and self._warming.exception() is not None
            if self._warming is None or failed:
                self._warming = _run_in_thread(self.load, name=f"memgraph-embed-warm-{type(self).__name__}")
            return self._warming


_WARM_LOCK = threading.Lock()


def _run_in_thread(fn: Callable[[], None], *, name: str) -> Future[None]:
    future: Future[None] = Future()
    future.set_running_or_notify_cancel()

    def run() -> None:
        try:
            fn()
        except BaseException as exc:  # noqa: BLE001 - handed to whoever waits on the future
            log.debug("embedder warm-up failed: %s", exc)
            future.set_exception(exc)
        else:
            future.set_result(None)

    threading.Thread(target=run, name=name, daemon=True).start()
    return future


def warm(embedder: object) -> Future[None]:
    """Start loading any embedder in the background. One without a `warm()` (a caller's own, already in
    memory) gets a future that is already done."""
    start = getattr(embedder, "warm", None)
    if callable(start):
        result = start()
        if isinstance(result, Future):
            return result
    done: Future[None] = Future()
    done.set_result(None)
    return done
