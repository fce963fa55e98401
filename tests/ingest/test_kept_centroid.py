"""The novelty centroid a Cypher store keeps for the next process (ingest/importance.py, `CentroidCache`): a new
process starts from it instead of reading every vector, gives the same novelty as a whole read, and reads the
vectors again when the count says the kept sum is stale or a refresh is due. The store here is SQLite with a
keeper of its own (SQLite keeps none), so the rule is tested apart from any server; tests/conformance tests
the Cypher stores' keeping."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph import MemoryEngine, Settings
from memgraph.store.base import StoredCentroid
from memgraph.store.sqlite import SQLiteStore

TEXTS = [
    "I prefer dark roast coffee from Ethiopia.",
    "My sister Anna lives in Lisbon.",
    "We adopted a cat called Miso in 2021.",
    "The kubernetes upgrade is scheduled for Friday.",
    "Grace keeps bees on the roof of the office.",
    "The quarterly report is due on the 3rd of June.",
]


#: Kept from 2 memories, no refresh due in these few writes.
KEEP = {"novelty_centroid_stored_from": 2, "novelty_centroid_refresh": 10.0}


class KeepingStore(SQLiteStore):
    """SQLite that keeps centroids like a Cypher store, and counts whole reads of the vectors."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.kept: dict[str, StoredCentroid] = {}
        self.loads = 0

    def embeddings(self, user_id, flt=None):  # type: ignore[no-untyped-def]
        self.loads += 1
        return super().embeddings(user_id, flt)

    def stored_centroid(self, user_id: str) -> StoredCentroid | None:
        return self.kept.get(user_id)

    def store_centroid(self, user_id: str, centroid: StoredCentroid) -> None:
        self.kept[user_id] = centroid


def _engine(store: KeepingStore, embedder, **settings: object) -> MemoryEngine:  # type: ignore[no-untyped-def]
    """A new engine on the same store: a new process's empty in-process cache."""
    return MemoryEngine(store, Settings(store=":memory:", **settings), embedder)  # type: ignore[arg-type]


def _exact(store: KeepingStore, user: str) -> np.ndarray:
    _, matrix = SQLiteStore.embeddings(store, user)
    total = (matrix / np.linalg.norm(matrix, axis=1, keepdims=True)).sum(axis=0, dtype=np.float64)
    return total / np.linalg.norm(total)


def test_a_new_process_starts_from_the_kept_centroid(embedder) -> None:  # type: ignore[no-untyped-def]
    """(A refresh far off: `test_a_refresh_reads_the_vectors_whole`.)"""
    store = KeepingStore(":memory:")
    first = _engine(store, embedder, **KEEP)
    for i, text in enumerate(TEXTS[:3]):
        first.ingest(text, user_id="u", session_id=f"s{i}")
    assert store.kept["u"].memories == 3 and store.kept["u"].vectors == 3
    loads = store.loads
    second = _engine(store, embedder, **KEEP)
    kept = second.pipeline.centroids.centroid(store, "u")
    assert store.loads == loads, "the kept centroid, not a read of every vector"
    assert kept is not None and np.allclose(kept, _exact(store, "u"), atol=1e-6)
    # the novelty a new process gives a new memory is the one a whole read gives
    got = second.ingest(TEXTS[3], user_id="u", session_id="s3").decisions[0].novelty
    assert store.loads == loads
    store.kept.clear()
    third = _engine(store, embedder, **KEEP)
    store.delete_memories("u", [m.id for m in third.list(user_id="u") if m.content == TEXTS[3]])
    again = third.ingest(TEXTS[3], user_id="u", session_id="s4").decisions[0].novelty
    assert store.loads == loads + 1, "nothing kept: the vectors are read"
    assert got == pytest.approx(again, abs=1e-6)


def test_a_stale_kept_centroid_is_read_again(embedder) -> None:  # type: ignore[no-untyped-def]
    store = KeepingStore(":memory:")
    first = _engine(store, embedder, **KEEP)
    for i, text in enumerate(TEXTS[:4]):
        first.ingest(text, user_id="u", session_id=f"s{i}")
    store.delete_memories("u", [first.list(user_id="u")[0].id])  # another process's delete: the count moves
    loads = store.loads
    _engine(store, embedder, **KEEP).ingest(TEXTS[4], user_id="u", session_id="s9")
    assert store.loads == loads + 1
    assert store.kept["u"].memories == 4


def test_a_refresh_reads_the_vectors_whole(embedder) -> None:  # type: ignore[no-untyped-def]
    """Past `refresh` more memories than at the last whole read, the vectors are read again (what the count
    does not see lasts that long at most)."""
    store = KeepingStore(":memory:")
    settings = {"novelty_centroid_stored_from": 2, "novelty_centroid_refresh": 0.5}
    first = _engine(store, embedder, **settings)
    for i, text in enumerate(TEXTS[:2]):
        first.ingest(text, user_id="u", session_id=f"s{i}")
    assert store.kept["u"].memories == 2
    # the count before a write decides; a whole read is due past `stored_from` (2) x 1.5 = 3 memories
    loads = store.loads
    for i in (2, 3):  # 2 and 3 memories stored: the kept sum
        _engine(store, embedder, **settings).ingest(TEXTS[i], user_id="u", session_id=f"s{i}")
        assert store.loads == loads
    _engine(store, embedder, **settings).ingest(TEXTS[4], user_id="u", session_id="s4")  # 4 > 3
    assert store.loads == loads + 1
    assert store.kept["u"].read_at == 4 and store.kept["u"].memories == 5


def test_nothing_is_kept_below_stored_from(embedder) -> None:  # type: ignore[no-untyped-def]
    store = KeepingStore(":memory:")
    eng = _engine(store, embedder, novelty_centroid_stored_from=10)
    for i, text in enumerate(TEXTS[:3]):
        eng.ingest(text, user_id="u", session_id=f"s{i}")
    assert store.kept == {}
    off = KeepingStore(":memory:")
    eng = _engine(off, embedder, novelty_centroid_stored_from=0)
    for i, text in enumerate(TEXTS[:3]):
        eng.ingest(text, user_id="u", session_id=f"s{i}")
    assert off.kept == {}
