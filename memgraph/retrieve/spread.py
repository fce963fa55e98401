"""The cascade (cascade.py) scored on arrays: the same activations from the store's `ExpansionTable`.

`cascade.cascade` is the definition: every expansion's contribution is the seed's strength times its path
factor, and a memory's activation is the noisy-OR of its contributions with the strongest path kept for the
trace. Scoring that one `Expansion` object at a time (each with its list of `TraceStep`s) was most of a
cascade recall (profile at 1k memories: ~2,000 expansions, 60% of the pipeline). Here the same numbers come
from arrays, in the same order of floating-point operations (a path factor multiplies its steps from the
seed on; the noisy-OR multiplies in `expand`'s order), and the best path's trace steps are built only when a
returned memory's trace reads them. tests/conformance/test_expand_parity.py checks it equals `cascade` bit for
bit on every store.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from memgraph.config import Settings
from memgraph.models import TraceStep
from memgraph.retrieve.cascade import Activation, seed_strength_of
from memgraph.retrieve.seeds import Seed
from memgraph.store.base import GraphStore, MemoryFilter
from memgraph.store.traverse import ExpansionTable


class _TableActivation(Activation):
    """An `Activation` whose `path` is read from the table when first asked (only returned memories' are).
    Made by `Activations` on demand, its fields set as one dict (cheaper than the dataclass __init__)."""

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
) -> Activations:
    """`cascade.cascade`, scored on the store's expansion table (`Activations`: read `total` for all)."""
    strength = seed_strength_of(seeds, strengths)
    if not strength or settings.max_depth <= 0:
        return EMPTY
    table = store.expand_table(
        user_id,
        list(strength),
        max_depth=settings.max_depth,
        fanout_cap=settings.fanout_cap,
        weights=settings.relation_weights(),
        flt=flt,
    )
    return activations(table, strength, settings)


def activations(table: ExpansionTable, strength: dict[str, float], settings: Settings) -> Activations:
    """Per memory: the noisy-OR of its expansions' contributions and the first strongest one."""
    if not len(table):
        return EMPTY
    seed_strength = np.array([strength.get(s, 0.0) for s in table.seed_ids], dtype=np.float64)
    factor = path_factors(table, settings)[table.found]
    contribution = np.minimum(1.0, seed_strength[table.seed] * factor)
    live = np.flatnonzero(contribution > 0.0)  # in expand's order
    if not len(live):
        return EMPTY
    if table.noisy_or is not None:  # the same grouping compiled (walk_jit.noisy_or)
        total, best, top = table.noisy_or(table.memory_code[live], contribution[live])
        return Activations(table, total, best, live[top])
    # One stable sort groups each memory's expansions, each group in expand's order: the noisy-OR multiplies in
    # that order and the strongest is the first of equals (`cascade` keeps it: `>`). (np.unique, a renumbering,
    # a second sort and a lexsort did the same in ~3x the time: 1.0 against 0.3 ms at 10k memories.)
    code = table.memory_code[live]
    order = np.argsort(code, kind="stable")
    new_group = _run_starts(code[order])
    starts = np.flatnonzero(new_group)
    c = contribution[live][order]
    total = 1.0 - np.multiply.reduceat(1.0 - c, starts)
    best = np.maximum.reduceat(c, starts)
    group = np.cumsum(new_group) - 1  # each expansion's memory (a repeat of the groups' numbers by their sizes)
    tops = np.flatnonzero(c == best[group])
    first_top = tops[_run_starts(group[tops])]
    # memories in order of their first live expansion (the order `cascade` adds them in)
    # (each memory's first live expansion is a distinct position below len(live): placed on a table, not sorted)
    place = np.full(len(live), -1, dtype=np.int64)
    place[order[starts]] = np.arange(len(starts))
    by_first = place[place >= 0]
    at = live[order[first_top]][by_first]
    return Activations(table, total[by_first], best[by_first], at)


def _run_starts(keys: np.ndarray) -> np.ndarray:
    """Where each run of equal values of `keys` starts (True at 0)."""
    out = np.empty(len(keys), dtype=bool)
    if len(keys):
        out[0] = True
        np.not_equal(keys[1:], keys[:-1], out=out[1:])
    return out


class Activations(Mapping[str, Activation]):
    """`cascade`'s dict (memory id -> Activation, in the same order), with the Activation objects made only
    for the memories asked for, and the ids of the memories only where asked (`names`, `positions`): a recall
    scores every memory's `total` as an array and reads ids and the rest only for the ~120 it ranks (a dict and
    an object per memory was ~2,000 to ~5,000 of each per recall)."""

    def __init__(self, table: ExpansionTable, total: np.ndarray, best: np.ndarray, at: np.ndarray) -> None:
        self._table = table
        #: combined activation (noisy-OR) per memory, in `cascade`'s order
        self.total = total
        self._best = best
        self._where = at  # the position in the table of each memory's best expansion
        self._made: dict[str, Activation] = {}
        self._sorted: tuple[np.ndarray, np.ndarray] | None = None

    def name(self, i: int) -> str:
        """The id of the i-th memory (`cascade`'s order)."""
        return self._table.memory_ids[int(self._where[i])]

    @property
    def names(self) -> list[str]:
        return self.names_at(np.arange(len(self.total)))

    def names_at(self, at: np.ndarray) -> list[str]:
        """The ids of the memories at these positions."""
        ids = self._table.memory_ids
        where = self._where[at]
        take = getattr(ids, "take", None)  # SQLite's `IdsAt`: one pass over the rows
        if take is not None:
            names: list[str] = take(where)
            return names
        return [ids[j] for j in where.tolist()]

    @property
    def totals(self) -> dict[str, float]:
        """Memory id -> combined activation, in `cascade`'s order."""
        return dict(zip(self.names, self.total.tolist(), strict=True))

    def _by_code(self) -> tuple[np.ndarray, np.ndarray]:
        """The memories' codes sorted, and each one's position (made on first use)."""
        if self._sorted is None:
            code = self._table.memory_code[self._where]
            perm = np.argsort(code)
            self._sorted = (code[perm], perm)
        return self._sorted

    def positions(self, mids: list[str]) -> np.ndarray:
        """Each id's position among the memories (`cascade`'s order), -1 for one the cascade did not reach."""
        if not mids or not len(self.total):
            return np.full(len(mids), -1, dtype=np.int64)
        codes, perm = self._by_code()
        get = self._table.codes.get
        want = np.fromiter((get(m, -1) for m in mids), dtype=np.int64, count=len(mids))
        j = np.minimum(np.searchsorted(codes, want), len(codes) - 1)
        return np.where(codes[j] == want, perm[j], -1)

    def find(self, mid: str) -> Activation | None:
        """The memory's activation, None where the cascade did not reach it (`get` without the KeyError)."""
        act = self._made.get(mid)
        if act is not None:
            return act
        code = self._table.codes.get(mid) if len(self.total) else None
        if code is None:
            return None
        codes, perm = self._by_code()
        j = int(codes.searchsorted(code))
        if j >= len(codes) or codes[j] != code:
            return None
        return self._make(mid, int(perm[j]))

    def _make(self, mid: str, i: int) -> Activation:
        j = int(self._where[i])
        t = self._table
        act = _TableActivation.__new__(_TableActivation)
        act.__dict__ = {
            "memory_id": mid, "total": float(self.total[i]), "best": float(self._best[i]),
            "seed_id": t.seed_ids[int(t.seed[j])], "depth": int(t.depth[j]), "_table": t,
            "_state": int(t.found[j]),
        }  # fmt: skip
        self._made[mid] = act
        return act

    def __getitem__(self, mid: str) -> Activation:
        act = self.find(mid)
        if act is None:
            raise KeyError(mid)
        return act

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.total)

    def __contains__(self, mid: object) -> bool:
        return isinstance(mid, str) and self.find(mid) is not None


EMPTY = Activations(ExpansionTable.empty(), np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.int64))
