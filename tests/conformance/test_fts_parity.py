"""Full text ranks identically on every store: for a varied query set (stems, accents, CJK, punctuation, query
syntax as plain data), SQLite, FalkorDB and Neo4j return the same ids in the same order with scores equal to
1e-9 — each equals an independent BM25 written here from the definition (memgraph/store/bm25.py's docstring),
on the user's own statistics: other tenants' text, and the filter, never move a user's scores."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable

import pytest

from memgraph.models import Memory, MemoryKind
from memgraph.store import GraphStore, MemoryFilter, WriteBatch
from memgraph.store.base import MemoryUpdate
from memgraph.text import query_terms, terms

from .helpers import mem

K1, B = 1.2, 0.75

ADA = [
    "I support running every morning before work",
    "She supported the runners at the city marathon",
    "Running shoes: supports, laces and insoles",
    "The runner's knee hurts after long runs",
    "Café au lait at the café near the station",
    "cafe without an accent is another word here",
    "Naïve résumé writing tips, naïve no more",
    "北京 is the capital; 北京烤鸭 is its duck",
    "東京で寿司を食べた",
    "서울 travel notes",
    'He typed "quoted" AND OR NOT * ^ : ( ) - + ~ NEAR/3 into the search box',
    "title:secret OR user_id:bob (not a field query)",
    "Don't forget: the meeting's at 10:30 (room 2b) — bring the 2024 report!",
    "marathon marathon marathon training plan",
    "A very long note about training, running, cycling, swimming, stretching, resting and eating well "
    "before the marathon season starts again next spring",
    "tea",
    "",
    "Python's asyncio and pytest fixtures",
    "pytest-asyncio, pydantic; mypy --strict",
    "The quick brown fox jumps over the lazy dog",
]
INACTIVE = ["An old marathon note, forgotten", "Archived café review"]
OTHERS = {
    "bob": ["marathon " * 5 + "running", "café café café", "北京 北京", "support support support"],
    "carol": ["marathon running support café"],
}
QUERIES = [
    "supports",
    "supporting the runners",
    "running marathon",
    "café",
    "cafe",
    "naive resume",
    "naïve résumé",
    "北京",
    "烤鸭 capital",
    "寿司",
    "서울",
    '"quoted" AND NOT',
    "NEAR/3 * ^ ~",
    "title:secret user_id:bob",
    "meeting's 10:30 2024",
    "don't forget the report",
    "pytest asyncio",
    "pytest-asyncio",
    "training plan for the marathon",
    "tea",
    "zebra",
    "the and of",
]


def _reference(docs: list[Memory], query: str, k: int, passes: Callable[[Memory], bool]) -> list[tuple[str, float]]:
    """BM25 from its definition, one memory at a time: N, df and the mean length over all of the user's
    memories (`docs`: every state), the filter applied to the ranking only."""
    words = query_terms(query, 64)
    bags = {m.id: Counter(terms(m.content)) for m in docs}
    lengths = {m.id: sum(bag.values()) for m, bag in zip(docs, bags.values(), strict=True)}
    n = len(docs)
    avgdl = sum(lengths.values()) / n
    out = []
    for m in docs:
        bag = bags[m.id]
        score = 0.0
        for t in words:
            f = bag.get(t, 0)
            if not f:
                continue
            df = sum(1 for b in bags.values() if t in b)
            idf = math.log((n - df + 0.5) / (df + 0.5))
            idf = idf if idf > 0 else 1e-6
            score += idf * f * (K1 + 1) / (f + K1 * (1 - B + B * lengths[m.id] / avgdl))
        if score > 0 and passes(m):
            out.append((m.id, score))
    out.sort(key=lambda h: (-h[1], h[0]))
    return out[:k]


def _write(store: GraphStore) -> list[Memory]:
    mine = [mem("ada", text, minutes=i, kind=MemoryKind.FACT if i % 3 else MemoryKind.PREFERENCE)
            for i, text in enumerate(ADA)]
    old = [mem("ada", text, minutes=100 + i) for i, text in enumerate(INACTIVE)]
    store.write("ada", WriteBatch(memories=mine + old))
    store.update_memories("ada", [MemoryUpdate(id=old[0].id, set={"active": False}),
                                  MemoryUpdate(id=old[1].id, set={"archived": True})])
    for user, texts in OTHERS.items():
        store.write(user, WriteBatch(memories=[mem(user, t, minutes=200 + i) for i, t in enumerate(texts)]))
    return store.list_memories("ada", MemoryFilter.everything(), limit=1000)


def _same(got: list[tuple[str, float]], want: list[tuple[str, float]], what: str) -> None:
    assert [m for m, _ in got] == [m for m, _ in want], f"{what}: the same ids in the same order"
    for (_, g), (_, w) in zip(got, want, strict=True):
        assert g == pytest.approx(w, rel=1e-9, abs=1e-15), what


def test_every_store_ranks_full_text_alike(store: GraphStore) -> None:
    docs = _write(store)
    assert len(docs) == len(ADA) + len(INACTIVE)
    default = MemoryFilter()
    prefs = MemoryFilter(kinds=[MemoryKind.PREFERENCE])
    for query in QUERIES:
        for k in (3, 10):
            got = store.text_search("ada", query, k)
            _same(got, _reference(docs, query, k, lambda m: m.active and not m.archived), f"{query!r} k={k}")
        got = store.text_search("ada", query, 10, flt=prefs)
        want = _reference(docs, query, 10, lambda m: m.kind == MemoryKind.PREFERENCE and m.active and not m.archived)
        _same(got, want, f"{query!r} preferences")
        got = store.text_search("ada", query, 10, flt=MemoryFilter.everything())
        _same(got, _reference(docs, query, 10, lambda m: True), f"{query!r} every state")
    assert store.text_search("ada", "marathon", 10, flt=default)
    assert store.text_search("ada", "zebra", 10) == []


def test_scores_follow_writes_updates_and_deletes(store: GraphStore) -> None:
    """The statistics move with the user's own writes (new memories, changed text, deletions) and with nothing
    else."""
    docs = _write(store)
    target = next(m for m in docs if m.content.startswith("tea"))
    store.update_memories("ada", [MemoryUpdate(id=target.id, set={"content": "marathon tea and more running"})])
    gone = next(m for m in docs if m.content.startswith("marathon marathon"))
    store.delete_memories("ada", [gone.id])
    extra = mem("ada", "Another marathon, another café", minutes=300)
    store.write("ada", WriteBatch(memories=[extra]))
    store.write("bob", WriteBatch(memories=[mem("bob", "marathon marathon café running", minutes=301)]))
    docs = store.list_memories("ada", MemoryFilter.everything(), limit=1000)
    assert gone.id not in {m.id for m in docs} and extra.id in {m.id for m in docs}
    for query in ("marathon", "tea running", "café", "supports", "北京"):
        got = store.text_search("ada", query, 10, flt=MemoryFilter.everything())
        _same(got, _reference(docs, query, 10, lambda m: True), query)


def test_a_graph_of_schema_1_is_migrated_to_stemmed_terms(store: GraphStore) -> None:
    """Cypher graphs written before schema version 2 held unstemmed tokens and no `fts_len`: opening one
    rewrites both (memgraph/store/cypher_migrations.py), and the ranking is then the same as a new graph's.
    (The SQLite store's migration is tested on a file of the first release: tests/test_sqlite_migrations.py.)"""
    from memgraph.store.cypher import CypherStore
    from memgraph.store.cypher_migrations import SCHEMA_VERSION
    from memgraph.text import tokenize

    if not isinstance(store, CypherStore):
        pytest.skip("the SQLite store's migrations: tests/test_sqlite_migrations.py")
    docs = _write(store)
    want = {q: store.text_search("ada", q, 10, flt=MemoryFilter.everything()) for q in QUERIES}
    old = [{"id": m.id, "fts": " ".join(tokenize(m.content))} for m in docs]
    store._x.run(
        "UNWIND $rows AS r MATCH (m:Memory {id: r.id}) SET m.fts = r.fts REMOVE m.fts_len", {"rows": old}, write=True
    )
    store.set_meta("schema_version", "1")
    assert store.text_search("ada", "supports", 10) != want["supports"], "the old terms rank otherwise"
    reopened = CypherStore(store._x, store.dialect, store.settings)
    assert reopened.get_meta("schema_version") == str(SCHEMA_VERSION)
    for query in QUERIES:
        _same(reopened.text_search("ada", query, 10, flt=MemoryFilter.everything()), want[query], query)
    newer = str(SCHEMA_VERSION + 1)
    store.set_meta("schema_version", newer)
    from memgraph.errors import SchemaVersionError

    with pytest.raises(SchemaVersionError, match="newer memgraph"):
        CypherStore(store._x, store.dialect, store.settings)
    store.set_meta("schema_version", str(SCHEMA_VERSION))
