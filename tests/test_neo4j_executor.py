"""The Neo4j executor's own logic (sessions, access modes, retries, error mapping), against a stand-in driver.

No Neo4j server can run here, so the driver is replaced by a small fake that records what the executor asks
for and raises the driver's real exception types. The statements themselves are proven by the Cypher lint, the
FalkorDB conformance run, and the Neo4j conformance run when MEMGRAPH_NEO4J_URI is set.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from neo4j import exceptions as nex

from memgraph.config import Settings
from memgraph.errors import ReadOnlyQueryError, TransientStoreError, ValidationError
from memgraph.store.cypher import _Neo4jExecutor


def _error(code: str, message: str) -> nex.Neo4jError:
    return nex.Neo4jError._hydrate_neo4j(code=code, message=message)


class FakeTx:
    def __init__(self, driver: FakeDriver) -> None:
        self.driver = driver

    def run(self, statement: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        self.driver.calls.append((statement, params))
        if self.driver.failures:
            raise self.driver.failures.pop(0)
        return [{"ok": 1}]


class FakeSession:
    def __init__(self, driver: FakeDriver, database: str, mode: str) -> None:
        self.driver, self.database, self.mode = driver, database, mode

    def __enter__(self) -> FakeSession:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def execute_write(self, fn: Any) -> Any:
        self.driver.modes.append(("write", self.mode, self.database))
        return fn(FakeTx(self.driver))

    def execute_read(self, fn: Any) -> Any:
        self.driver.modes.append(("read", self.mode, self.database))
        return fn(FakeTx(self.driver))


class FakeDriver:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.modes: list[tuple[str, str, str]] = []
        self.failures: list[BaseException] = []
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


def _executor(**overrides: Any) -> _Neo4jExecutor:
    settings = Settings(
        neo4j_password="secret", neo4j_database="memdb", store_retry_base_delay=0.001, **overrides
    )
    return _Neo4jExecutor("neo4j://db.example:7687", settings)


def test_writes_and_reads_use_explicit_transactions_of_the_right_mode(fake: FakeDriver) -> None:
    ex = _executor()
    seen = fake.seen  # type: ignore[attr-defined]
    assert seen == {"uri": "neo4j://db.example:7687", "auth": ("neo4j", "secret")}
    assert ex.run("RETURN 1", {"v": np.ones(3, dtype=np.float32), "n": np.int64(2)}, write=True) == [
        {"ok": 1}
    ]
    ex.run("RETURN 2", {}, write=False)
    assert fake.modes == [("write", "WRITE", "memdb"), ("read", "READ", "memdb")]
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
    assert fake.modes[-1][:2] == ("read", "READ")


def test_unreachable_server_says_what_to_do(fake: FakeDriver) -> None:
    fake.connect_failures = [nex.ServiceUnavailable("refused")] * 2
    with pytest.raises(TransientStoreError, match="docker compose up -d"):
        _executor(store_retry_attempts=2)
