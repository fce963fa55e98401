"""`expand`'s breadth-first walk over one user's graph arrays (adjacency.py).

The walk is the definition in `GraphStore.expand` (memgraph/store/base.py), the one the Cypher stores run
through memgraph.store.traverse.breadth_first: the same capped, ordered neighbours per node and the same
first-found path per (seed, memory). Here each hop is array operations over the whole frontier: gather the
frontier nodes' lists, rank them per node (np.lexsort on numeric keys; ties broken by id/name in Python only
for tie runs that reach the cap; a tag's members come ranked from `UserGraph.member_order`), drop visited
(seed, node) states and keep each new state's first occurrence. Paths are parent pointers, turned into trace
steps only for the memories found.
tests/conformance/test_expand_parity.py checks that this walk, FalkorDB's and Neo4j's agree on random graphs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import numpy as np
from pydantic import BaseModel

from memgraph.models import TraceStep
from memgraph.store.sqlite import compiled_walk
from memgraph.store.sqlite.adjacency import (
    CLUSTER,
    HAS_TAG,
    IN_CLUSTER,
    REL_NAMES,
    RELATES_TO,
    TAG,
    UserGraph,
    ranked_top,
    run_starts,
)
from memgraph.store.sqlite.columns import IdsAt, prefix_keys
from memgraph.store.traverse import ExpansionTable

#: A tag/cluster with more members than this has its members pre-selected by importance (np.partition)
#: before the exact ranking: a hub of 50k members then costs a partition, not a sort.
_PRESELECT = 256


def expand_table(
    graph: UserGraph,
    ids: list[str],
    index: dict[str, int],
    importance: np.ndarray,
    last_accessed: np.ndarray,
    passing: np.ndarray,
    seeds: Sequence[str],
    *,
    max_depth: int,
    fanout_cap: int,
    weights: dict[str, float],
    id_key: np.ndarray | None = None,
    ranked_members: bool = False,
    codes: Mapping[str, int] | None = None,
) -> ExpansionTable:
    """`GraphStore.expand_table` over the arrays. `passing` is the filter as a mask over rows; `ids`, `index`,
    `importance` and `last_accessed` are the user's columns; `id_key` their ids' prefix keys (columns.py; made
    here when not given). `ranked_members`: read a group's ranked members from the graph's cache
    (`UserGraph.member_order`), valid only when these are the columns the graph's owner keeps it in step with.
    `codes`: `index` as the table's id -> code map, when nothing changes it while the table is read (the
    columns' own index: rows are only ever added, never renumbered)."""
    seed_ids = [s for s in dict.fromkeys(seeds) if s in index]
    if id_key is None:
        id_key = prefix_keys(ids)
    if not seed_ids or max_depth <= 0 or fanout_cap <= 0:
        return ExpansionTable.empty()
    cap = int(fanout_cap)
    discovered = float(weights.get("RelatesTo:discovered", 1.0))
    n_keys = 2 * max(len(ids), len(graph.group_names)) + 2
    jit = compiled_walk.kernels() if ranked_members else None
    if jit is not None:
        states = jit.walk(
            graph,
            ids,
            importance,
            passing,
            id_key,
            np.array([index[s] for s in seed_ids], dtype=np.int64),
            max_depth,
            cap,
            discovered,
            n_keys,
            _HEAD * cap,
            lambda groups: _member_picks(graph, groups, ids, importance, last_accessed, passing, id_key, cap),
        )
        if states is None:
            return ExpansionTable.empty()
        compiled = _table(graph, ids, seed_ids, weights, codes, *states)
        compiled.noisy_or = jit.noisy_or
        return compiled
    # the states: (seed position, kind 0 memory / 1 group, node, parent state, relation, weight, degree)
    st_seed = [np.arange(len(seed_ids), dtype=np.int64)]
    st_kind = [np.zeros(len(seed_ids), dtype=np.int64)]
    st_node = [np.array([index[s] for s in seed_ids], dtype=np.int64)]
    st_parent = [np.full(len(seed_ids), -1, dtype=np.int64)]
    st_rel = [np.full(len(seed_ids), -1, dtype=np.int64)]
    st_w = [np.zeros(len(seed_ids), dtype=np.float64)]
    st_deg = [np.full(len(seed_ids), -1, dtype=np.int64)]
    st_depth = [np.zeros(len(seed_ids), dtype=np.int64)]
    visited = st_seed[0] * n_keys + st_node[0] * 2
    count = len(seed_ids)
    frontier = np.arange(len(seed_ids), dtype=np.int64)
    found: list[np.ndarray] = []
    f_seed, f_kind, f_node = st_seed[0], st_kind[0], st_node[0]
    for depth in range(1, max_depth + 1):
        table = _hop(
            graph,
            ids,
            importance,
            last_accessed,
            passing,
            f_kind,
            f_node,
            cap,
            depth != max_depth,
            discovered,
            id_key,
            ranked_members,
        )
        if table is None:
            break
        t_key, t_rel, t_okind, t_onode, t_w, t_deg = table
        if not len(t_key):
            break
        # each frontier state takes its node's list (the table comes sorted by owner key: its runs are the lists)
        starts = np.flatnonzero(run_starts(t_key))
        uniq, counts = t_key[starts], np.diff(starts, append=len(t_key))
        f_key = f_node * 2 + f_kind
        j = np.searchsorted(uniq, f_key)
        j_ok = np.minimum(j, len(uniq) - 1)
        hit = (j < len(uniq)) & (uniq[j_ok] == f_key)
        lens = np.where(hit, counts[j_ok], 0)
        total = int(lens.sum())
        if not total:
            break
        parent_pos = np.repeat(np.arange(len(frontier)), lens)
        offsets = np.cumsum(lens) - lens
        lst = np.arange(total, dtype=np.int64) - np.repeat(offsets - starts[j_ok], lens)
        c_seed = f_seed[parent_pos]
        c_kind, c_node = t_okind[lst], t_onode[lst]
        c_key = c_seed * n_keys + c_node * 2 + c_kind
        keep = _first_unvisited(visited, c_key)
        if not len(keep):
            break
        visited = np.concatenate([visited, c_key[keep]])
        new_ids = count + np.arange(len(keep), dtype=np.int64)
        count += len(keep)
        st_seed.append(c_seed[keep])
        st_kind.append(c_kind[keep])
        st_node.append(c_node[keep])
        st_parent.append(frontier[parent_pos[keep]])
        st_rel.append(t_rel[lst[keep]])
        st_w.append(t_w[lst[keep]])
        st_deg.append(t_deg[lst[keep]])
        st_depth.append(np.full(len(keep), depth, dtype=np.int64))
        found.append(new_ids[c_kind[keep] == 0])
        frontier = new_ids
        f_seed, f_kind, f_node = st_seed[-1], st_kind[-1], st_node[-1]
    if not found:
        return ExpansionTable.empty()
    return _table(
        graph,
        ids,
        seed_ids,
        weights,
        codes,
        np.concatenate(found),
        *(np.concatenate(a) for a in (st_seed, st_kind, st_node, st_parent, st_rel, st_w, st_deg, st_depth)),
    )


def _first_unvisited(visited: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Positions in `keys` of the first occurrence of each key not in `visited` (distinct keys), ascending: one
    stable sort of both together, where a run of equal keys starts with its visited key if there is one, else
    with the key's first occurrence; those positions marked on a mask and read back in order. (A binary search in
    the sorted visited keys, then `np.unique` of the fresh ones and a sort of their positions: three sorts for
    the same; a sort of the positions instead of the mask: ~30% more.)"""
    both = np.concatenate([visited, keys])
    order = np.argsort(both, kind="stable")
    first = order[run_starts(both[order])] - len(visited)
    fresh = np.zeros(len(keys), dtype=bool)
    fresh[first[first >= 0]] = True
    out: np.ndarray = np.flatnonzero(fresh)
    return out


def _hop(
    graph: UserGraph,
    ids: list[str],
    importance: np.ndarray,
    last_accessed: np.ndarray,
    passing: np.ndarray,
    f_kind: np.ndarray,
    f_node: np.ndarray,
    cap: int,
    to_groups: bool,
    discovered: float,
    id_key: np.ndarray,
    ranked_members: bool = False,
) -> tuple[np.ndarray, ...] | None:
    """The capped, ordered neighbour lists of the frontier's distinct nodes, as one table sorted by owner key
    (node * 2 + kind): (owner key, relation, other kind, other node, weight, degree). A memory's list is its
    tags/clusters (when `to_groups`) and then its linked memories; a group's list is its members."""
    parts: list[tuple[np.ndarray, ...]] = []
    mem_nodes = _distinct(f_node[f_kind == 0], len(passing))
    grp_nodes = _distinct(f_node[f_kind == 1], len(graph.group_names))
    if len(mem_nodes) and to_groups:
        pos, (gid, w) = graph.to_groups.gather(mem_nodes)
        deg = graph.degree(gid)
        names = graph.group_names
        keep = ranked_top(
            pos, [deg, -w, graph.group_key[gid]], lambda seg: [names[g] for g in gid[seg].tolist()], cap
        )
        kinds = graph.group_kind[gid[keep]].astype(np.int64)
        parts.append(
            (
                mem_nodes[pos[keep]] * 2,
                np.where(kinds == TAG, HAS_TAG, IN_CLUSTER),
                np.ones(len(keep), dtype=np.int64),
                gid[keep],
                w[keep],
                deg[keep],
            )
        )
    if len(mem_nodes):
        pos, (other, rel, w, disc) = graph.links.gather(mem_nodes)
        ok = passing[other]
        pos, other, rel, w, disc = pos[ok], other[ok], rel[ok].astype(np.int64), w[ok], disc[ok]
        w = np.where(disc & (rel == RELATES_TO), w * discovered, w)
        keep = ranked_top(
            pos,
            [-w, -importance[other], id_key[other]],
            lambda seg: [(ids[o], r) for o, r in zip(other[seg].tolist(), rel[seg].tolist(), strict=True)],
            cap,
        )
        parts.append(
            (
                mem_nodes[pos[keep]] * 2,
                rel[keep],
                np.zeros(len(keep), dtype=np.int64),
                other[keep],
                w[keep],
                np.full(len(keep), -1, dtype=np.int64),
            )
        )
    if len(grp_nodes) and ranked_members:
        pos, row = _member_picks(graph, grp_nodes, ids, importance, last_accessed, passing, id_key, cap)
        keep = np.arange(len(pos))
    elif len(grp_nodes):
        pos, (row,) = graph.members.gather(grp_nodes)
        ok = passing[row]
        pos, row = pos[ok], row[ok]
        pos, row = _preselect(pos, row, importance, last_accessed, cap)
        keep = ranked_top(
            pos,
            [-importance[row], -last_accessed[row], id_key[row]],
            lambda seg: [ids[r] for r in row[seg].tolist()],
            cap,
        )
    if len(grp_nodes):
        kinds = graph.group_kind[grp_nodes[pos[keep]]].astype(np.int64)
        parts.append(
            (
                grp_nodes[pos[keep]] * 2 + 1,
                np.where(kinds == TAG, HAS_TAG, IN_CLUSTER),
                np.zeros(len(keep), dtype=np.int64),
                row[keep],
                np.ones(len(keep), dtype=np.float64),
                np.full(len(keep), -1, dtype=np.int64),
            )
        )
    if not parts:
        return None
    cols = [np.concatenate([p[i] for p in parts]) for i in range(6)]
    order = np.argsort(cols[0], kind="stable")  # per owner: its groups, then its links (the parts' order)
    return tuple(c[order] for c in cols)


def _member_picks(
    graph: UserGraph,
    grp_nodes: np.ndarray,
    ids: list[str],
    importance: np.ndarray,
    last_accessed: np.ndarray,
    passing: np.ndarray,
    id_key: np.ndarray,
    cap: int,
) -> tuple[np.ndarray, np.ndarray]:
    """(position in `grp_nodes`, row) of each group's first `cap` passing members in the walk's ranking, read
    from the graph's ranked lists (`ranked_members`)."""
    heads, lens = graph.member_heads(grp_nodes, ids, importance, last_accessed, id_key, _HEAD * cap)
    picked = _heads_passing(heads, lens, passing, cap)
    if picked is None:  # a list whose head holds fewer than `cap` passing rows: read the whole lists
        orders = graph.member_order(grp_nodes, ids, importance, last_accessed, id_key)
        picked = _first_passing(orders, passing, cap)
    return picked


def _distinct(nodes: np.ndarray, size: int) -> np.ndarray:
    """`np.unique` of node numbers below `size`, read off a mask (no sort: the walk asks twice a hop)."""
    seen = np.zeros(max(size, int(nodes.max(initial=-1)) + 1), dtype=bool)
    seen[nodes] = True
    out: np.ndarray = np.flatnonzero(seen)
    return out


#: Members read from the head of a group's ranked list before looking further: the walk keeps `fanout_cap` of
#: them that pass the filter, and recall's filter (active, not archived, important enough) passes most.
_HEAD = 4


def _heads_passing(
    heads: np.ndarray, lens: np.ndarray, passing: np.ndarray, cap: int
) -> tuple[np.ndarray, np.ndarray] | None:
    """`_first_passing` read from the lists' heads (`UserGraph.member_heads`: groups x head, -1 past a list's
    end) in a few array operations; None when a list longer than its head has fewer than `cap` passing rows
    in it (then the whole lists are read)."""
    # most often every listed row among each list's first `cap` passes (recall's filter passes nearly all): they
    # are the answer, read from a quarter of the heads
    first = heads[:, :cap]
    listed = first >= 0
    if passing[np.where(listed, first, 0)][listed].all():
        pos, col = np.nonzero(listed)
        return pos, first[pos, col].astype(np.int64)
    valid = heads >= 0
    ok = passing[np.where(valid, heads, 0)] & valid
    if ((np.count_nonzero(ok, axis=1) < cap) & (lens > heads.shape[1])).any():
        return None
    ok &= np.cumsum(ok, axis=1) <= cap
    pos, col = np.nonzero(ok)
    return pos, heads[pos, col].astype(np.int64)


def _first_passing(orders: list[np.ndarray], passing: np.ndarray, cap: int) -> tuple[np.ndarray, np.ndarray]:
    """(position in `orders`, row) of each ranked list's first `cap` rows that pass, lists in order: the same
    rows in the same order as ranking the passing members (`ranked_top`), without a sort. Reads the first
    `_HEAD` x cap of each list, then the whole of the lists whose head held fewer than `cap` passing rows."""
    head = _HEAD * cap
    lens = np.fromiter(map(len, orders), dtype=np.int64, count=len(orders))
    take = np.minimum(lens, head)
    rows = np.concatenate([o[:head] for o in orders]) if orders else np.zeros(0, dtype=np.int64)
    pos = np.repeat(np.arange(len(orders), dtype=np.int64), take)
    ok = passing[rows]
    short = np.flatnonzero((np.bincount(pos[ok], minlength=len(orders)) < cap) & (lens > take))
    if len(short):
        more = [orders[p][head:] for p in short.tolist()]
        extra_rows = np.concatenate(more)
        extra_pos = np.repeat(short, [len(m) for m in more])
        pos = np.concatenate([pos, extra_pos])
        rows = np.concatenate([rows, extra_rows])
        ok = np.concatenate([ok, passing[extra_rows]])
        order = np.argsort(pos, kind="stable")  # each list's head, then its rest: its ranked order
        pos, rows, ok = pos[order], rows[order], ok[order]
    pos, rows = pos[ok], rows[ok]
    if not len(pos):
        return pos, rows
    start = run_starts(pos)
    idx = np.arange(len(pos))
    rank = idx - np.maximum.accumulate(np.where(start, idx, 0))
    keep = rank < cap
    return pos[keep], rows[keep]


def _preselect(
    pos: np.ndarray, row: np.ndarray, importance: np.ndarray, last_accessed: np.ndarray, cap: int
) -> tuple[np.ndarray, np.ndarray]:
    """Within each group longer than _PRESELECT, keep only the members that can be among its first `cap` by
    (importance, last_accessed) descending: all more important than its `cap`-th most important one, and of
    those tied with it the ones at least as recent as the last one needed (ties kept; the id decides later).
    The ranking after it sorts about `cap` rows instead of a hub's members: with importance alone, a store
    whose memories share one importance (conversations: all 0.5) kept every member of every hub."""
    if len(pos) <= _PRESELECT:
        return pos, row
    bounds = np.flatnonzero(np.r_[True, pos[1:] != pos[:-1], True])
    least = max(_PRESELECT, cap)
    long = [(a, b) for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True) if b - a > least]
    if not long:
        return pos, row
    keep = np.ones(len(pos), dtype=bool)
    for a, b in long:
        members = row[a:b]
        imp = importance[members]
        threshold = np.partition(imp, len(imp) - cap)[len(imp) - cap]
        above = imp > threshold
        tied = np.flatnonzero(imp == threshold)
        need = cap - int(above.sum())  # >= 1: the threshold is the cap-th value
        recent = last_accessed[members[tied]]
        if len(recent) > need:
            cut = np.partition(recent, len(recent) - need)[len(recent) - need]
            tied = tied[recent >= cut]
        above[tied] = True
        keep[a:b] = above
    return pos[keep], row[keep]



_M = TypeVar("_M", bound=BaseModel)


def _built(cls: type[_M], fields: dict[str, Any]) -> _M:
    """A model from a complete dict of values made right here (thousands of expansions and steps per
    recall): pydantic's model_construct cost ~50 us each under load, models.trusted ~25 us (it reads
    `model_fields`, a slow class property, per call); this ~3 us. Callers pass exactly the model's fields."""
    obj = cls.__new__(cls)
    object.__setattr__(obj, "__dict__", fields)
    object.__setattr__(obj, "__pydantic_fields_set__", set(fields))
    object.__setattr__(obj, "__pydantic_extra__", None)
    object.__setattr__(obj, "__pydantic_private__", None)
    return obj


def _table(
    graph: UserGraph,
    ids: list[str],
    seed_ids: list[str],
    weights: dict[str, float],
    codes: Mapping[str, int] | None,
    found: np.ndarray,
    st_seed: np.ndarray,
    st_kind: np.ndarray,
    st_node: np.ndarray,
    st_parent: np.ndarray,
    st_rel: np.ndarray,
    st_w: np.ndarray,
    st_deg: np.ndarray,
    depth: np.ndarray,
) -> ExpansionTable:
    """The walk's states as an `ExpansionTable`: each step's trace weight (RelatesTo its edge's, else the
    relation's) as an array, trace steps built on demand and shared (one object per distinct step)."""
    other = weights.get("other", 0.3)
    rel_weight = np.array([weights.get(name, other) for name in REL_NAMES] + [0.0], dtype=np.float64)
    rel = st_rel  # -1 for seeds: indexes the trailing 0.0
    weight = np.where(rel == RELATES_TO, st_w, rel_weight[rel])
    labels = {TAG: "tag:", CLUSTER: "cluster:"}
    gkind = graph.group_kind
    by_state: dict[int, TraceStep] = {}
    by_value: dict[tuple[int, int, int, float, int], TraceStep] = {}

    def step(s: int) -> TraceStep:
        obj = by_state.get(s)
        if obj is None:
            r, k, node, w, deg = int(rel[s]), int(st_kind[s]), int(st_node[s]), float(weight[s]), int(st_deg[s])
            key = (r, k, node, w, deg)
            obj = by_value.get(key)
            if obj is None:
                if k == 0:
                    via, degree = ids[node], None
                else:
                    via, degree = labels[int(gkind[node])] + graph.group_names[node], deg
                obj = by_value[key] = _built(
                    TraceStep, {"relation": REL_NAMES[r], "via": via, "weight": w, "degree": degree}
                )
            by_state[s] = obj
        return obj

    return ExpansionTable(
        seed_ids=seed_ids,
        memory_ids=IdsAt(ids, st_node[found]),
        memory_code=st_node[found],
        found=found,
        seed=st_seed[found],
        depth=depth[found],
        parent=st_parent,
        weight=weight,
        degree=np.where(st_kind == 0, -1, st_deg),
        step=step,
        codes=codes,
    )
