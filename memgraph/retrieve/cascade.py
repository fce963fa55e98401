"""Stage 2 of recall: spread activation from the seeds through the graph (the cascade).

The traversal itself runs in the store (`GraphStore.expand`: in-memory adjacency arrays on SQLite, Cypher on
Neo4j and FalkorDB); this module only scores the paths it returns. A path from a seed contributes

    seed_strength x product over steps of (edge weight x hub damping) x edge_decay ^ depth

where edge weights are HasTag 0.8, InCluster 0.6, Supersedes 0.9, RelatesTo its own weight, others 0.3, the
decay is 0.7 per hop, and a step through a tag or cluster with more members than `hub_damping_size` passes on
only size/members of it (a tag on every memory says nothing about any one). Discovered (similarity) RelatesTo
links pass on `discovered_link_factor` of their weight: the vector seeds already cover "similar to the
query", so a similarity link mostly repeats what seeding found (on LoCoMo dev, full-weight similarity links cost
0.13 R@10).

Unlike the seed's sketch, the contribution is scaled by the seed's own strength, and contributions from
several seeds combine (spreading activation): a memory next to many good seeds is a good memory. They combine
as a noisy-OR, 1 - prod(1 - c), read as "the chance that at least one path is relevant": it grows with every
path but never passes 1, so the cascade stays on the seeds' scale (the best seed is 1) and a memory reached
from many weak paths cannot outrank a direct hit by volume alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from memgraph.config import Settings
from memgraph.models import TraceStep
from memgraph.retrieve.seeds import Seed
from memgraph.store.base import GraphStore, MemoryFilter

RelevanceT = TypeVar("RelevanceT", float, np.ndarray)


@dataclass
class Activation:
    """What the cascade gave one memory: combined activation (noisy-OR over paths) and the strongest path."""

    memory_id: str
    total: float = 0.0
    best: float = 0.0
    seed_id: str | None = None
    depth: int = 0
    path: list[TraceStep] = field(default_factory=list)


def hub_damping(degree: int | None, size: int) -> float:
    """1 for a tag/cluster of at most `size` members, size/members above that."""
    if degree is None or degree <= size or size <= 0:
        return 1.0
    return size / degree


def path_factor(path: list[TraceStep], settings: Settings) -> float:
    """Product of (weight x hub damping) over the steps, times edge_decay per hop."""
    factor = 1.0
    for step in path:
        factor *= step.weight * hub_damping(step.degree, settings.hub_damping_size) * settings.edge_decay
    return factor


def seed_strengths(seeds: list[Seed], raw_weight: float = 0.0) -> dict[str, float]:
    """How strongly each seed matched, in [0, 1]: (1 - w) x fused score / best fused score + w x the mean of its
    vector similarity / best similarity and its BM25 score / best BM25 score (w = `raw_weight`).

    The fused score (fusion.py) orders the seeds; blending in the max-normalised raw scores keeps how much
    better the best hit is when the fusion does not (RRF keeps only ranks: a hit with cosine 0.83 and BM25 4.9
    and the runner-up at 0.45 and 1.9 came out 1.0 and 0.97). On LoCoMo dev, w = 0.5: +0.01 R@10 with RRF."""
    if not seeds:
        return {}
    top = max(s.score for s in seeds) or 1.0
    if raw_weight <= 0.0:
        return {s.id: s.score / top for s in seeds}
    top_v = max((s.vector_score or 0.0) for s in seeds) or 1.0
    top_t = max((s.text_score or 0.0) for s in seeds) or 1.0
    return {
        s.id: (1.0 - raw_weight) * s.score / top
        + raw_weight * ((s.vector_score or 0.0) / top_v + (s.text_score or 0.0) / top_t) / 2.0
        for s in seeds
    }


def seed_strength_of(seeds: list[Seed], strengths: dict[str, float] | None) -> dict[str, float]:
    """Each seed's strength: `seed_strengths(seeds)` when none are given, else the given ones (0 for a seed
    they leave out), in seed order."""
    if strengths is None:
        return seed_strengths(seeds)
    return {s.id: strengths.get(s.id, 0.0) for s in seeds}


def cascade(
    store: GraphStore,
    user_id: str,
    seeds: list[Seed],
    flt: MemoryFilter,
    settings: Settings,
    strengths: dict[str, float] | None = None,
) -> dict[str, Activation]:
    """Expand from the seeds in the store and score every path; seeds reached from other seeds count too.
    `strengths` (default: from `seeds`) scales each seed's contribution."""
    strength = seed_strength_of(seeds, strengths)
    if not strength or settings.max_depth <= 0:
        return {}
    expansions = store.expand(
        user_id,
        list(strength),
        max_depth=settings.max_depth,
        fanout_cap=settings.fanout_cap,
        weights=settings.relation_weights(),
        flt=flt,
    )
    out: dict[str, Activation] = {}
    missed: dict[str, float] = {}  # memory -> prod(1 - c): the chance that no path so far is relevant
    for exp in expansions:
        contribution = min(1.0, strength.get(exp.seed_id, 0.0) * path_factor(exp.path, settings))
        if contribution <= 0.0:
            continue
        act = out.get(exp.memory_id)
        if act is None:
            act = out[exp.memory_id] = Activation(memory_id=exp.memory_id)
        missed[exp.memory_id] = missed.get(exp.memory_id, 1.0) * (1.0 - contribution)
        act.total = 1.0 - missed[exp.memory_id]
        if contribution > act.best:
            act.best = contribution
            act.seed_id = exp.seed_id
            act.depth = exp.depth
            act.path = exp.path
    return out


def combine_relevance(seed: RelevanceT, graph: RelevanceT, settings: Settings) -> RelevanceT:
    """A candidate's relevance from its seed strength (the best seed 1) and its cascade activation.

    A noisy-OR, 1 - (1 - seed) x (1 - min(cap, cascade_weight x graph)): the graph's evidence lifts a weak or
    missing direct match, but never to the best direct hit's 1 (`graph_relevance_cap`), however many paths lead
    to it. The earlier sum (seed + 1.5 x graph) let a memory reached from many seeds, the greeting "Nice to meet
    you, Priya..." with 13 co-recall links, outrank the correction a question asked for.

    Floats or arrays of them (the pipeline combines every candidate in one call: ~5,000 Python calls per
    recall at 10k memories cost ~5% of it); the same operations either way."""
    g = np.minimum(settings.graph_relevance_cap, settings.cascade_weight * graph)
    out: RelevanceT = 1.0 - (1.0 - np.minimum(1.0, seed)) * (1.0 - g)
    return out
