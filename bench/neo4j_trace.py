"""Run one `memgraph` CLI command with the Cypher store's statements traced (bench/neo4j_grow.py's --trace).

    python bench/neo4j_trace.py OUT.jsonl remember "text" --store bolt://... --user u

Patches `CypherStore._read`, `_read_matrix` and `_write` (each gets the statement's file name) before the CLI
runs, and appends one JSON line per statement run to OUT: `{name, seconds, rows, floats, bytes}`. `floats` counts
the numbers of list values (vectors) in the rows; `bytes` is a rough size of what came back (8 per number, the
length of each string), Bolt's own framing left out.
"""

from __future__ import annotations

import json
import runpy
import sys
import time
from typing import Any

import numpy as np


def _size(value: Any) -> tuple[int, int]:
    """(floats in lists, rough bytes) of a returned value."""
    if isinstance(value, np.ndarray):
        return int(value.size), int(value.size) * 8
    if isinstance(value, dict):
        parts = [_size(v) for v in value.values()]
        return sum(p[0] for p in parts), sum(p[1] for p in parts) + sum(len(str(k)) for k in value)
    if isinstance(value, list | tuple):
        parts = [_size(v) for v in value]
        floats = sum(p[0] for p in parts) + sum(1 for v in value if isinstance(v, float))
        return floats, sum(p[1] for p in parts)
    if isinstance(value, str):
        return 0, len(value)
    return 0, 8


def main() -> None:
    out_path = sys.argv[1]
    from memgraph.store import cypher

    def wrap(method: str) -> None:
        original = getattr(cypher.CypherStore, method)

        def traced(self: Any, name: str, *args: Any, **params: Any) -> Any:
            t = time.perf_counter()
            result = original(self, name, *args, **params)
            floats, size = _size(result)
            rows = len(result[0]) if isinstance(result, tuple) else len(result)
            row = {"name": name, "seconds": time.perf_counter() - t, "rows": rows, "floats": floats, "bytes": size}
            with open(out_path, "a") as out:  # the CLI leaves with os._exit: no atexit, so one line per statement
                out.write(json.dumps(row) + "\n")
            return result

        setattr(cypher.CypherStore, method, traced)

    for method in ("_read", "_read_matrix", "_write"):
        wrap(method)
    open(out_path, "w").close()
    sys.argv = ["memgraph", *sys.argv[2:]]
    runpy.run_module("memgraph", run_name="__main__")


if __name__ == "__main__":
    main()
