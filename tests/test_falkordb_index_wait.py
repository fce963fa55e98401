"""After a restart FalkorDB rebuilds its indexes in the background and their procedures fail until they are built.
The first search waits for them (bounded) instead of spending the short retry budget: the full suite once failed the
first search after reopening 10,000 memories on a loaded machine."""

from __future__ import annotations

import time

from memgraph.store.falkordb_executor import FalkorExecutor


def _executor(building_for: int, wait_s: float) -> tuple[FalkorExecutor, list[int]]:
    ex = object.__new__(FalkorExecutor)  # no server: only the wait is under test
    calls = [0]

    def building() -> bool:
        calls[0] += 1
        return calls[0] <= building_for

    ex._indexes_building = building  # type: ignore[method-assign]
    ex._index_wait = wait_s
    return ex, calls


def test_the_wait_ends_when_the_indexes_are_built() -> None:
    ex, calls = _executor(building_for=3, wait_s=30.0)
    started = time.monotonic()
    ex._await_indexes()
    assert calls[0] == 4  # polled until built, then stopped
    assert time.monotonic() - started < 5


def test_the_wait_is_bounded() -> None:
    ex, _ = _executor(building_for=10**9, wait_s=0.3)
    started = time.monotonic()
    ex._await_indexes()
    assert 0.3 <= time.monotonic() - started < 3
