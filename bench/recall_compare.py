"""Do two checkouts recall the same? Dumps every recall's answer on a cached recall_scale store, then diffs dumps.

A speed change to the read path must not change what recall returns. This script recalls `--queries` LoCoMo dev
questions in each mode on a fresh copy of the cached `bench/recall_scale.py` store of `--size` memories, with the
clock frozen, the question vectors looked up (the real model embeds each question and its cue-stripped form once)
and the post-recall maintenance drained after every recall (so that both checkouts see the same store at every
step), and writes for every recall the memories in order with their scores, sections, traces, cue tags, token
counts, weak flags and warnings. `--code DIR` runs another checkout's memgraph through the same script:

    python bench/recall_compare.py --size 10000 --out /tmp/branch.json --data ../shared/data
    python bench/recall_compare.py --size 10000 --out /tmp/main.json --code ../main --data ../shared/data
    python bench/recall_compare.py --diff /tmp/main.json /tmp/branch.json
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
ROOT = Path(__file__).resolve().parent.parent

#: Scores may differ by float rounding only (the same arithmetic in another order).
TOLERANCE = 1e-9
FROZEN = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


def _freeze_clock() -> None:
    """Every module's `utcnow` returns FROZEN: recency and confidence then depend on the store only."""
    import memgraph.models

    def frozen() -> datetime:
        return FROZEN

    for mod in list(sys.modules.values()):
        if mod is not None and getattr(mod, "__name__", "").startswith("memgraph") and hasattr(mod, "utcnow"):
            mod.utcnow = frozen  # type: ignore[attr-defined]
    memgraph.models.utcnow = frozen  # type: ignore[assignment]


def dump(args: argparse.Namespace) -> None:
    if args.code:
        sys.path.insert(0, str(Path(args.code).resolve()))
    import memgraph  # noqa: F401 - from --code when given

    sys.path.insert(1, str(ROOT))
    import bench.recall_scale as rs
    from memgraph import MemoryEngine, Settings
    from memgraph.embed import AutoEmbedder
    from memgraph.store import open_store

    if args.data:
        rs.DATA = Path(args.data)
    print(f"memgraph from {Path(memgraph.__file__).parent}", flush=True)
    corpus = rs.load_corpus()
    built = rs.cached_store(args.size, False, corpus)
    queries = random.Random(args.seed).sample(corpus[2], min(args.queries, len(corpus[2])))
    import memgraph.retrieve.maintenance  # noqa: F401 - loaded before the clock is frozen
    import memgraph.retrieve.pipeline  # noqa: F401

    _freeze_clock()
    model = AutoEmbedder()
    records: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="memgraph-recall-compare-") as tmp:
        work = Path(tmp) / "store"
        shutil.copytree(built, work)
        settings = Settings(store=str(work))
        engine = MemoryEngine(open_store(str(work), settings), settings, rs.LookupEmbedder({}, fallback=model))
        # rs is the --code checkout's: one before the compiled walk has no walk_kind
        print(f"walk: {rs.walk_kind(settings) if hasattr(rs, 'walk_kind') else 'numpy (no compiled walk)'}")
        for mode in args.modes.split(","):
            for q in queries:
                r = engine.recall(q, user_id=rs.USER, top_k=10, mode=mode)
                engine.flush()
                records.append(
                    {
                        "mode": mode,
                        "query": q,
                        "ids": [m.id for m in r.memories],
                        "cue_tags": r.cue_tags,
                        "warnings": r.warnings,
                        "total_tokens": r.total_tokens,
                        "weak": r.weak.model_dump() if r.weak else None,
                        "trace": [t.model_dump(mode="json") for t in r.trace],
                    }
                )
        engine.close()
    Path(args.out).write_text(json.dumps(records))
    print(f"{len(records)} recalls written to {args.out}")


def _differs(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return True
        return not math.isclose(float(a), float(b), rel_tol=0.0, abs_tol=TOLERANCE)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() != b.keys() or any(_differs(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) != len(b) or any(_differs(x, y) for x, y in zip(a, b, strict=True))
    return bool(a != b)


def diff(left: Path, right: Path) -> int:
    a, b = json.loads(left.read_text()), json.loads(right.read_text())
    if len(a) != len(b):
        print(f"{len(a)} recalls against {len(b)}")
        return 1
    bad = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if _differs(x, y)]
    for i in bad[:5]:
        print(f"differs: {a[i]['mode']} {a[i]['query']!r}\n  {a[i]['ids']}\n  {b[i]['ids']}")
    print(f"{len(bad)} of {len(a)} recalls differ (scores compared to {TOLERANCE:g})")
    return 1 if bad else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=10_000, help="memories in the cached store")
    ap.add_argument("--queries", type=int, default=80)
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--modes", default="cascade,hybrid")
    ap.add_argument("--out", help="where to write the dump")
    ap.add_argument("--code", default=None, help="a checkout whose memgraph to run (default: this one)")
    ap.add_argument("--data", default=None, help="folder of locomo_dev.json and msc_personas.json")
    ap.add_argument("--diff", nargs=2, type=Path, metavar=("LEFT", "RIGHT"), help="compare two dumps")
    args = ap.parse_args()
    if args.diff:
        raise SystemExit(diff(*args.diff))
    if not args.out:
        ap.error("--out is required")
    dump(args)


if __name__ == "__main__":
    main()
