"""`retrieve.reach.walk_factors` (cascade recall's gate on memories only the walk reached) reads cosines through
the store API: the same factors on every store."""

from __future__ import annotations

import pytest

from memgraph.embed import CachedEmbedder
from memgraph.retrieve.reach import walk_factors
from memgraph.store import GraphStore

from .helpers import cosine, write_turns

TURNS = [
    "Tim: Edinburgh, Scotland would be great for a magical vibe.",
    "John: Scotland sounds lovely, we could visit the castles there.",
    "John: Anyway, see ya later!",
]


def test_walk_factors_on_every_store(store: GraphStore, embedder: CachedEmbedder) -> None:
    ids, vectors, qvec = write_turns(store, embedder, TURNS, "What city did Tim suggest for the trip?")
    cos = [cosine(v, qvec) for v in vectors]
    floor = (cos[1] + cos[2]) / 2  # the goodbye below it, the reply about Scotland above
    assert cos[2] < floor < cos[1]
    got = walk_factors(store, "u", ids, {ids[0]}, qvec, floor, 1.0)
    # the seed keeps its score whatever its cosine; a walk-only memory near the query too; the far one loses
    assert got == {ids[2]: pytest.approx(1.0 - (floor - cos[2]), rel=1e-6)}
    # the factor never goes below 0, and slope 0 turns the gate off
    assert walk_factors(store, "u", ids, set(), qvec, 1.0, 100.0) == {mid: 0.0 for mid in ids}
    assert walk_factors(store, "u", ids, set(), qvec, floor, 0.0) == {}
