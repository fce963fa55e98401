"""The cascade (cascade.py) scored on arrays: the same activations from the store's `ExpansionTable`.

`cascade.cascade` is the definition: every expansion's contribution is the seed's strength times its path
factor, and a memory's activation is the noisy-OR of its contributions with the strongest path kept for the
trace. Scoring that one `Expansion` object at a time (each with its list of `TraceStep`s) was most of a
cascade recall (profile at 1k memories: ~2,000 expansions, 60% of the pipeline). Here the same numbers come
from arrays, in the same order of floating-point operations (a path factor multiplies its steps from the
seed on; the noisy-OR multiplies in `expand`'s order), and the best path's trace steps are built only when a
returned memory's trace reads them. tests/conformance/test_recall.py checks it equals `cascade` on every store.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from memgraph.config import Settings
from memgraph.models import TraceStep
from memgraph.retrieve.cascade import Activation, seed_strengths
from memgraph.retrieve.seeds import Seed
from memgraph.store.base import GraphStore, MemoryFilter
from memgraph.store.traverse import ExpansionTable


class _TableActivation(Activation):
    """An `Activation` whose `path` is read from the table when first asked (only returned memories' are).
    Made by `activations` (a dict per object: ~2,000 per recall, the dataclass __init__ would double that)."""

    _table: ExpansionTable
    _state: int

    @property
    def path(self) -> list[TraceStep]:
        cached: list[TraceStep] | None = self.__dict__.get("_path")
        if cached is None:
            cached = self.__dict__["_path"] = self._table.path(self._state)
        return cached

    @path.setter
    def path(self, value: list[TraceStep]) -> None:
        self.__dict__["_path"] = value

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, Activation):
            return NotImplemented
        return (self.memory_id, self.total, self.best, self.seed_id, self.depth, self.path) == (
            other.memory_id,
            other.total,
            other.best,
            other.seed_id,
            other.depth,
            other.path,
        )

    __hash__ = None  # type: ignore[assignment]


def path_factors(table: ExpansionTable, settings: Settings) -> np.ndarray:
    """`cascade.path_factor` of every state: its parent's factor x (weight x hub damping) x edge_decay."""
    size = settings.hub_damping_size
    deg = table.degree
    damped = (deg >= 0) & (deg > size) & (size > 0)
    damping = np.ones(len(deg), dtype=np.float64)
    damping[damped] = size / deg[damped]
    step = table.weight * damping * settings.edge_decay
    root = table.parent < 0
    factor = np.ones(len(step), dtype=np.float64)
    for _ in range(int(table.depth.max(initial=0))):
        factor = np.where(root, 1.0, factor[table.parent] * step)
    return factor


def spread(
    store: GraphStore,
    user_id: str,
    seeds: list[Seed],
    flt: MemoryFilter,
    settings: Settings,
    strengths: dict[str, float] | None = None,
) -> dict[str, Activation]:
    """`cascade.cascade`, scored on the store's expansion table."""
    if strengths is None:
        strength = seed_strengths(seeds)
    else:
        strength = {s.id: strengths.get(s.id, 0.0) for s in seeds}
    if not strength or settings.max_depth <= 0:
        return {}
    table = store.expand_table(
        user_id,
        list(strength),
        max_depth=settings.max_depth,
        fanout_cap=settings.fanout_cap,
        weights=settings.relation_weights(),
        flt=flt,
    )
    return activations(table, strength, settings)


def activations(table: ExpansionTable, strength: dict[str, float], settings: Settings) -> dict[str, Activation]:
    """Per memory: the noisy-OR of its expansions' contributions and the first strongest one."""
    if not len(table):
        return {}
    seed_strength = np.array([strength.get(s, 0.0) for s in table.seed_ids], dtype=np.float64)
    factor = path_factors(table, settings)[table.found]
    contribution = np.minimum(1.0, seed_strength[table.seed] * factor)
    live = np.flatnonzero(contribution > 0.0)  # in expand's order
    if not len(live):
        return {}
    # memories numbered in order of their first live expansion (the order `cascade` adds them in)
    uniq, first_at, inverse = np.unique(table.memory_code[live], return_index=True, return_inverse=True)
    by_first = np.argsort(first_at, kind="stable")
    renumber = np.empty(len(uniq), dtype=np.int64)
    renumber[by_first] = np.arange(len(uniq), dtype=np.int64)
    mem = renumber[inverse.reshape(-1)]
    c = contribution[live]
    # noisy-OR per memory, multiplied in expand's order (a stable sort keeps it within each memory)
    order = np.argsort(mem, kind="stable")
    m_sorted = mem[order]
    starts = np.flatnonzero(np.r_[True, m_sorted[1:] != m_sorted[:-1]])
    missed = np.multiply.reduceat(1.0 - c[order], starts)
    total = 1.0 - missed
    # the strongest contribution; the first in expand's order among equals (cascade keeps it: `>`)
    best_order = np.lexsort((np.arange(len(c)), -c, mem))
    first = best_order[np.r_[True, mem[best_order][1:] != mem[best_order][:-1]]]
    j = live[first]
    memory_ids, seed_ids = table.memory_ids, table.seed_ids
    out: dict[str, Activation] = {}
    new = object.__new__
    for jj, tot, best, sd, dp, st in zip(
        j.tolist(),
        total.tolist(),
        c[first].tolist(),
        table.seed[j].tolist(),
        table.depth[j].tolist(),
        table.found[j].tolist(),
        strict=True,
    ):
        mid = memory_ids[jj]
        act = new(_TableActivation)
        act.__dict__ = {
            "memory_id": mid, "total": tot, "best": best, "seed_id": seed_ids[sd], "depth": dp, "_table": table,
            "_state": st,
        }  # fmt: skip
        out[mid] = act
    return out
