"""Recall latency at scale: one user with N memories (default 100,000), p50/p95 per mode.

Memories are synthetic but shaped like real ones: text drawn from a Zipf-distributed vocabulary, embeddings
clustered around topic centroids (so kNN has structure), two to four tags each from a few hundred topics plus
a hub tag on every memory, and sequence links between neighbours (as conversations have). Embeddings are
pre-computed and handed to `remember_many`; queries are embedded by a lookup embedder, so the latency is the
recall pipeline's (store search, cascade, ranking), not the model's. The model's own query-embedding time is
measured in the same run and printed beside it (add it for an end-to-end figure).

    python bench/recall_scale.py                 # 100k memories, 200 queries per mode
    python bench/recall_scale.py --n 20000 --append-results
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from rich.progress import Progress  # noqa: E402

from memgraph import Link, LinkSource, MemoryEngine, Relation, Settings  # noqa: E402
from memgraph.store import WriteBatch  # noqa: E402

DIM = 384


class LookupEmbedder:
    """Returns pre-computed vectors for known texts (the synthetic queries); counts tokens by words."""

    model_name = "all-MiniLM-L6-v2"
    dim = DIM

    def __init__(self, table: dict[str, np.ndarray]) -> None:
        self.table = table

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        rng = np.random.default_rng(0)
        out = []
        for t in texts:
            v = self.table.get(t)
            if v is None:  # e.g. the query with cue words removed: a nearby vector
                v = rng.normal(size=DIM).astype(np.float32)
            out.append(v / np.linalg.norm(v))
        return np.stack(out).astype(np.float32)

    def count_tokens(self, text: str) -> int:
        return max(1, round(len(text.split()) * 1.3))


def make_corpus(
    n: int, seed: int = 7
) -> tuple[list[str], np.ndarray, list[list[str]], np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    vocab = [f"w{i}" for i in range(20_000)]
    ranks = np.arange(1, len(vocab) + 1)
    p = 1.0 / ranks
    p /= p.sum()
    n_topics = 400
    centroids = rng.normal(size=(n_topics, DIM)).astype(np.float32)
    topic = rng.integers(0, n_topics, size=n)
    emb = centroids[topic] + 0.9 * rng.normal(size=(n, DIM)).astype(np.float32)
    emb /= np.linalg.norm(emb, axis=1, keepdims=True)
    words = rng.choice(len(vocab), size=(n, 14), p=p)
    texts = [f"memory {i}: " + " ".join(vocab[w] for w in row) for i, row in enumerate(words)]
    tags = [[f"topic{topic[i]}", f"topic{(topic[i] * 7 + 3) % n_topics}", "everything"] for i in range(n)]
    return texts, emb, tags, topic, centroids


def build(engine: MemoryEngine, n: int, batch: int) -> tuple[list[str], np.ndarray, np.ndarray, list[str]]:
    texts, emb, tags, topic, centroids = make_corpus(n)
    ids: list[str] = []
    with Progress() as progress:
        task = progress.add_task(f"writing {n:,} memories", total=n)
        for start in range(0, n, batch):
            items = [
                {"content": texts[i], "tags": tags[i], "embedding": emb[i], "kind": "event"}
                for i in range(start, min(n, start + batch))
            ]
            mems = engine.remember_many(items, user_id="scale")
            ids += [m.id for m in mems]
            progress.advance(task, len(items))
    links = [
        Link(src=a, dst=b, relation=Relation.RELATES_TO, weight=0.7, source=LinkSource.SEQUENCE)
        for a, b in zip(ids, ids[1:], strict=False)
    ]
    for start in range(0, len(links), 20_000):
        engine.store.write("scale", WriteBatch(links=links[start : start + 20_000]))
    return texts, emb, topic, ids


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=100_000, help="memories")
    ap.add_argument("--queries", type=int, default=200, help="recalls per mode")
    ap.add_argument("--batch", type=int, default=5000, help="memories per remember_many call")
    ap.add_argument("--modes", default="lexical,semantic,hybrid,cascade")
    ap.add_argument("--append-results", action="store_true", help="append the table to bench/RESULTS.md")
    args = ap.parse_args()
    rng = np.random.default_rng(11)
    with tempfile.TemporaryDirectory() as tmp:
        table: dict[str, np.ndarray] = {}
        emb_holder = LookupEmbedder(table)
        settings = Settings(store=tmp, recall_maintenance=False)
        engine = MemoryEngine.open(tmp, settings=settings, embedder=emb_holder)
        t0 = time.perf_counter()
        texts, emb, _topic, _ids = build(engine, args.n, args.batch)
        build_s = time.perf_counter() - t0
        queries = []
        for _ in range(args.queries):
            i = int(rng.integers(0, args.n))
            words = texts[i].split()[2:]
            q = " ".join(rng.choice(words, size=4, replace=False)) + f" topic{i % 400}"
            v = emb[i] + 0.5 * rng.normal(size=DIM).astype(np.float32)
            table[q] = v.astype(np.float32)
            queries.append(q)
        engine.recall(queries[0], user_id="scale")  # loads the user's vector matrix once
        rows = []
        for mode in args.modes.split(","):
            lat = []
            for q in queries:
                start = time.perf_counter()
                engine.recall(q, user_id="scale", top_k=10, mode=mode)
                lat.append((time.perf_counter() - start) * 1000)
            lat.sort()
            rows.append((mode, statistics.median(lat), lat[int(0.95 * (len(lat) - 1))]))
        engine.close()
    from memgraph.embed import SentenceTransformerEmbedder

    model = SentenceTransformerEmbedder()
    model.encode(["warm up"])
    qlat = []
    for q in queries[:50]:
        start = time.perf_counter()
        model.encode([q])
        qlat.append((time.perf_counter() - start) * 1000)
    qlat.sort()
    lines = ["| mode | p50 ms | p95 ms |", "|---|---|---|"]
    lines += [f"| {m} | {p50:.1f} | {p95:.1f} |" for m, p50, p95 in rows]
    q95 = qlat[int(0.95 * (len(qlat) - 1))]
    lines.append(f"| (query embedding, model) | {statistics.median(qlat):.1f} | {q95:.1f} |")
    text = "\n".join(lines)
    print(text)
    print(
        f"{args.n:,} memories of one user, build {build_s:.0f} s, {args.queries} recalls per mode, top_k=10"
    )
    if args.append_results:
        stamp = datetime.now(UTC).strftime("%Y-%m-%d")
        machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
        with open(ROOT / "bench" / "RESULTS.md", "a", encoding="utf-8") as fh:
            fh.write(
                f"\n### Recall latency at {args.n:,} memories ({stamp}, {machine}, SQLite)\n\n{text}\n\n"
            )


if __name__ == "__main__":
    main()
