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

from .crash_worker import batch_items

BATCHES, SIZE, KILLS = 30, 100, 20
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
