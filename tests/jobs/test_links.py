"""links: discovery between same-topic neighbours, caps, explicit links untouched, ageing, analysis."""

from __future__ import annotations

from datetime import timedelta

import numpy as np

from memgraph.models import Link, LinkSource, Relation, utcnow
from memgraph.store.base import WriteBatch
from tests.jobs.conftest import checksum


def test_discovers_links_between_same_topic_memories(corpus_engine):
    engine, items, ids = corpus_engine
    s = engine.settings
    topic = dict(zip(ids, (i.topic for i in items), strict=True))
    before = checksum(engine.store)
    plan = engine.jobs.links("ada")
    assert plan.created > 0 and checksum(engine.store) == before
    report = engine.jobs.links("ada", apply=True)
    assert report.created == plan.created
    links = [ln for ln in engine.store.get_links("ada") if ln.source is LinkSource.DISCOVERED]
    assert len(links) == report.created
    same = sum(topic[ln.src] == topic[ln.dst] for ln in links)
    print(f"\n{len(links)} discovered links, {same / len(links):.1%} within a planted topic")
    assert same / len(links) >= 0.95
    degree: dict[str, int] = {}
    id_list, matrix = engine.store.embeddings("ada")
    row = {mid: i for i, mid in enumerate(id_list)}
    unit = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
    for ln in links:
        assert ln.src < ln.dst and ln.relation is Relation.RELATES_TO
        assert ln.weight >= s.link_threshold
        assert abs(ln.weight - float(unit[row[ln.src]] @ unit[row[ln.dst]])) < 1e-5  # weight = cosine
        degree[ln.src] = degree.get(ln.src, 0) + 1
        degree[ln.dst] = degree.get(ln.dst, 0) + 1
    assert max(degree.values()) <= s.link_k
    g = report.graph
    assert g.nodes == len(ids) and g.edges == len(links)
    assert g.components >= 1 and g.largest_component <= len(ids) and g.bridges is not None
    # re-running changes nothing but the history
    again = engine.jobs.links("ada", apply=True)
    assert (again.created, again.updated, again.weakened, again.dropped) == (0, 0, 0, 0)
    assert again.confirmed == report.created


def test_explicit_links_untouched_and_stale_links_age(corpus_engine):
    engine, items, ids = corpus_engine
    s = engine.settings
    a, b = ids[0], ids[1]  # same topic, likely near
    far = next(mid for mid, it in zip(ids, items, strict=True) if it.topic != items[0].topic)
    engine.link(a, far, "RelatesTo", user_id="ada", weight=0.33)
    engine.jobs.links("ada", apply=True)
    discovered = [ln for ln in engine.store.get_links("ada") if ln.source is LinkSource.DISCOVERED]
    victim = discovered[0]
    # a co-recall edge recall wrote long ago, never refreshed since
    old = utcnow() - timedelta(days=10)
    engine.store.write(
        "ada",
        WriteBatch(
            links=[
                Link(
                    src=b,
                    dst=far,
                    relation=Relation.RELATES_TO,
                    weight=0.21,
                    source=LinkSource.CO_RECALL,
                    created_at=old,
                    updated_at=old,
                )
            ]
        ),
    )
    # forget one end of a discovered link: it is not re-found any more
    engine.forget(victim.src, user_id="ada")
    soon = engine.jobs.links("ada", apply=True)  # less than link_stale_days later: not weakened yet
    assert soon.weakened == 0 and soon.dropped == 1  # only the old co-recall edge (0.21*0.9 < 0.2) goes
    later = utcnow() + timedelta(days=s.link_stale_days + 0.1)
    aged = engine.jobs.links("ada", apply=True, now=later)
    assert aged.weakened >= 1
    now_links = {(ln.src, ln.dst): ln for ln in engine.store.get_links("ada")}
    w = now_links[(victim.src, victim.dst)].weight
    assert abs(w - victim.weight * s.link_stale_decay) < 1e-9
    assert (b, far) not in now_links
    explicit = now_links[(a, far)]
    assert explicit.source is LinkSource.EXPLICIT and explicit.weight == 0.33
    # immediately again: idempotent
    same = engine.jobs.links("ada", apply=True, now=later)
    assert (same.weakened, same.dropped, same.created) == (0, 0, 0)


def test_bridges_of_a_chain(engine):
    for text in ("alpha one", "beta two", "gamma three"):
        engine.remember(text, user_id="c")
    m = {x.content: x.id for x in engine.list(user_id="c")}
    engine.link(m["alpha one"], m["beta two"], user_id="c")
    engine.link(m["beta two"], m["gamma three"], user_id="c")
    report = engine.jobs.links("c")
    g = report.graph
    assert (g.nodes, g.components, g.bridges, g.articulation_points) == (3, 1, 2, 1)
