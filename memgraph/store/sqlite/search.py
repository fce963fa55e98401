"""Vector search on one user's in-memory columns (columns.py): exact cosine with the filter as a numpy mask,
or the ANN index (ann.py) when the user has enough vectors and the filter lets enough of them through.

Exact search ranks best first, ties in row order (the order `np.argsort(kind="stable")` gives), and is the
reference the ANN is measured against (recall@10 >= 0.98, tests/test_sqlite_ann.py).
"""

from __future__ import annotations

import numpy as np

from memgraph.store.sqlite.columns import UserColumns

#: Most query x memory scores one block product holds (128 MB of float32).
SCORE_BLOCK = 1 << 25


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
    if len(sims) > k:
        kth = np.partition(sims, len(sims) - k)[len(sims) - k]
        keep = np.flatnonzero(sims >= max(kth, min_similarity))
    else:
        keep = np.flatnonzero(sims >= min_similarity)
    rows, sims = rows[keep], sims[keep]
    order = np.lexsort((rows, -sims))[:k]
    return list(zip(rows[order].tolist(), sims[order].tolist(), strict=True))


def exact(
    cols: UserColumns, queries: np.ndarray, k: int, min_similarity: float, rows: np.ndarray
) -> list[list[tuple[int, float]]]:
    """Exact top-k (row, cosine) per query over `rows`; one matrix product per block of queries, and one
    partition of the block's scores (a bulk write's reconciliation asks for a thousand queries at once)."""
    qs = normalised(queries)
    n = cols.n
    out: list[list[tuple[int, float]]] = []
    if not len(rows):
        return [[] for _ in range(len(qs))]
    # a selective filter: multiply only the rows that pass (a gather of them costs less than the product)
    dense = len(rows) > n // 2
    matrix = cols.vectors[:n] if dense else cols.vectors[rows]
    block = max(1, SCORE_BLOCK // max(1, len(matrix)))
    for start in range(0, len(qs), block):
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
