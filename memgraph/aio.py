"""`AsyncMemoryEngine`: the same API as `MemoryEngine`, awaitable.

One source of truth: every public `MemoryEngine` method has an awaitable twin with the same signature and
docstring, generated from engine.py by `tools/gen_aio.py` into `memgraph/_aio_methods.py` (a test fails when
that file is stale), which runs the sync method in a worker thread (`asyncio.to_thread`). What cannot be
generated is written here: `open`, `settings`, `jobs`, `outbox` and `async with`. The stores are thread-safe (SQLite:
per-thread readers + one locked writer; the neo4j driver: a session per call), so concurrent awaits are safe.
A native-async Cypher store would remove the thread hop; the API would not change.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Generator
from pathlib import Path
from typing import Any

from memgraph._aio_methods import AsyncEngineMethods
from memgraph.config import Settings
from memgraph.engine import MemoryEngine


class _AsyncProxy:
    """Wraps any object so that calling one of its methods returns a coroutine (used for `engine.jobs`)."""

    def __init__(self, target: object) -> None:
        self._target = target

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._target, name)
        if not callable(attr):
            return attr

        @functools.wraps(attr)
        async def call(*args: Any, **kwargs: Any) -> Any:
            return await asyncio.to_thread(attr, *args, **kwargs)

        return call


class _Opening:
    """What `AsyncMemoryEngine.open` returns: awaited, the engine (`mem = await AsyncMemoryEngine.open(...)`);
    entered, the engine closed on exit (`async with AsyncMemoryEngine.open(...) as mem:`), as `MemoryEngine.open`
    is used with `with`. Both spellings are common in async libraries; refusing one was a newcomer's first error."""

    def __init__(self, target: str | Path | None, kwargs: dict[str, Any]) -> None:
        self._target, self._kwargs = target, kwargs
        self._engine: AsyncMemoryEngine | None = None

    async def _open(self) -> AsyncMemoryEngine:
        # in a worker thread: opening may load indexes
        return AsyncMemoryEngine(await asyncio.to_thread(MemoryEngine.open, self._target, **self._kwargs))

    def __await__(self) -> Generator[Any, None, AsyncMemoryEngine]:
        return self._open().__await__()

    async def __aenter__(self) -> AsyncMemoryEngine:
        self._engine = await self._open()
        return self._engine

    async def __aexit__(self, *exc: object) -> None:
        if self._engine is not None:
            await self._engine.close()


class AsyncMemoryEngine(AsyncEngineMethods):
    """Awaitable twin of `MemoryEngine`.

        async with AsyncMemoryEngine.open("~/.memgraph") as mem:
            await mem.remember("I prefer tabs", user_id="ada")
            result = await mem.recall("indentation", user_id="ada")
    """

    def __init__(self, engine: MemoryEngine) -> None:
        self.sync = engine

    @classmethod
    def open(cls, target: str | Path | None = None, **kwargs: Any) -> _Opening:
        """Open a store like `MemoryEngine.open`: `await` it, or use it in `async with` (closed on exit)."""
        return _Opening(target, kwargs)

    @property
    def settings(self) -> Settings:
        return self.sync.settings

    @property
    def jobs(self) -> Any:
        """`await engine.jobs.cluster(user_id=...)`: the maintenance jobs, awaitable."""
        return _AsyncProxy(self.sync.jobs)

    @property
    def outbox(self) -> Any:
        """`await engine.outbox.replay()`: the outbox of a server store, awaitable (None on SQLite)."""
        box = self.sync.outbox
        return None if box is None else _AsyncProxy(box)

    async def __aenter__(self) -> AsyncMemoryEngine:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def missing_async_methods() -> list[str]:
    """Public MemoryEngine methods without an awaitable twin on AsyncMemoryEngine (a test keeps this empty)."""
    public = [n for n, _ in inspect.getmembers(MemoryEngine, predicate=inspect.isfunction) if not n.startswith("_")]
    return sorted(n for n in public if not inspect.iscoroutinefunction(getattr(AsyncMemoryEngine, n, None)))
