"""One user's graph as sparse adjacency arrays (CSR): what `expand`'s walk (csr.py) reads.

Three adjacencies, each a compressed-sparse-row base (`indptr` + column arrays, scipy.sparse's layout; one
numpy gather serves a whole frontier) plus the lists replaced since the base was built (`Adjacency`):
- memory -> its tags and clusters (group id, weight);
- tag/cluster -> its member memories;
- memory -> linked memories, both directions of every memory-to-memory edge (other, relation, weight,
  discovered);
- memory -> its previous turns: the sources of the sequence links into it (`RelatesTo {source: sequence}`,
  written by ingest between a session's neighbouring memories), for recall's reply rule (retrieve/replies.py),
  which the walk's lists cannot answer (they hold neither an edge's direction nor its source).
A write touches a few memories (a recall's maintenance writes, a remember), so catching up replaces a few
lists; the base is rebuilt once the replaced lists pass a fraction of it (amortised, `compact`). Each group's
members are also kept ranked as the walk ranks them (`UserGraph.member_order`), patched as members change.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from memgraph.models import Relation
from memgraph.store.sqlite.columns import prefix_keys

#: Relation codes. The four memory-to-memory relations first, in name order: the walk breaks ties between
#: two edges to the same memory by relation name, as the SQL and Cypher statements do.
REL_NAMES = ("Contradicts", "DerivedFrom", "RelatesTo", "Supersedes", "HasTag", "InCluster")
REL_CODE = {name: i for i, name in enumerate(REL_NAMES)}
RELATES_TO = REL_CODE[Relation.RELATES_TO.value]
HAS_TAG, IN_CLUSTER = REL_CODE["HasTag"], REL_CODE["InCluster"]
#: Group kinds (a group is a tag or a cluster: what HasTag / InCluster point at).
TAG, CLUSTER = 0, 1
#: Moved rows a ranked member list takes in one by one (binary search, insert) before it is ranked anew.
_REPLACE_MAX = 64

_Cols = tuple[np.ndarray, ...]


class Adjacency:
    """Lists of rows (one list per owner index) with typed columns: a CSR base plus replaced lists."""

    def __init__(self, dtypes: Sequence[Any]) -> None:
        self.dtypes = [np.dtype(d) for d in dtypes]
        self.ptr = np.zeros(1, dtype=np.int64)
        self.cols: _Cols = tuple(np.zeros(0, dtype=d) for d in self.dtypes)
        self.over: dict[int, _Cols] = {}
        self.sizes = np.zeros(0, dtype=np.int64)  # list length per owner (base or replaced)
        #: per owner: whether its list is in `over` (a gather tests a whole frontier at once: a Python test per
        #: owner was ~5% of a cascade's walk once maintenance had replaced a few lists)
        self.is_over = np.zeros(0, dtype=bool)
        #: The replaced lists again, packed into append-only column buffers (`ov_start` per owner; `ov_used` rows
        #: written, some of them lists replaced since): what the compiled walk (walk_jit.py) reads instead of
        #: `over`'s dict of arrays. Repacked from `over` when the buffers are full and mostly stale.
        self.ov_start = np.zeros(0, dtype=np.int64)
        self.ov_cols: _Cols = self.empty()
        self.ov_used = 0

    def empty(self) -> _Cols:
        return tuple(np.zeros(0, dtype=d) for d in self.dtypes)

    def build(self, n_owners: int, owner: np.ndarray, cols: _Cols) -> None:
        """The base from (owner, columns) rows; rows of one owner keep their given order."""
        order = np.argsort(owner, kind="stable")
        counts = np.bincount(owner, minlength=n_owners).astype(np.int64)
        ptr = np.zeros(n_owners + 1, dtype=np.int64)
        np.cumsum(counts, out=ptr[1:])
        self.restore(ptr, counts, tuple(np.asarray(c, dtype=d)[order] for c, d in zip(cols, self.dtypes, strict=True)))

    def restore(self, ptr: np.ndarray, sizes: np.ndarray, cols: _Cols) -> None:
        """The base as built (or as a snapshot saved it), with no replaced list: `over`, its flags and its packed
        copy start empty together."""
        self.ptr, self.sizes, self.cols = ptr, sizes, cols
        self.over = {}
        self.is_over = np.zeros(len(sizes), dtype=bool)
        self.ov_start = np.zeros(len(sizes), dtype=np.int64)
        self.ov_cols = self.empty()
        self.ov_used = 0

    def _reserve(self, n_owners: int) -> None:
        if n_owners > len(self.sizes):
            sizes = np.zeros(max(n_owners, 2 * len(self.sizes)), dtype=np.int64)
            sizes[: len(self.sizes)] = self.sizes
            self.sizes = sizes
        if n_owners > len(self.is_over):
            flags = np.zeros(len(self.sizes), dtype=bool)
            flags[: len(self.is_over)] = self.is_over
            self.is_over = flags
        if n_owners > len(self.ov_start):
            starts = np.zeros(len(self.sizes), dtype=np.int64)
            starts[: len(self.ov_start)] = self.ov_start
            self.ov_start = starts

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
        self.is_over[owner] = True
        self._pack(owner)

    def _pack(self, owner: int) -> None:
        """Copy the owner's new list into the packed buffers (amortised: they double, or are repacked with the
        live lists alone when more than half of what they hold was replaced since)."""
        lst = self.over[owner]
        n = len(lst[0])
        if self.ov_used + n > len(self.ov_cols[0]):
            live = sum(len(c[0]) for c in self.over.values())
            if 2 * live <= self.ov_used:
                cols = tuple(np.zeros(max(64, 2 * live), dtype=d) for d in self.dtypes)
                at = 0
                for o, kept in self.over.items():
                    k = len(kept[0])
                    for buf, c in zip(cols, kept, strict=True):
                        buf[at : at + k] = c
                    self.ov_start[o] = at
                    at += k
                self.ov_cols, self.ov_used = cols, at
                return
            size = max(64, 2 * (self.ov_used + n))
            grown = tuple(np.zeros(size, dtype=d) for d in self.dtypes)
            for buf, c in zip(grown, self.ov_cols, strict=True):
                buf[: self.ov_used] = c[: self.ov_used]
            self.ov_cols = grown
        for buf, c in zip(self.ov_cols, lst, strict=True):
            buf[self.ov_used : self.ov_used + n] = c
        self.ov_start[owner] = self.ov_used
        self.ov_used += n

    def gather(self, owners: np.ndarray) -> tuple[np.ndarray, _Cols]:
        """Every list of `owners` (distinct owner indices) concatenated: (position in `owners` of each row,
        columns), grouped by position in ascending order, each list in its own order."""
        owners = np.asarray(owners, dtype=np.int64)
        n_base = len(self.ptr) - 1
        replaced = None
        if self.over:
            replaced = np.zeros(len(owners), dtype=bool)
            known = owners < len(self.is_over)
            replaced[known] = self.is_over[owners[known]]
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
            # one concatenation per column, not a loop per list (at 1k memories maintenance leaves up to half of
            # the lists replaced between compactions)
            at = np.flatnonzero(replaced)
            lists = list(map(self.over.__getitem__, owners[at].tolist()))
            lens = np.fromiter((len(lst[0]) for lst in lists), dtype=np.int64, count=len(lists))
            pos = np.concatenate([pos, np.repeat(at, lens)])
            cols = [np.concatenate([c, *(lst[j] for lst in lists)]) for j, c in enumerate(cols)]
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
        self.earlier = Adjacency([np.int64])  # row -> rows of its previous turns (sequence links into it)
        self.n_rows = 0
        #: group -> its members ranked as the walk ranks them (importance, last_accessed desc, id), made on first
        #: use (`member_order`); `moved` holds, per ranked group, the rows placed anew at its next use: members
        #: that joined or left (`set_memories`) or whose importance or last_accessed changed (`rekeyed`, mirror.py)
        self.orders: dict[int, np.ndarray] = {}
        self.moved: dict[int, set[int]] = {}
        #: The first `_head_width` rows of each ranked list in `orders` as rows of one array (-1 past a list's
        #: end), for the walk to read a frontier's groups in one gather (`member_heads`); `_head_slot[gid]` is the
        #: group's row there (-1: none, or stale since its ranked list changed), freed rows are reused.
        self._head_width = 0
        self._heads = np.zeros((0, 0), dtype=np.int32)
        self._head_len = np.zeros(0, dtype=np.int64)
        self._head_slot = np.zeros(0, dtype=np.int64)
        self._head_free: list[int] = []
        self._heads_used = 0
        #: Bumped whenever a group's members change: a cached mask of a tag filter is valid for one value (the
        #: columns' version does not move when only a memory's tags do).
        self.members_version = 0

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

    def groups(self, kind: int, names: Sequence[str]) -> np.ndarray:
        """Group ids of these names (distinct, none interned yet: a user's load), numbered in the given order as
        `group` would number them one by one; the arrays grow once, not per name (8.8k tags of a 10k-memory
        user one by one were ~60 ms of its cold load)."""
        first = len(self.group_names)
        if any((kind, name) in self.group_index for name in names):
            return np.array([self.group(kind, name) for name in names], dtype=np.int64)
        gids = np.arange(first, first + len(names), dtype=np.int64)
        self.group_index.update(zip([(kind, name) for name in names], gids.tolist(), strict=True))
        self.group_names.extend(names)
        end = len(self.group_names)
        if end > len(self.group_kind):
            grown = np.zeros(max(64, end, 2 * len(self.group_kind)), dtype=np.int8)
            grown[: len(self.group_kind)] = self.group_kind
            self.group_kind = grown
        if end > len(self.group_key):
            keys = np.zeros(max(64, end, 2 * len(self.group_key)), dtype=np.uint64)
            keys[: len(self.group_key)] = self.group_key
            self.group_key = keys
        self.group_kind[first:end] = kind
        self.group_key[first:end] = prefix_keys(names)
        if kind == TAG:
            lookup = self.tag_lookup
            for gid, name in enumerate(names, start=first):
                lookup.setdefault(name, []).append(gid)
                if ":" in name:
                    lookup.setdefault(name.split(":", 1)[1], []).append(gid)
        return gids

    def load(
        self,
        n_rows: int,
        memberships: tuple[np.ndarray, np.ndarray, np.ndarray],
        links: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
        sequence: np.ndarray | None = None,
    ) -> None:
        """The base arrays from every edge of the user: memberships (row, group, weight) and memory links
        (src row, dst row, relation, weight, discovered), each link entered at both ends; `sequence` marks the
        links that are sequence links (their src is a previous turn of their dst; None: none are)."""
        self.n_rows = n_rows
        self.members_version += 1
        rows, gids, ws = memberships
        self.to_groups.build(n_rows, rows, (gids, ws))
        self.members.build(len(self.group_names), gids, (rows,))
        src, dst, rel, w, disc = links
        self.links.build(
            n_rows,
            np.concatenate([src, dst]),
            (np.concatenate([dst, src]), np.tile(rel, 2), np.tile(w, 2), np.tile(disc, 2)),
        )
        seq = np.zeros(len(src), dtype=bool) if sequence is None else np.asarray(sequence, dtype=bool)
        self.earlier.build(n_rows, dst[seq], (src[seq],))

    def grow(self, n_rows: int) -> None:
        self.n_rows = max(self.n_rows, n_rows)

    def set_memories(
        self,
        rows: Sequence[int],
        groups: Sequence[tuple[np.ndarray, np.ndarray]],
        links: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
        earlier: Sequence[np.ndarray] | None = None,
    ) -> None:
        """Replace these memories' memberships, links and previous turns (`earlier`: rows, per memory; None:
        none) as the file has them now. A group's member list is rewritten once for the whole call: a bulk write
        adds a thousand members to a hub tag in one copy."""
        if not len(rows):
            return
        self.grow(max(rows) + 1)
        for row, before in zip(rows, earlier if earlier is not None else [None] * len(rows), strict=True):
            turns = np.zeros(0, dtype=np.int64) if before is None else before
            if not np.array_equal(self.earlier.get(row)[0], turns):
                self.earlier.replace(row, (turns,))
        added: dict[int, list[int]] = {}
        removed: dict[int, set[int]] = {}
        for row, grp, lk in zip(rows, groups, links, strict=True):
            current = self.to_groups.get(row)
            old = set(current[0].tolist())
            new = set(grp[0].tolist())
            # A recall's maintenance re-reads the memories it credited, edges unchanged: a list replaced by an
            # equal one would only make every walk's gather slower (its replaced lists are joined one by one).
            if not _same(current, grp):
                self.to_groups.replace(row, grp)
            for gid in old - new:
                removed.setdefault(gid, set()).add(row)
            for gid in new - old:
                added.setdefault(gid, []).append(row)
            if not _same(self.links.get(row), lk):
                self.links.replace(row, lk)
        if removed or added:
            self.members_version += 1
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
        wanted = gids.tolist()
        if self.moved:
            for g in sorted(self.moved.keys() & wanted):
                self._drop_head(g)
                placed = self._replace_moved(g, ids, importance, last_accessed)
                if placed is None:
                    del orders[g]
                else:
                    orders[g] = placed
        missing = np.array(list(dict.fromkeys(g for g in wanted if g not in orders)), dtype=np.int64)
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
        return list(map(orders.__getitem__, wanted))

    def _drop_head(self, gid: int) -> None:
        if gid < len(self._head_slot) and self._head_slot[gid] >= 0:
            self._head_free.append(int(self._head_slot[gid]))
            self._head_slot[gid] = -1

    def member_heads(
        self,
        gids: np.ndarray,
        ids: list[str],
        importance: np.ndarray,
        last_accessed: np.ndarray,
        id_key: np.ndarray,
        width: int,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The first `width` rows of each group's ranked members (`member_order`), -1 past a list's end, as one
        (groups x width) array, and each list's full length. The walk reads ~400 groups per recall at 100k
        memories: a slice of each ranked list and one concatenation was ~1 ms of Python per recall."""
        if width != self._head_width:
            self._head_width = width
            self._heads = np.zeros((0, width), dtype=np.int32)
            self._head_len = np.zeros(0, dtype=np.int64)
            self._head_slot = np.zeros(0, dtype=np.int64)
            self._head_free = []
            self._heads_used = 0
        top = int(gids.max(initial=-1)) + 1
        if top > len(self._head_slot):
            grown = np.full(max(top, 2 * len(self._head_slot), 64), -1, dtype=np.int64)
            grown[: len(self._head_slot)] = self._head_slot
            self._head_slot = grown
        slot = self._head_slot[gids]
        need = slot < 0
        if self.moved:
            need |= np.isin(gids, np.fromiter(self.moved.keys(), dtype=np.int64, count=len(self.moved)))
        if need.any():
            todo = gids[need]
            orders = self.member_order(todo, ids, importance, last_accessed, id_key)
            for g, order in zip(todo.tolist(), orders, strict=True):
                self._drop_head(g)
                at = self._head_free.pop() if self._head_free else self._next_head()
                self._heads[at] = -1
                head = order[:width]
                self._heads[at, : len(head)] = head
                self._head_len[at] = len(order)
                self._head_slot[g] = at
            slot = self._head_slot[gids]
        return self._heads[slot], self._head_len[slot]

    def head_arrays(self, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The cache `member_heads` reads, for the compiled walk to pick members from without a call back:
        (heads, lengths, slot per group, the groups whose ranked list changed since, ascending). A group whose
        slot is -1 or that is listed is read through `member_heads` (which refreshes it)."""
        if width != self._head_width:
            self.member_heads(np.zeros(0, dtype=np.int64), [], np.zeros(0), np.zeros(0), np.zeros(0), width)
        stale = np.sort(np.fromiter(self.moved.keys(), dtype=np.int64, count=len(self.moved)))
        return self._heads, self._head_len, self._head_slot, stale

    def _next_head(self) -> int:
        """A fresh row of `_heads` (grown by doubling)."""
        used = self._heads_used
        self._heads_used += 1
        if used >= len(self._heads):
            heads = np.full((max(64, 2 * len(self._heads)), self._head_width), -1, dtype=np.int32)
            heads[: len(self._heads)] = self._heads
            self._heads = heads
            lens = np.zeros(len(heads), dtype=np.int64)
            lens[: len(self._head_len)] = self._head_len
            self._head_len = lens
        return used

    def maybe_compact(self) -> None:
        if self.to_groups.needs_compaction() or self.links.needs_compaction() or self.earlier.needs_compaction():
            self.to_groups.compact(self.n_rows)
            self.links.compact(self.n_rows)
            self.earlier.compact(self.n_rows)
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

    def turn_pairs(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(earlier, later) rows of the sequence links into `rows` (distinct rows) whose earlier end is among
        `rows` too; the caller drops dead rows."""
        rows = np.asarray(rows, dtype=np.int64)
        if not len(rows):
            return rows, rows
        pos, (prev,) = self.earlier.gather(rows)
        among = np.zeros(max(int(rows.max()), int(prev.max(initial=0))) + 1, dtype=bool)
        among[rows] = True
        keep = among[prev]
        return prev[keep], rows[pos[keep]]


def run_starts(keys: np.ndarray) -> np.ndarray:
    """Where each run of equal values of `keys` starts (True at 0): `np.r_[True, k[1:] != k[:-1]]` without
    np.r_'s parsing (the walk asks ~10 times a recall)."""
    out = np.empty(len(keys), dtype=bool)
    if len(keys):
        out[0] = True
        np.not_equal(keys[1:], keys[:-1], out=out[1:])
    return out


def _same(a: Sequence[np.ndarray], b: Sequence[np.ndarray]) -> bool:
    """Whether two lists (their columns) hold the same rows in the same order."""
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def ranked_top(
    owner: np.ndarray, keys: Sequence[np.ndarray], tiebreak: Callable[[np.ndarray], list[Any]], cap: int
) -> np.ndarray:
    """Indices of the candidates kept: per owner (ascending), the first `cap` by `keys` (numeric, smaller is
    better, first key first) and then by `tiebreak` (Python values for a run of tied candidates), in order."""
    if not len(owner) or cap <= 0:
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort([*reversed(keys), owner])
    o = owner[order]
    new_owner = run_starts(o)
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
