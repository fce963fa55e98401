"""What a cascade recall's query embedding costs: the question alone against the question and its cue-stripped form.

A cascade recall whose question names a cue tag (a speaker, a date) embeds two texts: the question for the global
vector search, its cue-stripped form for the tag-scoped ones (the twentieth recall-at-scale round in bench/RESULTS.md
measured what one text would save, and what it would lose on LoCoMo). This script finds the cue-bearing
questions among `--queries` LoCoMo dev questions (`find_cues` on a copy of a cached `bench/recall_scale.py` store)
and times the real model on both inputs, alternated question by question so that the machine's load falls on
both alike: the process's CPU time (all the model's threads) and the wall clock, p50 and mean, in ms.

    python bench/query_embedding.py --size 10000 --data ../shared/data
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

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=10_000, help="memories in the cached store")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--data", default=None, help="folder of locomo_dev.json and msc_personas.json")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    import bench.recall_scale as rs
    from memgraph import Settings
    from memgraph.embed import AutoEmbedder
    from memgraph.retrieve.cues import find_cues
    from memgraph.store import open_store

    if args.data:
        rs.DATA = Path(args.data)
    corpus = rs.load_corpus()
    built = rs.cached_store(args.size, False, corpus)
    questions = random.Random(args.size).sample(corpus[2], min(args.queries, len(corpus[2])))
    with tempfile.TemporaryDirectory(prefix="memgraph-query-embedding-") as tmp:
        work = Path(tmp) / "store"
        shutil.copytree(built, work)
        settings = Settings(store=str(work))
        store = open_store(str(work), settings)
        cued = []
        for q in questions:
            cues = find_cues(store, rs.USER, q, max_tags=settings.max_cue_tags)
            if cues.tags:
                cued.append((q, cues.stripped_query))
        store.close()
    model = AutoEmbedder()
    model.encode(["warm-up"])
    inputs: dict[str, Callable[[str, str], list[str]]] = {
        "question": lambda q, s: [q],
        "question + stripped": lambda q, s: [q, s],
    }
    cpu: dict[str, list[float]] = {k: [] for k in inputs}
    wall: dict[str, list[float]] = {k: [] for k in inputs}
    for _ in range(args.passes):
        for q, s in cued:
            for name, texts in inputs.items():
                c0, w0 = time.process_time_ns(), time.perf_counter_ns()
                model.encode(texts(q, s))
                cpu[name].append((time.process_time_ns() - c0) / 1e6)
                wall[name].append((time.perf_counter_ns() - w0) / 1e6)
    load = os.getloadavg()[0]
    print(f"{len(cued)} of {len(questions)} questions name a cue tag; {args.passes} passes, load {load:.1f}")
    for name in inputs:
        print(
            f"  {name:<20} CPU p50 {statistics.median(cpu[name]):6.2f} mean {statistics.mean(cpu[name]):6.2f}"
            f"   wall p50 {statistics.median(wall[name]):6.2f} mean {statistics.mean(wall[name]):6.2f}"
        )


if __name__ == "__main__":
    main()
