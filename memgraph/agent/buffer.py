"""Where session buffers live: in the store (local mode, survives a restart) or in memory (incognito).

The store keeps them through the `GraphStore` metadata methods (`get_meta`/`set_meta`), so every backend that
implements the protocol persists them with no new method: one key per (user, session) holding the buffer as
JSON, and one index key listing the open sessions (the protocol cannot list keys). The index is written
before a new buffer and cleared after a finished one, so a crash can leave at worst an index entry without a
buffer (skipped on load), never a held candidate that no agent can find.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Protocol

from memgraph.agent.models import SessionBuffer
from memgraph.store.base import GraphStore

log = logging.getLogger("memgraph.agent")

INDEX_KEY = "agent:sessions"
_PREFIX = "agent:buffer:"

SessionKey = tuple[str, str]  # (user_id, session_id)


def buffer_key(user_id: str, session_id: str) -> str:
    """JSON-encoded pair: no separator inside a user or session id can make two keys collide."""
    return _PREFIX + json.dumps([user_id, session_id], ensure_ascii=False)


class BufferStore(Protocol):
    """Loads and saves session buffers."""

    def sessions(self) -> list[SessionKey]: ...
    def load(self, key: SessionKey) -> SessionBuffer | None: ...
    def save(self, buffer: SessionBuffer) -> None: ...
    def delete(self, key: SessionKey) -> None: ...


class MemoryBufferStore:
    """Incognito: buffers live in this process only."""

    def __init__(self) -> None:
        self._buffers: dict[SessionKey, str] = {}
        self._lock = threading.Lock()

    def sessions(self) -> list[SessionKey]:
        with self._lock:
            return list(self._buffers)

    def load(self, key: SessionKey) -> SessionBuffer | None:
        with self._lock:
            raw = self._buffers.get(key)
        return None if raw is None else SessionBuffer.model_validate_json(raw)

    def save(self, buffer: SessionBuffer) -> None:
        with self._lock:
            self._buffers[(buffer.user_id, buffer.session_id)] = buffer.model_dump_json()

    def delete(self, key: SessionKey) -> None:
        with self._lock:
            self._buffers.pop(key, None)


class MetaBufferStore:
    """Local mode: buffers in the store's metadata (SQLite `meta` table, a Cypher store's meta nodes)."""

    def __init__(self, store: GraphStore) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._index: list[SessionKey] | None = None

    def _load_index(self) -> list[SessionKey]:
        if self._index is None:
            raw = self.store.get_meta(INDEX_KEY)
            pairs: list[SessionKey] = []
            if raw:
                try:
                    pairs = [(str(u), str(s)) for u, s in json.loads(raw)]
                except (ValueError, TypeError):
                    log.warning("agent: session index in the store is unreadable; starting a new one")
            self._index = list(dict.fromkeys(pairs))
        return self._index

    def _write_index(self, pairs: list[SessionKey]) -> None:
        self.store.set_meta(INDEX_KEY, json.dumps([list(p) for p in pairs], ensure_ascii=False))
        self._index = pairs

    def sessions(self) -> list[SessionKey]:
        with self._lock:
            return list(self._load_index())

    def load(self, key: SessionKey) -> SessionBuffer | None:
        raw = self.store.get_meta(buffer_key(*key))
        if not raw:
            return None
        try:
            return SessionBuffer.model_validate_json(raw)
        except ValueError as exc:
            log.warning("agent: session buffer %r is unreadable (%s); ignoring it", key, exc)
            return None

    def save(self, buffer: SessionBuffer) -> None:
        key = (buffer.user_id, buffer.session_id)
        with self._lock:
            index = self._load_index()
            if key not in index:
                self._write_index([*index, key])  # index first: a buffer is never unreachable
        self.store.set_meta(buffer_key(*key), buffer.model_dump_json())

    def delete(self, key: SessionKey) -> None:
        self.store.set_meta(buffer_key(*key), "")
        with self._lock:
            index = self._load_index()
            if key in index:
                self._write_index([p for p in index if p != key])


def forget_user(store: GraphStore, user_id: str) -> int:
    """Erasure (memgraph/jobs/erase.py): delete every open session buffer of `user_id` from the store's meta and
    drop its sessions from the index; returns how many buffers there were. An agent running in another process
    keeps what it holds in memory: erase a user while no agent has a session of theirs open."""
    raw = store.get_meta(INDEX_KEY)
    try:
        pairs = [(str(u), str(s)) for u, s in json.loads(raw)] if raw else []
    except (ValueError, TypeError):
        pairs = []
    mine = [p for p in pairs if p[0] == user_id]
    for key in mine:
        current = store.get_meta(buffer_key(*key))
        store.compare_and_set_meta(buffer_key(*key), current, None)
    if mine:
        rest = [list(p) for p in pairs if p[0] != user_id]
        store.compare_and_set_meta(INDEX_KEY, raw, json.dumps(rest, ensure_ascii=False))
    return len(mine)
