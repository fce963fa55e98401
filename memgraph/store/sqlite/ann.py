"""Approximate vector search for users with many memories: a faiss inverted-file index (IVF, flat inner
product on the normalised vectors) over the rows of the user's columns, filters honoured by an
`IDSelectorBitmap` of the rows that pass.

Why IVF-Flat: it is built in seconds on two cores (k-means on a sample, then one assignment product) where
HNSW takes minutes at 1M, it takes adds and removals one row at a time (catching up with writes), and its
search cost is set by one number (`nprobe`). Why faiss: the one well-kept library whose Python API filters
at search time (usearch needs oversampling; hnswlib has had no release since 2023).

When it is used (`ann_search`, thresholds in `AnnConfig`, from config.py): the user has at least
`min_vectors` vectors and the filter lets at least `min_passing_fraction` of them through; a more selective
filter is answered exactly over the rows that pass, which is then the cheaper search anyway. A query the
index answers with fewer than k rows (a filter that empties the probed lists) is answered exactly.
The index is built on the first search that needs it (per process: it is not stored in the file), kept in
step with writes by `refresh` (the change log's re-read rows), and rebuilt once the user's vectors have
doubled since it was trained (the lists' centroids then no longer fit the data).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from memgraph.errors import StoreError
from memgraph.store.sqlite.columns import UserColumns
from memgraph.store.sqlite.search import exact, normalised


@dataclass(frozen=True)
class AnnConfig:
    """The ANN thresholds (Settings: ann_min_vectors, ann_min_passing_fraction, ann_lists_per_sqrt,
    ann_probe_fraction; the defaults here are theirs, see config.py for the reasons)."""

    min_vectors: int = 10_000_000
    min_passing_fraction: float = 0.3
    lists_per_sqrt: float = 1.0
    probe_fraction: float = 0.05
    train_sample_per_list: int = 40
    seed: int = 1234


class AnnIndex:
    """An IVF-Flat index whose ids are rows of one user's columns."""

    def __init__(self, cols: UserColumns, config: AnnConfig) -> None:
        try:
            import faiss  # imported here: only users past the threshold pay for it
        except ImportError as exc:
            raise StoreError(
                "MEMGRAPH_ANN_MIN_VECTORS turned the approximate vector index on for this user, but faiss is not "
                "installed: pip install 'memgraph[ann]' (or raise MEMGRAPH_ANN_MIN_VECTORS to search exactly)"
            ) from exc

        self._faiss: Any = faiss
        self.config = config
        dim = cols.dim
        rows = np.flatnonzero(cols.alive[: cols.n] & cols.has_vector[: cols.n])
        self.nlist = max(1, int(config.lists_per_sqrt * math.sqrt(len(rows))))
        self.nprobe = max(1, math.ceil(config.probe_fraction * self.nlist))
        self.trained_on = len(rows)
        quantizer = faiss.IndexFlatIP(dim)
        index = faiss.IndexIVFFlat(quantizer, dim, self.nlist, faiss.METRIC_INNER_PRODUCT)
        rng = np.random.default_rng(config.seed)
        sample = rows if len(rows) <= config.train_sample_per_list * self.nlist else rng.choice(
            rows, config.train_sample_per_list * self.nlist, replace=False
        )
        index.train(np.ascontiguousarray(cols.vectors[np.sort(sample)]))
        index.add_with_ids(np.ascontiguousarray(cols.vectors[rows]), rows.astype(np.int64))
        self.index = index
        self.quantizer = quantizer  # the index does not own it in Python: keep it alive
        self.size = len(rows)

    def refresh(self, cols: UserColumns, rows: np.ndarray) -> None:
        """Re-index these rows as the columns hold them now (removed when dead or without a vector)."""
        rows = np.unique(np.asarray(rows, dtype=np.int64))
        if not len(rows):
            return
        faiss = self._faiss
        self.size -= int(self.index.remove_ids(faiss.IDSelectorBatch(rows)))
        live = rows[cols.alive[rows] & cols.has_vector[rows]]
        if len(live):
            self.index.add_with_ids(np.ascontiguousarray(cols.vectors[live]), live)
            self.size += len(live)

    def stale(self) -> bool:
        return self.size > 2 * self.trained_on

    def search(
        self, cols: UserColumns, queries: np.ndarray, k: int, rows: np.ndarray
    ) -> list[tuple[np.ndarray, np.ndarray]]:
        """(rows, cosines) per query, best first; rows restricted to `rows` unless it is every indexed row."""
        faiss = self._faiss
        keep: list[Any] = []  # the bitmap must outlive the search
        params = faiss.SearchParametersIVF(nprobe=self.nprobe)
        if len(rows) < self.size:
            mask = np.zeros(cols.n, dtype=bool)
            mask[rows] = True
            bitmap = np.packbits(mask, bitorder="little")
            keep.append(bitmap)
            sel = faiss.IDSelectorBitmap(cols.n, faiss.swig_ptr(bitmap))
            keep.append(sel)
            params.sel = sel
        sims, ids = self.index.search(np.ascontiguousarray(normalised(queries)), k, params=params)
        return [(i[i >= 0], s[i >= 0]) for i, s in zip(ids, sims, strict=True)]


def ann_search(
    state: Any, config: AnnConfig, queries: np.ndarray, k: int, min_similarity: float, rows: np.ndarray
) -> list[list[tuple[int, float]]] | None:
    """Top-k (row, cosine) per query from the user's ANN index, or None when exact search should answer
    (too few vectors, a selective filter). Builds or rebuilds the index when needed."""
    cols: UserColumns = state.columns
    n_vectors = int(np.count_nonzero(cols.alive[: cols.n] & cols.has_vector[: cols.n]))
    if n_vectors < config.min_vectors or len(rows) < config.min_passing_fraction * n_vectors or len(rows) <= k:
        return None
    if state.ann is None or state.ann.stale():
        state.ann = AnnIndex(cols, config)
    out: list[list[tuple[int, float]]] = []
    for i, (found, sims) in enumerate(state.ann.search(cols, queries, k, rows)):
        if len(found) < k:
            out.append(exact(cols, queries[i : i + 1], k, min_similarity, rows)[0])
            continue
        order = np.lexsort((found, -sims))
        hits = [(r, s) for r, s in zip(found[order].tolist(), sims[order].tolist(), strict=True) if s >= min_similarity]
        out.append(hits)
    return out
