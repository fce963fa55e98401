"""Connections to one SQLite file: the writer, a reader per thread, transactions and busy retries.

One connection writes, every transaction an explicit BEGIN IMMEDIATE behind a lock (one writer per process;
SQLite's file lock and busy timeout order the writers of several processes). Each reading thread gets its own
connection, opened `query_only`: WAL lets readers run beside the writer. `:memory:` has only the writer's
connection (a second one would open another, empty database), so its reads take the writer's lock.
'database is locked/busy' beyond the busy timeout is retried a bounded number of times with exponential
backoff, then raised as `TransientStoreError`; any other SQLite error becomes a `StoreError`.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from memgraph.errors import StoreError, TransientStoreError

T = TypeVar("T")
#: (name, number of arguments, function): an SQL function registered on every connection.
SqlFunction = tuple[str, int, Callable[..., Any]]


def secure_delete(conn: sqlite3.Connection) -> None:
    """Deleted content is overwritten with zeros (erasure, memgraph/jobs/erase.py), on every connection and
    checked: the default is a compile-time option (Debian's build turns it on, python.org's does not), so a test
    on one machine proves nothing about another."""
    conn.execute("PRAGMA secure_delete = ON")
    if int(conn.execute("PRAGMA secure_delete").fetchone()[0]) != 1:
        raise StoreError("this SQLite cannot securely delete (PRAGMA secure_delete stays off): erasure needs it")


class Database:
    """The connections of one store. Thread-safe; `lock` serialises this process's writes."""

    def __init__(
        self,
        target: str,
        *,
        busy_timeout_ms: int,
        retry_attempts: int,
        retry_base_delay: float,
        functions: Sequence[SqlFunction] = (),
    ) -> None:
        self.target = target
        self.in_memory = target == ":memory:"
        self._busy_timeout_ms = busy_timeout_ms
        self._retry_attempts = retry_attempts
        self._retry_base_delay = retry_base_delay
        #: The bounded retries of this store (Settings.store_retry_*), for waits outside `retry` (erase.purge).
        self.retry_policy = (retry_attempts, retry_base_delay)
        self._functions = tuple(functions)
        #: Held for every write transaction (and every :memory: read); taken before any read-structure lock.
        self.lock = threading.RLock()
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        self.closed = False
        self.conn = self._connect()
        if not self.in_memory:
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA synchronous = NORMAL")
        self.conn.execute("PRAGMA foreign_keys = OFF")

    def describe(self) -> str:
        """The store as error messages name it."""
        return "the in-memory SQLite store" if self.in_memory else f"the SQLite store {self.target}"

    def _connect(self, *, query_only: bool = False) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.target, timeout=self._busy_timeout_ms / 1000, check_same_thread=False, isolation_level=None
        )
        conn.row_factory = sqlite3.Row
        for name, nargs, fn in self._functions:
            conn.create_function(name, nargs, fn, deterministic=True)
        conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout_ms)}")
        secure_delete(conn)
        if query_only:
            conn.execute("PRAGMA query_only = 1")
        return conn

    def retry(self, fn: Callable[[], T]) -> T:
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
    def transaction(self, on_commit: Callable[[], None] | None = None) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction on the writer: all or nothing. `on_commit` runs after COMMIT with the
        writer lock still held, so that what mirrors the file in memory applies commits in commit order."""
        with self.lock:
            self.retry(lambda: self.conn.execute("BEGIN IMMEDIATE"))
            try:
                yield self.conn
                self.retry(lambda: self.conn.execute("COMMIT"))
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            if on_commit is not None:
                on_commit()

    def reader(self) -> sqlite3.Connection:
        """This thread's read connection (file stores; `:memory:` reads through `reading()`)."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._connect(query_only=True)
            self._local.conn = conn
            with self._readers_lock:  # not `lock`: a reader may hold a read-structure lock here (lock order)
                self._readers.append(conn)
        return conn

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The connection this thread reads through: its reader, or for `:memory:` the writer's, locked."""
        if self.in_memory:
            with self.lock:
                yield self.conn
        else:
            yield self.reader()

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self.reading() as conn:
            return self.retry(lambda: conn.execute(sql, params).fetchall())

    def close(self) -> None:
        with self.lock:
            if self.closed:
                return
            self.closed = True
            for conn in [*self._readers, self.conn]:
                try:
                    conn.close()
                except sqlite3.Error:
                    pass
