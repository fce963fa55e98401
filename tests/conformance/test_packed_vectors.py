"""The embedding matrix the batch jobs read is the stored vectors, bit for bit, on every store; on FalkorDB it
comes from the packed copy (MemoryVector.embedding_b64) when a vector has one and from the float list when it
has none (packing off, or a store written before packing), and a rewrite never leaves a stale copy."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from memgraph.config import Settings
from memgraph.errors import StoreError
from memgraph.store import GraphStore, MemoryFilter, WriteBatch, open_store

from .helpers import mem, unit_vectors

EVERYTHING = MemoryFilter.everything()


def _by_id(store: GraphStore, user: str) -> dict[str, np.ndarray]:
    ids, matrix = store.embeddings(user, EVERYTHING)
    assert matrix.dtype == np.float32
    return dict(zip(ids, matrix, strict=True))


def test_embedding_matrix_is_the_written_vectors(store: GraphStore) -> None:
    mems = [mem("ada", f"m{i}", minutes=i) for i in range(5)]
    vectors = unit_vectors(5, seed=7)
    store.write("ada", WriteBatch(memories=mems, embeddings=vectors))
    got = _by_id(store, "ada")
    for m, v in zip(mems, vectors, strict=True):
        assert np.array_equal(got[m.id], v)  # exact: no rounding through text
    full = {m.id: m.embedding for m in store.get_memories("ada", [m.id for m in mems], with_embeddings=True)}
    for mid, vec in got.items():
        assert np.array_equal(np.asarray(full[mid], dtype=np.float32), vec)


def _stored_copies(store: GraphStore) -> dict[str, str | None]:
    rows = store._x.run(  # type: ignore[attr-defined]
        "MATCH (v:MemoryVector) RETURN v.id AS id, v.embedding_b64 AS packed", {}, write=False
    )
    return {r["id"]: r["packed"] for r in rows}


@pytest.fixture
def falkor_target(falkordb_dir: Path, request: pytest.FixtureRequest) -> str:
    return f"falkordb+dir://{falkordb_dir}?graph=packed_{request.node.name}"


def test_falkordb_reads_packed_and_unpacked_vectors_alike(falkor_target: str) -> None:
    packing = open_store(falkor_target, Settings())
    plain = open_store(falkor_target, Settings(falkordb_packed_vectors=False))
    try:
        first = [mem("ada", f"packed {i}", minutes=i) for i in range(3)]
        second = [mem("ada", f"plain {i}", minutes=10 + i) for i in range(3)]
        vectors = unit_vectors(6, seed=11)
        packing.write("ada", WriteBatch(memories=first, embeddings=vectors[:3]))
        plain.write("ada", WriteBatch(memories=second, embeddings=vectors[3:]))
        copies = _stored_copies(packing)
        assert all(copies[m.id] for m in first)
        assert all(copies[m.id] is None for m in second)

        got = _by_id(packing, "ada")  # a mix of packed and float-list rows
        for m, v in zip(first + second, vectors, strict=True):
            assert np.array_equal(got[m.id], v)

        # A rewrite without packing removes the copy instead of leaving it stale; with packing it replaces it.
        new = unit_vectors(2, seed=12)
        plain.set_embeddings("ada", [first[0].id], new[:1], "m2")
        packing.set_embeddings("ada", [second[0].id], new[1:], "m2")
        copies = _stored_copies(packing)
        assert copies[first[0].id] is None and copies[second[0].id]
        got = _by_id(packing, "ada")
        assert np.array_equal(got[first[0].id], new[0]) and np.array_equal(got[second[0].id], new[1])
    finally:
        packing._x.delete_graph()  # type: ignore[attr-defined]
        plain.close()
        packing.close()


def test_falkordb_refuses_a_corrupt_packed_copy(falkor_target: str) -> None:
    store = open_store(falkor_target, Settings())
    try:
        m = mem("ada", "one")
        store.write("ada", WriteBatch(memories=[m], embeddings=unit_vectors(1)))
        store._x.run(  # type: ignore[attr-defined]
            "MATCH (v:MemoryVector {id: $id}) SET v.embedding_b64 = 'AAAA'", {"id": m.id}, write=True
        )
        with pytest.raises(StoreError, match="embedding_b64"):
            store.embeddings("ada", EVERYTHING)
    finally:
        store._x.delete_graph()  # type: ignore[attr-defined]
        store.close()


def test_packed_copy_is_only_kept_on_falkordb(store_factory: Callable[..., GraphStore]) -> None:
    store = store_factory()
    if getattr(store, "name", "") not in ("neo4j", "falkordb"):
        pytest.skip("SQLite keeps the float32 bytes themselves")
    m = mem("ada", "one")
    store.write("ada", WriteBatch(memories=[m], embeddings=unit_vectors(1)))
    assert bool(_stored_copies(store)[m.id]) is (store.name == "falkordb")
