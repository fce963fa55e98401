"""Data outlives close(): reopen the same target and find everything — on every persistent store."""

from __future__ import annotations

import numpy as np

from memgraph.config import Settings
from memgraph.models import Cluster, Gap, HasTag, InCluster, Link, Relation
from memgraph.store import JobRun, MemoryFilter, WriteBatch, open_store

from .helpers import NASTY, T0, mem, unit_vectors


def test_data_persists_after_close_and_reopen(reopen_target: str) -> None:
    settings = Settings()
    ms = [
        mem("ada", f"persisted {i} {NASTY[i % len(NASTY)]}", minutes=i, tags=[f"t{i % 3}"]) for i in range(50)
    ]
    vecs = unit_vectors(50, seed=21)
    store = open_store(reopen_target, settings)
    try:
        store.write(
            "ada",
            WriteBatch(
                memories=ms,
                embeddings=vecs,
                links=[
                    Link(src=ms[i].id, dst=ms[i + 1].id, relation=Relation.RELATES_TO, weight=0.5)
                    for i in range(0, 48, 2)
                ],
            ),
        )
        store.add_tags("ada", [HasTag(memory_id=ms[0].id, tag="extra")])
        store.replace_clusters(
            "ada",
            [Cluster(id="c", user_id="ada", size=1, label="c")],
            [InCluster(memory_id=ms[1].id, cluster_id="c")],
        )
        store.upsert_gap(Gap(id="g", user_id="ada", query="q", first_seen=T0, last_seen=T0))
        store.record_job(JobRun(id="j", job="decay", started_at=T0))
        store.set_meta("embedding_model", "all-MiniLM-L6-v2")
        before = {
            "stats": store.stats(),
            "memories": [
                m.model_dump() for m in store.list_memories("ada", MemoryFilter.everything(), limit=100)
            ],
            "links": store.get_links("ada"),
            "tags": store.list_tags("ada"),
            "vector": store.vector_search("ada", vecs[3], 10),
            "text": store.text_search("ada", "persisted", 5),
            "expand": store.expand(
                "ada", [ms[0].id], max_depth=2, fanout_cap=5, weights=settings.relation_weights()
            ),
        }
    finally:
        store.close()
    store = open_store(reopen_target, settings)
    try:
        assert store.stats() == before["stats"]
        after = [m.model_dump() for m in store.list_memories("ada", MemoryFilter.everything(), limit=100)]
        assert after == before["memories"]
        assert store.get_links("ada") == before["links"]
        assert store.list_tags("ada") == before["tags"]
        assert [h for h, _ in store.vector_search("ada", vecs[3], 10)] == [h for h, _ in before["vector"]]
        assert np.allclose(
            [s for _, s in store.vector_search("ada", vecs[3], 10)],
            [s for _, s in before["vector"]],
            atol=1e-5,
        )
        assert store.text_search("ada", "persisted", 5) == before["text"]
        assert (
            store.expand("ada", [ms[0].id], max_depth=2, fanout_cap=5, weights=settings.relation_weights())
            == before["expand"]
        )
        assert [c.id for c in store.list_clusters("ada")] == ["c"]
        assert [g.id for g in store.list_gaps("ada")] == ["g"] and [j.id for j in store.list_jobs()] == ["j"]
        assert store.get_meta("embedding_model") == "all-MiniLM-L6-v2"
        got = store.get_memories("ada", [ms[5].id], with_embeddings=True)[0]
        assert np.allclose(got.embedding, vecs[5], atol=1e-6)
    finally:
        store.close()
