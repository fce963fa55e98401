"""Erasure on SQLite: the deletes (inside the store's write transaction) and the purge that makes the deleted
bytes unrecoverable from the files.

What keeps deleted text in a SQLite file, and what removes it (a byte scan of every file after close finds
none of an erased text, its words or their stems: tests/erasure/test_byte_scan.py):
- the rows' own pages: `PRAGMA secure_delete` (set and checked on every connection, connection.py) zeroes
  deleted cells and freed pages;
- the full-text index holds no text on disk: it is built in memory from the rows (fulltext.py), and its
  `text_changes` log and the read structures' `changelog` hold row numbers and memory ids only;
- the write-ahead log: it holds the page images written before the delete until a checkpoint copies them back,
  and the file keeps them after that; `purge` runs `wal_checkpoint(TRUNCATE)` and checks its busy result (a
  reader in another process can hold it back), retrying a bounded number of times.
The in-memory read structures of every process learn of it through the store's usual signals: erasing
memories writes change-log entries for them and the memories linked to them (changelog.py), like any delete;
erasing a user deletes the user's change-log entries and bumps `meta.vectors_epoch` (`Mirror.mark_rewritten`,
inside the transaction), so every process reloads before its next read.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

from memgraph.store.base import chunks
from memgraph.store.sqlite import changelog
from memgraph.store.sqlite.changelog import Changes
from memgraph.store.sqlite.connection import Database
from memgraph.store.sqlite.mirror import Mirror
from memgraph.store.sqlite.writes import linked

log = logging.getLogger(__name__)


def _marks(items: Sequence[object]) -> str:
    return ",".join("?" * len(items))


def erase_memories(conn: sqlite3.Connection, changes: Changes, user_id: str, ids: Sequence[str]) -> dict[str, int]:
    """Delete the memories and what only they held (see GraphStore.erase_memories), inside the open transaction."""
    counts = {"memories": 0, "tags": 0, "clusters": 0}
    found: list[str] = []
    tags: set[str] = set()
    clusters: set[str] = set()
    for chunk in chunks(list(dict.fromkeys(ids)), 400):
        rows = conn.execute(
            f"SELECT rid, id FROM memories WHERE +user_id = ? AND id IN ({_marks(chunk)})", [user_id, *chunk]
        ).fetchall()
        if not rows:
            continue
        rids, mids = [r[0] for r in rows], [r[1] for r in rows]
        changes.touch(user_id, mids)
        changes.touch(user_id, linked(conn, user_id, mids))  # before their edges go
        for kind, dst in conn.execute(
            f"SELECT type, dst FROM edges WHERE user_id = ? AND type IN ('HasTag', 'InCluster') "
            f"AND src IN ({_marks(mids)})",
            [user_id, *mids],
        ):
            (tags if kind == "HasTag" else clusters).add(dst)
        conn.execute(f"DELETE FROM memories WHERE rid IN ({_marks(rids)})", rids)
        conn.execute(
            f"DELETE FROM edges WHERE user_id = ? AND (src IN ({_marks(mids)}) "
            f"OR (dst IN ({_marks(mids)}) AND type NOT IN ('HasTag', 'InCluster')))",
            [user_id, *mids, *mids],
        )
        found += mids
    for chunk in chunks(sorted(clusters), 400):
        conn.execute(
            f"DELETE FROM edges WHERE user_id = ? AND type = 'InCluster' AND dst IN ({_marks(chunk)})",
            [user_id, *chunk],
        )
        counts["clusters"] += conn.execute(
            f"DELETE FROM clusters WHERE user_id = ? AND id IN ({_marks(chunk)})", [user_id, *chunk]
        ).rowcount
    for chunk in chunks(sorted(tags), 400):
        counts["tags"] += conn.execute(
            f"DELETE FROM tags WHERE user_id = ? AND name IN ({_marks(chunk)}) AND NOT EXISTS "
            "(SELECT 1 FROM edges e WHERE e.user_id = tags.user_id AND e.type = 'HasTag' AND e.dst = tags.name)",
            [user_id, *chunk],
        ).rowcount
    counts["memories"] = len(found)
    return counts


def erase_user(conn: sqlite3.Connection, changes: Changes, user_id: str) -> dict[str, int]:
    """Delete everything stored under `user_id`, inside the open transaction."""
    ids = [r[0] for r in conn.execute("SELECT id FROM memories WHERE user_id = ?", (user_id,))]
    counts = {"memories": conn.execute("DELETE FROM memories WHERE user_id = ?", (user_id,)).rowcount}
    for table in ("tags", "clusters", "gaps", "edges"):
        counts[table] = conn.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,)).rowcount
    counts["job_runs"] = conn.execute("DELETE FROM job_runs WHERE user_id = ?", (user_id,)).rowcount
    if ids:
        changelog.forget_user(conn, user_id)
        Mirror.mark_rewritten(conn)
    return counts


def purge(db: Database) -> list[str]:
    """Truncate the write-ahead log (see the module docstring). Returns warnings for what could not be done."""
    if db.in_memory:
        return []
    attempts, delay = db.retry_policy
    return checkpoint(db.conn, db.lock, what=db.describe(), attempts=attempts, delay=delay)


def checkpoint(
    conn: sqlite3.Connection, lock: AbstractContextManager[Any], *, what: str, attempts: int, delay: float
) -> list[str]:
    """`wal_checkpoint(TRUNCATE)` until it reports no busy reader, with the store's bounded retries
    (Settings.store_retry_attempts, doubling the pause); a warning when it never did: the write-ahead log then
    still holds deleted pages until the next full checkpoint."""
    for _ in range(max(1, attempts)):
        with lock:
            busy, _log, _done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if not busy:
            return []
        time.sleep(delay)
        delay *= 2
    message = (
        f"{what}: the write-ahead log could not be truncated (another connection kept reading); erased bytes "
        "stay in its -wal file until the next checkpoint: run `memgraph erase` again when it is idle"
    )
    log.warning(message)
    return [message]
