"""`GraphStore.sequence_pairs` and `GraphStore.similarities`: the reads recall's reply rule makes (retrieve/
replies.py). Every store answers alike, keeps to the owner, and follows writes, deletions and erasure (SQLite
from its read structures in memory, which must catch up with each change)."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph.errors import ValidationError
from memgraph.models import Link, LinkSource, Relation
from memgraph.store import GraphStore, WriteBatch

from .helpers import mem, unit_vectors


def _seq(src: str, dst: str, source: LinkSource = LinkSource.SEQUENCE) -> Link:
    return Link(src=src, dst=dst, relation=Relation.RELATES_TO, weight=0.5, source=source)


def test_sequence_pairs_are_the_sequence_links_among_the_ids_and_follow_every_change(store: GraphStore) -> None:
    mems = [mem("u", f"turn {i} of the session", minutes=i) for i in range(6)]
    a, b, c, d, e, f = (m.id for m in mems)
    links = [
        _seq(a, b),
        _seq(b, c),
        _seq(c, d),
        _seq(a, c, LinkSource.DISCOVERED),  # a RelatesTo that is not a sequence link
        Link(src=d, dst=e, relation=Relation.SUPERSEDES, weight=1.0),  # another relation
    ]
    store.write("u", WriteBatch(memories=mems, embeddings=unit_vectors(6), links=links))
    # another user's memories with the same text and a sequence link: never returned
    twins = [mem("v", f"turn {i} of the session", minutes=i) for i in range(2)]
    store.write("v", WriteBatch(memories=twins, embeddings=unit_vectors(2), links=[_seq(twins[0].id, twins[1].id)]))

    assert store.sequence_pairs("u", [a, b, c, d, e, f]) == sorted([(a, b), (b, c), (c, d)])
    # both ends must be among the ids, in any order, repeats ignored
    assert store.sequence_pairs("u", [d, b, a, b]) == [(a, b)]
    assert store.sequence_pairs("u", [a, c, e]) == []
    assert store.sequence_pairs("u", []) == []
    assert store.sequence_pairs("u", [twins[0].id, twins[1].id]) == []
    assert store.sequence_pairs("v", [twins[0].id, twins[1].id]) == [(twins[0].id, twins[1].id)]
    assert store.sequence_pairs("nobody", [a, b]) == []

    # a link written later, one deleted, a memory erased: the next read sees each
    store.upsert_links("u", [_seq(e, f)])
    assert store.sequence_pairs("u", [e, f]) == [(e, f)]
    store.delete_links("u", [(b, c, Relation.RELATES_TO)])
    assert store.sequence_pairs("u", [a, b, c, d]) == sorted([(a, b), (c, d)])
    store.erase_memories("u", [a])
    assert store.sequence_pairs("u", [a, b, c, d]) == [(c, d)]
    # a memory written after its previous turn (the way a conversation is remembered turn by turn)
    g = mem("u", "turn 6 of the session", minutes=6)
    store.write("u", WriteBatch(memories=[g], embeddings=unit_vectors(1, seed=3), links=[_seq(f, g.id)]))
    assert store.sequence_pairs("u", [d, e, f, g.id]) == sorted([(e, f), (f, g.id)])


def test_similarities_are_the_cosines_of_the_users_memories(store: GraphStore) -> None:
    vecs = unit_vectors(4, seed=5)
    vecs[2] *= 3.0  # a stored vector need not be normalised: the cosine is
    mems = [mem("u", f"memory {i}", minutes=i) for i in range(4)]
    store.write("u", WriteBatch(memories=mems, embeddings=vecs))
    other = mem("v", "memory 0", minutes=0)
    store.write("v", WriteBatch(memories=[other], embeddings=unit_vectors(1, seed=9)))
    q = unit_vectors(1, seed=7)[0] * 2.0
    ids = [m.id for m in mems]

    got = store.similarities("u", [ids[2], ids[0], "missing", ids[0]], q)
    want = {
        ids[i]: float(vecs[i].astype(np.float64) @ q / (np.linalg.norm(vecs[i].astype(np.float64)) * np.linalg.norm(q)))
        for i in (0, 2)
    }
    assert set(got) == set(want)
    for mid, cos in want.items():
        assert got[mid] == pytest.approx(cos, abs=1e-7)
    assert store.similarities("u", [ids[1]], vecs[1])[ids[1]] == pytest.approx(1.0, abs=1e-6)
    assert store.similarities("u", [], q) == {}
    # another user's memory (same id text, other owner) is not read through this user
    assert store.similarities("nobody", ids, q) == {}
    assert store.similarities("v", [other.id], q) == {
        other.id: pytest.approx(float(unit_vectors(1, seed=9)[0] @ q / np.linalg.norm(q)), abs=1e-7)
    }
    store.erase_memories("u", [ids[0]])
    assert set(store.similarities("u", ids, q)) == {ids[1], ids[2], ids[3]}
    with pytest.raises(ValidationError):
        store.similarities("u", ids, np.full(q.shape, np.nan))
    with pytest.raises(ValidationError):
        store.similarities("u", ids, q[:10])
    with pytest.raises(ValidationError):
        store.similarities("u", [], np.full(q.shape, np.inf))
