"""One definition of the cascade on every store: on random graphs (hub tags, tied importances and weights,
filters, discovered links, supersede chains, clusters), each store's `expand` (SQLite: the walk over the
in-memory graph arrays; FalkorDB and Neo4j: Cypher per hop) returns exactly what the definition in
`GraphStore.expand` gives, computed here from the written data alone (`_reference`), before and after updates
that the stores must catch up with (importance changes, deletes, tag removals, new links).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from memgraph.config import Settings
from memgraph.models import Cluster, HasTag, InCluster, Link, LinkSource, Memory, MemoryKind, Relation
from memgraph.retrieve.cascade import cascade
from memgraph.retrieve.seeds import Seed
from memgraph.retrieve.spread import spread
from memgraph.store import GraphStore, MemoryFilter, MemoryUpdate, WriteBatch
from memgraph.store.traverse import Degrees, Neighbours, NodeKey, breadth_first

from .helpers import T0, mem

WEIGHTS = Settings().relation_weights()
MEMORY_RELS = [Relation.RELATES_TO, Relation.SUPERSEDES, Relation.CONTRADICTS, Relation.DERIVED_FROM]


class Graph:
    """What was written, as plain Python: the reference walks this."""

    def __init__(self) -> None:
        self.mems: dict[str, Memory] = {}
        self.tags: dict[str, set[str]] = {}
        self.clusters: dict[str, dict[str, float]] = {}
        self.links: dict[tuple[str, str, str], tuple[float, str]] = {}

    def passes(self, m: Memory, flt: MemoryFilter) -> bool:
        if flt.active is not None and m.active != flt.active:
            return False
        if not flt.include_archived and m.archived:
            return False
        if not flt.include_compressed and m.compressed:
            return False
        if flt.kinds and m.kind not in flt.kinds:
            return False
        if flt.pinned is not None and m.pinned != flt.pinned:
            return False
        if flt.session_id is not None and m.session_id != flt.session_id:
            return False
        if flt.min_importance is not None and not (m.importance >= flt.min_importance or m.pinned):
            return False
        return flt.tag is None or flt.tag in self.tags.get(m.id, set())

    def neighbours(self, cap: int, flt: MemoryFilter, discovered: float) -> Callable[..., tuple[Neighbours, Degrees]]:
        degree: Degrees = {}
        for names in self.tags.values():
            for t in names:
                degree[("t", t)] = degree.get(("t", t), 0) + 1
        for cl in self.clusters.values():
            for c in cl:
                degree[("c", c)] = degree.get(("c", c), 0) + 1
        ok = {mid for mid, m in self.mems.items() if self.passes(m, flt)}

        def member_key(mid: str) -> tuple[float, float, str]:
            m = self.mems[mid]
            return (-m.importance, -m.last_accessed.timestamp(), mid)

        def hop(nodes: set[NodeKey], to_groups: bool) -> tuple[Neighbours, Degrees]:
            out: Neighbours = {}
            for kind, name in nodes:
                lst: list[tuple[str, NodeKey, float]] = []
                if kind == "m":
                    if to_groups:
                        groups: list[tuple[NodeKey, float, str]] = [
                            (("t", t), 1.0, "HasTag") for t in self.tags.get(name, ())
                        ] + [(("c", c), p, "InCluster") for c, p in self.clusters.get(name, {}).items()]
                        groups.sort(key=lambda g: (degree[g[0]], -g[1], g[0][1]))
                        lst += [(rel, g, w) for g, w, rel in groups[:cap]]
                    linked: list[tuple[str, str, float]] = []
                    for (src, dst, rel), (w, source) in self.links.items():
                        scale = discovered if rel == "RelatesTo" and source == "discovered" else 1.0
                        if src == name and dst in ok:
                            linked.append((rel, dst, w * scale))
                        if dst == name and src in ok:
                            linked.append((rel, src, w * scale))
                    linked.sort(key=lambda x: (-x[2], -self.mems[x[1]].importance, x[1], x[0]))
                    lst += [(rel, ("m", o), w) for rel, o, w in linked[:cap]]
                else:
                    rel = "HasTag" if kind == "t" else "InCluster"
                    members = [
                        mid
                        for mid in ok
                        if (name in self.tags.get(mid, ()) if kind == "t" else name in self.clusters.get(mid, {}))
                    ]
                    lst += [(rel, ("m", mid), 1.0) for mid in sorted(members, key=member_key)[:cap]]
                if lst:
                    out[(kind, name)] = lst
            return out, degree

        return hop


def _reference(g: Graph, seeds: list[str], depth: int, cap: int, flt: MemoryFilter) -> list[Any]:
    if cap <= 0:
        return []
    seeds = [s for s in seeds if s in g.mems]
    hop = g.neighbours(cap, flt, WEIGHTS["RelatesTo:discovered"])
    return breadth_first(seeds, max_depth=depth, weights=WEIGHTS, neighbours=hop)


def _build(store: GraphStore, seed: int, n: int, id_prefix: str | None = None) -> Graph:
    """A random graph: hub tags (one on most memories, speaker tags on half), small topic and session
    tags, importances and weights rounded so that ties are common (the id breaks them), links of every
    relation (some discovered), supersede chains with the older memory inactive, two clusters."""
    rng = random.Random(seed)
    g = Graph()
    mems = []
    kinds = [MemoryKind.FACT, MemoryKind.EVENT, MemoryKind.PREFERENCE, MemoryKind.PROCEDURE]
    for i in range(n):
        tags = {f"topic{rng.randrange(max(2, n // 6))}"}
        if rng.random() < 0.8:
            tags.add("hub")
        tags.add(f"speaker:{rng.choice('ab')}")
        tags.add(f"session:{i // 20}")
        if rng.random() < 0.3:
            tags.add(f"date:{rng.randrange(12)}")
        m = mem(
            "ada",
            f"memory {seed} {i}",
            minutes=rng.randrange(30),  # tied last_accessed
            tags=sorted(tags),
            importance=round(rng.choice([0.3, 0.5, 0.5, 0.7, rng.random()]), 1),
            kind=rng.choice(kinds),
            active=rng.random() > 0.1,
            archived=rng.random() < 0.05,
            pinned=rng.random() < 0.05,
            session_id=f"s{i // 20}",
        )
        if id_prefix is not None:  # ids alike in their first bytes: SQLite's numeric id keys tie, names decide
            m = m.model_copy(update={"id": f"{id_prefix}{rng.choice(['', 'é', 'z', 'é-'])}{i % 7}-{i}"})
        mems.append(m)
        g.mems[m.id] = m
        g.tags[m.id] = set(tags)
    ids = [m.id for m in mems]
    links: list[Link] = []
    for _ in range(n * 2):
        a, b = rng.sample(ids, 2)
        rel = rng.choice(MEMORY_RELS)
        source = LinkSource.DISCOVERED if rel == Relation.RELATES_TO and rng.random() < 0.4 else LinkSource.EXPLICIT
        links.append(Link(src=a, dst=b, relation=rel, weight=rng.choice([0.3, 0.5, 0.7, 0.9, 1.0]), source=source))
    for i in range(1, n, 10):  # sequence links, as conversations have
        links.append(
            Link(src=ids[i - 1], dst=ids[i], relation=Relation.RELATES_TO, weight=0.7, source=LinkSource.SEQUENCE)
        )
    store.write("ada", WriteBatch(memories=mems, links=links))
    for ln in links:
        g.links[(ln.src, ln.dst, ln.relation.value)] = (ln.weight, ln.source.value)
    members = [
        InCluster(memory_id=ids[i], cluster_id=f"k{i % 2}", probability=round(0.5 + (i % 5) / 10, 1))
        for i in range(0, n, 3)
    ]
    store.replace_clusters(
        "ada",
        [Cluster(id="k0", user_id="ada", size=1, label="k0"), Cluster(id="k1", user_id="ada", size=1, label="k1")],
        members,
    )
    for m in members:
        g.clusters.setdefault(m.memory_id, {})[m.cluster_id] = m.probability
    return g


def _update(store: GraphStore, g: Graph, seed: int) -> None:
    """Changes the stores must catch up with: importance and last_accessed, deletes, tag removals, new links."""
    rng = random.Random(seed + 1)
    ids = sorted(g.mems)
    bumped = rng.sample(ids, 15)
    later = T0 + timedelta(days=3)
    store.update_memories(
        "ada", [MemoryUpdate(id=mid, set={"importance": 0.9, "last_accessed": later}) for mid in bumped]
    )
    for mid in bumped:
        g.mems[mid] = g.mems[mid].model_copy(update={"importance": 0.9, "last_accessed": later})
    gone = rng.sample([m for m in ids if m not in bumped], 5)
    store.delete_memories("ada", gone)
    for mid in gone:
        del g.mems[mid]
        g.tags.pop(mid, None)
        g.clusters.pop(mid, None)
    g.links = {k: v for k, v in g.links.items() if k[0] not in gone and k[1] not in gone}
    left = sorted(g.mems)
    untag = [HasTag(memory_id=mid, tag="hub") for mid in rng.sample(left, 10) if "hub" in g.tags[mid]]
    store.remove_tags("ada", untag)
    for p in untag:
        g.tags[p.memory_id].discard(p.tag)
    new = [
        Link(src=a, dst=b, relation=Relation.SUPERSEDES, weight=1.0) for a, b in zip(left[:6], left[6:12], strict=True)
    ]
    store.upsert_links("ada", new)
    for ln in new:
        g.links[(ln.src, ln.dst, ln.relation.value)] = (ln.weight, ln.source.value)


FILTERS = [
    MemoryFilter(),
    MemoryFilter.everything(),
    MemoryFilter(min_importance=0.5),
    MemoryFilter(kinds=[MemoryKind.FACT, MemoryKind.EVENT]),
    MemoryFilter(tag="speaker:a"),
    MemoryFilter(session_id="s3", active=None),
]


def _check(store: GraphStore, g: Graph, rng: random.Random) -> None:
    ids = sorted(g.mems)
    for flt in FILTERS:
        for cap, depth in ((3, 2), (8, 2), (2, 3), (40, 1)):
            seeds = rng.sample(ids, 6) + ["not-a-memory"]
            want = _reference(g, seeds, depth, cap, flt)
            got = store.expand("ada", seeds, max_depth=depth, fanout_cap=cap, weights=WEIGHTS, flt=flt)
            key = lambda d: (d["seed_id"], d["memory_id"])  # noqa: E731
            assert sorted((e.model_dump() for e in got), key=key) == sorted((e.model_dump() for e in want), key=key), (
                flt,
                cap,
                depth,
            )


@pytest.mark.parametrize("seed,n", [(1, 120), (2, 400)])
def test_every_store_walks_the_one_definition(store: GraphStore, seed: int, n: int) -> None:
    """n=400: the hub tag has ~320 members, so SQLite's pre-selection of hub members (by importance, ties
    kept) is on the path, and ties in importance and last_accessed are broken by id."""
    g = _build(store, seed, n)
    rng = random.Random(seed)
    _check(store, g, rng)
    _update(store, g, seed)
    _check(store, g, rng)


def _cascade_check(store: GraphStore, g: Graph, rng: random.Random, settings: Settings) -> int:
    """The table is `expand`'s answer, and the cascade scored on it (retrieve/spread.py) is the cascade scored
    on `expand`'s objects (retrieve/cascade.py): the same activations, in the same order, bit for bit."""
    ids = sorted(g.mems)
    checked = 0
    for flt in FILTERS[:4]:
        seeds = rng.sample(ids, 8) + ["not-a-memory"]
        strengths = {s: rng.choice([0.5, 1.0, round(rng.random(), 3)]) for s in seeds}  # ties between seeds
        strengths[seeds[0]] = 0.0  # a seed that passes nothing on
        seed_objs = [Seed(id=s, rank=i + 1, score=1.0) for i, s in enumerate(seeds)]
        kw = {"max_depth": settings.max_depth, "fanout_cap": settings.fanout_cap, "weights": WEIGHTS, "flt": flt}
        table = store.expand_table("ada", seeds, **kw)
        assert table.expansions() == store.expand("ada", seeds, **kw)
        want = cascade(store, "ada", seed_objs, flt, settings, strengths=strengths)
        got = spread(store, "ada", seed_objs, flt, settings, strengths=strengths)
        assert list(got) == list(want)
        for mid, act in want.items():
            other = got[mid]
            assert (other.total, other.best, other.seed_id) == (act.total, act.best, act.seed_id)
            assert (other.depth, other.path) == (act.depth, act.path)
        checked += len(want)
    return checked


def test_ids_alike_in_their_first_bytes_rank_by_the_whole_id(store: GraphStore) -> None:
    """SQLite ranks ties by a number made of an id's first 8 bytes and compares whole ids only where those
    tie: ids sharing a long prefix (and non-ASCII ones) must still rank by the whole id, as on the others."""
    g = _build(store, 3, 120, id_prefix="memory-of-ada-")
    rng = random.Random(3)
    _check(store, g, rng)


@pytest.mark.parametrize("depth,damping", [(2, 4), (3, 40)])
def test_cascade_on_arrays_equals_the_cascade(store: GraphStore, depth: int, damping: int) -> None:
    """Recall scores the cascade from `expand_table` on every store (SQLite: the walk's arrays; Cypher: its
    expansions); hub damping on (small `hub_damping_size`), depth 2 and 3, before and after updates."""
    settings = Settings(max_depth=depth, fanout_cap=6, hub_damping_size=damping)
    g = _build(store, 5, 150)
    rng = random.Random(depth)
    assert _cascade_check(store, g, rng, settings) > 50
    _update(store, g, 5)
    assert _cascade_check(store, g, rng, settings) > 50
