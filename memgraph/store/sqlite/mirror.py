"""In-memory read structures, kept exactly in step with the file: today each user's embeddings as a
normalised float32 matrix, the exact cosine search runs on (loaded on a user's first search).

One place learns of every committed write, and anything added here (a full-text index, the graph as sparse
adjacency arrays) is fed by the same two calls:
- this process's writes: the store records what a transaction changes in a `Changes` while it runs, and
  `Mirror.committed(changes)` applies it after COMMIT, in commit order (the writer lock is still held); a
  rolled-back transaction is never seen;
- everyone else's commits (other processes, and this process's writer as seen from a reader connection):
  every read of the structures first catches up. `PRAGMA data_version` of the reading connection changes
  when another connection commits; inserts are then read incrementally (rowid above the highest loaded,
  idempotent with `committed`), and a write that replaces or deletes existing rows calls `mark_rewritten`
  inside its transaction, which bumps `meta.vectors_epoch`: a reader that sees a new epoch drops the
  structures and reloads them on demand.
A structure that cannot be caught up by rowid (edges live in a WITHOUT ROWID table; updates keep their rowid)
needs the file to say what changed: a change log written in the same transaction as the change (a table
added by a migration), read from the last position seen in `_catch_up`, would replace the epoch's reloads.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np

from memgraph.store.sqlite.connection import Database


def _normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: np.ndarray = (matrix / norms).astype(np.float32, copy=False)
    return out


class UserVectors:
    """One user's embeddings as a normalised float32 matrix with amortised appends."""

    def __init__(self, dim: int, ids: list[str], matrix: np.ndarray, max_rid: int = 0) -> None:
        self.dim = dim
        self.max_rid = max_rid  # highest rowid loaded: another process's inserts are read incrementally
        self.ids = list(ids)
        self.index = {mid: i for i, mid in enumerate(self.ids)}
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


class Changes:
    """What one write transaction changed that the read structures mirror (applied once it commits)."""

    def __init__(self) -> None:
        #: (user, memory id, new embedding or None when removed, rowid or 0 when not an insert)
        self.vectors: list[tuple[str, str, np.ndarray | None, int]] = []

    def vector_set(self, user_id: str, memory_id: str, vector: np.ndarray, rid: int = 0) -> None:
        self.vectors.append((user_id, memory_id, vector, rid))

    def vectors_removed(self, user_id: str, memory_ids: Sequence[str]) -> None:
        self.vectors += [(user_id, mid, None, 0) for mid in memory_ids]


class Mirror:
    """The read structures of one store (see the module docstring). Thread-safe."""

    def __init__(self, db: Database, dim: int) -> None:
        self._db = db
        self.dim = dim
        self._vectors: dict[str, UserVectors] = {}
        self._lock = threading.RLock()  # guards the structures; taken after the writer lock, never before
        self._seen = threading.local()  # PRAGMA data_version last seen by this thread's reading connection
        row = db.conn.execute("SELECT value FROM meta WHERE key = 'vectors_epoch'").fetchone()
        self._epoch: str | None = row[0] if row else None

    def committed(self, changes: Changes) -> None:
        """Mirror this process's committed writes (called by the store after COMMIT, writer lock held)."""
        with self._lock:
            for user_id, mid, vec, rid in changes.vectors:
                cache = self._vectors.get(user_id)
                if cache is None:
                    continue
                if vec is None:
                    cache.remove([mid])
                else:
                    cache.upsert([mid], vec.reshape(1, -1))
                    cache.max_rid = max(cache.max_rid, rid)

    @staticmethod
    def mark_rewritten(conn: sqlite3.Connection) -> None:
        """Called inside a write that replaces or deletes existing embeddings: every reader (other
        processes', this one's) must reload rather than read incrementally."""
        conn.execute(
            "INSERT INTO meta(key, value) VALUES ('vectors_epoch', '1') "
            "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
        )

    @contextmanager
    def vectors(self, user_id: str) -> Iterator[UserVectors]:
        """The user's matrix, caught up with every commit and loaded on first use; valid inside the block."""
        with self._db.reading() as conn, self._lock:
            self._catch_up(conn)
            cache = self._vectors.get(user_id)
            if cache is None:
                cache = self._load(conn, user_id)
                self._vectors[user_id] = cache
            yield cache

    def _load(self, conn: sqlite3.Connection, user_id: str) -> UserVectors:
        rows = conn.execute(
            "SELECT id, embedding, rid FROM memories WHERE user_id = ? AND embedding IS NOT NULL ORDER BY rid",
            (user_id,),
        ).fetchall()
        ids = [r[0] for r in rows]
        max_rid = rows[-1][2] if rows else 0
        if rows:
            matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), self.dim)
        else:
            matrix = np.zeros((0, self.dim), dtype=np.float32)
        return UserVectors(self.dim, ids, matrix, max_rid)

    def _catch_up(self, conn: sqlite3.Connection) -> None:
        """Catch up with commits this connection has not seen yet (caller holds _lock). Inserts are read
        incrementally; a new `vectors_epoch` drops the cached matrices (reloaded on demand)."""
        version = int(conn.execute("PRAGMA data_version").fetchone()[0])
        if version == getattr(self._seen, "data_version", None):
            return
        self._seen.data_version = version
        row = conn.execute("SELECT value FROM meta WHERE key = 'vectors_epoch'").fetchone()
        epoch = row[0] if row else None
        if epoch != self._epoch:
            self._epoch = epoch
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
