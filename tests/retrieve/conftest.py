"""Fixtures for the read path: an incognito engine that is closed properly (its maintenance thread too)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memgraph import MemoryEngine, Settings
from memgraph.embed import CachedEmbedder
from memgraph.store.sqlite import SQLiteStore


def make_engine(embedder: CachedEmbedder, **overrides: object) -> MemoryEngine:
    return MemoryEngine(SQLiteStore(":memory:"), Settings(store=":memory:", **overrides), embedder)


@pytest.fixture
def mem(embedder: CachedEmbedder) -> Iterator[MemoryEngine]:
    """Engine with post-recall maintenance on (tests call flush())."""
    eng = make_engine(embedder)
    yield eng
    eng.flush()
    eng._maintainer.close()
    eng.close()


@pytest.fixture
def quiet(embedder: CachedEmbedder) -> Iterator[MemoryEngine]:
    """Engine without post-recall maintenance: recalls do not change the graph."""
    eng = make_engine(embedder, recall_maintenance=False)
    yield eng
    eng.close()
