"""Writes: round trips, upsert by id, atomic batches, updates, deletes, tags and links — on every store."""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest

from memgraph.errors import ValidationError
from memgraph.models import HasTag, Layer, Link, LinkSource, MemoryKind, Provenance, Relation, Scope
from memgraph.store import GraphStore, MemoryFilter, MemoryUpdate, WriteBatch

from .helpers import NASTY, T0, mem, unit_vectors

EVERYTHING = MemoryFilter.everything()


def test_meta_round_trip(store: GraphStore) -> None:
    assert store.get_meta("nope") is None
    store.set_meta("k", "v1")
    store.set_meta("k", 'v2 "quoted" `x`')
    assert store.get_meta("k") == 'v2 "quoted" `x`'
    assert store.get_meta("schema_version") is not None


def test_memory_round_trips_every_field(store: GraphStore) -> None:
    m = mem(
        "ada",
        "Prefers tabs",
        kind=MemoryKind.PREFERENCE,
        layer=Layer.PROCEDURAL,
        scope=Scope.PROJECT,
        session_id="s-1",
        access_count=3,
        strength=2,
        importance=0.7,
        confidence=0.9,
        trust=0.8,
        provenance=Provenance.OBSERVED,
        active=True,
        archived=False,
        pinned=True,
        compressed=False,
        file_paths=["src/**/*.py", "*.md"],
        trigger_patterns=["indent*"],
        metadata={"nested": {"list": [1, 2.5, None, True], "s": NASTY[0]}, "n": 0, "uni": "東京"},
        tags=["style", "python"],
        embedding_model="all-MiniLM-L6-v2",
    )
    vec = unit_vectors(1)[0]
    store.write("ada", WriteBatch(memories=[m], embeddings=vec.reshape(1, -1)))
    got = store.get_memories("ada", [m.id], with_embeddings=True)[0]
    expected = m.model_dump(exclude={"embedding", "tags"})
    assert got.model_dump(exclude={"embedding", "tags"}) == expected
    assert got.tags == ["python", "style"]
    assert np.allclose(got.embedding, vec, atol=1e-6)
    assert store.get_memories("ada", [m.id])[0].embedding is None


def test_nasty_text_is_stored_as_data(store: GraphStore) -> None:
    mems = [mem("ada", text, metadata={"q": text}, tags=[text.strip()[:100] or "x"]) for text in NASTY]
    store.write("ada", WriteBatch(memories=mems, embeddings=unit_vectors(len(mems))))
    other = mem("bob", "bob's memory")
    store.write("bob", WriteBatch(memories=[other], embeddings=unit_vectors(1, seed=9)))
    got = {m.id: m for m in store.get_memories("ada", [m.id for m in mems])}
    assert len(got) == len(NASTY)
    for m in mems:
        assert got[m.id].content == m.content
        assert got[m.id].metadata == {"q": m.content}
        assert got[m.id].tags == m.tags
    assert store.count_memories("bob") == 1
    assert store.stats().memories == len(NASTY) + 1


def test_get_memories_keeps_order_and_skips_unknown_and_foreign(store: GraphStore) -> None:
    a = [mem("ada", f"a{i}") for i in range(3)]
    b = mem("bob", "b0")
    store.write("ada", WriteBatch(memories=a))
    store.write("bob", WriteBatch(memories=[b]))
    ids = [a[2].id, "missing", b.id, a[0].id, a[2].id]
    assert [m.id for m in store.get_memories("ada", ids)] == [a[2].id, a[0].id]
    assert store.get_memories("ada", []) == []


def test_upsert_by_id_is_idempotent(store: GraphStore) -> None:
    a, b = mem("ada", "one", tags=["t"]), mem("ada", "two")
    batch = WriteBatch(
        memories=[a, b],
        embeddings=unit_vectors(2),
        tags=[HasTag(memory_id=b.id, tag="t")],
        links=[Link(src=a.id, dst=b.id, relation=Relation.RELATES_TO, weight=0.4)],
    )
    store.write("ada", batch)
    before = store.stats("ada")
    store.write("ada", batch)  # a retried batch after a crash
    assert store.stats("ada") == before
    assert before.memories == 2 and before.tags == 1 and before.edges == {"HasTag": 2, "RelatesTo": 1}
    changed = a.model_copy(update={"importance": 0.9, "metadata": {"v": 2}})
    store.write("ada", WriteBatch(memories=[changed]))
    got = store.get_memories("ada", [a.id])[0]
    assert got.importance == 0.9 and got.metadata == {"v": 2}
    assert store.count_memories("ada") == 2


def test_id_of_another_user_is_refused_and_nothing_written(store: GraphStore) -> None:
    a = mem("ada", "mine")
    store.write("ada", WriteBatch(memories=[a]))
    theft = a.model_copy(update={"user_id": "bob", "content": "stolen"})
    fresh = mem("bob", "fresh")
    with pytest.raises(ValidationError):
        store.write("bob", WriteBatch(memories=[fresh, theft]))
    assert store.get_memories("ada", [a.id])[0].content == "mine"
    assert store.count_memories("bob", EVERYTHING) == 0


def test_failing_batch_writes_nothing(store: GraphStore) -> None:
    """A link to a missing memory fails the whole batch: no memory, vector, tag or link of it is written."""
    kept = mem("ada", "already here")
    store.write("ada", WriteBatch(memories=[kept], embeddings=unit_vectors(1, seed=3)))
    before = store.stats()
    new = [mem("ada", f"new {i}", tags=["fresh"]) for i in range(5)]
    batch = WriteBatch(
        memories=new,
        embeddings=unit_vectors(5, seed=4),
        tags=[HasTag(memory_id=kept.id, tag="touched")],
        links=[
            Link(src=new[0].id, dst=kept.id, relation=Relation.RELATES_TO),
            Link(src=new[1].id, dst="m_does_not_exist", relation=Relation.SUPERSEDES),
        ],
        updates=[MemoryUpdate(id=kept.id, set={"importance": 0.99})],
    )
    with pytest.raises(ValidationError, match="both memories must belong"):
        store.write("ada", batch)
    assert store.stats() == before
    assert store.get_memories("ada", [m.id for m in new]) == []
    assert store.get_memories("ada", [kept.id])[0].importance == 0.5
    assert store.get_memories("ada", [kept.id])[0].tags == []
    ids = [hit for hit, _ in store.vector_search("ada", unit_vectors(5, seed=4)[0], 10, flt=EVERYTHING)]
    assert ids == [kept.id]


def test_link_to_another_users_memory_is_refused(store: GraphStore) -> None:
    a, b = mem("ada", "a"), mem("bob", "b")
    store.write("ada", WriteBatch(memories=[a]))
    store.write("bob", WriteBatch(memories=[b]))
    with pytest.raises(ValidationError):
        store.upsert_links("ada", [Link(src=a.id, dst=b.id, relation=Relation.RELATES_TO)])
    with pytest.raises(ValidationError):
        store.upsert_links("ada", [Link(src=a.id, dst=a.id, relation=Relation.HAS_TAG)])
    assert store.get_links("ada") == [] and store.get_links("bob") == []


def test_a_bad_link_after_good_ones_writes_nothing_of_the_batch(store: GraphStore) -> None:
    """The guard and the MERGEs run in one pass over the links: rows merged before the bad one are undone."""
    ms = [mem("ada", f"m{i}") for i in range(4)]
    b = mem("bob", "b")
    store.write("ada", WriteBatch(memories=ms[:3]))
    store.write("bob", WriteBatch(memories=[b]))
    good = [
        Link(src=ms[0].id, dst=ms[1].id, relation=Relation.RELATES_TO),
        Link(src=ms[1].id, dst=ms[2].id, relation=Relation.SUPERSEDES),
        Link(src=ms[3].id, dst=ms[0].id, relation=Relation.DERIVED_FROM),  # ms[3] is new in this batch
    ]
    bad = Link(src=ms[2].id, dst=b.id, relation=Relation.RELATES_TO)
    with pytest.raises(ValidationError):
        store.write("ada", WriteBatch(memories=[ms[3]], links=[*good, bad]))
    assert store.get_links("ada") == [] and store.get_links("bob") == []
    assert store.count_memories("ada", EVERYTHING) == 3
    store.write("ada", WriteBatch(memories=[ms[3]], links=good))
    got = {(ln.src, ln.dst, ln.relation) for ln in store.get_links("ada")}
    assert got == {(ln.src, ln.dst, ln.relation) for ln in good}


def test_batch_validation_errors(store: GraphStore) -> None:
    a = mem("ada", "a")
    with pytest.raises(ValidationError):
        store.write("ada", WriteBatch(memories=[a], embeddings=unit_vectors(2)))
    with pytest.raises(ValidationError):
        store.write("bob", WriteBatch(memories=[a]))
    with pytest.raises(ValidationError):
        store.write("ada", WriteBatch(memories=[a], embeddings=unit_vectors(1, dim=8)))
    bad = unit_vectors(1)
    bad[0, 3] = np.nan
    with pytest.raises(ValidationError):
        store.write("ada", WriteBatch(memories=[a], embeddings=bad))
    assert store.count_memories("ada", EVERYTHING) == 0


def test_update_memories_sets_increments_and_clamps(store: GraphStore) -> None:
    a, b = mem("ada", "a", confidence=0.9, importance=0.2), mem("bob", "b")
    store.write("ada", WriteBatch(memories=[a]))
    store.write("bob", WriteBatch(memories=[b]))
    later = T0 + timedelta(days=3)
    n = store.update_memories(
        "ada",
        [
            MemoryUpdate(
                id=a.id,
                set={"archived": True, "last_accessed": later, "metadata": {"x": NASTY[1]}, "file_paths": []},
                inc={"access_count": 2, "strength": 1, "confidence": 0.5, "importance": -0.5},
            ),
            MemoryUpdate(id=b.id, set={"active": False}),  # another user's: not matched
            MemoryUpdate(id="missing", inc={"strength": 1}),
        ],
    )
    assert n == 1
    got = store.get_memories("ada", [a.id])[0]
    assert got.archived and got.last_accessed == later and got.metadata == {"x": NASTY[1]}
    assert (got.access_count, got.strength, got.confidence, got.importance) == (2, 2, 1.0, 0.0)
    assert store.get_memories("bob", [b.id])[0].active
    with pytest.raises(ValidationError):
        store.update_memories("ada", [MemoryUpdate(id=a.id, set={"user_id": "bob"})])
    with pytest.raises(ValidationError):
        store.update_memories("ada", [MemoryUpdate(id=a.id, inc={"trust": 1})])


def test_content_update_reindexes_full_text(store: GraphStore) -> None:
    a = mem("ada", "zebra crossing")
    store.write("ada", WriteBatch(memories=[a]))
    assert [h for h, _ in store.text_search("ada", "zebra", 5)] == [a.id]
    store.update_memories("ada", [MemoryUpdate(id=a.id, set={"content": "giraffe neck"})])
    assert store.text_search("ada", "zebra", 5) == []
    assert [h for h, _ in store.text_search("ada", "giraffe", 5)] == [a.id]


def test_delete_memories_removes_edges_and_vectors(store: GraphStore) -> None:
    ms = [mem("ada", f"m{i}", tags=["t"]) for i in range(3)]
    vecs = unit_vectors(3)
    store.write(
        "ada",
        WriteBatch(
            memories=ms,
            embeddings=vecs,
            links=[
                Link(src=ms[0].id, dst=ms[1].id, relation=Relation.RELATES_TO),
                Link(src=ms[2].id, dst=ms[0].id, relation=Relation.DERIVED_FROM),
            ],
        ),
    )
    other = mem("bob", "b")
    store.write("bob", WriteBatch(memories=[other]))
    assert store.delete_memories("ada", [ms[0].id, "missing", other.id]) == 1
    assert store.get_memories("ada", [ms[0].id]) == []
    assert store.get_links("ada") == []
    assert ms[0].id not in [h for h, _ in store.vector_search("ada", vecs[0], 3)]
    assert store.count_memories("bob") == 1
    assert {t.name: t.count for t in store.list_tags("ada")} == {"t": 2}
    assert store.stats("ada").edges.get("HasTag") == 2


def test_tags_add_remove_and_count(store: GraphStore) -> None:
    a, b, c = mem("ada", "a"), mem("ada", "b"), mem("bob", "c")
    store.write("ada", WriteBatch(memories=[a, b]))
    store.write("bob", WriteBatch(memories=[c]))
    pairs = [
        HasTag(memory_id=a.id, tag="x"),
        HasTag(memory_id=b.id, tag="x"),
        HasTag(memory_id=a.id, tag="y"),
    ]
    assert store.add_tags("ada", [*pairs, pairs[0]]) == 3
    assert store.add_tags("ada", pairs) == 0
    assert store.add_tags("ada", [HasTag(memory_id=c.id, tag="x"), HasTag(memory_id="nope", tag="x")]) == 0
    assert [(t.name, t.count) for t in store.list_tags("ada")] == [("x", 2), ("y", 1)]
    assert store.list_tags("bob") == []
    assert store.get_memories("ada", [a.id])[0].tags == ["x", "y"]
    assert store.remove_tags("ada", [HasTag(memory_id=a.id, tag="x"), HasTag(memory_id=a.id, tag="zz")]) == 1
    assert store.remove_tags("bob", [HasTag(memory_id=b.id, tag="x")]) == 0
    assert [(t.name, t.count) for t in store.list_tags("ada")] == [("x", 1), ("y", 1)]


def test_links_merge_on_src_dst_relation(store: GraphStore) -> None:
    a, b, c = mem("ada", "a"), mem("ada", "b"), mem("ada", "c")
    store.write("ada", WriteBatch(memories=[a, b, c]))
    store.upsert_links(
        "ada",
        [
            Link(src=a.id, dst=b.id, relation=Relation.RELATES_TO, weight=0.3, source=LinkSource.DISCOVERED),
            Link(src=a.id, dst=b.id, relation=Relation.CONTRADICTS, reason=NASTY[2]),
            Link(src=c.id, dst=a.id, relation=Relation.SUPERSEDES, reason="newer"),
        ],
    )
    store.upsert_links(
        "ada",
        [Link(src=a.id, dst=b.id, relation=Relation.RELATES_TO, weight=0.8, source=LinkSource.CO_RECALL)],
    )
    links = {(ln.src, ln.dst, ln.relation): ln for ln in store.get_links("ada")}
    assert len(links) == 3
    rel = links[(a.id, b.id, Relation.RELATES_TO)]
    assert rel.weight == pytest.approx(0.8) and rel.source is LinkSource.CO_RECALL
    assert links[(a.id, b.id, Relation.CONTRADICTS)].reason == NASTY[2]
    out = {(ln.src, ln.dst, ln.relation) for ln in store.get_links("ada", [a.id], direction="out")}
    assert out == {(a.id, b.id, Relation.RELATES_TO), (a.id, b.id, Relation.CONTRADICTS)}
    inc = {(ln.src, ln.dst, ln.relation) for ln in store.get_links("ada", [a.id], direction="in")}
    assert inc == {(c.id, a.id, Relation.SUPERSEDES)}
    both = store.get_links("ada", [a.id, b.id], relations=[Relation.SUPERSEDES, Relation.RELATES_TO])
    assert {ln.relation for ln in both} == {Relation.SUPERSEDES, Relation.RELATES_TO} and len(both) == 2
    assert store.get_links("bob") == []
    assert (
        store.delete_links("ada", [(a.id, b.id, Relation.CONTRADICTS), (b.id, a.id, Relation.RELATES_TO)])
        == 1
    )
    assert store.delete_links("bob", [(a.id, b.id, Relation.RELATES_TO)]) == 0
    assert len(store.get_links("ada")) == 2
