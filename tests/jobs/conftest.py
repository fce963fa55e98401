"""Fixtures for the job tests: engines filled with the generated multi-topic corpus, and a store checksum."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from memgraph import MemoryEngine, Settings
from memgraph.embed import CachedEmbedder
from memgraph.models import Memory
from memgraph.store.base import GraphStore, MemoryFilter, WriteBatch
from memgraph.store.sqlite import SQLiteStore
from tests.jobs.corpus import Item, generate

SIX_TOPICS = ["coffee", "hiking", "python", "gardening", "finance", "astronomy"]


def make_engine(embedder: CachedEmbedder, target: str = ":memory:", **settings: object) -> MemoryEngine:
    return MemoryEngine(SQLiteStore(target), Settings(store=target, **settings), embedder)


@pytest.fixture
def corpus_engine(embedder: CachedEmbedder) -> Iterator[tuple[MemoryEngine, list[Item], list[str]]]:
    """6 planted topics x 30 real sentences for user 'ada', embedded by the real model."""
    eng = make_engine(embedder)
    items = generate(SIX_TOPICS, 30)
    mems = eng.remember_many([{"content": i.content} for i in items], user_id="ada", reconcile=False)
    assert len(mems) == len(items)
    yield eng, items, [m.id for m in mems]
    eng.close()


@pytest.fixture
def dir_engine(embedder: CachedEmbedder, tmp_path: Path) -> Iterator[MemoryEngine]:
    eng = make_engine(embedder, str(tmp_path / "store"))
    yield eng
    eng.close()


def checksum(store: GraphStore) -> str:
    """A hash over everything a job could change: every memory (all fields, embedding), links, tags,
    clusters, members, gaps, job runs and the job lock."""
    h = hashlib.sha256()
    for user in store.users():
        flt = MemoryFilter.everything()
        ids = [m.id for m in store.list_memories(user, flt, limit=10**6)]
        for m in store.get_memories(user, sorted(ids), with_embeddings=True):
            h.update(m.model_dump_json().encode())
        for ln in store.get_links(user):
            h.update(ln.model_dump_json().encode())
        h.update(json.dumps([t.model_dump() for t in store.list_tags(user)], sort_keys=True).encode())
        h.update(json.dumps([c.model_dump(mode="json") for c in store.list_clusters(user)]).encode())
        h.update(json.dumps([m.model_dump() for m in store.cluster_members(user)]).encode())
        h.update(json.dumps([g.model_dump(mode="json") for g in store.list_gaps(user)]).encode())
    h.update(str(len(store.list_jobs(1000))).encode())
    h.update(str(store.get_meta("jobs.lock")).encode())
    return h.hexdigest()


def plant_nan_vector(store: GraphStore, user_id: str, memory: Memory) -> None:
    """Store `memory` with an all-NaN embedding, as an old store or a corrupted file could hold one: the write
    path refuses such a vector now, so it goes straight into SQLite's row."""
    store.write(user_id, WriteBatch(memories=[memory]))
    with store._tx() as conn:  # type: ignore[attr-defined]
        conn.execute(
            "UPDATE memories SET embedding = ? WHERE id = ?",
            (np.full(store.embedding_dim, np.nan, np.float32).tobytes(), memory.id),
        )
