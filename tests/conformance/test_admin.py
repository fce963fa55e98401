"""Clusters, gaps, job runs, stats and read-only Cypher — on every store."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memgraph.errors import ReadOnlyQueryError, UnsupportedOperationError, ValidationError
from memgraph.models import Cluster, Gap, InCluster, Link, MemoryKind, Relation
from memgraph.store import GraphStore, JobRun, WriteBatch

from .helpers import NASTY, T0, mem, unit_vectors


def test_replace_clusters_replaces_atomically(store: GraphStore) -> None:
    ms = [mem("ada", f"m{i}") for i in range(4)]
    store.write("ada", WriteBatch(memories=ms))
    store.write("bob", WriteBatch(memories=[mem("bob", "b")]))
    centroid = unit_vectors(1)[0].tolist()
    store.replace_clusters(
        "ada",
        [
            Cluster(id="c1", user_id="ada", size=2, label="first", centroid=centroid, updated_at=T0),
            Cluster(id="c2", user_id="ada", size=1, label=NASTY[0], updated_at=T0),
        ],
        [
            InCluster(memory_id=ms[0].id, cluster_id="c1", probability=0.9),
            InCluster(memory_id=ms[1].id, cluster_id="c1", probability=0.6),
            InCluster(memory_id=ms[2].id, cluster_id="c2"),
            InCluster(memory_id="missing", cluster_id="c2"),
        ],
    )
    clusters = store.list_clusters("ada")
    assert [(c.id, c.size, c.label) for c in clusters] == [("c1", 2, "first"), ("c2", 1, NASTY[0])]
    assert clusters[0].centroid == pytest.approx(centroid, abs=1e-6) and clusters[1].centroid is None
    assert clusters[0].updated_at == T0
    members = {(m.memory_id, m.cluster_id): m.probability for m in store.cluster_members("ada")}
    assert members == {
        (ms[0].id, "c1"): pytest.approx(0.9),
        (ms[1].id, "c1"): pytest.approx(0.6),
        (ms[2].id, "c2"): pytest.approx(1.0),
    }
    assert store.stats("ada").clusters == 2 and store.stats("ada").edges["InCluster"] == 3
    store.replace_clusters(
        "ada",
        [Cluster(id="c3", user_id="ada", size=1, label="new")],
        [InCluster(memory_id=ms[3].id, cluster_id="c3", probability=0.5)],
    )
    assert [c.id for c in store.list_clusters("ada")] == ["c3"]
    assert [(m.memory_id, m.cluster_id) for m in store.cluster_members("ada")] == [(ms[3].id, "c3")]
    assert store.list_clusters("bob") == [] and store.cluster_members("bob") == []
    store.replace_clusters("ada", [], [])
    assert store.list_clusters("ada") == [] and "InCluster" not in store.stats("ada").edges
    assert store.count_memories("ada") == 4


def test_gaps_upsert_and_order(store: GraphStore) -> None:
    emb = unit_vectors(1)[0].tolist()
    store.upsert_gap(
        Gap(
            id="g1",
            user_id="ada",
            query="how do I deploy",
            count=1,
            first_seen=T0,
            last_seen=T0,
            embedding=emb,
        )
    )
    store.upsert_gap(Gap(id="g2", user_id="ada", query=NASTY[1], count=3, first_seen=T0, last_seen=T0))
    store.upsert_gap(Gap(id="g3", user_id="bob", query="bob's", count=9))
    later = T0 + timedelta(hours=5)
    store.upsert_gap(
        Gap(id="g1", user_id="ada", query="how do I deploy?", count=5, first_seen=later, last_seen=later)
    )
    gaps = store.list_gaps("ada")
    assert [(g.id, g.count) for g in gaps] == [("g1", 5), ("g2", 3)]
    assert gaps[0].query == "how do I deploy?" and gaps[0].first_seen == T0 and gaps[0].last_seen == later
    assert gaps[0].embedding == pytest.approx(emb, abs=1e-6) and gaps[1].embedding is None
    assert gaps[1].query == NASTY[1]
    assert store.stats("ada").gaps == 2 and store.stats().gaps == 3


def test_job_runs(store: GraphStore) -> None:
    for i in range(4):
        store.record_job(
            JobRun(
                id=f"j{i}",
                job="decay",
                user_id="ada" if i % 2 else None,
                started_at=T0 + timedelta(minutes=i),
                finished_at=T0 + timedelta(minutes=i, seconds=5),
                applied=i != 2,
                counts={"archived": i, "note": NASTY[0]},
            )
        )
    store.record_job(JobRun(id="j0", job="cluster", started_at=T0, counts={"n": 1}))  # same id: overwritten
    jobs = store.list_jobs()
    assert [j.id for j in jobs] == ["j3", "j2", "j1", "j0"]
    assert jobs[0].counts == {"archived": 3, "note": NASTY[0]} and jobs[0].user_id == "ada"
    assert jobs[1].applied is False and jobs[3].job == "cluster" and jobs[3].finished_at is None
    assert jobs[2].finished_at == T0 + timedelta(minutes=1, seconds=5)
    assert [j.id for j in store.list_jobs(limit=2)] == ["j3", "j2"]


def test_stats_and_users(store: GraphStore) -> None:
    a = [
        mem("ada", "a0", tags=["x", "y"]),
        mem("ada", "a1", kind=MemoryKind.EVENT, active=False),
        mem("ada", "a2", archived=True, tags=["x"]),
    ]
    store.write(
        "ada",
        WriteBatch(
            memories=a,
            embeddings=unit_vectors(3),
            links=[Link(src=a[0].id, dst=a[1].id, relation=Relation.CONTRADICTS)],
        ),
    )
    store.write("bob", WriteBatch(memories=[mem("bob", "b0", tags=["x"])]))
    st = store.stats("ada")
    assert (st.memories, st.active, st.archived, st.tags, st.users) == (3, 2, 1, 2, 1)
    assert st.by_kind == {"fact": 2, "event": 1}
    assert st.edges == {"HasTag": 3, "Contradicts": 1}
    whole = store.stats()
    assert (whole.user_id, whole.memories, whole.tags, whole.users) == (None, 4, 3, 2)
    assert whole.edges == {"HasTag": 4, "Contradicts": 1}
    assert store.users() == ["ada", "bob"]
    empty = store.stats("carol")
    assert (empty.memories, empty.tags, empty.edges, empty.users) == (0, 0, {}, 0)


def test_read_only_cypher(store: GraphStore) -> None:
    ms = [mem("ada", f"m{i}", tags=["t"]) for i in range(3)]
    store.write("ada", WriteBatch(memories=ms))
    if store.name == "sqlite":
        with pytest.raises(UnsupportedOperationError, match="Neo4j"):
            store.query("MATCH (m:Memory) RETURN m")
        return
    rows = store.query(
        "MATCH (m:Memory {user_id: $u})-[:HasTag]->(t:Tag) RETURN m.content AS content, t.name AS tag "
        "ORDER BY content",
        {"u": "ada"},
    )
    assert rows == [{"content": f"m{i}", "tag": "t"} for i in range(3)]
    nodes = store.query("MATCH (m:Memory) WHERE m.content = $c RETURN m", {"c": "m1"})
    assert nodes[0]["m"]["content"] == "m1" and "Memory" in nodes[0]["m"]["_labels"]
    # Words inside strings and comments are data, not writes.
    assert store.query("RETURN 'DETACH DELETE n' AS s // CREATE (x)") == [{"s": "DETACH DELETE n"}]
    for bad in [
        "MATCH (n) DETACH DELETE n",
        "CREATE (:Memory {id: 'x'})",
        "MATCH (m:Memory) SET m.active = false",
        "MERGE (x:Tag {name: 'y'})",
        "MATCH (m) REMOVE m.content",
        "DROP INDEX memory_fts",
        "CALL db.idx.fulltext.createNodeIndex('X', 'y')",
        "match (n) detach\ndelete n",
    ]:
        with pytest.raises(ReadOnlyQueryError):
            store.query(bad)
    with pytest.raises(ValidationError):
        store.query("MATCH (n RETURN n")
    with pytest.raises(ValidationError):
        store.query("   ")
    assert store.count_memories("ada") == 3 and store.stats("ada").edges == {"HasTag": 3}
