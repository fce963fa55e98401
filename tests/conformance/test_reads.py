"""Reads: filters applied inside the store, ordering and paging, and user isolation — on every store."""

from __future__ import annotations

import pytest

from memgraph.errors import ValidationError
from memgraph.models import HasTag, Link, MemoryKind, Relation, Scope
from memgraph.store import GraphStore, MemoryFilter, WriteBatch

from .helpers import mem, unit_vectors


def _filtered_world(store: GraphStore) -> dict[str, str]:
    """Seven memories, each failing exactly one of the default filters (or none), with vectors and words."""
    specs = {
        "plain": mem("ada", "alpha plain note", minutes=1),
        "inactive": mem("ada", "alpha inactive note", minutes=2, active=False),
        "archived": mem("ada", "alpha archived note", minutes=3, archived=True),
        "compressed": mem("ada", "alpha compressed note", minutes=4, compressed=True),
        "event": mem("ada", "alpha event note", minutes=5, kind=MemoryKind.EVENT, session_id="s1"),
        "low": mem("ada", "alpha low note", minutes=6, importance=0.1),
        "low_pinned": mem("ada", "alpha pinned note", minutes=7, importance=0.1, pinned=True),
        "py": mem(
            "ada", "alpha python project note", minutes=8, scope=Scope.PROJECT, file_paths=["src/*.py"]
        ),
        "js": mem("ada", "alpha js project note", minutes=9, scope=Scope.PROJECT, file_paths=["web/*.js"]),
    }
    # All vectors close to one query direction so vector search returns all of them.
    base = unit_vectors(1, seed=42)[0]
    noise = unit_vectors(len(specs), seed=43) * 0.1
    vecs = base + noise
    store.write("ada", WriteBatch(memories=list(specs.values()), embeddings=vecs))
    store.add_tags(
        "ada", [HasTag(memory_id=specs["plain"].id, tag="red"), HasTag(memory_id=specs["py"].id, tag="red")]
    )
    return {k: m.id for k, m in specs.items()}


def _names(ids: dict[str, str], found: list[str]) -> set[str]:
    rev = {v: k for k, v in ids.items()}
    return {rev[i] for i in found}


def test_filters_apply_in_every_read(store: GraphStore) -> None:
    ids = _filtered_world(store)
    base = unit_vectors(1, seed=42)[0]
    cases: list[tuple[MemoryFilter | None, set[str]]] = [
        (None, {"plain", "event", "low", "low_pinned", "py", "js"}),
        (MemoryFilter(active=None), {"plain", "inactive", "event", "low", "low_pinned", "py", "js"}),
        (MemoryFilter(active=False), {"inactive"}),
        (
            MemoryFilter(include_archived=True),
            {"plain", "archived", "event", "low", "low_pinned", "py", "js"},
        ),
        (
            MemoryFilter(include_compressed=True),
            {"plain", "compressed", "event", "low", "low_pinned", "py", "js"},
        ),
        (MemoryFilter(kinds=[MemoryKind.EVENT]), {"event"}),
        (
            MemoryFilter(kinds=[MemoryKind.EVENT, MemoryKind.FACT]),
            {"plain", "event", "low", "low_pinned", "py", "js"},
        ),
        (MemoryFilter(session_id="s1"), {"event"}),
        (MemoryFilter(min_importance=0.3), {"plain", "event", "low_pinned", "py", "js"}),
        (MemoryFilter(tag="red"), {"plain", "py"}),
        (MemoryFilter(tag="nope"), set()),
        (MemoryFilter(files=["src/main.py"]), {"plain", "event", "low", "low_pinned", "py"}),
        (MemoryFilter(files=[]), {"plain", "event", "low", "low_pinned"}),
        (MemoryFilter.everything(), set(ids)),
    ]
    for flt, expected in cases:
        listed = [m.id for m in store.list_memories("ada", flt, limit=100)]
        assert _names(ids, listed) == expected, flt
        assert store.count_memories("ada", flt) == len(expected), flt
        vec = [h for h, _ in store.vector_search("ada", base, 20, flt=flt)]
        assert _names(ids, vec) == expected, flt
        text = [h for h, _ in store.text_search("ada", "alpha note", 20, flt=flt)]
        assert _names(ids, text) == expected, flt
        emb_ids, matrix = store.embeddings("ada", flt)
        assert _names(ids, emb_ids) == expected and matrix.shape == (len(expected), 384), flt


def test_list_is_newest_first_and_pages(store: GraphStore) -> None:
    ms = [mem("ada", f"note {i}", minutes=i) for i in range(7)]
    store.write("ada", WriteBatch(memories=ms))
    newest_first = [m.id for m in reversed(ms)]
    assert [m.id for m in store.list_memories("ada")] == newest_first
    assert [m.id for m in store.list_memories("ada", limit=3)] == newest_first[:3]
    assert [m.id for m in store.list_memories("ada", limit=3, offset=3)] == newest_first[3:6]
    assert store.list_memories("ada", limit=3, offset=10) == []
    assert store.list_memories("ada", limit=0) == []


def test_users_are_isolated(store: GraphStore) -> None:
    a = [mem("ada", f"shared words {i}", tags=["common"]) for i in range(3)]
    b = [mem("bob", f"shared words {i}", tags=["common"]) for i in range(3)]
    vecs = unit_vectors(3)
    store.write(
        "ada",
        WriteBatch(
            memories=a, embeddings=vecs, links=[Link(src=a[0].id, dst=a[1].id, relation=Relation.RELATES_TO)]
        ),
    )
    store.write("bob", WriteBatch(memories=b, embeddings=vecs))
    a_ids, b_ids = {m.id for m in a}, {m.id for m in b}
    assert a_ids.isdisjoint(b_ids)
    assert {m.id for m in store.list_memories("bob")} == b_ids
    assert store.get_memories("bob", list(a_ids)) == []
    assert {h for h, _ in store.vector_search("bob", vecs[0], 10)} == b_ids
    assert {h for h, _ in store.text_search("bob", "shared words", 10)} == b_ids
    assert store.get_links("bob") == [] and store.get_links("bob", list(a_ids)) == []
    reached = {e.memory_id for e in store.expand("bob", [b[0].id], max_depth=2, fanout_cap=10, weights={})}
    assert reached == b_ids - {b[0].id}
    assert [(t.name, t.count) for t in store.list_tags("bob")] == [("common", 3)]
    assert store.stats("bob").memories == 3 and store.stats("bob").edges == {"HasTag": 3}
    assert store.stats().memories == 6 and store.stats().users == 2
    assert store.users() == ["ada", "bob"]
    assert store.count_memories("carol") == 0 and store.list_tags("carol") == []
    assert store.vector_search("carol", vecs[0], 5) == [] and store.text_search("carol", "shared", 5) == []


def test_memory_fields_match_list_memories(store: GraphStore) -> None:
    """The thin read batch jobs use (decay): the same memories, order and typed values as list_memories."""
    from memgraph.store.base import STORED_FIELDS

    batch = [
        mem("u1", "plain fact", minutes=1),
        mem(
            "u1",
            "archived with state",
            minutes=2,
            kind=MemoryKind.PREFERENCE,
            archived=True,
            pinned=True,
            access_count=3,
            strength=2,
            confidence=0.25,
            metadata={"_decay": {"c0": 0.5, "written": 0.25}, "note": "x"},
            file_paths=["src/*.py"],
            scope=Scope.PROJECT,
        ),
        mem("u1", "inactive one", minutes=3, active=False, session_id="s1"),
        mem("u2", "someone else's", minutes=4),
    ]
    for user in ("u1", "u2"):
        store.write(user, WriteBatch(memories=[m for m in batch if m.user_id == user]))
    everything = MemoryFilter.everything()
    fields = sorted(STORED_FIELDS)
    listed = store.list_memories("u1", everything, limit=10)
    rows = store.memory_fields("u1", fields, everything)
    assert [r["id"] for r in rows] == [m.id for m in listed]
    for row, full in zip(rows, listed, strict=True):
        assert row == {"id": full.id, **{f: getattr(full, f) for f in fields}}
        assert type(row["kind"]) is type(full.kind) and type(row["last_accessed"]) is type(full.last_accessed)
    assert [r["id"] for r in store.memory_fields("u1", ["confidence"])] == [
        m.id for m in store.list_memories("u1", limit=10)
    ]
    assert store.memory_fields("nobody", ["kind"], everything) == []
    with pytest.raises(ValidationError):
        store.memory_fields("u1", ["content", "embedding"])
