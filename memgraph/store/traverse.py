"""The breadth-first bookkeeping of `GraphStore.expand`, shared by every store.

A store answers one question per hop, inside the database (SQL or Cypher): "which neighbours of these
nodes, at most `fanout_cap` per node, pass the filter?". This module walks the hops and keeps, per (seed,
memory), the first (so shortest) path. Sharing it means SQLite, Neo4j and FalkorDB return the same
expansions for the same graph: only the neighbour queries differ.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from memgraph.models import Relation, TraceStep
from memgraph.store.base import Expansion

#: A node of the cascade: ("m", memory id), ("t", tag name) or ("c", cluster id).
NodeKey = tuple[str, str]
#: node -> [(relation, neighbour, weight)], in the store's ranking order.
Neighbours = dict[NodeKey, list[tuple[str, NodeKey, float]]]


def breadth_first(
    seeds: Sequence[str],
    *,
    max_depth: int,
    weights: dict[str, float],
    neighbours: Callable[[set[NodeKey]], Neighbours],
) -> list[Expansion]:
    """Expansions of every memory reachable from the seeds within `max_depth` hops (Memory-Tag-Memory is two).

    `neighbours(nodes)` runs one capped, filtered hop in the store. Each step carries the relation's weight
    from `weights` (0.3 when absent); RelatesTo carries the edge's own weight.
    """
    seed_list = list(dict.fromkeys(seeds))
    seed_set = set(seed_list)
    frontier: dict[tuple[str, NodeKey], list[TraceStep]] = {(s, ("m", s)): [] for s in seed_list}
    visited: set[tuple[str, NodeKey]] = set(frontier)
    found: dict[tuple[str, str], Expansion] = {}
    for depth in range(1, max_depth + 1):
        if not frontier:
            break
        hop = neighbours({node for (_, node) in frontier})
        nxt: dict[tuple[str, NodeKey], list[TraceStep]] = {}
        for (seed, node), path in frontier.items():
            for rel, other, weight in hop.get(node, []):
                state = (seed, other)
                if state in visited:
                    continue
                visited.add(state)
                w = float(weight) if rel == Relation.RELATES_TO.value else weights.get(rel, 0.3)
                via = other[1] if other[0] == "m" else f"{'tag' if other[0] == 't' else 'cluster'}:{other[1]}"
                step_path = [*path, TraceStep(relation=rel, via=via, weight=w)]
                nxt[state] = step_path
                if other[0] == "m" and other[1] not in seed_set:
                    found.setdefault(
                        (seed, other[1]),
                        Expansion(memory_id=other[1], seed_id=seed, depth=depth, path=step_path),
                    )
        frontier = nxt
    return list(found.values())
