"""Benchmark of the batch jobs at 10k and 100k memories (one user), with pre-computed synthetic embeddings.

    python bench/jobs.py          # 10k and 100k on SQLite, appended to bench/RESULTS.md
    python bench/jobs.py --sizes 10000 --stores sqlite,falkordb,neo4j --no-append

Data: `n` unit vectors around 60 planted centres (same-topic cosine ~0.67, other-topic ~0), contents built
from per-topic words, kinds/ages/access counts spread at random, 5% of the memories are `event`s in sessions
of 10 older than the compression cutoff. Embeddings are written directly (no model); compress uses a
deterministic hashing embedder for its sentences and summaries, so its number excludes model time (the real
model embeds ~40 sentences/s on 2 CPU cores). Each job runs applied (`apply=True`), in a realistic order,
and is timed once (a job changes the data, so repeating it measures something else); the baseline is the
time to read the user's memories and embedding matrix, the floor every job pays. Goals (issue #5): decay
and links < 30 s, cluster < 60 s at 100k. Results are appended to bench/RESULTS.md and to
bench/results/jobs.json (one row per store and size).

Neo4j: the server named by MEMGRAPH_NEO4J_URI (emptied), or one started from tools/neo4j-server for the run
(bench/bench_neo4j.py; --neo4j-heap, --neo4j-pagecache).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_neo4j import HEAP, PAGECACHE, neo4j_server
from bench_results import write_rows

from memgraph import MemoryEngine, Settings
from memgraph.jobs.base import load_all, load_matrix
from memgraph.models import Memory, MemoryKind
from memgraph.store import open_store
from memgraph.store.base import MemoryFilter, WriteBatch

WORDS = [
    "coffee espresso grinder roast",
    "hiking trail summit boots",
    "python pytest asyncio pydantic",
    "garden tomatoes compost mulch",
    "index fund dividends brokerage",
    "telescope nebula galaxy eyepiece",
    "pasta basil parmesan risotto",
    "piano violin rehearsal metronome",
    "docker kubernetes deploy helm",
    "marathon training intervals tempo",
]
FILLER = "the a we my our new old big small good".split()
KINDS = [
    MemoryKind.FACT,
    MemoryKind.PREFERENCE,
    MemoryKind.PROCEDURE,
    MemoryKind.DECISION,
    MemoryKind.CORRECTION,
]


class HashEmbedder:
    """Deterministic unit vectors from a text hash: the jobs' own cost without model time."""

    model_name = "all-MiniLM-L6-v2"
    dim = 384

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            seed = int.from_bytes(hashlib.blake2b(t.encode(), digest_size=8).digest(), "little")
            v = np.random.default_rng(seed).normal(size=self.dim).astype(np.float32)
            out[i] = v / np.linalg.norm(v)
        return out

    def count_tokens(self, text: str) -> int:
        return len(text.split())


def synth(n: int, seed: int = 0) -> tuple[list[Memory], np.ndarray]:
    rng = np.random.default_rng(seed)
    centers = rng.normal(size=(60, 384)).astype(np.float32)
    topic = rng.integers(0, 60, n)
    vecs = centers[topic] + rng.normal(scale=0.7, size=(n, 384)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    now = datetime.now(UTC)
    mems: list[Memory] = []
    n_events = n // 20
    for i in range(n):
        words = WORDS[topic[i] % len(WORDS)].split()
        content = (
            f"{rng.choice(FILLER)} {words[rng.integers(4)]} note {i} about {words[rng.integers(4)]} "
            f"and {rng.choice(FILLER)} {words[rng.integers(4)]} topic{topic[i]}."
        )
        kw: dict = {}
        if i < n_events:
            kw = {"kind": MemoryKind.EVENT, "session_id": f"s{i // 10}"}
            created = now - timedelta(days=40 + i // 10 % 300)
        else:
            kw = {"kind": KINDS[i % len(KINDS)]}
            created = now - timedelta(days=float(rng.uniform(0, 400)))
        mems.append(
            Memory(
                id=f"m{i:07d}",
                user_id="bench",
                content=content,
                created_at=created,
                last_accessed=created + timedelta(days=float(rng.uniform(0, 30))),
                access_count=int(rng.integers(0, 20)),
                tags=[f"t{topic[i] % 25}"] if i % 3 == 0 else [],
                **kw,
            )
        )
    return mems, vecs


def load(target: str, n: int, settings: Settings) -> MemoryEngine:
    engine = MemoryEngine(open_store(target, settings), settings, HashEmbedder())
    mems, vecs = synth(n)
    for start in range(0, n, 5000):
        engine.store.write(
            "bench", WriteBatch(memories=mems[start : start + 5000], embeddings=vecs[start : start + 5000])
        )
    return engine


CPU: dict[str, float] = {}


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    """Wall seconds (and, in CPU["last"], the process CPU seconds: fairer on a shared, oversubscribed box)."""
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    CPU["last"] = time.process_time() - c0
    return time.perf_counter() - t0, out


def run(store_kind: str, n: int, workdir: Path, neo4j: Any = None) -> list[tuple[str, float, float, str]]:
    if store_kind == "sqlite":
        target = str(workdir / f"sqlite-{n}")
        settings = Settings(store=target)
    elif store_kind == "falkordb":
        target = f"falkordb+dir://{workdir / f'falkordb-{n}'}"
        settings = Settings(store=target)
    elif store_kind == "neo4j":
        neo4j.wipe()
        target, settings = neo4j.uri, neo4j.settings()
    else:
        raise SystemExit(f"unknown store {store_kind!r}: sqlite, falkordb or neo4j")
    t_load, engine = timed(lambda: load(target, n, settings))
    rows: list[tuple[str, float, float, str]] = [
        ("load (write batches of 5000)", t_load, CPU["last"], f"{n} memories")
    ]
    base, _ = timed(
        lambda: (
            load_all(engine.store, "bench", MemoryFilter.everything()),
            load_matrix(engine.store, "bench", MemoryFilter()),
        )
    )
    rows.append(("baseline: read all memories + matrix", base, CPU["last"], ""))
    jobs = engine.jobs
    plan = [
        (
            "cluster",
            lambda: jobs.cluster("bench", apply=True),
            lambda r: f"{len(r.clusters)} clusters, noise {r.noise}, fitted on {r.fitted_on}",
        ),
        (
            "cluster (unchanged: skipped)",
            lambda: jobs.cluster("bench", apply=True),
            lambda r: str(r.skipped)[:30],
        ),
        (
            "links",
            lambda: jobs.links("bench", apply=True),
            lambda r: f"created {r.created}, components {r.graph.components}, bridges {r.graph.bridges}",
        ),
        (
            "decay",
            lambda: jobs.decay("bench", apply=True),
            lambda r: f"changed {r.changed}, archived {r.archived}",
        ),
        ("gaps", lambda: jobs.gaps("bench"), lambda r: f"unconnected {r.unconnected_total}"),
        (
            "consolidate",
            lambda: jobs.consolidate("bench", apply=True),
            lambda r: f"merged {r.merged_memories}, tag merges {len(r.tag_merges)}",
        ),
        (
            "compress (hash embedder)",
            lambda: jobs.compress("bench", apply=True),
            lambda r: f"{r.summaries_written} summaries of {r.events_compressed} events",
        ),
        (
            "export jsonl",
            lambda: jobs.export(workdir / f"export-{n}.jsonl", user_id="bench"),
            lambda r: f"{(workdir / f'export-{n}.jsonl').stat().st_size / 1e6:.0f} MB",
        ),
    ]
    for name, fn, describe in plan:
        secs, report = timed(fn)
        rows.append((name, secs, CPU["last"], describe(report)))
        note = describe(report)
        print(
            f"  {store_kind} {n:>7} {name:<34} {secs:8.2f} s  cpu {CPU['last']:7.2f} s  "
            f"load {os.getloadavg()[0]:.1f}  {note}",
            flush=True,
        )
    copy = str(workdir / f"sqlite-import-{n}")
    imp_engine = MemoryEngine(open_store(copy, Settings(store=copy)), Settings(store=copy), HashEmbedder())
    secs, report = timed(lambda: imp_engine.jobs.import_(workdir / f"export-{n}.jsonl"))
    rows.append(("import jsonl (into SQLite)", secs, CPU["last"], f"{report.records['memory']} memories"))
    print(f"  {store_kind} {n:>7} {'import jsonl':<34} {secs:8.2f} s  cpu {CPU['last']:7.2f} s", flush=True)
    imp_engine.close()
    engine.close()
    return [
        (name, secs, cpu, f"{secs / base:.1f}x baseline; {note}" if base > 0 else note)
        for name, secs, cpu, note in rows
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,100000", help="Comma-separated memory counts.")
    ap.add_argument("--stores", default="sqlite", help="Comma-separated: sqlite, falkordb, neo4j.")
    ap.add_argument("--neo4j-heap", default=HEAP, help="Heap of the Neo4j started for the run.")
    ap.add_argument("--neo4j-pagecache", default=PAGECACHE, help="Page cache of the Neo4j started for the run.")
    ap.add_argument("--json-dir", default=None, help="Where jobs.json goes (default: bench/results).")
    ap.add_argument("--results", default=str(Path(__file__).with_name("RESULTS.md")), help="Markdown to append.")
    ap.add_argument(
        "--falkordb-sizes",
        default=None,
        help="Memory counts for FalkorDB when they differ from --sizes (its bulk load runs ~200-400 memories/s).",
    )
    ap.add_argument("--no-append", action="store_true", help="Do not append to bench/RESULTS.md.")
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    results: dict[tuple[str, int], list[tuple[str, float, float, str]]] = {}
    workdir = Path(tempfile.mkdtemp(prefix="memgraph-bench-jobs-"))
    stores = args.stores.split(",")
    try:
        with ExitStack() as stack:
            neo4j = None
            if "neo4j" in stores:
                neo4j = stack.enter_context(
                    neo4j_server(workdir, heap=args.neo4j_heap, pagecache=args.neo4j_pagecache)
                )
            for store_kind in stores:
                store_sizes = sizes
                if store_kind == "falkordb" and args.falkordb_sizes:
                    store_sizes = [int(x) for x in args.falkordb_sizes.split(",")]
                for n in store_sizes:
                    print(f"{store_kind}: {n} memories", flush=True)
                    try:
                        results[(store_kind, n)] = run(store_kind, n, workdir, neo4j)
                    except Exception as exc:  # a store that cannot open here is skipped, not fatal
                        print(f"  skipped {store_kind} at {n}: {type(exc).__name__}: {exc}", flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if not results or args.no_append:
        return
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    machine = (
        f"{platform.machine()}, {os.cpu_count()} CPU cores shared with other work (load average {load}), "
        f"Python {platform.python_version()}"
    )
    lines = [
        "",
        "## Jobs",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC · {machine} · `python bench/jobs.py {' '.join(sys.argv[1:])}`",
        "one user, synthetic embeddings (60 planted topics), each job applied once; goals at 100k: decay and",
        "links < 30 s, cluster < 60 s. cpu s: the process's CPU time (all threads), steadier than wall time",
        "on a shared machine. Ratio: wall time / wall time to read the user's memories and matrix.",
        "",
        "| store | memories | job | wall s | cpu s | notes |",
        "|---|---:|---|---:|---:|---|",
    ]
    for (store_kind, n), rows in results.items():
        for name, secs, cpu, note in rows:
            lines.append(f"| {store_kind} | {n} | {name} | {secs:.2f} | {cpu:.2f} | {note} |")
    out = Path(args.results)
    with out.open("a", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    rows = [
        {
            "store": store_kind,
            "size": n,
            "jobs": {name: {"wall_s": secs, "cpu_s": cpu, "note": note} for name, secs, cpu, note in job_rows},
        }
        for (store_kind, n), job_rows in results.items()
    ]
    path = write_rows("jobs", rows, directory=args.json_dir)
    print(f"appended to {out}; rows in {path}")


if __name__ == "__main__":
    main()
