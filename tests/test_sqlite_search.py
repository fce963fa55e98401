"""Exact search's ranking (store/sqlite/search.py): a block of queries ranks exactly as one query at a time —
best first, ties by row, nothing under `min_similarity` — whether it partitions every score or ranks only the
ones that pass (the path bulk writes take when few do)."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph.store.sqlite import search


@pytest.mark.parametrize("threshold", [-2.0, 0.3, 0.45, 0.9, 0.97, 0.999])
def test_a_block_ranks_as_one_query_at_a_time(threshold: float) -> None:
    rng = np.random.default_rng(7)
    for trial in range(40):
        n, q, k = int(rng.integers(20, 3000)), int(rng.integers(1, 40)), int(rng.integers(1, 12))
        sims = (rng.random((q, n)) * 2 - 1).astype(np.float32)
        if trial % 3 == 0:
            sims = np.round(sims, 2)  # many ties, at the k-th score too
        rows = np.sort(rng.choice(10**6, n, replace=False))
        want = [search._top(rows, row, k, threshold) for row in sims]
        assert search._block_top(rows, sims, k, threshold) == want


def test_few_passing_scores_take_the_sparse_path_and_a_threshold_is_compared_as_a_float() -> None:
    rows = np.arange(5000)
    sims = np.full((3, 5000), -0.5, dtype=np.float32)
    sims[0, [10, 20, 30]] = [0.8, 0.9, np.float32(0.45)]  # float32(0.45) < 0.45 as a float: not kept
    sims[1, 40] = 0.95
    passing = sims >= search._at_least(0.45)
    assert np.count_nonzero(passing) * search._SPARSE_FRACTION <= passing.size
    assert search._block_top(rows, sims, 2, 0.45) == [
        [(20, float(np.float32(0.9))), (10, float(np.float32(0.8)))],
        [(40, float(np.float32(0.95)))],
        [],
    ]


def test_the_rank_key_sorts_as_query_then_score_descending_then_column() -> None:
    """`_passing_top`'s one-key sort orders as the three-key lexsort it replaced, ties, signed zeros, tiny and
    negative scores included."""
    rng = np.random.default_rng(7)
    special = np.array([0.0, -0.0, 0.4, 0.4, -0.5, 1.0, -1.0, 1e-30, -1e-30], dtype=np.float32)
    for trial in range(40):
        n = int(rng.integers(1, 2000))
        qi = np.sort(rng.integers(0, 40, n))
        vals = rng.choice(special, n) if trial % 2 else rng.uniform(-1, 1, n).astype(np.float32)
        expected = np.lexsort((np.arange(n), -vals, qi))
        assert (np.argsort(search._rank_key(qi, vals), kind="stable") == expected).all()
