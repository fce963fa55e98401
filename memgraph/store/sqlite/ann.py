"""Approximate vector search for users with many memories: every vector as 48 bytes of 4-bit product-quantizer
codes (faiss `IndexPQFastScan`, 96 sub-quantizers, SIMD table lookups), scanned in full for the best few
hundred candidates, which are then re-ranked exactly against the user's float32 columns. Only the re-ranked
cosines are returned, so a hit's score is the exact one and a row that no longer passes (deleted, inactive,
filtered out) is never returned.

Why this index (bench/ann.py, recall@10 against exact search with ties counted, on the recall bench's
conversation turns: means of one to three real sentence vectors, questions as queries; bench/RESULTS.md):
at 100k, IVF-Flat reached 0.91 at 10% of 316 lists probed and 0.99 only at 20% of 1,264 lists (7 ms,
17 s to build); at 1M, 0.935 at 20% of 2,000 lists (24 ms, 63 s to build). HNSW (M=32, efConstruction 64) built
in 61 s at 100k and reached 0.94 at efSearch 256. The nearest turns to a question are spread over the whole
space (a sentence recurs in many turns, each mixed with other sentences), which partitions (IVF) and graphs
(HNSW) handle badly; a full scan of compact codes has no such blind spot: 0.99 at 100k with 200 re-ranked,
0.35 ms per query, built in 4.5 s; 0.99 at 1M with 800 re-ranked, 7.7 ms (exact: 330 ms at that load),
built in 15-75 s (load 6-10). The nearer competitors grow with the user, so the candidates re-ranked do too:
max(`rerank`, `rerank_per_sqrt` x sqrt(vectors)) (200 at 100k, 800 at 1M). It is also the simplest to keep
in step: codes are appended, a removed or changed row's old code is only marked dead (its slot maps to no
row), and the whole index is rebuilt once dead slots or growth pass `rebuild_fraction`.

Why faiss: the well-kept library with SIMD fast-scan PQ (and filtered IVF/HNSW, measured above). Fast-scan
takes no search-time filter, so a filter is applied to the candidates: the scan asks for `rerank` divided by
the fraction of rows that pass (at most 1/`min_passing_fraction` more); a more selective filter is answered
exactly over the rows that pass (cheaper then anyway), and so is a query left with fewer than k candidates.

Building: on the first search that needs it, in a background thread by default (faiss releases the GIL):
exact search answers until it is ready, writes that land meanwhile are applied when it is installed. The
built index is saved beside the store (`ann-<user hash>.npz`: codes, codebooks and memory ids; written
atomically) so that a new process loads it in well under a second instead of rebuilding; on loading, a
memory whose vector changed since (its stored check value, the vector's product with a fixed random vector,
differs) or that is new is encoded again. Erasure deletes the file (`forget`): codes are derived from the
erased text's vector. A file is only written from a compacted index (dead slots dropped), so a code
of an erased memory is never written back.
"""

from __future__ import annotations

import hashlib
import logging
import math
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from memgraph.store.sqlite.columns import UserColumns
from memgraph.store.sqlite.files import save_npz, wipe
from memgraph.store.sqlite.search import exact, normalised

log = logging.getLogger(__name__)

#: Rows encoded per faiss call while building (bounds the gathered float32 copy: 64 MB at 384 dimensions).
_CHUNK = 1 << 16
#: Candidate vector floats one re-ranking block gathers (2 MB of float32: ~6 queries of 200 candidates). A
#: smaller block stays in the caches and reuses its allocation: 5,000 queries of 200 candidates over 60k rows
#: (numpy, load 8) took 0.89 / 1.06 / 0.91 s CPU in blocks of 64 MB and 0.57-0.65 s in blocks of 2-20 MB; the
#: whole batched search of a bulk write's 5,000 queries at 60k memories (faiss scan and re-rank, load 5.5, three
#: rounds alternated) 1.39-1.45 s in blocks of 8 MB, 1.27-1.29 s of 2 MB, 1.24-1.35 s of 1 MB, 1.34-1.44 s of
#: 0.3 MB: the same cosines to the bit (the same matrix-vector kernel per query).
_RERANK_FLOATS = 1 << 19


@dataclass(frozen=True)
class AnnConfig:
    """The ANN settings (Settings: ann_min_vectors, ann_min_passing_fraction, ann_subquantizers, ann_rerank,
    ann_rerank_per_sqrt, ann_rebuild_fraction, ann_background; the defaults here are theirs, see config.py for
    the reasons)."""

    min_vectors: int = 20_000
    min_passing_fraction: float = 0.3
    subquantizers: int = 96
    rerank: int = 200
    rerank_per_sqrt: float = 0.8
    rebuild_fraction: float = 0.25
    background: bool = True
    train_sample: int = 65_536
    seed: int = 1234
    directory: Path | None = None  # where built indexes are saved (the store's folder); None: never saved


def _faiss() -> Any:
    import faiss  # imported here: only users past the threshold pay for it (~0.3 s)

    if not getattr(_single, "set", False):
        # One OpenMP thread: a single query's fast-scan is one thread anyway, and building with two on a
        # loaded 2-core machine spin-waited: codebook training at 100k took 29.6 s of CPU (159 s wall, load 9)
        # with two threads, 0.95 s with one. faiss's OpenMP runtime is its own: numpy's BLAS is unaffected.
        # OpenMP keeps the thread count per thread: set once in every thread that calls faiss (set in the
        # writer's thread only, the background build ran with two: a 40k build took 19.1 s of CPU instead of
        # 1.9 s, load 10; the codes are the same bytes either way).
        faiss.omp_set_num_threads(1)
        _single.set = True
    return faiss


_single = threading.local()


_missing: list[bool] = []  # set once faiss failed to import: search exactly from then on


def available() -> bool:
    """Whether faiss imports (a runtime dependency, but a broken install must not break search): logged once."""
    if _missing:
        return False
    try:
        _faiss()
    except ImportError as exc:
        log.warning("faiss is not importable (%s): searching every user's vectors exactly", exc)
        _missing.append(True)
        return False
    return True


def _probe(dim: int, seed: int) -> np.ndarray:
    """A fixed random unit vector: a row's product with it tells whether its vector changed."""
    v = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    out: np.ndarray = v / np.linalg.norm(v)
    return out


class AnnIndex:
    """PQ fast-scan codes for rows of one user's columns; slot i of the faiss index holds row `slot_row[i]`
    (-1: dead)."""

    def __init__(self, index: Any, dim: int, config: AnnConfig) -> None:
        self.index = index
        self.config = config
        self.probe = _probe(dim, config.seed)
        self.slot_row = np.zeros(0, dtype=np.int64)
        self.check = np.zeros(0, dtype=np.float32)
        self.row_slot = np.full(0, -1, dtype=np.int64)
        self.live = 0
        self.trained_on = 0

    @classmethod
    def build(cls, vectors: np.ndarray, rows: np.ndarray, config: AnnConfig) -> AnnIndex:
        """Train the codebooks on a sample of `vectors[rows]` and encode them all (no lock needed: a row
        written meanwhile is re-encoded from the pending refreshes when the index is installed)."""
        faiss = _faiss()
        dim = vectors.shape[1]
        index = faiss.IndexPQFastScan(dim, config.subquantizers, 4, faiss.METRIC_INNER_PRODUCT)
        rng = np.random.default_rng(config.seed)
        sample = rows if len(rows) <= config.train_sample else np.sort(rng.choice(rows, config.train_sample, False))
        index.train(np.ascontiguousarray(vectors[sample]))
        out = cls(index, dim, config)
        out.trained_on = len(rows)
        for start in range(0, len(rows), _CHUNK):
            out._append(vectors, rows[start : start + _CHUNK])
        return out

    def _append(self, vectors: np.ndarray, rows: np.ndarray) -> None:
        if not len(rows):
            return
        _faiss()  # encoding runs on the caller's thread: one OpenMP thread there too
        x = np.ascontiguousarray(vectors[rows])
        first = len(self.slot_row)
        self.index.add(x)
        self.slot_row = np.concatenate([self.slot_row, rows])
        self.check = np.concatenate([self.check, x @ self.probe])
        top = int(rows.max()) + 1
        if top > len(self.row_slot):
            grown = np.full(max(top, 2 * len(self.row_slot)), -1, dtype=np.int64)
            grown[: len(self.row_slot)] = self.row_slot
            self.row_slot = grown
        self.row_slot[rows] = np.arange(first, first + len(rows))
        self.live += len(rows)

    def refresh(self, cols: UserColumns, rows: np.ndarray) -> None:
        """Bring these rows in step with the columns: a dead or vectorless row's slot dies, a changed vector's
        slot dies and a new code is appended, an unchanged one keeps its slot."""
        rows = np.unique(np.asarray(rows, dtype=np.int64))
        rows = rows[rows < cols.n]
        if not len(rows):
            return
        slots = np.full(len(rows), -1, dtype=np.int64)
        known = rows < len(self.row_slot)
        slots[known] = self.row_slot[rows[known]]
        keep = cols.alive[rows] & cols.has_vector[rows]
        has = slots >= 0
        same = np.zeros(len(rows), dtype=bool)
        if has.any():
            same[has] = np.abs(cols.vectors[rows[has]] @ self.probe - self.check[slots[has]]) <= 1e-6
        kill = has & ~(keep & same)
        self.slot_row[slots[kill]] = -1
        self.row_slot[rows[kill]] = -1
        self.live -= int(kill.sum())
        self._append(cols.vectors, rows[keep & ~(has & same)])

    def dead(self) -> int:
        return len(self.slot_row) - self.live

    def stale(self) -> bool:
        """Enough has changed since the codebooks were trained to rebuild (dead slots are scanned for
        nothing; codebooks trained on a fraction of today's vectors fit them less)."""
        return self.dead() > self.config.rebuild_fraction * self.trained_on or self.live > 2 * self.trained_on

    def search(
        self,
        cols: UserColumns,
        queries: np.ndarray,
        k: int,
        min_similarity: float,
        rows: np.ndarray,
        rerank: int | None = None,
    ) -> list[list[tuple[int, float]] | None]:
        """Top-k (row, exact cosine) per query among `rows`, best first, ties by row; None for a query the
        candidates cannot answer (fewer than k of them pass: exact search answers it). `rerank` replaces the
        configured fewest candidates re-ranked (`AnnConfig.rerank`), their growth with the store scaled alike
        (the write path's reconciliation asks for fewer: `Settings.reconcile_ann_rerank`)."""
        qs = normalised(queries)
        passing = None
        if len(rows) < self.live:
            passing = np.zeros(cols.n, dtype=bool)
            passing[rows] = True
        share = len(rows) / max(1, self.live)
        fewest, grow = self.config.rerank, self.config.rerank_per_sqrt
        if rerank is not None:
            fewest, grow = rerank, grow * rerank / max(1, self.config.rerank)
        wanted = max(fewest, grow * math.sqrt(self.live))
        depth = min(len(self.slot_row), math.ceil(wanted * len(self.slot_row) / max(1, self.live) / share))
        _, slots = self.index.search(qs, max(k, depth))
        # each query's candidates in scan order: live slots' rows that pass the filter
        cand = np.where(slots >= 0, self.slot_row[np.maximum(slots, 0)], -1)
        valid = cand >= 0
        if passing is not None:
            valid &= passing[np.maximum(cand, 0)]
        full = valid.all(axis=1)
        out: list[list[tuple[int, float]] | None] = [None] * len(qs)
        need = min(k, len(rows))
        # queries whose candidates all count (no dead slot, no filtered row: a bulk write's searches) re-ranked a
        # block at a time; the others one by one
        self._rerank_block(cols, qs, cand, np.flatnonzero(full), k, min_similarity, out)
        for i in np.flatnonzero(~full).tolist():
            c = cand[i][valid[i]]
            if len(c) >= need:
                out[i] = _rerank(cols.vectors[c] @ qs[i], c, k, min_similarity)
        return out

    @staticmethod
    def _rerank_block(
        cols: UserColumns,
        qs: np.ndarray,
        cand: np.ndarray,
        which: np.ndarray,
        k: int,
        min_similarity: float,
        out: list[list[tuple[int, float]] | None],
    ) -> None:
        """Exact cosines of `cand[i]` for the queries `which` (every candidate of theirs counts), ranked. One
        gather and one stacked product per block: `np.matmul` multiplies each query's candidate rows with it by
        the same matrix-vector kernel as `vectors[cand] @ q`, so the cosines are bit for bit those of the
        per-query loop it replaces (a bulk write's 5,000 queries at 60k memories: the loop's ~60 us of Python
        and numpy calls per query; tests/test_sqlite_ann.py compares both)."""
        if not len(which) or not cand.shape[1]:
            return
        step = max(1, _RERANK_FLOATS // (cand.shape[1] * cols.vectors.shape[1]))
        for start in range(0, len(which), step):
            idx = which[start : start + step]
            c = cand[idx]
            sims = np.matmul(cols.vectors[c], qs[idx][:, :, None])[:, :, 0]
            order = np.lexsort((c, -sims), axis=-1)[:, :k]
            top_rows = np.take_along_axis(c, order, axis=1).tolist()
            top_sims = np.take_along_axis(sims, order, axis=1).tolist()
            for i, r, v in zip(idx.tolist(), top_rows, top_sims, strict=True):
                out[i] = [(a, b) for a, b in zip(r, v, strict=True) if b >= min_similarity]

    def compact(self) -> None:
        """Drop the dead slots' codes (before saving: an erased memory's code must not reach the file)."""
        dead = np.flatnonzero(self.slot_row < 0)
        if not len(dead):
            return
        faiss = _faiss()
        self.index.remove_ids(faiss.IDSelectorBatch(len(dead), faiss.swig_ptr(dead.astype(np.int64))))
        alive = self.slot_row >= 0
        self.slot_row, self.check = self.slot_row[alive], self.check[alive]
        self.row_slot[:] = -1
        self.row_slot[self.slot_row] = np.arange(len(self.slot_row))

    def save(self, path: Path, cols: UserColumns) -> None:
        """Codes, codebooks, the slots' memory ids and check values, written atomically."""
        faiss = _faiss()
        self.compact()
        ids = np.array([cols.ids[r] for r in self.slot_row.tolist()], dtype=np.bytes_)
        save_npz(
            path,
            {
                "index": faiss.serialize_index(self.index),
                "ids": ids,
                "rows": self.slot_row,
                "check": self.check,
                "trained_on": np.array([self.trained_on]),
            },
        )

    @classmethod
    def load(cls, path: Path, cols: UserColumns, config: AnnConfig) -> AnnIndex | None:
        """The saved index with today's columns: slots of memories gone or changed die, rows not in it are
        encoded; None when the file is unreadable or was built with other settings."""
        faiss = _faiss()
        try:
            with np.load(path) as data:
                index = faiss.deserialize_index(data["index"])
                ids, guess = data["ids"], data["rows"]
                check, trained_on = data["check"], int(data["trained_on"][0])
        except (OSError, ValueError, KeyError, RuntimeError) as exc:
            log.warning("ignoring the saved vector index %s: %s", path.name, exc)
            return None
        if index.d != cols.dim or getattr(index, "M", None) != config.subquantizers:
            return None
        out = cls(index, cols.dim, config)
        out.trained_on = trained_on
        # a memory's row in this process: most often the row it had when saved (rows follow the file's order);
        # checked in one comparison, the others looked up by id (1M ids one by one: ~2 s)
        n = cols.n
        current = np.array(cols.ids, dtype=np.bytes_) if n else np.zeros(0, dtype=np.bytes_)
        slot_row = np.where(guess < n, guess, 0).astype(np.int64)
        same = (guess < n) & (current[slot_row] == ids) if n else np.zeros(len(ids), dtype=bool)
        lookup = cols.index
        for i in np.flatnonzero(~same).tolist():
            slot_row[i] = lookup.get(ids[i].decode(), -1)
        ok = slot_row >= 0
        ok[ok] = cols.alive[slot_row[ok]] & cols.has_vector[slot_row[ok]]
        if ok.any():  # one product over the contiguous matrix, not a gather of every row
            ok[ok] = np.abs((cols.vectors[:n] @ out.probe)[slot_row[ok]] - check[ok]) <= 1e-6
        slot_row[~ok] = -1
        out.slot_row, out.check = slot_row, check.astype(np.float32)
        out.row_slot = np.full(cols.n, -1, dtype=np.int64)
        out.row_slot[slot_row[ok]] = np.flatnonzero(ok)
        out.live = int(ok.sum())
        covered = np.zeros(cols.n, dtype=bool)
        covered[slot_row[ok]] = True
        missing = np.flatnonzero(cols.alive[: cols.n] & cols.has_vector[: cols.n] & ~covered)
        out._append(cols.vectors, missing)
        return out


def _rerank(sims: np.ndarray, cand: np.ndarray, k: int, min_similarity: float) -> list[tuple[int, float]]:
    """The best k of one query's candidates by exact cosine, ties by row, at or above `min_similarity`."""
    order = np.lexsort((cand, -sims))[:k]
    return [(r, s) for r, s in zip(cand[order].tolist(), sims[order].tolist(), strict=True) if s >= min_similarity]


def index_path(directory: Path, user_id: str) -> Path:
    return directory / f"ann-{hashlib.sha256(user_id.encode()).hexdigest()[:16]}.npz"


def forget(directory: Path | None, user_id: str) -> None:
    """Erasure: delete the user's saved index (its codes are derived from the erased memories' vectors)."""
    if directory is not None:
        wipe(index_path(directory, user_id))


class UserAnn:
    """One user's index (state.ann in mirror.py): the one answering, and a build under way, if any. Every
    call happens under the mirror's lock; the build thread touches only its own index."""

    def __init__(self, config: AnnConfig, user_id: str) -> None:
        self.config = config
        self.user_id = user_id
        self.index: AnnIndex | None = None
        self._thread: threading.Thread | None = None
        self._built: AnnIndex | None = None
        self._error: BaseException | None = None
        self._pending: list[np.ndarray] = []
        self._tried_file = False
        self._failed = False

    def refresh(self, cols: UserColumns, rows: np.ndarray) -> None:
        """Rows the change log re-read (mirror.py): applied now, and again to a build under way on install."""
        if self.index is not None:
            self.index.refresh(cols, rows)
        if self._thread is not None:
            self._pending.append(np.asarray(rows, dtype=np.int64).copy())

    def _path(self) -> Path | None:
        return index_path(self.config.directory, self.user_id) if self.config.directory is not None else None

    def ready(self, cols: UserColumns) -> AnnIndex | None:
        """The index to search now (None: search exactly), installing a finished build and starting one when
        there is none or the current one is stale."""
        if self._thread is not None and not self._thread.is_alive():
            self._thread = None
            if self._error is not None:  # (memory, a broken install): this process searches the user exactly
                log.warning("building the vector index failed, searching exactly: %r", self._error)
                self._failed = True
            self._install(cols)
        path = self._path()
        if self.index is None and not self._tried_file and path is not None:
            self._tried_file = True
            if path.exists():
                self.index = AnnIndex.load(path, cols, self.config)
        if self._thread is None and not self._failed and (self.index is None or self.index.stale()):
            self._start(cols)
        return self.index

    def wait(self, cols: UserColumns) -> AnnIndex | None:
        """Finish a build under way (tests, benches) and install it."""
        if self._thread is not None:
            self._thread.join()
        return self.ready(cols)

    def finish(self, cols: UserColumns) -> None:
        """At close: let a build under way end and save it (a short-lived process, the CLI, would otherwise
        start the same build on every run and never keep one), starting none."""
        if self._thread is None:
            return
        self._thread.join()
        self._thread = None
        if self._error is None:
            self._install(cols)

    def _start(self, cols: UserColumns) -> None:
        vectors = cols.vectors  # the thread reads this array; a grown columns object gets a new one
        rows = np.flatnonzero(cols.alive[: cols.n] & cols.has_vector[: cols.n])
        self._pending = []
        if not self.config.background:
            self._built = AnnIndex.build(vectors, rows, self.config)
            self._install(cols)
            return

        def run() -> None:
            try:
                self._built = AnnIndex.build(vectors, rows, self.config)
            except BaseException as exc:  # reported on the next search (ready)
                self._error = exc

        self._thread = threading.Thread(target=run, name=f"memgraph-ann-{self.user_id[:16]}", daemon=True)
        self._thread.start()

    def _install(self, cols: UserColumns) -> None:
        built, self._built = self._built, None
        if built is None:
            return
        for rows in self._pending:
            built.refresh(cols, rows)
        self._pending = []
        self.index = built
        path = self._path()
        if path is not None:
            try:
                built.save(path, cols)
            except OSError as exc:  # a read-only folder: the index still serves this process
                log.warning("could not save the vector index %s: %s", path.name, exc)


def finish_builds(mirror: Any) -> None:
    """Store close: finish and save every user's index build under way (UserAnn.finish). Never raises: a
    store that cannot be read any more closes all the same (the next process builds again)."""
    try:
        for user_id in mirror.cached_users():
            with mirror.user(user_id, graph=False) as state:  # the columns only: a graph not read stays unread
                if isinstance(state.ann, UserAnn):
                    state.ann.finish(state.columns)
    except Exception as exc:  # noqa: BLE001 - closing must not fail over a cache
        log.warning("vector index builds not saved at close: %r", exc)


def ann_search(
    state: Any,
    config: AnnConfig,
    queries: np.ndarray,
    k: int,
    min_similarity: float,
    rows: np.ndarray,
    user_id: str = "",
    rerank: int | None = None,
) -> list[list[tuple[int, float]]] | None:
    """Top-k (row, cosine) per query from the user's ANN index, or None when exact search should answer
    (too few vectors, a selective filter, the index still building). `rerank`: see `AnnIndex.search`."""
    cols: UserColumns = state.columns
    if cols.n < config.min_vectors or len(rows) <= k:
        return None
    n_vectors = int(np.count_nonzero(cols.alive[: cols.n] & cols.has_vector[: cols.n]))
    if n_vectors < config.min_vectors or len(rows) < config.min_passing_fraction * n_vectors or not available():
        return None
    if not isinstance(state.ann, UserAnn):
        state.ann = UserAnn(config, user_id)
    index = state.ann.ready(cols)
    if index is None:
        return None
    found = index.search(cols, queries, k, min_similarity, rows, rerank)
    out: list[list[tuple[int, float]]] = []
    for i, hits in enumerate(found):
        out.append(hits if hits is not None else exact(cols, queries[i : i + 1], k, min_similarity, rows)[0])
    return out
