"""The SQLite store's ANN path (product-quantizer codes scanned, candidates re-ranked exactly;
store/sqlite/ann.py) at a small size with the threshold lowered: recall@10 against exact search >= 0.98 with
ties counted, filters honoured (candidates that pass, or exact search when the filter is selective), the index
kept in step with writes, saved beside the store and reopened without a rebuild, deleted by erasure."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from memgraph.models import MemoryKind
from memgraph.store import MemoryFilter, MemoryUpdate, WriteBatch
from memgraph.store.sqlite import SQLiteStore
from memgraph.store.sqlite import ann as ann_module
from memgraph.store.sqlite.ann import AnnConfig, UserAnn, index_path
from tests.conformance.helpers import DIM, mem

N = 6000
NEVER = AnnConfig(min_vectors=10**9)
SMALL = AnnConfig(min_vectors=2000, background=False)


def _clustered(n: int, seed: int) -> np.ndarray:
    """Vectors around 60 topic centroids, as sentence embeddings are (same-topic cosine ~0.5)."""
    rng = np.random.default_rng(seed)
    centroids = np.random.default_rng(0).standard_normal((60, DIM)).astype(np.float32)
    x = centroids[rng.integers(0, 60, n)] + 1.0 * rng.standard_normal((n, DIM)).astype(np.float32)
    out: np.ndarray = x / np.linalg.norm(x, axis=1, keepdims=True)
    return out


def _turns(n: int, seed: int) -> np.ndarray:
    """Conversation turns as the recall bench builds them: each the normalised mean of one to three
    "sentences" drawn from a pool four times smaller, so sentences recur across turns and many turns are
    exact duplicates (the nearest turns to a query are then spread over the space, and tied)."""
    pool = _clustered(n // 4, seed)
    rng = np.random.default_rng(seed + 1)
    sizes = rng.choice([1, 1, 2, 2, 3], n)
    x = np.stack([pool[rng.choice(len(pool), s, replace=False)].mean(axis=0) for s in sizes])
    out: np.ndarray = (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)
    return out


@pytest.fixture(scope="module")
def stores(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[SQLiteStore, SQLiteStore, np.ndarray, list[str], Path]]:
    """(store searching through the index, store on the same file searching exactly, vectors, ids, folder)."""
    path: Path = tmp_path_factory.mktemp("ann")
    approx = SQLiteStore(path, ann=SMALL)
    vecs = _turns(N, 1)
    kinds = [MemoryKind.FACT, MemoryKind.EVENT]
    mems = [
        mem(
            "ada",
            f"memory {i}",
            kind=kinds[i % 2],
            tags=["rare"] if i % 100 == 0 else [],
            active=i % 13 != 0,
            archived=i % 17 == 0,
        )
        for i in range(N)
    ]
    approx.write("ada", WriteBatch(memories=mems, embeddings=vecs))
    exact = SQLiteStore(path, ann=NEVER)
    yield approx, exact, vecs, [m.id for m in mems], path
    approx.close()
    exact.close()


def _queries(n: int, seed: int) -> np.ndarray:
    """Queries from the same topics but not among the stored vectors (as questions are not turns)."""
    return _clustered(n, seed)


def _recall(approx: SQLiteStore, exact: SQLiteStore, queries: np.ndarray, flt: MemoryFilter | None) -> float:
    """Share of exact search's places filled by returned memories scoring at least the exact k-th score
    (a memory tied with exact search's pick is as correct as the pick)."""
    got = approx.vector_search_many("ada", queries, 10, flt=flt)
    want = exact.vector_search_many("ada", queries, 10, flt=flt)
    hits = 0
    for g, w in zip(got, want, strict=True):
        kth = w[-1][1]
        hits += min(len(w), sum(1 for _, s in g if s >= kth - 1e-6))
    return hits / sum(len(w) for w in want)


def _user_ann(store: SQLiteStore) -> UserAnn:
    with store._mirror.user("ada") as state:
        assert isinstance(state.ann, UserAnn)
        return state.ann


def test_recall_at_10_against_exact(stores) -> None:  # type: ignore[no-untyped-def]
    approx, exact, vecs, _, _ = stores
    queries = _queries(200, 2)
    assert _recall(approx, exact, queries, None) >= 0.98
    index = _user_ann(approx).index
    assert index is not None and index.live > SMALL.rerank  # the index answered, not the exact fallback
    one = approx.vector_search("ada", queries[0], 10)
    assert one == approx.vector_search_many("ada", queries[:1], 10)[0]
    assert [s for _, s in one] == sorted((s for _, s in one), reverse=True)
    # the scores are exact search's own
    want = dict(exact.vector_search("ada", queries[0], 50))
    assert all(abs(s - want[m]) < 1e-6 for m, s in one if m in want)


def _one_by_one(
    index: ann_module.AnnIndex, cols: object, queries: np.ndarray, k: int, floor: float, rows: np.ndarray
) -> list[list[tuple[int, float]] | None]:
    """`AnnIndex.search` as it was: each query's candidates re-ranked by its own matrix-vector product."""
    vectors = cols.vectors  # type: ignore[attr-defined]
    qs = ann_module.normalised(queries)
    passing = np.zeros(cols.n, dtype=bool)  # type: ignore[attr-defined]
    passing[rows] = True
    share = len(rows) / max(1, index.live)
    rerank = max(index.config.rerank, index.config.rerank_per_sqrt * np.sqrt(index.live))
    depth = min(len(index.slot_row), int(np.ceil(rerank * len(index.slot_row) / max(1, index.live) / share)))
    _, slots = index.index.search(qs, max(k, depth))
    out: list[list[tuple[int, float]] | None] = []
    for q, found in zip(qs, slots, strict=True):
        cand = index.slot_row[found[found >= 0]]
        cand = cand[cand >= 0]
        cand = cand[passing[cand]]
        if len(cand) < min(k, len(rows)):
            out.append(None)
            continue
        sims = vectors[cand] @ q
        order = np.lexsort((cand, -sims))[:k]
        out.append([(r, s) for r, s in zip(cand[order].tolist(), sims[order].tolist(), strict=True) if s >= floor])
    return out


def test_batched_rerank_is_the_per_query_one_bit_for_bit(stores) -> None:  # type: ignore[no-untyped-def]
    """Many queries (a bulk write's reconciliation) are re-ranked a block at a time: the same rows, in the same
    order, with the same float32 cosines as one product per query; with and without a filter, with dead
    slots (rows deleted since the index was built: those queries are re-ranked one by one)."""
    approx, _, _, _, _ = stores
    queries = _queries(300, 7)
    with approx._mirror.user("ada") as state:
        ann = state.ann
        assert isinstance(ann, UserAnn) and ann.index is not None
        cols, index = state.columns, ann.index
        every = np.flatnonzero(cols.alive[: cols.n] & cols.has_vector[: cols.n])
        half = every[::2]
        for rows, floor in ((every, -1.0), (every, 0.3), (half, 0.2)):
            got = index.search(cols, queries, 5, floor, rows)
            assert got == _one_by_one(index, cols, queries, 5, floor, rows)
            assert all(g is not None for g in got)
        dead = index.slot_row.copy()
        try:
            index.slot_row[::7] = -1  # some candidates of most queries are dead slots now
            got = index.search(cols, queries, 5, 0.0, every)
            assert got == _one_by_one(index, cols, queries, 5, 0.0, every)
        finally:
            index.slot_row = dead


def test_every_thread_calling_faiss_uses_one_openmp_thread() -> None:
    """OpenMP keeps its thread count per thread: the background build's thread must set it too (it ran with
    one thread per core, spin-waiting on a loaded machine: ten times the CPU for the same codes)."""
    import threading

    faiss = ann_module._faiss()
    assert faiss.omp_get_max_threads() == 1
    seen: list[int] = []

    def build_thread() -> None:
        ann_module._faiss()
        seen.append(faiss.omp_get_max_threads())

    t = threading.Thread(target=build_thread)
    t.start()
    t.join()
    assert seen == [1]


def test_filters_are_honoured(stores) -> None:  # type: ignore[no-untyped-def]
    approx, exact, vecs, ids, _ = stores
    queries = _queries(100, 3)
    facts = MemoryFilter(kinds=[MemoryKind.FACT])  # ~half the rows: candidates from the index, filtered
    assert _recall(approx, exact, queries, facts) >= 0.98
    position = {mid: i for i, mid in enumerate(ids)}
    for hits in approx.vector_search_many("ada", queries, 10, flt=facts):
        assert len(hits) == 10
        for mid, _ in hits:
            i = position[mid]
            assert i % 2 == 0 and i % 13 != 0 and i % 17 != 0  # a fact, active, not archived
    rare = MemoryFilter(tag="rare")  # 1% of the rows: searched exactly over them
    assert approx.vector_search_many("ada", queries, 10, flt=rare) == exact.vector_search_many(
        "ada", queries, 10, flt=rare
    )
    everything = MemoryFilter.everything()
    assert _recall(approx, exact, queries, everything) >= 0.98


def test_the_index_follows_writes(stores) -> None:  # type: ignore[no-untyped-def]
    approx, exact, vecs, ids, _ = stores
    approx.vector_search("ada", vecs[0], 10)  # the index exists
    fresh = _clustered(50, 9)
    new = [mem("ada", f"later {i}") for i in range(50)]
    approx.write("ada", WriteBatch(memories=new, embeddings=fresh))
    assert [approx.vector_search("ada", v, 1)[0][0] for v in fresh] == [m.id for m in new]
    approx.delete_memories("ada", [new[0].id])
    assert new[0].id not in {m for m, _ in approx.vector_search("ada", fresh[0], 10)}
    moved = _clustered(1, 11)[0]
    approx.set_embeddings("ada", [ids[2]], moved[None], "all-MiniLM-L6-v2")
    assert approx.vector_search("ada", moved, 1)[0][0] == ids[2]
    approx.update_memories("ada", [MemoryUpdate(id=ids[2], set={"active": False})])
    assert ids[2] not in {m for m, _ in approx.vector_search("ada", moved, 10)}
    index = _user_ann(approx).index
    assert index is not None and index.dead() >= 2  # the deleted and the moved vectors' old codes
    queries = _queries(100, 4)
    assert _recall(approx, exact, queries, None) >= 0.98


def test_reopened_from_the_saved_index(stores, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    approx, exact, vecs, ids, path = stores
    approx.vector_search("ada", vecs[0], 10)
    saved = index_path(path, "ada")
    assert saved.exists()
    # a write the saved file has not seen: a vector replaced through another store on the same file
    moved = _clustered(1, 21)[0]
    exact.set_embeddings("ada", [ids[4]], moved[None], "all-MiniLM-L6-v2")

    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError("reopening rebuilt the index instead of loading it")

    monkeypatch.setattr(ann_module.AnnIndex, "build", no_build)
    reopened = SQLiteStore(path, ann=SMALL)
    try:
        assert reopened.vector_search("ada", moved, 1)[0][0] == ids[4]
        assert _user_ann(reopened).index is not None
        assert _recall(reopened, exact, _queries(100, 6), None) >= 0.98
    finally:
        reopened.close()


def test_background_build_answers_exactly_until_ready(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path, ann=AnnConfig(min_vectors=2000))
    exact = SQLiteStore(tmp_path, ann=NEVER)
    try:
        vecs = _turns(3000, 7)
        store.write("ada", WriteBatch(memories=[mem("ada", f"m {i}") for i in range(3000)], embeddings=vecs))
        q = _queries(30, 8)
        assert store.vector_search_many("ada", q, 10) == exact.vector_search_many("ada", q, 10)  # building
        extra = _clustered(5, 12)
        late = [mem("ada", f"during the build {i}") for i in range(5)]
        store.write("ada", WriteBatch(memories=late, embeddings=extra))
        with store._mirror.user("ada") as state:
            assert state.ann.wait(state.columns) is not None
        assert [store.vector_search("ada", v, 1)[0][0] for v in extra] == [m.id for m in late]
        assert _recall(store, exact, q, None) >= 0.98
    finally:
        store.close()
        exact.close()


def test_erasure_deletes_the_saved_index(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path, ann=SMALL)
    try:
        vecs = _turns(2500, 3)
        mems = [mem("ada", f"m {i}") for i in range(2500)]
        store.write("ada", WriteBatch(memories=mems, embeddings=vecs))
        store.vector_search("ada", vecs[0], 10)
        saved = index_path(tmp_path, "ada")
        assert saved.exists()
        store.erase_memories("ada", [mems[0].id])
        assert not saved.exists()
        assert mems[0].id not in {m for m, _ in store.vector_search("ada", vecs[0], 10)}
    finally:
        store.close()
    # a new process builds and saves again, without the erased memory
    again = SQLiteStore(tmp_path, ann=SMALL)
    try:
        again.vector_search("ada", vecs[1], 10)
        with np.load(saved) as data:
            assert mems[0].id.encode() not in set(data["ids"].tolist())
            assert mems[1].id.encode() in set(data["ids"].tolist())
        again.erase_user("ada")
        assert not saved.exists()
    finally:
        again.close()


def test_fewer_candidates_reranked_when_asked(stores, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """The write path's reconciliation asks for its 5 nearest with `rerank` (Settings.reconcile_ann_rerank): the
    scan returns that many candidates (grown with the store in recall's proportion) instead of recall's
    `ann_rerank`, and the hits are still exact cosines of the candidates that remain."""
    approx, exact, _, _, _ = stores
    queries = _queries(20, 3)
    approx.vector_search_many("ada", queries[:1], 5)  # the index is built
    index = _user_ann(approx).index
    assert index is not None
    asked: list[int] = []
    scan = index.index.search

    def spy(q: np.ndarray, k: int) -> object:
        asked.append(k)
        return scan(q, k)

    monkeypatch.setattr(index.index, "search", spy)
    default = approx.vector_search_many("ada", queries, 5)
    fewer = approx.vector_search_many("ada", queries, 5, rerank=20)
    # (both widened alike for the rows the default filter leaves out: inactive and archived ones)
    assert asked[0] >= SMALL.rerank and 20 <= asked[1] <= asked[0] * 20 / SMALL.rerank + 1
    want = exact.vector_search_many("ada", queries, 50)
    for hits in (default, fewer):
        for got, w in zip(hits, want, strict=True):
            cos = dict(w)
            assert all(abs(s - cos[m]) < 1e-6 for m, s in got if m in cos)
