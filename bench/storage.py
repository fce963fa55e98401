"""Storage benchmark: SQLite, FalkorDB (embedded) and Neo4j in one run, on pre-computed embeddings (no model
time).

    python bench/storage.py --sizes 10000,100000 --stores sqlite,falkordb,neo4j

For each size and store: insert rate (store.write in remember_many-sized batches: memories + embeddings +
tags), kNN latency p50/p95 (k=10, random queries) and recall@10 against exact numpy search, 2-hop `expand`
latency p50/p95 from 10 seeds over realistic tags (Zipf over 200 tags) and RelatesTo links, and reopen time
(open + first kNN, which loads the vectors: SQLite's matrix, FalkorDB's HNSW rebuild; Neo4j: a new connection
to the running server, which keeps its index). Ratios are against SQLite measured in the same run. Results are
appended to bench/RESULTS.md under "## Storage" and to bench/results/storage.json (one row per store and size).

Neo4j: the server named by MEMGRAPH_NEO4J_URI (emptied), or one started from tools/neo4j-server for the run
(bench/bench_neo4j.py; --neo4j-heap, --neo4j-pagecache).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_neo4j import HEAP, PAGECACHE, neo4j_server
from bench_results import write_rows

from memgraph.config import Settings
from memgraph.models import Link, LinkSource, Memory, Relation, memory_id_for
from memgraph.store import GraphStore, WriteBatch, open_store

DIM = 384
USER = "bench"


@dataclass
class Result:
    store: str
    size: int
    inserted: int = 0
    insert_s: float = 0.0
    links: int = 0
    link_s: float = 0.0
    knn_ms: list[float] = field(default_factory=list)
    recall: float = float("nan")
    expand_ms: list[float] = field(default_factory=list)
    expand_found: float = 0.0
    reopen_s: float = float("nan")
    reopen_query_s: float = float("nan")
    note: str = ""

    @property
    def insert_rate(self) -> float:
        return self.inserted / self.insert_s if self.insert_s else float("nan")


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def machine() -> str:
    model = platform.processor() or "unknown CPU"
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {model}, Python {platform.python_version()}"


def make_data(n: int, seed: int) -> tuple[np.ndarray, list[Memory], list[Link]]:
    """n normalised random vectors; memories with 1-3 Zipf-distributed tags of 200; n/10 RelatesTo links."""
    rng = np.random.default_rng(seed)
    vecs = rng.standard_normal((n, DIM)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    ranks = np.arange(1, 201)
    zipf = (1.0 / ranks) / np.sum(1.0 / ranks)
    now = dt.datetime.now(dt.UTC)
    mems = []
    for i in range(n):
        k = int(rng.integers(1, 4))
        tags = sorted({f"tag{t}" for t in rng.choice(200, size=k, p=zipf)})
        content = f"memory {i} about {' '.join(tags)} with detail {int(rng.integers(10**9))}"
        mems.append(
            Memory(
                id=memory_id_for(USER, content),
                user_id=USER,
                content=content,
                tags=tags,
                importance=float(rng.uniform(0.2, 1.0)),
                created_at=now - dt.timedelta(seconds=n - i),
            )
        )
    src = rng.integers(0, n, size=n // 10)
    dst = rng.integers(0, n, size=n // 10)
    links = [
        Link(
            src=mems[a].id,
            dst=mems[b].id,
            relation=Relation.RELATES_TO,
            weight=float(rng.uniform(0.2, 1.0)),
            source=LinkSource.DISCOVERED,
        )
        for a, b in zip(src, dst, strict=True)
        if a != b
    ]
    return vecs, mems, links


def target_for(kind: str, root: Path, neo4j: Any = None) -> tuple[str, Settings]:
    if kind == "sqlite":
        return str(root / "sqlite"), Settings()
    if kind == "falkordb":
        return f"falkordb+dir://{root / 'falkordb'}", Settings()
    if kind == "neo4j":
        neo4j.wipe()
        return neo4j.uri, neo4j.settings()
    raise SystemExit(f"unknown store {kind!r}: sqlite, falkordb or neo4j")


def run_one(
    kind: str,
    size: int,
    data: tuple[np.ndarray, list[Memory], list[Link]],
    args: argparse.Namespace,
    root: Path,
    neo4j: Any = None,
) -> Result:
    vecs, mems, links = data
    res = Result(store=kind, size=size)
    target, settings = target_for(kind, root, neo4j)
    store: GraphStore = open_store(target, settings)
    try:
        t0 = time.perf_counter()
        for start in range(0, size, args.batch):
            end = min(size, start + args.batch)
            store.write(USER, WriteBatch(memories=mems[start:end], embeddings=vecs[start:end]))
            res.inserted = end
            elapsed = time.perf_counter() - t0
            if elapsed > args.max_insert_seconds and end < size:
                res.note = (
                    f"insert stopped at {end:,} of {size:,} after {elapsed:.0f}s (--max-insert-seconds)"
                )
                break
            if args.verbose:
                print(f"  {kind} {size}: {end:,} inserted, {end / elapsed:,.0f}/s", flush=True)
        res.insert_s = time.perf_counter() - t0
        n = res.inserted
        mine = {m.id for m in mems[:n]}
        usable = [ln for ln in links if ln.src in mine and ln.dst in mine]
        t0 = time.perf_counter()
        for start in range(0, len(usable), args.batch):
            store.write(USER, WriteBatch(links=usable[start : start + args.batch]))
        res.link_s, res.links = time.perf_counter() - t0, len(usable)

        rng = np.random.default_rng(args.seed + 1)
        queries = rng.standard_normal((args.queries, DIM)).astype(np.float32)
        queries /= np.linalg.norm(queries, axis=1, keepdims=True)
        ids = [m.id for m in mems[:n]]
        matrix = vecs[:n]
        store.vector_search(USER, queries[0], 10)  # warm-up (SQLite loads its matrix here)
        hits = 0
        for q in queries:
            t = time.perf_counter()
            got = store.vector_search(USER, q, 10)
            res.knn_ms.append((time.perf_counter() - t) * 1000)
            truth = {ids[i] for i in np.argsort(-(matrix @ q))[:10]}
            hits += len(truth & {mid for mid, _ in got})
        res.recall = hits / (10 * len(queries))

        weights = settings.relation_weights()
        found = []
        for _ in range(args.expand_runs):
            seeds = [ids[int(i)] for i in rng.integers(0, n, size=10)]
            t = time.perf_counter()
            out = store.expand(USER, seeds, max_depth=2, fanout_cap=settings.fanout_cap, weights=weights)
            res.expand_ms.append((time.perf_counter() - t) * 1000)
            found.append(len(out))
        res.expand_found = statistics.mean(found)
    finally:
        store.close()

    t0 = time.perf_counter()
    store = open_store(target, settings)
    res.reopen_s = time.perf_counter() - t0
    try:
        store.vector_search(USER, vecs[0], 10)
        res.reopen_query_s = time.perf_counter() - t0
    finally:
        store.close()
    return res


def table(results: list[Result]) -> str:
    base = {r.size: r for r in results if r.store == "sqlite"}
    rows = [
        "| store | memories | insert /s | links /s | kNN p50 ms | kNN p95 ms | recall@10 | expand p50 ms | "
        "expand p95 ms | reached | reopen s | reopen+kNN s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        b = base.get(r.size) if r.store != "sqlite" else None

        def ratio(value: float, ref: float | None) -> str:
            return f" ({value / ref:.1f}x)" if ref and ref == ref and ref > 0 else ""

        rows.append(
            f"| {r.store} | {r.inserted:,}"
            f" | {r.insert_rate:,.0f}{ratio(r.insert_rate, b.insert_rate if b else None)}"
            f" | {r.links / r.link_s if r.link_s else float('nan'):,.0f}"
            f" | {pct(r.knn_ms, 50):.2f}{ratio(pct(r.knn_ms, 50), pct(b.knn_ms, 50) if b else None)}"
            f" | {pct(r.knn_ms, 95):.2f} | {r.recall:.3f}"
            f" | {pct(r.expand_ms, 50):.1f}{ratio(pct(r.expand_ms, 50), pct(b.expand_ms, 50) if b else None)}"
            f" | {pct(r.expand_ms, 95):.1f} | {r.expand_found:.0f}"
            f" | {r.reopen_s:.2f} | {r.reopen_query_s:.2f} |"
        )
    notes = [f"- {r.store} {r.size:,}: {r.note}" for r in results if r.note]
    return "\n".join(rows + ([""] + notes if notes else []))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default="10000,100000", help="Comma-separated memory counts.")
    p.add_argument("--stores", default="sqlite,falkordb", help="Comma-separated: sqlite, falkordb, neo4j.")
    p.add_argument("--neo4j-heap", default=HEAP, help="Heap of the Neo4j started for the run.")
    p.add_argument("--neo4j-pagecache", default=PAGECACHE, help="Page cache of the Neo4j started for the run.")
    p.add_argument(
        "--batch", type=int, default=1000, help="Memories per store.write (a remember_many batch)."
    )
    p.add_argument("--queries", type=int, default=200, help="kNN queries (k=10).")
    p.add_argument("--expand-runs", type=int, default=50, help="expand calls, 10 random seeds each.")
    p.add_argument("--max-insert-seconds", type=float, default=600, help="Stop inserting a store after this.")
    p.add_argument("--seed", type=int, default=1234)
    p.add_argument("--workdir", default=None, help="Where the stores are written (default: a temp dir).")
    p.add_argument(
        "--results", default=str(Path(__file__).with_name("RESULTS.md")), help="Markdown file to append."
    )
    p.add_argument("--json-dir", default=None, help="Where storage.json goes (default: bench/results).")
    p.add_argument("--no-append", action="store_true", help="Print only; write neither RESULTS.md nor the json.")
    p.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    stores = [s.strip() for s in args.stores.split(",") if s.strip()]
    results: list[Result] = []
    started = time.perf_counter()
    with ExitStack() as stack:
        neo4j = None
        if "neo4j" in stores:
            home = Path(tempfile.mkdtemp(prefix="mg-bench-neo4j-", dir=args.workdir)).resolve()
            stack.callback(shutil.rmtree, home, ignore_errors=True)
            neo4j = stack.enter_context(neo4j_server(home, heap=args.neo4j_heap, pagecache=args.neo4j_pagecache))
        for size in sizes:
            data = make_data(size, args.seed)
            for kind in stores:
                root = Path(tempfile.mkdtemp(prefix=f"mg-bench-{kind}-", dir=args.workdir)).resolve()
                try:
                    print(f"{kind} {size:,} ...", flush=True)
                    results.append(run_one(kind, size, data, args, root, neo4j))
                    print(table([r for r in results if r.size == size]), flush=True)
                finally:
                    shutil.rmtree(root, ignore_errors=True)
    text = table(results)
    print(text)
    if not args.no_append:
        header = (
            f"\n### {dt.date.today().isoformat()} — {machine()}\n\n"
            f"`python bench/storage.py --sizes {args.sizes} --stores {args.stores}` (batch {args.batch}, "
            f"{args.queries} kNN queries, {args.expand_runs} expand calls of 10 seeds, fanout cap "
            f"{Settings().fanout_cap}, 200 Zipf tags, RelatesTo links n/10; "
            f"total {time.perf_counter() - started:.0f}s). "
            "Ratios in brackets are against SQLite at the same size.\n\n"
        )
        append_section(Path(args.results), "## Storage", header + text + "\n")
        path = write_rows("storage", [json_row(r) for r in results], directory=args.json_dir)
        print(f"appended to {args.results}; rows in {path}")


def json_row(r: Result) -> dict[str, Any]:
    """One store and size, as bench/results/storage.json holds it."""
    row = {k: v for k, v in asdict(r).items() if k not in ("knn_ms", "expand_ms")}
    row.update(
        insert_per_s=r.insert_rate,
        links_per_s=r.links / r.link_s if r.link_s else None,
        knn_p50_ms=pct(r.knn_ms, 50),
        knn_p95_ms=pct(r.knn_ms, 95),
        expand_p50_ms=pct(r.expand_ms, 50),
        expand_p95_ms=pct(r.expand_ms, 95),
        recall_at_10=r.recall,
    )
    return {k: (None if isinstance(v, float) and v != v else v) for k, v in row.items()}


def append_section(path: Path, heading: str, block: str) -> None:
    """Append `block` at the end of the `heading` section (created at the end when missing)."""
    existing = path.read_text(encoding="utf-8") if path.exists() else "# Benchmark results\n"
    lines = existing.rstrip("\n").split("\n")
    if heading not in lines:
        lines += ["", heading]
    start = lines.index(heading)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    lines[end:end] = block.rstrip("\n").split("\n")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
