"""An open applies only the schema statements whose index or constraint is missing (memgraph/store/
cypher_schema.py): on a real Neo4j 5 (the session's server), an unchanged graph reopens without one schema
statement, and an index or constraint dropped by hand comes back on the next open."""

from __future__ import annotations

from typing import Any

import pytest

from memgraph.store import open_store
from memgraph.store.cypher_schema import schema_name, statements_to_apply
from memgraph.store.dialect import NEO4J
from memgraph.store.neo4j_executor import Neo4jExecutor


def _present(neo4j_server: Any) -> dict[str, dict[str, Any]]:
    ex = Neo4jExecutor(neo4j_server.uri, neo4j_server.settings())
    try:
        rows = ex.run(NEO4J.schema_indexes() or "", {}, write=False)
    finally:
        ex.close()
    return {r["name"]: r for r in rows}


def _open_counting(neo4j_server: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Open and close a store; the schema statements the open sent."""
    sent: list[str] = []
    original = Neo4jExecutor.apply_schema

    def counting(self: Neo4jExecutor, statements: list[str]) -> None:
        sent.extend(statements)
        original(self, statements)

    monkeypatch.setattr(Neo4jExecutor, "apply_schema", counting)
    open_store(neo4j_server.uri, neo4j_server.settings()).close()
    monkeypatch.setattr(Neo4jExecutor, "apply_schema", original)
    return sent


@pytest.mark.neo4j
def test_reopening_an_unchanged_graph_sends_no_schema_statement(
    neo4j_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    neo4j_server.wipe()
    _open_counting(neo4j_server, monkeypatch)  # whatever an earlier test left, the schema is complete now
    assert _open_counting(neo4j_server, monkeypatch) == []


@pytest.mark.neo4j
def test_an_index_and_a_constraint_dropped_by_hand_come_back_on_the_next_open(
    neo4j_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    neo4j_server.wipe()
    open_store(neo4j_server.uri, neo4j_server.settings()).close()
    ex = Neo4jExecutor(neo4j_server.uri, neo4j_server.settings())
    try:
        ex.apply_schema(["DROP INDEX memory_kind", "DROP CONSTRAINT gap_id", "DROP INDEX memory_fts"])
    finally:
        ex.close()
    gone = _present(neo4j_server)
    assert not {"memory_kind", "gap_id", "memory_fts"} & set(gone)
    sent = _open_counting(neo4j_server, monkeypatch)
    assert sorted(name for s in sent if (name := (schema_name(s) or ("", False))[0])) == [
        "gap_id", "memory_fts", "memory_kind"
    ]
    assert sent[-1] == "CALL db.awaitIndexes(300)"
    back = _present(neo4j_server)
    assert set(back) >= {"memory_kind", "gap_id", "memory_fts"}
    assert back["gap_id"]["owningConstraint"] == "gap_id"
    assert all(back[n]["state"] == "ONLINE" for n in ("memory_kind", "gap_id", "memory_fts"))


def test_every_create_of_the_schema_file_has_a_name_the_check_reads() -> None:
    creates = [s for s in NEO4J.schema() if s.startswith("CREATE")]
    assert all(schema_name(s) is not None for s in creates)
    # memory, vector, tag, cluster, gap, job run, meta, user
    assert sum(1 for s in creates if (schema_name(s) or ("", False))[1]) == 8


def test_an_index_still_populating_is_waited_for_and_an_unowned_name_does_not_stand_for_a_constraint() -> None:
    statements = NEO4J.schema()
    online = [
        {"name": n, "state": "ONLINE", "owningConstraint": n if c else None}
        for n, c in (schema_name(s) or ("", False) for s in statements if schema_name(s))
    ]
    assert statements_to_apply(statements, online) == []
    populating = [dict(r, state="POPULATING") if r["name"] == "memory_vector" else r for r in online]
    assert statements_to_apply(statements, populating) == ["CALL db.awaitIndexes(300)"]
    unowned = [dict(r, owningConstraint=None) if r["name"] == "memory_id" else r for r in online]
    applied = statements_to_apply(statements, unowned)
    assert [schema_name(s) for s in applied[:-1]] == [("memory_id", True)]
    assert applied[-1] == "CALL db.awaitIndexes(300)"
