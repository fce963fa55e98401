"""Concurrency: writers and readers on one store at once; no errors, no lost writes."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from memgraph import MemoryEngine, Settings
from memgraph.store import MemoryFilter

from . import scale

ROOT = Path(__file__).resolve().parents[2]
DIM = 384
SECONDS = float(scale(6.0, 120.0))
PROCESS_WRITES = int(scale(60, 1200))

WRITER_SCRIPT = """
import sys, numpy as np
from memgraph import MemoryEngine, Settings
store, wid, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
eng = MemoryEngine.open(store, settings=Settings(store=store))
rng = np.random.default_rng(wid)
for i in range(n):
    v = rng.normal(size=384).astype("float32"); v /= np.linalg.norm(v)
    eng.remember(f"process writer {wid} memory {i}", user_id="load", embedding=v.tolist(), tags=[f"w{wid}"])
    print(i, flush=True)
eng.close()
"""


def _vec(rng: np.random.Generator) -> list[float]:
    v = rng.normal(size=DIM).astype(np.float32)
    return (v / np.linalg.norm(v)).tolist()


@pytest.mark.slow
def test_writers_and_readers_threads_and_processes(tmp_path: Path, embedder) -> None:  # noqa: ANN001
    store = str(tmp_path / "load")
    eng = MemoryEngine.open(store, settings=Settings(store=store), embedder=embedder)
    eng.recall("warm up the model", user_id="load")
    acked: list[str] = []
    errors: list[BaseException] = []
    latencies: list[float] = []
    lock = threading.Lock()
    stop = time.monotonic() + SECONDS

    def writer(wid: int) -> None:
        rng = np.random.default_rng(wid)
        i = 0
        try:
            while time.monotonic() < stop:
                batch = [{"content": f"thread writer {wid} memory {i + j}", "embedding": _vec(rng),
                          "tags": [f"t{wid}", "load"]} for j in range(5)]
                mems = eng.remember_many(batch, user_id="load")
                with lock:
                    acked.extend(m.id for m in mems)
                i += 5
        except BaseException as exc:  # noqa: BLE001 - the test reports every error
            errors.append(exc)

    def reader(rid: int) -> None:
        rng = np.random.default_rng(100 + rid)
        try:
            while time.monotonic() < stop:
                t0 = time.perf_counter()
                eng.recall(f"what did thread writer {rid % 4} remember?", user_id="load", top_k=5)
                with lock:
                    latencies.append(time.perf_counter() - t0)
                eng.store.vector_search("load", np.asarray(_vec(rng), dtype=np.float32), 10)
                eng.list(user_id="load", limit=20)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER_SCRIPT, store, str(10 + p), str(PROCESS_WRITES)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        for p in range(2)
    ]
    threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
    threads += [threading.Thread(target=reader, args=(r,)) for r in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    proc_acked = 0
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        proc_acked += len(out.split())
    assert not errors, errors[:3]
    assert acked, "writers made no progress"
    # No lost writes: every acknowledged memory is found, by this engine and by a fresh one.
    assert len(eng.store.get_memories("load", acked)) == len(set(acked))
    eng.close()
    with MemoryEngine.open(store, settings=Settings(store=store)) as fresh:
        total = fresh.store.count_memories("load", MemoryFilter.everything())
        assert total == len(set(acked)) + proc_acked
        assert len(fresh.store.get_memories("load", acked)) == len(set(acked))
        # The vector cache of a fresh engine sees the other processes' writes.
        ids, _ = fresh.store.embeddings("load")
        assert len(ids) == total
    p95 = float(np.percentile(latencies, 95)) * 1000
    print(f"\nload: {len(acked)} thread writes + {proc_acked} process writes, {len(latencies)} recalls, "
          f"cascade recall p50 {float(np.percentile(latencies, 50)) * 1000:.1f} ms p95 {p95:.1f} ms, "
          "errors 0, lost writes 0")
