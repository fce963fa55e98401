"""consolidate: near-duplicates merged into the strongest (nothing deleted), tags merged, contradictions."""

from __future__ import annotations

from memgraph.jobs.consolidate import singular, tag_key
from memgraph.models import Relation
from memgraph.store.base import MemoryFilter, MemoryUpdate
from tests.jobs.conftest import checksum

DUPES = [
    ("I prefer dark roast coffee in the morning.", "I prefer dark roast coffee in the mornings."),
    (
        "My sister Anna lives in Berlin and works as a nurse.",
        "My sister Anna lives in Berlin, she works as a nurse.",
    ),
    ("We use PostgreSQL 16 for the billing database.", "We use PostgreSQL 16 for our billing database."),
]


def test_merges_near_duplicates_into_the_strongest(engine):
    user = "u"
    kept, merged = [], []
    for a, b in DUPES:
        ma = engine.remember(a, user_id=user, tags=["Notes"], reconcile=False)
        mb = engine.remember(b, user_id=user, tags=["home"], reconcile=False)
        engine.store.update_memories(user, [MemoryUpdate(id=ma.id, inc={"strength": 2})])  # ma is stronger
        kept.append(ma.id)
        merged.append(mb.id)
    other = engine.remember("Jupiter has four large moons visible in binoculars.", user_id=user, reconcile=False)
    engine.link(merged[0], other.id, "RelatesTo", user_id=user, weight=0.7)
    # a summary's evidence points at a memory that will be merged: it must survive
    summary = engine.remember("Summary: coffee habits.", user_id=user, kind="summary", reconcile=False)
    engine.link(summary.id, merged[0], "DerivedFrom", user_id=user)
    # a near-duplicate pair that contradicts itself is never merged
    c1 = engine.remember("Never commit the .env file to git.", user_id=user, reconcile=False)
    c2 = engine.remember("Never commit the .env file to git!", user_id=user, reconcile=False)
    engine.link(c1.id, c2.id, "Contradicts", user_id=user, reason="test")

    before = checksum(engine.store)
    plan = engine.jobs.consolidate(user)
    assert checksum(engine.store) == before
    assert {g.keep for g in plan.groups} == set(kept)
    assert sorted(m.id for g in plan.groups for m in g.merged) == sorted(merged)
    assert all(m.similarity >= engine.settings.consolidate_cosine for g in plan.groups for m in g.merged)
    assert [(c.a, c.b) for c in plan.contradictions] == [(c1.id, c2.id)]

    report = engine.jobs.consolidate(user, apply=True)
    assert report.merged_memories == 3
    everything = {m.id: m for m in engine.store.list_memories(user, MemoryFilter.everything(), limit=100)}
    assert len(everything) == 10  # nothing deleted
    for k, m in zip(kept, merged, strict=True):
        assert not everything[m].active and everything[m].metadata["merged_into"] == k
        assert everything[k].active and everything[k].strength == 3 + 1
        assert "home" in everything[k].tags and "notes" in everything[k].tags
        assert everything[m].tags == []
        derived = engine.store.get_links(user, [k], relations=[Relation.DERIVED_FROM], direction="out")
        assert any(ln.dst == m for ln in derived)
    rel = engine.store.get_links(user, [other.id], relations=[Relation.RELATES_TO])
    assert [(ln.src, ln.dst, ln.weight) for ln in rel] == [(kept[0], other.id, 0.7)]  # moved to the keeper
    evidence = {
        ln.dst for ln in engine.store.get_links(user, [summary.id], relations=[Relation.DERIVED_FROM])
    }
    assert evidence == {merged[0], kept[0]}  # evidence kept, and copied to the keeper
    assert everything[c1.id].active and everything[c2.id].active
    # idempotent
    again = engine.jobs.consolidate(user, apply=True)
    assert again.merged_memories == 0 and again.moved_edges == 0 and again.moved_tags == 0


def test_interrupted_merge_is_finished(engine):
    a = engine.remember(DUPES[0][0], user_id="u", reconcile=False)
    b = engine.remember(DUPES[0][1], user_id="u", tags=["left-behind"], reconcile=False)
    x = engine.remember("Jupiter has four large moons.", user_id="u", reconcile=False)
    engine.link(b.id, x.id, user_id="u")
    # a crashed run got as far as deactivating b
    engine.store.update_memories(
        "u", [MemoryUpdate(id=b.id, set={"active": False, "metadata": {"merged_into": a.id}})]
    )
    report = engine.jobs.consolidate("u", apply=True)
    assert report.resumed == 1
    assert engine.get(a.id, user_id="u").tags == ["left-behind"]
    assert [(ln.src, ln.dst) for ln in engine.store.get_links("u", [x.id])] == [(a.id, x.id)]


def test_tag_merge():
    assert singular("libraries") == "library" and singular("boxes") == "box" and singular("tests") == "test"
    assert singular("class") == "class" and singular("status") == "status"
    assert tag_key("Unit-Tests") == tag_key("unit test") == tag_key("unit_tests")
    assert tag_key("c++") != tag_key("c#") != tag_key("c")


def test_duplicate_tags_merged(engine):
    m1 = engine.remember("pytest fixtures are scoped per session", user_id="u", tags=["unit-tests"], reconcile=False)
    m2 = engine.remember("mock the clock in time tests", user_id="u", tags=["unit test", "python"], reconcile=False)
    m3 = engine.remember("parametrize over stores", user_id="u", tags=["Unit_Tests", "python"], reconcile=False)
    plan = engine.jobs.consolidate("u")
    assert len(plan.tag_merges) == 1
    merge = plan.tag_merges[0]
    assert merge.canonical in {"unit-tests", "unit test", "unit_tests"} and len(merge.variants) == 2
    engine.jobs.consolidate("u", apply=True)
    names = {t.name: t.count for t in engine.tags(user_id="u")}
    assert names == {merge.canonical: 3, "python": 2}
    for m in (m1, m2, m3):
        assert merge.canonical in engine.get(m.id, user_id="u").tags
