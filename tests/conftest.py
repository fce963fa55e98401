"""Shared fixtures. The real all-MiniLM-L6-v2 model is loaded once per test session and shared."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from memgraph import MemoryEngine, Settings
from memgraph.embed import CachedEmbedder, SentenceTransformerEmbedder
from tests.fault_servers import restartable_server  # noqa: F401 - servers a test may stop and restart
from tests.neo4j_server import (  # noqa: F401 - the real Neo4j fixture, its CI rule, statement coverage
    _record_neo4j_statements,
    neo4j_server,
    pytest_collection_modifyitems,
    pytest_runtest_makereport,
    pytest_sessionfinish,
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--long", action="store_true", default=False,
        help="Run the reliability tests' long variants (100 kills, 500 examples, 120 s of load); "
        "same as MEMGRAPH_LONG_TESTS=1.",
    )


def pytest_configure(config: pytest.Config) -> None:
    # Test modules read their sizes at import (tests/reliability/__init__.py), after this runs.
    if config.getoption("--long"):
        os.environ["MEMGRAPH_LONG_TESTS"] = "1"


@pytest.fixture(scope="session", autouse=True)
def _outbox_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Engines on server stores keep their outbox (README "When the graph server is down") in the session's
    temporary folder, not in ~/.memgraph/outbox; worker processes inherit it."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("MEMGRAPH_OUTBOX_DIR", str(tmp_path_factory.mktemp("outbox")))
        yield


@pytest.fixture(scope="session")
def embedder() -> CachedEmbedder:
    """The real default model, with an in-process cache shared by every test."""
    return CachedEmbedder(SentenceTransformerEmbedder())


@pytest.fixture
def engine(embedder: CachedEmbedder) -> Iterator[MemoryEngine]:
    """An incognito (in-memory SQLite) engine with the real embedder."""
    eng = MemoryEngine(
        __import__("memgraph.store.sqlite", fromlist=["SQLiteStore"]).SQLiteStore(":memory:"),
        Settings(store=":memory:"),
        embedder,
    )
    yield eng
    eng.close()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "store"
