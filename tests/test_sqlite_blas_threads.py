"""Exact vector search of a recall's few queries runs on one BLAS thread (store/sqlite/search.py): the same scores
to the bit as the threaded product, and the process's thread count restored however many threads overlap."""

from __future__ import annotations

import threading
from typing import cast

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

from memgraph.store.sqlite import search
from memgraph.store.sqlite.columns import UserColumns


def _blas_threads() -> list[int]:
    """numpy's BLAS (the one that multiplies our arrays; scipy and faiss load their own copies)."""
    libs = [lib for lib in threadpool_info() if lib["user_api"] == "blas"]
    own = [lib for lib in libs if "numpy" in lib["filepath"]]
    return [int(lib["num_threads"]) for lib in (own or libs)]


class _Columns:
    """What `exact` reads of a user's columns: the row count and the vectors."""

    def __init__(self, n: int, dim: int = 384) -> None:
        vecs = np.random.default_rng(3).standard_normal((n, dim)).astype(np.float32)
        self.vectors = vecs / np.linalg.norm(vecs, axis=1, keepdims=True)
        self.n = n


def test_one_thread_inside_restored_after() -> None:
    with threadpool_limits(limits=2, user_api="blas"):
        before = _blas_threads()
        assert before and all(t == 2 for t in before)
        with search.one_blas_thread:
            assert all(t == 1 for t in _blas_threads())
            with search.one_blas_thread:  # re-entrant
                assert all(t == 1 for t in _blas_threads())
            assert all(t == 1 for t in _blas_threads())
        assert _blas_threads() == before


def test_overlapping_threads_restore_the_count() -> None:
    with threadpool_limits(limits=2, user_api="blas"):
        before = _blas_threads()
        inside, leave = threading.Barrier(3), threading.Barrier(3)

        def hold() -> None:
            with search.one_blas_thread:
                inside.wait()
                leave.wait()

        workers = [threading.Thread(target=hold) for _ in range(2)]
        for w in workers:
            w.start()
        inside.wait()
        leave.wait()
        for w in workers:
            w.join()
        assert _blas_threads() == before


def test_single_threaded_scores_equal_the_threaded_ones() -> None:
    cols = cast(UserColumns, _Columns(12_000))
    rows = np.arange(cols.n)
    qs = np.random.default_rng(5).standard_normal((2, 384)).astype(np.float32)
    with threadpool_limits(limits=2, user_api="blas"):
        one = search.exact(cols, qs, 10, -1.0, rows)  # two queries: one BLAS thread
        threaded = search.normalised(qs) @ cols.vectors[: cols.n].T
    for found, sims in zip(one, threaded, strict=True):
        top = np.lexsort((rows, -sims))[:10]
        assert found == list(zip(top.tolist(), sims[top].tolist(), strict=True))  # same floats, bit for bit
