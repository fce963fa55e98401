"""gaps: misses, repeated unanswered topics, tiny clusters, orphan tags, unconnected memories."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from memgraph.errors import UnknownUserError
from memgraph.models import Gap, Tag, utcnow


def test_gaps_report(corpus_engine):
    engine, _, ids = corpus_engine
    engine.jobs.cluster("ada", apply=True)
    q1 = "How do I renew my passport before travelling?"
    q2 = "What is the best coffee grinder for espresso?"
    q3 = "Which vaccine do dogs need every year?"
    vecs = engine.embed([q1, q2, q3])
    past = utcnow() - timedelta(days=5)
    engine.store.upsert_gap(
        Gap(
            id="g1",
            user_id="ada",
            query=q1,
            count=3,
            embedding=vecs[0].tolist(),
            first_seen=past,
            last_seen=past,
        )
    )
    engine.store.upsert_gap(
        Gap(
            id="g2",
            user_id="ada",
            query=q2,
            count=4,
            embedding=vecs[1].tolist(),
            first_seen=past,
            last_seen=past,
        )
    )
    engine.store.upsert_gap(
        Gap(
            id="g3",
            user_id="ada",
            query=q3,
            count=1,
            embedding=vecs[2].tolist(),
            first_seen=past,
            last_seen=past,
        )
    )
    # g2 is answered by a memory written after the miss
    engine.remember("The best coffee grinder for espresso is a flat burr grinder.", user_id="ada")
    engine.store.upsert_tags("ada", [Tag(name="unused-tag", user_id="ada")])
    # no name, place or date in it: the write infers no tag, so nothing connects it
    lonely = engine.remember("zebra crossings need repainting before winter.", user_id="ada")
    report = engine.jobs.gaps("ada")
    assert {g.id for g in report.misses} == {"g1", "g2", "g3"}
    answered = {g.id: g.answered_by for g in report.misses}
    assert answered["g2"] is not None and answered["g1"] is None
    assert [g.id for g in report.repeated_unanswered] == ["g1"]  # count >= 2, nothing stored
    assert report.orphan_tags == ["unused-tag"]
    assert lonely.id in report.unconnected
    clustered = {m.memory_id for m in engine.store.cluster_members("ada")}
    assert all(mid not in clustered for mid in report.unconnected)
    assert report.unconnected_total == len(report.unconnected)
    sizes = {c.id: c.size for c in engine.store.list_clusters("ada")}
    assert {c.id for c in report.tiny_clusters} == {cid for cid, n in sizes.items() if n <= 5}
    json.loads(report.model_dump_json())  # --json works


def test_gaps_unknown_user(engine):
    with pytest.raises(UnknownUserError):
        engine.jobs.gaps("ghost")
