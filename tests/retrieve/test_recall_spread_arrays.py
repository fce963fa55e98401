"""The cascade's array shortcuts return what the plain computations return: `Activations` read by position and
by id (the pool's ids taken only for the candidates picked), `score_many` against its formula written out,
the walk's lazy row ids, and a gather of adjacency lists some of which were replaced."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memgraph.config import Settings
from memgraph.models import Memory, MemoryKind, Provenance, TraceStep
from memgraph.retrieve.pipeline import _Candidates, top_relevance
from memgraph.retrieve.rank import Scored, effective_confidence, recency_boost, score, score_many
from memgraph.retrieve.spread import activations
from memgraph.store.base import Expansion
from memgraph.store.sqlite.adjacency import Adjacency
from memgraph.store.sqlite.columns import IdsAt
from memgraph.store.traverse import ExpansionTable


def _expansions(rng: random.Random, n_mem: int, n_seed: int, count: int) -> list[Expansion]:
    """Random paths of one or two steps from a few seeds to a few memories (memories reached many times)."""
    out = []
    for _ in range(count):
        seed = f"s{rng.randrange(n_seed)}"
        depth = rng.choice((1, 2))
        path = [
            TraceStep(relation=rng.choice(("HasTag", "RelatesTo")), via=f"v{rng.randrange(9)}",
                      weight=rng.choice((0.3, 0.8, 1.0)), degree=rng.choice((None, 3, 40)))
            for _ in range(depth)
        ]  # fmt: skip
        out.append(Expansion(memory_id=f"m{rng.randrange(n_mem)}", seed_id=seed, depth=depth, path=path))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_activations_read_by_position_equal_their_dict(seed: int) -> None:
    rng = random.Random(seed)
    settings = Settings(hub_damping_size=10)
    table = ExpansionTable.of(_expansions(rng, 30, 4, rng.randrange(1, 120)))
    strength = {f"s{i}": rng.choice((0.0, 0.5, 1.0, round(rng.random(), 3))) for i in range(4)}
    acts = activations(table, strength, settings)
    totals = acts.totals
    names = list(totals)
    assert acts.names == names == list(acts) and len(acts) == len(names)
    assert acts.total.tolist() == list(totals.values())
    asked = [f"m{i}" for i in range(35)] + ["s0", "nowhere"]
    pos = acts.positions(asked).tolist()
    for mid, p in zip(asked, pos, strict=True):
        assert p == (names.index(mid) if mid in totals else -1)
        found = acts.find(mid)
        assert (found is None) == (mid not in totals) == (mid not in acts)
        if found is not None:
            assert found is acts[mid] and found.total == totals[mid]
        else:
            with pytest.raises(KeyError):
                acts[mid]
    picked = np.array(sorted(rng.sample(range(len(names)), len(names) // 2)), dtype=np.int64)
    assert acts.names_at(picked) == [names[i] for i in picked.tolist()]


@pytest.mark.parametrize("seed", range(12))
def test_the_pool_from_lazy_candidates_is_the_pool_from_their_list(seed: int) -> None:
    rng = random.Random(seed)
    table = ExpansionTable.of(_expansions(rng, 60, 5, rng.randrange(1, 200)))
    strength = {f"s{i}": rng.random() for i in range(5)}
    acts = activations(table, strength, Settings())
    seeds = [f"m{i}" for i in rng.sample(range(70), 8)]  # some reached by the cascade too, some not
    at = acts.positions(seeds)
    reached = np.ones(len(acts), dtype=bool)
    reached[at[at >= 0]] = False
    only = np.flatnonzero(reached)
    cands = _Candidates(seeds, acts, only)
    plain = seeds + [acts.names[i] for i in only.tolist()]
    assert list(cands) == plain and len(cands) == len(plain)
    assert [cands[i] for i in range(len(cands))] == plain
    values = np.array([rng.choice((0.1, 0.2, 0.5)) for _ in plain])  # ties: ids decide
    for k in (1, 5, len(plain), len(plain) + 3):
        assert list(top_relevance(cands, values, k).items()) == list(top_relevance(plain, values, k).items())


def test_ids_at_positions_are_those_positions_ids() -> None:
    ids = [f"id{i}" for i in range(10)]
    rows = np.array([3, 3, 9, 0, 5], dtype=np.int64)
    lazy = IdsAt(ids, rows)
    want = [ids[r] for r in rows.tolist()]
    assert list(lazy) == want and len(lazy) == 5
    assert [lazy[i] for i in range(5)] == want and lazy[1:4] == want[1:4]
    assert lazy.take(np.array([4, 0])) == [want[4], want[0]]


def _memories(rng: random.Random, now: datetime) -> list[Memory]:
    out = []
    for i in range(60):
        updated = now - timedelta(hours=rng.choice((0.0, 1.5, 30.0, 900.0)))
        accessed = updated + timedelta(hours=rng.choice((-5.0, 0.0, 7.0)))
        # the decay job's state, a state it did not write whole (the stored confidence is the baseline), none
        meta = {"_decay": {"c0": 0.9, "written": 0.7}} if i % 4 == 0 else {"_decay": {"c0": 0.9}} if i % 4 == 1 else {}
        out.append(
            Memory(
                id=f"m{i}", user_id="u", content=f"memory {i}", kind=rng.choice(list(MemoryKind)),
                provenance=rng.choice(list(Provenance)), importance=rng.random(), confidence=rng.random(),
                pinned=i % 9 == 0, tags=rng.sample(["speaker:ada", "date:2024-01-02", "topic:boats", "x"], 2),
                metadata=meta, created_at=updated, updated_at=updated, last_accessed=accessed,
            )
        )  # fmt: skip
    return out


def _scored(m: Memory, relevance: float, now: datetime, settings: Settings, cues: set[str] | None) -> Scored:
    """The score written out from its parts (the formula `score_many` computes inline, for speed)."""
    conf = effective_confidence(m, now, settings)
    rec = recency_boost(m, now, settings)
    w = settings.importance_weight
    imp = (1.0 - w) + w * m.importance
    matched = sorted(set(m.tags) & cues) if cues else []
    cue = (1.0 + settings.cue_boost) ** len(matched)
    return Scored(
        memory=m, relevance=relevance, confidence=conf, recency=rec, importance_factor=imp, cue_factor=cue,
        final=relevance * conf * rec * imp * cue, matched_tags=matched,
    )  # fmt: skip


@pytest.mark.parametrize(
    # one cue tag takes score_many's membership test (carried by some memories, or by none)
    "cues", [None, set(), {"speaker:ada"}, {"nope"}, {"speaker:ada", "date:2024-01-02", "nope"}]
)
def test_score_many_is_the_formula_from_its_parts(cues: set[str] | None) -> None:
    rng = random.Random(7)
    now = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)
    settings = Settings()
    mems = _memories(rng, now)
    rel = [rng.random() for _ in mems]
    want = [_scored(m, r, now, settings, cues) for m, r in zip(mems, rel, strict=True)]
    assert score_many(zip(mems, rel, strict=True), now, settings, cues) == want
    assert [score(m, r, now, settings, cues) for m, r in zip(mems, rel, strict=True)] == want


@pytest.mark.parametrize("seed", range(8))
def test_a_gather_with_replaced_lists_is_each_lists_rows(seed: int) -> None:
    rng = np.random.default_rng(seed)
    adj = Adjacency([np.int64, np.float64])
    n = 50
    owner = rng.integers(0, n, size=300)
    adj.build(n, owner, (rng.integers(0, 1000, size=300), rng.random(300)))
    for o in rng.choice(n + 10, size=int(rng.integers(0, 40)), replace=False).tolist():
        size = int(rng.integers(0, 6))
        adj.replace(o, (rng.integers(0, 1000, size=size), rng.random(size)))
    owners = np.unique(rng.integers(0, n + 12, size=25))
    pos, (a, b) = adj.gather(owners)
    want_pos, want_a, want_b = [], [], []
    for p, o in enumerate(owners.tolist()):
        la, lb = adj.get(o)
        want_pos += [p] * len(la)
        want_a += la.tolist()
        want_b += lb.tolist()
    assert pos.tolist() == want_pos and a.tolist() == want_a and b.tolist() == want_b
