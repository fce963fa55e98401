"""Memory rows held in memory per user, for recall's reads by id: the candidate pool (~120 memories per
recall), the seeds' supersede check and the constraint/pinned layers each read memories by id, and reading
them by SQL (the rows, then their tags) was the second cost of a cascade recall after the walk (profile at 1k
memories: ~20% of the pipeline). A row is kept with its tag names as the file had them at the structures'
change-log position; the mirror drops a memory's entry whenever the change log says it was touched (mirror.py
`_apply`), and everything with the user's structures, so an entry is never stale. An entry is the `Memory`
as rows.py builds it; each read hands out a copy (callers may mutate what they get): ~3 us against ~40 us
to convert the row again (timestamps, enums, JSON) under load.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from memgraph.models import Memory
from memgraph.store.base import chunks
from memgraph.store.sqlite.rows import MEMORY_COLUMNS, json_value, row_to_memory

#: The memory as read (tags in name order, no embedding), its metadata's JSON text, and whether the metadata
#: is flat (no nested lists or dicts); the memory is never handed out itself (`copy`).
Entry = tuple[Memory, str, bool]


def copy(entry: Entry) -> Memory:
    """A copy of a cached memory that shares nothing mutable with it: its lists of strings copied, its metadata
    copied when flat (conversation turns: date, session, speaker, turn) and parsed again from the row's JSON
    when nested (copying nested values in Python cost 5x more)."""
    memory, metadata, flat = entry
    fields = dict(memory.__dict__)
    fields["tags"] = list(memory.tags)
    fields["file_paths"] = list(memory.file_paths)
    fields["trigger_patterns"] = list(memory.trigger_patterns)
    fields["metadata"] = dict(memory.metadata) if flat else json_value(metadata)
    obj = Memory.__new__(Memory)
    object.__setattr__(obj, "__dict__", fields)
    object.__setattr__(obj, "__pydantic_fields_set__", set(memory.__pydantic_fields_set__))
    object.__setattr__(obj, "__pydantic_extra__", None)
    object.__setattr__(obj, "__pydantic_private__", None)
    return obj


def copy_memory(memory: Memory) -> Memory:
    """`copy` of a cached row itself (what `SQLiteStore.read_memories` hands out): its metadata copied when
    flat, deep-copied when nested."""
    flat = _flat(memory)
    return copy((memory, "" if flat else json.dumps(memory.metadata), flat))


def _flat(memory: Memory) -> bool:
    """No list or dict among the metadata's values: a shallow copy of it shares nothing mutable."""
    return not any(isinstance(v, list | dict) for v in memory.metadata.values())


def _entry(memory: Memory, metadata: str) -> Entry:
    return memory, metadata, _flat(memory)


class MemoryRows:
    """One user's cached rows, at most `limit` of them (the oldest entries go first)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.entries: dict[str, Entry] = {}

    def forget(self, ids: Sequence[str]) -> None:
        for mid in ids:
            self.entries.pop(mid, None)

    def reread(self, conn: sqlite3.Connection, user_id: str, ids: Sequence[str]) -> None:
        """Replace the entries of those of these ids that are held by their rows now (through `conn`, in the
        catch-up's read transaction); a memory gone from the file is forgotten. A recall's maintenance touches
        the memories it served, which the next recall is likely to read again: re-reading them here, where the
        change is caught up (in the background, after maintenance: `SQLiteStore.refresh`), keeps that read off
        the next recall."""
        held = [mid for mid in ids if mid in self.entries]
        self.forget(held)
        if held:
            self.entries.update(load(conn, user_id, held))

    def read(self, conn: sqlite3.Connection, user_id: str, ids: Sequence[str]) -> dict[str, Entry]:
        """The entries of these ids that exist, reading the missing ones through `conn` (inside the read
        transaction the structures caught up in, so that they are at the same position)."""
        entries = self.entries
        missing = [mid for mid in ids if mid not in entries]
        loaded = load(conn, user_id, missing) if missing else {}
        if loaded and self.limit > 0:
            entries.update(loaded)
            if len(entries) > self.limit:
                for mid in list(entries)[: len(entries) - self.limit]:
                    del entries[mid]
        return {mid: e for mid in ids if (e := loaded.get(mid) or entries.get(mid)) is not None}


def load(conn: sqlite3.Connection, user_id: str, ids: Sequence[str]) -> dict[str, Entry]:
    """Rows and tag names of these memories of the user (the same SQL as reads.py `get_memories`)."""
    rows: dict[str, sqlite3.Row] = {}
    tags: dict[str, list[str]] = {}
    for chunk in chunks(list(ids), 500):
        marks = ",".join("?" * len(chunk))
        for r in conn.execute(
            f"SELECT {MEMORY_COLUMNS}, NULL AS embedding FROM memories WHERE id IN ({marks}) AND +user_id = ?",
            [*chunk, user_id],
        ):
            rows[r["id"]] = r
        for src, dst in conn.execute(
            # INDEXED BY edges_src: see reads.py `_tags_for`
            f"SELECT src, dst FROM edges INDEXED BY edges_src WHERE user_id = ? AND type = 'HasTag' "
            f"AND src IN ({marks}) ORDER BY dst",
            [user_id, *chunk],
        ):
            tags.setdefault(src, []).append(dst)
    return {mid: _entry(row_to_memory(row, tags.get(mid, []), False), row["metadata"]) for mid, row in rows.items()}
