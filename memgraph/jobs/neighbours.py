"""Nearest neighbours over a user's unit-normalised embedding matrix, for link discovery and consolidation.

Exact (blocked matrix products) up to `knn_exact_max` rows. Above that, an inverted-file search written here
on numpy: rows are bucketed into ~sqrt(n) cells around sampled centroids, and each cell is compared, as one
BLAS product, with the rows of its `knn_probe_cells` nearest cells. Why not a library: exact search at 100k
x 384 is ~8 TFLOP (minutes on two cores), and faiss' IVF scan measured 28 s here against 7 s for this
cell-blocked search with 8 probed cells (recall@5 1.0 on planted clusters; the default 4 cells: 0.99 in
about half the time); it also avoids a 30 MB binary dependency whose OpenMP runtime can clash with torch's.
"""

from __future__ import annotations

import numpy as np

_BLOCK = 1024


def knn(
    matrix: np.ndarray,
    k: int,
    *,
    min_similarity: float = -1.0,
    exact_max: int = 20_000,
    probe_cells: int = 8,
    seed: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """(indices, similarities), each (n, k): the k most similar other rows of each row, best first.

    Missing neighbours (fewer than k rows, or below `min_similarity`) are index -1 / similarity -inf.
    `matrix` must be unit-normalised float32, so the dot product is the cosine similarity."""
    n = len(matrix)
    k = max(0, min(int(k), n - 1))
    idx = np.full((n, k), -1, dtype=np.int64)
    sims = np.full((n, k), -np.inf, dtype=np.float32)
    if n < 2 or k == 0:
        return idx, sims
    if n <= exact_max:
        for start in range(0, n, _BLOCK):
            rows = np.arange(start, min(n, start + _BLOCK))
            scores = matrix[rows] @ matrix.T
            scores[np.arange(len(rows)), rows] = -np.inf
            _topk_into(scores, np.arange(n), rows, k, idx, sims)
    else:
        _ivf(matrix, k, probe_cells, seed, idx, sims)
    below = sims < min_similarity
    idx[below] = -1
    sims[below] = -np.inf
    return idx, sims


def _topk_into(
    scores: np.ndarray, cand: np.ndarray, rows: np.ndarray, k: int, idx: np.ndarray, sims: np.ndarray
) -> None:
    kk = min(k, scores.shape[1])
    if kk <= 0:
        return
    if scores.shape[1] > kk:
        # the kk largest sit at the end: partitioning `scores` itself saves a negated copy of the whole block
        part = np.argpartition(scores, scores.shape[1] - kk, axis=1)[:, -kk:]
    else:
        part = np.argsort(-scores, axis=1)
    part_scores = np.take_along_axis(scores, part, axis=1)
    order = np.argsort(-part_scores, axis=1, kind="stable")
    best = np.take_along_axis(part, order, axis=1)
    idx[rows, :kk] = cand[best]
    sims[rows, :kk] = np.take_along_axis(part_scores, order, axis=1)


def _ivf(matrix: np.ndarray, k: int, probe: int, seed: int, idx: np.ndarray, sims: np.ndarray) -> None:
    n = len(matrix)
    rng = np.random.default_rng(seed)
    ncell = max(2, int(np.sqrt(n)))
    sample = matrix[np.sort(rng.choice(n, min(n, ncell * 20), replace=False))]
    centroids = sample[np.sort(rng.choice(len(sample), ncell, replace=False))].copy()
    for _ in range(3):  # a few Lloyd steps on the sample: cells need to be sensible, not optimal
        assign = np.argmax(sample @ centroids.T, axis=1)
        sums = np.zeros_like(centroids)
        np.add.at(sums, assign, sample)
        counts = np.bincount(assign, minlength=ncell)
        keep = counts > 0
        centroids[keep] = sums[keep] / counts[keep, None]
        centroids /= np.maximum(np.linalg.norm(centroids, axis=1, keepdims=True), 1e-12)
    cell = np.empty(n, dtype=np.int64)
    for start in range(0, n, 8192):
        cell[start : start + 8192] = np.argmax(matrix[start : start + 8192] @ centroids.T, axis=1)
    order = np.argsort(cell, kind="stable")
    bounds = np.searchsorted(cell[order], np.arange(ncell + 1))
    nearest_cells = np.argsort(-(centroids @ centroids.T), axis=1)[:, : max(1, probe)]
    for c in range(ncell):
        rows = order[bounds[c] : bounds[c + 1]]
        if not len(rows):
            continue
        # the cell's own rows first, so each row's self-score sits on the diagonal
        others = [order[bounds[p] : bounds[p + 1]] for p in nearest_cells[c] if p != c]
        cand = np.concatenate([rows, *others])
        scores = matrix[rows] @ matrix[cand].T
        diag = np.arange(len(rows))
        scores[diag, diag] = -np.inf
        _topk_into(scores, cand, rows, k, idx, sims)


def pairs_from_knn(idx: np.ndarray, sims: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Undirected pairs from a kNN result as arrays (i, j, similarity) with i < j, each pair once (its best
    similarity), sorted strongest first (ties: by i, then j)."""
    rows, cols = np.nonzero(idx >= 0)
    a = rows.astype(np.int64)
    b = idx[rows, cols].astype(np.int64)
    s = sims[rows, cols].astype(np.float64)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    order = np.lexsort((-s, hi, lo))  # per (lo, hi) the best similarity first
    lo, hi, s = lo[order], hi[order], s[order]
    first = np.ones(len(lo), dtype=bool)
    first[1:] = (lo[1:] != lo[:-1]) | (hi[1:] != hi[:-1])
    lo, hi, s = lo[first], hi[first], s[first]
    order = np.lexsort((hi, lo, -s))
    return lo[order], hi[order], s[order]
