"""The GraphStore methods the batch jobs rely on (lock, merge, import, reindex, recall's tag lookup) — on
every store, with the same answers."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from memgraph.errors import ValidationError
from memgraph.models import HasTag, Link, Relation, Tag
from memgraph.store import GraphStore, MemoryFilter, WriteBatch

from .helpers import exact_top_k, mem, unit_vectors

EVERYTHING = MemoryFilter.everything()


def test_compare_and_set_meta(store: GraphStore) -> None:
    assert store.compare_and_set_meta("lock", None, "job-1")  # absent -> taken
    assert store.get_meta("lock") == "job-1"
    assert not store.compare_and_set_meta("lock", None, "job-2")  # held: refused, unchanged
    assert not store.compare_and_set_meta("lock", "job-2", None)
    assert store.get_meta("lock") == "job-1"
    assert store.compare_and_set_meta("lock", "job-1", "job-1b")
    assert store.compare_and_set_meta("lock", "job-1b", None)  # released: key deleted
    assert store.get_meta("lock") is None
    assert not store.compare_and_set_meta("lock", "job-1b", "x")  # absent is not "job-1b"
    assert store.get_meta("lock") is None
    assert store.compare_and_set_meta("lock", None, None)  # absent stays absent


def test_compare_and_set_meta_has_one_winner(store: GraphStore) -> None:
    wins: list[int] = []
    barrier = threading.Barrier(6)

    def take(i: int) -> None:
        barrier.wait()
        if store.compare_and_set_meta("race", None, f"w{i}"):
            wins.append(i)

    threads = [threading.Thread(target=take, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(wins) == 1
    assert store.get_meta("race") == f"w{wins[0]}"


def test_pinned_filter(store: GraphStore) -> None:
    pinned, plain = mem("ada", "pinned", pinned=True), mem("ada", "plain")
    vecs = unit_vectors(2)
    store.write("ada", WriteBatch(memories=[pinned, plain], embeddings=vecs))
    only = MemoryFilter(pinned=True)
    assert [m.id for m in store.list_memories("ada", only)] == [pinned.id]
    assert [m.id for m in store.list_memories("ada", MemoryFilter(pinned=False))] == [plain.id]
    assert store.count_memories("ada", only) == 1
    assert store.embeddings("ada", only)[0] == [pinned.id]
    assert [h[0] for h in store.vector_search("ada", vecs[1], 5, flt=only)] == [pinned.id]
    assert [h[0] for h in store.text_search("ada", "plain pinned", 5, flt=only)] == [pinned.id]


def test_batch_removes_tags_and_deletes_links_atomically(store: GraphStore) -> None:
    keep, merged, other = mem("ada", "keep", tags=["a"]), mem("ada", "merged", tags=["a", "b"]), mem("ada", "o")
    store.write(
        "ada",
        WriteBatch(
            memories=[keep, merged, other],
            links=[Link(src=merged.id, dst=other.id, relation=Relation.RELATES_TO, weight=0.6)],
        ),
    )
    # consolidation: move merged's tag and link to keep, in one write
    store.write(
        "ada",
        WriteBatch(
            tags=[HasTag(memory_id=keep.id, tag="b")],
            links=[Link(src=keep.id, dst=other.id, relation=Relation.RELATES_TO, weight=0.6)],
            remove_tags=[HasTag(memory_id=merged.id, tag="a"), HasTag(memory_id=merged.id, tag="b")],
            delete_links=[(merged.id, other.id, Relation.RELATES_TO)],
        ),
    )
    got = {m.id: sorted(m.tags) for m in store.get_memories("ada", [keep.id, merged.id])}
    assert got == {keep.id: ["a", "b"], merged.id: []}
    links = store.get_links("ada", [other.id])
    assert [(ln.src, ln.dst) for ln in links] == [(keep.id, other.id)]
    # a refused batch removes nothing either
    with pytest.raises(ValidationError):
        store.write(
            "ada",
            WriteBatch(
                links=[Link(src=keep.id, dst="m_missing", relation=Relation.RELATES_TO)],
                remove_tags=[HasTag(memory_id=keep.id, tag="a")],
                delete_links=[(keep.id, other.id, Relation.RELATES_TO)],
            ),
        )
    assert sorted(store.get_memories("ada", [keep.id])[0].tags) == ["a", "b"]
    assert len(store.get_links("ada", [other.id])) == 1
    assert not WriteBatch(remove_tags=[HasTag(memory_id=keep.id, tag="a")]).is_empty()


def test_upsert_find_and_delete_tags(store: GraphStore) -> None:
    a = mem("ada", "a", tags=["speaker:ada", "python"])
    store.write("ada", WriteBatch(memories=[a]))
    store.write("bob", WriteBatch(memories=[mem("bob", "b", tags=["ada"])]))
    assert store.upsert_tags("ada", [Tag(name="empty", user_id="ada", description="no members yet")]) == 1
    store.upsert_tags("ada", [Tag(name="python", user_id="ada", description="the language")])
    store.upsert_tags("ada", [Tag(name="python", user_id="ada")])  # no description: keeps the old one
    tags = {t.name: (t.description, t.count) for t in store.list_tags("ada")}
    assert tags == {"empty": ("no members yet", 0), "python": ("the language", 1), "speaker:ada": (None, 1)}
    found = store.find_tags("ada", ["ada", "python", "nope", ""])
    assert [(t.name, t.count) for t in found] == [("python", 1), ("speaker:ada", 1)]
    assert store.find_tags("ada", []) == []
    assert store.delete_tags("ada", ["python", "python", "missing"]) == 1
    assert store.get_memories("ada", [a.id])[0].tags == ["speaker:ada"]
    assert [t.name for t in store.list_tags("ada")] == ["empty", "speaker:ada"]
    assert [t.name for t in store.list_tags("bob")] == ["ada"]  # other users untouched


def test_set_embeddings_replaces_vectors(store: GraphStore) -> None:
    mems = [mem("ada", f"m{i}") for i in range(4)]
    store.write("ada", WriteBatch(memories=mems, embeddings=unit_vectors(4, seed=1)))
    theirs = mem("bob", "theirs")
    store.write("bob", WriteBatch(memories=[theirs], embeddings=unit_vectors(1, seed=3)))
    new = unit_vectors(4, seed=2)
    ids = [m.id for m in mems]
    assert store.set_embeddings("ada", [*ids, theirs.id], np.vstack([new, new[:1]]), "model-2") == 4
    got_ids, matrix = store.embeddings("ada", EVERYTHING)
    order = [got_ids.index(i) for i in ids]
    assert np.allclose(matrix[order], new, atol=1e-5)
    assert {m.embedding_model for m in store.get_memories("ada", ids)} == {"model-2"}
    want = exact_top_k(new, ids, new[2], 2)
    assert [h[0] for h in store.vector_search("ada", new[2], 2)] == [w[0] for w in want]
    assert store.get_memories("bob", [theirs.id])[0].embedding_model != "model-2"
    with pytest.raises(ValidationError):
        store.set_embeddings("ada", ids, new[:2], "model-3")
    assert store.set_embeddings("ada", [], np.zeros((0, new.shape[1]), dtype=np.float32), "m") == 0
