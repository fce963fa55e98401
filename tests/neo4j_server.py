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
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from memgraph.config import Settings

ROOT = Path(__file__).resolve().parents[1]
LAUNCHER = ROOT / "tools" / "neo4j-server" / "run"
#: Seconds to wait for the URI line: the first start builds the launcher (Maven may download Neo4j's jars).
START_TIMEOUT_S = 900
STOP_TIMEOUT_S = 120


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def missing_tools() -> str | None:
    """None when this machine can start the test server, else what is missing."""
    missing = [tool for tool in ("java", "mvn") if shutil.which(tool) is None]
    if missing:
        return (
            f"the Neo4j test server needs Java 17+ and Maven ({' and '.join(missing)} not found; "
            "apt-get install openjdk-17-jre-headless maven), or set MEMGRAPH_NEO4J_URI to a throwaway Neo4j 5"
        )
    return None


class Neo4jServer:
    """One Neo4j the tests talk to; `managed` when this session started it (and can stop and restart it)."""

    def __init__(self, uri: str, user: str, password: str, home: Path | None = None) -> None:
        self.uri, self.user, self.password, self.home = uri, user, password, home
        self.proc: subprocess.Popen[str] | None = None
        self.start_seconds: list[float] = []
        self._log: IO[str] | None = None

    @property
    def managed(self) -> bool:
        return self.home is not None

    def settings(self, **overrides: Any) -> Settings:
        overrides.setdefault("store", self.uri)
        return Settings(neo4j_user=self.user, neo4j_password=self.password, **overrides)

    # -- the launcher (managed servers only) ------------------------------------------------------------------

    def start(self) -> None:
        """Start (or start again, on the same home, data and port) and wait until Bolt answers."""
        assert self.home is not None and self.proc is None
        self._log = open(self.home.parent / "neo4j-server.log", "a", encoding="utf-8")  # noqa: SIM115
        t0 = time.monotonic()
        self.proc = subprocess.Popen(
            [str(LAUNCHER), "--home", str(self.home), "--password", self.password],
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
            env={**os.environ, "NEO4J_HEAP": os.environ.get("NEO4J_HEAP", "1g")},
        )
        uri = self._await_uri(time.monotonic() + START_TIMEOUT_S)
        self.start_seconds.append(time.monotonic() - t0)
        if self.uri and uri != self.uri:
            raise RuntimeError(f"the restarted server moved from {self.uri} to {uri}")
        self.uri = uri

    def _await_uri(self, deadline: float) -> str:
        assert self.proc is not None and self.proc.stdout is not None
        out = self.proc.stdout
        found: list[str] = []
        done = threading.Event()

        def read() -> None:  # the URI line, then drain stdout so the server never blocks on a full pipe
            for line in out:
                if not found and line.startswith("bolt://"):
                    found.append(line.strip())
                    done.set()
            done.set()

        threading.Thread(target=read, name="neo4j-server-stdout", daemon=True).start()
        while not done.wait(0.2):
            if time.monotonic() > deadline:
                self.stop(signal.SIGKILL)
                raise RuntimeError(f"Neo4j did not start within {START_TIMEOUT_S} s; see {self._log_path()}")
        if not found:
            code = self.proc.wait()
            self.proc = None
            raise RuntimeError(f"the Neo4j launcher exited ({code}) before Bolt answered; see {self._log_path()}")
        return found[0]

    def _log_path(self) -> Path | None:
        return None if self.home is None else self.home.parent / "neo4j-server.log"

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """SIGTERM: a clean shutdown (flush and close); SIGKILL: a crash."""
        if self.proc is None:
            return
        self.proc.send_signal(sig)
        try:
            self.proc.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None
        if self._log is not None:
            self._log.close()
            self._log = None

    # -- data ---------------------------------------------------------------------------------------------------

    def wipe(self) -> None:
        """Delete every node and relationship (the schema stays): each test starts from an empty database."""
        import neo4j

        auth = (self.user, self.password)
        with neo4j.GraphDatabase.driver(self.uri, auth=auth, notifications_min_severity="OFF") as driver:
            with driver.session(database=os.environ.get("MEMGRAPH_NEO4J_DATABASE", "neo4j")) as session:
                session.run("MATCH (n) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS").consume()


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
