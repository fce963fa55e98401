"""Query plans of the SQLite store's filtered reads: a read scoped to one session must seek that session, not
walk every memory of the user (the write path asks for a session's tail on every write that carries a session
id; at 10k memories the walk was 25 ms a write, at 1M seconds)."""

from __future__ import annotations

from pathlib import Path

from memgraph.config import Settings
from memgraph.store import open_store
from memgraph.store.base import MemoryFilter
from memgraph.store.sqlite.reads import _memories
from memgraph.store.sqlite.rows import MEMORY_COLUMNS, where


def _plan(store_path: Path, flt: MemoryFilter) -> str:
    store = open_store(str(store_path), Settings(store=str(store_path)))
    try:
        clause, params = where(flt)
        sql = (
            f"SELECT {MEMORY_COLUMNS} FROM {_memories(flt)} WHERE m.user_id = ? AND {clause} "
            "ORDER BY m.created_at DESC, m.id LIMIT ?"
        )
        rows = store._db.read("EXPLAIN QUERY PLAN " + sql, ["u", *params, 8])  # type: ignore[attr-defined]
        return " | ".join(str(r[3]) for r in rows)
    finally:
        store.close()


def test_a_session_scoped_read_seeks_the_session_index(tmp_path: Path) -> None:
    flt = MemoryFilter(session_id="s1", active=None, include_archived=True, include_compressed=True)
    assert "memories_session (user_id=? AND session_id=?)" in _plan(tmp_path / "a", flt)


def test_an_unscoped_read_keeps_the_planners_choice(tmp_path: Path) -> None:
    assert "memories_session" not in _plan(tmp_path / "b", MemoryFilter())
