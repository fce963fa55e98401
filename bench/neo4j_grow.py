"""Neo4j commands on a young store and on a grown one: what a cold CLI command costs as the store grows.

bench/neo4j_cold.py measures a new user's first minutes (a store of a few memories). This bench measures the
same cold commands (`remember`, `recall`, `list`, each a fresh `python -m memgraph` process) on a young store
(`--size 0`: a brand-new database, user u0) and on a grown one (`--size N`: the first N memories of the cached
recall_scale store, bench/.cache/recall_scale, LoCoMo and MSC turns with their real-model vectors, imported
into the database with `memgraph import` by the code measured, user `scale`). With `--trace` each command also
runs once through bench/neo4j_trace.py, which records every statement the Cypher store ran (name, rows, floats
and rough bytes returned, seconds), summed per command.

    python bench/neo4j_grow.py --size 0 --reps 3 --trace
    python bench/neo4j_grow.py --size 10000 --reps 3 --trace --code /tmp/main-code --code-label main

Writes bench/results/neo4j_grow.json: rows `{command, size, code, wall_p50_ms, cpu_p50_ms, server_cpu_p50_ms,
statements, floats, bytes, runs, load}`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_neo4j import neo4j_server  # noqa: E402
from bench.bench_results import write_rows  # noqa: E402
from bench.neo4j_cold import QUESTIONS, TEXTS, child_env, empty_neo4j, timed  # noqa: E402

TRACE = Path(__file__).resolve().with_name("neo4j_trace.py")
STORE = ROOT / "bench" / ".cache" / "recall_scale" / "store-schema4-gen1-10000-reconciled"


def export_file(size: int, workdir: Path) -> Path:
    """The first `size` memories (by creation) of the cached store, as a `memgraph export` file for user
    `scale`, memories only (tags and links left out: the commands measured do not read them)."""
    full = workdir / "scale-export.jsonl"
    if not full.exists():
        copy = workdir / "scale-store"
        shutil.copytree(STORE, copy)
        env = child_env(ROOT, "")
        subprocess.run(
            [sys.executable, "-m", "memgraph", "export", str(full), "--store", str(copy), "--user", "scale"],
            env=env,
            cwd=str(ROOT),
            check=True,
            capture_output=True,
        )
    out = workdir / f"scale-{size}.jsonl"
    lines = full.read_text().splitlines()
    header, memories = lines[0], [ln for ln in lines[1:] if json.loads(ln).get("type") == "memory"]
    memories.sort(key=lambda ln: json.loads(ln)["memory"]["created_at"])
    kept = memories[:size]
    counts = {kind: 0 for kind in json.loads(lines[-1])["counts"]}
    end = json.dumps({"type": "end", "counts": {**counts, "memory": len(kept)}})
    out.write_text("\n".join([header, *kept, end]) + "\n")
    return out


def run_code(
    label: str, code: Path, uri: str, size: int, reps: int, env: dict[str, str], pid: int | None, trace: Path | None
) -> tuple[dict[str, list[tuple[float, float, float]]], dict[str, list[dict[str, Any]]]]:
    """Every command of one code on its store: ({command: [(wall, cpu, server cpu)]}, {command: trace rows})."""
    user = "scale" if size else "u0"
    at = ["--store", uri, "--user", user]
    runs: dict[str, list[tuple[float, float, float]]] = {}
    traces: dict[str, list[dict[str, Any]]] = {}
    commands = []
    for i in range(reps):
        commands += [
            ("remember", ["remember", TEXTS[i % len(TEXTS)] + f" ({i})"]),  # the same text for every code
            ("recall", ["recall", QUESTIONS[i % len(QUESTIONS)]]),
            ("list", ["list"]),
        ]
    for name, args in commands:
        took = timed([sys.executable, "-m", "memgraph", *args, *at], env, code, pid)
        runs.setdefault(name, []).append(took)
        print(
            f"  {label:8} {size:6} {name:9} wall {took[0]:6.2f} s  cpu {took[1]:5.2f} s  server {took[2]:5.2f} s  "
            f"load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    if trace is not None:
        for name, args in commands[:3]:
            out = trace / f"{label}-{size}-{name}.jsonl"
            args = [*args[:-1], args[-1] + " (traced)"] if name == "remember" else args
            timed([sys.executable, str(TRACE), str(out), *args, *at], env, code, pid)
            traces[name] = [json.loads(line) for line in out.read_text().splitlines()]
    return runs, traces


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "statements": len(rows),
        "floats": sum(r["floats"] for r in rows),
        "bytes": sum(r["bytes"] for r in rows),
        "by_name": dict(Counter(r["name"] for r in rows)),
        "heaviest": sorted(
            (
                {"name": r["name"], "seconds": round(r["seconds"], 3), "rows": r["rows"], "bytes": r["bytes"]}
                for r in rows
            ),
            key=lambda r: -r["seconds"],
        )[:4],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=0, help="memories in the store before the commands (0: a new one)")
    ap.add_argument("--reps", type=int, default=3, help="fresh processes per command and code")
    ap.add_argument("--code", default=None, help="another checkout whose memgraph to run first (git archive main)")
    ap.add_argument("--code-label", default="other", help="its name in the table")
    ap.add_argument("--label", default="this", help="this checkout's name in the table")
    ap.add_argument("--trace", action="store_true", help="also run each command once with its statements traced")
    ap.add_argument("--server-pid", type=int, default=None, help="the JVM of MEMGRAPH_NEO4J_URI (its CPU is read)")
    ap.add_argument("--only-code", action="store_true", help="measure --code alone, not this checkout")
    ap.add_argument("--workdir", default=None, help="where the export files are kept between runs (default: temp)")
    args = ap.parse_args()
    codes = ([(args.code_label, Path(args.code).resolve())] if args.code else []) + [(args.label, ROOT)]
    if args.only_code:
        codes = codes[:1]
    rows: list[dict[str, Any]] = []
    with (
        tempfile.TemporaryDirectory(prefix="memgraph-neo4j-grow-") as tmp,
        neo4j_server(Path(tmp), heap="1g", pagecache="512m") as server,
    ):
        work = Path(args.workdir or tmp)
        work.mkdir(parents=True, exist_ok=True)
        pid = server.proc.pid if server.proc is not None else args.server_pid
        source = export_file(args.size, work) if args.size else None
        print(f"load before: {os.getloadavg()[0]:.1f}", flush=True)
        for label, code in codes:
            env = child_env(code, server.password)
            env["MEMGRAPH_OUTBOX_DIR"] = str(Path(tmp) / f"outbox-{label}")
            empty_neo4j(server.uri, server.user, server.password)
            # warm the JVM and create the schema, untimed: a young store holds this one memory
            timed([sys.executable, "-m", "memgraph", "remember", "I started a new notebook today.", "--store",
                   server.uri, "--user", "warm"], env, code, pid)  # fmt: skip
            if source is not None:
                load = [sys.executable, "-m", "memgraph", "import", str(source), "--store", server.uri]
                w = timed(load, env, code, pid)
                print(f"  {label}: imported {args.size} memories in {w[0]:.0f} s", flush=True)
            trace_dir = Path(tmp) / "traces"
            trace_dir.mkdir(exist_ok=True)
            traced = trace_dir if args.trace else None
            runs, traces = run_code(label, code, server.uri, args.size, args.reps, env, pid, traced)
            for name, took in runs.items():
                s = summary(traces.get(name, []))
                rows.append(
                    {
                        "command": name,
                        "size": args.size,
                        "code": label,
                        "wall_p50_ms": round(1000 * statistics.median(t[0] for t in took)),
                        "cpu_p50_ms": round(1000 * statistics.median(t[1] for t in took)),
                        "server_cpu_p50_ms": round(1000 * statistics.median(t[2] for t in took)),
                        "statements": s["statements"] if args.trace else None,
                        "floats": s["floats"] if args.trace else None,
                        "bytes": s["bytes"] if args.trace else None,
                        "runs": len(took),
                        "load": round(os.getloadavg()[0], 1),
                    }
                )
                if args.trace:
                    print(f"    {label} {name}: {json.dumps(s)}", flush=True)
    print(f"\n{'command':9} {'size':>6} {'code':8} {'wall p50':>9} {'cpu p50':>8} {'server':>8} stmts floats bytes")
    for r in rows:
        print(
            f"{r['command']:9} {r['size']:>6} {r['code']:8} {r['wall_p50_ms']:>6} ms {r['cpu_p50_ms']:>5} ms "
            f"{r['server_cpu_p50_ms']:>5} ms {r['statements']} {r['floats']} {r['bytes']}"
        )
    path = write_rows("neo4j_grow", rows, keys=("command", "size", "code"))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
