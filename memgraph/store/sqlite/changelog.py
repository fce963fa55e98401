"""The change log: which memories each committed write touched, so that every reader's in-memory read
structures (mirror.py) catch up by re-reading only those, in this process and in others.

One row per (user, memory) a transaction touched: the memory row itself (insert, update, delete, new
embedding) or any edge that starts or ends at it (tags, cluster memberships, links). The rows say *what* to
re-read, never *what changed*: a reader re-reads the memory and its edges from the file, so applying an
entry twice, or applying it after later ones, gives the same state (idempotent).

Written by the store in the same transaction as the change (`record`), just before COMMIT: a rolled-back
write leaves no entry, a committed one always has its entries. Read by `since(pos)`. Trimmed by `trim`, in a
write transaction: entries up to `floor` are deleted and `meta.changelog_floor` records the last deleted
sequence number; a reader whose last position is below the floor missed entries and reloads (correct, only
slower), so trimming never needs to know who reads.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

#: meta key of the highest sequence number trimmed away (0 or absent: nothing trimmed).
FLOOR_KEY = "changelog_floor"


class Changes:
    """What one write transaction touched: (user, memory id) pairs, each once."""

    def __init__(self) -> None:
        self.touched: dict[tuple[str, str], None] = {}

    def touch(self, user_id: str, memory_ids: Iterable[str]) -> None:
        for mid in memory_ids:
            self.touched[(user_id, mid)] = None

    def __bool__(self) -> bool:
        return bool(self.touched)


def record(conn: sqlite3.Connection, changes: Changes) -> None:
    """Append the transaction's entries (call inside the open write transaction, before COMMIT)."""
    if changes:
        conn.executemany("INSERT INTO changelog(user_id, memory_id) VALUES (?, ?)", list(changes.touched))
        changes.touched.clear()


def position(conn: sqlite3.Connection) -> tuple[int, int]:
    """(last sequence number written, floor): one read of two tiny rows. sqlite_sequence holds the last
    AUTOINCREMENT value even when every entry has been trimmed."""
    row = conn.execute(
        "SELECT (SELECT seq FROM sqlite_sequence WHERE name = 'changelog'), "
        "(SELECT value FROM meta WHERE key = ?)",
        (FLOOR_KEY,),
    ).fetchone()
    return int(row[0] or 0), int(row[1] or 0)


def since(conn: sqlite3.Connection, pos: int, upto: int) -> list[tuple[str, str]]:
    """(user, memory id) of the entries after `pos` up to `upto`, oldest first."""
    return [
        (r[0], r[1])
        for r in conn.execute(
            "SELECT user_id, memory_id FROM changelog WHERE seq > ? AND seq <= ? ORDER BY seq", (pos, upto)
        )
    ]


def trim(conn: sqlite3.Connection, keep: int) -> int:
    """Inside a write transaction: delete all but the last `keep` entries once twice that many have piled up
    (so a trim runs about once per `keep` entries, not on every write); returns how many were deleted."""
    last, floor = position(conn)
    if last - floor <= 2 * keep:
        return 0
    new_floor = last - keep
    cur = conn.execute("DELETE FROM changelog WHERE seq <= ?", (new_floor,))
    conn.execute(
        "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (FLOOR_KEY, str(new_floor)),
    )
    return cur.rowcount


def forget_user(conn: sqlite3.Connection, user_id: str) -> int:
    """Erasure: delete a user's entries (memory ids and nothing else, but erased is erased). Call it with the
    vectors epoch bump (`Mirror.mark_rewritten`) in the erasing transaction: readers then reload everything,
    so the entries they would have read are not needed."""
    return conn.execute("DELETE FROM changelog WHERE user_id = ?", (user_id,)).rowcount
