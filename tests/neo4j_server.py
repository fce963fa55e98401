"""A real Neo4j 5 for the tests (imported by tests/conftest.py).

`neo4j_server` (session scope) is the Neo4j every Neo4j case runs on:

- MEMGRAPH_NEO4J_URI set: that server (docker compose, Aura, ...), with MEMGRAPH_NEO4J_USER/PASSWORD. It must be a
  throwaway database: every test empties it first. The suite cannot stop it, so the restart tests skip.
- else, when `java` and `mvn` are on PATH: tools/neo4j-server/run starts Neo4j 5.26 Community on loopback with a
  fresh home in the session's temporary folder (the first run builds the launcher; Maven fetches Neo4j's jars
  into ~/.m2 once), and stops it (SIGTERM) when the session ends.
- else: the Neo4j cases skip, saying what is missing.

In CI (CI=true, as CI runs `bash .ci/run`), a Neo4j case that skips fails instead (`pytest_runtest_makereport`),
so a CI run can never pass without having run them. A Neo4j case is a test marked `neo4j`; the cases
parametrized by store kind get the mark from their `neo4j` parameter (`pytest_collection_modifyitems`).
"""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools" / "neo4j-server"))
from neo4j_launcher import Neo4jServer, missing_tools  # noqa: E402


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


@pytest.fixture(scope="session")
def neo4j_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Neo4jServer]:
    uri = os.environ.get("MEMGRAPH_NEO4J_URI")
    if uri:
        yield Neo4jServer(
            uri,
            os.environ.get("MEMGRAPH_NEO4J_USER", "neo4j"),
            os.environ.get("MEMGRAPH_NEO4J_PASSWORD", ""),
        )
        return
    reason = missing_tools()
    if reason:
        pytest.skip(reason)
    server = Neo4jServer("", "neo4j", "t-" + secrets.token_hex(8), tmp_path_factory.mktemp("neo4j") / "home")
    server.start()
    # Tests that build Settings() themselves reach this server through the environment.
    with pytest.MonkeyPatch.context() as env:
        env.setenv("MEMGRAPH_NEO4J_PASSWORD", server.password)
        env.setenv("MEMGRAPH_NEO4J_USER", server.user)
        try:
            yield server
        finally:
            server.stop()
    print(f"\nneo4j test server: started in {', '.join(f'{s:.1f}' for s in server.start_seconds)} s")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A case parametrized with the store kind `neo4j` is a Neo4j case."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and "neo4j" in callspec.params.values():
            item.add_marker(pytest.mark.neo4j)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """In CI a skipped Neo4j case is a failure: the Neo4j conformance run must not silently go missing."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and in_ci() and item.get_closest_marker("neo4j") is not None:
        reason = report.longrepr[-1] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"a Neo4j case skipped in CI (CI=true), which must run them: {reason}"
