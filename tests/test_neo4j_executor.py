"""The Neo4j executor on a real Neo4j 5 (the session's server, tests/neo4j_server.py): access modes, parameter
conversion, typed errors, no notification noise; its retry budget with the real driver against a closed port;
and, with a stand-in driver, the two driver errors a real server cannot be made to raise on demand (a commit
whose reply was lost, a deadlock)."""

from __future__ import annotations

import logging
import socket
import time
from typing import Any

import numpy as np
import pytest
from neo4j import exceptions as nex

from memgraph.config import Settings
from memgraph.errors import ReadOnlyQueryError, StoreError, TransientStoreError, ValidationError
from memgraph.store import MemoryFilter, WriteBatch, open_store
from memgraph.store.neo4j_executor import Neo4jExecutor
from tests.conformance.helpers import mem, unit_vectors


@pytest.fixture
def executor(neo4j_server: Any) -> Any:
    neo4j_server.wipe()
    ex = Neo4jExecutor(neo4j_server.uri, neo4j_server.settings(store_retry_base_delay=0.01))
    yield ex
    ex.close()



@pytest.mark.neo4j
def test_schema_comes_from_the_schema_file_and_reopening_changes_nothing(neo4j_server: Any) -> None:
    from memgraph.store.dialect import NEO4J

    def schema() -> tuple[dict[str, Any], list[str]]:
        store = open_store(neo4j_server.uri, neo4j_server.settings())
        try:
            ex = store._x  # type: ignore[attr-defined]
            indexes = {r["name"]: r for r in ex.run("SHOW INDEXES YIELD name, type, options", {}, write=False)}
            constraints = sorted(r["name"] for r in ex.run("SHOW CONSTRAINTS YIELD name", {}, write=False))
        finally:
            store.close()
        return indexes, constraints

    indexes, constraints = schema()
    # CREATE [VECTOR|FULLTEXT] INDEX|CONSTRAINT <name> IF NOT EXISTS ...
    creates = [s for s in NEO4J.schema() if s.startswith("CREATE")]
    assert [s for s in NEO4J.schema() if s not in creates] == ["CALL db.awaitIndexes(300)"]
    declared = [s.split()[3] if s.split()[1] in ("VECTOR", "FULLTEXT") else s.split()[2] for s in creates]
    assert sorted(n for n in declared if n in constraints) == constraints
    assert set(declared) <= set(indexes) | set(constraints), set(declared) - set(indexes) - set(constraints)
    assert len(constraints) == 8 and len(declared) == 19  # the :User constraint (schema version 3) is the eighth
    vector = indexes["memory_vector"]
    assert vector["type"] == "VECTOR"
    config = vector["options"]["indexConfig"]
    assert config["vector.dimensions"] == 384 and config["vector.similarity_function"].lower() == "cosine"
    assert config["vector.quantization.enabled"] is False
    assert indexes["memory_fts"]["type"] == "FULLTEXT"
    assert indexes["memory_fts"]["options"]["indexConfig"]["fulltext.analyzer"] == "whitespace"
    again = schema()
    assert again == (indexes, constraints), "reopening applies the same schema without changing it"


@pytest.mark.neo4j
def test_reads_run_in_read_transactions_that_neo4j_refuses_to_write_in(executor: Neo4jExecutor) -> None:
    assert executor.run("CREATE (p:Probe {n: $n}) RETURN p.n AS n", {"n": 1}, write=True) == [{"n": 1}]
    with pytest.raises(StoreError):
        executor.run("CREATE (p:Probe {n: 2}) RETURN p.n AS n", {}, write=False)
    with pytest.raises(ReadOnlyQueryError):  # the server's refusal, not memgraph's keyword check
        executor.run_user("CREATE (p:Probe {n: 3})", {})
    assert executor.run("MATCH (p:Probe) RETURN collect(p.n) AS ns", {}, write=False) == [{"ns": [1]}]


@pytest.mark.neo4j
def test_numpy_parameters_and_driver_values_come_back_plain(executor: Neo4jExecutor) -> None:
    rows = executor.run(
        "RETURN $v AS v, $n AS n, $m AS m", {"v": np.ones(3, dtype=np.float32), "n": np.int64(2),
                                             "m": {"x": [np.float64(0.5)]}}, write=False
    )
    assert rows == [{"v": [1.0, 1.0, 1.0], "n": 2, "m": {"x": [0.5]}}]
    executor.run("CREATE (:Probe {n: 1})-[:Near {w: 0.5}]->(:Probe {n: 2})", {}, write=True)
    got = executor.run_user("MATCH p = (a:Probe)-[r]->(b) RETURN a, r, p, datetime('2024-01-01T00:00Z') AS t", {})
    assert got[0]["a"] == {"_labels": ["Probe"], "n": 1}
    assert got[0]["r"] == {"_type": "Near", "w": 0.5}
    assert [n["n"] for n in got[0]["p"]["nodes"]] == [1, 2]
    assert got[0]["t"].startswith("2024-01-01T00:00:00")


@pytest.mark.neo4j
def test_vector_parameters_arrive_exact_and_repr_short(executor: Neo4jExecutor) -> None:
    """The driver formats `repr(parameters)` for a DEBUG line on every RUN, DEBUG on or not: vectors are sent
    as `FloatList`s, whose repr is a few characters (a 1,000 x 384 write's repr was 7.9M characters, 0.9 s)."""
    import importlib.util

    from memgraph.store.neo4j_executor import bolt_params

    matrix = np.random.default_rng(0).standard_normal((1000, 384)).astype(np.float32)
    params = bolt_params({"rows": [{"id": str(i), "embedding": row} for i, row in enumerate(matrix)], "m": matrix})
    assert len(repr(params)) < 100_000
    rows = executor.run("RETURN $rows[7].embedding AS one, $m[999] AS last, size($m) AS n", params, write=False)
    assert rows[0]["one"] == matrix[7].astype(np.float64).tolist() and rows[0]["n"] == 1000
    assert rows[0]["last"] == matrix[999].astype(np.float64).tolist()
    # the driver's packer in Rust (a dependency): pure-Python packing of such a write took ~4 s
    assert importlib.util.find_spec("neo4j._rust") is not None


@pytest.mark.neo4j
def test_errors_are_typed_and_a_guard_is_not_retried(
    executor: Neo4jExecutor, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="memgraph.store")
    with pytest.raises(ValidationError, match="rejected"):
        executor.run_user("MATCH (n RETURN n", {})
    with pytest.raises(nex.ClientError) as info:  # the write statements' guard: 1 / 0 aborts the statement
        executor.run("UNWIND [1] AS x WITH x WHERE 1 / 0 = 1 CREATE (:Probe) RETURN x", {}, write=True)
    assert executor.is_guard_error(info.value)
    assert not [r for r in caplog.records if "transient" in r.getMessage()], "the caller's input is not retried"
    with pytest.raises(StoreError):
        executor.run("RETURN $missing AS x", {}, write=False)


@pytest.mark.neo4j
def test_values_bolt_cannot_carry_are_refused_typed(executor: Neo4jExecutor) -> None:
    """The driver raises a bare OverflowError / UnicodeEncodeError for these (a crash of `memgraph cypher
    --param n=99999999999999999999`, for one)."""
    for run in (lambda p: executor.run("RETURN $v AS v", p, write=False), lambda p: executor.run_user("RETURN $v", p)):
        with pytest.raises(ValidationError, match="64 bits"):
            run({"v": [1, {"x": 2**63}]})
        with pytest.raises(ValidationError, match="Unicode"):
            run({"v": "lone \ud800 surrogate"})
    assert executor.run("RETURN $v AS v", {"v": "a\x00b"}, write=False) == [{"v": "a\x00b"}]  # NUL is fine here


@pytest.mark.neo4j
def test_wrong_credentials_and_unknown_database_are_typed(neo4j_server: Any) -> None:
    with pytest.raises(StoreError, match="refused the credentials"):
        Neo4jExecutor(neo4j_server.uri, Settings(neo4j_user=neo4j_server.user, neo4j_password="wrong-password"))
    ex = Neo4jExecutor(neo4j_server.uri, neo4j_server.settings(neo4j_database="no_such_database"))
    try:
        with pytest.raises(StoreError, match="no_such_database"):
            ex.run("RETURN 1 AS x", {}, write=False)
    finally:
        ex.close()


@pytest.mark.neo4j
def test_no_notification_noise_on_a_new_database(neo4j_server: Any, caplog: pytest.LogCaptureFixture) -> None:
    """Every write statement uses `CALL { ... }` (deprecated in 5.23) and a new database knows no HasTag and no
    session_id: without the executor's notification filter the driver logs a WARNING holding the statement
    for each of them (stderr, for an application that configured no logging)."""
    neo4j_server.wipe()
    caplog.set_level(logging.INFO, logger="neo4j.notifications")
    store = open_store(neo4j_server.uri, neo4j_server.settings())
    try:
        store.write("ada", WriteBatch(memories=[mem("ada", "apples and pears")], embeddings=unit_vectors(1)))
        assert store.count_memories("ada", MemoryFilter(tag="none", session_id="s")) == 0
        assert store.text_search("ada", "pears", 5)
    finally:
        store.close()
    noisy = [r for r in caplog.records if r.name.startswith("neo4j.notifications") and r.levelno >= logging.WARNING]
    assert not noisy, noisy[0].getMessage()[:300]


# -- the real driver against a closed loopback port: connection refused is real, so are the retries --------


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _retry_records(caplog: pytest.LogCaptureFixture) -> int:
    return sum(1 for r in caplog.records if r.name == "memgraph.store" and "transient store error" in r.getMessage())


def test_an_unreachable_server_fails_typed_after_the_configured_attempts(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="memgraph.store")
    attempts, delay = 4, 0.05
    t0 = time.monotonic()
    with pytest.raises(TransientStoreError, match=f"docker compose up -d.*after {attempts} attempts"):
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


# -- a stand-in driver for what a real server cannot be made to do on demand ----------------------------------


class _Tx:
    def __init__(self, driver: _Driver) -> None:
        self.driver = driver

    def __enter__(self) -> _Tx:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def run(self, statement: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        self.driver.runs += 1
        if self.driver.run_failures:
            raise self.driver.run_failures.pop(0)
        return [{"ok": 1}]

    def commit(self) -> None:
        if self.driver.commit_failures:
            raise self.driver.commit_failures.pop(0)


class _Driver:
    def __init__(self) -> None:
        self.runs = 0
        self.run_failures: list[BaseException] = []
        self.commit_failures: list[BaseException] = []

    def verify_connectivity(self) -> None:
        pass

    def session(self, **kwargs: Any) -> _Driver:
        return self

    def begin_transaction(self) -> _Tx:
        return _Tx(self)

    def __enter__(self) -> _Driver:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> _Driver:
    import neo4j

    driver = _Driver()
    monkeypatch.setattr(neo4j.GraphDatabase, "driver", staticmethod(lambda uri, auth=None, **config: driver))
    return driver


def test_a_commit_that_may_have_happened_is_reported_not_repeated(stand_in: _Driver) -> None:
    ex = Neo4jExecutor("bolt://db.example:7687", Settings(store_retry_attempts=5, store_retry_base_delay=0.001))
    stand_in.commit_failures = [nex.IncompleteCommit("connection lost during commit")]
    with pytest.raises(TransientStoreError, match="may or may not be applied"):
        ex.run("MERGE (m:Memory {id: $id})", {"id": "m1"}, write=True)
    assert stand_in.runs == 1


def test_a_deadlock_is_retried(stand_in: _Driver) -> None:
    ex = Neo4jExecutor("bolt://db.example:7687", Settings(store_retry_attempts=3, store_retry_base_delay=0.001))
    deadlock = nex.Neo4jError._hydrate_neo4j(code="Neo.TransientError.Transaction.DeadlockDetected", message="x")
    stand_in.run_failures = [deadlock, nex.SessionExpired("x")]
    assert ex.run("RETURN 1", {}, write=True) == [{"ok": 1}]
    assert stand_in.runs == 3


def _operators(plan: dict[str, Any]) -> list[str]:
    """Every operator of a Neo4j plan with its details (the index it seeks), depth first."""
    out = [f"{plan['operatorType']} {plan.get('args', {}).get('Details', '')}"]
    for child in plan.get("children", []):
        out += _operators(child)
    return out


@pytest.mark.neo4j
def test_a_sessions_memories_are_found_by_the_session_index_not_by_walking_the_user(neo4j_server: Any) -> None:
    """The write path asks for a session's newest memory on every write that carries a session id: the
    statement must seek (user_id, session_id), or each write reads every memory of the user (the plain list
    statement seeks user_id alone). Planned on 1,000 memories with the index sampled: on a handful of nodes
    the planner scans the index instead, whatever the statement says."""
    from neo4j import GraphDatabase

    from memgraph.store.dialect import NEO4J

    neo4j_server.wipe()
    store = open_store(neo4j_server.uri, neo4j_server.settings())
    try:
        memories = [mem("u", f"turn {i}", minutes=i, session_id=f"s{i % 100}") for i in range(1000)]
        store.write("u", WriteBatch(memories=memories))
        newest = store.list_memories("u", MemoryFilter(session_id="s1", active=None), limit=2)
        assert [m.content for m in newest] == ["turn 901", "turn 801"]
        flt = MemoryFilter(session_id="s1")
        params = {**store._filter("u", flt), "offset": 0, "limit": 8}  # type: ignore[attr-defined]
    finally:
        store.close()
    with GraphDatabase.driver(neo4j_server.uri, auth=(neo4j_server.user, neo4j_server.password)) as driver:
        with driver.session() as session:
            session.run("CALL db.resampleIndex('memory_user_session')").consume()
            plans = {
                name: _operators(dict(session.run("EXPLAIN " + NEO4J.statement(name), params).consume().plan))
                for name in ("session_memories", "list_memories")
            }
    seek = "NodeIndexSeek@neo4j RANGE INDEX m:Memory(user_id, session_id) WHERE user_id = $user_id AND session_id"
    assert any(op.startswith(seek) for op in plans["session_memories"]), "\n".join(plans["session_memories"])
    assert not any(op.startswith(seek) for op in plans["list_memories"]), "the plain list does not seek sessions"
