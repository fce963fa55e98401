"""The per-user cap on active rules (procedures and constraints): the prompt cannot grow without bound.

When a write (or an import) would leave a user with more active procedures than `max_active_procedures`, or
more active constraints than `max_active_constraints`, the least useful stored ones are archived (never
deleted: `archived=True`, still listable, restorable) until the cap holds. Least useful first: fewest
accesses, then lowest confidence (decay lowers it), then least recently used, then oldest. Pinned rules are
never archived, nor is anything the same write creates. Each archived rule says why in its metadata
(`archived_reason`, `archived_at`) and in its `history` list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memgraph.config import Settings
from memgraph.models import Memory, MemoryKind
from memgraph.store.base import GraphStore, MemoryFilter, MemoryUpdate, WriteBatch

#: The kinds that are capped, and the setting that caps each.
CAPPED: dict[MemoryKind, str] = {
    MemoryKind.PROCEDURE: "max_active_procedures",
    MemoryKind.CONSTRAINT: "max_active_constraints",
}
#: History entries kept in a memory's metadata at most.
HISTORY_MAX = 50


@dataclass(frozen=True)
class Archived:
    """A rule archived to keep the cap, and why."""

    memory: Memory
    reason: str


def usefulness(m: Memory) -> tuple[Any, ...]:
    """Sort key, least useful first."""
    return (m.access_count, m.confidence, m.last_accessed, m.created_at, m.id)


def plan(active: Sequence[Memory], incoming: int, cap: int) -> list[Memory]:
    """Which of the stored `active` rules of one kind to archive so that they plus `incoming` new ones fit `cap`
    (pure). Pinned rules are never chosen, so the result may be short of the excess."""
    excess = len(active) + incoming - cap
    if excess <= 0:
        return []
    return sorted((m for m in active if not m.pinned), key=usefulness)[:excess]


def archive_update(m: Memory, reason: str, now: datetime, base: MemoryUpdate | None = None) -> MemoryUpdate:
    """The update that archives `m` (merged into `base`, another change of the same memory in the same write)."""
    sets = dict(base.set) if base else {}
    meta = dict(sets.get("metadata") or m.metadata or {})
    meta["archived_reason"] = reason
    meta["archived_at"] = now.isoformat()
    history = [*meta.get("history", []), {"at": now.isoformat(), "event": "archived", "reason": reason}]
    meta["history"] = history[-HISTORY_MAX:]
    sets.update({"archived": True, "metadata": meta, "updated_at": now})
    return MemoryUpdate(id=m.id, set=sets, inc=dict(base.inc) if base else {})


def _active(store: GraphStore, user_id: str, kind: MemoryKind) -> list[Memory]:
    flt = MemoryFilter(kinds=[kind])
    total = store.count_memories(user_id, flt)
    return store.list_memories(user_id, flt, limit=max(1, total)) if total else []


def cap_batch(store: GraphStore, settings: Settings, user_id: str, batch: WriteBatch, now: datetime) -> list[Archived]:
    """Add to `batch` the archiving its new rules make necessary (same transaction); returns what it archives."""
    out: list[Archived] = []
    changed = {u.id: u for u in batch.updates}
    for kind, field in CAPPED.items():
        new = [m for m in batch.memories if m.kind is kind and m.active and not m.archived]
        if not new:
            continue
        cap = int(getattr(settings, field))
        created = {m.id for m in new}
        leaving = {
            mid for mid, u in changed.items() if u.set.get("active") is False or u.set.get("archived") is True
        }
        stored = [m for m in _active(store, user_id, kind) if m.id not in created and m.id not in leaving]
        total = len(stored) + len(new)
        for m in plan(stored, len(new), cap):
            reason = f"rule cap: {total} active {kind.value}s, {field} is {cap}; least used and least confident"
            changed[m.id] = archive_update(m, reason, now, changed.get(m.id))
            out.append(Archived(m, reason))
    if out:
        batch.updates = list(changed.values())
    return out


def enforce(store: GraphStore, settings: Settings, user_id: str, now: datetime, *, why: str) -> list[Archived]:
    """Archive what a user holds over the caps now (after an import, or a lowered cap), in one write."""
    out: list[Archived] = []
    updates: list[MemoryUpdate] = []
    for kind, field in CAPPED.items():
        cap = int(getattr(settings, field))
        stored = _active(store, user_id, kind)
        for m in plan(stored, 0, cap):
            reason = f"rule cap ({why}): {len(stored)} active {kind.value}s, {field} is {cap}; least used"
            updates.append(archive_update(m, reason, now))
            out.append(Archived(m, reason))
    if updates:
        store.write(user_id, WriteBatch(updates=updates))
    return out
