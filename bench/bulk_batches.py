"""A few `remember_many` batches after a store of `--n0` memories: the bulk load's late batches, measured in minutes.

    python bench/bulk_batches.py --n0 60000 --batches 2 --mode on
    python bench/bulk_batches.py --n0 60000 --batches 2 --mode on --code /tmp/main-code   # another checkout
    python bench/bulk_batches.py --n0 60000 --batches 2 --mode on --text real   # real text (bulk_corpus.py)

A 100k `bench/bulk_load.py` run takes most of an hour on a busy 2-core machine; the batches past 60k are where
reconciliation's cost per batch settles (bench/RESULTS.md, "Bulk writes", rounds seven to nine). This builds the
first `--n0` memories once (`reconcile=False`, the same texts and vectors as bulk_load's, synthetic or `--text
real`; cached under bench/.cache/bulk_batches/), copies that store, brings the process to the state a long
reconciled run has (every stored text read as a statement once, the vector index built:
`MEMGRAPH_ANN_BACKGROUND=false` builds it in the warm-up search), then times each further batch of 5,000: wall
and CPU seconds, the garbage collector's CPU seconds and full collections (gc.callbacks), the objects it tracks
after the batch, and the load average.
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

if "--code" in sys.argv:  # another checkout's memgraph (main's, for an A/B with one script)
    sys.path.insert(0, str(Path(sys.argv[sys.argv.index("--code") + 1]).resolve()))
    import memgraph  # noqa: F401 - that checkout's, before this one's bench puts its own on the path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from bench.bulk_corpus import KINDS, corpus
from bench.jobs import HashEmbedder
from memgraph import MemoryEngine, Settings
from memgraph.store import open_store

CACHE = Path(__file__).resolve().parent / ".cache" / "bulk_batches"
BATCH = 5000


def _base(n0: int, vecs: np.ndarray, texts: Sequence[tuple[str, object]], text: str) -> Path:
    """The store of the first `n0` memories, built once with `reconcile=False` (the texts are the same either way)."""
    path = CACHE / (f"store-{n0}" if text == "synthetic" else f"store-{text}-{n0}")
    if (path / "memgraph.sqlite3").exists():
        return path
    tmp = Path(tempfile.mkdtemp(prefix="bulk-batches-", dir=CACHE.parent if CACHE.parent.exists() else None))
    settings = Settings(store=str(tmp))
    engine = MemoryEngine(open_store(str(tmp), settings), settings, HashEmbedder())
    for start in range(0, n0, BATCH):
        items = [
            {"content": c, "embedding": vecs[i], "created_at": d}
            for i, (c, d) in enumerate(texts[start : min(n0, start + BATCH)], start)
        ]
        engine.remember_many(items, user_id="bench", reconcile=False)
    engine.close()
    path.mkdir(parents=True, exist_ok=True)
    shutil.copy(tmp / "memgraph.sqlite3", path / "memgraph.sqlite3")
    shutil.rmtree(tmp, ignore_errors=True)
    return path


def helper_cpu(engine: MemoryEngine) -> float:
    """CPU seconds the parse helper process of branch `bulk10` (--code) spent so far; 0 on main, which has none:
    the process's own CPU time does not count a child's."""
    pool = getattr(engine.pipeline, "parse_pool", None)
    return float(getattr(pool, "worker_cpu", 0.0))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n0", type=int, default=60_000, help="Memories stored before the timed batches.")
    ap.add_argument("--batches", type=int, default=2, help="Timed batches of 5,000.")
    ap.add_argument("--mode", choices=("on", "off"), default="on", help="reconcile=True (on) or False (off).")
    ap.add_argument("--code", help="Import memgraph from this checkout instead (e.g. main's, for an A/B).")
    ap.add_argument("--text", choices=KINDS, default="synthetic", help="What is written (bench/bulk_corpus.py).")
    ap.add_argument("--data", help="Folder of locomo_dev.json and msc_personas.json (--text real).")
    args = ap.parse_args()
    import memgraph
    from memgraph.ingest.statement import statement

    print(f"memgraph from {memgraph.__file__}", file=sys.stderr)
    texts, vecs, distinct = corpus(args.text, args.n0 + BATCH * args.batches, args.data)
    print(f"{args.text} texts: {len(texts)} writes, {distinct} distinct", file=sys.stderr)
    base = _base(args.n0, vecs, texts, args.text)
    work = Path(tempfile.mkdtemp(prefix="bulk-batches-run-"))
    try:
        shutil.copy(base / "memgraph.sqlite3", work / "memgraph.sqlite3")
        settings = Settings(store=str(work))
        engine = MemoryEngine(open_store(str(work), settings), settings, HashEmbedder())
        if args.mode == "on":  # a long reconciled run read every stored text as a statement when it was new
            conn = sqlite3.connect(work / "memgraph.sqlite3")
            for (content,) in conn.execute("SELECT content FROM memories ORDER BY created_at"):
                statement(content)
            conn.close()
        engine.store.vector_search_many("bench", np.asarray(vecs[:2]), 5, min_similarity=0.4)
        gc.collect()
        clock = [0.0, 0.0, 0.0]  # GC seconds, start, full collections

        def tick(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                clock[1] = time.process_time()
            else:
                clock[0] += time.process_time() - clock[1]
                clock[2] += info["generation"] == 2

        gc.callbacks.append(tick)
        for b in range(args.batches):
            start = args.n0 + BATCH * b
            items = [
                {"content": c, "embedding": vecs[i], "created_at": d}
                for i, (c, d) in enumerate(texts[start : start + BATCH], start)
            ]
            t0, c0, g0, f0 = time.perf_counter(), time.process_time(), clock[0], clock[2]
            h0 = helper_cpu(engine)
            engine.remember_many(items, user_id="bench", reconcile=args.mode == "on")
            print(
                f"{args.mode} batch after {start}: wall {time.perf_counter() - t0:.2f} s  CPU "
                f"{time.process_time() - c0:.2f} s (+ helper {helper_cpu(engine) - h0:.2f} s)  "
                f"GC {clock[0] - g0:.2f} s ({clock[2] - f0:.0f} full)  "
                f"tracked {len(gc.get_objects())}  load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
        gc.callbacks.remove(tick)
        engine.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
