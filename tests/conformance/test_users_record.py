"""`users()` on every store, and what stands behind it on the Cypher stores: the (:User) record write_batch keeps
(schema version 3; an open reads it instead of scanning every memory), its migration for a graph of version 2,
the novelty centroid kept on it, and the open's one read of its :Meta keys."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from memgraph.store import GraphStore, WriteBatch
from memgraph.store.base import StoredCentroid

from .helpers import DIM, mem, unit_vectors


def _write(store: GraphStore, user: str, n: int, seed: int) -> list[str]:
    mems = [mem(user, f"note {k} of {user}", minutes=seed * 10 + k) for k in range(n)]
    store.write(user, WriteBatch(memories=mems, embeddings=unit_vectors(n, seed=seed)))
    return [m.id for m in mems]


def _user_nodes(store: GraphStore) -> list[str]:
    rows = store._x.run("MATCH (u:User) RETURN u.id AS id ORDER BY id", {}, write=False)  # type: ignore[attr-defined]
    return [r["id"] for r in rows]


def test_users_are_the_owners_of_memories(store: GraphStore) -> None:
    _write(store, "ada", 2, 1)
    bob = _write(store, "bob", 2, 2)
    assert store.users() == ["ada", "bob"]
    store.delete_memories("bob", bob)
    assert store.users() == ["ada"], "a user whose memories are all gone owns none"
    _write(store, "bob", 1, 3)
    assert store.users() == ["ada", "bob"]
    store.erase_user("bob")
    assert store.users() == ["ada"]
    if store.name != "sqlite":
        assert _user_nodes(store) == ["ada"], "erase_user leaves no trace of the id"


def test_a_graph_of_schema_2_gets_its_user_records(store: GraphStore) -> None:
    """A graph written before version 3 has memories and no (:User) nodes: opening it makes them."""
    from memgraph.store.cypher import CypherStore
    from memgraph.store.cypher_migrations import SCHEMA_VERSION

    if not isinstance(store, CypherStore):
        pytest.skip("SQLite lists its users with an index (tests/test_sqlite_migrations.py covers its versions)")
    _write(store, "ada", 2, 1)
    _write(store, "bob", 1, 2)
    store._x.run("MATCH (u:User) DETACH DELETE u", {}, write=True)
    store.set_meta("schema_version", "2")
    if store.name == "neo4j":  # FalkorDB scans the memories (memgraph/cypher/falkordb/users.cypher)
        assert store.users() == [], "the read is of the record, not of the memories"
    reopened = CypherStore(store._x, store.dialect, store.settings)
    assert reopened.get_meta("schema_version") == str(SCHEMA_VERSION)
    assert reopened.users() == ["ada", "bob"] == _user_nodes(reopened)
    _write(reopened, "ada", 1, 4)
    assert _user_nodes(reopened) == ["ada", "bob"], "a write MERGEs its user's node: never a second one"


def test_the_kept_novelty_centroid(store: GraphStore) -> None:
    assert store.stored_centroid("ada") is None
    total = unit_vectors(3, seed=5).sum(axis=0, dtype=np.float64)
    kept = StoredCentroid(total, 3, 3, 2)
    store.store_centroid("ada", kept)  # no :User node yet: nothing is kept
    assert store.stored_centroid("ada") is None
    ids = _write(store, "ada", 3, 5)
    _write(store, "bob", 1, 6)
    store.store_centroid("ada", kept)
    got = store.stored_centroid("ada")
    if store.name == "sqlite":
        assert got is None, "SQLite keeps none: its vectors are local"
        return
    assert got is not None and (got.vectors, got.memories, got.read_at) == (3, 3, 2)
    assert got.total.shape == (DIM,) and np.allclose(got.total, total, rtol=0, atol=1e-6)
    assert store.stored_centroid("bob") is None, "another user's node keeps its own"
    store.set_embeddings("ada", ids[:1], unit_vectors(1, seed=9), "other-model")
    assert store.stored_centroid("ada") is None, "new vectors: the sum of the old ones is dropped"
    store.store_centroid("ada", kept)
    store.erase_user("ada")
    assert store.stored_centroid("ada") is None


def test_an_open_reads_its_meta_keys_once(store: GraphStore) -> None:
    """Schema version, embedding dimension and model: one statement at open; a value is read again once another
    statement has run (it may have changed it)."""
    from memgraph.store.cypher import CypherStore

    if not isinstance(store, CypherStore):
        pytest.skip("a Cypher store's round trips")
    store.set_meta("embedding_model", "m1")
    ran: list[str] = []
    executor = store._x

    class Recording:
        def __getattr__(self, name: str) -> Any:
            return getattr(executor, name)

        def run(self, statement: str, params: dict[str, Any], *, write: bool) -> list[dict[str, Any]]:
            ran.append(statement)
            return executor.run(statement, params, write=write)

    reopened = CypherStore(Recording(), store.dialect, store.settings)  # type: ignore[arg-type]
    metas = [s for s in ran if ":Meta {key" in s]
    assert len(metas) == 1 and "$keys" in metas[0], ran
    before = len(ran)
    assert reopened.get_meta("embedding_model") == "m1" and len(ran) == before, "served from the open's read"
    assert reopened.get_meta("embedding_model") == "m1" and len(ran) == before + 1, "served once"
    again = CypherStore(Recording(), store.dialect, store.settings)  # type: ignore[arg-type]
    store.set_meta("embedding_model", "m2")  # another process changes it, then this one runs a statement
    again.users()
    assert again.get_meta("embedding_model") == "m2"
