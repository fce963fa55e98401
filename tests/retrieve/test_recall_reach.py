"""Cascade recall: a memory only the walk reached is gated by its own cosine to the query (retrieve/reach.py)."""

from __future__ import annotations

import pytest

from memgraph.embed import CachedEmbedder
from tests.retrieve.conftest import make_engine


def test_a_walk_only_goodbye_gives_way_to_what_the_lists_found(embedder: CachedEmbedder) -> None:
    """The goodbye after the answer shares no word or meaning with the query and is reached only through its
    sequence link: its graph evidence counts less; what the lists found keeps its score."""
    turns = [
        {"content": "Tim: I finally booked the trip, we are flying to Lisbon in May.", "session_id": "s1"},
        {"content": "John: Anyway, gotta run, see ya!", "session_id": "s1"},
        {"content": "John: Tim told me the flights to Lisbon were cheap in May.", "session_id": "s2"},
    ]
    scores = {}
    for slope in (0.0, 1.0):
        eng = make_engine(embedder, recall_maintenance=False, walk_cosine_slope=slope)
        try:
            ids = [m.id for m in eng.remember_many(turns, user_id="u")]
            res = eng.recall("Where is Tim flying to?", user_id="u", top_k=10, mode="cascade")
            final = {t.memory_id: t.final_score for t in res.trace}
            walk_only = {t.memory_id for t in res.trace if t.seed_rank is None}
            scores[slope] = (ids, final, walk_only)
        finally:
            eng.close()
    ids, off, walk_only = scores[0.0]
    _, on, _ = scores[1.0]
    goodbye = ids[1]
    assert goodbye in walk_only
    assert on[goodbye] < off[goodbye]  # gated
    for mid in set(on) - walk_only:
        assert on[mid] == pytest.approx(off[mid], rel=1e-4)  # seeds untouched (the recency boost ticks on)
