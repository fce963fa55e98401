"""What the owner re-check costs (memgraph/cypher/include/owner.cypher), and proof that the plan still starts
from the user_id index.

Every Cypher statement follows its indexed owner comparison with `AND coalesce(x.user_id, '') = $user_id`, which no
index can answer, so it is evaluated on every node the index returns. This benchmark loads an embedded FalkorDB (or a
Neo4j, `--store neo4j`) with several users' memories and runs statements with and without the re-check,
interleaved, reporting medians, the ratio, and a floor (`RETURN 1`, the round trip) measured in the same run:

- `count`: a bare `MATCH (m:Memory) WHERE m.user_id = $user_id RETURN count(m)` (the worst case: nothing else
  to do per node but the re-check);
- `list_memories` and `get_memories`: the shipped statements, as the store runs them, against the same text
  with the re-check line removed.

    python bench/owner_recheck.py                         # 4 users x 5,000 memories on embedded FalkorDB
    python bench/owner_recheck.py --users 10 --per-user 10000 --repeats 30

Writes a row per query to bench/results/owner_recheck.json; record the load average beside the numbers
(RESULTS.md, "Owner re-check").
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_results import write_rows  # noqa: E402
from memgraph.config import Settings  # noqa: E402
from memgraph.models import Memory  # noqa: E402
from memgraph.store import WriteBatch, open_store  # noqa: E402
from memgraph.store.cypher import CypherStore  # noqa: E402

RECHECK = "  AND coalesce(m.user_id, '') = $user_id\n"


def _load(store: CypherStore, users: int, per_user: int) -> list[str]:
    names = [f"user-{u:03d}" for u in range(users)]
    for name in names:
        for start in range(0, per_user, 2000):
            mems = [Memory(id=f"m_{name}_{i}", user_id=name, content=f"note {i} of {name} about topic {i % 97}")
                    for i in range(start, min(per_user, start + 2000))]
            store.write(name, WriteBatch(memories=mems))
    return names


def _time(fn: Callable[[], Any], repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", choices=["falkordb", "neo4j"], default="falkordb")
    ap.add_argument("--users", type=int, default=4)
    ap.add_argument("--per-user", type=int, default=5000)
    ap.add_argument("--repeats", type=int, default=20)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="owner-recheck-")
    if args.store == "falkordb":
        target = f"falkordb+dir://{tmp}"
        settings = Settings(store=target)
    else:
        target = os.environ.get("MEMGRAPH_NEO4J_URI", "bolt://localhost:7687")
        settings = Settings(store=target)
    store = open_store(target, settings)
    assert isinstance(store, CypherStore)
    run = store._x.run  # noqa: SLF001 - the benchmark times raw statements
    users = _load(store, args.users, args.per_user)
    user = users[len(users) // 2]
    ids = [f"m_{user}_{i}" for i in range(0, args.per_user, max(1, args.per_user // 100))]
    flt = store._filter(user, None)  # noqa: SLF001
    list_with = store.dialect.statement("list_memories")
    get_with = store.dialect.statement("get_memories")
    queries: dict[str, tuple[str, str, dict[str, Any]]] = {
        "count": (
            "MATCH (m:Memory) WHERE m.user_id = $user_id\n" + RECHECK + "RETURN count(m) AS n",
            "MATCH (m:Memory) WHERE m.user_id = $user_id\nRETURN count(m) AS n",
            {"user_id": user},
        ),
        "list_memories": (list_with, list_with.replace(RECHECK, ""), {**flt, "offset": 0, "limit": 100}),
        "get_memories": (get_with, get_with.replace(RECHECK, ""),
                         {"user_id": user, "ids": ids, "with_embeddings": False}),
    }
    floor = statistics.median(_time(lambda: run("RETURN 1 AS one", {}, write=False), args.repeats))
    rows = []
    print(f"{args.store}: {args.users} users x {args.per_user} memories; load {os.getloadavg()[0]:.2f}; "
          f"floor (RETURN 1) {floor:.2f} ms")
    for name, (with_check, without, params) in queries.items():
        assert with_check != without, name
        same = run(with_check, params, write=False) == run(without, params, write=False)
        timed: dict[str, list[float]] = {"with": [], "without": []}
        for _ in range(args.repeats):  # interleaved: load changes hit both alike
            timed["without"] += _time(lambda w=without, p=params: run(w, p, write=False), 1)
            timed["with"] += _time(lambda w=with_check, p=params: run(w, p, write=False), 1)
        med = {k: statistics.median(v) for k, v in timed.items()}
        plan = _plan(store, with_check, params)
        print(f"  {name:14s} without {med['without']:8.2f} ms  with {med['with']:8.2f} ms  "
              f"ratio {med['with'] / med['without']:.2f}  same rows {same}  index in plan: {plan}")
        rows.append({"store": args.store, "query": name, "size": args.users * args.per_user,
                     "users": args.users, "without_ms": round(med["without"], 3), "with_ms": round(med["with"], 3),
                     "ratio": round(med["with"] / med["without"], 3), "floor_ms": round(floor, 3),
                     "same_rows": same, "index_in_plan": plan, "repeats": args.repeats})
    write_rows("owner_recheck", rows, keys=("store", "query", "size"))
    store.close()


def _plan(store: CypherStore, statement: str, params: dict[str, Any]) -> bool:
    """Does the plan of the re-checked statement still start from an index on user_id (or id)?"""
    if store.name == "falkordb":
        from memgraph.store.falkordb_params import FalkorParams

        text = FalkorParams.header(params) + statement
        plan = store._x._graph.explain(text)  # noqa: SLF001
        return "Index Scan" in str(plan)
    rows = store._x.run("EXPLAIN " + statement, params, write=False)  # noqa: SLF001
    return rows is not None


if __name__ == "__main__":
    main()
