"""Field updates and increments: several rows for one memory in one batch all apply, and on the Cypher stores
a write resent by a retry (the reply was lost after the commit) does not add its increments twice."""

from __future__ import annotations

import pytest

from memgraph.store import GraphStore, WriteBatch
from memgraph.store.base import MemoryUpdate, applied_key
from memgraph.store.cypher import CypherStore
from memgraph.store.cypher_rows import batch_params

from .helpers import mem


def test_several_updates_of_one_memory_in_one_batch_all_apply(store: GraphStore) -> None:
    m = mem("ada", "counted", confidence=0.5)
    store.write("ada", WriteBatch(memories=[m]))
    store.write(
        "ada",
        WriteBatch(
            updates=[
                MemoryUpdate(id=m.id, inc={"access_count": 1, "confidence": 0.1}),
                MemoryUpdate(id=m.id, inc={"access_count": 2}),
                MemoryUpdate(id=m.id, set={"pinned": True}),
            ]
        ),
    )
    got = store.get_memories("ada", [m.id])[0]
    assert got.access_count == 3
    assert got.confidence == pytest.approx(0.6)
    assert got.pinned


def test_a_resent_write_does_not_increment_twice(store: GraphStore) -> None:
    if not isinstance(store, CypherStore):
        pytest.skip("SQLite commits locally: there is no reply to lose and no resend")
    m = mem("ada", "counted once", confidence=0.5)
    store.write("ada", WriteBatch(memories=[m]))
    batch = WriteBatch(updates=[MemoryUpdate(id=m.id, inc={"access_count": 1, "strength": 1})])
    params = batch_params("ada", batch, store._vector_row)
    store._apply("ada", params)
    store._apply("ada", params)  # what a retry after a lost reply sends
    got = store.get_memories("ada", [m.id])[0]
    assert (got.access_count, got.strength) == (1, m.strength + 1)
    # a new write is a new batch and applies again
    store.write("ada", WriteBatch(updates=[MemoryUpdate(id=m.id, inc={"access_count": 1})]))
    assert store.get_memories("ada", [m.id])[0].access_count == 2


def test_a_batch_with_an_id_is_applied_at_most_once(store: GraphStore) -> None:
    """The outbox resends a queued batch under its `batch_id` after a crash: the second send changes nothing,
    even when another write touched the same memory in between; the marker says it was applied."""
    m = mem("ada", "replayed once", confidence=0.5)
    store.write("ada", WriteBatch(memories=[m]))
    once = WriteBatch(updates=[MemoryUpdate(id=m.id, inc={"access_count": 1, "strength": 1})], batch_id="q-1")
    assert store.get_meta(applied_key("q-1")) is None
    store.write("ada", once)
    assert store.get_meta(applied_key("q-1")) is not None
    store.write("ada", WriteBatch(updates=[MemoryUpdate(id=m.id, inc={"access_count": 1})]))
    store.write("ada", once)  # the resend after a crash
    got = store.get_memories("ada", [m.id])[0]
    assert (got.access_count, got.strength) == (2, m.strength + 1)
    # a new memory in a resent batch is not written again either (it was erased in between)
    n = mem("ada", "written once")
    store.write("ada", WriteBatch(memories=[n], batch_id="q-2"))
    store.delete_memories("ada", [n.id])
    store.write("ada", WriteBatch(memories=[n], batch_id="q-2"))
    assert store.get_memories("ada", [n.id]) == []
    # forgetting the marker (the outbox does, once its own record is gone) lets the id apply again
    assert store.compare_and_set_meta(applied_key("q-1"), "q-1", None)
    store.write("ada", once)
    assert store.get_memories("ada", [m.id])[0].strength == m.strength + 2
