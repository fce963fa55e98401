"""csr.py's walk as compiled loops (numba): one call a hop instead of ~200 numpy calls.

The numpy walk (csr.expand_table) is the definition: this gives the same states in the same order (same
parents, relations, weights, degrees), so the table and the activations built from it are equal.
tests/conformance/test_walk_compiled.py runs both on random graphs. Importing this module imports numba
(~0.2 s, plus ~0.15 s loading the cached machine code): compiled_walk.py decides when that pays.

Per hop, per distinct frontier node, its capped list is ranked by a bounded insertion (the `cap` best so far,
a candidate inserted after its equals: a stable sort's first `cap`); the keys are `ranked_top`'s numeric keys
and then the names themselves, compared as UTF-8 bytes (code-point order, Python's string order) where
ranked_top calls its Python tie-break. A group's members come from the graph's ranked heads (arrays), picked
here as csr._member_picks picks them; a group whose head is missing or stale goes through csr._member_picks,
which ranks it anew (a cache in Python dicts). The visited (seed, node) states are an open-addressing hash set.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np
from numba import njit

from memgraph.store.sqlite.adjacency import HAS_TAG, IN_CLUSTER, RELATES_TO, TAG, UserGraph

_GOLDEN = np.uint64(11400714819323198485)


@njit(cache=True, nogil=True)
def _bits(size: int) -> int:
    b = 0
    while (1 << b) < size:
        b += 1
    return b


@njit(cache=True, nogil=True)
def _slot(key: int, bits: int) -> np.int64:
    return np.int64((np.uint64(key) * _GOLDEN) >> np.uint64(64 - bits))


@njit(cache=True, nogil=True)
def _add(table: np.ndarray, bits: int, key: int) -> bool:
    """Insert `key` (>= 0) into the set; whether it was new."""
    mask = np.int64((1 << bits) - 1)
    i = _slot(key, bits)
    while True:
        k = table[i]
        if k == key:
            return False
        if k < 0:
            table[i] = key
            return True
        i = (i + 1) & mask


@njit(cache=True, nogil=True)
def visited_set(keys: np.ndarray, expect: int) -> np.ndarray:
    """A fresh set holding `keys`, sized for `expect` keys at most half full."""
    bits = max(_bits(2 * max(expect, len(keys), 8)), 4)
    table = np.full(1 << bits, -1, dtype=np.int64)
    for k in keys:
        _add(table, bits, k)
    return table


@njit(cache=True, nogil=True)
def _grown(table: np.ndarray, need: int) -> np.ndarray:
    """The set, rehashed into a larger table when `need` keys would fill it past half."""
    if 2 * need <= len(table):
        return table
    bits = _bits(4 * need)
    out = np.full(1 << bits, -1, dtype=np.int64)
    for k in table:
        if k >= 0:
            _add(out, bits, k)
    return out


@njit(cache=True, nogil=True)
def _bytes_less(off: np.ndarray, buf: np.ndarray, a: int, b: int) -> bool:
    """Whether name `a` sorts before name `b` (UTF-8 bytes; a prefix first)."""
    i, ea = off[a], off[a + 1]
    j, eb = off[b], off[b + 1]
    while i < ea and j < eb:
        if buf[i] != buf[j]:
            return bool(buf[i] < buf[j])
        i += 1
        j += 1
    return bool((ea - i) < (eb - j))


@njit(cache=True, nogil=True)
def _group_less(
    ga: int, wa: float, gb: int, wb: float, sizes: np.ndarray, gkey: np.ndarray, goff: np.ndarray, gbuf: np.ndarray
) -> bool:
    """csr._hop's to-groups order: degree, weight descending, name."""
    da = sizes[ga] if ga < len(sizes) else 0
    db = sizes[gb] if gb < len(sizes) else 0
    if da != db:
        return bool(da < db)
    if -wa != -wb:
        return -wa < -wb
    if gkey[ga] != gkey[gb]:
        return bool(gkey[ga] < gkey[gb])
    return _bytes_less(goff, gbuf, ga, gb)


@njit(cache=True, nogil=True)
def _link_less(
    oa: int, ra: int, wa: float, ob: int, rb: int, wb: float,
    importance: np.ndarray, id_key: np.ndarray, ioff: np.ndarray, ibuf: np.ndarray,
) -> bool:  # fmt: skip
    """csr._hop's links order: weight descending, importance descending, (id, relation)."""
    if -wa != -wb:
        return -wa < -wb
    if -importance[oa] != -importance[ob]:
        return bool(-importance[oa] < -importance[ob])
    if id_key[oa] != id_key[ob]:
        return bool(id_key[oa] < id_key[ob])
    if oa != ob:
        if _bytes_less(ioff, ibuf, oa, ob):
            return True
        if _bytes_less(ioff, ibuf, ob, oa):
            return False
    return ra < rb


@njit(cache=True, nogil=True)
def _span(
    owner: int, ptr: np.ndarray, is_over: np.ndarray, ov_start: np.ndarray, sizes: np.ndarray
) -> tuple[bool, int, int]:
    """(from the packed replaced lists?, start, length) of an owner's list (Adjacency.get)."""
    if owner < len(is_over) and is_over[owner]:
        return True, ov_start[owner], sizes[owner]
    if owner + 1 < len(ptr):
        return False, ptr[owner], ptr[owner + 1] - ptr[owner]
    return False, 0, 0


@njit(cache=True, nogil=True)
def _place(
    top_o: np.ndarray, top_r: np.ndarray, top_w: np.ndarray, k: int, cap: int, p: int, o: int, r: int, w: float
) -> int:
    """Insert (o, r, w) at position `p` of the `k` best so far (the last falls off past `cap`); the new count."""
    for q in range(min(k, cap - 1), p, -1):
        top_o[q] = top_o[q - 1]
        top_r[q] = top_r[q - 1]
        top_w[q] = top_w[q - 1]
    top_o[p] = o
    top_r[p] = r
    top_w[p] = w
    return min(k + 1, cap)


@njit(cache=True, nogil=True)
def hop(
    f_first: int, f_seed: np.ndarray, f_kind: np.ndarray, f_node: np.ndarray,
    count: int, table: np.ndarray, n_keys: int, cap: int, to_groups: bool, discovered: float,
    tg_ptr: np.ndarray, tg_gid: np.ndarray, tg_w: np.ndarray,
    tg_over: np.ndarray, tg_ov_start: np.ndarray, tg_sizes: np.ndarray, tg_ov_gid: np.ndarray, tg_ov_w: np.ndarray,
    lk_ptr: np.ndarray, lk_other: np.ndarray, lk_rel: np.ndarray, lk_w: np.ndarray, lk_disc: np.ndarray,
    lk_over: np.ndarray, lk_ov_start: np.ndarray, lk_sizes: np.ndarray,
    lk_ov_other: np.ndarray, lk_ov_rel: np.ndarray, lk_ov_w: np.ndarray, lk_ov_disc: np.ndarray,
    member_sizes: np.ndarray, group_kind: np.ndarray, group_key: np.ndarray, goff: np.ndarray, gbuf: np.ndarray,
    passing: np.ndarray, importance: np.ndarray, id_key: np.ndarray, ioff: np.ndarray, ibuf: np.ndarray,
    g_nodes: np.ndarray, g_pos: np.ndarray, g_row: np.ndarray,
) -> tuple[np.ndarray, ...]:  # fmt: skip
    """One hop from the frontier states `f_first`, `f_first + 1`, ... (seed, kind, node): the new states
    (seed, kind, node, parent, relation, weight, degree) in csr.expand_table's order, and the visited set
    (grown when needed). `g_nodes` (ascending), `g_pos`, `g_row`: each frontier group's picked members."""
    n_f = len(f_node)
    # the frontier's distinct nodes, each ranked once
    fk = f_node * 2 + f_kind
    order = np.argsort(fk)
    which = np.empty(n_f, dtype=np.int64)
    n_d = 0
    for i in range(n_f):
        if i == 0 or fk[order[i]] != fk[order[i - 1]]:
            n_d += 1
        which[order[i]] = n_d - 1
    d_node = np.empty(n_d, dtype=np.int64)
    d_kind = np.empty(n_d, dtype=np.int64)
    for i in range(n_f):
        d_node[which[i]] = f_node[i]
        d_kind[which[i]] = f_kind[i]
    width = 2 * cap
    l_len = np.zeros(n_d, dtype=np.int64)
    l_rel = np.empty(n_d * width, dtype=np.int64)
    l_kind = np.empty(n_d * width, dtype=np.int64)
    l_node = np.empty(n_d * width, dtype=np.int64)
    l_w = np.empty(n_d * width, dtype=np.float64)
    l_deg = np.empty(n_d * width, dtype=np.int64)
    g_start = np.zeros(len(g_nodes) + 1, dtype=np.int64)
    for p in g_pos:
        g_start[p + 1] += 1
    for i in range(len(g_nodes)):
        g_start[i + 1] += g_start[i]
    top_o = np.empty(cap, dtype=np.int64)
    top_r = np.empty(cap, dtype=np.int64)
    top_w = np.empty(cap, dtype=np.float64)
    for d in range(n_d):
        node = d_node[d]
        at = d * width
        n = 0
        if d_kind[d] == 1:
            i = np.searchsorted(g_nodes, node)
            if i < len(g_nodes) and g_nodes[i] == node:
                rel = HAS_TAG if group_kind[node] == TAG else IN_CLUSTER
                for j in range(g_start[i], g_start[i + 1]):
                    l_rel[at + n] = rel
                    l_kind[at + n] = 0
                    l_node[at + n] = g_row[j]
                    l_w[at + n] = 1.0
                    l_deg[at + n] = -1
                    n += 1
            l_len[d] = n
            continue
        if to_groups:
            packed, s, m = _span(node, tg_ptr, tg_over, tg_ov_start, tg_sizes)
            k = 0
            for j in range(s, s + m):
                g = tg_ov_gid[j] if packed else tg_gid[j]
                w = tg_ov_w[j] if packed else tg_w[j]
                p = k
                while p > 0 and _group_less(g, w, top_o[p - 1], top_w[p - 1], member_sizes, group_key, goff, gbuf):
                    p -= 1
                if p < cap:
                    k = _place(top_o, top_r, top_w, k, cap, p, g, 0, w)
            for q in range(k):
                g = top_o[q]
                l_rel[at + n] = HAS_TAG if group_kind[g] == TAG else IN_CLUSTER
                l_kind[at + n] = 1
                l_node[at + n] = g
                l_w[at + n] = top_w[q]
                l_deg[at + n] = member_sizes[g] if g < len(member_sizes) else 0
                n += 1
        packed, s, m = _span(node, lk_ptr, lk_over, lk_ov_start, lk_sizes)
        k = 0
        for j in range(s, s + m):
            o = lk_ov_other[j] if packed else lk_other[j]
            if not passing[o]:
                continue
            r = int(lk_ov_rel[j] if packed else lk_rel[j])
            w = lk_ov_w[j] if packed else lk_w[j]
            disc = lk_ov_disc[j] if packed else lk_disc[j]
            if disc and r == RELATES_TO:
                w = w * discovered
            p = k
            while p > 0 and _link_less(
                o, r, w, top_o[p - 1], top_r[p - 1], top_w[p - 1], importance, id_key, ioff, ibuf
            ):
                p -= 1
            if p < cap:
                k = _place(top_o, top_r, top_w, k, cap, p, o, r, w)
        for q in range(k):
            l_rel[at + n] = top_r[q]
            l_kind[at + n] = 0
            l_node[at + n] = top_o[q]
            l_w[at + n] = top_w[q]
            l_deg[at + n] = -1
            n += 1
        l_len[d] = n
    total = 0
    for i in range(n_f):
        total += l_len[which[i]]
    table = _grown(table, count + total)
    bits = _bits(len(table))
    s_seed = np.empty(total, dtype=np.int64)
    s_kind = np.empty(total, dtype=np.int64)
    s_node = np.empty(total, dtype=np.int64)
    s_parent = np.empty(total, dtype=np.int64)
    s_rel = np.empty(total, dtype=np.int64)
    s_w = np.empty(total, dtype=np.float64)
    s_deg = np.empty(total, dtype=np.int64)
    n_new = 0
    for i in range(n_f):
        d = which[i]
        seed = f_seed[i]
        at = d * width
        for j in range(at, at + l_len[d]):
            if _add(table, bits, seed * n_keys + l_node[j] * 2 + l_kind[j]):
                s_seed[n_new] = seed
                s_kind[n_new] = l_kind[j]
                s_node[n_new] = l_node[j]
                s_parent[n_new] = f_first + i
                s_rel[n_new] = l_rel[j]
                s_w[n_new] = l_w[j]
                s_deg[n_new] = l_deg[j]
                n_new += 1
    return (
        table,
        s_seed[:n_new],
        s_kind[:n_new],
        s_node[:n_new],
        s_parent[:n_new],
        s_rel[:n_new],
        s_w[:n_new],
        s_deg[:n_new],
    )


@njit(cache=True, nogil=True)
def head_picks(
    f_kind: np.ndarray, f_node: np.ndarray, cap: int, passing: np.ndarray,
    heads: np.ndarray, head_len: np.ndarray, head_slot: np.ndarray, stale: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:  # fmt: skip
    """The frontier's groups (ascending) and each one's first `cap` passing members in ranked order (position,
    row), read from the graph's ranked heads (`UserGraph.head_arrays`): csr._member_picks without the Python.
    The last value is False when a group's head is missing or stale, or holds fewer than `cap` passing rows
    of a longer list: then the caller picks them with csr._member_picks."""
    g_all = np.sort(f_node[f_kind == 1])  # the frontier's few groups, not a mask over all of them
    g_nodes = np.empty(len(g_all), dtype=np.int64)
    n_g = 0
    for g in g_all:
        if n_g == 0 or g_nodes[n_g - 1] != g:
            g_nodes[n_g] = g
            n_g += 1
    g_nodes = g_nodes[:n_g]
    width = heads.shape[1]
    g_pos = np.empty(len(g_nodes) * cap, dtype=np.int64)
    g_row = np.empty(len(g_nodes) * cap, dtype=np.int64)
    n = 0
    for p in range(len(g_nodes)):
        g = g_nodes[p]
        slot = head_slot[g] if g < len(head_slot) else -1
        if slot < 0:
            return g_nodes, g_pos[:0], g_row[:0], False
        s = np.searchsorted(stale, g)
        if s < len(stale) and stale[s] == g:
            return g_nodes, g_pos[:0], g_row[:0], False
        taken = 0
        for j in range(width):
            row = heads[slot, j]
            if row < 0 or taken == cap:
                break
            if passing[row]:
                g_pos[n] = p
                g_row[n] = row
                n += 1
                taken += 1
        if taken < cap and head_len[slot] > width:
            return g_nodes, g_pos[:0], g_row[:0], False
    return g_nodes, g_pos[:n], g_row[:n], True


@njit(cache=True, nogil=True)
def noisy_or(code: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """spread.activations' grouping of the live expansions (`code`: each one's memory, `c`: its contribution,
    in expand's order): per memory in order of its first expansion, 1 - the product of (1 - c) in that order,
    the largest c, and the position of the first expansion holding it. The same float operations in the same
    order as the numpy form (a stable sort, `multiply.reduceat`, `maximum.reduceat`), with the memories
    grouped by a hash of their codes instead of a sort (~70 us of ~260 at 10k memories)."""
    n, groups = len(code), 0
    bits = _bits(max(2 * n, 2))
    size = 1 << bits
    keys = np.full(size, -1, dtype=np.int64)
    slots = np.empty(size, dtype=np.int64)
    group = np.empty(n, dtype=np.int64)
    prod = np.empty(n, dtype=np.float64)
    best = np.empty(n, dtype=np.float64)
    for i in range(n):
        key = code[i]
        h = _slot(key, bits)
        while keys[h] != -1 and keys[h] != key:
            h = (h + 1) & (size - 1)
        if keys[h] == -1:
            keys[h] = key
            slots[h] = groups
            prod[groups] = 1.0 - c[i]
            best[groups] = c[i]
            group[i] = groups
            groups += 1
        else:
            g = slots[h]
            prod[g] = prod[g] * (1.0 - c[i])
            if c[i] > best[g]:
                best[g] = c[i]
            group[i] = g
    top = np.full(groups, -1, dtype=np.int64)
    for i in range(n):
        g = group[i]
        if top[g] < 0 and c[i] == best[g]:
            top[g] = i
    return 1.0 - prod[:groups], best[:groups].copy(), top


class Utf8Names:
    """A list of names (append-only: group names, a user's ids) as UTF-8 bytes with offsets, extended as the
    list grows; rows are never renumbered, so a name's bytes stay valid."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.n = 0
        self.off = np.zeros(1, dtype=np.int64)
        self.buf = np.zeros(0, dtype=np.uint8)
        self.lock = threading.Lock()

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        names = self.names
        with self.lock:
            if len(names) > self.n:
                self._extend()
            return self.off, self.buf

    def _extend(self) -> None:
        names = self.names[self.n :]
        new = [s.encode("utf-8") for s in names]
        lens = np.fromiter(map(len, new), dtype=np.int64, count=len(new))
        self.off = np.concatenate([self.off, self.off[-1] + np.cumsum(lens)])
        self.buf = np.concatenate([self.buf, np.frombuffer(b"".join(new), dtype=np.uint8)])
        self.n += len(names)


#: Utf8Names per list object (the list held: its id stays its own); a few users' ids and group names.
_NAMES: dict[int, Utf8Names] = {}
_NAMES_MAX = 64


def utf8(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The (offsets, bytes) of these names, kept for the next walk."""
    hit = _NAMES.get(id(names))
    if hit is None or hit.names is not names:
        if len(_NAMES) >= _NAMES_MAX:
            _NAMES.clear()
        hit = _NAMES[id(names)] = Utf8Names(names)
    return hit.arrays()


def walk(
    graph: UserGraph,
    ids: list[str],
    importance: np.ndarray,
    passing: np.ndarray,
    id_key: np.ndarray,
    seed_nodes: np.ndarray,
    max_depth: int,
    cap: int,
    discovered: float,
    n_keys: int,
    head_width: int,
    picks: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
) -> tuple[np.ndarray, ...] | None:
    """csr.expand_table's states, (found, seed, kind, node, parent, relation, weight, degree, depth), or None
    when no hop reached a state. A group's members kept come from the graph's ranked heads of `head_width`
    rows (`head_picks`), else from `picks(groups)` (csr._member_picks, which refreshes those heads)."""
    n_seeds = len(seed_nodes)
    f_seed = np.arange(n_seeds, dtype=np.int64)
    f_kind = np.zeros(n_seeds, dtype=np.int64)
    f_node = seed_nodes
    table = visited_set(f_seed * n_keys + f_node * 2, 16 * n_seeds * cap)
    states = [[f_seed, f_kind, f_node, np.full(n_seeds, -1, dtype=np.int64), np.full(n_seeds, -1, dtype=np.int64),
               np.zeros(n_seeds, dtype=np.float64), np.full(n_seeds, -1, dtype=np.int64),
               np.zeros(n_seeds, dtype=np.int64)]]  # fmt: skip
    tg, lk, mem = graph.to_groups, graph.links, graph.members
    goff, gbuf = utf8(graph.group_names)
    ioff, ibuf = utf8(ids)
    count, f_first = n_seeds, 0
    heads = None
    for depth in range(1, max_depth + 1):
        if heads is None:
            heads = graph.head_arrays(head_width)
        g_nodes, g_pos, g_row, ok = head_picks(f_kind, f_node, cap, passing, *heads)
        if not ok:
            g_pos, g_row = picks(g_nodes)
            heads = None  # refreshed (and maybe grown) by `picks`
        table, *new = hop(
            f_first, f_seed, f_kind, f_node, count, table, n_keys, cap, depth != max_depth, discovered,
            tg.ptr, tg.cols[0], tg.cols[1], tg.is_over, tg.ov_start, tg.sizes, tg.ov_cols[0], tg.ov_cols[1],
            lk.ptr, lk.cols[0], lk.cols[1], lk.cols[2], lk.cols[3], lk.is_over, lk.ov_start, lk.sizes,
            lk.ov_cols[0], lk.ov_cols[1], lk.ov_cols[2], lk.ov_cols[3],
            mem.sizes, graph.group_kind, graph.group_key, goff, gbuf,
            passing, importance, id_key, ioff, ibuf,
            g_nodes, g_pos, g_row,
        )  # fmt: skip
        n_new = len(new[0])
        if not n_new:
            break
        states.append([*new, np.full(n_new, depth, dtype=np.int64)])
        f_first, count = count, count + n_new
        f_seed, f_kind, f_node = new[0], new[1], new[2]
    if len(states) == 1:
        return None
    cols = [np.concatenate(c) for c in zip(*states, strict=True)]
    found = np.flatnonzero(cols[1] == 0)[n_seeds:]
    return (found, *cols)


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel with the argument types a store's walk passes: a
    walk over a tiny graph with tags, clusters, links and a replaced list."""
    from memgraph.store.sqlite import csr
    from memgraph.store.sqlite.adjacency import CLUSTER
    from memgraph.store.sqlite.columns import prefix_keys

    graph = UserGraph()
    tags = graph.groups(TAG, ["a", "b"])
    cluster = graph.group(CLUSTER, "c")
    rows = np.array([0, 1, 2, 0], dtype=np.int64)
    gids = np.array([tags[0], tags[0], tags[1], cluster], dtype=np.int64)
    graph.load(
        3,
        (rows, gids, np.ones(4)),
        (np.array([0], dtype=np.int64), np.array([1], dtype=np.int64), np.array([RELATES_TO], dtype=np.int8),
         np.ones(1), np.zeros(1, dtype=bool)),
    )  # fmt: skip
    graph.links.replace(2, (np.array([0]), np.array([RELATES_TO]), np.ones(1), np.ones(1, dtype=bool)))
    ids = ["m0", "m1", "m2"]
    importance = np.full(3, 0.5)
    csr.expand_table(
        graph, ids, {s: i for i, s in enumerate(ids)}, importance, np.zeros(3, dtype=np.int64),
        np.ones(3, dtype=bool), ids, max_depth=3, fanout_cap=2, weights={}, id_key=prefix_keys(ids),
        ranked_members=True,
    )  # fmt: skip
    noisy_or(np.array([2, 0, 2], dtype=np.int64), np.array([0.5, 0.25, 0.5]))
    walk(
        graph, ids, importance, np.ones(3, dtype=bool), prefix_keys(ids), np.arange(3, dtype=np.int64), 3, 2,
        1.0, 8, 4, lambda g: csr._member_picks(graph, g, ids, importance, np.zeros(3, dtype=np.int64),
                                           np.ones(3, dtype=bool), prefix_keys(ids), 2),
    )  # fmt: skip
