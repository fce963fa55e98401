"""One set of store tests, run against every store: SQLite (a temp dir), FalkorDB (embedded, one server per
test session, a fresh graph per test) and Neo4j (only when MEMGRAPH_NEO4J_URI is set; it must be a throwaway
database: the suite deletes every node in it before each test).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memgraph.config import Settings
from memgraph.store import GraphStore, open_store

STORES = ["sqlite", "falkordb", "neo4j"]
_graph_ids = itertools.count()


def falkordb_available() -> str | None:
    """None when the embedded FalkorDB (falkordblite) can run here, else the reason it cannot."""
    try:
        import redislite.client  # noqa: F401
    except ImportError:
        return "falkordblite is not installed (make setup-dev installs it)"
    return None


def neo4j_uri() -> str | None:
    return os.environ.get("MEMGRAPH_NEO4J_URI") or None


@pytest.fixture(scope="session")
def falkordb_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One embedded FalkorDB server for the whole session; tests open their own graph in it. A keeper client
    holds the server up while test stores come and go; it shuts the server down at the end."""
    reason = falkordb_available()
    if reason:
        pytest.skip(reason)
    from memgraph.store.falkordb_executor import FalkorExecutor

    directory = tmp_path_factory.mktemp("falkordb")
    keeper = FalkorExecutor.start_embedded(directory, Settings())
    yield directory
    keeper.connection_pool.disconnect()
    keeper._cleanup()


def _settings(**overrides: Any) -> Settings:
    return Settings(**overrides)


@pytest.fixture
def store_factory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[..., GraphStore]]:
    """`store_factory(**settings)` opens a fresh, empty store of the parametrized kind (closed after the
    test)."""
    kind: str = request.param
    opened: list[GraphStore] = []

    def make(**overrides: Any) -> GraphStore:
        settings = _settings(**overrides)
        if kind == "sqlite":
            store = open_store(str(tmp_path / f"sqlite{len(opened)}"), settings)
        elif kind == "falkordb":
            directory = request.getfixturevalue("falkordb_dir")
            store = open_store(f"falkordb+dir://{directory}?graph=conf{next(_graph_ids)}", settings)
        else:
            uri = neo4j_uri()
            if uri is None:
                pytest.skip(
                    "Neo4j conformance needs MEMGRAPH_NEO4J_URI (and MEMGRAPH_NEO4J_PASSWORD): "
                    "docker compose up -d, then export MEMGRAPH_NEO4J_URI=bolt://localhost:7687"
                )
            store = open_store(uri, settings)
            store._x.run("MATCH (n) WHERE NOT n:Meta DETACH DELETE n", {}, write=True)  # type: ignore[attr-defined]
        opened.append(store)
        return store

    yield make
    for store in opened:
        delete = getattr(getattr(store, "_x", None), "delete_graph", None)
        if delete is not None:
            delete()
        store.close()


@pytest.fixture
def store(store_factory: Callable[..., GraphStore]) -> GraphStore:
    return store_factory()


@pytest.fixture
def reopen_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A persistent target of the parametrized kind whose data outlives close(): its own directory (FalkorDB:
    its own embedded server, so closing really stops it and reopening loads from disk)."""
    kind: str = request.param
    if kind == "sqlite":
        return str(tmp_path / "persist")
    if kind == "falkordb":
        reason = falkordb_available()
        if reason:
            pytest.skip(reason)
        return f"falkordb+dir://{tmp_path / 'persist'}"
    uri = neo4j_uri()
    if uri is None:
        pytest.skip("Neo4j conformance needs MEMGRAPH_NEO4J_URI")
    return uri


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test that uses a store runs once per store kind."""
    for name in ("store_factory", "reopen_target"):
        if name in metafunc.fixturenames:
            metafunc.parametrize(name, STORES, indirect=True)
            break
