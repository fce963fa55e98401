"""Stage 3 of recall: order candidates by relevance x confidence x recency x importance.

    final = relevance x effective_confidence x recency_boost x ((1 - w) + w x importance) x cue_factor

relevance is the seed strength (the best seed 1) combined with the cascade's evidence as a noisy-OR that graph
evidence alone cannot lift to 1 (cascade.py `combine_relevance`; or a cross-encoder score when one is
configured); effective confidence decays the stored confidence
by the kind's half-life since the memory was last touched (pinned memories never decay); recency_boost =
1 + 0.5 e^(-hours since the last write / 24); cue_factor is (1 + cue_boost) for every facet tag the query names that
the memory carries. The seed strength blends RRF with the raw scores (retrieve/cascade.py `seed_strengths`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from operator import attrgetter

from memgraph.confidence import DECAY_STATE_KEY, baseline
from memgraph.config import Settings
from memgraph.models import Memory


@dataclass
class Scored:
    memory: Memory
    relevance: float
    confidence: float
    recency: float
    importance_factor: float
    cue_factor: float
    final: float
    matched_tags: list[str] = field(default_factory=list)


def effective_confidence(memory: Memory, now: datetime, settings: Settings) -> float:
    """The confidence before decay (`confidence.baseline`: what the decay job decayed from, so a memory the job
    has already decayed is not decayed twice) times e^(-days since last touch / half-life of its kind)."""
    if memory.pinned:
        return memory.confidence
    touched = max(memory.last_accessed, memory.updated_at)
    days = max(0.0, (now - touched).total_seconds() / 86400.0)
    half_life = settings.half_life_days(memory.kind.value, memory.provenance.value)
    base = baseline(memory)
    return base * math.exp(-days / half_life) if half_life > 0 else base


def recency_boost(memory: Memory, now: datetime, settings: Settings) -> float:
    """1 + amplitude x e^(-hours since the last write / recency_hours). From the last write (created, updated,
    reinforced by a restatement), not the last serve: a boost for having been recalled made every served memory
    1.5x as likely to be served again the next day (maintenance.py)."""
    hours = max(0.0, (now - memory.updated_at).total_seconds() / 3600.0)
    return 1.0 + settings.recency_amplitude * math.exp(-hours / settings.recency_hours)


def score(
    memory: Memory,
    relevance: float,
    now: datetime,
    settings: Settings,
    cue_tags: set[str] | None = None,
) -> Scored:
    """One memory's score: relevance x effective confidence x recency boost x importance factor x cue factor
    (`score_many` for one pair)."""
    return score_many([(memory, relevance)], now, settings, cue_tags)[0]


def score_many(
    pairs: Iterable[tuple[Memory, float]],
    now: datetime,
    settings: Settings,
    cue_tags: set[str] | None = None,
) -> list[Scored]:
    """Each (memory, relevance) scored: relevance x `effective_confidence` x `recency_boost` x importance factor
    x cue factor, computed inline with the settings read once and one `now - updated_at` where that is also the
    last touch. Recall scores ~120 candidates; `score`
    one at a time (five calls and a settings lookup each) was ~10 us a memory."""
    w = settings.importance_weight
    boost = 1.0 + settings.cue_boost
    amplitude, hours_scale = settings.recency_amplitude, settings.recency_hours
    half_lives: dict[tuple[object, object], float] = {}
    exp = math.exp
    out: list[Scored] = []
    append = out.append
    one = next(iter(cue_tags)) if cue_tags and len(cue_tags) == 1 else None
    # comparisons instead of max(0.0, x) and no cue-tag work without cue tags: the same values (boost ** 0 is
    # 1.0), ~25% less per memory (a cascade scores ~120)
    for memory, relevance in pairs:
        updated = memory.updated_at
        since_write = (now - updated).total_seconds()
        if memory.pinned:
            conf = memory.confidence
        else:
            last = memory.last_accessed
            days = (since_write if last <= updated else (now - last).total_seconds()) / 86400.0
            if days < 0.0:
                days = 0.0
            key = (memory.kind, memory.provenance)  # an enum's .value is a property: ~0.4 us each
            half_life = half_lives.get(key)
            if half_life is None:
                half_life = half_lives[key] = settings.half_life_days(memory.kind.value, memory.provenance.value)
            # `baseline` only where the decay job left its state: else it is the stored confidence (~0.3 us less)
            base = baseline(memory) if DECAY_STATE_KEY in memory.metadata else float(memory.confidence)
            conf = base * exp(-days / half_life) if half_life > 0 else base
        hours = since_write / 3600.0
        if hours < 0.0:
            hours = 0.0
        rec = 1.0 + amplitude * exp(-hours / hours_scale)
        imp = (1.0 - w) + w * memory.importance
        if one is not None:  # one cue tag (a speaker: most cue-bearing questions): a membership test, no sort
            matched = [one] if one in memory.tags else []
            cue = boost if matched else 1.0
        elif cue_tags:
            matched = sorted(cue_tags.intersection(memory.tags))
            cue = boost ** len(matched)
        else:
            matched, cue = [], 1.0
        # positional, in field order: with keywords the dataclass call was about half of a memory's cost here
        append(Scored(memory, relevance, conf, rec, imp, cue, relevance * conf * rec * imp * cue, matched))
    return out


def is_question(text: str) -> bool:
    """Whether a memory ends in a question ("How long have you been playing?"): recall weighs its relevance by
    `Settings.question_relevance`.

    A question shares the words of a query about its topic but holds no answer: the statement that answers
    it (often the next turn, which the cascade reaches through the sequence link) does. Cascade recall only
    (pipeline.py): without the graph nothing reaches the answer, and the question is the nearest hit left.
    Measured on LoCoMo dev: see `Settings.question_relevance`."""
    return text.rstrip().endswith("?")


def rank(scored: list[Scored]) -> list[Scored]:
    """Best first; ties by newer, then id (stable across stores). Sorted by score alone, then only runs of
    equal scores by the full key (a key of score, creation time and id for every candidate was ~80 us of a
    cascade recall's ~120; equal scores are rare)."""
    out = sorted(scored, key=attrgetter("final"), reverse=True)
    n = len(out)
    i = 0
    while i < n - 1:
        if out[i + 1].final != out[i].final:
            i += 1
            continue
        j = i + 1
        while j < n and out[j].final == out[i].final:
            j += 1
        out[i:j] = sorted(out[i:j], key=lambda s: (-s.memory.created_at.timestamp(), s.memory.id))
        i = j
    return out
