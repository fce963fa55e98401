"""Stage 4 of recall: put memories in prompt order by section and stop at top_k or the token budget.

Sections (four activation layers; the trace calls them `section`, since a
memory's own `layer` field is something else):
1. `triggered`: constraints (negative memories) whose trigger patterns occur in the query; surfaced whatever
   their relevance (negative memories: what not to do);
2. `baseline`: pinned memories, and constraints/preferences of high priority (importance >= baseline_importance);
3. `contextual` and `procedural`: what the query found, ranked together by score (at most `max_procedures`
   procedures);
4. `weak`: when nothing passed the similarity threshold, the closest memories below it (pipeline.py).
Triggered and baseline memories take at most half of `top_k` (`fixed_share`): before, they were placed first
and filled `top_k` with memories the query did not ask for, and procedures came last, so "How do I release
Atlas?" with `-k 10` lost "To release Atlas: bump the version..." although it was the best vector and text hit.
Now the best contextual hits and the best procedure always get their slots; slots the ranked hits leave free go
back to triggered and baseline memories. A memory that does not fit the budget is skipped and smaller later
ones may still fit. Tokens are counted with the embedder's own tokenizer.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from memgraph.models import Memory, MemoryKind
from memgraph.retrieve.rank import Scored
from memgraph.validation import nested_quantifier

TRIGGERED = "triggered"
BASELINE = "baseline"
CONTEXTUAL = "contextual"
PROCEDURAL = "procedural"
WEAK = "weak"
#: A superseded memory shown as the base of the change that replaced it (`bases.py`): placed after assembly, right
#: after that memory, so in no order of its own.
SUPERSEDED = "superseded"
SECTION_ORDER = (TRIGGERED, BASELINE, CONTEXTUAL, PROCEDURAL, WEAK)
#: The old name (sections were called layers).
LAYER_ORDER = SECTION_ORDER


@dataclass
class Placed:
    scored: Scored
    section: str
    tokens: int

    @property
    def layer(self) -> str:
        """The old name of `section`."""
        return self.section


def trigger_matches(pattern: str, query: str) -> bool:
    """A trigger pattern matches when it occurs in the query (case-insensitive); `re:<regex>` is a regular
    expression and a pattern with `*`/`?` is a glob matched against each query word."""
    if not pattern:
        return False
    if pattern.startswith("re:"):
        if nested_quantifier(pattern[3:]):  # refused on write; one stored before could hang every recall
            return False
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


def section_of(memory: Memory, query: str, baseline_importance: float) -> str:
    if is_triggered(memory, query):
        return TRIGGERED
    if is_baseline(memory, baseline_importance):
        return BASELINE
    if memory.kind is MemoryKind.PROCEDURE:
        return PROCEDURAL
    return CONTEXTUAL


layer_of = section_of  # the old name


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
    fixed_share: float = 0.5,
    first: Sequence[str] | None = None,
) -> list[Placed]:
    """Pick memories section by section until top_k or the budget is reached: triggered and baseline ones
    (each in ranked order) in at most `fixed_share` of `top_k`, then contextual and procedural ones by score,
    then what the fixed sections had left over if slots remain. Memories named in `first` (a session's
    catch-up summary) are placed before all others, in section baseline. Returned in prompt order: triggered,
    baseline, then the ranked hits best first."""
    by_section: dict[str, list[Scored]] = {name: [] for name in SECTION_ORDER}
    ranked: list[tuple[str, Scored]] = []
    seen: set[str] = set()
    procedures = 0
    wanted_first = list(first or [])
    firsts: dict[str, Scored] = {}
    for s in candidates:
        m = s.memory
        mid = m.id
        if mid in seen:
            continue
        seen.add(mid)
        if mid in wanted_first:
            firsts[mid] = s
            continue
        kind = m.kind
        # most candidates are neither pinned nor of a kind with a section of its own: contextual, without
        # `section_of`'s calls (a cascade places from ~120)
        if m.pinned or kind is MemoryKind.CONSTRAINT or kind is MemoryKind.PREFERENCE or kind is MemoryKind.PROCEDURE:
            section = section_of(m, query, baseline_importance)
        else:
            section = CONTEXTUAL
        if section in (CONTEXTUAL, PROCEDURAL):
            if section == PROCEDURAL:
                if procedures >= max_procedures:
                    continue
                procedures += 1
            ranked.append((section, s))
        else:
            by_section[section].append(s)
    by_section[BASELINE] = by_section[BASELINE][:max_baseline]
    fixed = [(name, s) for name in (TRIGGERED, BASELINE) for s in by_section[name]]
    chosen: list[Placed] = []
    used = 0

    def place(pairs: list[tuple[str, Scored]], slots: int) -> list[tuple[str, Scored]]:
        """Place from `pairs` until `slots` are used or the pairs run out; returns the pairs not placed."""
        nonlocal used
        rest: list[tuple[str, Scored]] = []
        taken = 0
        for section, s in pairs:
            if taken >= slots or len(chosen) >= top_k:
                rest.append((section, s))
                continue
            tokens = count_tokens(s.memory.content)
            if used + tokens > token_budget:
                continue
            used += tokens
            taken += 1
            chosen.append(Placed(scored=s, section=section, tokens=tokens))
        return rest

    place([(BASELINE, firsts[mid]) for mid in wanted_first if mid in firsts], top_k)
    left = place(fixed, int(top_k * fixed_share))
    place(ranked, top_k)
    place(left, top_k)
    head = [p for name in (TRIGGERED, BASELINE) for p in chosen if p.section == name]
    return head + [p for p in chosen if p.section not in (TRIGGERED, BASELINE)]
