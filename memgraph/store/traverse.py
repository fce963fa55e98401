"""The breadth-first bookkeeping of `GraphStore.expand` on the Cypher stores (Neo4j, FalkorDB).

The store answers one question per hop, inside the database (Cypher): "which neighbours of these
nodes, at most `fanout_cap` per node, pass the filter?" (memories: heaviest edge first; tags/clusters: the
rarest first; members of a tag/cluster: the most important first), plus the member count (degree) of each
tag/cluster it reached. This module walks the hops and keeps, per (seed, memory), the first (so shortest)
path. SQLite runs the same rules over its in-memory adjacency arrays (store/sqlite/csr.py);
tests/conformance/test_expand_parity.py checks that all three stores return the same expansions.
`ExpansionTable` is the same answer as arrays (SQLite builds it from its walk, the Cypher stores from their
expansions), for the cascade's vectorised scoring (retrieve/spread.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

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
    return walk(seeds, max_depth=max_depth, weights=weights, neighbours=neighbours).expansions()


def walk(
    seeds: Sequence[str],
    *,
    max_depth: int,
    weights: dict[str, float],
    neighbours: Callable[[set[NodeKey], bool], tuple[Neighbours, Degrees]],
) -> ExpansionTable:
    """`breadth_first` as the table the cascade scores (the Cypher stores' `expand_table`): the walk's states
    kept parent first, each (seed, node) state one step from its parent, and no `Expansion` or `TraceStep` made
    unless asked. Building the expansions and then the table from them was ~60% of a Neo4j recall's client CPU
    on one LoCoMo conversation (~3k objects per recall, cProfile)."""
    seed_list = list(dict.fromkeys(seeds))
    parent: list[int] = []
    steps: list[_Step | None] = []
    frontier: dict[tuple[int, NodeKey], int] = {}  # (seed position, node) -> its state
    for i, s in enumerate(seed_list):
        frontier[(i, ("m", s))] = len(parent)
        parent.append(-1)
        steps.append(None)
    visited: set[tuple[int, NodeKey]] = set(frontier)
    found: dict[tuple[int, str], int] = {}  # (seed position, memory) -> its first state
    found_depth: list[int] = []
    other_weight = weights.get("other", 0.3)
    relates_to = Relation.RELATES_TO.value
    for depth in range(1, max_depth + 1):
        nodes = {node for (_, node) in frontier}
        hop, degrees = neighbours(nodes, depth != max_depth)
        nxt: dict[tuple[int, NodeKey], int] = {}
        for (seed, node), state in frontier.items():
            for rel, other, weight in hop.get(node, ()):
                key = (seed, other)
                if key in visited:
                    continue
                visited.add(key)
                w = float(weight) if rel == relates_to else weights.get(rel, other_weight)
                if other[0] == "m":
                    step: _Step = (rel, other[1], w, None)
                else:
                    label = "tag" if other[0] == "t" else "cluster"
                    step = (rel, f"{label}:{other[1]}", w, degrees.get(other))
                nxt[key] = len(parent)
                parent.append(state)
                steps.append(step)
                if other[0] == "m" and other[1] != seed_list[seed] and (seed, other[1]) not in found:
                    found[(seed, other[1])] = len(parent) - 1
                    found_depth.append(depth)
        frontier = nxt
        if not frontier:
            break
    codes: dict[str, int] = {}
    memory_ids = [mid for (_, mid) in found]
    # one object per distinct step (shared between paths), made when a path is read
    made: dict[_Step, TraceStep] = {}

    def step_at(state: int) -> TraceStep:
        st = steps[state]
        if st is None:
            raise IndexError(state)
        obj = made.get(st)
        if obj is None:
            obj = made[st] = TraceStep.model_construct(relation=st[0], via=st[1], weight=st[2], degree=st[3])
        return obj

    return ExpansionTable(
        seed_ids=seed_list,
        memory_ids=memory_ids,
        memory_code=np.array([codes.setdefault(m, len(codes)) for m in memory_ids], dtype=np.int64),
        found=np.fromiter(found.values(), dtype=np.int64, count=len(found)),
        seed=np.fromiter((s for (s, _) in found), dtype=np.int64, count=len(found)),
        depth=np.array(found_depth, dtype=np.int64),
        parent=np.array(parent, dtype=np.int64),
        weight=np.array([1.0 if st is None else st[2] for st in steps], dtype=np.float64),
        degree=np.array([-1 if st is None or st[3] is None else st[3] for st in steps], dtype=np.int64),
        step=step_at,
        codes=codes,
    )


class ExpansionTable:
    """`GraphStore.expand`'s answer as arrays, for a caller that scores thousands of expansions per recall (the
    cascade): building an `Expansion` with its trace steps for each cost more than the walk itself (profile:
    ~60% of a cascade recall at 1k memories). The walk's states are kept parent first: a seed's state has parent
    -1, every other state is one step (relation, via, weight, degree) from its parent. `found` are the states
    that are memory expansions, in `expand`'s order; `memory_ids`, `memory_code` (equal codes: the same memory),
    `seed` and `depth` are aligned with it; `codes` maps a memory id to its code (None: made from the two when
    first asked). `memory_ids` may be a lazy sequence (SQLite: its row ids looked up per item asked).
    Trace steps are built only for the states asked for (`path`); `expansions()` is exactly `expand`'s list."""

    def __init__(
        self,
        *,
        seed_ids: list[str],
        memory_ids: Sequence[str],
        memory_code: np.ndarray,
        found: np.ndarray,
        seed: np.ndarray,
        depth: np.ndarray,
        parent: np.ndarray,
        weight: np.ndarray,
        degree: np.ndarray,
        step: Callable[[int], TraceStep],
        codes: Mapping[str, int] | None = None,
    ) -> None:
        self.seed_ids = seed_ids
        self.memory_ids = memory_ids
        self.memory_code = memory_code
        self.found = found
        self.seed = seed
        self.depth = depth
        self.parent = parent
        self.weight = weight
        self.degree = degree  # -1: a step to a memory (TraceStep.degree None)
        self._step = step
        self._codes = codes
        #: `spread.activations`' grouping of the live expansions by memory, compiled, where the store's walk
        #: ran compiled (walk_jit.noisy_or: the same numbers as the numpy grouping); None: numpy.
        self.noisy_or: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]] | None = None

    @property
    def codes(self) -> Mapping[str, int]:
        """Memory id -> its code in `memory_code` (for ids the table may not hold: a caller `get`s)."""
        if self._codes is None:
            self._codes = dict(zip(self.memory_ids, self.memory_code.tolist(), strict=True))
        return self._codes

    def __len__(self) -> int:
        return len(self.found)

    def path(self, state: int) -> list[TraceStep]:
        """The trace steps from the seed to this state."""
        steps: list[TraceStep] = []
        parent = self.parent
        while parent[state] >= 0:
            steps.append(self._step(state))
            state = int(parent[state])
        steps.reverse()
        return steps

    def expansions(self) -> list[Expansion]:
        """The table as `expand` returns it."""
        out = []
        for i, state in enumerate(self.found.tolist()):
            path = self.path(state)
            out.append(
                Expansion.model_construct(
                    memory_id=self.memory_ids[i], seed_id=self.seed_ids[int(self.seed[i])], depth=len(path), path=path
                )
            )
        return out

    @classmethod
    def empty(cls) -> ExpansionTable:
        none = np.zeros(0, dtype=np.int64)
        return cls(
            seed_ids=[],
            memory_ids=[],
            memory_code=none,
            found=none,
            seed=none,
            depth=none,
            parent=none,
            weight=np.zeros(0, dtype=np.float64),
            degree=none,
            step=_no_step,
        )

    @classmethod
    def of(cls, expansions: Sequence[Expansion]) -> ExpansionTable:
        """The table of an `expand` result, for a store that has only `expand` (SQLite and the Cypher stores
        build theirs from their walks): one state per step of each path, so that scoring the table scores
        exactly these paths."""
        seed_pos: dict[str, int] = {}
        root: dict[str, int] = {}  # seed -> its state (no step)
        codes: dict[str, int] = {}
        parent: list[int] = []
        steps: list[TraceStep | None] = []
        found: list[int] = []
        seed: list[int] = []
        for exp in expansions:
            seed.append(seed_pos.setdefault(exp.seed_id, len(seed_pos)))
            prev = root.get(exp.seed_id, -1)
            if prev < 0:
                prev = root[exp.seed_id] = len(parent)
                parent.append(-1)
                steps.append(None)
            for st in exp.path:
                parent.append(prev)
                steps.append(st)
                prev = len(parent) - 1
            found.append(prev)

        def step(state: int) -> TraceStep:
            st = steps[state]
            if st is None:
                raise IndexError(state)
            return st

        weight = [1.0 if st is None else float(st.weight) for st in steps]
        degree = [-1 if st is None or st.degree is None else int(st.degree) for st in steps]
        return cls(
            seed_ids=list(seed_pos),
            memory_ids=[e.memory_id for e in expansions],
            memory_code=np.array([codes.setdefault(e.memory_id, len(codes)) for e in expansions], dtype=np.int64),
            found=np.array(found, dtype=np.int64),
            seed=np.array(seed, dtype=np.int64),
            depth=np.array([e.depth for e in expansions], dtype=np.int64),
            parent=np.array(parent, dtype=np.int64),
            weight=np.array(weight, dtype=np.float64),
            degree=np.array(degree, dtype=np.int64),
            step=step,
            codes=codes,
        )


def _no_step(state: int) -> TraceStep:
    raise IndexError(state)
