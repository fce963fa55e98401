"""One set of store tests, run against every store: SQLite (a temp dir), FalkorDB (embedded, one server per
test session, a fresh graph per test) and Neo4j (a real Neo4j 5 server, `neo4j_server` in tests/neo4j_server.py:
started by the session from tools/neo4j-server, or MEMGRAPH_NEO4J_URI; emptied before each test).
"""

from __future__ import annotations

import itertools
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
            server = request.getfixturevalue("neo4j_server")
            if not opened:
                server.wipe()
            store = open_store(server.uri, server.settings(**overrides))
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
    server = request.getfixturevalue("neo4j_server")
    server.wipe()
    return str(server.uri)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test that uses a store runs once per store kind."""
    for name in ("store_factory", "reopen_target"):
        if name in metafunc.fixturenames:
            metafunc.parametrize(name, STORES, indirect=True)
            break
