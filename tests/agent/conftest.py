"""Fixtures for the agent tests: engines on real SQLite stores (a file directory unless said otherwise), the
shared real embedder, and store subclasses that are slow or fail on purpose (real stores, not mocks)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memgraph import MemoryEngine, Settings
from memgraph.agent import MemoryAgent
from memgraph.embed import CachedEmbedder
from memgraph.store.sqlite import SQLiteStore

USER = "ada"


class SlowStore(SQLiteStore):
    """A real SQLite store whose writes and searches take `delay` seconds (a remote or overloaded server)."""

    delay = 0.2

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.busy = threading.Event()  # set once a slow call has started

    def _slow(self) -> None:
        self.busy.set()
        time.sleep(self.delay)

    def write(self, user_id: str, batch: Any) -> None:
        self._slow()
        super().write(user_id, batch)

    def vector_search(self, *args: Any, **kwargs: Any) -> Any:
        self._slow()
        return super().vector_search(*args, **kwargs)

    def vector_search_many(self, *args: Any, **kwargs: Any) -> Any:
        self._slow()
        return super().vector_search_many(*args, **kwargs)

    def text_search(self, *args: Any, **kwargs: Any) -> Any:
        self._slow()
        return super().text_search(*args, **kwargs)

    def set_meta(self, key: str, value: str) -> None:
        self._slow()
        super().set_meta(key, value)


class FaultyStore(SQLiteStore):
    """A real SQLite store whose full-text search breaks on one query word (a poisoned turn)."""

    poison = "kaboom"

    def text_search(self, user_id: str, query: str, k: int, **kwargs: Any) -> Any:
        if self.poison in query.lower():
            raise RuntimeError("simulated store failure")
        return super().text_search(user_id, query, k, **kwargs)


def make_engine(
    target: Path | str, embedder: CachedEmbedder, store_cls: type[SQLiteStore] = SQLiteStore, **overrides: Any
) -> MemoryEngine:
    target = str(target)
    return MemoryEngine(store_cls(target), Settings(store=target, **overrides), embedder)


@pytest.fixture
def open_engine(embedder: CachedEmbedder, tmp_path: Path) -> Iterator[Callable[..., MemoryEngine]]:
    """Factory of engines on tmp_path/store (or another target); all are closed at the end."""
    engines: list[MemoryEngine] = []

    def factory(target: Path | str | None = None, store_cls: type[SQLiteStore] = SQLiteStore,
                **overrides: Any) -> MemoryEngine:
        eng = make_engine(target or tmp_path / "store", embedder, store_cls, **overrides)
        engines.append(eng)
        return eng

    yield factory
    for eng in engines:
        try:
            eng.flush()
            eng._maintainer.close()
            eng.store.close()
        except Exception:  # noqa: BLE001 - already closed by the test
            pass


@pytest.fixture
def agents() -> Iterator[list[MemoryAgent]]:
    """Agents created by a test are closed (without ending sessions) if the test did not close them."""
    made: list[MemoryAgent] = []
    yield made
    for a in made:
        if not a.closed:
            a.close(end_sessions=False, timeout=300)
