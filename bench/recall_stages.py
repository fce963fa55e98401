"""Where a recall's CPU goes, stage by stage: thread CPU time of the recalling thread in each step of the pipeline.

On this shared 2-core machine wall-clock figures mostly measure the other sessions; the recalling thread's CPU
time much less. This script recalls `--queries` LoCoMo dev questions (`--passes` times, after one warm-up pass) on
a fresh copy of a cached `bench/recall_scale.py` store with the question vectors looked up (the pipeline alone),
wraps the functions pipeline.py calls (and the store reads named in `STORE_READS`) and prints, per mode, each
stage's mean and median thread CPU per recall. Calls made on other threads (the post-recall maintenance) are not
counted. `--code DIR` runs another checkout's memgraph (the store and corpus come from this one's cache):

    python bench/recall_stages.py --size 1000 --data ../shared/data
    python bench/recall_stages.py --size 1000 --code ../main --data ../shared/data
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
ROOT = Path(__file__).resolve().parent.parent

#: The names pipeline.py calls that are timed (those a checkout lacks are skipped).
STAGES = (
    "find_cues",
    "text_lists",
    "search_lists",
    "resolve_superseded",
    "fuse",
    "seed_strengths",
    "spread",
    "combine_relevance",
    "top_relevance",
    "read_memories",
    "reply_factors",
    "score_many",
    "rank",
    "handed_out",
)
#: SQLite store reads timed inside the stages above (the reply rule's; `expand_table`: the walk in `spread`).
STORE_READS = ("sequence_pairs", "similarities", "get_links", "get_memories", "list_memories", "expand_table")


def open_checkout(ap: argparse.ArgumentParser) -> argparse.Namespace:
    """`ap`'s arguments with `--code` and `--data` added: the `--code` checkout's memgraph goes first on the path,
    and `bench.recall_scale` (this checkout's) reads this checkout's cached stores and that data folder, whichever
    code runs (recall_timeline.py parses the same way)."""
    ap.add_argument("--code", default=None, help="a checkout whose memgraph to run (default: this one)")
    ap.add_argument("--data", default=None, help="folder of locomo_dev.json and msc_personas.json")
    args = ap.parse_args()
    if args.code:
        sys.path.insert(0, str(Path(args.code).resolve()))
    import memgraph  # noqa: F401 (from --code, before this checkout joins the path)

    sys.path.insert(1, str(ROOT))
    import bench.recall_scale as rs

    rs.CACHE = ROOT / "bench" / ".cache" / "recall_scale"
    if args.data:
        rs.DATA = Path(args.data)
    return args


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=1000, help="memories in the cached store")
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--modes", default="hybrid,cascade")
    args = open_checkout(ap)
    import bench.recall_scale as rs
    import memgraph
    import memgraph.retrieve.pipeline as pl
    import memgraph.store.sqlite.store as sqlite_store
    from memgraph import MemoryEngine, Settings
    from memgraph.embed import AutoEmbedder
    from memgraph.store import open_store

    recalling = threading.get_ident()
    spent: dict[str, int] = {}

    def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*a: Any, **k: Any) -> Any:
            if threading.get_ident() != recalling:
                return fn(*a, **k)
            t0 = time.thread_time_ns()
            try:
                return fn(*a, **k)
            finally:
                spent[name] = spent.get(name, 0) + time.thread_time_ns() - t0

        return wrapper

    for name in STAGES:
        if hasattr(pl, name):
            setattr(pl, name, timed(name, getattr(pl, name)))
    pl.layer_mod.assemble = timed("assemble", pl.layer_mod.assemble)  # type: ignore[assignment]
    pl.Recaller._trace = timed("_trace", pl.Recaller._trace)  # type: ignore[method-assign]
    for name in STORE_READS:
        if hasattr(sqlite_store.SQLiteStore, name):
            setattr(sqlite_store.SQLiteStore, name, timed(name, getattr(sqlite_store.SQLiteStore, name)))

    corpus = rs.load_corpus()
    built = rs.cached_store(args.size, False, corpus)
    queries = random.Random(args.size).sample(corpus[2], min(args.queries, len(corpus[2])))
    print(f"memgraph from {Path(memgraph.__file__).parent}, {args.size:,} memories, {len(queries)} questions")
    with tempfile.TemporaryDirectory(prefix="memgraph-recall-stages-") as tmp:
        work = Path(tmp) / "store"
        shutil.copytree(built, work)
        settings = Settings(store=str(work))
        engine = MemoryEngine(open_store(str(work), settings), settings, rs.LookupEmbedder({}, fallback=AutoEmbedder()))
        # rs is the --code checkout's: one before the compiled walk has no walk_kind
        print(f"walk: {rs.walk_kind(settings) if hasattr(rs, 'walk_kind') else 'numpy (no compiled walk)'}")
        for q in queries:  # warm-up: loads the structures, embeds each question and its cue-stripped form once
            engine.recall(q, user_id=rs.USER, top_k=10, mode="cascade")
        engine.flush()
        for mode in args.modes.split(","):
            per: dict[str, list[float]] = defaultdict(list)
            for _ in range(args.passes):
                for q in queries:
                    spent.clear()
                    t0 = time.thread_time_ns()
                    engine.recall(q, user_id=rs.USER, top_k=10, mode=mode)
                    per["whole recall"].append((time.thread_time_ns() - t0) / 1e6)
                    for name, ns in spent.items():
                        per[name].append(ns / 1e6)
                    engine.flush()
            calls = len(per["whole recall"])
            print(f"{mode}: thread CPU per recall, ms (load {os.getloadavg()[0]:.1f})")
            for name, values in sorted(per.items(), key=lambda kv: -sum(kv[1])):
                values += [0.0] * (calls - len(values))  # a stage some recalls skip counts 0 there
                print(f"  {name:<20} mean {statistics.mean(values):6.2f}  p50 {statistics.median(values):6.2f}")
        engine.close()


if __name__ == "__main__":
    main()
