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


# -- every statement runs on Neo4j ----------------------------------------------------------------------------

#: (statement name) -> times a Neo4j store ran it in this session
NEO4J_STATEMENTS: dict[str, int] = {}


@pytest.fixture(scope="session", autouse=True)
def _record_neo4j_statements() -> Iterator[None]:
    """Count the named statements Neo4j stores run (a pass-through wrapper around the store's runners)."""
    from memgraph.store.cypher import CypherStore

    originals = {m: getattr(CypherStore, m) for m in ("_read", "_write", "_read_matrix")}

    def wrap(method: Any) -> Any:
        def recorded(self: CypherStore, name: str, **params: Any) -> Any:
            if self.name == "neo4j":
                NEO4J_STATEMENTS[name] = NEO4J_STATEMENTS.get(name, 0) + 1
            return method(self, name, **params)

        return recorded

    with pytest.MonkeyPatch.context() as patch:
        for attr, method in originals.items():
            patch.setattr(CypherStore, attr, wrap(method))
        yield


def _statement_names() -> set[str]:
    root = Path(__file__).resolve().parents[1] / "memgraph" / "cypher" / "queries"
    return {p.stem for p in root.glob("*.cypher")}


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """When the whole suite ran (no -k/-m selection, nothing failed), every statement of memgraph/cypher/queries
    must have run on Neo4j at least once (the browser queries each have their own Neo4j case); a statement no
    Neo4j test reaches fails the run, saying which."""
    opt = session.config.option
    root = Path(__file__).resolve().parents[1]
    folders = {root, root / "tests", root / "tests" / "conformance"}
    whole = (
        not getattr(opt, "keyword", "")
        and not getattr(opt, "markexpr", "")
        and not getattr(opt, "lf", False)
        and any(Path(session.config.rootpath, arg).resolve() in folders for arg in session.config.args)
    )
    if not (whole and NEO4J_STATEMENTS) or session.testsfailed or exitstatus != 0:
        return
    missing = sorted(_statement_names() - set(NEO4J_STATEMENTS))
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if missing:
        if reporter is not None:
            reporter.write_line(f"statements no test ran on Neo4j: {', '.join(missing)}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    elif reporter is not None:
        reporter.write_line(f"every statement of memgraph/cypher/queries ran on Neo4j ({len(NEO4J_STATEMENTS)})")
