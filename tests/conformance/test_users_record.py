"""`users()` on every store, and what stands behind it on the Cypher stores: the (:User) record write_batch keeps
(schema version 3; an open reads it instead of scanning every memory) and its migration for a graph of version 2."""

from __future__ import annotations

import pytest

from memgraph.store import GraphStore, WriteBatch

from .helpers import mem, unit_vectors


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
