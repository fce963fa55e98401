"""The kNN behind links and consolidation: the cell-probed search (above knn_exact_max) against exact search."""

from __future__ import annotations

import numpy as np

from memgraph.jobs.neighbours import knn


def _planted(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centers = rng.normal(size=(20, 64)).astype(np.float32)
    m = centers[rng.integers(0, 20, n)] + rng.normal(scale=0.7, size=(n, 64)).astype(np.float32)
    return (m / np.linalg.norm(m, axis=1, keepdims=True)).astype(np.float32)


def test_cell_probed_search_finds_the_exact_neighbours_and_is_deterministic() -> None:
    m = _planted(3000)
    exact_idx, exact_sims = knn(m, 5, exact_max=10_000)
    idx, sims = knn(m, 5, exact_max=100, probe_cells=8)
    again_idx, again_sims = knn(m, 5, exact_max=100, probe_cells=8)
    assert np.array_equal(idx, again_idx) and np.array_equal(sims, again_sims)  # cells run in threads
    assert (idx != np.arange(3000)[:, None]).all()  # never a row itself
    found = np.mean([len(set(a) & set(b)) / 5 for a, b in zip(idx.tolist(), exact_idx.tolist(), strict=True)])
    assert found >= 0.95
    assert (np.diff(sims, axis=1) <= 0).all()  # best first
    assert (sims[:, 0] <= exact_sims[:, 0] + 1e-6).all()
