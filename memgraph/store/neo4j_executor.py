"""The Neo4j 5 client of the Cypher store: the official driver, one transaction per statement (writes explicit in
a WRITE session; the store's reads auto-commit in a READ session, one round trip), retried with backoff on
transient errors (`with_retry`); read-only user queries run in an explicit READ transaction, which Neo4j refuses
to write in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from memgraph.config import Settings
from memgraph.errors import ReadOnlyQueryError, StoreError, TransientStoreError, ValidationError
from memgraph.store.cypher_executor import with_retry
from memgraph.store.cypher_values import plain_value, vector_matrix

_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1


class FloatList(list[float]):
    """A vector parameter: a plain list to the driver's packer, with a short repr. The driver writes
    `repr(parameters)` into a DEBUG log line on every RUN whether or not DEBUG is on (neo4j 6.4, bolt5
    `run`); for a write of 1,000 x 384 floats that repr took 0.9 s of a ~5 s batch at load 11-13, and with
    this class 0.01 s (the packed bytes are the same)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<{len(self)} floats>"


def bolt_params(value: Any) -> Any:
    """numpy values as plain lists/floats (every driver version takes those; vectors as `FloatList`); an
    integer Bolt cannot carry (64 bits) is refused with a typed error (the driver raises a bare
    OverflowError)."""
    if isinstance(value, np.ndarray):
        if value.ndim > 1:
            return [bolt_params(row) for row in value]
        return FloatList(value.astype(np.float64).tolist())
    if isinstance(value, dict):
        return {k: bolt_params(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [bolt_params(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if type(value) is int and not _INT_MIN <= value <= _INT_MAX:
        raise ValidationError("integer parameters must fit in 64 bits")
    return value


def _quiet_notifications(neo4j: Any) -> dict[str, Any]:
    """Driver options that ask the server not to send two kinds of notification that every memgraph statement
    would draw, each logged by the driver as a WARNING holding the whole statement text (printed to stderr when
    the application has not configured logging): DEPRECATION (`CALL { ... }` without a scope clause, deprecated
    in Neo4j 5.23 but what FalkorDB and Neo4j before 5.23 understand) and UNRECOGNIZED (a property or
    relationship type the database has not seen yet: `session_id` while no memory has a session, `HasTag` in a
    new database). Performance and other notifications still come."""
    quiet = ["DEPRECATION", "UNRECOGNIZED"]
    if hasattr(neo4j, "NotificationDisabledClassification"):  # driver 5.22+
        return {"notifications_disabled_classifications": quiet}
    return {"notifications_disabled_categories": quiet}


class Neo4jExecutor:
    """Neo4j 5 through the official driver (works with the 5.x and 6.x driver APIs)."""

    def __init__(self, uri: str, settings: Settings) -> None:
        try:
            import neo4j
            from neo4j import exceptions as nex
        except ImportError as exc:  # pragma: no cover - a dependency
            raise StoreError("the neo4j driver is not installed: pip install neo4j") from exc
        self._nex = nex
        auth = (settings.neo4j_user, settings.neo4j_password) if settings.neo4j_password else None
        self._database = settings.neo4j_database
        self._attempts = settings.store_retry_attempts
        self._delay = settings.store_retry_base_delay
        # What the 5.x/6.x driver itself calls retryable (`is_retryable()`): TransientError (DeadlockDetected,
        # DatabaseUnavailable, NotALeader, ...; it files Transaction.Terminated / LockClientStopped under
        # ClientError), ServiceUnavailable and SessionExpired. IncompleteCommit is a ServiceUnavailable the
        # driver does not retry: the commit may have happened.
        self._transient = (nex.TransientError, nex.ServiceUnavailable, nex.SessionExpired)
        self._unsafe = (nex.IncompleteCommit,)
        try:
            self._driver = neo4j.GraphDatabase.driver(uri, auth=auth, **_quiet_notifications(neo4j))
            with_retry(self._driver.verify_connectivity, self._transient, self._attempts, self._delay)
        except TransientStoreError as exc:
            raise TransientStoreError(
                f"cannot reach Neo4j at {uri} (is it running? `docker compose up -d` starts one): {exc}"
            ) from exc
        except nex.AuthError as exc:
            raise StoreError(
                f"Neo4j refused the credentials for {uri}: set MEMGRAPH_NEO4J_USER / MEMGRAPH_NEO4J_PASSWORD"
            ) from exc
        except (nex.Neo4jError, nex.DriverError, ValueError) as exc:
            raise StoreError(f"cannot connect to Neo4j at {uri}: {exc}") from exc

    def _session(self, read: bool = False) -> Any:
        import neo4j

        mode = neo4j.READ_ACCESS if read else neo4j.WRITE_ACCESS
        return self._driver.session(database=self._database, default_access_mode=mode)

    def _transaction(
        self, read: bool, work: Callable[[Any], list[dict[str, Any]]], *, autocommit: bool = False
    ) -> list[dict[str, Any]]:
        """One explicit transaction in a session of the right access mode, retried by `with_retry` alone:
        `execute_write`/`execute_read` would retry for up to 30 s more inside every attempt. `autocommit` (the
        store's own reads) runs the statement as an auto-commit transaction instead: RUN and PULL in one round
        trip, no COMMIT round trip (vector_search p50 94-116 -> 67-103 ms over 2k vectors at load 19-20)."""

        def once() -> list[dict[str, Any]]:
            with self._session(read=read) as session:
                if autocommit:
                    return work(session)
                with session.begin_transaction() as tx:
                    rows = work(tx)
                    tx.commit()
                    return rows

        return with_retry(once, self._transient, self._attempts, self._delay, unsafe=self._unsafe)

    def run(self, statement: str, params: dict[str, Any], *, write: bool) -> list[dict[str, Any]]:
        params = bolt_params(params)

        def work(tx: Any) -> list[dict[str, Any]]:
            return [dict(record) for record in tx.run(statement, params)]

        try:
            return self._transaction(not write, work, autocommit=not write)
        except self._nex.Neo4jError as exc:
            if self.is_guard_error(exc):
                raise
            raise StoreError(f"neo4j: {exc}") from exc
        except self._nex.DriverError as exc:
            raise StoreError(f"neo4j driver: {exc}") from exc
        except UnicodeEncodeError as exc:
            raise ValidationError(f"text that is not valid Unicode cannot be sent to Neo4j: {exc.reason}") from exc

    def run_matrix(self, statement: str, params: dict[str, Any], dim: int) -> tuple[list[str], np.ndarray]:
        rows = self.run(statement, params, write=False)
        matrix = vector_matrix([r["embedding"] for r in rows], [r["packed"] for r in rows], dim)
        return [r["id"] for r in rows], matrix

    def run_user(self, statement: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        params = bolt_params(params)

        def work(tx: Any) -> list[dict[str, Any]]:
            result = tx.run(statement, params)
            return [{k: plain_value(v) for k, v in record.items()} for record in result]

        try:
            return self._transaction(True, work)
        except self._nex.ClientError as exc:
            if "AccessMode" in (exc.code or "") or "read access mode" in str(exc).lower():
                raise ReadOnlyQueryError(f"this statement writes; `memgraph cypher` is read-only ({exc})") from exc
            raise ValidationError(f"Neo4j rejected the statement: {exc.message or exc}") from exc
        except self._nex.Neo4jError as exc:
            raise StoreError(f"neo4j: {exc}") from exc
        except self._nex.DriverError as exc:
            raise StoreError(f"neo4j driver: {exc}") from exc
        except UnicodeEncodeError as exc:
            raise ValidationError(f"text that is not valid Unicode cannot be sent to Neo4j: {exc.reason}") from exc

    def apply_schema(self, statements: list[str]) -> None:
        for stmt in statements:
            with self._session() as session:

                def apply(statement: str = stmt, session: Any = session) -> None:
                    session.run(statement).consume()

                with_retry(apply, self._transient, self._attempts, self._delay)

    def is_guard_error(self, exc: BaseException) -> bool:
        return isinstance(exc, self._nex.ClientError) and "ArithmeticError" in (exc.code or "")

    def purge(self) -> list[str]:
        """Neo4j keeps every committed transaction, deletes included, in its transaction logs until they rotate
        out (`db.tx_log.rotation.retention_policy`), and reuses the store files' freed records later: nothing a
        client can rewrite. README, "Identifiers, secrets and erasure", says how to bound that."""
        return [
            "Neo4j keeps erased data in its transaction logs until they rotate out "
            "(db.tx_log.rotation.retention_policy; README, 'Identifiers, secrets and erasure')"
        ]

    def close(self) -> None:
        self._driver.close()

