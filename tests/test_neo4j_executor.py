"""The Neo4j executor's own logic (sessions, access modes, retries, error mapping), against a stand-in driver,
and its retry budget with the real driver against a closed loopback port.

No Neo4j server can run here, so most tests replace the driver by a small fake that records what the executor
asks for and raises the driver's real exception types. The statements themselves are proven by the Cypher lint, the
FalkorDB conformance run, and the Neo4j conformance run when MEMGRAPH_NEO4J_URI is set.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import numpy as np
import pytest
from neo4j import exceptions as nex

from memgraph.config import Settings
from memgraph.errors import ReadOnlyQueryError, TransientStoreError, ValidationError
from memgraph.store.neo4j_executor import Neo4jExecutor


def _error(code: str, message: str) -> nex.Neo4jError:
    return nex.Neo4jError._hydrate_neo4j(code=code, message=message)


class FakeTx:
    def __init__(self, driver: FakeDriver) -> None:
        self.driver = driver

    def __enter__(self) -> FakeTx:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def run(self, statement: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        self.driver.calls.append((statement, params))
        if self.driver.failures:
            raise self.driver.failures.pop(0)
        return [{"ok": 1}]

    def commit(self) -> None:
        self.driver.commits += 1
        if self.driver.commit_failures:
            raise self.driver.commit_failures.pop(0)


class FakeSession:
    def __init__(self, driver: FakeDriver, database: str, mode: str) -> None:
        self.driver, self.database, self.mode = driver, database, mode

    def __enter__(self) -> FakeSession:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def begin_transaction(self) -> FakeTx:
        self.driver.modes.append((self.mode, self.database))
        return FakeTx(self.driver)


class FakeDriver:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.modes: list[tuple[str, str]] = []
        self.failures: list[BaseException] = []
        self.commit_failures: list[BaseException] = []
        self.commits = 0
        self.connect_failures: list[BaseException] = []
        self.closed = False

    def verify_connectivity(self) -> None:
        if self.connect_failures:
            raise self.connect_failures.pop(0)

    def session(self, database: str, default_access_mode: str) -> FakeSession:
        return FakeSession(self, database, default_access_mode)

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeDriver:
    import neo4j

    driver = FakeDriver()
    seen: dict[str, Any] = {}

    def make(uri: str, auth: Any = None) -> FakeDriver:
        seen.update(uri=uri, auth=auth)
        return driver

    monkeypatch.setattr(neo4j.GraphDatabase, "driver", staticmethod(make))
    driver.seen = seen  # type: ignore[attr-defined]
    return driver


def _executor(**overrides: Any) -> Neo4jExecutor:
    settings = Settings(
        neo4j_password="secret", neo4j_database="memdb", store_retry_base_delay=0.001, **overrides
    )
    return Neo4jExecutor("neo4j://db.example:7687", settings)


def test_writes_and_reads_use_explicit_transactions_of_the_right_mode(fake: FakeDriver) -> None:
    ex = _executor()
    seen = fake.seen  # type: ignore[attr-defined]
    assert seen == {"uri": "neo4j://db.example:7687", "auth": ("neo4j", "secret")}
    assert ex.run("RETURN 1", {"v": np.ones(3, dtype=np.float32), "n": np.int64(2)}, write=True) == [
        {"ok": 1}
    ]
    ex.run("RETURN 2", {}, write=False)
    assert fake.modes == [("WRITE", "memdb"), ("READ", "memdb")] and fake.commits == 2
    params = fake.calls[0][1]
    assert params == {"v": [1.0, 1.0, 1.0], "n": 2} and type(params["v"]) is list
    ex.close()
    assert fake.closed


def test_transient_errors_are_retried_then_reported(fake: FakeDriver) -> None:
    ex = _executor(store_retry_attempts=3)
    fake.failures = [
        _error("Neo.TransientError.Transaction.DeadlockDetected", "deadlock"),
        nex.SessionExpired("x"),
    ]
    assert ex.run("RETURN 1", {}, write=True) == [{"ok": 1}]
    assert len(fake.calls) == 3
    fake.failures = [nex.ServiceUnavailable("down")] * 3
    with pytest.raises(TransientStoreError):
        ex.run("RETURN 1", {}, write=True)


def test_guard_and_access_mode_errors_are_typed(fake: FakeDriver) -> None:
    ex = _executor()
    guard = _error("Neo.ClientError.Statement.ArithmeticError", "/ by zero")
    fake.failures = [guard]
    with pytest.raises(nex.ClientError) as info:
        ex.run("write_batch", {}, write=True)
    assert ex.is_guard_error(info.value) and len(fake.calls) == 1  # not retried: it is the caller's input
    fake.failures = [
        _error("Neo.ClientError.Statement.AccessMode", "Writing in read access mode not allowed")
    ]
    with pytest.raises(ReadOnlyQueryError):
        ex.run_user("CREATE (n)", {})
    fake.failures = [_error("Neo.ClientError.Statement.SyntaxError", "Invalid input")]
    with pytest.raises(ValidationError):
        ex.run_user("MATCH (n RETURN n", {})
    assert fake.modes[-1] == ("READ", "memdb")


def test_unreachable_server_says_what_to_do(fake: FakeDriver) -> None:
    fake.connect_failures = [nex.ServiceUnavailable("refused")] * 2
    with pytest.raises(TransientStoreError, match="docker compose up -d"):
        _executor(store_retry_attempts=2)


def test_a_commit_that_may_have_happened_is_reported_not_repeated(fake: FakeDriver) -> None:
    ex = _executor(store_retry_attempts=5)
    fake.commit_failures = [nex.IncompleteCommit("connection lost during commit")]
    with pytest.raises(TransientStoreError, match="may or may not be applied"):
        ex.run("MERGE (m:Memory {id: $id})", {"id": "m1"}, write=True)
    assert len(fake.calls) == 1


# -- the real driver against a closed loopback port: connection refused is real, so are the retries --------


def _closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _retry_records(caplog: pytest.LogCaptureFixture) -> int:
    return sum(1 for r in caplog.records if r.name == "memgraph.store" and "transient store error" in r.getMessage())


def test_an_unreachable_server_fails_typed_after_the_configured_attempts(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="memgraph.store")
    attempts, delay = 4, 0.05
    t0 = time.monotonic()
    with pytest.raises(TransientStoreError, match=f"after {attempts} attempts"):
        Neo4jExecutor(f"bolt://127.0.0.1:{_closed_port()}",
                       Settings(store_retry_attempts=attempts, store_retry_base_delay=delay))
    elapsed = time.monotonic() - t0
    assert _retry_records(caplog) == attempts - 1
    assert elapsed >= delay * (2 ** (attempts - 1) - 1)  # 0.05 + 0.1 + 0.2 of backoff
    assert elapsed < 10


def test_a_statement_retries_only_as_configured(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The driver's managed transactions (execute_write) retry for 30 s inside every attempt; the executor's
    explicit transactions leave `store_retry_attempts` as the whole budget."""
    import neo4j

    monkeypatch.setattr(neo4j.Driver, "verify_connectivity", lambda self, **kw: None)  # let the executor open
    caplog.set_level(logging.WARNING, logger="memgraph.store")
    ex = Neo4jExecutor(f"bolt://127.0.0.1:{_closed_port()}",
                        Settings(store_retry_attempts=3, store_retry_base_delay=0.05))
    try:
        for write in (True, False):
            before, t0 = _retry_records(caplog), time.monotonic()
            with pytest.raises(TransientStoreError, match="after 3 attempts"):
                ex.run("RETURN 1", {}, write=write)
            assert _retry_records(caplog) - before == 2
            assert 0.15 <= time.monotonic() - t0 < 10
        with pytest.raises(TransientStoreError):
            ex.run_user("MATCH (n) RETURN n", {})
    finally:
        ex.close()
