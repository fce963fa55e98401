"""Graph expansion (the cascade's breadth-first hops) — on every store, and identical across stores."""

from __future__ import annotations

from pathlib import Path

import pytest

from memgraph.config import Settings
from memgraph.models import Cluster, HasTag, InCluster, Link, LinkSource, Relation
from memgraph.store import GraphStore, MemoryFilter, WriteBatch
from memgraph.store.sqlite import SQLiteStore

from .helpers import mem

WEIGHTS = Settings().relation_weights()


def _by_memory(expansions: list, seed: str) -> dict:  # type: ignore[type-arg]
    return {e.memory_id: e for e in expansions if e.seed_id == seed}


def test_two_hops_through_a_tag(store: GraphStore) -> None:
    a, b, c = mem("ada", "a", tags=["x"]), mem("ada", "b", tags=["x"]), mem("ada", "c")
    store.write("ada", WriteBatch(memories=[a, b, c]))
    got = _by_memory(store.expand("ada", [a.id], max_depth=2, fanout_cap=10, weights=WEIGHTS), a.id)
    assert set(got) == {b.id}
    assert got[b.id].depth == 2
    assert [(s.relation, s.via, s.weight, s.degree) for s in got[b.id].path] == [
        ("HasTag", "tag:x", WEIGHTS["HasTag"], 2),  # degree: how many memories carry the tag
        ("HasTag", b.id, WEIGHTS["HasTag"], None),
    ]
    assert store.expand("ada", [a.id], max_depth=1, fanout_cap=10, weights=WEIGHTS) == []


def test_links_are_undirected_and_carry_weights(store: GraphStore) -> None:
    a, b, c, d = (mem("ada", x) for x in "abcd")
    store.write(
        "ada",
        WriteBatch(
            memories=[a, b, c, d],
            links=[
                Link(src=b.id, dst=a.id, relation=Relation.RELATES_TO, weight=0.42),
                Link(src=a.id, dst=c.id, relation=Relation.SUPERSEDES),
                Link(src=c.id, dst=d.id, relation=Relation.DERIVED_FROM),
            ],
        ),
    )
    got = _by_memory(store.expand("ada", [a.id], max_depth=2, fanout_cap=10, weights=WEIGHTS), a.id)
    assert set(got) == {b.id, c.id, d.id}
    assert [(s.relation, s.weight) for s in got[b.id].path] == [("RelatesTo", pytest.approx(0.42))]
    assert [(s.relation, s.weight) for s in got[c.id].path] == [("Supersedes", WEIGHTS["Supersedes"])]
    assert [(s.relation, s.via) for s in got[d.id].path] == [("Supersedes", c.id), ("DerivedFrom", d.id)]
    assert got[d.id].depth == 2


def test_discovered_links_weigh_a_fraction_and_come_last(store: GraphStore) -> None:
    """The store scales a discovered (similarity) link inside its neighbour query, so the fan-out cap keeps the
    explicit link even though the similarity link is stored heavier."""
    a, b, c = (mem("ada", x) for x in "abc")
    store.write(
        "ada",
        WriteBatch(
            memories=[a, b, c],
            links=[
                Link(src=a.id, dst=b.id, relation=Relation.RELATES_TO, weight=0.5),
                Link(src=a.id, dst=c.id, relation=Relation.RELATES_TO, weight=0.9, source=LinkSource.DISCOVERED),
            ],
        ),
    )
    got = _by_memory(store.expand("ada", [a.id], max_depth=1, fanout_cap=10, weights=WEIGHTS), a.id)
    factor = WEIGHTS["RelatesTo:discovered"]
    assert factor < 1.0
    assert [s.weight for s in got[c.id].path] == [pytest.approx(0.9 * factor)]
    assert [s.weight for s in got[b.id].path] == [pytest.approx(0.5)]
    capped = _by_memory(store.expand("ada", [a.id], max_depth=1, fanout_cap=1, weights=WEIGHTS), a.id)
    assert set(capped) == {b.id}
    unscaled = {k: v for k, v in WEIGHTS.items() if k != "RelatesTo:discovered"}
    raw = _by_memory(store.expand("ada", [a.id], max_depth=1, fanout_cap=10, weights=unscaled), a.id)
    assert [s.weight for s in raw[c.id].path] == [pytest.approx(0.9)]


def test_shortest_path_wins(store: GraphStore) -> None:
    a, b, c = mem("ada", "a", tags=["t"]), mem("ada", "b"), mem("ada", "c", tags=["t"])
    store.write(
        "ada",
        WriteBatch(
            memories=[a, b, c],
            links=[
                Link(src=a.id, dst=b.id, relation=Relation.RELATES_TO),
                Link(src=b.id, dst=c.id, relation=Relation.RELATES_TO),
                Link(src=c.id, dst=a.id, relation=Relation.CONTRADICTS),
            ],
        ),
    )
    got = _by_memory(store.expand("ada", [a.id], max_depth=2, fanout_cap=10, weights=WEIGHTS), a.id)
    assert got[c.id].depth == 1 and got[c.id].path[0].relation == "Contradicts"
    assert got[b.id].depth == 1


def test_hub_tag_fanout_is_capped_by_importance(store: GraphStore) -> None:
    seed = mem("ada", "seed", tags=["hub"], importance=0.01)
    members = [mem("ada", f"member {i}", tags=["hub"], importance=round(0.02 + i * 0.03, 2)) for i in range(30)]
    store.write("ada", WriteBatch(memories=[seed, *members]))
    got = store.expand("ada", [seed.id], max_depth=2, fanout_cap=5, weights=WEIGHTS)
    top5 = {m.id for m in sorted(members, key=lambda m: -m.importance)[:5]}
    assert {e.memory_id for e in got} == top5
    assert all(e.depth == 2 for e in got)


def test_rarest_tag_is_followed_first(store: GraphStore) -> None:
    """With room for one tag, the walk goes through the rarer one: it says more about the seed."""
    seed = mem("ada", "seed", tags=["common", "rare"], importance=0.1)
    twin = mem("ada", "twin", tags=["rare"], importance=0.8)
    crowd = [mem("ada", f"crowd {i}", tags=["common"], importance=0.95) for i in range(4)]
    store.write("ada", WriteBatch(memories=[seed, twin, *crowd]))
    got = store.expand("ada", [seed.id], max_depth=2, fanout_cap=1, weights=WEIGHTS)
    assert [(e.memory_id, [(s.via, s.degree) for s in e.path]) for e in got] == [
        (twin.id, [("tag:rare", 2), (twin.id, None)])
    ]


def test_unknown_relation_weight_falls_back_to_other(store: GraphStore) -> None:
    a, b = mem("ada", "a"), mem("ada", "b")
    store.write("ada", WriteBatch(memories=[a, b], links=[Link(src=a.id, dst=b.id, relation=Relation.SUPERSEDES)]))
    weights = {k: v for k, v in WEIGHTS.items() if k != "Supersedes"} | {"other": 0.11}
    got = store.expand("ada", [a.id], max_depth=1, fanout_cap=5, weights=weights)
    assert [(e.memory_id, e.path[0].weight) for e in got] == [(b.id, 0.11)]


def test_fanout_cap_applies_to_links_too(store: GraphStore) -> None:
    seed = mem("ada", "seed")
    others = [mem("ada", f"o{i}") for i in range(12)]
    links = [
        Link(src=seed.id, dst=o.id, relation=Relation.RELATES_TO, weight=round(0.05 + 0.07 * i, 2))
        for i, o in enumerate(others)
    ]
    store.write("ada", WriteBatch(memories=[seed, *others], links=links))
    got = store.expand("ada", [seed.id], max_depth=1, fanout_cap=3, weights=WEIGHTS)
    assert {e.memory_id for e in got} == {o.id for o in others[-3:]}


def test_filters_and_seeds(store: GraphStore) -> None:
    a = mem("ada", "a", tags=["t"])
    gone = mem("ada", "gone", tags=["t"], active=False)
    old = mem("ada", "old", tags=["t"], archived=True)
    other_seed = mem("ada", "other seed", tags=["t"])
    store.write("ada", WriteBatch(memories=[a, gone, old, other_seed]))
    got = store.expand("ada", [a.id, other_seed.id, a.id], max_depth=2, fanout_cap=10, weights=WEIGHTS)
    # a seed never expands to itself, but one seed reaches another; inactive and archived ones are not reached
    assert sorted((e.seed_id, e.memory_id) for e in got) == sorted([(a.id, other_seed.id), (other_seed.id, a.id)])
    everything = store.expand("ada", [a.id], max_depth=2, fanout_cap=10, weights=WEIGHTS, flt=MemoryFilter.everything())
    assert {e.memory_id for e in everything} == {gone.id, old.id, other_seed.id}
    assert store.expand("ada", ["missing"], max_depth=2, fanout_cap=10, weights=WEIGHTS) == []
    assert store.expand("ada", [], max_depth=2, fanout_cap=10, weights=WEIGHTS) == []


def test_cluster_hops(store: GraphStore) -> None:
    a, b, c = mem("ada", "a"), mem("ada", "b"), mem("ada", "c")
    store.write("ada", WriteBatch(memories=[a, b, c]))
    store.replace_clusters(
        "ada",
        [Cluster(id="c1", user_id="ada", size=2, label="ab")],
        [
            InCluster(memory_id=a.id, cluster_id="c1", probability=0.9),
            InCluster(memory_id=b.id, cluster_id="c1", probability=0.7),
        ],
    )
    got = _by_memory(store.expand("ada", [a.id], max_depth=2, fanout_cap=10, weights=WEIGHTS), a.id)
    assert set(got) == {b.id}
    assert [(s.relation, s.via) for s in got[b.id].path] == [("InCluster", "cluster:c1"), ("InCluster", b.id)]
    assert all(s.weight == WEIGHTS["InCluster"] for s in got[b.id].path)


def _graph(store: GraphStore) -> list[str]:
    """A small but busy graph: 60 memories, 8 tags (two hubs), links of every type, one cluster."""
    mems = []
    for i in range(60):
        tags = [f"tag{i % 8}"] + (["hub"] if i % 3 == 0 else []) + (["hub2"] if i % 5 == 0 else [])
        mems.append(
            mem(
                "ada",
                f"memory {i}",
                minutes=i,
                tags=tags,
                importance=round((i * 37 % 100) / 100, 2),
                active=i % 17 != 0,
            )
        )
    ids = [m.id for m in mems]
    rels = [Relation.RELATES_TO, Relation.SUPERSEDES, Relation.CONTRADICTS, Relation.DERIVED_FROM]
    links = [
        Link(src=ids[i], dst=ids[(i * 7 + 3) % 60], relation=rels[i % 4], weight=round(((i * 13) % 10) / 10, 1))
        for i in range(60)
        if i != (i * 7 + 3) % 60
    ]
    store.write("ada", WriteBatch(memories=mems, links=links))
    store.replace_clusters(
        "ada",
        [Cluster(id="k1", user_id="ada", size=10, label="k1")],
        [InCluster(memory_id=ids[i], cluster_id="k1", probability=0.5 + i / 200) for i in range(0, 60, 6)],
    )
    store.add_tags("ada", [HasTag(memory_id=ids[1], tag="hub")])
    return ids


def test_same_expansions_as_sqlite(store: GraphStore, tmp_path: Path) -> None:
    """Every store returns exactly what the SQLite reference returns: members, depths and paths."""
    reference = SQLiteStore(tmp_path / "reference")
    try:
        ids = _graph(store)
        assert _graph(reference) == ids
        seeds = [ids[0], ids[5], ids[33]]
        for cap, depth, flt in (
            (4, 2, None),
            (50, 2, None),
            (2, 3, None),
            (3, 2, MemoryFilter(min_importance=0.5)),
            (6, 2, MemoryFilter.everything()),
        ):
            want = reference.expand("ada", seeds, max_depth=depth, fanout_cap=cap, weights=WEIGHTS, flt=flt)
            got = store.expand("ada", seeds, max_depth=depth, fanout_cap=cap, weights=WEIGHTS, flt=flt)
            assert len(want) > 5
            key = lambda e: (e.seed_id, e.memory_id)  # noqa: E731
            assert sorted((e.model_dump() for e in got), key=lambda d: (d["seed_id"], d["memory_id"])) == sorted(
                (e.model_dump() for e in want), key=lambda d: (d["seed_id"], d["memory_id"])
            ), (
                cap,
                flt,
            )
            assert sorted(map(key, got)) == sorted(map(key, want))
    finally:
        reference.close()
