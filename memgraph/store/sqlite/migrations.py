"""The SQLite store's schema and its versions: the schema is what the migrations below build, in order.

A store file records its schema version in `PRAGMA user_version` (the file header: readable without a table
and without a lock) and, for people reading the `meta` table, in `meta.schema_version`. Version 0 is an
empty file. The schema-1 release wrote only `meta.schema_version = '1'` (user_version 0); such a file reads
as version 1. A new store and an old one take the same path: every migration from their version on, so a
fresh file and an upgraded one have the same schema (tests/test_sqlite_migrations.py checks it).

`migrate(db)` runs when a store opens:
- it reads the version without a lock; a store at `SCHEMA_VERSION` opens without writing anything;
- a version above `SCHEMA_VERSION` (written by a newer memgraph) raises `SchemaVersionError`;
- otherwise it takes the write lock (BEGIN IMMEDIATE, with the store's busy retries), reads the version
  again, applies each missing migration in order and records the new version, all in that one
  transaction: a crash or an error leaves the file at its old version. Two processes opening the same old
  store at once: one migrates, the other waits for the lock and then finds nothing left to do.

Adding a migration (version N -> N+1) is two lines and a docstring: write the function, append it.

    def _add_example_index(conn: sqlite3.Connection) -> None:
        '''What changes and why (the query it serves, what was measured, the feature that needs it).'''
        conn.execute("CREATE INDEX example ON memories(user_id, kind)")

    MIGRATIONS = (..., _add_example_index)

`SCHEMA_VERSION` follows from the list. Never edit, reorder or remove a released migration: files in the
field are at every version. A migration runs inside the open transaction, so it must not commit: no
`executescript` (it commits first; `_script` runs a multi-statement script one statement at a time), no
VACUUM, no `PRAGMA journal_mode`. DDL is transactional in SQLite. Keep a migration fast (it holds the write
lock while the store opens) or say in its docstring how long it takes at 100k memories. When a release
changes the schema, add a fixture store written by it under tests/data/stores (see make_v1_store.py).

The idea (an ordered list of small functions, each applied once and recorded) is the one of sqlite-utils'
companion sqlite-migrate; here the record is one integer in the file header, which gives a total order to
compare against the code's and lets a store at the current version open without a write lock.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Sequence

from memgraph.errors import SchemaVersionError, StoreError
from memgraph.store.sqlite.connection import Database

log = logging.getLogger(__name__)

Migration = Callable[[sqlite3.Connection], None]


def _script(conn: sqlite3.Connection, script: str) -> None:
    """Run a multi-statement script inside the current transaction (`executescript` would commit first)."""
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            conn.execute(statement)
            statement = ""
    if statement.strip():
        raise StoreError(f"incomplete SQL statement in a migration: {statement.strip()[:80]!r}")


def _create_v1(conn: sqlite3.Connection) -> None:
    """Version 1, the schema of the first release: `memories` (embedding as a float32 blob) with an FTS5
    index over our own Unicode tokens (`memories_fts`, rowid = memories.rid), `tags`, one typed `edges` table
    indexed both ways (WITHOUT ROWID: the primary key is the row), `clusters`, `gaps`, `job_runs` and `meta`.
    IF NOT EXISTS: that release created these tables before it recorded the version, so a file it left
    between the two (a crash while it opened a new store) reads as version 0 and is completed here."""
    _script(
        conn,
        """
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
""",
    )


def _index_memories_by_user_and_rowid(conn: sqlite3.Connection) -> None:
    """Version 2: an index on memories(user_id), which SQLite keeps as (user_id, rowid).

    The in-memory vectors (mirror.py) catch up with commits they did not make, this process's writer
    included, by `WHERE user_id = ? AND rid > ?`: after a recall's maintenance writes, the next recall runs
    it once per cached user. No version-1 index has rowid right after user_id, so SQLite read every row
    of the user to find the few new ones: 8.7 ms per user at 50k memories, now 0.02 ms (a seek); a vector
    search right after a write went from 38 to 30 ms. Reads of a user's rows in rowid order (the first load
    of the vectors, `embeddings()` for the jobs) come out of it without a sort: 483 -> 231 ms at 50k.
    Query plans of every statement the conformance suite runs were compared before and after: the others
    are unchanged or use this index as a smaller covering one. Measured on the 2-core development machine,
    SQLite 3.40, a store of 2 x 50k memories; building the index there takes 0.1 s (file in page cache)."""
    conn.execute("CREATE INDEX IF NOT EXISTS memories_user_rid ON memories(user_id)")


def _add_change_log(conn: sqlite3.Connection) -> None:
    """Version 3: `changelog`, one row per memory a write transaction touched (the memory itself, its tags,
    cluster memberships or links), written in that transaction (changelog.py).

    The in-memory read structures (mirror.py: vectors, filter columns, the graph as adjacency arrays) catch up
    with other connections' commits by reading the rows after the last sequence number they saw and re-reading
    those memories and their edges. Before it, only inserts could be caught up (by rowid): edges live in a
    WITHOUT ROWID table and updates keep their rowid, so any update or delete made every reader reload the
    user's structures (after each recall's maintenance writes). AUTOINCREMENT: sequence numbers are never
    reused, even after the log is trimmed to empty. Written from Python, not by triggers: a trigger on
    `edges` made inserting 100k tag edges 3x slower (3.6 s -> 11 s), the same rows inserted by one
    executemany cost ~nothing. An existing store's log starts empty: readers of an upgraded file load
    from the tables, as before."""
    _script(
        conn,
        """
CREATE TABLE IF NOT EXISTS changelog (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id TEXT NOT NULL,
    memory_id TEXT NOT NULL
);
""",
    )


def _full_text_from_content(conn: sqlite3.Connection) -> None:
    """Version 4 (the full-text change; it follows the change log of version 3 and is self-contained: it
    touches no table that one adds). Full text ranks the same on every store: terms are Snowball stems, BM25
    runs on each user's own statistics, and the SQLite store finds hits in per-user postings held in memory
    (store/sqlite/fulltext.py says why FTS5 could not do it fast). So:
    - `memories_fts` (FTS5, Porter stems, index-wide statistics) is dropped: nothing reads it, and no index
      segment keeps a deleted memory's text any more (under `secure_delete` its pages are zeroed);
    - `text_changes` logs (user_id, rid) of every insert, content change and delete of a memory, written by
      triggers in the same transaction as the change, whoever writes it: each process's postings replay it;
    - a trigger keeps the last 100,000 rows of the log (fulltext.TEXT_LOG_KEEP; checked every 1,024 rows).
    Nothing is re-indexed here: each process builds its postings from `memories.content` when it first
    searches a user. At 100k memories the migration takes about as long as dropping the FTS5 table (well under
    a second here; secure_delete zeroes its pages)."""
    _script(
        conn,
        """
DROP TABLE IF EXISTS memories_fts;
CREATE TABLE text_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id TEXT NOT NULL,
    rid INTEGER NOT NULL
);
CREATE TRIGGER memories_text_insert AFTER INSERT ON memories BEGIN
    INSERT INTO text_changes(user_id, rid) VALUES (new.user_id, new.rid);
END;
CREATE TRIGGER memories_text_update AFTER UPDATE OF content, user_id ON memories
WHEN old.content IS NOT new.content OR old.user_id IS NOT new.user_id BEGIN
    INSERT INTO text_changes(user_id, rid) VALUES (old.user_id, old.rid);
    INSERT INTO text_changes(user_id, rid) SELECT new.user_id, new.rid WHERE new.user_id IS NOT old.user_id;
END;
CREATE TRIGGER memories_text_delete AFTER DELETE ON memories BEGIN
    INSERT INTO text_changes(user_id, rid) VALUES (old.user_id, old.rid);
END;
CREATE TRIGGER text_changes_trim AFTER INSERT ON text_changes WHEN new.seq % 1024 = 0 BEGIN
    DELETE FROM text_changes WHERE seq <= new.seq - 100000;
END;
""",
    )


#: MIGRATIONS[n] takes a store from version n to n + 1. Append only (see the module docstring).
MIGRATIONS: tuple[Migration, ...] = (
    _create_v1,
    _index_memories_by_user_and_rowid,
    _add_change_log,
    _full_text_from_content,
)
#: The version this code writes and reads; a store above it is refused.
SCHEMA_VERSION = len(MIGRATIONS)


def stored_version(conn: sqlite3.Connection) -> int:
    """The file's schema version: `PRAGMA user_version`, or for a file of the schema-1 release (which left
    user_version at 0) `meta.schema_version`; 0 for an empty file."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version:
        return version
    has_meta = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone()
    if has_meta is None:
        return 0
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    if row is None:
        return 0
    try:
        return int(row[0])
    except ValueError:
        raise StoreError(
            f"meta.schema_version is {row[0]!r}, not a version number: is this a memgraph store?"
        ) from None


def migrate(db: Database, migrations: Sequence[Migration] | None = None) -> tuple[int, int]:
    """Bring the store to the latest version (see the module docstring); returns (version found, version
    now). `migrations` defaults to MIGRATIONS (tests pass their own)."""
    steps = MIGRATIONS if migrations is None else tuple(migrations)
    latest = len(steps)
    found = _check(db, db.retry(lambda: stored_version(db.conn)), latest)
    if found == latest:
        return found, found
    with db.transaction() as conn:
        found = _check(db, stored_version(conn), latest)  # another process may have migrated meanwhile
        for version in range(found, latest):
            step = steps[version]
            try:
                step(conn)
            except sqlite3.Error as exc:
                raise StoreError(
                    f"{db.describe()}: upgrading the schema from version {version} to {version + 1} failed "
                    f"({exc}); the file is unchanged"
                ) from exc
        if found < latest:
            conn.execute(f"PRAGMA user_version = {int(latest)}")
            conn.execute(
                "INSERT INTO meta(key, value) VALUES ('schema_version', ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (str(latest),),
            )
    if found < latest and found > 0:
        log.info("%s: upgraded the schema from version %d to %d", db.describe(), found, latest)
    return found, latest


def _check(db: Database, version: int, latest: int) -> int:
    if version > latest:
        raise SchemaVersionError(
            f"{db.describe()} has schema version {version}, and this memgraph knows versions up to {latest}: "
            "it was written by a newer memgraph. Upgrade memgraph (pip install -U memgraph) to open it; "
            "an older memgraph cannot read it."
        )
    return version
