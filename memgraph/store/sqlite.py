"""SQLite store: the embedded default. One file per data directory, no server.

Why SQLite (DESIGN.md "Stores"): the embeddable Cypher engines measured here reopen slowly, corrupt indexes
or lack offline vector search. Layout: `memories` (embedding as a float32 blob), `tags`, `clusters`, `gaps`,
`job_runs`, `meta`, and one typed `edges` table indexed both ways. Full text is FTS5 (BM25) over our own
Unicode tokens. Vector search is exact cosine over an in-memory float32 matrix per user, loaded lazily on
first use and kept in sync with this connection's writes; `PRAGMA data_version` tells when another process
has written, and the matrix is then reloaded.
"""

from __future__ import annotations

import fnmatch
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from memgraph.errors import StoreError, TransientStoreError, UnsupportedOperationError, ValidationError
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
    trusted,
)
from memgraph.store.base import (
    INCREMENTABLE_FIELDS,
    UPDATABLE_FIELDS,
    Direction,
    Expansion,
    JobRun,
    MemoryFilter,
    MemoryUpdate,
    WriteBatch,
    enum_reader,
    field_readers,
    query_matrix,
)
from memgraph.store.traverse import breadth_first
from memgraph.text import content_tokens, fts_document

SCHEMA_VERSION = "1"
#: Bound parameters per statement (SQLite >= 3.32 allows 32766).
_MAX_SQL_VARIABLES = 30_000
# Lookups by a list of ids write `+user_id = ?`: the unary plus keeps SQLite's planner from choosing a user_id
# index (a scan of all the user's rows per chunk: 13 s of a 30k-memory links run) over the unique id index.
DB_FILE = "memgraph.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS memories (
    rid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL,
    content TEXT NOT NULL,
    kind TEXT NOT NULL,
    layer TEXT NOT NULL,
    scope TEXT NOT NULL,
    session_id TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    last_accessed TEXT NOT NULL,
    access_count INTEGER NOT NULL DEFAULT 0,
    strength INTEGER NOT NULL DEFAULT 1,
    importance REAL NOT NULL,
    confidence REAL NOT NULL,
    trust REAL NOT NULL,
    provenance TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1,
    archived INTEGER NOT NULL DEFAULT 0,
    pinned INTEGER NOT NULL DEFAULT 0,
    compressed INTEGER NOT NULL DEFAULT 0,
    file_paths TEXT NOT NULL DEFAULT '[]',
    trigger_patterns TEXT NOT NULL DEFAULT '[]',
    metadata TEXT NOT NULL DEFAULT '{}',
    embedding BLOB,
    embedding_model TEXT
);
CREATE INDEX IF NOT EXISTS memories_user ON memories(user_id, active, archived, kind);
CREATE INDEX IF NOT EXISTS memories_user_created ON memories(user_id, created_at);
CREATE INDEX IF NOT EXISTS memories_session ON memories(user_id, session_id);
CREATE INDEX IF NOT EXISTS memories_pinned ON memories(user_id, created_at) WHERE pinned = 1;
CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(doc, tokenize = "porter unicode61 remove_diacritics 0");
CREATE TABLE IF NOT EXISTS tags (
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    PRIMARY KEY (user_id, name)
);
CREATE TABLE IF NOT EXISTS edges (
    user_id TEXT NOT NULL,
    type TEXT NOT NULL,
    src TEXT NOT NULL,
    dst TEXT NOT NULL,
    weight REAL NOT NULL DEFAULT 1.0,
    source TEXT,
    reason TEXT,
    created_at TEXT,
    updated_at TEXT,
    PRIMARY KEY (user_id, type, src, dst)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS edges_in ON edges(user_id, type, dst, src);
CREATE INDEX IF NOT EXISTS edges_src ON edges(src);
CREATE INDEX IF NOT EXISTS edges_dst ON edges(dst);
CREATE TABLE IF NOT EXISTS clusters (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    size INTEGER NOT NULL,
    label TEXT NOT NULL,
    centroid BLOB,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS clusters_user ON clusters(user_id);
CREATE TABLE IF NOT EXISTS gaps (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    query TEXT NOT NULL,
    count INTEGER NOT NULL,
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    embedding BLOB
);
CREATE INDEX IF NOT EXISTS gaps_user ON gaps(user_id);
CREATE TABLE IF NOT EXISTS job_runs (
    id TEXT PRIMARY KEY,
    job TEXT NOT NULL,
    user_id TEXT,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    applied INTEGER NOT NULL,
    counts TEXT NOT NULL
);
"""

_MEMORY_COLUMNS = (
    "id, user_id, content, kind, layer, scope, session_id, created_at, updated_at, last_accessed, "
    "access_count, strength, importance, confidence, trust, provenance, active, archived, pinned, compressed, "
    "file_paths, trigger_patterns, metadata, embedding_model"
)
_JSON_FIELDS = {"file_paths", "trigger_patterns", "metadata"}
#: Memory-to-memory edge types as an SQL list (constants, not user data): lets SQLite use the edge indexes.
_MEMORY_EDGE_TYPES = ", ".join(f"'{r.value}'" for r in MEMORY_RELATIONS)
#: A tag/cluster with more members than this is walked in index order instead of sorting all its members.
HUB_SORT_LIMIT = 500
_BOOL_FIELDS = {"active", "archived", "pinned", "compressed"}
_CLAMPED = {"confidence", "importance"}

T = TypeVar("T")


@lru_cache(maxsize=8192)
def _ts(value: datetime) -> str:
    """Timestamps are stored as fixed-width UTC ISO strings, so text order is time order. Cached: a batch
    job stamps thousands of rows with the same instant (isoformat gives the same text as the old strftime)."""
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def _parse_ts(value: str) -> datetime:
    return datetime.fromisoformat(value)


def _json_value(text: str) -> Any:
    """json.loads with the two defaults that most rows hold answered without the parser (a 100k-row job read
    parses three JSON columns per row). Each call returns a fresh object: callers may mutate it."""
    if text == "[]":
        return []
    if text == "{}":
        return {}
    return json.loads(text)


#: Enum members by stored value: a dict lookup instead of the Enum constructor for each of 100k rows.
_KIND = enum_reader(MemoryKind)
_LAYER = enum_reader(Layer)
_SCOPE = enum_reader(Scope)
_PROVENANCE = enum_reader(Provenance)


def _db_value(field: str, value: Any) -> Any:
    if field in _JSON_FIELDS:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    if field in _BOOL_FIELDS:
        return int(bool(value))
    if isinstance(value, datetime):
        return _ts(value)
    if hasattr(value, "value"):  # enums
        return value.value
    return value


def _glob_any(patterns_json: str, files_json: str) -> int:
    patterns = json.loads(patterns_json)
    files = json.loads(files_json)
    return int(any(fnmatch.fnmatchcase(f, p) for p in patterns for f in files))


class _UserVectors:
    """One user's embeddings as a normalised float32 matrix with amortised appends."""

    def __init__(self, dim: int, ids: list[str], matrix: np.ndarray, max_rid: int = 0) -> None:
        self.dim = dim
        self.max_rid = max_rid  # highest rowid loaded: another process's inserts are read incrementally
        self.ids = list(ids)
        self.index = {mid: i for i, mid in enumerate(self.ids)}
        self.valid = np.ones(len(self.ids), dtype=bool)
        cap = max(64, len(self.ids))
        self.buf = np.zeros((cap, dim), dtype=np.float32)
        self.buf[: len(self.ids)] = _normalise(matrix) if len(self.ids) else matrix
        self.valid = np.ones(cap, dtype=bool)
        self.valid[len(self.ids) :] = False

    def upsert(self, ids: Sequence[str], matrix: np.ndarray) -> None:
        matrix = _normalise(matrix.astype(np.float32, copy=False))
        for mid, row in zip(ids, matrix, strict=True):
            pos = self.index.get(mid)
            if pos is None:
                pos = len(self.ids)
                if pos >= len(self.buf):
                    grow = np.zeros((len(self.buf) * 2, self.dim), dtype=np.float32)
                    grow[: len(self.buf)] = self.buf
                    valid = np.zeros(len(self.buf) * 2, dtype=bool)
                    valid[: len(self.valid)] = self.valid
                    self.buf, self.valid = grow, valid
                self.ids.append(mid)
                self.index[mid] = pos
            self.buf[pos] = row
            self.valid[pos] = True

    def remove(self, ids: Sequence[str]) -> None:
        for mid in ids:
            pos = self.index.get(mid)
            if pos is not None:
                self.valid[pos] = False

    def scores(self, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(row positions, cosine scores) of every valid row."""
        rows, sims = self.scores_many(query.reshape(1, -1))
        return rows, sims[0]

    def scores_many(self, queries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(row positions of every valid row, cosine scores: one row per query). One pass over the matrix
        for all the queries: a matrix-vector product per query re-reads the whole matrix each time (memory
        bound: ~150 MB per query at 100k rows)."""
        n = len(self.ids)
        qs = _normalise(np.asarray(queries, dtype=np.float32).reshape(-1, self.dim))
        sims = qs @ self.buf[:n].T
        rows = np.nonzero(self.valid[:n])[0]
        return rows, (sims if len(rows) == n else sims[:, rows])


#: Most query x memory scores one block product holds (128 MB of float32).
_SCORE_BLOCK = 1 << 25


def _window(k: int) -> int:
    """How many ranked candidates a vector search filters at a time."""
    return max(4 * k, 256)


def _normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (matrix / norms).astype(np.float32, copy=False)


class SQLiteStore:
    """The embedded `GraphStore`. Thread-safe: writes go through one connection behind a lock, reads through a
    connection per thread (WAL lets them run beside a writer). Safe across processes (WAL + busy retries)."""

    name = "sqlite"

    def __init__(
        self,
        path: str | Path,
        *,
        embedding_dim: int = 384,
        busy_timeout_ms: int = 5000,
        retry_attempts: int = 5,
        retry_base_delay: float = 0.05,
    ) -> None:
        self.embedding_dim = embedding_dim
        self._retry_attempts = retry_attempts
        self._retry_base_delay = retry_base_delay
        self._lock = threading.RLock()
        self.path: Path | None
        if str(path) == ":memory:":
            self.path = None
            target = ":memory:"
        else:
            directory = Path(path).expanduser()
            directory.mkdir(parents=True, exist_ok=True)
            self.path = directory / DB_FILE
            target = str(self.path)
        self._conn = sqlite3.connect(
            target, timeout=busy_timeout_ms / 1000, check_same_thread=False, isolation_level=None
        )
        self._conn.row_factory = sqlite3.Row
        self._conn.create_function("mg_glob_any", 2, _glob_any, deterministic=True)
        self._conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        if self.path is not None:
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")
        self._conn.execute("PRAGMA foreign_keys = OFF")
        self._retry(lambda: self._conn.executescript(_SCHEMA))
        self._target = target
        self._busy_timeout_ms = busy_timeout_ms
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        self._closed = False
        self._vectors: dict[str, _UserVectors] = {}
        self._vec_lock = threading.RLock()  # guards the vector cache; taken after _lock when both are needed
        self._vectors_epoch = self._get_meta("vectors_epoch")
        with self._tx():
            if self._get_meta("schema_version") is None:
                self._set_meta("schema_version", SCHEMA_VERSION)
                self._set_meta("embedding_dim", str(embedding_dim))
        stored_dim = int(self.get_meta("embedding_dim") or embedding_dim)
        if stored_dim != embedding_dim:
            from memgraph.errors import ModelMismatchError

            raise ModelMismatchError(
                f"store was built with {stored_dim}-dimensional embeddings, this engine uses {embedding_dim}"
            )

    # -- plumbing ---------------------------------------------------------------------------------------

    def _retry(self, fn: Callable[[], T]) -> T:
        """Bounded retries on 'database is locked/busy' (another process holds the write lock)."""
        delay = self._retry_base_delay
        for attempt in range(self._retry_attempts):
            try:
                return fn()
            except sqlite3.OperationalError as exc:
                msg = str(exc).lower()
                if "locked" not in msg and "busy" not in msg:
                    raise StoreError(f"sqlite: {exc}") from exc
                if attempt == self._retry_attempts - 1:
                    raise TransientStoreError(f"sqlite stayed locked after {attempt + 1} attempts") from exc
                time.sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction: all or nothing; vector-cache changes are applied only after commit."""
        with self._lock:
            self._retry(lambda: self._conn.execute("BEGIN IMMEDIATE"))
            self._pending_vectors: list[tuple[str, str, np.ndarray | None, int]] = []
            try:
                yield self._conn
                self._retry(lambda: self._conn.execute("COMMIT"))
            except BaseException:
                self._conn.execute("ROLLBACK")
                self._pending_vectors = []
                raise
            pending, self._pending_vectors = self._pending_vectors, []
            with self._vec_lock:
                self._apply_pending(pending)

    def _apply_pending(self, pending: list[tuple[str, str, np.ndarray | None, int]]) -> None:
        """Mirror this connection's committed embedding writes into the cached matrices."""
        for user_id, mid, vec, rid in pending:
            cache = self._vectors.get(user_id)
            if cache is None:
                continue
            if vec is None:
                cache.remove([mid])
            else:
                cache.upsert([mid], vec.reshape(1, -1))
                cache.max_rid = max(cache.max_rid, rid)

    def _reader(self) -> sqlite3.Connection:
        """This thread's read connection (file stores); `:memory:` has only the one connection."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(
                self._target, timeout=self._busy_timeout_ms / 1000, check_same_thread=False, isolation_level=None
            )
            conn.row_factory = sqlite3.Row
            conn.create_function("mg_glob_any", 2, _glob_any, deterministic=True)
            conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout_ms)}")
            conn.execute("PRAGMA query_only = 1")
            self._local.conn = conn
            with self._readers_lock:  # not _lock: a reader may hold _vec_lock here (lock order)
                self._readers.append(conn)
        return conn

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        if self.path is None:
            with self._lock:
                return self._retry(lambda: self._conn.execute(sql, params).fetchall())
        conn = self._reader()
        return self._retry(lambda: conn.execute(sql, params).fetchall())

    @contextmanager
    def _vector_guard(self) -> Iterator[None]:
        """Readers of a file store only need the cache lock; `:memory:` shares the writer's connection."""
        if self.path is None:
            with self._lock, self._vec_lock:
                yield
        else:
            with self._vec_lock:
                yield

    def _vector_conn(self) -> sqlite3.Connection:
        """The connection the vector cache reads through: this thread's reader (the only one for :memory:)."""
        return self._conn if self.path is None else self._reader()

    def _bump_vectors_epoch(self, conn: sqlite3.Connection) -> None:
        """Called inside a write that replaces or deletes existing embeddings: other processes must reload."""
        conn.execute(
            "INSERT INTO meta(key, value) VALUES ('vectors_epoch', '1') "
            "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
        )

    def _check_external_writes(self, conn: sqlite3.Connection) -> None:
        """Catch up with commits this reader has not seen yet (caller holds _vec_lock).

        `PRAGMA data_version` of a connection changes when any other connection commits (other processes, and
        this store's writer). Inserts are read incrementally (rowid > the highest loaded, idempotent with the
        writer's own cache updates); an embedding replaced or deleted bumps `vectors_epoch`, and then the cached
        matrices are dropped and reloaded on demand.
        """
        version = int(conn.execute("PRAGMA data_version").fetchone()[0])
        if version == getattr(self._local, "data_version", None):
            return
        self._local.data_version = version
        row = conn.execute("SELECT value FROM meta WHERE key = 'vectors_epoch'").fetchone()
        epoch = row[0] if row else None
        if epoch != self._vectors_epoch:
            self._vectors_epoch = epoch
            self._vectors.clear()
            return
        for user_id, cache in self._vectors.items():
            rows = conn.execute(
                "SELECT rid, id, embedding FROM memories WHERE user_id = ? AND rid > ? AND embedding IS NOT NULL",
                (user_id, cache.max_rid),
            ).fetchall()
            if rows:
                matrix = np.frombuffer(b"".join(r[2] for r in rows), dtype=np.float32).reshape(len(rows), -1)
                cache.upsert([r[1] for r in rows], matrix)
                cache.max_rid = max(r[0] for r in rows)

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for conn in [*self._readers, self._conn]:
                try:
                    conn.close()
                except sqlite3.Error:
                    pass

    def get_meta(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def _get_meta(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def _set_meta(self, key: str, value: str) -> None:
        self._conn.execute(
            "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    def set_meta(self, key: str, value: str) -> None:
        with self._tx():
            self._set_meta(key, value)

    def compare_and_set_meta(self, key: str, expected: str | None, value: str | None) -> bool:
        with self._tx() as conn:
            if self._get_meta(key) != expected:
                return False
            if value is None:
                conn.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                self._set_meta(key, value)
            return True

    # -- filters ----------------------------------------------------------------------------------------

    def _where(self, flt: MemoryFilter | None, alias: str = "m") -> tuple[str, list[Any]]:
        flt = flt or MemoryFilter()
        clauses: list[str] = []
        params: list[Any] = []
        if flt.active is not None:
            clauses.append(f"{alias}.active = ?")
            params.append(int(flt.active))
        if not flt.include_archived:
            clauses.append(f"{alias}.archived = 0")
        if not flt.include_compressed:
            clauses.append(f"{alias}.compressed = 0")
        if flt.kinds:
            clauses.append(f"{alias}.kind IN ({','.join('?' * len(flt.kinds))})")
            params += [k.value for k in flt.kinds]
        if flt.pinned is not None:
            # a literal, so that the partial index memories_pinned serves `pinned = 1`
            clauses.append(f"{alias}.pinned = {1 if flt.pinned else 0}")
        if flt.session_id is not None:
            clauses.append(f"{alias}.session_id = ?")
            params.append(flt.session_id)
        if flt.min_importance is not None:
            clauses.append(f"({alias}.importance >= ? OR {alias}.pinned = 1)")
            params.append(flt.min_importance)
        if flt.tag is not None:
            clauses.append(
                f"EXISTS (SELECT 1 FROM edges t WHERE t.user_id = {alias}.user_id AND t.type = 'HasTag' "
                f"AND t.src = {alias}.id AND t.dst = ?)"
            )
            params.append(flt.tag)
        if flt.files is not None:
            clauses.append(f"({alias}.scope != 'project' OR mg_glob_any({alias}.file_paths, ?) = 1)")
            params.append(json.dumps(flt.files))
        return (" AND ".join(clauses) or "1=1"), params

    # -- writes -----------------------------------------------------------------------------------------

    def write(self, user_id: str, batch: WriteBatch) -> None:
        if batch.embeddings is not None and len(batch.embeddings) != len(batch.memories):
            raise ValidationError("embeddings rows must align with memories")
        with self._tx() as conn:
            mem_tags: list[HasTag] = []
            for i, mem in enumerate(batch.memories):
                if mem.user_id != user_id:
                    raise ValidationError("a batch may only hold memories of its own user")
                vec = None if batch.embeddings is None else np.asarray(batch.embeddings[i], dtype=np.float32)
                self._upsert_memory(conn, mem, vec)
                mem_tags += [HasTag(memory_id=mem.id, tag=t) for t in mem.tags]
            if mem_tags:
                self._add_tags(conn, user_id, mem_tags)
            if batch.tags:
                self._add_tags(conn, user_id, batch.tags)
            if batch.links:
                self._upsert_links(conn, user_id, batch.links)
            if batch.updates:
                self._update(conn, user_id, batch.updates)
            if batch.remove_tags:
                self._remove_tags(conn, user_id, batch.remove_tags)
            if batch.delete_links:
                self._delete_links(conn, user_id, batch.delete_links)

    def _upsert_memory(self, conn: sqlite3.Connection, mem: Memory, vec: np.ndarray | None) -> None:
        if vec is not None and vec.shape != (self.embedding_dim,):
            raise ValidationError(f"embedding has shape {vec.shape}, store uses {self.embedding_dim}")
        if vec is not None and not np.all(np.isfinite(vec)):
            raise ValidationError("embedding holds NaN or infinite values")
        row = conn.execute("SELECT rid, user_id, embedding FROM memories WHERE id = ?", (mem.id,)).fetchone()
        values = [_db_value(f, getattr(mem, f)) for f in _MEMORY_COLUMNS.split(", ")]
        blob = None if vec is None else vec.astype(np.float32).tobytes()
        if row is None:
            cur = conn.execute(
                f"INSERT INTO memories ({_MEMORY_COLUMNS}, embedding) "
                f"VALUES ({','.join('?' * (len(values) + 1))})",
                [*values, blob],
            )
            rid = cur.lastrowid
        else:
            if row["user_id"] != mem.user_id:
                raise ValidationError("memory id belongs to another user")
            rid = row["rid"]
            sets = ", ".join(f"{f} = ?" for f in _MEMORY_COLUMNS.split(", ")[1:])
            conn.execute(f"UPDATE memories SET {sets} WHERE rid = ?", [*values[1:], rid])
            if blob is not None and blob != row["embedding"]:
                conn.execute("UPDATE memories SET embedding = ? WHERE rid = ?", (blob, rid))
                if row["embedding"] is not None:
                    self._bump_vectors_epoch(conn)
            conn.execute("DELETE FROM memories_fts WHERE rowid = ?", (rid,))
        conn.execute("INSERT INTO memories_fts(rowid, doc) VALUES (?, ?)", (rid, fts_document(mem.content)))
        if vec is not None:
            self._pending_vectors.append((mem.user_id, mem.id, vec, int(rid or 0)))

    def update_memories(self, user_id: str, updates: Sequence[MemoryUpdate]) -> int:
        with self._tx() as conn:
            return self._update(conn, user_id, updates)

    def _update(self, conn: sqlite3.Connection, user_id: str, updates: Sequence[MemoryUpdate]) -> int:
        """Set-based: updates of the same shape (same fields set / incremented) go out as one
        `UPDATE ... FROM (VALUES ...)` statement per chunk, the SQL twin of Cypher's UNWIND. Two updates of
        one id in a batch are applied in order (separate rounds), as if run one after the other."""
        groups: dict[tuple[tuple[str, ...], tuple[str, ...]], list[list[MemoryUpdate]]] = {}
        seen: dict[tuple[tuple[str, ...], tuple[str, ...], str], int] = {}
        for upd in updates:
            bad = (set(upd.set) - UPDATABLE_FIELDS) | (set(upd.inc) - INCREMENTABLE_FIELDS)
            if bad:
                raise ValidationError(f"cannot update field(s): {', '.join(sorted(bad))}")
            if not upd.set and not upd.inc:
                continue
            shape = (tuple(sorted(upd.set)), tuple(sorted(upd.inc)))
            rnd = seen.get((*shape, upd.id), 0)
            seen[(*shape, upd.id)] = rnd + 1
            rounds = groups.setdefault(shape, [])
            while len(rounds) <= rnd:
                rounds.append([])
            rounds[rnd].append(upd)
        matched = 0
        for (set_fields, inc_fields), rounds in groups.items():
            ncols = 1 + len(set_fields) + len(inc_fields)
            parts = [f"{f} = v.column{i + 2}" for i, f in enumerate(set_fields)]
            for j, f in enumerate(inc_fields):
                col = f"v.column{len(set_fields) + j + 2}"
                expr = f"MIN(1.0, MAX(0.0, {f} + {col}))" if f in _CLAMPED else f"{f} + {col}"
                parts.append(f"{f} = {expr}")
            per_statement = max(1, (_MAX_SQL_VARIABLES - 1) // ncols)
            row_marks = "(" + ",".join("?" * ncols) + ")"
            for rnd in rounds:
                for chunk in _chunks(rnd, per_statement):
                    params: list[Any] = []
                    for upd in chunk:
                        params.append(upd.id)
                        params += [_db_value(f, upd.set[f]) for f in set_fields]
                        params += [upd.inc[f] for f in inc_fields]
                    cur = conn.execute(
                        f"UPDATE memories SET {', '.join(parts)} "
                        f"FROM (VALUES {','.join([row_marks] * len(chunk))}) AS v "
                        "WHERE memories.id = v.column1 AND memories.user_id = ?",
                        [*params, user_id],
                    )
                    matched += cur.rowcount
                    if "content" in set_fields:
                        for upd in chunk:
                            row = conn.execute(
                                "SELECT rid FROM memories WHERE id = ? AND user_id = ?", (upd.id, user_id)
                            ).fetchone()
                            if row is None:
                                continue
                            conn.execute("DELETE FROM memories_fts WHERE rowid = ?", (row[0],))
                            conn.execute(
                                "INSERT INTO memories_fts(rowid, doc) VALUES (?, ?)",
                                (row[0], fts_document(upd.set["content"])),
                            )
        return matched

    def delete_memories(self, user_id: str, ids: Sequence[str]) -> int:
        deleted = 0
        with self._tx() as conn:
            for chunk in _chunks(list(dict.fromkeys(ids)), 400):
                marks = ",".join("?" * len(chunk))
                rows = conn.execute(
                    f"SELECT rid, id FROM memories WHERE +user_id = ? AND id IN ({marks})", [user_id, *chunk]
                ).fetchall()
                if not rows:
                    continue
                rids = [r[0] for r in rows]
                found = [r[1] for r in rows]
                rmarks = ",".join("?" * len(rids))
                fmarks = ",".join("?" * len(found))
                conn.execute(f"DELETE FROM memories_fts WHERE rowid IN ({rmarks})", rids)
                conn.execute(f"DELETE FROM memories WHERE rid IN ({rmarks})", rids)
                conn.execute(
                    f"DELETE FROM edges WHERE user_id = ? AND (src IN ({fmarks}) "
                    f"OR (dst IN ({fmarks}) AND type != 'HasTag'))",
                    [user_id, *found, *found],
                )
                self._pending_vectors += [(user_id, mid, None, 0) for mid in found]
                if found:
                    self._bump_vectors_epoch(conn)
                deleted += len(found)
        return deleted

    def _owned(self, conn: sqlite3.Connection, user_id: str, ids: Sequence[str]) -> set[str]:
        """Which of `ids` are memories of `user_id` (one query per chunk, not per id)."""
        owned: set[str] = set()
        for chunk in _chunks(sorted(set(ids)), 500):  # sorted: neighbouring index pages
            owned |= {
                r[0]
                for r in conn.execute(
                    f"SELECT id FROM memories WHERE +user_id = ? AND id IN ({','.join('?' * len(chunk))})",
                    [user_id, *chunk],
                )
            }
        return owned

    def _add_tags(self, conn: sqlite3.Connection, user_id: str, pairs: Sequence[HasTag]) -> int:
        owned = self._owned(conn, user_id, [p.memory_id for p in pairs])
        pairs = [p for p in pairs if p.memory_id in owned]
        if not pairs:
            return 0
        now = _ts(datetime.now(UTC))
        conn.executemany(
            "INSERT OR IGNORE INTO tags(user_id, name) VALUES (?, ?)",
            [(user_id, n) for n in {p.tag for p in pairs}],
        )
        cur = conn.executemany(
            "INSERT OR IGNORE INTO edges(user_id, type, src, dst, weight, created_at, updated_at) "
            "VALUES (?, 'HasTag', ?, ?, 1.0, ?, ?)",
            [(user_id, p.memory_id, p.tag, now, now) for p in pairs],
        )
        return cur.rowcount

    def add_tags(self, user_id: str, pairs: Sequence[HasTag]) -> int:
        with self._tx() as conn:
            return self._add_tags(conn, user_id, pairs)

    def _remove_tags(self, conn: sqlite3.Connection, user_id: str, pairs: Sequence[HasTag]) -> int:
        cur = conn.executemany(
            "DELETE FROM edges WHERE user_id = ? AND type = 'HasTag' AND src = ? AND dst = ?",
            [(user_id, p.memory_id, p.tag) for p in pairs],
        )
        return cur.rowcount

    def remove_tags(self, user_id: str, pairs: Sequence[HasTag]) -> int:
        with self._tx() as conn:
            return self._remove_tags(conn, user_id, pairs)

    def upsert_tags(self, user_id: str, tags: Sequence[Tag]) -> int:
        with self._tx() as conn:
            cur = conn.executemany(
                "INSERT INTO tags(user_id, name, description) VALUES (?, ?, ?) ON CONFLICT(user_id, name) "
                "DO UPDATE SET description = COALESCE(excluded.description, tags.description)",
                [(user_id, t.name, t.description) for t in tags],
            )
            return cur.rowcount

    def delete_tags(self, user_id: str, names: Sequence[str]) -> int:
        with self._tx() as conn:
            conn.executemany(
                "DELETE FROM edges WHERE user_id = ? AND type = 'HasTag' AND dst = ?",
                [(user_id, n) for n in names],
            )
            cur = conn.executemany(
                "DELETE FROM tags WHERE user_id = ? AND name = ?", [(user_id, n) for n in names]
            )
            return cur.rowcount

    def _upsert_links(self, conn: sqlite3.Connection, user_id: str, links: Sequence[Link]) -> None:
        """Upsert edges after one ownership check of the distinct endpoints (inside this transaction, so it
        cannot go stale); an endpoint that is not the user's refuses the whole batch. Rows go out in key order
        (stable, so of two rows for one edge the later still wins): a links job's 100k edges then fill index
        pages in sequence instead of dirtying pages all over the edge indexes (2x faster at 100k)."""
        for link in links:
            if link.relation not in MEMORY_RELATIONS:
                raise ValidationError(f"{link.relation.value} does not join two memories")
        if not links:
            return
        owned = self._owned(conn, user_id, [x for ln in links for x in (ln.src, ln.dst)])
        bad = next((ln for ln in links if ln.src not in owned or ln.dst not in owned), None)
        if bad is not None:
            raise ValidationError(f"link {bad.src} -> {bad.dst}: both memories must belong to the user")
        rows = sorted(
            (
                (
                    user_id,
                    link.relation.value,
                    link.src,
                    link.dst,
                    link.weight,
                    link.source.value,
                    link.reason,
                    _ts(link.created_at),
                    _ts(link.updated_at),
                )
                for link in links
            ),
            key=lambda r: (r[1], r[2], r[3]),
        )
        conn.executemany(
            "INSERT INTO edges(user_id, type, src, dst, weight, source, reason, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(user_id, type, src, dst) DO UPDATE SET "
            "weight = excluded.weight, source = excluded.source, reason = excluded.reason, "
            "updated_at = excluded.updated_at",
            rows,
        )

    def upsert_links(self, user_id: str, links: Sequence[Link]) -> None:
        with self._tx() as conn:
            self._upsert_links(conn, user_id, links)

    def _delete_links(
        self, conn: sqlite3.Connection, user_id: str, keys: Sequence[tuple[str, str, Relation]]
    ) -> int:
        cur = conn.executemany(
            "DELETE FROM edges WHERE user_id = ? AND type = ? AND src = ? AND dst = ?",
            [(user_id, Relation.parse(rel).value, src, dst) for src, dst, rel in keys],
        )
        return cur.rowcount

    def delete_links(self, user_id: str, keys: Sequence[tuple[str, str, Relation]]) -> int:
        with self._tx() as conn:
            return self._delete_links(conn, user_id, keys)

    def set_embeddings(self, user_id: str, ids: Sequence[str], matrix: np.ndarray, model: str) -> int:
        matrix = np.asarray(matrix, dtype=np.float32)
        if matrix.shape != (len(ids), self.embedding_dim):
            raise ValidationError(f"embeddings must be {len(ids)} x {self.embedding_dim}, got {matrix.shape}")
        with self._tx() as conn:
            cur = conn.executemany(
                "UPDATE memories SET embedding = ?, embedding_model = ? WHERE id = ? AND user_id = ?",
                [(row.tobytes(), model, mid, user_id) for mid, row in zip(ids, matrix, strict=True)],
            )
            changed = cur.rowcount
            owned = self._owned(conn, user_id, ids)
            self._pending_vectors += [
                (user_id, mid, row, 0) for mid, row in zip(ids, matrix, strict=True) if mid in owned
            ]
            if changed:
                self._bump_vectors_epoch(conn)  # other processes must reload replaced vectors
            return changed

    # -- reads -------------------------------------------------------------------------------------------

    def _row_to_memory(self, row: sqlite3.Row, tags: list[str], with_embedding: bool) -> Memory:
        emb = None
        if with_embedding and row["embedding"] is not None:
            emb = np.frombuffer(row["embedding"], dtype=np.float32).tolist()
        # Rows were validated on the way in; skipping pydantic (validation and model_construct's field loop)
        # keeps a 100k-memory job read cheap (values are converted to the model's types right here).
        return trusted(
            Memory,
            dict(
                id=row["id"],
                user_id=row["user_id"],
                content=row["content"],
                kind=_KIND(row["kind"]),
                layer=_LAYER(row["layer"]),
                scope=_SCOPE(row["scope"]),
                session_id=row["session_id"],
                created_at=_parse_ts(row["created_at"]),
                updated_at=_parse_ts(row["updated_at"]),
                last_accessed=_parse_ts(row["last_accessed"]),
                access_count=row["access_count"],
                strength=row["strength"],
                importance=row["importance"],
                confidence=row["confidence"],
                trust=row["trust"],
                provenance=_PROVENANCE(row["provenance"]),
                active=bool(row["active"]),
                archived=bool(row["archived"]),
                pinned=bool(row["pinned"]),
                compressed=bool(row["compressed"]),
                file_paths=_json_value(row["file_paths"]),
                trigger_patterns=_json_value(row["trigger_patterns"]),
                metadata=_json_value(row["metadata"]),
                tags=tags,
                embedding_model=row["embedding_model"],
                embedding=emb,
            ),
        )

    def _tags_for(self, user_id: str, ids: Sequence[str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for chunk in _chunks(list(ids), 500):
            rows = self._read(
                # INDEXED BY edges_src: one seek per id. Without ANALYZE the planner otherwise picks edges_in
                # (user_id, type) and reads every HasTag edge of the user per chunk (NOT INDEXED did not stop it
                # on this WITHOUT ROWID table): 12 ms per call at 33k tagged memories, 5 s for a 100k job read.
                f"SELECT src, dst FROM edges INDEXED BY edges_src WHERE user_id = ? AND type = 'HasTag' "
                f"AND src IN ({','.join('?' * len(chunk))}) ORDER BY dst",
                [user_id, *chunk],
            )
            for r in rows:
                out.setdefault(r[0], []).append(r[1])
        return out

    def _memories_from_rows(self, user_id: str, rows: list[sqlite3.Row], with_embeddings: bool) -> list[Memory]:
        tags = self._tags_for(user_id, [r["id"] for r in rows])
        return [self._row_to_memory(r, tags.get(r["id"], []), with_embeddings) for r in rows]

    def get_memories(self, user_id: str, ids: Sequence[str], *, with_embeddings: bool = False) -> list[Memory]:
        found: dict[str, sqlite3.Row] = {}
        cols = f"{_MEMORY_COLUMNS}, embedding" if with_embeddings else f"{_MEMORY_COLUMNS}, NULL AS embedding"
        for chunk in _chunks(list(dict.fromkeys(ids)), 500):
            for r in self._read(
                # `+user_id`: look the ids up by the unique id index, not by scanning the user's memories.
                f"SELECT {cols} FROM memories WHERE id IN ({','.join('?' * len(chunk))}) AND +user_id = ?",
                [*chunk, user_id],
            ):
                found[r["id"]] = r
        rows = [found[i] for i in dict.fromkeys(ids) if i in found]
        return self._memories_from_rows(user_id, rows, with_embeddings)

    def list_memories(
        self, user_id: str, flt: MemoryFilter | None = None, *, limit: int = 100, offset: int = 0
    ) -> list[Memory]:
        where, params = self._where(flt)
        rows = self._read(
            f"SELECT {_MEMORY_COLUMNS}, NULL AS embedding FROM memories m WHERE m.user_id = ? AND {where} "
            "ORDER BY m.created_at DESC, m.id LIMIT ? OFFSET ?",
            [user_id, *params, limit, offset],
        )
        return self._memories_from_rows(user_id, rows, False)

    def memory_fields(
        self, user_id: str, fields: Sequence[str], flt: MemoryFilter | None = None
    ) -> list[dict[str, Any]]:
        readers = field_readers(fields, {datetime: _parse_ts, list: _json_value, dict: _json_value})
        where, params = self._where(flt)
        cols = "".join(f", m.{f}" for f, _ in readers)
        rows = self._read(
            f"SELECT m.id{cols} FROM memories m WHERE m.user_id = ? AND {where} ORDER BY m.created_at DESC, m.id",
            [user_id, *params],
        )
        return [
            {"id": r[0], **{f: read(r[i]) for i, (f, read) in enumerate(readers, 1)}} for r in rows
        ]

    def count_memories(self, user_id: str, flt: MemoryFilter | None = None) -> int:
        where, params = self._where(flt)
        rows = self._read(f"SELECT COUNT(*) FROM memories m WHERE m.user_id = ? AND {where}", [user_id, *params])
        return int(rows[0][0])

    def get_links(
        self,
        user_id: str,
        ids: Sequence[str] | None = None,
        *,
        relations: Sequence[Relation] | None = None,
        direction: Direction = "both",
    ) -> list[Link]:
        rels = [r.value for r in (relations or MEMORY_RELATIONS)]
        sql = (
            "SELECT type, src, dst, weight, source, reason, created_at, updated_at FROM edges "
            f"WHERE user_id = ? AND type IN ({','.join('?' * len(rels))})"
        )
        params: list[Any] = [user_id, *rels]
        rows: list[sqlite3.Row] = []
        if ids is None:
            rows = self._read(sql + " ORDER BY type, src, dst", params)
        else:
            for chunk in _chunks(list(ids), 400):
                marks = ",".join("?" * len(chunk))
                cond = {"out": f"src IN ({marks})", "in": f"dst IN ({marks})"}.get(
                    direction, f"(src IN ({marks}) OR dst IN ({marks}))"
                )
                extra = chunk if direction != "both" else [*chunk, *chunk]
                rows += self._read(f"{sql} AND {cond}", [*params, *extra])
        seen: set[tuple[str, str, str]] = set()
        out: list[Link] = []
        for r in rows:
            key = (r["type"], r["src"], r["dst"])
            if key in seen:
                continue
            seen.add(key)
            out.append(
                Link.model_construct(
                    src=r["src"],
                    dst=r["dst"],
                    relation=Relation(r["type"]),
                    weight=r["weight"],
                    source=LinkSource(r["source"] or "explicit"),
                    reason=r["reason"],
                    created_at=_parse_ts(r["created_at"]),
                    updated_at=_parse_ts(r["updated_at"]),
                )
            )
        return out

    def list_tags(self, user_id: str) -> list[Tag]:
        rows = self._read(
            "SELECT t.name, t.description, "
            "(SELECT COUNT(*) FROM edges e WHERE e.user_id = t.user_id AND e.type = 'HasTag' AND e.dst = t.name) "
            "FROM tags t WHERE t.user_id = ? ORDER BY t.name",
            (user_id,),
        )
        return [Tag(name=r[0], user_id=user_id, description=r[1], count=r[2]) for r in rows]

    def find_tags(self, user_id: str, names: Sequence[str]) -> list[Tag]:
        names = list(dict.fromkeys(n for n in names if n))
        out: list[Tag] = []
        for chunk in _chunks(names, 300):
            marks = ",".join("?" * len(chunk))
            rows = self._read(
                "SELECT t.name, t.description, "
                "(SELECT COUNT(*) FROM edges e WHERE e.user_id = t.user_id AND e.type = 'HasTag' AND e.dst = t.name) "
                f"FROM tags t WHERE t.user_id = ? AND (t.name IN ({marks}) OR (instr(t.name, ':') > 0 AND "
                f"substr(t.name, instr(t.name, ':') + 1) IN ({marks}))) ORDER BY t.name",
                [user_id, *chunk, *chunk],
            )
            out += [Tag(name=r[0], user_id=user_id, description=r[1], count=r[2]) for r in rows]
        return sorted({t.name: t for t in out}.values(), key=lambda t: t.name)

    def _user_vectors(self, user_id: str) -> _UserVectors:
        """The user's cached matrix, loaded on first use (caller holds _vec_lock)."""
        conn = self._vector_conn()
        self._check_external_writes(conn)
        cache = self._vectors.get(user_id)
        if cache is None:
            rows = conn.execute(
                "SELECT id, embedding, rid FROM memories WHERE user_id = ? AND embedding IS NOT NULL "
                "ORDER BY rid",
                (user_id,),
            ).fetchall()
            ids = [r[0] for r in rows]
            max_rid = rows[-1][2] if rows else 0
            if rows:
                matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(
                    len(rows), self.embedding_dim
                )
            else:
                matrix = np.zeros((0, self.embedding_dim), dtype=np.float32)
            cache = _UserVectors(self.embedding_dim, ids, matrix, max_rid)
            self._vectors[user_id] = cache
        return cache

    def embeddings(self, user_id: str, flt: MemoryFilter | None = None) -> tuple[list[str], np.ndarray]:
        where, params = self._where(flt)
        rows = self._read(
            f"SELECT m.id, m.embedding FROM memories m WHERE m.user_id = ? AND m.embedding IS NOT NULL "
            f"AND {where} ORDER BY m.rid",
            [user_id, *params],
        )
        if not rows:
            return [], np.zeros((0, self.embedding_dim), dtype=np.float32)
        matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
        return [r[0] for r in rows], matrix.copy()

    def vector_search(
        self,
        user_id: str,
        vector: np.ndarray,
        k: int,
        *,
        min_similarity: float = -1.0,
        flt: MemoryFilter | None = None,
    ) -> list[tuple[str, float]]:
        vector = np.asarray(vector, dtype=np.float32)
        if vector.shape != (self.embedding_dim,) or not np.all(np.isfinite(vector)):
            raise ValidationError(f"query vector must be {self.embedding_dim} finite floats")
        if k <= 0:
            return []
        with self._vector_guard():
            cache = self._user_vectors(user_id)
            rows, sims = cache.scores(vector)
            keep = sims >= min_similarity
            rows, sims = rows[keep], sims[keep]
            order = np.argsort(-sims, kind="stable")
            ids = cache.ids
        where, params = self._where(flt)
        out: list[tuple[str, float]] = []
        # Walk the exact ranking in windows and let SQL apply the filter to each window.
        window = _window(k)
        for start in range(0, len(order), window):
            part = order[start : start + window]
            cand = [ids[rows[i]] for i in part]
            score = {ids[rows[i]]: float(sims[i]) for i in part}
            ok = self._passing(user_id, cand, where, params)
            for mid in cand:
                if mid in ok:
                    out.append((mid, score[mid]))
                    if len(out) >= k:
                        return out
        return out

    def vector_search_many(
        self,
        user_id: str,
        vectors: np.ndarray,
        k: int,
        *,
        min_similarity: float = -1.0,
        flt: MemoryFilter | None = None,
    ) -> list[list[tuple[str, float]]]:
        """Each query's first window of the exact ranking (as `vector_search` walks it) is cut from a block
        product; the filter runs once over the union of those windows. A query whose window the filter thins
        below k, with more candidates left, falls back to `vector_search` (rare: the filter is usually the
        default active/unarchived one)."""
        queries = query_matrix(vectors, self.embedding_dim)
        if k <= 0 or not len(queries):
            return [[] for _ in range(len(queries))]
        window = _window(k)
        ranked: list[tuple[list[str], list[float], bool]] = []  # (ids, scores, every candidate seen)
        with self._vector_guard():
            cache = self._user_vectors(user_id)
            ids = cache.ids
            block = max(1, _SCORE_BLOCK // max(1, len(ids)))  # queries per product: bounded memory
            for start in range(0, len(queries), block):
                rows, sims = cache.scores_many(queries[start : start + block])
                for row in sims:
                    cand = np.nonzero(row >= min_similarity)[0]
                    whole = len(cand) <= window
                    if not whole:
                        cand = cand[np.argpartition(-row[cand], window - 1)[:window]]
                    # best first, ties in matrix order: the order vector_search's stable sort gives
                    cand = cand[np.lexsort((cand, -row[cand]))]
                    ranked.append(([ids[rows[i]] for i in cand], row[cand].tolist(), whole))
        where, params = self._where(flt)
        ok = self._passing(user_id, list({mid for r in ranked for mid in r[0]}), where, params)
        out: list[list[tuple[str, float]]] = []
        for i, (cand_ids, scores, whole) in enumerate(ranked):
            hits = [(mid, sc) for mid, sc in zip(cand_ids, scores, strict=True) if mid in ok][:k]
            if len(hits) < k and not whole:
                hits = self.vector_search(user_id, queries[i], k, min_similarity=min_similarity, flt=flt)
            out.append(hits)
        return out

    def _passing(self, user_id: str, ids: Sequence[str], where: str, params: Sequence[Any]) -> set[str]:
        """Those of `ids` that are this user's memories and pass the filter."""
        ok: set[str] = set()
        for chunk in _chunks(list(ids), 500):
            ok |= {
                r[0]
                for r in self._read(
                    # `+m.user_id`: probe the candidates by id (the unique index) instead of
                    # scanning the user's memories through memories_user.
                    f"SELECT m.id FROM memories m WHERE m.id IN ({','.join('?' * len(chunk))}) "
                    f"AND +m.user_id = ? AND {where}",
                    [*chunk, user_id, *params],
                )
            }
        return ok

    def text_search(
        self, user_id: str, query: str, k: int, *, flt: MemoryFilter | None = None
    ) -> list[tuple[str, float]]:
        tokens = list(dict.fromkeys(content_tokens(query)))
        if not tokens or k <= 0:
            return []
        # Tokens are \w runs, quoted: FTS5 syntax in user text can never reach the parser.
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in tokens[:64])
        where, params = self._where(flt)
        rows = self._read(
            "SELECT m.id, -bm25(memories_fts) AS score FROM memories_fts JOIN memories m ON m.rid = memories_fts.rowid "
            f"WHERE memories_fts MATCH ? AND m.user_id = ? AND {where} ORDER BY bm25(memories_fts) LIMIT ?",
            [match, user_id, *params, k],
        )
        return [(r[0], float(r[1])) for r in rows]

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
        """Breadth-first, one SQL query per hop for all seeds at once; the path bookkeeping is shared with the
        Cypher store (memgraph.store.traverse), so both return the same expansions."""
        where, wparams = self._where(flt, alias="m")
        degrees: dict[tuple[str, str], int] = {}
        return breadth_first(
            seeds,
            max_depth=max_depth,
            weights=weights,
            neighbours=lambda nodes, to_groups: self._neighbours(
                user_id,
                nodes,
                fanout_cap,
                where,
                wparams,
                to_groups=to_groups,
                degrees=degrees,
                discovered=weights.get("RelatesTo:discovered", 1.0),
            ),
        )

    def _group_degrees(
        self, user_id: str, kind: str, names: Sequence[str], cache: dict[tuple[str, str], int]
    ) -> None:
        """Members of each tag/cluster (one index range count per name, each counted once per expand)."""
        rel = "HasTag" if kind == "t" else "InCluster"
        todo = sorted({n for n in names if (kind, n) not in cache})
        for chunk in _chunks(todo, 300):
            rows = self._read(
                f"SELECT dst, COUNT(*) FROM edges INDEXED BY edges_in WHERE user_id = ? AND type = ? "
                f"AND dst IN ({','.join('?' * len(chunk))}) GROUP BY dst",
                [user_id, rel, *chunk],
            )
            cache.update({(kind, r[0]): int(r[1]) for r in rows})
            cache.update({(kind, n): 0 for n in chunk if (kind, n) not in cache})

    def _neighbours(
        self,
        user_id: str,
        nodes: set[tuple[str, str]],
        cap: int,
        where: str,
        wparams: list[Any],
        *,
        to_groups: bool = True,
        degrees: dict[tuple[str, str], int] | None = None,
        discovered: float = 1.0,
    ) -> tuple[dict[tuple[str, str], list[tuple[str, tuple[str, str], float]]], dict[tuple[str, str], int]]:
        """Capped neighbours of each frontier node, and the member count (degree) of each tag/cluster seen:
        the cascade passes less activation through hubs. `degrees` is a cache shared by one expand."""
        degrees = {} if degrees is None else degrees
        mem_ids = [n[1] for n in nodes if n[0] == "m"]
        tag_names = [n[1] for n in nodes if n[0] == "t"]
        cluster_ids = [n[1] for n in nodes if n[0] == "c"]
        out: dict[tuple[str, str], list[tuple[str, tuple[str, str], float]]] = {}

        def add(src: tuple[str, str], rel: str, dst: tuple[str, str], w: float) -> None:
            out.setdefault(src, []).append((rel, dst, w))

        for chunk in _chunks(mem_ids, 300):
            marks = ",".join("?" * len(chunk))
            if to_groups:
                # Memory -> tags / clusters: the most specific first (fewest members), `cap` of them: they say
                # the most about a memory, and BFS then reaches a neighbour through the rarest thing shared.
                rows = self._read(
                    f"SELECT src, type, dst, weight FROM edges WHERE +user_id = ? "
                    f"AND +type IN ('HasTag', 'InCluster') AND src IN ({marks})",
                    [user_id, *chunk],
                )
                groups = [(r[0], r[1], ("t" if r[1] == "HasTag" else "c", r[2]), float(r[3])) for r in rows]
                for kind in ("t", "c"):
                    self._group_degrees(user_id, kind, [g[2][1] for g in groups if g[2][0] == kind], degrees)
                per_src: dict[str, list[tuple[str, tuple[str, str], float]]] = {}
                for src, rel, dst, w in groups:
                    per_src.setdefault(src, []).append((rel, dst, w))
                for src, edges in per_src.items():
                    edges.sort(key=lambda e: (degrees.get(e[1], 0), -e[2], e[1][1]))
                    for rel, dst, w in edges[:cap]:
                        add(("m", src), rel, dst, w)
            # Memory -> memories (both directions), the strongest edges first; the memory must pass the filter.
            # Discovered similarity links count `discovered` of their weight (see Settings.relation_weights).
            scale = "(CASE WHEN e.type = 'RelatesTo' AND e.source = 'discovered' THEN ? ELSE 1.0 END)"
            rows = self._read(
                f"SELECT node, type, other, weight FROM ("
                f"  SELECT x.node, x.type, x.other, x.weight, ROW_NUMBER() OVER ("
                f"    PARTITION BY x.node ORDER BY x.weight DESC, m.importance DESC, x.other, x.type) AS rn"
                f"  FROM (SELECT e.src AS node, e.type, e.dst AS other, e.weight * {scale} AS weight"
                f"        FROM edges e INDEXED BY edges_src"
                f"        WHERE e.user_id = ? AND e.type IN ({_MEMORY_EDGE_TYPES}) AND e.src IN ({marks})"
                f"        UNION ALL"
                f"        SELECT e.dst AS node, e.type, e.src AS other, e.weight * {scale} AS weight"
                f"        FROM edges e INDEXED BY edges_dst"
                f"        WHERE e.user_id = ? AND e.type IN ({_MEMORY_EDGE_TYPES}) AND e.dst IN ({marks})) x"
                # CROSS JOIN fixes the loop order: the few edges outside, memories looked up by id inside
                f"  CROSS JOIN memories m WHERE m.id = x.other AND m.user_id = ? AND {where}"
                f") WHERE rn <= ? ORDER BY node, rn",
                [discovered, user_id, *chunk, discovered, user_id, *chunk, user_id, *wparams, cap],
            )
            for r in rows:
                add(("m", r[0]), r[1], ("m", r[2]), r[3])
        # Tag / cluster -> members that pass the filter, `cap` of them. Small groups: the most important and
        # most recently used first. Hubs (more than HUB_SORT_LIMIT members): the first `cap` in index order,
        # so a tag on every memory costs `cap` row reads, not a sort of all its members.
        for kind, names, rel in (("t", tag_names, "HasTag"), ("c", cluster_ids, "InCluster")):
            self._group_degrees(user_id, kind, names, degrees)
            small = [n for n in names if degrees.get((kind, n), 0) <= HUB_SORT_LIMIT]
            hubs = [n for n in names if degrees.get((kind, n), 0) > HUB_SORT_LIMIT]
            for chunk in _chunks(small, 300):
                marks = ",".join("?" * len(chunk))
                rows = self._read(
                    f"SELECT dst, src, weight FROM ("
                    f"  SELECT e.dst, e.src, e.weight, ROW_NUMBER() OVER ("
                    f"    PARTITION BY e.dst ORDER BY m.importance DESC, m.last_accessed DESC, e.src) AS rn"
                    f"  FROM edges e INDEXED BY edges_in CROSS JOIN memories m"
                    f"  WHERE e.user_id = ? AND e.type = ? AND e.dst IN ({marks})"
                    f"  AND m.id = e.src AND m.user_id = e.user_id AND {where}"
                    f") WHERE rn <= ? ORDER BY dst, rn",
                    [user_id, rel, *chunk, *wparams, cap],
                )
                for r in rows:
                    add((kind, r[0]), rel, ("m", r[1]), r[2])
            for name in hubs:
                rows = self._read(
                    f"SELECT e.src, e.weight FROM edges e INDEXED BY edges_in CROSS JOIN memories m "
                    f"WHERE e.user_id = ? AND e.type = ? AND e.dst = ? "
                    f"AND m.id = e.src AND m.user_id = e.user_id AND {where} LIMIT ?",
                    [user_id, rel, name, *wparams, cap],
                )
                for r in rows:
                    add((kind, name), rel, ("m", r[0]), r[1])
        return out, degrees

    # -- clusters, gaps, jobs ----------------------------------------------------------------------------

    def list_clusters(self, user_id: str) -> list[Cluster]:
        rows = self._read(
            "SELECT id, size, label, centroid, updated_at FROM clusters WHERE user_id = ? ORDER BY id", (user_id,)
        )
        return [
            Cluster(
                id=r[0],
                user_id=user_id,
                size=r[1],
                label=r[2],
                centroid=None if r[3] is None else np.frombuffer(r[3], dtype=np.float32).tolist(),
                updated_at=_parse_ts(r[4]),
            )
            for r in rows
        ]

    def cluster_members(self, user_id: str) -> list[InCluster]:
        rows = self._read(
            "SELECT src, dst, weight FROM edges WHERE user_id = ? AND type = 'InCluster' ORDER BY dst, src",
            (user_id,),
        )
        return [InCluster(memory_id=r[0], cluster_id=r[1], probability=r[2]) for r in rows]

    def replace_clusters(self, user_id: str, clusters: Sequence[Cluster], members: Sequence[InCluster]) -> None:
        now = _ts(datetime.now(UTC))
        with self._tx() as conn:
            conn.execute("DELETE FROM edges WHERE user_id = ? AND type = 'InCluster'", (user_id,))
            conn.execute("DELETE FROM clusters WHERE user_id = ?", (user_id,))
            for c in clusters:
                blob = None if c.centroid is None else np.asarray(c.centroid, dtype=np.float32).tobytes()
                conn.execute(
                    "INSERT INTO clusters(id, user_id, size, label, centroid, updated_at) VALUES (?,?,?,?,?,?)",
                    (c.id, user_id, c.size, c.label, blob, _ts(c.updated_at)),
                )
            conn.executemany(
                "INSERT OR REPLACE INTO edges(user_id, type, src, dst, weight, created_at, updated_at) "
                "SELECT ?, 'InCluster', ?, ?, ?, ?, ? WHERE EXISTS "
                "(SELECT 1 FROM memories WHERE id = ? AND user_id = ?)",
                [(user_id, m.memory_id, m.cluster_id, m.probability, now, now, m.memory_id, user_id) for m in members],
            )

    def upsert_gap(self, gap: Gap) -> None:
        blob = None if gap.embedding is None else np.asarray(gap.embedding, dtype=np.float32).tobytes()
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO gaps(id, user_id, query, count, first_seen, last_seen, embedding) "
                "VALUES (?,?,?,?,?,?,?) ON CONFLICT(id) DO UPDATE SET count = excluded.count, "
                "last_seen = excluded.last_seen, query = excluded.query",
                (gap.id, gap.user_id, gap.query, gap.count, _ts(gap.first_seen), _ts(gap.last_seen), blob),
            )

    def list_gaps(self, user_id: str) -> list[Gap]:
        rows = self._read(
            "SELECT id, query, count, first_seen, last_seen, embedding FROM gaps WHERE user_id = ? "
            "ORDER BY count DESC, last_seen DESC",
            (user_id,),
        )
        return [
            Gap(
                id=r[0],
                user_id=user_id,
                query=r[1],
                count=r[2],
                first_seen=_parse_ts(r[3]),
                last_seen=_parse_ts(r[4]),
                embedding=None if r[5] is None else np.frombuffer(r[5], dtype=np.float32).tolist(),
            )
            for r in rows
        ]

    def record_job(self, run: JobRun) -> None:
        with self._tx() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO job_runs(id, job, user_id, started_at, finished_at, applied, counts) "
                "VALUES (?,?,?,?,?,?,?)",
                (
                    run.id,
                    run.job,
                    run.user_id,
                    _ts(run.started_at),
                    None if run.finished_at is None else _ts(run.finished_at),
                    int(run.applied),
                    json.dumps(run.counts, sort_keys=True, default=str),
                ),
            )

    def list_jobs(self, limit: int = 50) -> list[JobRun]:
        rows = self._read(
            "SELECT id, job, user_id, started_at, finished_at, applied, counts FROM job_runs "
            "ORDER BY started_at DESC LIMIT ?",
            (limit,),
        )
        return [
            JobRun(
                id=r[0],
                job=r[1],
                user_id=r[2],
                started_at=_parse_ts(r[3]),
                finished_at=None if r[4] is None else _parse_ts(r[4]),
                applied=bool(r[5]),
                counts=json.loads(r[6]),
            )
            for r in rows
        ]

    # -- whole store ----------------------------------------------------------------------------------------

    def users(self) -> list[str]:
        return [r[0] for r in self._read("SELECT DISTINCT user_id FROM memories ORDER BY user_id")]

    def stats(self, user_id: str | None = None) -> StoreStats:
        cond, params = ("WHERE user_id = ?", [user_id]) if user_id is not None else ("", [])
        rows = self._read(
            f"SELECT kind, COUNT(*), SUM(active), SUM(archived) FROM memories {cond} GROUP BY kind", params
        )
        st = StoreStats(user_id=user_id)
        for kind, n, active, archived in rows:
            st.by_kind[kind] = n
            st.memories += n
            st.active += active or 0
            st.archived += archived or 0
        st.tags = int(self._read(f"SELECT COUNT(*) FROM tags {cond}", params)[0][0])
        st.clusters = int(self._read(f"SELECT COUNT(*) FROM clusters {cond}", params)[0][0])
        st.gaps = int(self._read(f"SELECT COUNT(*) FROM gaps {cond}", params)[0][0])
        st.edges = {r[0]: r[1] for r in self._read(f"SELECT type, COUNT(*) FROM edges {cond} GROUP BY type", params)}
        st.users = int(self._read(f"SELECT COUNT(DISTINCT user_id) FROM memories {cond}", params)[0][0])
        return st

    def query(self, statement: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        raise UnsupportedOperationError(
            "Cypher needs a graph database: the SQLite store does not run Cypher. Open a Neo4j store "
            "(--store bolt://localhost:7687, see `docker compose up -d`) or FalkorDB (--store falkordb://...)."
        )


def _chunks(items: list[T], size: int) -> Iterator[list[T]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]
