"""`SQLiteStore`, the embedded `GraphStore`: opens the file (connection.py) and brings its schema up to date
(migrations.py); reads, vector search on the in-memory read structures (mirror.py), full-text search and
meta here; each write is one transaction whose SQL is in writes.py; `expand`'s neighbour queries are in
graph.py.

Thread-safe: writes go through one connection behind a lock, reads through a connection per thread (WAL lets
them run beside a writer). Safe across processes (WAL + busy retries).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from memgraph.errors import ModelMismatchError, UnsupportedOperationError, ValidationError
from memgraph.models import (
    MEMORY_RELATIONS,
    Cluster,
    Gap,
    HasTag,
    InCluster,
    Link,
    LinkSource,
    Memory,
    Relation,
    StoreStats,
    Tag,
)
from memgraph.store.base import (
    Direction,
    Expansion,
    JobRun,
    MemoryFilter,
    MemoryUpdate,
    WriteBatch,
    applied_key,
    field_readers,
    query_matrix,
)
from memgraph.store.sqlite import graph
from memgraph.store.sqlite.connection import Database
from memgraph.store.sqlite.migrations import migrate
from memgraph.store.sqlite.mirror import Changes, Mirror
from memgraph.store.sqlite.rows import (
    MEMORY_COLUMNS,
    chunks,
    glob_any,
    json_value,
    parse_ts,
    row_to_memory,
    where,
)
from memgraph.store.sqlite.writes import Writes
from memgraph.text import content_tokens

DB_FILE = "memgraph.sqlite3"
#: Most query x memory scores one block product holds (128 MB of float32).
_SCORE_BLOCK = 1 << 25


def _window(k: int) -> int:
    """How many ranked candidates a vector search filters at a time."""
    return max(4 * k, 256)


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
        self.path: Path | None
        if str(path) == ":memory:":
            self.path = None
            target = ":memory:"
        else:
            directory = Path(path).expanduser()
            directory.mkdir(parents=True, exist_ok=True)
            self.path = directory / DB_FILE
            target = str(self.path)
        self._db = Database(
            target,
            busy_timeout_ms=busy_timeout_ms,
            retry_attempts=retry_attempts,
            retry_base_delay=retry_base_delay,
            functions=[("mg_glob_any", 2, glob_any)],
        )
        try:
            migrate(self._db)
            self._mirror = Mirror(self._db, embedding_dim)
            self._changes = Changes()  # what the open write transaction changes (see _tx)
            self._check_dim(embedding_dim)
        except BaseException:
            self._db.close()
            raise

    def _check_dim(self, embedding_dim: int) -> None:
        """A new store records its embedding dimension; an existing one must match it."""
        if self.get_meta("embedding_dim") is None:
            with self._tx():
                if self._get_meta("embedding_dim") is None:
                    self._set_meta("embedding_dim", str(embedding_dim))
        stored_dim = int(self.get_meta("embedding_dim") or embedding_dim)
        if stored_dim != embedding_dim:
            raise ModelMismatchError(
                f"store was built with {stored_dim}-dimensional embeddings, this engine uses {embedding_dim}"
            )

    # -- plumbing ---------------------------------------------------------------------------------------

    @property
    def _conn(self) -> sqlite3.Connection:
        """The writer connection (tests trace its statements)."""
        return self._db.conn

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction: all or nothing; the read structures learn of it only after COMMIT."""
        changes = Changes()
        with self._db.transaction(on_commit=lambda: self._mirror.committed(changes)) as conn:
            self._changes = changes
            yield conn

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return self._db.read(sql, params)

    def close(self) -> None:
        self._db.close()

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

    # -- writes (the SQL is in writes.py) -----------------------------------------------------------------

    #: The writes of one transaction (a subclass may inject faults here: tests/ingest/test_pipeline.py).
    _writes: type[Writes] = Writes

    @contextmanager
    def _write(self) -> Iterator[Writes]:
        with self._tx() as conn:
            yield self._writes(conn, self._changes, self.embedding_dim)

    def write(self, user_id: str, batch: WriteBatch) -> None:
        if batch.embeddings is not None and len(batch.embeddings) != len(batch.memories):
            raise ValidationError("embeddings rows must align with memories")
        with self._write() as w:
            if batch.batch_id is not None:
                key = applied_key(batch.batch_id)
                if w.conn.execute("SELECT 1 FROM meta WHERE key = ?", (key,)).fetchone() is not None:
                    return  # applied before: a batch with an id is applied at most once
                w.conn.execute("INSERT INTO meta(key, value) VALUES (?, ?)", (key, batch.batch_id))
            w.batch(user_id, batch)

    def update_memories(self, user_id: str, updates: Sequence[MemoryUpdate]) -> int:
        with self._write() as w:
            return w.update(user_id, updates)

    def delete_memories(self, user_id: str, ids: Sequence[str]) -> int:
        with self._write() as w:
            return w.delete_memories(user_id, ids)

    def add_tags(self, user_id: str, pairs: Sequence[HasTag]) -> int:
        with self._write() as w:
            return w.add_tags(user_id, pairs)

    def remove_tags(self, user_id: str, pairs: Sequence[HasTag]) -> int:
        with self._write() as w:
            return w.remove_tags(user_id, pairs)

    def upsert_tags(self, user_id: str, tags: Sequence[Tag]) -> int:
        with self._write() as w:
            return w.upsert_tags(user_id, tags)

    def delete_tags(self, user_id: str, names: Sequence[str]) -> int:
        with self._write() as w:
            return w.delete_tags(user_id, names)

    def upsert_links(self, user_id: str, links: Sequence[Link]) -> None:
        with self._write() as w:
            w.upsert_links(user_id, links)

    def delete_links(self, user_id: str, keys: Sequence[tuple[str, str, Relation]]) -> int:
        with self._write() as w:
            return w.delete_links(user_id, keys)

    def set_embeddings(self, user_id: str, ids: Sequence[str], matrix: np.ndarray, model: str) -> int:
        matrix = np.asarray(matrix, dtype=np.float32)
        if matrix.shape != (len(ids), self.embedding_dim):
            raise ValidationError(f"embeddings must be {len(ids)} x {self.embedding_dim}, got {matrix.shape}")
        with self._write() as w:
            return w.set_embeddings(user_id, ids, matrix, model)

    def replace_clusters(self, user_id: str, clusters: Sequence[Cluster], members: Sequence[InCluster]) -> None:
        with self._write() as w:
            w.replace_clusters(user_id, clusters, members)

    def upsert_gap(self, gap: Gap) -> None:
        with self._write() as w:
            w.upsert_gap(gap)

    def record_job(self, run: JobRun) -> None:
        with self._write() as w:
            w.record_job(run)

    # -- reads -------------------------------------------------------------------------------------------
    def _tags_for(self, user_id: str, ids: Sequence[str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for chunk in chunks(list(ids), 500):
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
        return [row_to_memory(r, tags.get(r["id"], []), with_embeddings) for r in rows]

    def get_memories(self, user_id: str, ids: Sequence[str], *, with_embeddings: bool = False) -> list[Memory]:
        found: dict[str, sqlite3.Row] = {}
        cols = f"{MEMORY_COLUMNS}, embedding" if with_embeddings else f"{MEMORY_COLUMNS}, NULL AS embedding"
        for chunk in chunks(list(dict.fromkeys(ids)), 500):
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
        clause, params = where(flt)
        rows = self._read(
            f"SELECT {MEMORY_COLUMNS}, NULL AS embedding FROM memories m WHERE m.user_id = ? AND {clause} "
            "ORDER BY m.created_at DESC, m.id LIMIT ? OFFSET ?",
            [user_id, *params, limit, offset],
        )
        return self._memories_from_rows(user_id, rows, False)

    def memory_fields(
        self, user_id: str, fields: Sequence[str], flt: MemoryFilter | None = None
    ) -> list[dict[str, Any]]:
        readers = field_readers(fields, {datetime: parse_ts, list: json_value, dict: json_value})
        clause, params = where(flt)
        cols = "".join(f", m.{f}" for f, _ in readers)
        rows = self._read(
            f"SELECT m.id{cols} FROM memories m WHERE m.user_id = ? AND {clause} ORDER BY m.created_at DESC, m.id",
            [user_id, *params],
        )
        return [
            {"id": r[0], **{f: read(r[i]) for i, (f, read) in enumerate(readers, 1)}} for r in rows
        ]

    def count_memories(self, user_id: str, flt: MemoryFilter | None = None) -> int:
        clause, params = where(flt)
        rows = self._read(f"SELECT COUNT(*) FROM memories m WHERE m.user_id = ? AND {clause}", [user_id, *params])
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
            for chunk in chunks(list(ids), 400):
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
                    created_at=parse_ts(r["created_at"]),
                    updated_at=parse_ts(r["updated_at"]),
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
        for chunk in chunks(names, 300):
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
    def embeddings(self, user_id: str, flt: MemoryFilter | None = None) -> tuple[list[str], np.ndarray]:
        clause, params = where(flt)
        rows = self._read(
            f"SELECT m.id, m.embedding FROM memories m WHERE m.user_id = ? AND m.embedding IS NOT NULL "
            f"AND {clause} ORDER BY m.rid",
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
        with self._mirror.vectors(user_id) as cache:
            rows, sims = cache.scores(vector)
            keep = sims >= min_similarity
            rows, sims = rows[keep], sims[keep]
            order = np.argsort(-sims, kind="stable")
            ids = cache.ids
        clause, params = where(flt)
        out: list[tuple[str, float]] = []
        # Walk the exact ranking in windows and let SQL apply the filter to each window.
        window = _window(k)
        for start in range(0, len(order), window):
            part = order[start : start + window]
            cand = [ids[rows[i]] for i in part]
            score = {ids[rows[i]]: float(sims[i]) for i in part}
            ok = self._passing(user_id, cand, clause, params)
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
        with self._mirror.vectors(user_id) as cache:
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
        clause, params = where(flt)
        ok = self._passing(user_id, list({mid for r in ranked for mid in r[0]}), clause, params)
        out: list[list[tuple[str, float]]] = []
        for i, (cand_ids, scores, whole) in enumerate(ranked):
            hits = [(mid, sc) for mid, sc in zip(cand_ids, scores, strict=True) if mid in ok][:k]
            if len(hits) < k and not whole:
                hits = self.vector_search(user_id, queries[i], k, min_similarity=min_similarity, flt=flt)
            out.append(hits)
        return out

    def _passing(self, user_id: str, ids: Sequence[str], clause: str, params: Sequence[Any]) -> set[str]:
        """Those of `ids` that are this user's memories and pass the filter."""
        ok: set[str] = set()
        for chunk in chunks(list(ids), 500):
            ok |= {
                r[0]
                for r in self._read(
                    # `+m.user_id`: probe the candidates by id (the unique index) instead of
                    # scanning the user's memories through memories_user.
                    f"SELECT m.id FROM memories m WHERE m.id IN ({','.join('?' * len(chunk))}) "
                    f"AND +m.user_id = ? AND {clause}",
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
        clause, params = where(flt)
        rows = self._read(
            "SELECT m.id, -bm25(memories_fts) AS score FROM memories_fts JOIN memories m ON m.rid = memories_fts.rowid "
            f"WHERE memories_fts MATCH ? AND m.user_id = ? AND {clause} ORDER BY bm25(memories_fts) LIMIT ?",
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
        """Breadth-first, one SQL query per hop for all seeds at once (graph.py); the path bookkeeping is shared
        with the Cypher store (memgraph.store.traverse), so both return the same expansions."""
        return graph.expand(
            self._read, user_id, seeds, max_depth=max_depth, fanout_cap=fanout_cap, weights=weights, flt=flt
        )

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
                updated_at=parse_ts(r[4]),
            )
            for r in rows
        ]

    def cluster_members(self, user_id: str) -> list[InCluster]:
        rows = self._read(
            "SELECT src, dst, weight FROM edges WHERE user_id = ? AND type = 'InCluster' ORDER BY dst, src",
            (user_id,),
        )
        return [InCluster(memory_id=r[0], cluster_id=r[1], probability=r[2]) for r in rows]

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
                first_seen=parse_ts(r[3]),
                last_seen=parse_ts(r[4]),
                embedding=None if r[5] is None else np.frombuffer(r[5], dtype=np.float32).tolist(),
            )
            for r in rows
        ]

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
                started_at=parse_ts(r[3]),
                finished_at=None if r[4] is None else parse_ts(r[4]),
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
