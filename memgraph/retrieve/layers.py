"""Stage 4 of recall: put memories in prompt order by layer and stop at top_k or the token budget.

Order (seed 001 "4-Layer Activation", DESIGN.md read path step 4):
1. `triggered`: constraints (negative memories) whose trigger patterns occur in the query; always surfaced
   when the budget allows, relevance or not (seed 002 "Negative Memories").
2. `baseline`: pinned memories, and constraints/preferences of high priority
   (importance >= baseline_importance).
3. `contextual`: everything else the query found, best first.
4. `procedural`: up to `max_procedures` procedures the query found.
Layers compete for the budget in that order; a memory that does not fit is skipped and smaller later ones may
still fit (seed 000 2.6). Tokens are counted with the embedder's own tokenizer.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from memgraph.models import Memory, MemoryKind
from memgraph.retrieve.rank import Scored

TRIGGERED = "triggered"
BASELINE = "baseline"
CONTEXTUAL = "contextual"
PROCEDURAL = "procedural"
LAYER_ORDER = (TRIGGERED, BASELINE, CONTEXTUAL, PROCEDURAL)


@dataclass
class Placed:
    scored: Scored
    layer: str
    tokens: int


def trigger_matches(pattern: str, query: str) -> bool:
    """A trigger pattern matches when it occurs in the query (case-insensitive); `re:<regex>` is a regular
    expression and a pattern with `*`/`?` is a glob matched against each query word."""
    if not pattern:
        return False
    if pattern.startswith("re:"):
        try:
            return re.search(pattern[3:], query, re.IGNORECASE) is not None
        except re.error:
            return False
    if any(ch in pattern for ch in "*?["):
        words = query.split()
        return any(fnmatch.fnmatch(w.casefold(), pattern.casefold()) for w in words)
    return pattern.casefold() in query.casefold()


def is_triggered(memory: Memory, query: str) -> bool:
    return memory.kind is MemoryKind.CONSTRAINT and any(
        trigger_matches(p, query) for p in memory.trigger_patterns
    )


def is_baseline(memory: Memory, baseline_importance: float) -> bool:
    if memory.pinned:
        return True
    return (
        memory.kind in (MemoryKind.CONSTRAINT, MemoryKind.PREFERENCE)
        and memory.importance >= baseline_importance
    )


def layer_of(memory: Memory, query: str, baseline_importance: float) -> str:
    if is_triggered(memory, query):
        return TRIGGERED
    if is_baseline(memory, baseline_importance):
        return BASELINE
    if memory.kind is MemoryKind.PROCEDURE:
        return PROCEDURAL
    return CONTEXTUAL


def assemble(
    candidates: Iterable[Scored],
    *,
    query: str,
    top_k: int,
    token_budget: int,
    count_tokens: Callable[[str], int],
    max_procedures: int,
    baseline_importance: float,
    max_baseline: int,
) -> list[Placed]:
    """Pick memories layer by layer (each keeps its ranked order) until top_k or the budget is reached."""
    by_layer: dict[str, list[Scored]] = {name: [] for name in LAYER_ORDER}
    seen: set[str] = set()
    for s in candidates:
        if s.memory.id in seen:
            continue
        seen.add(s.memory.id)
        by_layer[layer_of(s.memory, query, baseline_importance)].append(s)
    by_layer[BASELINE] = by_layer[BASELINE][:max_baseline]
    by_layer[PROCEDURAL] = by_layer[PROCEDURAL][:max_procedures]
    placed: list[Placed] = []
    used = 0
    for layer in LAYER_ORDER:
        for s in by_layer[layer]:
            if len(placed) >= top_k:
                return placed
            tokens = count_tokens(s.memory.content)
            if used + tokens > token_budget:
                continue
            used += tokens
            placed.append(Placed(scored=s, layer=layer, tokens=tokens))
    return placed
