"""Subprocess for the crash-safety test: writes planned batches and acknowledges each on stdout.

Batch b holds BATCH memories whose content, embedding, tag and links are a pure function of (b, i), so a rerun
after a kill writes exactly the same ids (idempotent MERGE by content-hash id) and the parent can check every
batch is wholly present or wholly absent.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from memgraph import MemoryEngine, Settings

DIM = 384


def batch_items(b: int, size: int) -> list[dict]:
    rng = np.random.default_rng(1000 + b)
    vecs = rng.normal(size=(size, DIM)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    return [
        {
            "content": f"crash-test batch {b} item {i}: the quick brown fox {b * 1000 + i}",
            "tags": [f"batch-{b}", "crash"],
            "metadata": {"batch": b, "item": i},
            "embedding": vecs[i].tolist(),
        }
        for i in range(size)
    ]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", required=True)
    ap.add_argument("--user", default="crash")
    ap.add_argument("--batches", type=int, default=40)
    ap.add_argument("--size", type=int, default=100)
    args = ap.parse_args()
    engine = MemoryEngine.open(args.store, settings=Settings(store=args.store))
    print("ready", flush=True)
    for b in range(args.batches):
        # One atomic write per batch: memories + embeddings + tags.
        engine.remember_many(batch_items(b, args.size), user_id=args.user)
        print(f"ack {b}", flush=True)
    engine.close()
    print("done", flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
