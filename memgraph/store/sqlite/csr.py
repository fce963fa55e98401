"""One user's graph as sparse adjacency arrays (CSR), and `expand`'s breadth-first walk over them.

Three adjacencies, each a compressed-sparse-row base (`indptr` + column arrays, scipy.sparse's layout; one
numpy gather serves a whole frontier) plus the lists replaced since the base was built (`Adjacency`):
- memory -> its tags and clusters (group id, weight);
- tag/cluster -> its member memories;
- memory -> linked memories, both directions of every memory-to-memory edge (other, relation, weight,
  discovered).
A write touches a few memories (a recall's maintenance writes, a remember), so catching up replaces a few
lists; the base is rebuilt once the replaced lists pass a fraction of it (amortised, `compact`).

The walk is the definition in `GraphStore.expand` (memgraph/store/base.py), the one the Cypher stores run
through memgraph.store.traverse.breadth_first: the same capped, ordered neighbours per node and the same
first-found path per (seed, memory). Here each hop is array operations over the whole frontier: gather the
frontier nodes' lists, rank them per node (np.lexsort on numeric keys; ties broken by id/name in Python only
for tie runs that reach the cap), drop visited (seed, node) states and keep each new state's first
occurrence. Paths are parent pointers, turned into trace steps only for the memories found.
tests/conformance/test_expand_parity.py checks that this walk, FalkorDB's and Neo4j's agree on random graphs.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, overload

import numpy as np
from pydantic import BaseModel

from memgraph.models import Relation, TraceStep
from memgraph.store.sqlite.columns import prefix_keys
from memgraph.store.traverse import ExpansionTable

#: Relation codes. The four memory-to-memory relations first, in name order: the walk breaks ties between
#: two edges to the same memory by relation name, as the SQL and Cypher statements do.
REL_NAMES = ("Contradicts", "DerivedFrom", "RelatesTo", "Supersedes", "HasTag", "InCluster")
REL_CODE = {name: i for i, name in enumerate(REL_NAMES)}
_RELATES_TO = REL_CODE[Relation.RELATES_TO.value]
HAS_TAG, IN_CLUSTER = REL_CODE["HasTag"], REL_CODE["InCluster"]
#: Group kinds (a group is a tag or a cluster: what HasTag / InCluster point at).
TAG, CLUSTER = 0, 1
#: A tag/cluster with more members than this has its members pre-selected by importance (np.partition)
#: before the exact ranking: a hub of 50k members then costs a partition, not a sort.
_PRESELECT = 256

_Cols = tuple[np.ndarray, ...]


class Adjacency:
    """Lists of rows (one list per owner index) with typed columns: a CSR base plus replaced lists."""

    def __init__(self, dtypes: Sequence[Any]) -> None:
        self.dtypes = [np.dtype(d) for d in dtypes]
        self.ptr = np.zeros(1, dtype=np.int64)
        self.cols: _Cols = tuple(np.zeros(0, dtype=d) for d in self.dtypes)
        self.over: dict[int, _Cols] = {}
        self.sizes = np.zeros(0, dtype=np.int64)  # list length per owner (base or replaced)

    def empty(self) -> _Cols:
        return tuple(np.zeros(0, dtype=d) for d in self.dtypes)

    def build(self, n_owners: int, owner: np.ndarray, cols: _Cols) -> None:
        """The base from (owner, columns) rows; rows of one owner keep their given order."""
        order = np.argsort(owner, kind="stable")
        counts = np.bincount(owner, minlength=n_owners).astype(np.int64)
        self.ptr = np.zeros(n_owners + 1, dtype=np.int64)
        np.cumsum(counts, out=self.ptr[1:])
        self.cols = tuple(np.asarray(c, dtype=d)[order] for c, d in zip(cols, self.dtypes, strict=True))
        self.over = {}
        self.sizes = counts

    def _reserve(self, n_owners: int) -> None:
        if n_owners > len(self.sizes):
            sizes = np.zeros(max(n_owners, 2 * len(self.sizes)), dtype=np.int64)
            sizes[: len(self.sizes)] = self.sizes
            self.sizes = sizes

    def get(self, owner: int) -> _Cols:
        hit = self.over.get(owner)
        if hit is not None:
            return hit
        if owner + 1 < len(self.ptr):
            a, b = self.ptr[owner], self.ptr[owner + 1]
            return tuple(c[a:b] for c in self.cols)
        return self.empty()

    def replace(self, owner: int, cols: _Cols) -> None:
        self._reserve(owner + 1)
        self.over[owner] = tuple(np.asarray(c, dtype=d) for c, d in zip(cols, self.dtypes, strict=True))
        self.sizes[owner] = len(cols[0])

    def gather(self, owners: np.ndarray) -> tuple[np.ndarray, _Cols]:
        """Every list of `owners` (distinct owner indices) concatenated: (position in `owners` of each row,
        columns), grouped by position in ascending order, each list in its own order."""
        owners = np.asarray(owners, dtype=np.int64)
        n_base = len(self.ptr) - 1
        replaced = np.array([o in self.over for o in owners.tolist()], dtype=bool) if self.over else None
        in_base = owners < n_base
        if replaced is not None:
            in_base &= ~replaced
        pos_b = np.flatnonzero(in_base)
        starts = self.ptr[owners[pos_b]]
        lens = self.ptr[owners[pos_b] + 1] - starts
        total = int(lens.sum())
        offsets = np.cumsum(lens) - lens
        idx = np.arange(total, dtype=np.int64) - np.repeat(offsets - starts, lens)
        pos = np.repeat(pos_b, lens)
        cols = [c[idx] for c in self.cols]
        if replaced is not None and replaced.any():
            extra_pos = []
            extra = [[] for _ in self.dtypes]  # type: list[list[np.ndarray]]
            for p in np.flatnonzero(replaced).tolist():
                lst = self.over[int(owners[p])]
                extra_pos.append(np.full(len(lst[0]), p, dtype=np.int64))
                for j, c in enumerate(lst):
                    extra[j].append(c)
            pos = np.concatenate([pos, *extra_pos])
            cols = [np.concatenate([c, *e]) for c, e in zip(cols, extra, strict=True)]
            order = np.argsort(pos, kind="stable")
            pos = pos[order]
            cols = [c[order] for c in cols]
        return pos, tuple(cols)

    def compact(self, n_owners: int) -> None:
        """Fold the replaced lists into a new base."""
        pos, cols = self.gather(np.arange(n_owners, dtype=np.int64))
        self.build(n_owners, pos, cols)

    def needs_compaction(self) -> bool:
        return len(self.over) > max(512, (len(self.ptr) - 1) // 16)


class UserGraph:
    """One user's graph: memories are rows of the user's columns (columns.py), tags and clusters are groups."""

    def __init__(self) -> None:
        self.group_index: dict[tuple[int, str], int] = {}
        self.group_names: list[str] = []
        self.group_kind = np.zeros(0, dtype=np.int8)
        self.group_key = np.zeros(0, dtype=np.uint64)  # columns.prefix_keys of the group names
        #: tag name, and the value after its first `:`, -> tag groups (`tags_named`: recall's cue lookup)
        self.tag_lookup: dict[str, list[int]] = {}
        self.to_groups = Adjacency([np.int64, np.float64])  # memory row -> (group, weight)
        self.members = Adjacency([np.int64])  # group -> member rows
        self.links = Adjacency([np.int64, np.int8, np.float64, np.bool_])  # row -> (other, rel, weight, disc)
        self.n_rows = 0
        #: group -> its members ranked as the walk ranks them (importance, last_accessed desc, id), made on first
        #: use (`member_order`); `moved` holds, per ranked group, the rows placed anew at its next use: members
        #: that joined or left (`set_memories`) or whose importance or last_accessed changed (`rekeyed`, mirror.py)
        self.orders: dict[int, np.ndarray] = {}
        self.moved: dict[int, set[int]] = {}

    # -- building and updating ---------------------------------------------------------------------------

    def group(self, kind: int, name: str) -> int:
        gid = self.group_index.get((kind, name))
        if gid is None:
            gid = self.group_index[(kind, name)] = len(self.group_names)
            self.group_names.append(name)
            if gid >= len(self.group_kind):
                grown = np.zeros(max(64, 2 * len(self.group_kind)), dtype=np.int8)
                grown[: len(self.group_kind)] = self.group_kind
                self.group_kind = grown
            self.group_kind[gid] = kind
            if gid >= len(self.group_key):
                keys = np.zeros(max(64, 2 * len(self.group_key)), dtype=np.uint64)
                keys[: len(self.group_key)] = self.group_key
                self.group_key = keys
            self.group_key[gid] = prefix_keys([name])[0]
            if kind == TAG:
                self.tag_lookup.setdefault(name, []).append(gid)
                if ":" in name:
                    self.tag_lookup.setdefault(name.split(":", 1)[1], []).append(gid)
        return gid

    def load(
        self,
        n_rows: int,
        memberships: tuple[np.ndarray, np.ndarray, np.ndarray],
        links: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    ) -> None:
        """The base arrays from every edge of the user: memberships (row, group, weight) and memory links
        (src row, dst row, relation, weight, discovered), each link entered at both ends."""
        self.n_rows = n_rows
        rows, gids, ws = memberships
        self.to_groups.build(n_rows, rows, (gids, ws))
        self.members.build(len(self.group_names), gids, (rows,))
        src, dst, rel, w, disc = links
        self.links.build(
            n_rows,
            np.concatenate([src, dst]),
            (np.concatenate([dst, src]), np.tile(rel, 2), np.tile(w, 2), np.tile(disc, 2)),
        )

    def grow(self, n_rows: int) -> None:
        self.n_rows = max(self.n_rows, n_rows)

    def set_memories(
        self,
        rows: Sequence[int],
        groups: Sequence[tuple[np.ndarray, np.ndarray]],
        links: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
    ) -> None:
        """Replace these memories' memberships and links (as the file has them now). A group's member list is
        rewritten once for the whole call: a bulk write adds a thousand members to a hub tag in one copy."""
        if not len(rows):
            return
        self.grow(max(rows) + 1)
        added: dict[int, list[int]] = {}
        removed: dict[int, set[int]] = {}
        for row, grp, lk in zip(rows, groups, links, strict=True):
            old = set(self.to_groups.get(row)[0].tolist())
            new = set(grp[0].tolist())
            self.to_groups.replace(row, grp)
            for gid in old - new:
                removed.setdefault(gid, set()).add(row)
            for gid in new - old:
                added.setdefault(gid, []).append(row)
            self.links.replace(row, lk)
        for gid in removed.keys() | added.keys():
            if gid in self.orders:
                self.moved.setdefault(gid, set()).update(removed.get(gid, ()), added.get(gid, ()))
            members = self.members.get(gid)[0]
            gone = removed.get(gid)
            if gone:
                members = members[~np.isin(members, list(gone))]
            more = added.get(gid)
            if more:
                members = np.concatenate([members, np.array(more, dtype=np.int64)])
            self.members.replace(gid, (members,))

    def rekeyed(self, rows: Sequence[int]) -> None:
        """These rows' ranking keys (importance, last_accessed) changed: their groups' ranked lists place them
        anew."""
        for row in rows:
            for gid in self.to_groups.get(int(row))[0].tolist():
                if gid in self.orders:
                    self.moved.setdefault(gid, set()).add(int(row))

    def _replace_moved(
        self, gid: int, ids: list[str], importance: np.ndarray, last_accessed: np.ndarray
    ) -> np.ndarray | None:
        """The group's ranked list with its moved rows taken out and the current members among them put back
        where the ranking places them (a binary search each: the other members' keys did not change), or None
        when many moved (ranking the group again costs less)."""
        moved = self.moved.pop(gid)
        order = self.orders[gid]
        if len(moved) > _REPLACE_MAX:
            return None
        rows = np.fromiter(moved, dtype=np.int64, count=len(moved))
        order = order[~np.isin(order, rows)]
        current = rows[np.isin(rows, self.members.get(gid)[0])]

        def key(r: int) -> tuple[float, int, str]:
            return (-float(importance[r]), -int(last_accessed[r]), ids[r])

        for row in current.tolist():
            order = np.insert(order, bisect.bisect_left(order, key(row), key=key), row)
        return order

    def member_order(
        self, gids: np.ndarray, ids: list[str], importance: np.ndarray, last_accessed: np.ndarray, id_key: np.ndarray
    ) -> list[np.ndarray]:
        """Each group's members, all of them, in the walk's ranking (`ranked_top`'s keys and tie-break), from
        the cache or ranked now (the missing groups in one `ranked_top`)."""
        orders = self.orders
        wanted = list(dict.fromkeys(gids.tolist()))
        if self.moved:
            for g in wanted:
                if g in self.moved:
                    placed = self._replace_moved(g, ids, importance, last_accessed)
                    if placed is None:
                        del orders[g]
                    else:
                        orders[g] = placed
        missing = np.array([g for g in wanted if g not in orders], dtype=np.int64)
        if len(missing):
            pos, (row,) = self.members.gather(missing)
            keep = ranked_top(
                pos,
                [-importance[row], -last_accessed[row], id_key[row]],
                lambda seg: [ids[r] for r in row[seg].tolist()],
                len(row),
            )
            pos, row = pos[keep], row[keep]
            bounds = np.searchsorted(pos, np.arange(len(missing) + 1))
            for i, g in enumerate(missing.tolist()):
                orders[g] = row[bounds[i] : bounds[i + 1]]
        return [orders[g] for g in gids.tolist()]

    def maybe_compact(self) -> None:
        if self.to_groups.needs_compaction() or self.links.needs_compaction():
            self.to_groups.compact(self.n_rows)
            self.links.compact(self.n_rows)
        if self.members.needs_compaction():
            self.members.compact(len(self.group_names))

    # -- reading -----------------------------------------------------------------------------------------

    def degree(self, gids: np.ndarray) -> np.ndarray:
        sizes = self.members.sizes
        gids = np.asarray(gids, dtype=np.int64)
        out = np.zeros(len(gids), dtype=np.int64)
        ok = gids < len(sizes)
        out[ok] = sizes[gids[ok]]
        return out

    def tags_named(self, names: Sequence[str]) -> list[tuple[str, int]]:
        """(name, member count) of the tags on at least one memory whose name, or value after the first `:`,
        is one of `names`; by name. reads.py `find_tags` without its SQL: the names are already here."""
        gids = {g for name in names if name for g in self.tag_lookup.get(name, ())}
        sizes = self.members.sizes
        found = [(self.group_names[g], int(sizes[g])) for g in gids if g < len(sizes) and sizes[g] > 0]
        return sorted(found)

    def tagged(self, tag: str) -> np.ndarray:
        """Rows carrying the tag (the `tag` filter)."""
        gid = self.group_index.get((TAG, tag))
        return np.zeros(0, dtype=np.int64) if gid is None else self.members.get(gid)[0]


def ranked_top(
    owner: np.ndarray, keys: Sequence[np.ndarray], tiebreak: Callable[[np.ndarray], list[Any]], cap: int
) -> np.ndarray:
    """Indices of the candidates kept: per owner (ascending), the first `cap` by `keys` (numeric, smaller is
    better, first key first) and then by `tiebreak` (Python values for a run of tied candidates), in order."""
    if not len(owner) or cap <= 0:
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort([*reversed(keys), owner])
    o = owner[order]
    new_owner = np.r_[True, o[1:] != o[:-1]]
    idx = np.arange(len(o))
    rank = idx - np.maximum.accumulate(np.where(new_owner, idx, 0))
    same = ~new_owner[1:]
    for k in keys:
        ks = k[order]
        same &= ks[1:] == ks[:-1]
    if same.any():
        edges = np.diff(np.r_[0, same.astype(np.int8), 0])
        for s, e in zip(np.flatnonzero(edges == 1).tolist(), np.flatnonzero(edges == -1).tolist(), strict=True):
            if rank[s] < cap:
                seg = order[s : e + 1]
                values = tiebreak(seg)
                order[s : e + 1] = seg[sorted(range(len(seg)), key=values.__getitem__)]
    return order[rank < cap]


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
) -> ExpansionTable:
    """`GraphStore.expand_table` over the arrays. `passing` is the filter as a mask over rows; `ids`, `index`,
    `importance` and `last_accessed` are the user's columns; `id_key` their ids' prefix keys (columns.py; made
    here when not given). `ranked_members`: read a group's ranked members from the graph's cache
    (`UserGraph.member_order`), valid only when these are the columns the graph's owner keeps it in step with."""
    seed_ids = [s for s in dict.fromkeys(seeds) if s in index]
    if id_key is None:
        id_key = prefix_keys(ids)
    if not seed_ids or max_depth <= 0 or fanout_cap <= 0:
        return ExpansionTable.empty()
    cap = int(fanout_cap)
    discovered = float(weights.get("RelatesTo:discovered", 1.0))
    n_keys = 2 * max(len(ids), len(graph.group_names)) + 2
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
        # each frontier state takes its node's list
        uniq, starts, counts = np.unique(t_key, return_index=True, return_counts=True)
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
        # not visited: a binary search in the sorted visited keys (np.isin sorted both arrays together: ~0.5 ms
        # per hop for ~20k candidates against ~1k visited)
        seen = np.sort(visited)
        at = np.minimum(np.searchsorted(seen, c_key), len(seen) - 1)
        fresh = seen[at] != c_key
        cand = np.flatnonzero(fresh)
        _, firsts = np.unique(c_key[cand], return_index=True)
        keep = cand[np.sort(firsts)]
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
        np.concatenate(found),
        *(np.concatenate(a) for a in (st_seed, st_kind, st_node, st_parent, st_rel, st_w, st_deg, st_depth)),
    )


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
    mem_nodes = np.unique(f_node[f_kind == 0])
    grp_nodes = np.unique(f_node[f_kind == 1])
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
        w = np.where(disc & (rel == _RELATES_TO), w * discovered, w)
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
        pos, row = _first_passing(graph.member_order(grp_nodes, ids, importance, last_accessed, id_key), passing, cap)
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


#: Moved rows a ranked member list takes in one by one (binary search, insert) before it is ranked anew.
_REPLACE_MAX = 64
#: Members read from the head of a group's ranked list before looking further: the walk keeps `fanout_cap` of
#: them that pass the filter, and recall's filter (active, not archived, important enough) passes most.
_HEAD = 4


def _first_passing(orders: list[np.ndarray], passing: np.ndarray, cap: int) -> tuple[np.ndarray, np.ndarray]:
    """(position in `orders`, row) of each ranked list's first `cap` rows that pass, lists in order: the same
    rows in the same order as ranking the passing members (`ranked_top`), without a sort. Reads the first
    `_HEAD` x cap of each list, then the whole of the lists whose head held fewer than `cap` passing rows."""
    head = _HEAD * cap
    lens = np.fromiter((len(o) for o in orders), dtype=np.int64, count=len(orders))
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
    start = np.r_[True, pos[1:] != pos[:-1]]
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


class RowIds(Sequence[str]):
    """The memory ids of some rows, looked up when read: the cascade reads one per distinct memory of a walk's
    expansions (a memory is found from several seeds), and a list of every expansion's id cost ~0.5-1 ms per
    recall at 10k memories."""

    def __init__(self, ids: list[str], rows: np.ndarray) -> None:
        self._ids = ids  # the columns' list: rows only ever append to it
        self._rows = rows

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self._ids[r] for r in self._rows[i].tolist()]
        return self._ids[int(self._rows[i])]


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
    weight = np.where(rel == _RELATES_TO, st_w, rel_weight[rel])
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
        memory_ids=RowIds(ids, st_node[found]),
        memory_code=st_node[found],
        found=found,
        seed=st_seed[found],
        depth=depth[found],
        parent=st_parent,
        weight=weight,
        degree=np.where(st_kind == 0, -1, st_deg),
        step=step,
    )
