"""When, inside one end-to-end recall, the question's vectors arrive and the vector searches run: wall clock from
the call, per mode, with the real model embedding the question (no embedding cache), as `bench/recall_scale.py`'s
end-to-end column does.

A cascade recall embeds the question and its cue-stripped form (retrieve/cues.py) on the recaller's embedding
thread while the recalling thread runs the full-text lists; the vector searches (`search_lists`) wait for them.
On a quiet two-core machine the cascade's end-to-end excess over hybrid is where that embedding ends and what
runs after it; this script prints, per mode, the p50 over the questions of: the first model call's start and the
last one's end (`Recaller._embed`), `search_lists`' start and end, the recall's end, and the process CPU time
per recall (all threads), with the number of model calls a recall makes. Post-recall maintenance runs as
configured by default and is waited for between recalls, outside the timed call. `--code DIR` runs another
checkout's memgraph on this checkout's cached stores (to set two ways of embedding side by side, in the same
minutes: run both, alternated). On a shared machine the wall columns measure the other sessions; read the CPU.

    python bench/recall_timeline.py --sizes 1000,10000 --data ../shared/data
    python bench/recall_timeline.py --sizes 10000 --code /tmp/other-checkout --data ../shared/data
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from recall_stages import open_checkout  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000", help="memories in the cached stores, comma-separated")
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--passes", type=int, default=1)
    ap.add_argument("--modes", default="hybrid,cascade")
    args = open_checkout(ap)
    import bench.recall_scale as rs
    import memgraph
    import memgraph.retrieve.pipeline as pl
    from memgraph import MemoryEngine, Settings
    from memgraph.embed import AutoEmbedder
    from memgraph.store import open_store

    events: list[tuple[str, float]] = []

    def marked(start: str, end: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*a: Any, **k: Any) -> Any:
            events.append((start, time.perf_counter()))
            try:
                return fn(*a, **k)
            finally:
                events.append((end, time.perf_counter()))

        return wrapper

    pl.Recaller._embed = marked("embed0", "embed1", pl.Recaller._embed)  # type: ignore[method-assign]
    setattr(pl, "search_lists", marked("search0", "search1", pl.search_lists))  # noqa: B010 (pipeline's own name)
    corpus = rs.load_corpus()
    print(f"memgraph from {Path(memgraph.__file__).parent}; ms from the call, p50 over the questions")
    model = AutoEmbedder()
    for size in (int(x) for x in args.sizes.split(",")):
        built = rs.cached_store(size, False, corpus)
        queries = random.Random(size).sample(corpus[2], min(args.queries, len(corpus[2])))
        with tempfile.TemporaryDirectory(prefix="memgraph-recall-timeline-") as tmp:
            work = Path(tmp) / "store"
            shutil.copytree(built, work)
            settings = Settings(store=str(work))
            engine = MemoryEngine(open_store(str(work), settings), settings, model)
            for q in queries[:20]:  # warm-up: the user's structures, the model, the compiled walk
                engine.recall(q, user_id=rs.USER, top_k=10, mode="cascade")
                engine.flush()
            if hasattr(rs, "walk_kind"):
                rs.walk_kind(settings)
            for _ in range(args.passes):
                for mode in args.modes.split(","):
                    rows: list[dict[str, float]] = []
                    for q in queries:
                        events.clear()
                        cpu0, t0 = time.process_time(), time.perf_counter()
                        engine.recall(q, user_id=rs.USER, top_k=10, mode=mode)
                        end, cpu = time.perf_counter(), time.process_time() - cpu0
                        engine.flush()
                        first: dict[str, float] = {}
                        last: dict[str, float] = {}
                        for name, at in events:
                            first.setdefault(name, at)
                            last[name] = at
                        rows.append(
                            {
                                "embed start": (first.get("embed0", t0) - t0) * 1e3,
                                "embed end": (last.get("embed1", t0) - t0) * 1e3,
                                "search start": (first.get("search0", t0) - t0) * 1e3,
                                "search end": (last.get("search1", t0) - t0) * 1e3,
                                "end": (end - t0) * 1e3,
                                "cpu": cpu * 1e3,
                                "model calls": float(sum(name == "embed0" for name, _ in events)),
                            }
                        )
                    p50 = {key: statistics.median(r[key] for r in rows) for key in rows[0]}
                    print(
                        f"{size:>9,} {mode:<8} embed {p50['embed start']:5.2f} -> {p50['embed end']:6.2f}   "
                        f"search_lists {p50['search start']:6.2f} -> {p50['search end']:6.2f}   end "
                        f"{p50['end']:6.2f}   CPU {p50['cpu']:6.2f}   model calls {p50['model calls']:.0f}   "
                        f"load {os.getloadavg()[0]:.1f}",
                        flush=True,
                    )
            engine.close()


if __name__ == "__main__":
    main()
