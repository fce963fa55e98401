"""Bulk loads through `remember_many`: what reconciliation costs as the store grows (SQLite, one user).

    python bench/bulk_load.py                  # 30,000 memories in batches of 1,000
    python bench/bulk_load.py --n 100000 --modes off,batched --no-append

Items carry pre-computed embeddings, so no model runs and the numbers are the write path's own cost. `--text`
picks what is written (bench/bulk_corpus.py): `synthetic` (the default: bench/jobs.py's notes and topic vectors,
same-topic cosine ~0.67, every compared pair a worst case) or `real` (LoCoMo dev turns, then Multi-Session Chat
persona sentences, with the real model's cached vectors; past ~31k writes some texts repeat):

    python bench/bulk_load.py --n 40000 --batch 5000 --modes off,batched --text real --no-append

Modes, each on a fresh store in the same run:
- `off`: `reconcile=False`, the baseline (duplicates still merge by content id);
- `batched`: `reconcile=True` as shipped: one `vector_search_many` per batch (one block product over the
  user's vectors);
- `per-item`: `reconcile=True` with one `vector_search` per new memory, the write path before the batched
  search (each re-scans every stored vector: quadratic in the store size).
Printed per mode: total seconds, the CPU seconds of the process and of the write path's parse helper process
(the parse helper of branch `bulk10`, not merged: 0 on main; on a shared machine the wall clock waits for other
work, the CPU time much less: compare the CPU ratio there), memories/s, and ms per memory in the first and the
last batch (the growth). Results are appended to bench/RESULTS.md under "## Bulk load"; `--results` also writes
them to bench/results/bulk_load.json.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import os
import platform
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

if "--code" in sys.argv:  # another checkout's memgraph (main's, for an A/B with one script)
    sys.path.insert(0, str(Path(sys.argv[sys.argv.index("--code") + 1]).resolve()))
    # imported now: the line below puts this checkout first on the path, and `--code` was silently this
    # checkout's memgraph until the fourteenth round (bench/RESULTS.md, "Bulk writes, fourteenth round")
    import memgraph  # noqa: F401
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_results import write_rows
from bench.bulk_batches import helper_cpu
from bench.bulk_corpus import KINDS, corpus
from bench.jobs import HashEmbedder
from memgraph import MemoryEngine, Settings
from memgraph.store import open_store

MODES = ("off", "batched", "per-item")


class _GcClock:
    """CPU seconds the garbage collector takes (gc.callbacks), to tell it from the write path's own work."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._start = 0.0
        gc.callbacks.append(self._tick)

    def _tick(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.process_time()
        else:
            self.seconds += time.process_time() - self._start

    def close(self) -> None:
        gc.callbacks.remove(self._tick)


def _per_item(store: Any) -> None:
    """The pre-batching write path: one exact search per new memory."""

    def one_by_one(user_id: str, vectors: np.ndarray, k: int, **kw: Any) -> list[list[tuple[str, float]]]:
        return [store.vector_search(user_id, v, k, **kw) for v in vectors]

    store.vector_search_many = one_by_one


def decisions_state(path: Path) -> list[str]:
    """What the reconciliation decided, as lines: every memory's id, active/archived flags, strength and
    contradiction flags, and every Supersedes, Contradicts and DerivedFrom edge (timestamps left out)."""
    import sqlite3

    conn = sqlite3.connect(path / "memgraph.sqlite3")
    try:
        rows = conn.execute(
            "SELECT id, active, archived, strength, json_extract(metadata, '$.contradicts'), "
            "json_extract(metadata, '$.contradicted_by') FROM memories ORDER BY id"
        ).fetchall()
        edges = conn.execute(
            "SELECT type, src, dst, reason FROM edges WHERE type IN ('Supersedes', 'Contradicts', 'DerivedFrom') "
            "ORDER BY type, src, dst"
        ).fetchall()
    finally:
        conn.close()
    return ["\t".join(map(str, r)) for r in rows] + ["\t".join(map(str, e)) for e in edges]


def run(
    mode: str,
    n: int,
    batch: int,
    workdir: Path,
    progress: bool = False,
    state: Path | None = None,
    text: str = "synthetic",
    data: str | None = None,
) -> dict[str, float]:
    target = str(workdir / f"store-{mode}")
    settings = Settings(store=target)
    engine = MemoryEngine(open_store(target, settings), settings, HashEmbedder())
    if mode == "per-item":
        _per_item(engine.store)
    # the texts and dates only: 100k `Memory` objects held for the whole run (~5 objects each the garbage
    # collector scans on every full collection) would be the bench's cost, not the write path's
    texts, vecs, distinct = corpus(text, n, data)
    if progress:
        print(f"  {text} texts: {len(texts)} writes, {distinct} distinct", flush=True)
    per_batch: list[float] = []
    clock = _GcClock()
    t0, c0 = time.perf_counter(), time.process_time()
    for start in range(0, n, batch):
        items = [
            {"content": content, "embedding": vecs[i], "created_at": created}
            for i, (content, created) in enumerate(texts[start : start + batch], start)
        ]
        tb = time.perf_counter()
        engine.remember_many(items, user_id="bench", reconcile=mode != "off")
        per_batch.append(time.perf_counter() - tb)
        if progress:
            print(
                f"  {mode} {start + len(items):>8} memories  batch {per_batch[-1]:7.1f} s  "
                f"total {time.perf_counter() - t0:8.1f} s  CPU {time.process_time() - c0:8.1f} s "
                f"(+ helper {helper_cpu(engine):5.1f} s)  "
                f"GC {clock.seconds:6.1f} s  "
                f"load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
    helper = helper_cpu(engine)
    total, cpu = time.perf_counter() - t0, time.process_time() - c0 + helper
    clock.close()
    stored = engine.store.count_memories("bench")
    engine.close()
    if state is not None:
        lines = decisions_state(Path(target))
        state.mkdir(parents=True, exist_ok=True)
        (state / f"{mode}-{n}.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
        digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
        print(f"  {mode}: {len(lines)} decision lines, sha256 {digest} -> {state / f'{mode}-{n}.tsv'}", flush=True)
    return {
        "total": total,
        "cpu": cpu,
        "rate": n / total,
        "first_ms": 1000 * per_batch[0] / min(batch, n),
        "last_ms": 1000 * per_batch[-1] / (n - batch * (len(per_batch) - 1)),
        "stored": float(stored),
        "gc": clock.seconds,
        "helper": helper,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=30_000, help="Memories to load.")
    ap.add_argument("--batch", type=int, default=1000, help="Items per remember_many call.")
    ap.add_argument("--modes", default=",".join(MODES), help=f"Comma-separated, of {', '.join(MODES)}.")
    ap.add_argument("--no-append", action="store_true", help="Do not append to bench/RESULTS.md.")
    ap.add_argument(
        "--results", action="store_true", help="Also write the rows to bench/results/bulk_load.json (a quiet machine)."
    )
    ap.add_argument("--progress", action="store_true", help="Print every batch's seconds and the running totals.")
    ap.add_argument(
        "--state", type=Path, help="Write each mode's decisions (memories' flags, Supersedes/Contradicts edges) here."
    )
    ap.add_argument("--code", help="Import memgraph from this checkout instead (e.g. main's, for an A/B).")
    ap.add_argument("--text", choices=KINDS, default="synthetic", help="What is written (bench/bulk_corpus.py).")
    ap.add_argument("--data", help="Folder of locomo_dev.json and msc_personas.json (--text real).")
    args = ap.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    unknown = set(modes) - set(MODES)
    if unknown:
        ap.error(f"unknown mode(s): {', '.join(sorted(unknown))}")
    import memgraph

    print(f"memgraph from {memgraph.__file__}", file=sys.stderr)
    workdir = Path(tempfile.mkdtemp(prefix="memgraph-bench-bulk-"))
    results: dict[str, dict[str, float]] = {}
    try:
        for mode in modes:
            results[mode] = r = run(
                mode, args.n, args.batch, workdir, args.progress, args.state, args.text, args.data
            )
            print(
                f"{mode:<9} {r['total']:8.1f} s  CPU {r['cpu']:8.1f} s (helper {r['helper']:.1f} s of it)  "
                f"{r['rate']:7.0f} memories/s  first batch "
                f"{r['first_ms']:6.2f} ms/memory  last batch {r['last_ms']:6.2f} ms/memory  stored {r['stored']:.0f}  "
                f"load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    base = results.get("off")
    if base:
        for mode, r in results.items():
            print(f"{mode}: {r['total'] / base['total']:.2f}x wall, {r['cpu'] / base['cpu']:.2f}x CPU of off")
    if args.results and results:
        rows = [
            {
                "n": args.n,
                "batch": args.batch,
                "mode": mode,
                "total_s": round(r["total"], 1),
                "cpu_s": round(r["cpu"], 1),
                "memories_per_s": round(r["rate"]),
                "first_batch_ms_per_memory": round(r["first_ms"], 2),
                "last_batch_ms_per_memory": round(r["last_ms"], 2),
                "stored": int(r["stored"]),
                "vs_off": round(r["total"] / base["total"], 2) if base else None,
                "cpu_vs_off": round(r["cpu"] / base["cpu"], 2) if base else None,
            }
            for mode, r in results.items()
        ]
        print("wrote", write_rows("bulk_load", rows, keys=("n", "batch", "mode")))
    if args.no_append or not results:
        return
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [
        "",
        "## Bulk load",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC · {platform.machine()}, {os.cpu_count()} CPU cores (load average "
        f"{load}), Python {platform.python_version()} · `python bench/bulk_load.py {' '.join(sys.argv[1:])}`",
        f"{args.n} memories in `remember_many` batches of {args.batch} into SQLite, pre-computed embeddings (no "
        "model). Ratio: total time / total time with reconciliation off, same run.",
        "",
        "| mode | total s | CPU s | memories/s | first batch ms/memory | last batch ms/memory | stored | vs off "
        "| CPU vs off |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for mode, r in results.items():
        ratio = f"{r['total'] / base['total']:.2f}x" if base else "n/a"
        cpu_ratio = f"{r['cpu'] / base['cpu']:.2f}x" if base else "n/a"
        lines.append(
            f"| {mode} | {r['total']:.1f} | {r['cpu']:.1f} | {r['rate']:.0f} | {r['first_ms']:.2f} "
            f"| {r['last_ms']:.2f} | {r['stored']:.0f} | {ratio} | {cpu_ratio} |"
        )
    with open(Path(__file__).with_name("RESULTS.md"), "a", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
