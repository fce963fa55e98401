"""Vector search on one user's in-memory columns (columns.py): exact cosine with the filter as a numpy mask,
or the ANN index (ann.py) when the user has enough vectors and the filter lets enough of them through.

Exact search ranks best first, ties in row order (the order `np.argsort(kind="stable")` gives), and is the
reference the ANN is measured against (recall@10 >= 0.98, tests/test_sqlite_ann.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from types import TracebackType
from typing import Any

import numpy as np

from memgraph.store.sqlite.columns import UserColumns

#: Most query x memory scores one block product holds (128 MB of float32).
SCORE_BLOCK = 1 << 25

#: Products of at most this many queries (a recall's question and its cue-stripped form) run on one BLAS
#: thread. OpenBLAS splits even a 1 x 384 by 384 x 10k product over its threads, whose hand-off costs more than
#: the product on two shared cores, and its idle workers then spin for a while on the other core: 1 x 10k products
#: on a loaded 2-core machine (load 5-6) took p50 0.9-16 ms / p95 29-32 ms threaded, 1.6 / 10-22 ms on one thread,
#: with the same scores to the bit; recall's CPU time at 10k was twice its wall time. A bulk write's block of a
#: thousand queries keeps every thread.
SINGLE_THREAD_QUERIES = 8


class _OneBlasThread:
    """A context in which numpy's BLAS runs on one thread (threadpoolctl), re-entrant across threads: the first
    thread in lowers the count, the last one out restores what it was. Holding the controller saves finding the
    loaded libraries on every call (~0.6 ms); a product then pays two ctypes calls. OpenBLAS's count is the
    process's, not the thread's: a bulk product running meanwhile in another thread also gets one thread (as
    under jobs/neighbours.py's limit); results never depend on it, only speed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._inside = 0
        self._libs: list[Any] | None = None
        self._saved: list[tuple[Any, int]] = []

    def _controllers(self) -> list[Any]:
        if self._libs is None:
            from threadpoolctl import ThreadpoolController

            blas = list(ThreadpoolController().select(user_api="blas").lib_controllers)
            # numpy's own BLAS does the products; scipy and faiss load copies of their own, maybe later than
            # the first recall (a list taken then would miss them, and they never multiply our arrays)
            own = [lib for lib in blas if "numpy" in str(lib.filepath)]
            self._libs = own or blas  # a numpy linked to a system BLAS: every BLAS loaded
        return self._libs

    def __enter__(self) -> None:
        with self._lock:
            if self._inside == 0:
                self._saved = [(lib, int(lib.num_threads)) for lib in self._controllers()]
                for lib, threads in self._saved:
                    if threads != 1:
                        lib.set_num_threads(1)
            self._inside += 1

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        with self._lock:
            self._inside -= 1
            if self._inside == 0:
                for lib, threads in self._saved:
                    if threads != 1:
                        lib.set_num_threads(threads)


one_blas_thread = _OneBlasThread()


def normalised(queries: np.ndarray) -> np.ndarray:
    qs = np.asarray(queries, dtype=np.float32)
    norms = np.linalg.norm(qs, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: np.ndarray = (qs / norms).astype(np.float32, copy=False)
    return out


def candidates(cols: UserColumns, mask: np.ndarray) -> np.ndarray:
    """Rows with a vector that pass the filter."""
    return np.flatnonzero(mask & cols.has_vector[: cols.n])


def _top(rows: np.ndarray, sims: np.ndarray, k: int, min_similarity: float) -> list[tuple[int, float]]:
    """The best k of (rows, sims) at or above min_similarity: best first, ties by row."""
    floor = _at_least(min_similarity)  # float32 scores against a float threshold, as the block path compares
    if len(sims) > k:
        kth = np.partition(sims, len(sims) - k)[len(sims) - k]
        keep = np.flatnonzero(sims >= max(kth, floor))
    else:
        keep = np.flatnonzero(sims >= floor)
    rows, sims = rows[keep], sims[keep]
    order = np.lexsort((rows, -sims))[:k]
    return list(zip(rows[order].tolist(), sims[order].tolist(), strict=True))


def exact(
    cols: UserColumns,
    queries: np.ndarray,
    k: int,
    min_similarity: float,
    rows: np.ndarray,
    gathered: Callable[[], np.ndarray] | None = None,
) -> list[list[tuple[int, float]]]:
    """Exact top-k (row, cosine) per query over `rows`; one matrix product per block of queries, and one
    partition of the block's scores (a bulk write's reconciliation asks for a thousand queries at once).
    `gathered`: gives `cols.vectors[rows]` (a cache of it) when the rows are few enough to be gathered."""
    qs = normalised(queries)
    n = cols.n
    out: list[list[tuple[int, float]]] = []
    if not len(rows):
        return [[] for _ in range(len(qs))]
    # a selective filter: multiply only the rows that pass (a gather of them costs less than the product)
    dense = len(rows) > n // 2
    matrix = cols.vectors[:n] if dense else (cols.vectors[rows] if gathered is None else gathered())
    block = max(1, SCORE_BLOCK // max(1, len(matrix)))
    for start in range(0, len(qs), block):
        if len(qs) <= SINGLE_THREAD_QUERIES:
            with one_blas_thread:
                sims = qs[start : start + block] @ matrix.T
        else:
            sims = qs[start : start + block] @ matrix.T
        if dense and len(rows) < n:
            sims = sims[:, rows]
        out += _block_top(rows, sims, k, min_similarity)
    return out


def _block_top(rows: np.ndarray, sims: np.ndarray, k: int, min_similarity: float) -> list[list[tuple[int, float]]]:
    """`_top` for every row of a block of scores, partitioned in one call; a query whose k-th score is tied
    beyond the partition's pick goes through `_top` (ties are broken by row, as exact search promises)."""
    if sims.shape[1] <= k:
        return [_top(rows, row, k, min_similarity) for row in sims]
    if min_similarity > -1.0:
        passing = sims >= _at_least(min_similarity)
        if int(np.count_nonzero(passing)) * _SPARSE_FRACTION <= passing.size:
            return _passing_top(rows, sims, passing, k)
    part = np.argpartition(-sims, k - 1, axis=1)[:, :k]
    vals = np.take_along_axis(sims, part, axis=1)
    kth = vals.min(axis=1, keepdims=True)
    tied = (sims == kth).sum(axis=1) > (vals == kth).sum(axis=1)
    out: list[list[tuple[int, float]]] = []
    for i in range(len(sims)):
        if tied[i]:
            out.append(_top(rows, sims[i], k, min_similarity))
            continue
        r, v = rows[part[i]], vals[i]
        order = np.lexsort((r, -v))
        out.append([(a, b) for a, b in zip(r[order].tolist(), v[order].tolist(), strict=True) if b >= min_similarity])
    return out


#: `_block_top` ranks only the scores at or above `min_similarity` when at most 1 in this many pass. A bulk
#: write's reconciliation asks for the 5 nearest at cosine >= 0.4: on 20k stored memories (bench/bulk_load.py's
#: topics, 1.7% of the scores passing) a block of 1,000 queries took 1.5 s to `argpartition` all 20M scores
#: and 0.64 s to find and rank the ones that pass (load ~7); the gain shrinks as more pass.
_SPARSE_FRACTION = 16


def _at_least(threshold: float) -> np.float32:
    """The smallest float32 at or above `threshold`: comparing float32 scores with it keeps exactly the scores
    whose float value is >= threshold (what `_top`'s Python comparison keeps)."""
    t = np.float32(threshold)
    return t if float(t) >= threshold else np.nextafter(t, np.float32(np.inf))


def _passing_top(rows: np.ndarray, sims: np.ndarray, passing: np.ndarray, k: int) -> list[list[tuple[int, float]]]:
    """The best k passing scores of every query of a block, best first, ties by row: the same lists as the
    partition, since the scores that pass are a prefix of each query's (score desc, row asc) order."""
    qi, ci = np.nonzero(passing)  # by query, then column (rows are ascending, so column order is row order)
    vals = sims[qi, ci]
    order = np.argsort(_rank_key(qi, vals), kind="stable")  # ties keep column order
    qi, ci, vals = qi[order], ci[order], vals[order]
    starts = np.searchsorted(qi, np.arange(len(sims) + 1))
    rank = np.arange(len(qi)) - starts[qi]
    keep = rank < k
    qi, ci, vals = qi[keep], ci[keep], vals[keep]
    bounds = np.searchsorted(qi, np.arange(len(sims) + 1))
    found = rows[ci].tolist()
    scores = vals.tolist()
    return [
        list(zip(found[bounds[i] : bounds[i + 1]], scores[bounds[i] : bounds[i + 1]], strict=True))
        for i in range(len(sims))
    ]


def _rank_key(qi: np.ndarray, vals: np.ndarray) -> np.ndarray:
    """One int64 per score that sorts as (query ascending, score descending): the query in the high 32 bits, the
    score's float32 bits made order-preserving and inverted in the low ones (-0.0 counted as 0.0, as a float
    comparison does). A stable sort of it orders as `np.lexsort((column, -score, query))` on scores in column
    order, in 0.43 s instead of 0.77 s for two 1,677-query blocks over 20k vectors (bulk_load's topics)."""
    bits = (vals.astype(np.float32) + np.float32(0.0)).view(np.int32)
    ordered = bits ^ ((bits >> 31) & np.int32(0x7FFFFFFF))  # int32 order == float order
    key: np.ndarray = (qi.astype(np.int64) << 32) | ((1 << 31) - 1 - ordered.astype(np.int64))
    return key
