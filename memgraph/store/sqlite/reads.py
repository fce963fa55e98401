"""The SQLite store's reads that are not searches: memories by id or filter, their fields, links, tags,
clusters, gaps, job runs, users and counts. Plain SQL over the reader connection (`_read`), as `SQLReads`, a
base class of `SQLiteStore` (store.py). Searches (vector, full text) and the cascade run on the in-memory
structures and are in store.py.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np

from memgraph.errors import UnsupportedOperationError
from memgraph.models import (
    MEMORY_RELATIONS,
    Cluster,
    Gap,
    InCluster,
    Link,
    LinkSource,
    Memory,
    Relation,
    StoreStats,
    Tag,
)
from memgraph.store.base import Direction, JobRun, MemoryFilter, StoredCentroid, chunks, field_readers
from memgraph.store.sqlite.rows import MEMORY_COLUMNS, json_value, parse_ts, row_to_memory, where


def _memories(flt: MemoryFilter | None) -> str:
    """The memories table for a filtered read. A session's memories are found by `memories_session`: without
    ANALYZE statistics the planner walks `memories_user_created` for the ORDER BY instead and reads every memory
    of the user to find one session's (measured: 25 ms per call at 10k memories, on every write that carries a
    session id, where the session index answers in well under a millisecond)."""
    if flt is not None and flt.session_id is not None:
        return "memories m INDEXED BY memories_session"
    return "memories m"


class SQLReads:
    """Reads by SQL; the store provides `_read` (its reader) and `embedding_dim`."""

    embedding_dim: int

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        raise NotImplementedError

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
            f"SELECT {MEMORY_COLUMNS}, NULL AS embedding FROM {_memories(flt)} WHERE m.user_id = ? AND {clause} "
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
            f"SELECT m.id{cols} FROM {_memories(flt)} WHERE m.user_id = ? AND {clause} "
            "ORDER BY m.created_at DESC, m.id",
            [user_id, *params],
        )
        return [
            {"id": r[0], **{f: read(r[i]) for i, (f, read) in enumerate(readers, 1)}} for r in rows
        ]

    def count_memories(self, user_id: str, flt: MemoryFilter | None = None) -> int:
        clause, params = where(flt)
        rows = self._read(
            f"SELECT COUNT(*) FROM {_memories(flt)} WHERE m.user_id = ? AND {clause}", [user_id, *params]
        )
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

    def stored_centroid(self, user_id: str) -> StoredCentroid | None:
        return None  # the vectors are local: the novelty centroid reads them (ingest/importance.py)

    def store_centroid(self, user_id: str, centroid: StoredCentroid) -> None:
        return None

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
