"""The SQL of every write, run inside one transaction the store opened (`SQLiteStore._write`).

`Writes` is bound to that transaction: `conn` is the writer connection inside it, and `changes` collects every
memory whose row or edges it touches: the store writes them to the change log before COMMIT (changelog.py),
and every reader's in-memory structures re-read exactly those (mirror.py). So each method here must touch
the memories it changes, both ends of a memory-to-memory edge included. A method that raises leaves the
whole transaction to roll back: a batch is written entirely or not at all.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np

from memgraph.errors import ValidationError
from memgraph.models import MEMORY_RELATIONS, Cluster, Gap, HasTag, InCluster, Link, Memory, Relation, Tag
from memgraph.store.base import INCREMENTABLE_FIELDS, UPDATABLE_FIELDS, JobRun, MemoryUpdate, WriteBatch, chunks
from memgraph.store.sqlite.changelog import Changes
from memgraph.store.sqlite.rows import (
    CLAMPED,
    MAX_SQL_VARIABLES,
    MEMORY_COLUMNS,
    MEMORY_EDGE_TYPES,
    db_value,
    ts,
)

# Lookups by a list of ids write `+user_id = ?` (here and in store.py): the unary plus keeps SQLite's planner
# from choosing a user_id index (a scan of all the user's rows per chunk: 13 s of a 30k-memory links run) over
# the unique id index.

class Writes:
    """The writes of one open transaction (see the module docstring)."""

    def __init__(self, conn: sqlite3.Connection, changes: Changes, dim: int) -> None:
        self.conn = conn
        self.changes = changes
        self.dim = dim

    def batch(self, user_id: str, batch: WriteBatch) -> None:
        """Everything one `WriteBatch` holds (the store checked its shape)."""
        mem_tags: list[HasTag] = []
        for i, mem in enumerate(batch.memories):
            if mem.user_id != user_id:
                raise ValidationError("a batch may only hold memories of its own user")
            vec = None if batch.embeddings is None else np.asarray(batch.embeddings[i], dtype=np.float32)
            self.upsert_memory(mem, vec)
            mem_tags += [HasTag(memory_id=mem.id, tag=t) for t in mem.tags]
        if mem_tags:
            self.add_tags(user_id, mem_tags)
        if batch.tags:
            self.add_tags(user_id, batch.tags)
        if batch.links:
            self.upsert_links(user_id, batch.links)
        if batch.updates:
            self.update(user_id, batch.updates)
        if batch.remove_tags:
            self.remove_tags(user_id, batch.remove_tags)
        if batch.delete_links:
            self.delete_links(user_id, batch.delete_links)

    def upsert_memory(self, mem: Memory, vec: np.ndarray | None) -> None:
        if vec is not None and vec.shape != (self.dim,):
            raise ValidationError(f"embedding has shape {vec.shape}, store uses {self.dim}")
        if vec is not None and not np.all(np.isfinite(vec)):
            raise ValidationError("embedding holds NaN or infinite values")
        row = self.conn.execute("SELECT rid, user_id, embedding FROM memories WHERE id = ?", (mem.id,)).fetchone()
        values = [db_value(f, getattr(mem, f)) for f in MEMORY_COLUMNS.split(", ")]
        blob = None if vec is None else vec.astype(np.float32).tobytes()
        if row is None:
            cur = self.conn.execute(
                f"INSERT INTO memories ({MEMORY_COLUMNS}, embedding) "
                f"VALUES ({','.join('?' * (len(values) + 1))})",
                [*values, blob],
            )
            rid = cur.lastrowid
        else:
            if row["user_id"] != mem.user_id:
                raise ValidationError("memory id belongs to another user")
            rid = row["rid"]
            sets = ", ".join(f"{f} = ?" for f in MEMORY_COLUMNS.split(", ")[1:])
            self.conn.execute(f"UPDATE memories SET {sets} WHERE rid = ?", [*values[1:], rid])
            if blob is not None and blob != row["embedding"]:
                self.conn.execute("UPDATE memories SET embedding = ? WHERE rid = ?", (blob, rid))
        self.changes.touch(mem.user_id, (mem.id,))

    def update(self, user_id: str, updates: Sequence[MemoryUpdate]) -> int:
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
        self.changes.touch(user_id, (u.id for u in updates if u.set or u.inc))
        for (set_fields, inc_fields), rounds in groups.items():
            ncols = 1 + len(set_fields) + len(inc_fields)
            parts = [f"{f} = v.column{i + 2}" for i, f in enumerate(set_fields)]
            for j, f in enumerate(inc_fields):
                col = f"v.column{len(set_fields) + j + 2}"
                expr = f"MIN(1.0, MAX(0.0, {f} + {col}))" if f in CLAMPED else f"{f} + {col}"
                parts.append(f"{f} = {expr}")
            per_statement = max(1, (MAX_SQL_VARIABLES - 1) // ncols)
            row_marks = "(" + ",".join("?" * ncols) + ")"
            for batch in rounds:
                for chunk in chunks(batch, per_statement):
                    params: list[Any] = []
                    for upd in chunk:
                        params.append(upd.id)
                        params += [db_value(f, upd.set[f]) for f in set_fields]
                        params += [upd.inc[f] for f in inc_fields]
                    cur = self.conn.execute(
                        f"UPDATE memories SET {', '.join(parts)} "
                        f"FROM (VALUES {','.join([row_marks] * len(chunk))}) AS v "
                        "WHERE memories.id = v.column1 AND memories.user_id = ?",
                        [*params, user_id],
                    )
                    matched += cur.rowcount
        return matched

    def delete_memories(self, user_id: str, ids: Sequence[str]) -> int:
        deleted = 0
        for chunk in chunks(list(dict.fromkeys(ids)), 400):
            marks = ",".join("?" * len(chunk))
            rows = self.conn.execute(
                f"SELECT rid, id FROM memories WHERE +user_id = ? AND id IN ({marks})", [user_id, *chunk]
            ).fetchall()
            if not rows:
                continue
            rids = [r[0] for r in rows]
            found = [r[1] for r in rows]
            rmarks = ",".join("?" * len(rids))
            fmarks = ",".join("?" * len(found))
            self.changes.touch(user_id, found)
            self.changes.touch(user_id, self._linked(user_id, found))
            self.conn.execute(f"DELETE FROM memories WHERE rid IN ({rmarks})", rids)
            self.conn.execute(
                f"DELETE FROM edges WHERE user_id = ? AND (src IN ({fmarks}) "
                f"OR (dst IN ({fmarks}) AND type != 'HasTag'))",
                [user_id, *found, *found],
            )
            deleted += len(found)
        return deleted

    def _linked(self, user_id: str, ids: Sequence[str]) -> set[str]:
        return linked(self.conn, user_id, ids)

    def owned(self, user_id: str, ids: Sequence[str]) -> set[str]:
        """Which of `ids` are memories of `user_id` (one query per chunk, not per id)."""
        owned: set[str] = set()
        for chunk in chunks(sorted(set(ids)), 500):  # sorted: neighbouring index pages
            owned |= {
                r[0]
                for r in self.conn.execute(
                    f"SELECT id FROM memories WHERE +user_id = ? AND id IN ({','.join('?' * len(chunk))})",
                    [user_id, *chunk],
                )
            }
        return owned

    def add_tags(self, user_id: str, pairs: Sequence[HasTag]) -> int:
        owned = self.owned(user_id, [p.memory_id for p in pairs])
        pairs = [p for p in pairs if p.memory_id in owned]
        if not pairs:
            return 0
        now = ts(datetime.now(UTC))
        self.changes.touch(user_id, (p.memory_id for p in pairs))
        self.conn.executemany(
            "INSERT OR IGNORE INTO tags(user_id, name) VALUES (?, ?)",
            [(user_id, n) for n in dict.fromkeys(p.tag for p in pairs)],  # first-use order, not a set's
        )
        cur = self.conn.executemany(
            "INSERT OR IGNORE INTO edges(user_id, type, src, dst, weight, created_at, updated_at) "
            "VALUES (?, 'HasTag', ?, ?, 1.0, ?, ?)",
            [(user_id, p.memory_id, p.tag, now, now) for p in pairs],
        )
        return cur.rowcount

    def remove_tags(self, user_id: str, pairs: Sequence[HasTag]) -> int:
        self.changes.touch(user_id, (p.memory_id for p in pairs))
        cur = self.conn.executemany(
            "DELETE FROM edges WHERE user_id = ? AND type = 'HasTag' AND src = ? AND dst = ?",
            [(user_id, p.memory_id, p.tag) for p in pairs],
        )
        return cur.rowcount

    def upsert_tags(self, user_id: str, tags: Sequence[Tag]) -> int:
        cur = self.conn.executemany(
            "INSERT INTO tags(user_id, name, description) VALUES (?, ?, ?) ON CONFLICT(user_id, name) "
            "DO UPDATE SET description = COALESCE(excluded.description, tags.description)",
            [(user_id, t.name, t.description) for t in tags],
        )
        return cur.rowcount

    def delete_tags(self, user_id: str, names: Sequence[str]) -> int:
        for chunk in chunks(list(names), 400):
            self.changes.touch(
                user_id,
                (
                    r[0]
                    for r in self.conn.execute(
                        f"SELECT src FROM edges INDEXED BY edges_in WHERE user_id = ? AND type = 'HasTag' "
                        f"AND dst IN ({','.join('?' * len(chunk))})",
                        [user_id, *chunk],
                    )
                ),
            )
        self.conn.executemany(
            "DELETE FROM edges WHERE user_id = ? AND type = 'HasTag' AND dst = ?",
            [(user_id, n) for n in names],
        )
        cur = self.conn.executemany(
            "DELETE FROM tags WHERE user_id = ? AND name = ?", [(user_id, n) for n in names]
        )
        return cur.rowcount

    def upsert_links(self, user_id: str, links: Sequence[Link]) -> None:
        """Upsert edges after one ownership check of the distinct endpoints (inside this transaction, so it
        cannot go stale); an endpoint that is not the user's refuses the whole batch. Rows go out in key order
        (stable, so of two rows for one edge the later still wins): a links job's 100k edges then fill index
        pages in sequence instead of dirtying pages all over the edge indexes (2x faster at 100k)."""
        for link in links:
            if link.relation not in MEMORY_RELATIONS:
                raise ValidationError(f"{link.relation.value} does not join two memories")
        if not links:
            return
        owned = self.owned(user_id, [x for ln in links for x in (ln.src, ln.dst)])
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
                    ts(link.created_at),
                    ts(link.updated_at),
                )
                for link in links
            ),
            key=lambda r: (r[1], r[2], r[3]),
        )
        self.changes.touch(user_id, (x for ln in links for x in (ln.src, ln.dst)))
        self.conn.executemany(
            "INSERT INTO edges(user_id, type, src, dst, weight, source, reason, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(user_id, type, src, dst) DO UPDATE SET "
            "weight = excluded.weight, source = excluded.source, reason = excluded.reason, "
            "updated_at = excluded.updated_at",
            rows,
        )

    def delete_links(self, user_id: str, keys: Sequence[tuple[str, str, Relation]]) -> int:
        self.changes.touch(user_id, (x for src, dst, _ in keys for x in (src, dst)))
        cur = self.conn.executemany(
            "DELETE FROM edges WHERE user_id = ? AND type = ? AND src = ? AND dst = ?",
            [(user_id, Relation.parse(rel).value, src, dst) for src, dst, rel in keys],
        )
        return cur.rowcount

    def set_embeddings(self, user_id: str, ids: Sequence[str], matrix: np.ndarray, model: str) -> int:
        """Embeddings of existing memories (the store checked the matrix's shape)."""
        cur = self.conn.executemany(
            "UPDATE memories SET embedding = ?, embedding_model = ? WHERE id = ? AND user_id = ?",
            [(row.tobytes(), model, mid, user_id) for mid, row in zip(ids, matrix, strict=True)],
        )
        self.changes.touch(user_id, ids)
        return int(cur.rowcount)

    def replace_clusters(self, user_id: str, clusters: Sequence[Cluster], members: Sequence[InCluster]) -> None:
        now = ts(datetime.now(UTC))
        self.changes.touch(
            user_id,
            (r[0] for r in self.conn.execute(
                "SELECT src FROM edges WHERE user_id = ? AND type = 'InCluster'", (user_id,)
            )),
        )
        self.changes.touch(user_id, (m.memory_id for m in members))
        self.conn.execute("DELETE FROM edges WHERE user_id = ? AND type = 'InCluster'", (user_id,))
        self.conn.execute("DELETE FROM clusters WHERE user_id = ?", (user_id,))
        for c in clusters:
            blob = None if c.centroid is None else np.asarray(c.centroid, dtype=np.float32).tobytes()
            self.conn.execute(
                "INSERT INTO clusters(id, user_id, size, label, centroid, updated_at) VALUES (?,?,?,?,?,?)",
                (c.id, user_id, c.size, c.label, blob, ts(c.updated_at)),
            )
        self.conn.executemany(
            "INSERT OR REPLACE INTO edges(user_id, type, src, dst, weight, created_at, updated_at) "
            "SELECT ?, 'InCluster', ?, ?, ?, ?, ? WHERE EXISTS "
            "(SELECT 1 FROM memories WHERE id = ? AND user_id = ?)",
            [(user_id, m.memory_id, m.cluster_id, m.probability, now, now, m.memory_id, user_id) for m in members],
        )

    def upsert_gap(self, gap: Gap) -> None:
        blob = None if gap.embedding is None else np.asarray(gap.embedding, dtype=np.float32).tobytes()
        self.conn.execute(
            "INSERT INTO gaps(id, user_id, query, count, first_seen, last_seen, embedding) "
            "VALUES (?,?,?,?,?,?,?) ON CONFLICT(id) DO UPDATE SET count = excluded.count, "
            "last_seen = excluded.last_seen, query = excluded.query",
            (gap.id, gap.user_id, gap.query, gap.count, ts(gap.first_seen), ts(gap.last_seen), blob),
        )

    def record_job(self, run: JobRun) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO job_runs(id, job, user_id, started_at, finished_at, applied, counts) "
            "VALUES (?,?,?,?,?,?,?)",
            (
                run.id,
                run.job,
                run.user_id,
                ts(run.started_at),
                None if run.finished_at is None else ts(run.finished_at),
                int(run.applied),
                json.dumps(run.counts, sort_keys=True, default=str),
            ),
        )


def linked(conn: sqlite3.Connection, user_id: str, ids: Sequence[str]) -> set[str]:
    """The memories at the other end of memory-to-memory edges of `ids` (their adjacency changes too)."""
    out: set[str] = set()
    for chunk in chunks(list(ids), 400):
        marks = ",".join("?" * len(chunk))
        for r in conn.execute(
            f"SELECT dst FROM edges INDEXED BY edges_src WHERE user_id = ? AND type IN ({MEMORY_EDGE_TYPES}) "
            f"AND src IN ({marks}) UNION SELECT src FROM edges INDEXED BY edges_dst WHERE user_id = ? "
            f"AND type IN ({MEMORY_EDGE_TYPES}) AND dst IN ({marks})",
            [user_id, *chunk, user_id, *chunk],
        ):
            out.add(r[0])
    return out
