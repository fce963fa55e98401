"""Look-alike owners cannot see, change or count each other's data, on every store.

The API refuses ids such as `'ada '` (memgraph/ids.py), but a store may already hold them (written before the
rule, or by hand), and an index may not compare them exactly: FalkorDB's range index trims surrounding
whitespace, so with `user_id` indexed `m.user_id = 'ada'` also returns `'ada '`, `' ada'`, `'ada\\t'` and
`'ada\\n'` (`test_the_index_really_confuses_them` shows it on the real server, so the rest of this file is not
vacuous). Every statement therefore re-checks the owner (`memgraph/cypher/include/owner.cypher`). Here the
look-alikes are planted straight into the store, bypassing the rule, after the schema indexed `user_id`, and
every read (and the writes that select by owner) is run as the real users.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import numpy as np
import pytest

from memgraph.errors import StoreError
from memgraph.models import Cluster, Gap, HasTag, InCluster, Link, Memory, Relation
from memgraph.store import GraphStore, MemoryFilter, MemoryUpdate, WriteBatch
from memgraph.store.cypher_values import memory_properties

from .helpers import mem, unit_vectors

ADA = "ada"
ZOE = unicodedata.normalize("NFC", "zoë")
#: owner -> look-alikes an index or a person could take for it
LOOKALIKES: dict[str, list[str]] = {
    ADA: ["ada ", " ada", "ada\t", "ada\n", "ADA", "Ada", "ada\u200b", "\u00a0ada", "ada\r\n"],
    ZOE: [unicodedata.normalize("NFD", ZOE), ZOE + " ", " " + ZOE],
}
_ALL = [ADA, ZOE, *LOOKALIKES[ADA], *LOOKALIKES[ZOE]]
BASE = unit_vectors(1, seed=7)[0]


def _world(store: GraphStore) -> dict[str, list[str]]:
    """Each owner (real ones first, then the planted look-alikes) gets the same shape of data: three memories
    close to one query vector and sharing words, tags (one name shared by everyone), a link, a cluster, a gap.
    The real owners write through the store's API; the look-alikes are planted (`_plant`)."""
    ids: dict[str, list[str]] = {}
    for n, owner in enumerate(_ALL):
        mems = [
            mem(owner, f"alpha shared words note {k} of owner {n}", minutes=n * 10 + k, session_id="s1")
            for k in range(3)
        ]
        vecs = BASE + unit_vectors(3, seed=100 + n) * 0.05
        ids[owner] = [m.id for m in mems]
        cluster = Cluster(id=f"c_{n}", user_id=owner, size=3, label="alpha", centroid=BASE.tolist())
        gap = Gap(id=f"g_{n}", user_id=owner, query="what alpha", embedding=BASE.tolist())
        if owner in (ADA, ZOE) or store.name == "sqlite":
            store.write(owner, WriteBatch(memories=mems, embeddings=vecs))
            store.add_tags(owner, [HasTag(memory_id=m.id, tag=t) for m in mems for t in ("shared", f"own{n}")])
            store.upsert_links(owner, [Link(src=mems[0].id, dst=mems[1].id, relation=Relation.RELATES_TO,
                                             weight=0.5)])
            store.replace_clusters(owner, [cluster], [InCluster(memory_id=m.id, cluster_id=cluster.id) for m in mems])
            store.upsert_gap(gap)
        else:
            _plant(store, owner, n, mems, vecs, cluster, gap)
    return ids


def _plant(store: GraphStore, owner: str, n: int, mems: list[Memory], vecs: np.ndarray, cluster: Cluster,
           gap: Gap) -> None:
    """Write a look-alike owner's data straight into a Cypher store, matching nodes by id only: the store's own
    statements select by owner, and FalkorDB's index cannot find `'ada '` itself (it under-returns), so they
    could not plant it."""
    run = store._x.run  # type: ignore[attr-defined]
    vec = "vecf32" if store.name == "falkordb" else "toFloatList"
    rows = [{"id": m.id, "props": memory_properties(m), "embedding": v.tolist()} for m, v in zip(mems, vecs,
                                                                                                  strict=True)]
    run(f"""UNWIND $rows AS row
        CREATE (m:Memory) SET m = row.props, m.id = row.id, m.user_id = $owner
        CREATE (v:MemoryVector {{id: row.id, user_id: $owner}}) SET v.embedding = {vec}(row.embedding)
        CREATE (m)-[:HasEmbedding]->(v)""", {"rows": rows, "owner": owner}, write=True)
    # the record of users a store of schema 3 holds for an owner written before the identifier rule (the
    # migration to version 3 makes one per distinct user_id; cypher_migrations.py)
    run("CREATE (:User {id: $owner})", {"owner": owner}, write=True)
    run("""CREATE (:Tag {user_id: $owner, name: 'shared'}), (:Tag {user_id: $owner, name: $own})
        WITH 1 AS one
        UNWIND $ids AS id
        MATCH (m:Memory {id: id}), (t:Tag)
        WHERE (t.name = 'shared' OR t.name = $own) AND t.user_id + '' = $owner
        CREATE (m)-[:HasTag {created_at: '2024-01-01'}]->(t)""",
        {"owner": owner, "own": f"own{n}", "ids": [m.id for m in mems]}, write=True)
    run("""MATCH (a:Memory {id: $a}), (b:Memory {id: $b})
        CREATE (a)-[:RelatesTo {weight: 0.5, source: 'explicit', created_at: '2024-01-01',
                                updated_at: '2024-01-01'}]->(b)""", {"a": mems[0].id, "b": mems[1].id}, write=True)
    run("""CREATE (c:Cluster {id: $id, user_id: $owner, size: 3, label: 'alpha', updated_at: '2024-01-01'})
        WITH c
        UNWIND $ids AS id
        MATCH (m:Memory {id: id})
        CREATE (m)-[:InCluster {probability: 1.0}]->(c)""",
        {"id": cluster.id, "owner": owner, "ids": [m.id for m in mems]}, write=True)
    run("""CREATE (:Gap {id: $id, user_id: $owner, query: 'what alpha', count: 1, first_seen: '2024-01-01',
                         last_seen: '2024-01-01'})""", {"id": gap.id, "owner": owner}, write=True)


def _reads(store: GraphStore, owner: str, ids: dict[str, list[str]]) -> dict[str, set[str]]:
    """Every read of the protocol as `owner`: the memory (or tag, cluster, gap) ids each one returns."""
    everyone = [i for group in ids.values() for i in group]
    flt = MemoryFilter.everything()
    out: dict[str, set[str]] = {
        "get_memories": {m.id for m in store.get_memories(owner, everyone)},
        "list_memories": {m.id for m in store.list_memories(owner, flt, limit=1000)},
        "list_by_tag": {m.id for m in store.list_memories(owner, MemoryFilter(tag="shared"), limit=1000)},
        "list_by_session": {m.id for m in store.list_memories(owner, MemoryFilter(session_id="s1"), limit=1000)},
        "memory_fields": {r["id"] for r in store.memory_fields(owner, ["kind"], flt)},
        "embeddings": set(store.embeddings(owner, flt)[0]),
        "vector_search": {i for i, _ in store.vector_search(owner, BASE, 100)},
        "vector_search_many": {i for i, _ in store.vector_search_many(owner, np.stack([BASE]), 100)[0]},
        "text_search": {i for i, _ in store.text_search(owner, "alpha shared words", 100)},
        "get_links": {x for ln in store.get_links(owner) for x in (ln.src, ln.dst)},
        "get_links_of": {x for ln in store.get_links(owner, everyone) for x in (ln.src, ln.dst)},
        "expand": {e.memory_id for e in store.expand(owner, ids[owner][:1], max_depth=3, fanout_cap=100,
                                                     weights={"other": 1.0}, flt=flt)} | set(ids[owner][:1]),
        "cluster_members": {c.memory_id for c in store.cluster_members(owner)},
    }
    tags = store.list_tags(owner)
    out["tag_counts"] = {f"{t.name}={t.count}" for t in tags}
    out["find_tags"] = {f"{t.name}={t.count}" for t in store.find_tags(owner, ["shared"])}
    out["clusters"] = {c.id for c in store.list_clusters(owner)}
    out["gaps"] = {g.id for g in store.list_gaps(owner)}
    out["count"] = {str(store.count_memories(owner, flt))}
    st = store.stats(owner)
    out["stats"] = {f"memories={st.memories}", f"tags={st.tags}", f"clusters={st.clusters}", f"gaps={st.gaps}",
                    f"users={st.users}", *(f"{k}={v}" for k, v in sorted(st.edges.items()))}
    return out


def _expected(owner: str, ids: dict[str, list[str]]) -> dict[str, set[str]]:
    own = set(ids[owner])
    n = _ALL.index(owner)
    return {
        "get_memories": own, "list_memories": own, "list_by_tag": own, "list_by_session": own,
        "memory_fields": own, "embeddings": own, "vector_search": own, "vector_search_many": own,
        "text_search": own, "get_links": set(ids[owner][:2]), "get_links_of": set(ids[owner][:2]),
        "expand": own, "cluster_members": own,
        "tag_counts": {"shared=3", f"own{n}=3"}, "find_tags": {"shared=3"},
        "clusters": {f"c_{n}"}, "gaps": {f"g_{n}"}, "count": {"3"},
        "stats": {"memories=3", "tags=2", "clusters=1", "gaps=1", "users=1", "HasTag=6", "InCluster=3",
                  "RelatesTo=1"},
    }


def test_reads_never_cross_to_a_lookalike_owner(store: GraphStore) -> None:
    """The real owners read exactly their own data. A planted look-alike never reads anyone else's; on FalkorDB
    it may read less than its own (the index cannot find `'ada '` itself; such ids are reported on open)."""
    ids = _world(store)
    for owner in _ALL:
        got, want = _reads(store, owner, ids), _expected(owner, ids)
        if owner in (ADA, ZOE) or store.name != "falkordb":
            wrong = {k: sorted(got[k] ^ want[k]) for k in want if got[k] != want[k]}
        else:
            foreign = {i for other, group in ids.items() if other != owner for i in group}
            wrong = {k: sorted(got[k] & foreign) for k in want if got[k] & foreign}
        assert not wrong, (repr(owner), wrong)
    assert sorted(store.users()) == sorted(_ALL)


def _lookalike_totals(store: GraphStore, ids: dict[str, list[str]], owner: str) -> list[tuple[str, int, int]]:
    """(owner, memories, tags) of every look-alike of `owner`."""
    return [
        (x, store.count_memories(x, MemoryFilter.everything()), len(store.list_tags(x))) for x in LOOKALIKES[owner]
    ]


@pytest.mark.parametrize(
    "write",
    [
        lambda s, ids: s.update_memories(ADA, [MemoryUpdate(id=i, set={"active": False}) for g in ids.values()
                                               for i in g]),
        lambda s, ids: s.delete_memories(ADA, [i for g in ids.values() for i in g]),
        lambda s, ids: s.delete_tags(ADA, ["shared", "own0"]),
        lambda s, ids: s.remove_tags(ADA, [HasTag(memory_id=i, tag="shared") for g in ids.values() for i in g]),
        lambda s, ids: s.delete_links(ADA, [(g[0], g[1], Relation.RELATES_TO) for g in ids.values()]),
        lambda s, ids: s.replace_clusters(ADA, [], []),
        lambda s, ids: s.set_embeddings(ADA, [i for g in ids.values() for i in g],
                                        np.tile(BASE, (sum(map(len, ids.values())), 1)), "other-model"),
        lambda s, ids: s.erase_memories(ADA, [i for g in ids.values() for i in g]),
        lambda s, ids: s.erase_user(ADA),
    ],
    ids=["update", "delete_memories", "delete_tags", "remove_tags", "delete_links", "replace_clusters",
         "set_embeddings", "erase_memories", "erase_user"],
)
def test_writes_by_owner_never_touch_a_lookalike(store: GraphStore, write: Callable[..., object]) -> None:
    ids = _world(store)
    before = {x: _truth(store, x) for x in LOOKALIKES[ADA]}
    assert all(before.values())
    write(store, ids)
    assert {x: _truth(store, x) for x in LOOKALIKES[ADA]} == before


def _truth(store: GraphStore, owner: str) -> list[tuple[object, ...]]:
    """Everything stored under exactly `owner`, read without any owner index: the store's reads on SQLite (it
    compares exactly), a scan comparing `user_id + ''` on a Cypher store."""
    if store.name == "sqlite":
        flt = MemoryFilter.everything()
        mems = store.get_memories(owner, [m.id for m in store.list_memories(owner, flt, limit=100)])
        return sorted(
            [("m", m.id, m.active, m.embedding_model, tuple(m.tags)) for m in mems]
            + [("l", ln.src, ln.dst, ln.relation.value) for ln in store.get_links(owner)]
            + [("c", c.memory_id, c.cluster_id) for c in store.cluster_members(owner)]
            + [("t", t.name, t.count) for t in store.list_tags(owner)]
        )
    rows = store._x.run(  # type: ignore[attr-defined]
        """MATCH (x) WHERE x.user_id + '' = $owner
        OPTIONAL MATCH (x)-[r]->(y)
        RETURN labels(x)[0] AS label, coalesce(x.id, x.name) AS key, x.active AS active,
               x.embedding_model AS model, type(r) AS rel, coalesce(y.id, y.name) AS other""",
        {"owner": owner}, write=False,
    )
    return sorted(tuple(str(v) for v in r.values()) for r in rows)


def test_a_tag_write_never_joins_a_lookalike_tag(store: GraphStore) -> None:
    """After look-alikes were planted, the real owner tags a memory with a name they share. The tag joins the
    owner's own Tag node or, where the index cannot tell the nodes apart (FalkorDB), the write is refused as a
    StoreError and nothing is written: never an edge to a look-alike's node."""
    ids = _world(store)
    target = ids[ADA][0]
    try:
        store.add_tags(ADA, [HasTag(memory_id=target, tag="own2")])  # "own2" is a look-alike's tag name
    except StoreError:
        assert "own2" not in store.get_memories(ADA, [target])[0].tags
    else:
        assert "own2" in store.get_memories(ADA, [target])[0].tags
    assert store.get_memories(ADA, [target])[0].tags in (["own0", "shared"], ["own0", "own2", "shared"])
    if store.name != "sqlite":  # every tag edge of the owner's memory ends at a Tag node of exactly that owner
        rows = store._x.run(  # type: ignore[attr-defined]
            "MATCH (m:Memory {id: $id})-[:HasTag]->(t:Tag) RETURN t.user_id AS owner", {"id": target}, write=False
        )
        assert {r["owner"] for r in rows} == {ADA}


def test_the_index_really_confuses_them(store: GraphStore) -> None:
    """The control: without the re-check, FalkorDB's index answers `user_id = 'ada'` with look-alikes too (the
    tests above would fail without include/owner.cypher). Exact stores (SQLite, Neo4j) show no confusion."""
    _world(store)
    query = getattr(store, "query", None)
    if store.name == "sqlite" or query is None:
        pytest.skip("SQLite compares text exactly (BINARY collation)")
    rows = query("MATCH (m:Memory) WHERE m.user_id = $u RETURN DISTINCT m.user_id AS u", {"u": ADA})
    found = {r["u"] for r in rows}
    if store.name == "falkordb":
        assert found == {"ada", "ada ", " ada", "ada\t", "ada\n", "ada\r\n"}, found
    else:
        assert found == {"ada"}
