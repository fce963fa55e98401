"""What post-recall maintenance costs: the background work each recall leaves (access counts, co-recall links,
gap detection with its focus-word test), which a process pays before exit (`flush()`) and an agent pays on its
cores between turns.

On the realistic 10k-memory store of bench/recall_scale.py (built once, cached under bench/.cache), the default
configuration, the real model: each of `--queries` LoCoMo questions is recalled (`top_k=10`), then
`engine.flush()` waits for its maintenance. Printed: recall p50, flush wait p50 / p95 (wall) and the process's CPU
time during the flush (p50; the model's threads included).

    python bench/maintenance.py
    python bench/maintenance.py --size 1000 --queries 100

Writes bench/results/maintenance.json: rows `{size, recall_p50_ms, flush_p50_ms, flush_p95_ms, flush_cpu_p50_ms}`.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import recall_scale  # noqa: E402
from bench.bench_results import write_rows  # noqa: E402
from memgraph import MemoryEngine, Settings  # noqa: E402
from memgraph.store import open_store  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    recall_scale.add_store_options(ap, "maintenance")
    ap.add_argument("--queries", type=int, default=60, help="recalls measured")
    args = ap.parse_args()
    questions, built = recall_scale.questions_and_store(args)
    queries = random.Random(5).sample(questions, min(args.queries, len(questions)))
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="memgraph-maintenance-") as tmp:
        work = Path(tmp) / "store"
        shutil.copytree(built, work)
        settings = Settings(store=str(work))
        engine = MemoryEngine(open_store(str(work), settings), settings)
        engine.recall("warm up", user_id=recall_scale.USER)
        engine.flush()
        recall_ms, flush_ms, cpu_ms = [], [], []
        for q in queries:
            t = time.perf_counter()
            engine.recall(q, user_id=recall_scale.USER, top_k=10)
            recall_ms.append((time.perf_counter() - t) * 1000)
            c, t = time.process_time(), time.perf_counter()
            engine.flush()
            flush_ms.append((time.perf_counter() - t) * 1000)
            cpu_ms.append((time.process_time() - c) * 1000)
        engine.close()
    ordered = sorted(flush_ms)
    row = {
        "size": args.size,
        "recall_p50_ms": round(statistics.median(recall_ms), 1),
        "flush_p50_ms": round(statistics.median(flush_ms), 1),
        "flush_p95_ms": round(ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))], 1),
        "flush_cpu_p50_ms": round(statistics.median(cpu_ms), 1),
    }
    print(
        f"{args.size:,} memories, {len(queries)} recalls: recall p50 {row['recall_p50_ms']} ms; maintenance "
        f"(flush) p50 {row['flush_p50_ms']} / p95 {row['flush_p95_ms']} ms wall, {row['flush_cpu_p50_ms']} ms CPU "
        f"(p50); load average {load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} after"
    )
    if not args.no_json:
        write_rows("maintenance", [row], keys=("size",))


if __name__ == "__main__":
    main()
