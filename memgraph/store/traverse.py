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
    seed_list = list(dict.fromkeys(seeds))
    frontier: dict[tuple[str, NodeKey], tuple[_Step, ...]] = {(s, ("m", s)): () for s in seed_list}
    visited: set[tuple[str, NodeKey]] = set(frontier)
    found: dict[tuple[str, str], tuple[int, tuple[_Step, ...]]] = {}
    other_weight = weights.get("other", 0.3)
    for depth in range(1, max_depth + 1):
        nodes = {node for (_, node) in frontier}
        hop, degrees = neighbours(nodes, depth != max_depth)
        nxt: dict[tuple[str, NodeKey], tuple[_Step, ...]] = {}
        for (seed, node), path in frontier.items():
            for rel, other, weight in hop.get(node, []):
                state = (seed, other)
                if state in visited:
                    continue
                visited.add(state)
                w = float(weight) if rel == Relation.RELATES_TO.value else weights.get(rel, other_weight)
                if other[0] == "m":
                    step: _Step = (rel, other[1], w, None)
                else:
                    label = "tag" if other[0] == "t" else "cluster"
                    step = (rel, f"{label}:{other[1]}", w, degrees.get(other))
                step_path = (*path, step)
                nxt[state] = step_path
                if other[0] == "m" and other[1] != seed:
                    found.setdefault((seed, other[1]), (depth, step_path))
        frontier = nxt
        if not frontier:
            break
    # model_construct: built by the thousand per recall from values made right here; steps are shared
    # between paths (one object per distinct step)
    steps: dict[_Step, TraceStep] = {}

    def step_of(st: _Step) -> TraceStep:
        obj = steps.get(st)
        if obj is None:
            obj = steps[st] = TraceStep.model_construct(relation=st[0], via=st[1], weight=st[2], degree=st[3])
        return obj

    return [
        Expansion.model_construct(memory_id=mid, seed_id=seed, depth=depth, path=[step_of(st) for st in path])
        for (seed, mid), (depth, path) in found.items()
    ]


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
        """The table of an `expand` result (the Cypher stores' `expand_table`): one state per step of each
        path, so that scoring the table scores exactly these paths."""
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
