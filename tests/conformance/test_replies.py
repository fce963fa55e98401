"""`retrieve.replies.reply_factors` (cascade recall's lift for a reply to a question like the query's) reads
links, memories and vectors through the store API: the same factors on every store."""

from __future__ import annotations

import pytest

from memgraph.embed import CachedEmbedder
from memgraph.models import Link, LinkSource, Relation
from memgraph.retrieve.replies import reply_factors
from memgraph.store import GraphStore, WriteBatch

from .helpers import cosine, turns

TURNS = [
    "John: We're still deciding on the destination. Do you have any suggestions?",
    "Tim: Edinburgh, Scotland would be great for a magical vibe.",
    "John: Thanks, I will look into it with the team.",
    "Tim: Have you been to Scotland before?",
]


def test_reply_factors_on_every_store(store: GraphStore, embedder: CachedEmbedder) -> None:
    mems = turns("u", TURNS)
    ids = [m.id for m in mems]
    links = [
        Link(src=ids[i], dst=ids[i + 1], relation=Relation.RELATES_TO, weight=0.5, source=LinkSource.SEQUENCE)
        for i in range(len(ids) - 1)
    ]
    # a similarity link out of a question is no reply
    links.append(Link(src=ids[3], dst=ids[0], relation=Relation.RELATES_TO, weight=0.5, source=LinkSource.DISCOVERED))
    vectors = embedder.encode(TURNS)
    store.write("u", WriteBatch(memories=mems, embeddings=vectors, links=links))
    qvec = embedder.encode(["What city did Tim suggest for the trip?"])[0]
    cos = cosine(vectors[0], qvec)
    got = reply_factors(store, "u", {m.id: m for m in mems}, qvec, 0.15)
    # ids[1] follows a question; ids[2] follows a statement; ids[0] is reached from a question only by similarity
    assert got == {ids[1]: pytest.approx(1 + 0.15 * cos, rel=1e-6)}
    # a reply outside the candidates, or a question outside them, lifts nothing
    assert reply_factors(store, "u", {m.id: m for m in mems[1:]}, qvec, 0.15) == {}
    assert reply_factors(store, "u", {m.id: m for m in mems}, qvec, 0.0) == {}
