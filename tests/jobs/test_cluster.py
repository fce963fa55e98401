"""cluster: planted topics are recovered, ids are stable, noise and tiny users are handled."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import adjusted_rand_score

from memgraph.errors import MissingOwnerError, UnknownUserError
from memgraph.models import Memory
from tests.jobs.conftest import checksum, plant_nan_vector
from tests.jobs.corpus import TOPICS, generate


def _assignment(engine, ids):
    lab = {m.memory_id: m.cluster_id for m in engine.store.cluster_members("ada")}
    return [lab.get(mid, f"noise-{i}") for i, mid in enumerate(ids)], lab


def test_clusters_recover_planted_topics(corpus_engine):
    engine, items, ids = corpus_engine
    report = engine.jobs.cluster("ada", apply=True)
    pred, lab = _assignment(engine, ids)
    truth = [i.topic for i in items]
    ari = adjusted_rand_score(truth, pred)
    print(f"\nclusters={len(report.clusters)} noise={report.noise} ARI={ari:.3f} (noise counted as singletons)")
    assert ari >= 0.8
    assert report.noise <= len(ids) * 0.1
    # every cluster is dominated by one topic, and its label names that topic's words
    for c in engine.store.list_clusters("ada"):
        topics = [t for mid, t in zip(ids, truth, strict=True) if lab.get(mid) == c.id]
        top = max(set(topics), key=topics.count)
        assert topics.count(top) / len(topics) >= 0.9
        words = " ".join(t for tpl in TOPICS[top]["templates"] for t in [tpl]).lower()
        words += " " + " ".join(v.lower() for k, vs in TOPICS[top].items() if k != "templates" for v in vs)
        assert any(term in words for term in c.label.split(", ")), (c.label, top)
        assert c.size == len(topics)
        assert c.centroid is not None and len(c.centroid) == 384
        assert abs(np.linalg.norm(c.centroid) - 1.0) < 1e-4


def test_noise_has_no_edge_and_probabilities_are_unit(corpus_engine):
    engine, _, ids = corpus_engine
    # one sentence about nothing the corpus talks about is noise
    odd = engine.remember("The quarterly tax form for the warehouse lease arrived by post.", user_id="ada")
    report = engine.jobs.cluster("ada", apply=True)
    members = engine.store.cluster_members("ada")
    assert odd.id not in {m.memory_id for m in members}
    assert report.noise >= 1
    assert len(members) == report.clustered
    assert all(0.0 <= m.probability <= 1.0 for m in members)
    assert any(m.probability < 1.0 for m in members) or all(m.probability == 1.0 for m in members)


def test_ids_stable_across_runs_and_an_added_topic(corpus_engine, embedder):
    engine, _, ids = corpus_engine
    first = engine.jobs.cluster("ada", apply=True)
    before = {m.memory_id: m.cluster_id for m in engine.store.cluster_members("ada")}
    # unchanged input: skipped by fingerprint, nothing rewritten
    again = engine.jobs.cluster("ada", apply=True)
    assert again.skipped and "unchanged" in again.skipped
    # forced rerun: same ids, all kept
    forced = engine.jobs.cluster("ada", apply=True, force=True)
    assert {c.id for c in forced.clusters} == {c.id for c in first.clusters}
    assert all(c.status == "kept" for c in forced.clusters)
    # a new topic: old clusters keep their ids, a new one appears
    extra = generate(["music"], 30)
    engine.remember_many([{"content": i.content} for i in extra], user_id="ada", reconcile=False)
    grown = engine.jobs.cluster("ada", apply=True)
    assert not grown.skipped
    after = {m.memory_id: m.cluster_id for m in engine.store.cluster_members("ada")}
    old_ids = {c.id for c in first.clusters}
    kept = [mid for mid in before if mid in after and after[mid] == before[mid]]
    assert len(kept) / len(before) >= 0.9
    new_clusters = [c for c in grown.clusters if c.id not in old_ids]
    assert len(new_clusters) >= 1
    assert any(
        "piano" in c.label
        or "practice" in c.label
        or "instrument" in c.label
        or "cello" in c.label
        or "violin" in c.label
        or "guitar" in c.label
        for c in new_clusters
    )


def test_dry_run_changes_nothing(corpus_engine):
    engine, _, _ = corpus_engine
    before = checksum(engine.store)
    plan = engine.jobs.cluster("ada")
    assert not plan.applied and plan.clusters
    assert all(c.status == "new" for c in plan.clusters)
    assert checksum(engine.store) == before
    assert engine.jobs.history() == []


def test_tiny_user_unknown_user_and_nan(engine):
    engine.remember("just one memory", user_id="solo")
    report = engine.jobs.cluster("solo", apply=True)
    assert report.skipped and "not enough memories" in report.skipped
    with pytest.raises(UnknownUserError):
        engine.jobs.cluster("nobody")
    with pytest.raises(MissingOwnerError):
        engine.jobs.cluster("")
    # NaN embeddings are skipped and reported, never clustered
    bad = Memory(id="m_nan", user_id="solo", content="broken vector")
    plant_nan_vector(engine.store, "solo", bad)
    report = engine.jobs.cluster("solo")
    assert report.invalid_embeddings == ["m_nan"]
