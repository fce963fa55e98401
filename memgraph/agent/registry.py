"""One agent per store (the memory agent is a singleton). Two agents on one store would race on the
same session buffers and double-commit turns.

In this process a registry keyed by the store's identity refuses a second agent; for a SQLite directory an
exclusive `flock` on `agent.lock` beside the database also refuses an agent in another process, and the kernel
releases it when the holder dies, so a killed agent never blocks its successor.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import IO

from memgraph.agent.seam import AgentEngine
from memgraph.errors import AgentAlreadyRunningError

LOCK_FILE = "agent.lock"

_lock = threading.Lock()
_running: dict[str, str] = {}  # store key -> description of the holder


def store_key(engine: AgentEngine) -> str:
    """What makes two engines "the same store": the database file, the server target, or the object."""
    store = engine.store
    path = getattr(store, "path", None)
    if path is not None:
        return f"file:{Path(path).resolve()}"
    s = engine.settings
    target = str(s.store)
    if "://" in target:
        return f"server:{target}#{s.falkordb_graph if target.startswith('falkordb') else s.neo4j_database}"
    return f"object:{id(store)}"


class StoreClaim:
    """Held by a running agent; `release()` frees the store for the next one."""

    def __init__(self, key: str, handle: IO[str] | None) -> None:
        self.key = key
        self._handle = handle
        self._released = False

    def release(self) -> None:
        with _lock:
            if self._released:
                return
            self._released = True
            _running.pop(self.key, None)
        if self._handle is not None:
            try:
                _unlock(self._handle)
            finally:
                self._handle.close()


def claim(engine: AgentEngine, holder: str) -> StoreClaim:
    """Claim the engine's store for one agent, or raise AgentAlreadyRunningError."""
    key = store_key(engine)
    with _lock:
        if key in _running:
            raise AgentAlreadyRunningError(
                f"a MemoryAgent is already running on this store ({_running[key]}); one agent per store: "
                "close() it first or share that agent"
            )
        handle = None
        path = getattr(engine.store, "path", None)
        if path is not None:
            handle = _lock_file(Path(path).parent / LOCK_FILE, key)
        _running[key] = holder
    return StoreClaim(key, handle)


def _lock_file(path: Path, key: str) -> IO[str] | None:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: the in-process registry still applies
        return None
    handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held open for the agent's lifetime
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        raise AgentAlreadyRunningError(
            f"a MemoryAgent is already running on {path.parent} ({holder}); one agent per store: stop it first"
        ) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"pid {os.getpid()}")
    handle.flush()
    return handle


def _unlock(handle: IO[str]) -> None:
    try:
        import fcntl

        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    except (ImportError, OSError, ValueError):  # pragma: no cover
        pass
