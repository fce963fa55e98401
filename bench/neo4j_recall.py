"""Neo4j cascade recall latency on one LoCoMo conversation, statement by statement.

    python bench/neo4j_recall.py                       # start a Neo4j here, ingest conversation 0, measure
    python bench/neo4j_recall.py --no-ingest --out a.json   # recall only, against MEMGRAPH_NEO4J_URI

The conversation is stored as `bench/locomo.py --ingests conversation` stores it (`remember_conversation`,
one call per session), recall runs with maintenance off (the graph does not change between questions, so two
runs against the same server, e.g. this branch and main, answer the same questions on the same graph), and
every question of the conversation is asked `--reps` times after a warm-up pass. Printed: recall p50/p95 and, per
statement (the first comment line of its .cypher file), the milliseconds per recall, calls per recall and the
median of one call. `--out` writes the served memory ids per question and the figures (compare two runs' ids to
check that a change gives the same answers).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_neo4j import neo4j_server  # noqa: E402
from bench_results import write_rows  # noqa: E402
from locomo import INGEST, default_data, percentile  # noqa: E402

from memgraph import MemoryEngine  # noqa: E402
from memgraph.store import neo4j_executor  # noqa: E402

Timings = dict[str, list[float]]


def statement_key(statement: str) -> str:
    """A statement's name in the printout: the first comment line of its .cypher file."""
    lines = [ln.strip() for ln in statement.splitlines() if ln.strip().startswith("//")]
    return (lines[0] if lines else statement.strip()[:60])[:80]


def record_statements(timings: Timings, seen: dict[str, tuple[str, dict[str, Any]]]) -> None:
    """Time every statement the Neo4j client runs, keyed by `statement_key`; keep each one's last parameters
    (`seen`) for `plans`."""
    for name in ("run", "run_user", "run_matrix"):
        orig = getattr(neo4j_executor.Neo4jExecutor, name)

        def timed(self: Any, statement: str, *a: Any, _orig: Any = orig, **k: Any) -> Any:
            t = time.perf_counter()
            try:
                return _orig(self, statement, *a, **k)
            finally:
                key = statement_key(statement)
                timings[key].append((time.perf_counter() - t) * 1000)
                seen[key] = (statement, a[0] if a else k.get("params", {}))

        setattr(neo4j_executor.Neo4jExecutor, name, timed)


def measure(engine: MemoryEngine, user: str, questions: list[str], reps: int, timings: Timings) -> dict[str, Any]:
    for q in questions:  # warm-up: plans cached, pages in the page cache
        engine.recall(q, user_id=user, top_k=10, token_budget=100_000)
    timings.clear()
    lat: list[float] = []
    served: dict[str, list[str]] = {}
    for _ in range(reps):
        for q in questions:
            t = time.perf_counter()
            res = engine.recall(q, user_id=user, top_k=10, token_budget=100_000)
            lat.append((time.perf_counter() - t) * 1000)
            served[q] = [m.id for m in res.memories]
    n = len(lat)
    per_statement = {
        k: {"ms_per_recall": sum(v) / n, "calls_per_recall": len(v) / n, "median_ms": statistics.median(v)}
        for k, v in sorted(timings.items(), key=lambda kv: -sum(kv[1]))
    }
    return {
        "recalls": n,
        "p50_ms": percentile(lat, 0.5),
        "p95_ms": percentile(lat, 0.95),
        "statements": per_statement,
        "served": served,
    }


def _walk(plan: dict[str, Any], depth: int, ops: list[tuple[int, str, int, int]]) -> int:
    """A profiled plan's db hits, its operators appended to `ops` as (depth, operator, db hits, rows)."""
    own = int(plan.get("dbHits", 0))
    ops.append((depth, plan.get("operatorType", "?"), own, int(plan.get("rows", 0))))
    return own + sum(_walk(c, depth + 1, ops) for c in plan.get("children", []))


def plans(uri: str, user: str, password: str, seen: dict[str, tuple[str, dict[str, Any]]]) -> dict[str, int]:
    """PROFILE each statement of the last recall with its parameters: total database hits, and the plan's
    operators with theirs (printed)."""
    import neo4j

    hits: dict[str, int] = {}
    with neo4j.GraphDatabase.driver(uri, auth=(user, password), notifications_min_severity="OFF") as driver:
        with driver.session(default_access_mode=neo4j.READ_ACCESS) as session:
            for key, (statement, params) in seen.items():
                if "Parameters" not in statement:
                    continue
                result = session.run("PROFILE " + statement, neo4j_executor.bolt_params(params))
                list(result)
                summary = result.consume()
                ops: list[tuple[int, str, int, int]] = []
                total = _walk(summary.profile, 0, ops) if summary.profile else 0
                hits[key] = total
                print(f"\n{total:8d} db hits  {key}")
                for depth, op, own, rows in ops:
                    print(f"    {'  ' * depth}{op}: {own} hits, {rows} rows")
    return hits


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=default_data(), help="LoCoMo JSON (default: the dev split)")
    ap.add_argument("--conversation", type=int, default=0, help="which conversation of the file")
    ap.add_argument("--questions", type=int, default=60, help="questions asked (the conversation's first N)")
    ap.add_argument("--reps", type=int, default=2, help="times each question is asked after the warm-up")
    ap.add_argument("--no-ingest", action="store_true", help="the conversations are already in the server")
    ap.add_argument("--ingest", choices=sorted(INGEST), default="conversation", help="how they are stored")
    ap.add_argument(
        "--conversations", type=int, default=1, help="conversations stored (the first N, the measured one included)"
    )
    ap.add_argument("--cache-dir", default=str(Path(__file__).resolve().parent / ".cache"), help="embeddings cache")
    ap.add_argument("--out", help="write the figures and the served ids here (JSON)")
    ap.add_argument("--plans", action="store_true", help="PROFILE every statement of the last recall (db hits)")
    ap.add_argument("--label", default="this code", help="the row's name in bench/results/neo4j_recall.json")
    ap.add_argument(
        "--append-results", action="store_true", help="merge the summary row into bench/results/neo4j_recall.json"
    )
    args = ap.parse_args()
    data = json.loads(Path(args.data).read_text())
    sample = data[args.conversation]
    stored = [d for d in data[: max(args.conversations, 1)] if d is not sample] + [sample]
    user = sample["sample_id"]
    questions = [qa["question"] for qa in sample["qa"]][: args.questions]
    timings: Timings = collections.defaultdict(list)
    seen: dict[str, tuple[str, dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        server = stack.enter_context(neo4j_server(Path(tmp), heap="1g", pagecache="512m"))
        settings = server.settings(recall_maintenance=False, embed_cache_dir=args.cache_dir)
        engine = stack.enter_context(MemoryEngine.open(server.uri, settings=settings))
        ingest_s = None
        record_statements(timings, seen)
        if not args.no_ingest:
            server.wipe()
            t0 = time.perf_counter()
            for conv in stored:
                INGEST[args.ingest](engine, conv)
            ingest_s = time.perf_counter() - t0
            print(f"ingest ({args.ingest}) of {len(stored)} conversations: {ingest_s:.1f} s", flush=True)
            print("statements of the ingest:")
            for key, v in sorted(timings.items(), key=lambda kv: -sum(kv[1]))[:12]:
                print(f"{sum(v) / 1000:8.1f} s {len(v):6d} calls  med {statistics.median(v):6.1f} ms  {key}")
        load_before = os.getloadavg()
        report = measure(engine, user, questions, args.reps, timings)
        report.update(load_before=load_before, load_after=os.getloadavg(), ingest_s=ingest_s, user=user)
        if args.plans:
            seen.clear()
            engine.recall(questions[0], user_id=user, top_k=10, token_budget=100_000)
            report["db_hits"] = plans(server.uri, server.user, server.password, seen)
    print(
        f"{report['recalls']} recalls of {user}: p50 {report['p50_ms']:.1f} ms, p95 {report['p95_ms']:.1f} ms "
        f"(load {report['load_before'][0]:.2f} -> {report['load_after'][0]:.2f})"
    )
    for key, st in report["statements"].items():
        ms, calls, med = st["ms_per_recall"], st["calls_per_recall"], st["median_ms"]
        print(f"{ms:8.1f} ms/recall {calls:5.1f} calls  med {med:6.1f}  {key}")
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1))
    if args.append_results:
        row = {
            "label": args.label,
            "stored_conversations": len(stored) if not args.no_ingest else None,
            "user": user,
            "recalls": report["recalls"],
            "p50_ms": round(report["p50_ms"], 1),
            "p95_ms": round(report["p95_ms"], 1),
            "load": [round(report["load_before"][0], 2), round(report["load_after"][0], 2)],
            "statements_ms_per_recall": {
                key[3:43]: round(st["ms_per_recall"], 1) for key, st in report["statements"].items()
            },
        }
        print("rows in", write_rows("neo4j_recall", [row], keys=("label", "user")))


if __name__ == "__main__":
    main()
