"""`expand` on SQLite: the capped neighbours of a breadth-first frontier, one SQL query per hop and kind of
node for the whole frontier. The walk itself (paths, depths, one result per seed and memory) is
memgraph.store.traverse, shared with the Cypher stores, so every store returns the same expansions.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from memgraph.store.base import Expansion, MemoryFilter
from memgraph.store.sqlite.rows import MEMORY_EDGE_TYPES, chunks, where
from memgraph.store.traverse import Degrees, Neighbours, NodeKey, breadth_first

#: A tag/cluster with more members than this is walked in index order instead of sorting all its members.
HUB_SORT_LIMIT = 500

#: The store's reader: (sql, parameters) -> rows.
Read = Callable[[str, Sequence[Any]], list[sqlite3.Row]]


def expand(
    read: Read,
    user_id: str,
    seeds: Sequence[str],
    *,
    max_depth: int,
    fanout_cap: int,
    weights: dict[str, float],
    flt: MemoryFilter | None = None,
) -> list[Expansion]:
    """`GraphStore.expand` over the store's reader: breadth-first, one SQL query per hop for all seeds."""
    clause, wparams = where(flt, alias="m")
    degrees: Degrees = {}
    return breadth_first(
        seeds,
        max_depth=max_depth,
        weights=weights,
        neighbours=lambda nodes, to_groups: neighbours(
            read,
            user_id,
            nodes,
            fanout_cap,
            clause,
            wparams,
            to_groups=to_groups,
            degrees=degrees,
            discovered=weights.get("RelatesTo:discovered", 1.0),
        ),
    )


def group_degrees(read: Read, user_id: str, kind: str, names: Sequence[str], cache: Degrees) -> None:
    """Members of each tag/cluster (one index range count per name, each counted once per expand)."""
    rel = "HasTag" if kind == "t" else "InCluster"
    todo = sorted({n for n in names if (kind, n) not in cache})
    for chunk in chunks(todo, 300):
        rows = read(
            f"SELECT dst, COUNT(*) FROM edges INDEXED BY edges_in WHERE user_id = ? AND type = ? "
            f"AND dst IN ({','.join('?' * len(chunk))}) GROUP BY dst",
            [user_id, rel, *chunk],
        )
        cache.update({(kind, r[0]): int(r[1]) for r in rows})
        cache.update({(kind, n): 0 for n in chunk if (kind, n) not in cache})


def neighbours(
    read: Read,
    user_id: str,
    nodes: set[NodeKey],
    cap: int,
    clause: str,
    wparams: list[Any],
    *,
    to_groups: bool = True,
    degrees: Degrees | None = None,
    discovered: float = 1.0,
) -> tuple[Neighbours, Degrees]:
    """Capped neighbours of each frontier node, and the member count (degree) of each tag/cluster seen:
    the cascade passes less activation through hubs. `degrees` is a cache shared by one expand."""
    degrees = {} if degrees is None else degrees
    mem_ids = [n[1] for n in nodes if n[0] == "m"]
    tag_names = [n[1] for n in nodes if n[0] == "t"]
    cluster_ids = [n[1] for n in nodes if n[0] == "c"]
    out: Neighbours = {}

    def add(src: NodeKey, rel: str, dst: NodeKey, w: float) -> None:
        out.setdefault(src, []).append((rel, dst, w))

    for chunk in chunks(mem_ids, 300):
        marks = ",".join("?" * len(chunk))
        if to_groups:
            # Memory -> tags / clusters: the most specific first (fewest members), `cap` of them: they say
            # the most about a memory, and BFS then reaches a neighbour through the rarest thing shared.
            rows = read(
                f"SELECT src, type, dst, weight FROM edges WHERE +user_id = ? "
                f"AND +type IN ('HasTag', 'InCluster') AND src IN ({marks})",
                [user_id, *chunk],
            )
            groups = [(r[0], r[1], ("t" if r[1] == "HasTag" else "c", r[2]), float(r[3])) for r in rows]
            for kind in ("t", "c"):
                group_degrees(read, user_id, kind, [g[2][1] for g in groups if g[2][0] == kind], degrees)
            per_src: dict[str, list[tuple[str, NodeKey, float]]] = {}
            for src, rel, dst, w in groups:
                per_src.setdefault(src, []).append((rel, dst, w))
            for src, edges in per_src.items():
                edges.sort(key=lambda e: (degrees.get(e[1], 0), -e[2], e[1][1]))
                for rel, dst, w in edges[:cap]:
                    add(("m", src), rel, dst, w)
        # Memory -> memories (both directions), the strongest edges first; the memory must pass the filter.
        # Discovered similarity links count `discovered` of their weight (see Settings.relation_weights).
        scale = "(CASE WHEN e.type = 'RelatesTo' AND e.source = 'discovered' THEN ? ELSE 1.0 END)"
        rows = read(
            f"SELECT node, type, other, weight FROM ("
            f"  SELECT x.node, x.type, x.other, x.weight, ROW_NUMBER() OVER ("
            f"    PARTITION BY x.node ORDER BY x.weight DESC, m.importance DESC, x.other, x.type) AS rn"
            f"  FROM (SELECT e.src AS node, e.type, e.dst AS other, e.weight * {scale} AS weight"
            f"        FROM edges e INDEXED BY edges_src"
            f"        WHERE e.user_id = ? AND e.type IN ({MEMORY_EDGE_TYPES}) AND e.src IN ({marks})"
            f"        UNION ALL"
            f"        SELECT e.dst AS node, e.type, e.src AS other, e.weight * {scale} AS weight"
            f"        FROM edges e INDEXED BY edges_dst"
            f"        WHERE e.user_id = ? AND e.type IN ({MEMORY_EDGE_TYPES}) AND e.dst IN ({marks})) x"
            # CROSS JOIN fixes the loop order: the few edges outside, memories looked up by id inside
            f"  CROSS JOIN memories m WHERE m.id = x.other AND m.user_id = ? AND {clause}"
            f") WHERE rn <= ? ORDER BY node, rn",
            [discovered, user_id, *chunk, discovered, user_id, *chunk, user_id, *wparams, cap],
        )
        for r in rows:
            add(("m", r[0]), r[1], ("m", r[2]), r[3])
    # Tag / cluster -> members that pass the filter, `cap` of them. Small groups: the most important and
    # most recently used first. Hubs (more than HUB_SORT_LIMIT members): the first `cap` in index order,
    # so a tag on every memory costs `cap` row reads, not a sort of all its members.
    for kind, names, rel in (("t", tag_names, "HasTag"), ("c", cluster_ids, "InCluster")):
        group_degrees(read, user_id, kind, names, degrees)
        small = [n for n in names if degrees.get((kind, n), 0) <= HUB_SORT_LIMIT]
        hubs = [n for n in names if degrees.get((kind, n), 0) > HUB_SORT_LIMIT]
        for chunk in chunks(small, 300):
            marks = ",".join("?" * len(chunk))
            rows = read(
                f"SELECT dst, src, weight FROM ("
                f"  SELECT e.dst, e.src, e.weight, ROW_NUMBER() OVER ("
                f"    PARTITION BY e.dst ORDER BY m.importance DESC, m.last_accessed DESC, e.src) AS rn"
                f"  FROM edges e INDEXED BY edges_in CROSS JOIN memories m"
                f"  WHERE e.user_id = ? AND e.type = ? AND e.dst IN ({marks})"
                f"  AND m.id = e.src AND m.user_id = e.user_id AND {clause}"
                f") WHERE rn <= ? ORDER BY dst, rn",
                [user_id, rel, *chunk, *wparams, cap],
            )
            for r in rows:
                add((kind, r[0]), rel, ("m", r[1]), r[2])
        for name in hubs:
            rows = read(
                f"SELECT e.src, e.weight FROM edges e INDEXED BY edges_in CROSS JOIN memories m "
                f"WHERE e.user_id = ? AND e.type = ? AND e.dst = ? "
                f"AND m.id = e.src AND m.user_id = e.user_id AND {clause} LIMIT ?",
                [user_id, rel, name, *wparams, cap],
            )
            for r in rows:
                add((kind, name), rel, ("m", r[0]), r[1])
    return out, degrees
