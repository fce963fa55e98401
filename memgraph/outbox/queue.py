"""`Outbox`: the durable queue of calls a graph server could not take, one SQLite file per server target.

Why SQLite: a committed append is durable (WAL with `synchronous=FULL` fsyncs the log on every commit), a
kill -9 in the middle of an append leaves the file as it was before it, and several processes can append to
the same file at once (SQLite's file locks). One row per queued call, in commit order (`seq`): replay applies
them in that order. A row leaves the queue only in the transaction that logs its outcome, so every entry is
either pending, set aside (refused), or logged as done.

The file holds memory content (already secret-filtered), so it is created readable by its owner only.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from memgraph.errors import OutboxFullError, StoreError
from memgraph.outbox.ops import OP_ADAPTER, End, EraseOp, LinkOp, TagOp, UpdateOp, WriteOp, touched

try:  # the cross-process replay lock; where fcntl is missing, replay is serialised within the process only
    import fcntl
except ImportError:  # pragma: no cover - not on Linux/macOS
    fcntl = None  # type: ignore[assignment]

SCHEMA_VERSION = "1"
AnyOp = WriteOp | UpdateOp | LinkOp | TagOp | EraseOp

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL,
    op TEXT NOT NULL,
    payload TEXT NOT NULL,
    queued_at TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'refused')),
    error TEXT
);
CREATE INDEX IF NOT EXISTS entries_user ON entries (user_id, state);
CREATE TABLE IF NOT EXISTS touches (
    entry_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    memory_id TEXT NOT NULL,
    item INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS touches_memory ON touches (user_id, memory_id);
CREATE INDEX IF NOT EXISTS touches_entry ON touches (entry_id);
CREATE TABLE IF NOT EXISTS log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    entry_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    op TEXT NOT NULL,
    outcome TEXT NOT NULL,
    detail TEXT NOT NULL,
    queued_at TEXT NOT NULL,
    at TEXT NOT NULL
);
"""


def _now() -> str:
    return datetime.now(UTC).isoformat()


class Entry(BaseModel):
    """One queued call."""

    seq: int
    id: str  # also the WriteBatch.batch_id replay sends: the server applies it at most once
    user_id: str
    op: AnyOp = Field(discriminator="op")
    queued_at: datetime
    state: str = "pending"
    error: str | None = None


class LogRow(BaseModel):
    """What happened to an entry that left the queue (or was set aside)."""

    entry_id: str
    user_id: str
    op: str
    outcome: str  # applied | already applied | refused | dropped | erased
    detail: dict[str, Any] = Field(default_factory=dict)
    queued_at: datetime
    at: datetime


class Outbox:
    """The queue file of one server target. Thread-safe (one connection behind a lock); process-safe (SQLite
    locking for the data, an advisory file lock for the replayer)."""

    def __init__(self, path: Path, *, max_entries: int, log_keep: int) -> None:
        self.path = path
        self.max_entries = max_entries
        self.log_keep = log_keep
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not path.exists():
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        self._lock = threading.RLock()
        self._replaying = threading.Lock()
        self._applying = threading.RLock()
        self._conn = sqlite3.connect(path, timeout=30.0, isolation_level=None, check_same_thread=False)
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=FULL")  # every commit fsyncs: an acknowledged entry survives
        self._conn.execute("PRAGMA secure_delete=ON")  # removed entries are overwritten, not left in free pages
        with self._lock:
            self._conn.executescript(_SCHEMA)
            row = self._conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            if row is None:
                self._conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (SCHEMA_VERSION,))
            elif row[0] != SCHEMA_VERSION:
                raise StoreError(f"outbox {path} has schema version {row[0]}, this memgraph reads "
                                 f"{SCHEMA_VERSION}: replay it with the memgraph that wrote it")

    # -- plumbing ---------------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken at once (BEGIN IMMEDIATE) so concurrent writers queue on the lock."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # -- append -----------------------------------------------------------------------------------------------

    def append(self, user_id: str, op: AnyOp) -> Entry:
        """Queue one call durably: when this returns, the entry is on disk (fsync) and will be replayed."""
        entry_id = uuid.uuid4().hex
        payload = op.model_dump_json()
        queued_at = _now()
        with self._tx() as c:
            (n,) = c.execute("SELECT count(*) FROM entries WHERE state = 'pending'").fetchone()
            if n >= self.max_entries:
                raise OutboxFullError(
                    f"the graph server is unreachable and its outbox already holds {n} queued calls "
                    f"(outbox_max_entries); nothing was queued: {self.path}"
                )
            cur = c.execute(
                "INSERT INTO entries (id, user_id, op, payload, queued_at) VALUES (?, ?, ?, ?, ?)",
                (entry_id, user_id, op.op, payload, queued_at),
            )
            c.executemany(
                "INSERT INTO touches (entry_id, user_id, memory_id, item) VALUES (?, ?, ?, ?)",
                [(entry_id, user_id, mid, item) for mid, item in touched(op, user_id)],
            )
            seq = cur.lastrowid
        assert seq is not None
        return Entry(seq=seq, id=entry_id, user_id=user_id, op=op, queued_at=datetime.fromisoformat(queued_at))

    # -- reads ------------------------------------------------------------------------------------------------

    @staticmethod
    def _entry(row: sqlite3.Row) -> Entry:
        return Entry(
            seq=row["seq"],
            id=row["id"],
            user_id=row["user_id"],
            op=OP_ADAPTER.validate_json(row["payload"]),
            queued_at=datetime.fromisoformat(row["queued_at"]),
            state=row["state"],
            error=row["error"],
        )

    def pending(self, user_id: str | None = None) -> int:
        """Entries waiting to be replayed (of one user, or all)."""
        if user_id is None:
            rows = self._read("SELECT count(*) FROM entries WHERE state = 'pending'")
        else:
            rows = self._read("SELECT count(*) FROM entries WHERE user_id = ? AND state = 'pending'", (user_id,))
        return int(rows[0][0])

    def head(self) -> Entry | None:
        """The oldest pending entry: the next one to replay."""
        rows = self._read("SELECT * FROM entries WHERE state = 'pending' ORDER BY seq LIMIT 1")
        return self._entry(rows[0]) if rows else None

    def entries(self, *, state: str | None = None, limit: int = -1) -> list[Entry]:
        """Entries in queue order (of one state, or all); `limit` -1: all."""
        rows = self._read(
            "SELECT * FROM entries WHERE (?1 IS NULL OR state = ?1) ORDER BY seq LIMIT ?2", (state, int(limit))
        )
        return [self._entry(r) for r in rows]

    def touching(self, user_id: str, memory_id: str) -> list[Entry]:
        """Pending entries that write this memory, in queue order."""
        rows = self._read(
            "SELECT DISTINCT e.* FROM touches t JOIN entries e ON e.id = t.entry_id "
            "WHERE t.user_id = ? AND t.memory_id = ? AND e.state = 'pending' ORDER BY e.seq",
            (user_id, memory_id),
        )
        return [self._entry(r) for r in rows]

    def counts(self) -> dict[str, dict[str, int]]:
        """{state: {user_id: entries}}."""
        out: dict[str, dict[str, int]] = {}
        for r in self._read("SELECT state, user_id, count(*) AS n FROM entries GROUP BY state, user_id"):
            out.setdefault(r["state"], {})[r["user_id"]] = int(r["n"])
        return out

    def oldest(self) -> datetime | None:
        rows = self._read("SELECT min(queued_at) FROM entries WHERE state = 'pending'")
        return datetime.fromisoformat(rows[0][0]) if rows and rows[0][0] else None

    def log(self, limit: int = 20) -> list[LogRow]:
        rows = self._read("SELECT * FROM log ORDER BY seq DESC LIMIT ?", (int(limit),))
        return [
            LogRow(entry_id=r["entry_id"], user_id=r["user_id"], op=r["op"], outcome=r["outcome"],
                   detail=json.loads(r["detail"]), queued_at=datetime.fromisoformat(r["queued_at"]),
                   at=datetime.fromisoformat(r["at"]))
            for r in rows
        ]

    # -- leaving the queue ------------------------------------------------------------------------------------

    def _log(self, c: sqlite3.Connection, entry: Entry, outcome: str, detail: dict[str, Any]) -> None:
        c.execute(
            "INSERT INTO log (entry_id, user_id, op, outcome, detail, queued_at, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (entry.id, entry.user_id, entry.op.op, outcome, json.dumps(detail, default=str),
             entry.queued_at.isoformat(), _now()),
        )
        c.execute("DELETE FROM log WHERE seq <= (SELECT max(seq) FROM log) - ?", (self.log_keep,))

    def done(self, entry: Entry, outcome: str, detail: dict[str, Any]) -> None:
        """The entry was applied (or found applied): it leaves the queue in the transaction that logs it."""
        with self._tx() as c:
            c.execute("DELETE FROM entries WHERE id = ?", (entry.id,))
            c.execute("DELETE FROM touches WHERE entry_id = ?", (entry.id,))
            self._log(c, entry, outcome, detail)

    def refuse(self, entry: Entry, error: str, detail: dict[str, Any]) -> None:
        """The server refused the entry for good (e.g. a link to a memory that does not exist): it is set aside,
        kept for `memgraph outbox status`, and replay goes on with the next one."""
        with self._tx() as c:
            c.execute("UPDATE entries SET state = 'refused', error = ? WHERE id = ?", (error, entry.id))
            c.execute("DELETE FROM touches WHERE entry_id = ?", (entry.id,))
            self._log(c, entry, "refused", {**detail, "error": error})

    def drop(self, *, user_id: str | None = None, refused_only: bool = False) -> int:
        """Remove entries without replaying them (`memgraph outbox drop --yes`); returns how many."""
        with self._tx() as c:
            rows = c.execute(
                "SELECT * FROM entries WHERE (?1 IS NULL OR user_id = ?1) AND (?2 = 0 OR state = 'refused')",
                (user_id, int(refused_only)),
            ).fetchall()
            for r in rows:
                self._log(c, self._entry(r), "dropped", {})
                c.execute("DELETE FROM touches WHERE entry_id = ?", (r["id"],))
                c.execute("DELETE FROM entries WHERE id = ?", (r["id"],))
        return len(rows)

    def erase(self, user_id: str, memory_ids: list[str] | None) -> int:
        """Remove what is queued of these memories (None: everything queued for the user, and the user's log
        rows): queued items leave their write (an entry left empty goes), and forget/restore/feedback/tag/link
        entries on them go. Returns the items and entries removed. An erasure never waits for replay; the
        removed bytes are overwritten (secure_delete) and the write-ahead log emptied, so the text is gone from
        the files too."""
        with self.applying(), self._tx() as c:
            removed = self._erase(c, user_id, memory_ids)
        self._truncate_wal()
        return removed

    def _erase(self, c: sqlite3.Connection, user_id: str, memory_ids: list[str] | None) -> int:
        removed = 0
        if memory_ids is None:
            (removed,) = c.execute("SELECT count(*) FROM entries WHERE user_id = ?", (user_id,)).fetchone()
            c.execute("DELETE FROM touches WHERE user_id = ?", (user_id,))
            c.execute("DELETE FROM entries WHERE user_id = ?", (user_id,))
            c.execute("DELETE FROM log WHERE user_id = ?", (user_id,))
            return int(removed)
        wanted = set(memory_ids)
        rows = c.execute(
            "SELECT DISTINCT e.* FROM touches t JOIN entries e ON e.id = t.entry_id "
            "WHERE t.user_id = ? AND t.memory_id IN (SELECT value FROM json_each(?))",
            (user_id, json.dumps(sorted(wanted))),
        ).fetchall()
        for r in rows:
            entry = self._entry(r)
            op = entry.op
            if isinstance(op, WriteOp):
                kept = [i for i, mid in enumerate(op.memory_ids(user_id)) if mid not in wanted]
                removed += len(op.items) - len(kept)
                if kept:
                    self._rewrite(c, entry, _without_items(op, kept))
                    continue
            elif isinstance(op, EraseOp):
                continue
            else:
                removed += 1
            c.execute("DELETE FROM touches WHERE entry_id = ?", (entry.id,))
            c.execute("DELETE FROM entries WHERE id = ?", (entry.id,))
        return removed

    def _truncate_wal(self) -> None:
        """Copy the write-ahead log into the file and empty it (another process reading it can delay that: a
        few tries, then the next checkpoint finishes the job)."""
        for _ in range(20):
            with self._lock:
                busy = self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            if not busy:
                return
            time.sleep(0.05)

    def _rewrite(self, c: sqlite3.Connection, entry: Entry, op: WriteOp) -> None:
        c.execute("UPDATE entries SET payload = ? WHERE id = ?", (op.model_dump_json(), entry.id))
        c.execute("DELETE FROM touches WHERE entry_id = ?", (entry.id,))
        c.executemany(
            "INSERT INTO touches (entry_id, user_id, memory_id, item) VALUES (?, ?, ?, ?)",
            [(entry.id, entry.user_id, mid, item) for mid, item in touched(op, entry.user_id)],
        )

    # -- the replay lock --------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def replay_lock(self, *, wait: bool = False) -> Iterator[bool]:
        """Yields True when this caller may replay (no other thread or process does), else False at once
        (`wait`: first wait for another thread of this process to finish its pass). The cross-process part is
        an advisory lock on `<file>.lock`, released by the OS when a process dies."""
        if not self._replaying.acquire(blocking=wait):
            yield False
            return
        try:
            if fcntl is None:
                yield True
                return
            fd = os.open(self.path.with_name(self.path.name + ".lock"), os.O_CREAT | os.O_RDWR, 0o600)
            try:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    yield False
                    return
                try:
                    yield True
                finally:
                    fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)
        finally:
            self._replaying.release()

    @contextlib.contextmanager
    def applying(self) -> Iterator[None]:
        """Held while one entry is applied, and by an erasure: an erasure waits for the entry in flight (in
        any process) and the replayer then reads the queue as the erasure left it, so an erased memory is
        never written after its erasure. An advisory lock on `<file>.apply.lock`, as `replay_lock`."""
        with self._applying:
            if fcntl is None:
                yield
                return
            fd = os.open(self.path.with_name(self.path.name + ".apply.lock"), os.O_CREAT | os.O_RDWR, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                try:
                    yield
                finally:
                    fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)


def _without_items(op: WriteOp, kept: list[int]) -> WriteOp:
    """The write with only the `kept` items (indexes into op.items); links to a removed item go too."""
    new_index = {old: new for new, old in enumerate(kept)}

    def moved(end: End) -> End | None:
        if end.item is None:
            return end
        return End(item=new_index[end.item]) if end.item in new_index else None

    links = []
    for link in op.links:
        src, dst = moved(link.src), moved(link.dst)
        if src is not None and dst is not None:
            links.append(link.model_copy(update={"src": src, "dst": dst}))
    return op.model_copy(update={"items": [op.items[i] for i in kept], "links": links})
