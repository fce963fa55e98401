"""Vector search against exact numpy search, and full-text search — on every store."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph.errors import ValidationError
from memgraph.store import GraphStore, MemoryFilter, WriteBatch
from memgraph.store.base import MemoryUpdate

from .helpers import exact_top_k, mem, unit_vectors

N_VECTORS = 400
N_QUERIES = 30
K = 10
#: Exact stores must find exactly the numpy top-k; an HNSW index (FalkorDB) must find nearly all of them.
MIN_RECALL = {"sqlite": 1.0, "falkordb": 0.95, "neo4j": 0.95}
#: Stores whose full-text score is BM25 (grows with term frequency and matched rare terms): all of them;
#: FalkorDB's own RediSearch score is not (cypher/README.md, "Full text"), so that store ranks hits itself.
BM25_STORES = {"sqlite", "neo4j", "falkordb"}


def _count_reads(store: GraphStore, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the statements a Cypher store's searches run from now on (cypher_search.py), in order."""
    search = store._search  # type: ignore[attr-defined]
    read = search._read
    reads: list[str] = []

    def counted(name: str, **params: object) -> object:
        reads.append(name)
        return read(name, **params)

    monkeypatch.setattr(search, "_read", counted)
    return reads


def _recall_at_k(store: GraphStore, vectors: np.ndarray, ids: list[str], queries: np.ndarray) -> float:
    hits = 0
    for q in queries:
        truth = exact_top_k(vectors, ids, q, K)
        got = store.vector_search("ada", q, K)
        assert len(got) == K
        assert [s for _, s in got] == sorted((s for _, s in got), reverse=True), "best first"
        exact = {mid: s for mid, s in exact_top_k(vectors, ids, q, len(ids))}
        for mid, score in got:
            assert score == pytest.approx(exact[mid], abs=2e-3), "similarity is cosine similarity"
        hits += len({m for m, _ in got} & {m for m, _ in truth})
    return hits / (K * len(queries))


def test_vector_search_matches_exact_search(store: GraphStore) -> None:
    vectors = unit_vectors(N_VECTORS, seed=1)
    mems = [mem("ada", f"vector memory {i}") for i in range(N_VECTORS)]
    for start in range(0, N_VECTORS, 100):
        store.write(
            "ada", WriteBatch(memories=mems[start : start + 100], embeddings=vectors[start : start + 100])
        )
    ids = [m.id for m in mems]
    # Half the queries are stored vectors plus noise (a real neighbourhood), half are random directions.
    queries = np.vstack(
        [
            vectors[: N_QUERIES // 2] + 0.3 * unit_vectors(N_QUERIES // 2, seed=2),
            unit_vectors(N_QUERIES - N_QUERIES // 2, seed=3),
        ]
    )
    recall = _recall_at_k(store, vectors, ids, queries)
    print(f"\n{store.name}: vector recall@{K} over {N_VECTORS} random 384-d vectors = {recall:.3f}")
    assert recall >= MIN_RECALL[store.name]
    # A stored vector finds itself first, with similarity 1.
    top = store.vector_search("ada", vectors[7], 1)
    assert top[0][0] == ids[7] and top[0][1] == pytest.approx(1.0, abs=1e-3)


def test_vector_search_threshold_and_bad_input(store: GraphStore) -> None:
    vectors = unit_vectors(20, seed=5)
    mems = [mem("ada", f"m{i}") for i in range(20)]
    store.write("ada", WriteBatch(memories=mems, embeddings=vectors))
    hits = store.vector_search("ada", vectors[0], 20, min_similarity=0.5)
    assert [h for h, _ in hits] == [mems[0].id]
    assert store.vector_search("ada", vectors[0], 0) == []
    with pytest.raises(ValidationError):
        store.vector_search("ada", vectors[0][:10], 5)
    bad = vectors[0].copy()
    bad[0] = np.inf
    with pytest.raises(ValidationError):
        store.vector_search("ada", bad, 5)


def test_small_user_in_a_big_shared_index(store_factory) -> None:  # type: ignore[no-untyped-def]
    """The Cypher stores' index holds every user's vectors: a user with few memories among many of another
    must still get its k nearest (widening, then exact search); SQLite searches per user anyway."""
    store: GraphStore = store_factory(vector_min_candidates=10, vector_max_candidates=40)
    big = unit_vectors(300, seed=11)
    store.write("bob", WriteBatch(memories=[mem("bob", f"b{i}") for i in range(300)], embeddings=big))
    mine = unit_vectors(6, seed=12)
    ada = [mem("ada", f"a{i}") for i in range(6)]
    store.write("ada", WriteBatch(memories=ada, embeddings=mine))
    q = big[0]  # a query right inside bob's cloud
    got = store.vector_search("ada", q, 4)
    truth = exact_top_k(mine, [m.id for m in ada], q, 4)
    assert [m for m, _ in got] == [m for m, _ in truth]
    for (_, s1), (_, s2) in zip(got, truth, strict=True):
        assert s1 == pytest.approx(s2, abs=2e-3)
    # With a filter that leaves only inactive ones, nothing comes back (and nothing of bob's).
    assert store.vector_search("ada", q, 4, flt=MemoryFilter(active=False)) == []


def test_a_short_answer_holding_all_the_users_vectors_is_not_widened(store_factory, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A user with fewer passing memories than k, in a shared index bigger than one request: when the first
    request already returned every one of them, asking the index again, wider, returns the same rows
    (vector_counts.cypher). A new user's reconciliation searches (the write path, until the user has k
    memories) each asked twice or more; now one request and, once per batch, the counts."""
    store: GraphStore = store_factory(vector_min_candidates=20, vector_overfetch=1)
    if store.name == "sqlite":
        pytest.skip("SQLite searches each user's own vectors")
    theirs = [mem("bob", f"b{i}") for i in range(200)]
    store.write("bob", WriteBatch(memories=theirs, embeddings=unit_vectors(200, seed=31)))
    q0 = unit_vectors(1, seed=32)
    q = np.vstack([q0, q0 + 0.02 * unit_vectors(1, seed=34)])
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    near = q[0] + 0.05 * unit_vectors(3, seed=33)
    near /= np.linalg.norm(near, axis=1, keepdims=True)
    ada = [mem("ada", f"a{i}") for i in range(3)]
    store.write("ada", WriteBatch(memories=ada, embeddings=near))
    truth = [m for m, _ in exact_top_k(near, [m.id for m in ada], q[0], 5)]
    reads = _count_reads(store, monkeypatch)
    assert [m for m, _ in store.vector_search("ada", q[0], 5)] == truth
    assert reads == ["vector_search", "vector_counts"]
    reads.clear()
    many = store.vector_search_many("ada", q, 5)
    assert [m for m, _ in many[0]] == truth and sorted(m for m, _ in many[1]) == sorted(truth)
    assert reads == ["vector_search_many", "vector_counts"]


def test_text_search_finds_words_best_first(store: GraphStore) -> None:
    docs = {
        "tabs": "I prefer tabs over spaces for indentation",
        "tabs2": "tabs tabs tabs everywhere, tabs forever",
        "coffee": "Coffee in the morning, tea in the afternoon",
        "cafe": "Le café est fermé le dimanche",
        "tokyo": "東京 is the capital of Japan",
        "dont": "Don't deploy on Fridays",
    }
    mems = {k: mem("ada", v) for k, v in docs.items()}
    store.write("ada", WriteBatch(memories=list(mems.values())))
    rev = {m.id: k for k, m in mems.items()}

    def search(q: str, k: int = 10) -> list[str]:
        hits = store.text_search("ada", q, k)
        assert all(s > 0 for _, s in hits), "scores are positive"
        assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True), "best first"
        return [rev[h] for h, _ in hits]

    if store.name in BM25_STORES:
        assert search("TABS") == ["tabs2", "tabs"]
        assert search("tabs", k=1) == ["tabs2"]
        assert search("tabs coffee tea")[0] == "coffee"  # more (and rarer) query words matched rank higher
    else:
        assert set(search("TABS")) == {"tabs2", "tabs"}
        assert len(search("tabs", k=1)) == 1
        assert set(search("tabs coffee tea")) == {"tabs", "tabs2", "coffee"}
    assert search("coffee tea") == ["coffee"]
    assert search("café") == ["cafe"]
    assert search("東京") == ["tokyo"]
    assert search("don't deploy") == ["dont"]
    assert search("the and of") == []  # stop words only
    assert search("nothing-matches-this") == []
    for nasty in [
        'tabs" OR "coffee',
        "tabs AND (coffee",
        "*",
        "tabs~2 coffee^3",
        "@content:{x} | -y",
        '\\"',
        "'",
    ]:
        found = set(search(nasty))
        assert found <= {"tabs", "tabs2", "coffee"}, nasty
    assert store.text_search("bob", "tabs", 5) == []


def test_vector_search_many_gives_each_rows_vector_search(store: GraphStore) -> None:
    """The write path reconciles a whole batch through `vector_search_many`: it must answer exactly what one
    `vector_search` per row answers, with a threshold, with a filter that removes most of the best hits (so a
    row runs out of its first window), and for another user's data."""
    n = 600
    vectors = unit_vectors(n, seed=21)
    mems = [mem("ada", f"many {i}", minutes=i) for i in range(n)]
    store.write("ada", WriteBatch(memories=mems, embeddings=vectors))
    store.write("bob", WriteBatch(memories=[mem("bob", "theirs")], embeddings=vectors[:1]))
    # memories 0..549 archived: the active filter leaves only the last 50
    store.write("ada", WriteBatch(updates=[MemoryUpdate(id=m.id, set={"archived": True}) for m in mems[:550]]))
    queries = np.vstack([vectors[:20] + 0.2 * unit_vectors(20, seed=22), unit_vectors(10, seed=23)])
    for k, min_sim, flt in [
        (5, -1.0, None),
        (8, 0.3, None),
        (3, 0.9, MemoryFilter.everything()),
        (40, -1.0, None),  # the filter leaves ~21 of the first 256 candidates: the fallback path
        (300, -1.0, None),  # a window (1200) holding every candidate
        (4, -1.0, MemoryFilter(kinds=[mems[0].kind])),
    ]:
        many = store.vector_search_many("ada", queries, k, min_similarity=min_sim, flt=flt)
        assert len(many) == len(queries)
        for q, got in zip(queries, many, strict=True):
            one = store.vector_search("ada", q, k, min_similarity=min_sim, flt=flt)
            assert [m for m, _ in got] == [m for m, _ in one]
            assert [s for _, s in got] == pytest.approx([s for _, s in one], abs=1e-6)
    assert store.vector_search_many("ada", queries[:0], 5) == []
    assert store.vector_search_many("carol", queries[:2], 5) == [[], []]
    with pytest.raises(ValidationError):
        store.vector_search_many("ada", queries[:, :10], 5)


def test_exact_search_when_widening_is_exhausted(store_factory, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A request as wide as `vector_max_candidates` still short of k falls back to exact search
    (vector_search_exact.cypher), which must find the user's true k nearest."""
    store: GraphStore = store_factory(vector_min_candidates=4, vector_max_candidates=4, vector_overfetch=1)
    if store.name == "sqlite":
        pytest.skip("SQLite searches each user's own vectors")
    big = unit_vectors(300, seed=41)
    store.write("bob", WriteBatch(memories=[mem("bob", f"b{i}") for i in range(300)], embeddings=big))
    mine = unit_vectors(8, seed=42)
    ada = [mem("ada", f"a{i}") for i in range(8)]
    store.write("ada", WriteBatch(memories=ada, embeddings=mine))
    q = big[0]  # bob's own vector: the index's nearest are bob's
    reads = _count_reads(store, monkeypatch)
    got = store.vector_search("ada", q, 4)
    assert "vector_search_exact" in reads
    truth = exact_top_k(mine, [m.id for m in ada], q, 4)
    assert [m for m, _ in got] == [m for m, _ in truth]


def test_separate_text_statistics_and_filter_agree_with_the_store(store: GraphStore) -> None:
    """FalkorDB reads a full-text search's BM25 statistics (text_stats.cypher) and its filter
    (passing_memories.cypher) in statements of their own; Neo4j gets both in text_search's one reply. The
    separate statements must say the same on every Cypher store."""
    if store.name == "sqlite":
        pytest.skip("SQLite keeps its full-text statistics in memory")
    texts = ["tabs over spaces", "tabs in makefiles", "spaces in yaml files", "coffee at noon"]
    mems = [mem("ada", t, active=i != 1) for i, t in enumerate(texts)]
    store.write("ada", WriteBatch(memories=mems))
    stats = store._read("text_stats", user_id="ada")[0]  # type: ignore[attr-defined]
    assert int(stats["n"]) == len(texts)
    assert int(stats["total"]) == sum(len(t.split()) for t in texts)
    ids = [m.id for m in mems]
    fparams = store._filter("ada", MemoryFilter(active=True))  # type: ignore[attr-defined]
    passing = {r["id"] for r in store._read("passing_memories", **fparams, ids=ids)}  # type: ignore[attr-defined]
    assert passing == {m.id for m in mems if m.active}
    assert [m for m, _ in store.text_search("ada", "tabs", 5, flt=MemoryFilter(active=True))] == [mems[0].id]
