"""Approximate vector search against exact search at 100k and 1M vectors of one user: build time, recall@10 and
latency of faiss indexes on the vectors the recall bench stores (bench/recall_scale.py).

The matrix: the turns `recall_scale.sessions_for(n)` generates, each the normalised mean of its one to three
sentences' real MiniLM vectors (the cached `units-*.npy` of recall_scale; the vectors only, no store is built).
Many turns are one sentence, and a sentence recurs across turns (~34k distinct sentences), so the matrix
holds many exact duplicates. The queries: LoCoMo dev questions (categories 1-4) embedded with the real model
(cached under bench/.cache/ann/).

Recall@10 counts ties: a returned row whose exact cosine equals or beats the exact 10th best cosine (within
1e-6) is a correct hit, whichever of several equal rows exact search happened to list. Counting ids only,
duplicates make a perfect index look like 0.9.

Latency: one query per call (what a recall asks), p50/p95 ms over the queries; faiss on one OpenMP thread (as
the store runs it), numpy's BLAS on its default threads; `exact_p50_ms` is numpy's exact top-10 over the same
matrix in the same run. Build: wall seconds and CPU seconds (on a shared machine the wall time is mostly
waiting). `memgraph` is the store's own index (store/sqlite/ann.py, default settings), also saved and loaded
again; `--store` times the store's `vector_search` on a copy of recall_scale's cached store of n memories
(with and without the index) and the index's build and reload there. Rows go to bench/results/ann.json:
{n, index, params, build_s, build_cpu_s, recall10, p50_ms, p95_ms, exact_p50_ms}.

    python bench/ann.py --sizes 100000 --indexes memgraph --store --append-results
    python bench/ann.py --sizes 1000000 --indexes memgraph,pqfs96,ivf2 --probes 0.1,0.2 --append-results
    python bench/ann.py --sizes 100000 --indexes pqfs96,ivf1,ivf4,hnsw32 --depths 100,200,400 --efs 64,256
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bench import recall_scale  # noqa: E402
from bench.bench_results import write_rows  # noqa: E402

CACHE = ROOT / "bench" / ".cache" / "ann"
K = 10
_KEEP: list[Any] = []
PROBES = [0.02, 0.05, 0.1, 0.2]
EFS = [32, 64, 128, 256]
DEPTHS = [50, 100, 200, 400]
BUILD_CPU = [0.0]  # CPU seconds (all threads) of the last build: wall time on a shared machine is mostly waiting
TIE = 1e-6


def matrix(n: int) -> np.ndarray:
    """The n turn vectors recall_scale's store of n memories holds (cached as .npy: 1M is 1.5 GB)."""
    path = CACHE / f"matrix-gen{recall_scale.GENERATOR}-{n}.npy"
    if path.exists():
        return np.load(path)
    locomo, sentences, _ = recall_scale.load_corpus()
    units = list(dict.fromkeys([u for s in locomo for _, us in s.turns for u in us] + sentences))
    table = recall_scale.embed_units(units)
    out = np.zeros((n, 384), dtype=np.float32)
    i = 0
    for s in recall_scale.sessions_for(n, locomo, sentences):
        for _, us in s.turns:
            out[i] = recall_scale.turn_vector(us, table)
            i += 1
    assert i == n, (i, n)
    CACHE.mkdir(parents=True, exist_ok=True)
    np.save(path, out)
    return out


def questions(count: int) -> np.ndarray:
    """`count` LoCoMo dev questions embedded with the real model (cached)."""
    _, _, qs = recall_scale.load_corpus()
    qs = qs[:count]
    digest = hashlib.sha256("\n".join(qs).encode()).hexdigest()[:16]
    path = CACHE / f"questions-{digest}.npy"
    if path.exists():
        return np.load(path)
    from memgraph.embed import AutoEmbedder

    vecs = np.asarray(AutoEmbedder().encode(qs), dtype=np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    CACHE.mkdir(parents=True, exist_ok=True)
    np.save(path, vecs)
    return vecs


def exact_top(x: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(ids, scores) of the exact top-K per query, blocked so that 1M x queries fits."""
    ids = np.zeros((len(q), K), dtype=np.int64)
    scores = np.zeros((len(q), K), dtype=np.float32)
    for s in range(0, len(q), 32):
        sims = q[s : s + 32] @ x.T
        part = np.argpartition(-sims, K - 1, axis=1)[:, :K]
        vals = np.take_along_axis(sims, part, axis=1)
        order = np.argsort(-vals, axis=1)
        ids[s : s + 32] = np.take_along_axis(part, order, axis=1)
        scores[s : s + 32] = np.take_along_axis(vals, order, axis=1)
    return ids, scores


def recall_with_ties(x: np.ndarray, q: np.ndarray, found: list[np.ndarray], kth: np.ndarray) -> float:
    """Share of the K exact places filled by returned rows whose exact cosine reaches the exact K-th cosine."""
    hits = 0
    for i, rows in enumerate(found):
        rows = np.unique(rows[rows >= 0])
        hits += min(K, int(np.count_nonzero(x[rows] @ q[i] >= kth[i] - TIE)))
    return hits / (K * len(q))


def timed(search: Callable[[np.ndarray], np.ndarray], q: np.ndarray) -> tuple[list[np.ndarray], list[float]]:
    found, ms = [], []
    for v in q:
        t0 = time.perf_counter()
        found.append(search(v[None]))
        ms.append((time.perf_counter() - t0) * 1000)
    return found, ms


def pct(values: list[float], p: float) -> float:
    return float(np.percentile(values, p))


def numpy_exact(x: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    def search(v: np.ndarray) -> np.ndarray:
        sims = x @ v[0]
        part = np.argpartition(-sims, K - 1)[:K]
        out: np.ndarray = part[np.argsort(-sims[part])]
        return out

    return search


def _training_sample(x: np.ndarray, n: int) -> np.ndarray:
    """At most n rows of x (a fixed seed) to train a quantizer on."""
    if len(x) <= n:
        return np.ascontiguousarray(x)
    rng = np.random.default_rng(1234)
    return np.ascontiguousarray(x[np.sort(rng.choice(len(x), n, replace=False))])


def ivf(x: np.ndarray, nlist: int, sample_per_list: int = 40) -> tuple[Any, float]:
    import faiss

    t0, c0 = time.perf_counter(), time.process_time()
    quantizer = faiss.IndexFlatIP(x.shape[1])
    index = faiss.IndexIVFFlat(quantizer, x.shape[1], nlist, faiss.METRIC_INNER_PRODUCT)
    index.train(_training_sample(x, nlist * sample_per_list))
    index.add(x)
    _KEEP.append(quantizer)  # the index does not own it in Python: keep it alive
    BUILD_CPU[0] = time.process_time() - c0
    return index, time.perf_counter() - t0


def ivf_sq8(x: np.ndarray, nlist: int, sample_per_list: int = 40) -> tuple[Any, float]:
    """IVF whose lists hold 8-bit codes (a quarter of the bytes to scan and keep); re-ranked exactly."""
    import faiss

    t0, c0 = time.perf_counter(), time.process_time()
    quantizer = faiss.IndexFlatIP(x.shape[1])
    index = faiss.IndexIVFScalarQuantizer(
        quantizer, x.shape[1], nlist, faiss.ScalarQuantizer.QT_8bit, faiss.METRIC_INNER_PRODUCT, False
    )
    index.train(_training_sample(x, nlist * sample_per_list))
    index.add(x)
    _KEEP.append(quantizer)
    BUILD_CPU[0] = time.process_time() - c0
    return index, time.perf_counter() - t0


def reranked(x: np.ndarray, index: Any, params: Any, depth: int) -> Callable[[np.ndarray], np.ndarray]:
    def search(v: np.ndarray) -> np.ndarray:
        ids = index.search(v, depth, params=params)[1][0] if params else index.search(v, depth)[1][0]
        ids = ids[ids >= 0]
        sims = x[ids] @ v[0]
        out: np.ndarray = ids[np.argsort(-sims)[:K]]
        return out

    return search


def pq_fastscan(x: np.ndarray, m: int) -> tuple[Any, float]:
    """Every vector as m 4-bit codes (m/2 bytes) scanned with SIMD lookups; re-ranked exactly."""
    import faiss

    t0, c0 = time.perf_counter(), time.process_time()
    index = faiss.IndexPQFastScan(x.shape[1], m, 4, faiss.METRIC_INNER_PRODUCT)
    rng = np.random.default_rng(1234)
    sample = x if len(x) <= 65_536 else x[np.sort(rng.choice(len(x), 65_536, replace=False))]
    index.train(np.ascontiguousarray(sample))
    index.add(x)
    BUILD_CPU[0] = time.process_time() - c0
    return index, time.perf_counter() - t0


def hnsw(x: np.ndarray, m: int, ef_construction: int) -> tuple[Any, float]:
    import faiss

    t0, c0 = time.perf_counter(), time.process_time()
    index = faiss.IndexHNSWFlat(x.shape[1], m, faiss.METRIC_INNER_PRODUCT)
    index.hnsw.efConstruction = ef_construction
    index.add(x)
    BUILD_CPU[0] = time.process_time() - c0
    return index, time.perf_counter() - t0


def memgraph_index(x: np.ndarray) -> tuple[Any, Any, float]:
    """The store's own index (memgraph/store/sqlite/ann.py) with the default settings, on these rows as a
    user's columns; returns (index, columns, build seconds)."""
    from memgraph.config import Settings
    from memgraph.store.sqlite.ann import AnnConfig, AnnIndex
    from memgraph.store.sqlite.columns import UserColumns

    s = Settings()
    cols = UserColumns(x.shape[1])
    cols.vectors, cols.ids = x, [f"m{i}" for i in range(len(x))]
    cols.index = {m: i for i, m in enumerate(cols.ids)}
    cols.alive = np.ones(len(x), dtype=bool)
    cols.has_vector = np.ones(len(x), dtype=bool)
    cfg = AnnConfig(
        min_vectors=0,
        subquantizers=s.ann_subquantizers,
        rerank=s.ann_rerank,
        rerank_per_sqrt=s.ann_rerank_per_sqrt,
    )
    t0, c0 = time.perf_counter(), time.process_time()
    index = AnnIndex.build(x, np.arange(len(x)), cfg)
    BUILD_CPU[0] = time.process_time() - c0
    return index, cols, time.perf_counter() - t0


def run(n: int, q: np.ndarray, kinds: list[str], rows: list[dict[str, Any]]) -> None:
    import faiss

    x = matrix(n)
    distinct = len(np.unique(x[: min(n, 200_000)].view(np.dtype((np.void, x.dtype.itemsize * x.shape[1])))))
    _, kth_scores = exact_top(x, q)
    kth = kth_scores[:, K - 1]
    _, exact_ms = timed(numpy_exact(x), q)
    exact_p50 = statistics.median(exact_ms)
    print(
        f"n={n:,}: {distinct:,} distinct of the first {min(n, 200_000):,} vectors; exact numpy p50/p95 "
        f"{exact_p50:.2f}/{pct(exact_ms, 95):.2f} ms; load {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    print(
        f"  {'index':<10} {'params':<34} {'build_s':>8} {'cpu_s':>6} {'recall10':>9} {'p50_ms':>7} {'p95_ms':>7}",
        flush=True,
    )

    def row(index: str, params: dict[str, Any], build: float, found: list[np.ndarray], ms: list[float]) -> None:
        r = {
            "n": n,
            "index": index,
            "params": ",".join(f"{k}={v}" for k, v in params.items()),
            "build_s": round(build, 1),
            "build_cpu_s": round(BUILD_CPU[0], 1),
            "recall10": round(recall_with_ties(x, q, found, kth), 4),
            "p50_ms": round(statistics.median(ms), 3),
            "p95_ms": round(pct(ms, 95), 3),
            "exact_p50_ms": round(exact_p50, 3),
        }
        rows.append(r)
        print(
            f"  {index:<10} {r['params']:<34} {r['build_s']:>8} {r['build_cpu_s']:>6} {r['recall10']:>9} "
            f"{r['p50_ms']:>7} {r['p95_ms']:>7}  load {os.getloadavg()[0]:.1f}",
            flush=True,
        )

    for kind in kinds:
        if kind == "exact":
            row("exact", {}, 0.0, timed(numpy_exact(x), q)[0], exact_ms)
        elif kind.startswith("ivf"):
            mult = float(kind[3:] or 1)
            nlist = int(mult * np.sqrt(n))
            index, build = ivf(x, nlist)
            for frac in PROBES:
                nprobe = max(1, int(round(frac * nlist)))
                params = faiss.SearchParametersIVF(nprobe=nprobe)
                found, ms = timed(lambda v, p=params, ix=index: ix.search(v, K, params=p)[1][0], q)
                row("ivf-flat", {"nlist": nlist, "nprobe": nprobe}, build, found, ms)
            del index
        elif kind.startswith("sq"):
            mult = float(kind[2:] or 1)
            nlist = int(mult * np.sqrt(n))
            index, build = ivf_sq8(x, nlist)
            for frac in PROBES:
                nprobe = max(1, int(round(frac * nlist)))
                params = faiss.SearchParametersIVF(nprobe=nprobe)
                found, ms = timed(reranked(x, index, params, 4 * K), q)
                row("ivf-sq8", {"nlist": nlist, "nprobe": nprobe, "rerank": 4 * K}, build, found, ms)
            del index
        elif kind.startswith("pqfs"):
            m = int(kind[4:] or 96)
            index, build = pq_fastscan(x, m)
            for depth in DEPTHS:
                found, ms = timed(reranked(x, index, None, depth), q)
                row("pq-fastscan", {"M": m, "nbits": 4, "rerank": depth}, build, found, ms)
            del index
        elif kind.startswith("hnsw"):
            m = int(kind[4:] or 32)
            index, build = hnsw(x, m, 64)
            for ef in EFS:
                params = faiss.SearchParametersHNSW(efSearch=ef)
                found, ms = timed(lambda v, p=params, ix=index: ix.search(v, K, params=p)[1][0], q)
                row("hnsw-flat", {"M": m, "efC": 64, "efSearch": ef}, build, found, ms)
            del index
        elif kind == "memgraph":
            index, cols, build = memgraph_index(x)
            allrows = np.arange(n)
            search = index.search

            def ours(v: np.ndarray, c: Any = cols, a: np.ndarray = allrows, s: Any = search) -> np.ndarray:
                return np.array([r for r, _ in s(c, v, K, -1.0, a)[0]])

            found, ms = timed(ours, q)
            rerank = max(index.config.rerank, int(index.config.rerank_per_sqrt * np.sqrt(n)))
            row("memgraph", {"M": index.config.subquantizers, "rerank": rerank}, build, found, ms)
            # a filter letting 40% of the rows through (as a kind or scope mask does): candidates that pass
            keep = np.sort(np.random.default_rng(5).choice(n, int(0.4 * n), replace=False))
            sub = x[keep]
            _, sub_kth = exact_top(sub, q)

            def filtered(v: np.ndarray, c: Any = cols, a: np.ndarray = keep, s: Any = search) -> np.ndarray:
                return np.array([r for r, _ in s(c, v, K, -1.0, a)[0]])

            f_found, f_ms = timed(filtered, q)
            f_recall = recall_with_ties(x, q, f_found, sub_kth[:, K - 1])
            rows[-1].update(filtered40_recall10=round(f_recall, 4), filtered40_p50_ms=round(statistics.median(f_ms), 3))
            print(f"  40% of rows passing a filter: recall@10 {f_recall:.4f}, p50 {statistics.median(f_ms):.2f} ms")
            # reopening: the saved index loaded against the same columns (what a new process does)
            from memgraph.store.sqlite.ann import AnnIndex

            path = CACHE / f"saved-{n}.npz"
            t0 = time.perf_counter()
            index.save(path, cols)
            saved = time.perf_counter() - t0
            t0 = time.perf_counter()
            loaded = AnnIndex.load(path, cols, index.config)
            load_s = time.perf_counter() - t0
            assert loaded is not None and loaded.live == n
            rows[-1].update(
                save_s=round(saved, 2), load_s=round(load_s, 2), file_mb=round(path.stat().st_size / 2**20, 1)
            )
            print(f"  saved in {saved:.2f} s ({rows[-1]['file_mb']} MB), loaded in {load_s:.2f} s", flush=True)
            path.unlink()
            del index, loaded


def store_level(n: int, q: np.ndarray, rows: list[dict[str, Any]]) -> None:
    """The store's own vector search on a copy of recall_scale's cached store of n memories: p50/p95 of
    `vector_search` (filter masks, candidates, ids included) with the index and exactly, the index's build and
    its reload in a new store object (the saved file)."""
    import shutil
    import tempfile

    from memgraph.config import Settings
    from memgraph.store.sqlite import SQLiteStore
    from memgraph.store.sqlite.ann import AnnConfig

    corpus = recall_scale.load_corpus()
    built = recall_scale.cached_store(n, n > 200_000, corpus)
    s = Settings()
    cfg = AnnConfig(
        min_vectors=s.ann_min_vectors,
        subquantizers=s.ann_subquantizers,
        rerank=s.ann_rerank,
        rerank_per_sqrt=s.ann_rerank_per_sqrt,
        background=False,
    )
    with tempfile.TemporaryDirectory(prefix="memgraph-ann-") as tmp:
        work = Path(tmp) / "store"
        shutil.copytree(built, work)
        exact = SQLiteStore(work, ann=AnnConfig(min_vectors=10**12))
        approx = SQLiteStore(work, ann=cfg)
        user = recall_scale.USER
        exact.vector_search(user, q[0], K)  # loads the read structures
        t0 = time.perf_counter()
        with approx._mirror.user(user):
            pass
        load = time.perf_counter() - t0
        t0 = time.perf_counter()
        approx.vector_search(user, q[0], K)  # builds the index (foreground here) and saves it
        build = time.perf_counter() - t0
        e_ms = [_ms(lambda v=v: exact.vector_search(user, v, K)) for v in q]
        a_ms = [_ms(lambda v=v: approx.vector_search(user, v, K)) for v in q]
        approx.close()
        reopened = SQLiteStore(work, ann=cfg)
        with reopened._mirror.user(user):
            pass
        t0 = time.perf_counter()
        reopened.vector_search(user, q[0], K)  # loads the saved index
        reload = time.perf_counter() - t0
        reopened.close()
        exact.close()
    r = {
        "n": n,
        "index": "store",
        "params": f"min_vectors={cfg.min_vectors}",
        "build_s": round(build, 1),
        "reload_s": round(reload, 2),
        "structures_load_s": round(load, 1),
        "p50_ms": round(statistics.median(a_ms), 3),
        "p95_ms": round(pct(a_ms, 95), 3),
        "exact_p50_ms": round(statistics.median(e_ms), 3),
        "exact_p95_ms": round(pct(e_ms, 95), 3),
    }
    rows.append(r)
    print(f"store-level vector_search at n={n:,} (load {os.getloadavg()[0]:.1f}): {r}", flush=True)


def _ms(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="100000", help="comma-separated matrix sizes")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument(
        "--indexes",
        default="ivf,memgraph",
        help="exact, ivf<lists per sqrt(n)>, sq<lists per sqrt(n)> (IVF-SQ8 re-ranked), hnsw<M>, memgraph",
    )
    ap.add_argument("--data", default=None, help="folder of locomo_dev.json and msc_personas.json")
    ap.add_argument("--append-results", action="store_true", help="write the rows to bench/results/ann.json")
    ap.add_argument("--probes", default=None, help="IVF: fractions of the lists probed, comma-separated")
    ap.add_argument("--efs", default=None, help="HNSW: efSearch values, comma-separated")
    ap.add_argument("--depths", default=None, help="PQ fast-scan: candidates re-ranked, comma-separated")
    ap.add_argument("--store", action="store_true", help="also time the store's vector_search on recall_scale's store")
    args = ap.parse_args()
    if args.depths:
        DEPTHS[:] = [int(v) for v in args.depths.split(",")]
    if args.probes:
        PROBES[:] = [float(v) for v in args.probes.split(",")]
    if args.efs:
        EFS[:] = [int(v) for v in args.efs.split(",")]
    if args.data:
        recall_scale.DATA = Path(args.data)
    import faiss

    faiss.omp_set_num_threads(1)  # as the store runs it (store/sqlite/ann.py: two threads spin-wait under load)
    q = questions(args.queries)
    rows: list[dict[str, Any]] = []
    for n in (int(s) for s in args.sizes.split(",")):
        if args.indexes:
            run(n, q, args.indexes.split(","), rows)
        if args.store:
            store_level(n, q, rows)
    if args.append_results:
        print("wrote", write_rows("ann", rows, keys=("n", "index", "params")))


if __name__ == "__main__":
    main()
