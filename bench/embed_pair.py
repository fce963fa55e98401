"""What a cascade recall's two query texts cost the embedder: the question and its cue-stripped form.

A cascade recall embeds the question and, when the question names cue tags (retrieve/cues.py), the question with
the naming words removed, in one `encode` call (retrieve/pipeline.py). This script takes the LoCoMo dev questions a
`bench/recall_scale.py` store of `--size` memories is asked, finds their cue-stripped forms on a copy of that
store, and times, per question with cue tags (wall and process CPU, ms): the question alone and the pair in one
call on the ONNX session with its default threads and with one intra-op thread, and the pair as two concurrent
one-text calls on the one-thread session. It also says whether the pair is one model run (`onnx_backend._batches`)
and whether the vectors equal each text embedded alone. On a shared machine read the CPU columns; the wall columns
mean something only on a quiet one:

    python bench/embed_pair.py --size 1000 --data ../shared/data
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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=1000, help="memories in the cached store (its cue tags)")
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--data", default=None, help="folder of locomo_dev.json and msc_personas.json")
    args = ap.parse_args()

    import bench.recall_scale as rs
    from memgraph import Settings
    from memgraph.embed.onnx_backend import OnnxEmbedder, _batches
    from memgraph.retrieve.cues import find_cues
    from memgraph.store import open_store

    if args.data:
        rs.DATA = Path(args.data)
    corpus = rs.load_corpus()
    built = rs.cached_store(args.size, False, corpus)
    queries = random.Random(args.size).sample(corpus[2], min(args.queries, len(corpus[2])))
    settings = Settings()
    with tempfile.TemporaryDirectory(prefix="memgraph-embed-pair-") as tmp:
        work = Path(tmp) / "store"
        shutil.copytree(built, work)
        store = open_store(str(work), Settings(store=str(work)))
        cues = [find_cues(store, rs.USER, q, max_tags=settings.max_cue_tags) for q in queries]
        store.close()
    pairs = [(q, c.stripped_query) for q, c in zip(queries, cues, strict=True) if c.tags]
    default, single = OnnxEmbedder(), OnnxEmbedder(threads=1)
    default.encode(["warm"])
    single.encode(["warm"])
    assert default._inputs is not None
    inputs = default._inputs
    one_run = sum(len(_batches(sorted(map(len, inputs.ids(list(p))), reverse=True), 32)) == 1 for p in pairs)
    equal = sum(
        np.array_equal(default.encode(list(p)), np.vstack([default.encode([p[0]]), default.encode([p[1]])]))
        for p in pairs
    )
    same_threads = sum(np.array_equal(default.encode(list(p)), single.encode(list(p))) for p in pairs)
    print(
        f"{len(pairs)} of {len(queries)} questions name cue tags; the pair is one model run for {one_run}; its "
        f"vectors equal each text's alone for {equal}; one thread's equal the default's for {same_threads}"
    )
    pool = ThreadPoolExecutor(max_workers=2)

    def concurrent(q: str, s: str) -> np.ndarray:
        later = pool.submit(single.encode, [s])
        return np.vstack([single.encode([q]), later.result()])

    variants: list[tuple[str, Callable[[str, str], object]]] = [
        ("question alone, default threads", lambda q, s: default.encode([q])),
        ("pair in one call, default threads", lambda q, s: default.encode([q, s])),
        ("question alone, one thread", lambda q, s: single.encode([q])),
        ("pair in one call, one thread", lambda q, s: single.encode([q, s])),
        ("pair as two concurrent calls, one thread each", concurrent),
    ]
    for _ in range(args.rounds):
        for name, fn in variants:
            wall, cpu = [], []
            for q, s in pairs:
                c0, t0 = time.process_time(), time.perf_counter()
                fn(q, s)
                wall.append((time.perf_counter() - t0) * 1000)
                cpu.append((time.process_time() - c0) * 1000)
            print(
                f"  {name:<48} wall p50 {statistics.median(wall):6.2f}  CPU p50 {statistics.median(cpu):6.2f}  "
                f"load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
    pool.shutdown()


if __name__ == "__main__":
    main()
