"""The breadth-first bookkeeping of `GraphStore.expand` on the Cypher stores (Neo4j, FalkorDB).

The store answers one question per hop, inside the database (Cypher): "which neighbours of these
nodes, at most `fanout_cap` per node, pass the filter?" (memories: heaviest edge first; tags/clusters: the
rarest first; members of a tag/cluster: the most important first), plus the member count (degree) of each
tag/cluster it reached. This module walks the hops and keeps, per (seed, memory), the first (so shortest)
path. SQLite runs the same rules over its in-memory adjacency arrays (store/sqlite/csr.py);
tests/conformance/test_expand_parity.py checks that all three stores return the same expansions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from memgraph.models import Relation, TraceStep
from memgraph.store.base import Expansion

#: A node of the cascade: ("m", memory id), ("t", tag name) or ("c", cluster id).
NodeKey = tuple[str, str]
#: node -> [(relation, neighbour, weight)], in the store's ranking order.
Neighbours = dict[NodeKey, list[tuple[str, NodeKey, float]]]
#: tag/cluster node -> how many memories carry the tag / are in the cluster.
Degrees = dict[NodeKey, int]
#: relation, via, weight, degree: a TraceStep as a plain tuple (pydantic objects only for the result).
_Step = tuple[str, str, float, int | None]


def breadth_first(
    seeds: Sequence[str],
    *,
    max_depth: int,
    weights: dict[str, float],
    neighbours: Callable[[set[NodeKey], bool], tuple[Neighbours, Degrees]],
) -> list[Expansion]:
    """Expansions of every memory reachable from the seeds within `max_depth` hops (Memory-Tag-Memory is two).

    `neighbours(nodes, to_groups)` runs one capped, filtered hop in the store; at the last hop `to_groups` is
    False (only memories count there, so the edges to tags and clusters need not be fetched). Each step
    carries the relation's weight from `weights` (key "other", else 0.3, when absent); RelatesTo carries the
    edge's own weight. Another seed is a valid expansion of a seed; the seed itself is not.
    """
    seed_list = list(dict.fromkeys(seeds))
    frontier: dict[tuple[str, NodeKey], tuple[_Step, ...]] = {(s, ("m", s)): () for s in seed_list}
    visited: set[tuple[str, NodeKey]] = set(frontier)
    found: dict[tuple[str, str], tuple[int, tuple[_Step, ...]]] = {}
    other_weight = weights.get("other", 0.3)
    for depth in range(1, max_depth + 1):
        nodes = {node for (_, node) in frontier}
        hop, degrees = neighbours(nodes, depth != max_depth)
        nxt: dict[tuple[str, NodeKey], tuple[_Step, ...]] = {}
        for (seed, node), path in frontier.items():
            for rel, other, weight in hop.get(node, []):
                state = (seed, other)
                if state in visited:
                    continue
                visited.add(state)
                w = float(weight) if rel == Relation.RELATES_TO.value else weights.get(rel, other_weight)
                if other[0] == "m":
                    step: _Step = (rel, other[1], w, None)
                else:
                    label = "tag" if other[0] == "t" else "cluster"
                    step = (rel, f"{label}:{other[1]}", w, degrees.get(other))
                step_path = (*path, step)
                nxt[state] = step_path
                if other[0] == "m" and other[1] != seed:
                    found.setdefault((seed, other[1]), (depth, step_path))
        frontier = nxt
        if not frontier:
            break
    # model_construct: built by the thousand per recall from values made right here; steps are shared
    # between paths (one object per distinct step)
    steps: dict[_Step, TraceStep] = {}

    def step_of(st: _Step) -> TraceStep:
        obj = steps.get(st)
        if obj is None:
            obj = steps[st] = TraceStep.model_construct(relation=st[0], via=st[1], weight=st[2], degree=st[3])
        return obj

    return [
        Expansion.model_construct(memory_id=mid, seed_id=seed, depth=depth, path=[step_of(st) for st in path])
        for (seed, mid), (depth, path) in found.items()
    ]
