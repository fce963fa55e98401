"""Engines for the erasure tests, one per store kind: SQLite in a directory, embedded FalkorDB with its own
server in its own directory (so closing stops it and its files are complete), a real Neo4j (tests/neo4j_server.py).

FalkorDB compresses strings in its snapshot and in the base of its append-only file (LZF), so a byte scan of a
compressed file finds neither erased nor kept text and proves nothing; the fixture switches compression off on
its test server (`rdbcompression no`), and every scan checks that it does find the kept text."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memgraph import MemoryEngine, Settings
from memgraph.embed import CachedEmbedder
from tests.conformance.conftest import falkordb_available

KINDS = ["sqlite", "falkordb", "neo4j"]


def _target(kind: str, directory: Path, request: pytest.FixtureRequest) -> tuple[str, Settings]:
    if kind == "sqlite":
        return str(directory), Settings(store=str(directory))
    if kind == "falkordb":
        reason = falkordb_available()
        if reason:
            pytest.skip(reason)
        return f"falkordb+dir://{directory}", Settings(store=f"falkordb+dir://{directory}")
    server = request.getfixturevalue("neo4j_server")
    server.wipe()
    return str(server.uri), server.settings()


@pytest.fixture
def make_engine(
    request: pytest.FixtureRequest, tmp_path: Path, embedder: Any  # noqa: ANN401 - the session embedder
) -> Iterator[Callable[..., MemoryEngine]]:
    """`make_engine()` opens an engine on a fresh store of the parametrized kind, its embedding cache file in
    the data directory (as by default); `make_engine(reopen=True)` opens the same store again."""
    kind: str = request.param
    directory = tmp_path / "data"
    opened: list[MemoryEngine] = []

    def make(reopen: bool = False) -> MemoryEngine:
        if reopen and opened:
            target, settings = str(opened[0].settings.store), opened[0].settings
        else:
            target, settings = _target(kind, directory, request)
        cached = CachedEmbedder(embedder.inner, path=directory / "embedding_cache.sqlite3")
        eng = MemoryEngine.open(target, settings=settings, embedder=cached)
        if kind == "falkordb":
            eng.store._x._client.config_set("rdbcompression", "no")  # type: ignore[attr-defined]
        opened.append(eng)
        return eng

    make.kind = kind  # type: ignore[attr-defined]
    make.directory = directory  # type: ignore[attr-defined]
    yield make
    for eng in opened:
        try:
            eng.close()
        except Exception:  # already closed by the test
            pass


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "make_engine" in metafunc.fixturenames:
        kinds = getattr(metafunc.function, "erase_kinds", KINDS)
        metafunc.parametrize("make_engine", kinds, indirect=True)


def kinds(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Run a test on these store kinds only (a byte scan needs the files: SQLite and FalkorDB)."""

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.erase_kinds = list(names)  # type: ignore[attr-defined]
        return fn

    return mark
