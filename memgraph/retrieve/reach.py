"""A memory only the walk reached: its graph evidence counts as far as its own meaning is near the query's.

A candidate that no seed list found (no vector hit, no full-text hit, none inside a named tag) is in the pool
only for its cascade activation: it is the next turn of a good seed, or shares a rare tag with one. The walk
cannot tell a neighbour that carries the topic on ("Edinburgh would be great": the reply rule lifts those)
from one that leaves it ("See ya!", the greeting after the answer, the other speaker's chit-chat), and the
cue factor then lifts both alike. The memory's own cosine to the query can: a walk-only candidate below
`Settings.walk_cosine_floor` has its relevance x (1 - `walk_cosine_slope` x (floor - cosine)), clipped to
[0, 1]. It only ever lowers, and only memories the lists missed; seeds keep their score. On LoCoMo dev the
walk-only memories in the top 10 were evidence 38 times in 1,536 (2.5%), the seeds 734 in 6,062 (12%).

One store read (`GraphStore.similarities`, the cosines of the walk-only candidates: SQLite answers it from its
normalised vectors in memory, the Cypher stores in one statement), the same on every store. Cascade recall
only: hybrid has no walk. Measured on LoCoMo dev: see `Settings.walk_cosine_floor`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

import numpy as np

from memgraph.store.base import GraphStore


def walk_factors(
    store: GraphStore,
    user_id: str,
    walked: Iterable[str],
    seeds: Collection[str],
    qvec: np.ndarray,
    floor: float,
    slope: float,
) -> dict[str, float]:
    """{memory id: factor < 1} for the candidates in `walked` that are not in `seeds` and whose cosine to the
    query is below `floor`: 1 - slope x (floor - cosine), at least 0. The others are left out (factor 1)."""
    if slope <= 0.0:
        return {}
    only = [mid for mid in walked if mid not in seeds]
    if not only:
        return {}
    cos = store.similarities(user_id, only, qvec)
    return {mid: max(0.0, 1.0 - slope * (floor - c)) for mid, c in cos.items() if c < floor}
