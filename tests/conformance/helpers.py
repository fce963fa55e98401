"""Builders shared by the conformance tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from memgraph.models import Memory, memory_id_for
from memgraph.store.base import WriteBatch

DIM = 384
T0 = datetime(2024, 1, 1, tzinfo=UTC)

#: Text a careless store would execute: Cypher fragments, quotes, backticks, FTS/Lucene/RediSearch syntax.
NASTY = [
    '"}) DETACH DELETE n //',
    "'}) MATCH (n) DETACH DELETE n RETURN 1 //",
    "`Memory` ` ; DROP INDEX memory_fts",
    "back\\slash \\\" and \\' escapes",
    "$user_id {user_id: 'someone-else'}",
    "line one\nline two\ttab",
    'title:"x" AND (y OR z)* ~2 ^3 | @tag:{a} -not',
    "unicode: café 東京 🧠",
]


def unit_vectors(n: int, seed: int = 0, dim: int = DIM) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, dim)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def mem(user: str, content: str, *, minutes: int = 0, **fields: Any) -> Memory:
    """A memory with a content-hash id and a deterministic created_at (T0 + minutes)."""
    ts = T0 + timedelta(minutes=minutes)
    fields.setdefault("created_at", ts)
    fields.setdefault("updated_at", ts)
    fields.setdefault("last_accessed", ts)
    return Memory(id=memory_id_for(user, content), user_id=user, content=content, **fields)


def turns(user: str, texts: list[str]) -> list[Memory]:
    """One memory per text, a minute apart (a conversation's turns in order)."""
    return [mem(user, t, minutes=i) for i, t in enumerate(texts)]


def write_turns(store: Any, embedder: Any, texts: list[str], query: str) -> tuple[list[str], np.ndarray, np.ndarray]:
    """`turns` of user "u" written with their real vectors: (ids, vectors, the query's vector)."""
    mems = turns("u", texts)
    vectors = embedder.encode(texts)
    store.write("u", WriteBatch(memories=mems, embeddings=vectors))
    return [m.id for m in mems], vectors, embedder.encode([query])[0]


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def exact_top_k(matrix: np.ndarray, ids: list[str], query: np.ndarray, k: int) -> list[tuple[str, float]]:
    sims = matrix @ (query / np.linalg.norm(query))
    order = np.argsort(-sims, kind="stable")[:k]
    return [(ids[i], float(sims[i])) for i in order]
