"""The SQLite store's ANN path (faiss IVF over the in-memory vectors, store/sqlite/ann.py), at a small size with
the threshold lowered: recall@10 against exact search >= 0.98, filters honoured (the index's selector, or
exact search when the filter is selective), and the index kept in step with writes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from memgraph.models import MemoryKind
from memgraph.store import MemoryFilter, MemoryUpdate, WriteBatch
from memgraph.store.sqlite import SQLiteStore
from memgraph.store.sqlite.ann import AnnConfig
from tests.conformance.helpers import DIM, mem

N = 6000
NEVER = AnnConfig(min_vectors=10**9)


def _clustered(n: int, seed: int) -> np.ndarray:
    """Vectors around 60 topic centroids, as sentence embeddings are (same-topic cosine ~0.5)."""
    rng = np.random.default_rng(seed)
    centroids = rng.standard_normal((60, DIM)).astype(np.float32)
    x = centroids[rng.integers(0, 60, n)] + 1.0 * rng.standard_normal((n, DIM)).astype(np.float32)
    out: np.ndarray = x / np.linalg.norm(x, axis=1, keepdims=True)
    return out


@pytest.fixture(scope="module")
def stores(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[SQLiteStore, SQLiteStore, np.ndarray, list[str]]]:
    """(store searching through the index, store on the same file searching exactly, vectors, ids)."""
    path: Path = tmp_path_factory.mktemp("ann")
    approx = SQLiteStore(path, ann=AnnConfig(min_vectors=2000))
    vecs = _clustered(N, 1)
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
    yield approx, exact, vecs, [m.id for m in mems]
    approx.close()
    exact.close()


def _queries(vecs: np.ndarray, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    q = vecs[rng.integers(0, len(vecs), n)] + 0.5 * rng.standard_normal((n, DIM)).astype(np.float32) / np.sqrt(DIM)
    return q


def _recall(approx: SQLiteStore, exact: SQLiteStore, queries: np.ndarray, flt: MemoryFilter | None) -> float:
    got = approx.vector_search_many("ada", queries, 10, flt=flt)
    want = exact.vector_search_many("ada", queries, 10, flt=flt)
    hits = sum(len({m for m, _ in g} & {m for m, _ in w}) for g, w in zip(got, want, strict=True))
    return hits / sum(len(w) for w in want)


def test_recall_at_10_against_exact(stores) -> None:  # type: ignore[no-untyped-def]
    approx, exact, vecs, _ = stores
    queries = _queries(vecs, 200, 2)
    assert _recall(approx, exact, queries, None) >= 0.98
    with approx._mirror.user("ada") as state:
        assert state.ann is not None  # the index answered, not the exact fallback
        assert state.ann.nprobe < state.ann.nlist
    one = approx.vector_search("ada", queries[0], 10)
    assert one == approx.vector_search_many("ada", queries[:1], 10)[0]
    assert [s for _, s in one] == sorted((s for _, s in one), reverse=True)


def test_filters_are_honoured(stores) -> None:  # type: ignore[no-untyped-def]
    approx, exact, vecs, ids = stores
    queries = _queries(vecs, 100, 3)
    facts = MemoryFilter(kinds=[MemoryKind.FACT])  # half the rows: searched through the index's selector
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
    approx, exact, vecs, ids = stores
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
    queries = _queries(vecs, 100, 4)
    assert _recall(approx, exact, queries, None) >= 0.98
