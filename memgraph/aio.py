"""`AsyncMemoryEngine`: the same API as `MemoryEngine`, awaitable.

One source of truth: every async method is generated from the sync method of the same name (signature and
docstring copied) and runs it in a worker thread (`asyncio.to_thread`), so the two APIs cannot drift. The
stores are thread-safe (SQLite: per-thread readers + one locked writer; the neo4j driver: a session per
call), so concurrent awaits are safe. A native-async Cypher store would remove the thread hop; the API would
not change.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from memgraph.engine import MemoryEngine

#: The MemoryEngine methods offered as coroutines (everything public that touches the store or the model).
ASYNC_METHODS = (
    "remember",
    "remember_many",
    "remember_linked",
    "remember_conversation",
    "ingest",
    "ingest_many",
    "recall",
    "feedback",
    "flush",
    "get",
    "forget",
    "restore",
    "link",
    "tag",
    "list",
    "tags",
    "search",
    "stats",
    "users",
    "embed",
    "redact",
)


def _offload(name: str) -> Callable[..., Awaitable[Any]]:
    sync = getattr(MemoryEngine, name)

    @functools.wraps(sync)
    async def method(self: AsyncMemoryEngine, *args: Any, **kwargs: Any) -> Any:
        return await asyncio.to_thread(getattr(self.sync, name), *args, **kwargs)

    return method


class _AsyncProxy:
    """Wraps any object so that calling one of its methods returns a coroutine (used for `engine.jobs`)."""

    def __init__(self, target: Any) -> None:
        self._target = target

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._target, name)
        if not callable(attr):
            return attr

        @functools.wraps(attr)
        async def call(*args: Any, **kwargs: Any) -> Any:
            return await asyncio.to_thread(attr, *args, **kwargs)

        return call


class AsyncMemoryEngine:
    """Awaitable twin of `MemoryEngine`.

        async with await AsyncMemoryEngine.open("~/.memgraph") as mem:
            await mem.remember("I prefer tabs", user_id="ada")
            result = await mem.recall("indentation", user_id="ada")
    """

    def __init__(self, engine: MemoryEngine) -> None:
        self.sync = engine

    @classmethod
    async def open(cls, target: str | Path | None = None, **kwargs: Any) -> AsyncMemoryEngine:
        """Open a store like `MemoryEngine.open` (in a worker thread: opening may load indexes)."""
        return cls(await asyncio.to_thread(MemoryEngine.open, target, **kwargs))

    @property
    def settings(self) -> Any:
        return self.sync.settings

    @property
    def jobs(self) -> Any:
        """`await engine.jobs.cluster(user_id=...)`: the maintenance jobs, awaitable."""
        return _AsyncProxy(self.sync.jobs)

    async def close(self) -> None:
        """Wait for background maintenance, then close the store."""
        await asyncio.to_thread(self.sync.close)

    async def __aenter__(self) -> AsyncMemoryEngine:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


for _name in ASYNC_METHODS:
    if hasattr(MemoryEngine, _name):
        setattr(AsyncMemoryEngine, _name, _offload(_name))


def missing_async_methods() -> list[str]:
    """Public MemoryEngine methods without an async twin (a test keeps this empty)."""
    public = {
        n
        for n, v in inspect.getmembers(MemoryEngine, predicate=inspect.isfunction)
        if not n.startswith("_") and n not in {"close", "open"}
    }
    return sorted(public - set(ASYNC_METHODS))
