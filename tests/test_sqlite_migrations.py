"""The SQLite store's schema versions: a store written by an older release opens, reads back exactly what
that release read, and is upgraded; migrations are atomic, run once across processes, and a store newer
than the code is refused."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import math
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from memgraph.embed import CachedEmbedder
from memgraph.errors import SchemaVersionError, StoreError
from memgraph.store.sqlite import SCHEMA_VERSION, SQLiteStore, migrations
from memgraph.store.sqlite.connection import Database

STORES = Path(__file__).parent / "data" / "stores"
DB_FILE = "memgraph.sqlite3"


def _maker() -> ModuleType:
    """tests/data/stores/make_v1_store.py: its `snapshot` is what the old release read back."""
    spec = importlib.util.spec_from_file_location("make_v1_store", STORES / "make_v1_store.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: Scores that version 4 changed on purpose: full text ranks by BM25 on the user's own statistics with
#: Snowball stems (the release ranked with FTS5's index-wide statistics and Porter stems), so full-text scores,
#: and the recall scores fused from them, differ; the ids found and their order must not.
RESCORED = re.compile(
    r"\.text_search\[\d+\]\[\d+\]\[1\]$|\.search\[\d+\]\[\d+\]\[3\]$"
    r"|\.trace\[\d+\]\.(text_score|cascade_score|final_score)$"
)


def assert_same(got: Any, want: Any, path: str = "$") -> None:
    """Deep equality with a readable path; floats within 1e-5 (the query embeddings of another machine's
    BLAS may differ in the last bits; everything read from the file is exact), except the RESCORED ones."""
    if isinstance(want, float) and isinstance(got, int | float):
        if RESCORED.search(path):
            assert got >= 0, f"{path}: {got}"
            return
        assert math.isclose(got, want, rel_tol=1e-5, abs_tol=1e-6), f"{path}: {got} != {want}"
        return
    assert type(got) is type(want), f"{path}: {type(got).__name__} {got!r} != {type(want).__name__} {want!r}"
    if isinstance(want, dict):
        assert sorted(got) == sorted(want), f"{path}: keys {sorted(got)} != {sorted(want)}"
        for key in want:
            assert_same(got[key], want[key], f"{path}.{key}")
    elif isinstance(want, list):
        assert len(got) == len(want), f"{path}: {len(got)} items != {len(want)}: {got!r} vs {want!r}"
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_same(g, w, f"{path}[{i}]")
    else:
        assert got == want, f"{path}: {got!r} != {want!r}"


def _copy_v1(tmp_path: Path) -> Path:
    directory = tmp_path / "store"
    directory.mkdir()
    shutil.copyfile(STORES / "v1" / DB_FILE, directory / DB_FILE)
    return directory


def _upgrades(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == migrations.__name__]


def test_v1_store_reads_back_what_the_old_release_read(
    tmp_path: Path, embedder: CachedEmbedder, caplog: pytest.LogCaptureFixture
) -> None:
    """get/list/count/fields/links/tags/clusters/gaps/vector and text search/expand/search/stats/export of the
    store file written by the schema-1 release equal what that release read from it; then recall (at the
    instant the release ranked at) serves the same memories with the same traces and leaves the same
    maintenance writes behind. The file is upgraded to the latest version on open, once."""
    maker = _maker()
    expected = json.loads((STORES / "v1" / "expected.json").read_text(encoding="utf-8"))
    directory = _copy_v1(tmp_path)
    db = directory / DB_FILE
    # the fixture is what the release wrote: version only in meta, none of the later indexes
    assert _raw(db, "PRAGMA user_version") == [(0,)]
    assert _raw(db, "SELECT value FROM meta WHERE key = 'schema_version'") == [("1",)]
    assert _raw(db, "SELECT name FROM sqlite_master WHERE name = 'memories_user_rid'") == []

    caplog.set_level(logging.INFO, logger=migrations.__name__)
    got = maker.read_snapshot(directory, embedder, datetime.fromisoformat(expected.pop("now")))
    expected.pop("written_by")
    # fields the model gained after that release (StoreStats.invalid_user_ids: 0, the release had no id rule)
    for stats in [*got["stats"].values(), got["stats_after_recall"]]:
        assert stats.pop("invalid_user_ids") == 0
    assert_same(got, expected)
    assert _upgrades(caplog) == [f"the SQLite store {db}: upgraded the schema from version 1 to {SCHEMA_VERSION}"]
    assert _raw(db, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    assert _raw(db, "SELECT value FROM meta WHERE key = 'schema_version'") == [(str(SCHEMA_VERSION),)]

    # a second open finds nothing to do and writes nothing
    caplog.clear()
    before = _file_digest(db)
    store = SQLiteStore(directory)
    assert migrations.migrate(store._db) == (SCHEMA_VERSION, SCHEMA_VERSION)
    assert len(store.list_memories("ada", limit=1000)) == len(expected["reads"]["ada"]["lists"]["default"])
    store.close()
    assert _upgrades(caplog) == []
    assert _file_digest(db) == before


def _schema(db: Path) -> list[tuple[Any, ...]]:
    return _raw(db, "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")


def test_an_upgraded_store_has_the_schema_of_a_new_one(tmp_path: Path) -> None:
    """A new store runs the same migrations as an old one: both end with the same tables, indexes and meta."""
    old = _copy_v1(tmp_path)
    SQLiteStore(old).close()
    new = tmp_path / "new"
    SQLiteStore(new).close()
    assert _schema(old / DB_FILE) == _schema(new / DB_FILE)
    for directory in (old, new):
        assert _raw(directory / DB_FILE, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
        meta = dict(_raw(directory / DB_FILE, "SELECT key, value FROM meta WHERE key LIKE '%_%'"))
        assert meta["schema_version"] == str(SCHEMA_VERSION) and meta["embedding_dim"] == "384"


@pytest.mark.parametrize("how", ["user_version", "meta"])
def test_a_store_from_a_newer_memgraph_is_refused_and_left_alone(tmp_path: Path, how: str) -> None:
    directory = tmp_path / "store"
    SQLiteStore(directory).close()
    db = directory / DB_FILE
    conn = sqlite3.connect(db)
    if how == "user_version":
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    else:  # a version only in meta, as the first release recorded it
        conn.execute("PRAGMA user_version = 0")
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    conn.commit()
    conn.close()
    before = _file_digest(db)
    with pytest.raises(SchemaVersionError, match=f"schema version {SCHEMA_VERSION + 1}.*Upgrade memgraph"):
        SQLiteStore(directory)
    assert isinstance(SchemaVersionError("x"), StoreError)
    assert _file_digest(db) == before


@pytest.mark.parametrize("failure", ["sql", "python"])
def test_a_failed_migration_leaves_the_old_store_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    """All migrations of one open run in one transaction: an error in the last undoes the earlier ones."""

    def broken(conn: sqlite3.Connection) -> None:
        """A migration that fails half way."""
        conn.execute("CREATE TABLE half_done (x)")
        if failure == "sql":
            conn.execute("ALTER TABLE no_such_table ADD COLUMN y")
        raise ValueError("a bug in a migration")

    monkeypatch.setattr(migrations, "MIGRATIONS", (*migrations.MIGRATIONS, broken))
    directory = _copy_v1(tmp_path)
    db = directory / DB_FILE
    if failure == "sql":
        with pytest.raises(StoreError, match=rf"from version {SCHEMA_VERSION} to {SCHEMA_VERSION + 1} failed"):
            SQLiteStore(directory)
    else:
        with pytest.raises(ValueError, match="a bug in a migration"):
            SQLiteStore(directory)
    assert _raw(db, "PRAGMA user_version") == [(0,)]
    assert _raw(db, "SELECT value FROM meta WHERE key = 'schema_version'") == [("1",)]
    assert _raw(db, "SELECT name FROM sqlite_master WHERE name IN ('half_done', 'memories_user_rid')") == []
    monkeypatch.undo()
    store = SQLiteStore(directory)  # and the real migrations still apply afterwards
    assert store.get_meta("schema_version") == str(SCHEMA_VERSION)
    store.close()


def test_a_store_left_between_tables_and_version_is_completed(tmp_path: Path) -> None:
    """The first release created the tables before recording the version: a crash between the two left
    tables without a version; such a file reads as version 0 and opens."""
    directory = tmp_path / "store"
    directory.mkdir()
    conn = sqlite3.connect(directory / DB_FILE)
    migrations.MIGRATIONS[0](conn)
    conn.commit()
    conn.close()
    store = SQLiteStore(directory)
    assert store.get_meta("schema_version") == str(SCHEMA_VERSION)
    assert store.get_meta("embedding_dim") == "384"
    store.close()


_RACER = textwrap.dedent(
    """
    import json, logging, sys, time
    from pathlib import Path
    from memgraph.store.sqlite import SQLiteStore, migrations

    first = migrations.MIGRATIONS[1]  # the first step a version-1 store takes

    def slow(conn):
        time.sleep(0.5)  # hold the write lock while the other process arrives
        first(conn)

    migrations.MIGRATIONS = (migrations.MIGRATIONS[0], slow, *migrations.MIGRATIONS[2:])
    messages = []
    handler = logging.Handler()
    handler.emit = lambda record: messages.append(record.getMessage())
    logging.getLogger(migrations.__name__).addHandler(handler)
    logging.getLogger(migrations.__name__).setLevel(logging.INFO)
    go = Path(sys.argv[2])
    while not go.exists():
        time.sleep(0.002)
    store = SQLiteStore(sys.argv[1])
    version = store._conn.execute("PRAGMA user_version").fetchone()[0]
    count = len(store.list_memories("ada", limit=1000))
    store.close()
    print(json.dumps({"messages": messages, "version": version, "memories": count}))
    """
)


def test_two_processes_opening_an_old_store_at_once_migrate_it_once(tmp_path: Path) -> None:
    """One process migrates (holding the write lock); the other waits for the lock, then finds the new
    version and does nothing."""
    directory = _copy_v1(tmp_path)
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _RACER, str(directory), str(go)], stdout=subprocess.PIPE, text=True, env=env
        )
        for _ in range(2)
    ]
    go.touch()
    results = []
    for proc in procs:
        out, _ = proc.communicate(timeout=120)
        assert proc.returncode == 0
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert sorted(len(r["messages"]) for r in results) == [0, 1]
    assert [r["version"] for r in results] == [SCHEMA_VERSION, SCHEMA_VERSION]
    assert results[0]["memories"] == results[1]["memories"] > 0


def test_an_up_to_date_store_opens_while_another_process_holds_the_write_lock(tmp_path: Path) -> None:
    """Opening a store at the latest version writes nothing, so it does not wait for a writer."""
    directory = tmp_path / "store"
    SQLiteStore(directory).close()
    holder = sqlite3.connect(directory / DB_FILE, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("INSERT INTO meta(key, value) VALUES ('held', '1')")
    try:
        store = SQLiteStore(directory, busy_timeout_ms=50, retry_attempts=1)
        assert store.get_meta("schema_version") == str(SCHEMA_VERSION)
        assert store.get_meta("held") is None  # the writer's transaction is not visible
        store.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_every_migration_says_what_and_why() -> None:
    assert len(migrations.MIGRATIONS) == SCHEMA_VERSION
    assert len({m.__name__ for m in migrations.MIGRATIONS}) == SCHEMA_VERSION
    for step in migrations.MIGRATIONS:
        assert step.__doc__ and len(step.__doc__.split()) >= 12, f"{step.__name__} needs a docstring"


def test_a_migration_script_runs_inside_the_open_transaction(tmp_path: Path) -> None:
    """`_script` splits statements itself: `executescript` would commit the migration transaction first."""
    db = Database(str(tmp_path / "x.sqlite3"), busy_timeout_ms=100, retry_attempts=1, retry_base_delay=0.01)
    with pytest.raises(RuntimeError), db.transaction() as conn:
        migrations._script(conn, "CREATE TABLE a (x TEXT DEFAULT ';');\nCREATE TABLE b (y);\n")
        raise RuntimeError("roll back")
    assert db.read("SELECT name FROM sqlite_master") == []
    with pytest.raises(StoreError, match="incomplete"), db.transaction() as conn:
        migrations._script(conn, "CREATE TABLE c (z)")
    db.close()


def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _raw(path: Path, sql: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()
