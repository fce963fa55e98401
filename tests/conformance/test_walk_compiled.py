"""The compiled walk (walk_jit.py) gives exactly the numpy walk's table (csr.expand_table, the definition):
the same states in the same order, parents, weights, degrees and trace steps, on random graphs made to tie
(weights, importances, degrees, ids and group names alike in their first 8 bytes, two relations to one
memory, replaced lists), and through a store against the written data's reference walk."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memgraph.config import Settings
from memgraph.store import open_store
from memgraph.store.sqlite import compiled_walk, csr
from memgraph.store.sqlite.adjacency import CLUSTER, TAG, Adjacency, UserGraph
from memgraph.store.sqlite.columns import prefix_keys
from memgraph.store.traverse import ExpansionTable

from . import test_expand_parity as parity

pytest.importorskip("numba")

WEIGHTS = Settings().relation_weights()


@pytest.fixture
def compiled() -> Iterator[None]:
    assert compiled_walk.warm() is not None
    compiled_walk.use(True)
    yield
    compiled_walk.use(False)


def _graph(rng: random.Random) -> tuple[UserGraph, list[str], np.ndarray, np.ndarray]:
    n = rng.randint(5, 160)
    ids = [f"memory-{rng.choice(['', 'é', 'z'])}{i:04d}" for i in range(n)]
    graph = UserGraph()
    tag_names = [f"topic:{rng.choice(['a', 'ab', 'b', 'é'])}{i}" for i in range(rng.randint(1, 30))]
    tags = graph.groups(TAG, tag_names)
    clusters = graph.groups(CLUSTER, [f"cluster-{i}" for i in range(rng.randint(0, 6))])
    groups = list(tags) + list(clusters)
    m_rows, m_gids, m_w = [], [], []
    for r in range(n):
        for g in rng.sample(groups, rng.randint(0, min(len(groups), 6))):
            m_rows.append(r)
            m_gids.append(g)
            m_w.append(rng.choice([1.0, 1.0, 0.5, 0.8]))
    src, dst, rel, w, disc = [], [], [], [], []
    for _ in range(rng.randint(0, 4 * n)):
        a, b = rng.randrange(n), rng.randrange(n)
        if a == b:
            continue
        for r in rng.sample(range(4), rng.choice([1, 1, 1, 2])):
            src.append(a)
            dst.append(b)
            rel.append(r)
            w.append(rng.choice([0.3, 0.5, 0.5, 1.0]))
            disc.append(rng.random() < 0.3)
    graph.load(
        n,
        (np.array(m_rows, dtype=np.int64), np.array(m_gids, dtype=np.int64), np.array(m_w)),
        (np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64), np.array(rel, dtype=np.int8),
         np.array(w), np.array(disc, dtype=bool)),
    )  # fmt: skip
    # some lists replaced after the load (a write's catch-up): the walk reads them from the packed buffers
    for _ in range(rng.randint(0, 3)):
        rows = rng.sample(range(n), rng.randint(1, min(n, 20)))
        graph.set_memories(
            rows,
            [(np.array(g := rng.sample(groups, rng.randint(0, min(len(groups), 4))), dtype=np.int64),
              np.full(len(g), rng.choice([1.0, 0.5]))) for _ in rows],
            [(np.array(o := [rng.randrange(n) for _ in range(rng.randint(0, 5))], dtype=np.int64),
              np.array([rng.randrange(4) for _ in o], dtype=np.int8), np.full(len(o), 0.5),
              np.array([rng.random() < 0.5 for _ in o], dtype=bool)) for _ in rows],
        )  # fmt: skip
    importance = np.array([rng.choice([0.5, 0.5, 0.7, 0.9]) for _ in range(n)])
    last = np.array([rng.choice([0, 10, 20]) for _ in range(n)], dtype=np.int64)
    return graph, ids, importance, last


def _walk(graph: UserGraph, ids: list[str], imp: np.ndarray, last: np.ndarray, passing: np.ndarray,
          seeds: list[str], depth: int, cap: int) -> ExpansionTable:  # fmt: skip
    return csr.expand_table(
        graph, ids, {s: i for i, s in enumerate(ids)}, imp, last, passing, seeds, max_depth=depth,
        fanout_cap=cap, weights=WEIGHTS, id_key=prefix_keys(ids), ranked_members=True,
    )  # fmt: skip


def _same(a: ExpansionTable, b: ExpansionTable) -> None:
    assert a.seed_ids == b.seed_ids
    for name in ("memory_code", "found", "seed", "depth", "parent", "weight", "degree"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name
    assert list(a.memory_ids) == list(b.memory_ids)
    assert a.expansions() == b.expansions()


@pytest.mark.parametrize("seed", range(60))
def test_the_compiled_walk_is_the_numpy_walk(seed: int) -> None:
    assert compiled_walk.warm() is not None
    rng = random.Random(seed)
    graph, ids, imp, last = _graph(rng)
    for _ in range(4):
        passing = np.array([rng.random() < 0.85 for _ in ids], dtype=bool)
        seeds = rng.sample(ids, rng.randint(1, min(len(ids), 12)))
        depth, cap = rng.randint(1, 4), rng.randint(1, 6)
        try:
            compiled_walk.use(False)
            expected = _walk(graph, ids, imp, last, passing, seeds, depth, cap)
            compiled_walk.use(True)
            got = _walk(graph, ids, imp, last, passing, seeds, depth, cap)
        finally:
            compiled_walk.use(False)
        _same(expected, got)


@pytest.mark.parametrize("seed", range(40))
def test_the_compiled_activations_are_the_numpy_activations(seed: int) -> None:
    """walk_jit.noisy_or (set on a compiled walk's table) gives spread.activations' arrays bit for bit: the
    noisy-OR in expand's order, the strongest contribution, the first expansion holding it, the memories in
    order of their first expansion; strengths from a few values and weights alike, so contributions tie."""
    from memgraph.retrieve.spread import activations

    assert compiled_walk.warm() is not None
    rng = random.Random(seed)
    graph, ids, imp, last = _graph(rng)
    settings = Settings()
    for _ in range(4):
        passing = np.array([rng.random() < 0.85 for _ in ids], dtype=bool)
        seeds = rng.sample(ids, rng.randint(1, min(len(ids), 12)))
        try:
            compiled_walk.use(True)
            table = _walk(graph, ids, imp, last, passing, seeds, rng.randint(1, 4), rng.randint(1, 6))
        finally:
            compiled_walk.use(False)
        if not len(table):
            continue
        assert table.noisy_or is not None
        strength = {s: rng.choice([0.0, 0.25, 0.5, 1.0, rng.random()]) for s in seeds}
        got = activations(table, strength, settings)
        table.noisy_or = None
        want = activations(table, strength, settings)
        assert got.total.tobytes() == want.total.tobytes()
        assert got._best.tobytes() == want._best.tobytes()
        assert np.array_equal(got._where, want._where)
        assert list(got) == list(want) and all(got[m] == want[m] for m in want)


@pytest.mark.parametrize("seed,n", [(1, 120), (2, 400)])
def test_the_compiled_walk_walks_the_one_definition(tmp_path: Path, compiled: None, seed: int, n: int) -> None:
    """test_expand_parity's check (the written data's reference walk, before and after updates) on SQLite
    with the compiled walk."""
    store = open_store(str(tmp_path / "s"), Settings())
    rng = random.Random(seed)
    g = parity._build(store, seed, n)
    parity._check(store, g, rng)
    parity._update(store, g, seed)
    parity._check(store, g, rng)
    store.close()


def test_the_packed_replaced_lists_are_the_replaced_lists() -> None:
    """What the kernel reads for a replaced list (Adjacency.ov_*) is `get`'s list, through growing and repacking
    (the same lists replaced over and over: mostly stale buffers)."""
    rng = random.Random(7)
    adj = Adjacency([np.int64, np.float64])
    adj.build(50, np.array([rng.randrange(50) for _ in range(200)]), (np.arange(200), np.ones(200)))
    peak = 0
    for step in range(2000):
        owner = rng.randrange(60 if step % 3 else 8)  # a few owners replaced often; some past the base
        k = rng.randint(0, 12)
        adj.replace(owner, (np.arange(k) + step, np.full(k, float(step))))
        peak = max(peak, sum(len(c[0]) for c in adj.over.values()))
        if step % 97 == 0 or step == 1999:
            for o in adj.over:
                a, n = adj.ov_start[o], adj.sizes[o]
                assert np.array_equal(adj.ov_cols[0][a : a + n], adj.get(o)[0])
                assert np.array_equal(adj.ov_cols[1][a : a + n], adj.get(o)[1])
    assert len(adj.ov_cols[0]) <= 4 * peak + 64  # stale rows are dropped, not kept forever


def test_members_come_from_the_heads_and_stale_or_short_heads_are_ranked_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel picks a group's members from the ranked heads (no call back into csr._member_picks while
    they are fresh), and a head made stale by a re-keyed member, or holding fewer than `cap` passing rows of a
    longer list, is read through csr._member_picks: the table is the numpy walk's all the same."""
    assert compiled_walk.warm() is not None
    rng = random.Random(11)
    n = 400
    ids = [f"m{i:04d}" for i in range(n)]
    graph = UserGraph()
    groups = list(graph.groups(TAG, [f"t{i}" for i in range(8)])) + [graph.group(CLUSTER, "c")]
    pairs = {(r, g) for r in range(n) for g in rng.sample(groups, 2)}
    m_rows, m_gids = zip(*sorted(pairs), strict=True)
    src = np.array([rng.randrange(n) for _ in range(600)], dtype=np.int64)
    graph.load(
        n,
        (np.array(m_rows, dtype=np.int64), np.array(m_gids, dtype=np.int64), np.ones(len(m_rows))),
        (src, (src + 1 + np.arange(600) % 7) % n, np.zeros(600, dtype=np.int8), np.ones(600), np.zeros(600, bool)),
    )  # fmt: skip
    imp = np.array([rng.choice([0.3, 0.5, 0.9]) for _ in range(n)])
    last = np.array([rng.randrange(50) for _ in range(n)], dtype=np.int64)
    calls: list[int] = []
    real = csr._member_picks

    def counted(*a: Any) -> tuple[np.ndarray, np.ndarray]:
        calls.append(len(a[1]))
        return real(*a)

    monkeypatch.setattr(csr, "_member_picks", counted)
    fresh_calls = other_calls = 0
    for trial in range(40):
        share = [1.0, 0.9, 0.1, 0.02][trial % 4]
        passing = np.array([rng.random() < share for _ in ids], dtype=bool)
        seeds, depth, cap = rng.sample(ids, 5), rng.randint(2, 3), rng.randint(1, 5)
        if trial % 3 == 2:  # re-keyed members: their groups' heads are stale until ranked anew
            rows = rng.sample(range(n), 10)
            imp[rows] = rng.choice([0.1, 0.95])
            graph.rekeyed(rows)
        try:
            compiled_walk.use(False)
            expected = _walk(graph, ids, imp, last, passing, seeds, depth, cap)
            compiled_walk.use(True)
            calls.clear()
            got = _walk(graph, ids, imp, last, passing, seeds, depth, cap)
            fresh_calls += len(calls) if share == 1.0 and trial % 3 != 2 else 0
            other_calls += len(calls) if share < 1.0 or trial % 3 == 2 else 0
            compiled_walk.use(False)
            _same(expected, got)
            if trial % 3 == 1:  # the compiled walk first, on the heads the re-keying made stale
                rows = rng.sample(range(n), 10)
                imp[rows] = rng.choice([0.2, 0.8])
                graph.rekeyed(rows)
                compiled_walk.use(True)
                got = _walk(graph, ids, imp, last, passing, seeds, depth, cap)
                compiled_walk.use(False)
                _same(_walk(graph, ids, imp, last, passing, seeds, depth, cap), got)
        finally:
            compiled_walk.use(False)
    assert fresh_calls == 0  # every head fresh (the numpy walk just read them), every row passing: none
    assert other_calls  # the short heads (2% passing) and stale ones went through csr._member_picks
