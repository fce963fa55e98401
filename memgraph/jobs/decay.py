"""decay: recompute every memory's confidence from its age, kind, use and trust; archive and prune the dead.

    confidence = c0 · e^(−age_days / half_life[kind]) · (1 + 0.1 · ln(access_count + 1)) · trust

(so at age = half_life the factor is 1/e: the "half-life" is a time constant), clamped
to [0, 1], with `half_life = Settings.half_life_days(kind, provenance)` (inferred provenance: 7 days).

- **age** is measured from the memory's last reinforcement, `last_accessed`: it is set when the memory is
  written, on helpful feedback and when it is explicitly remembered again (an explicit "remember this"
  resets the decay timer; a serve only with `serve_restarts_decay_clock`). Never from `updated_at`, which jobs
  touch.
- **c0** is the confidence before any time decay: the stored confidence the first time decay sees the memory
  (what ingest wrote, plus any feedback so far). It is kept in `metadata["_decay"] = {"c0", "written"}`.
  When something else changed the confidence since decay last wrote it (a feedback boost or penalty), the
  difference is folded into c0, so decay never compounds on its own output and never erases feedback.
  That makes the job idempotent: a second run at the same instant computes the same numbers.
- pinned memories never decay. Below `archive_threshold` a memory is archived (soft: kept, still listable,
  never recalled). Prune candidates (confidence < `prune_threshold` and strength <= `prune_max_strength`,
  never pinned, never the evidence of a summary) are archived too, and deleted only with `prune=True`
  (`memgraph decay --apply --prune`).
- reads only the fields the formula needs (`store.memory_fields`, `DECAY_FIELDS`): no content, tags or
  embeddings, which were most of a 100k-memory job's read.
- a memory that a change starting later replaces (`metadata["valid_until"]`, ingest/starts.py: "From next week the
  bakery opens at 7:30") stays active until that day; from it on the run retires it (inactive, as a supersede
  makes it at once: `retired`). Recall stops serving it on that day already (retrieve/validity.py); the run makes
  it so in the store.
- set-based: `store.update_memories` receives `job_batch_size` updates at a time, which the store turns into
  one statement per batch and update shape (SQLite `UPDATE ... FROM (VALUES ...)`, Cypher `UNWIND`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from memgraph.confidence import DECAY_STATE_KEY, baseline
from memgraph.config import Settings
from memgraph.ingest import starts
from memgraph.jobs.base import JobContext, JobReport, age_days, batched, check_user
from memgraph.models import MemoryKind, Provenance, Relation, trusted, utcnow
from memgraph.store.base import MemoryFilter, MemoryUpdate

STATE_KEY = DECAY_STATE_KEY
_EPS = 1e-12
#: What decay reads of each memory (besides its id).
DECAY_FIELDS = (
    "kind",
    "provenance",
    "confidence",
    "trust",
    "pinned",
    "active",
    "archived",
    "access_count",
    "strength",
    "last_accessed",
    "metadata",
)


@dataclass(frozen=True, slots=True)
class MemoryState:
    """The fields of one memory that decay reads (`DECAY_FIELDS`), as `store.memory_fields` returns them."""

    id: str
    kind: MemoryKind
    provenance: Provenance
    confidence: float
    trust: float
    pinned: bool
    active: bool
    archived: bool
    access_count: int
    strength: int
    last_accessed: datetime
    metadata: dict[str, Any]


def decayed_confidence(
    c0: float, age: float, half_life: float, access_count: int, trust: float, access_factor: float = 0.1
) -> float:
    """The decay formula (module docstring), clamped to [0, 1]."""
    value = c0 * math.exp(-age / half_life) * (1.0 + access_factor * math.log(access_count + 1)) * trust
    return min(1.0, max(0.0, value))


class DecayChange(BaseModel):
    id: str
    kind: str
    age_days: float
    half_life: float
    c0: float
    old: float
    new: float
    archive: bool = False
    prune: bool = False


class DecayReport(JobReport):
    job: str = "decay"
    evaluated: int = 0
    pinned_skipped: int = 0
    changed: int = Field(
        0, description="Memories whose confidence changed by at least decay_min_reported_change, or that are archived."
    )
    rows_planned: int = Field(0, description="Updates the run needs (first runs also record each memory's c0).")
    rows_written: int = Field(0, description="Updates sent: rows_planned when applied, 0 for a plan.")
    archived: int = 0
    retired: int = Field(
        0, description="Memories a change that starts later replaced, made inactive now that its day has come."
    )
    prune_candidates: int = 0
    pruned: int = 0
    batches: int = 0
    examples: list[DecayChange] = Field(default_factory=list, description="The largest changes (at most 20).")
    prune_ids: list[str] = Field(default_factory=list)


def decay_user(
    ctx: JobContext,
    user_id: str,
    *,
    apply: bool = False,
    prune: bool = False,
    now: datetime | None = None,
) -> DecayReport:
    """Plan (or apply) decay for one user. `now` is for tests and replays; default: the current time."""
    store, s = ctx.store, ctx.settings
    owner = check_user(store, user_id)
    now = now or utcnow()
    report = DecayReport(user_id=owner, applied=apply)
    ctx.tick("loading memories", 0, 1)
    memories = [MemoryState(**row) for row in store.memory_fields(owner, DECAY_FIELDS, MemoryFilter.everything())]
    evidence = {ln.dst for ln in store.get_links(owner, relations=[Relation.DERIVED_FROM])}
    updates: list[MemoryUpdate] = []
    changes: list[tuple[float, str, MemoryState, float, float, float, float, bool, bool]] = []
    active = {m.id for m in memories if m.active}
    for mem in memories:
        retire = mem.active and starts.lapsed(mem.metadata, now, active)  # a change that starts later
        if mem.pinned:
            report.pinned_skipped += 1
            if retire:
                report.retired += 1
                report.rows_planned += 1
                updates.append(_retired(mem.id, now))
            continue
        report.evaluated += 1
        c0, half_life, age, new, archive, candidate, update = _plan_one(mem, now, s, evidence)
        if retire:
            report.retired += 1
            update = _retired(mem.id, now, update)
        if candidate:
            report.prune_candidates += 1
            report.prune_ids.append(mem.id)
        if update is None:
            continue
        report.rows_planned += 1
        updates.append(update)
        visible = abs(new - mem.confidence) >= s.decay_min_reported_change
        report.changed += int(visible or archive)
        report.archived += int(archive)
        if visible or archive or candidate:
            changes.append((-abs(mem.confidence - new), mem.id, mem, c0, half_life, age, new, archive, candidate))
    changes.sort(key=lambda c: (c[0], c[1]))
    report.examples = [
        DecayChange(
            id=mid,
            kind=m.kind.value,
            age_days=round(age, 4),
            half_life=hl,
            c0=c0,
            old=m.confidence,
            new=new,
            archive=archive,
            prune=cand,
        )
        for _, mid, m, c0, hl, age, new, archive, cand in changes[:20]
    ]
    if apply:
        done = 0
        for batch in batched(updates, s.job_batch_size):
            store.update_memories(owner, list(batch))
            report.rows_written += len(batch)
            report.batches += 1
            done += len(batch)
            ctx.tick("updating confidence", done, len(updates))
        if prune and report.prune_ids:
            for batch in batched(report.prune_ids, s.job_batch_size):
                report.pruned += store.delete_memories(owner, list(batch))
    report.finished_at = utcnow()
    return report


def _retired(mid: str, now: datetime, base: MemoryUpdate | None = None) -> MemoryUpdate:
    """`base` (decay's own update of the memory, if any) that also makes it inactive."""
    fields = {**(base.set if base is not None else {}), "active": False, "updated_at": now}
    return trusted(MemoryUpdate, {"id": mid, "set": fields, "inc": dict(base.inc) if base is not None else {}})


def _plan_one(
    mem: MemoryState, now: datetime, s: Settings, evidence: set[str]
) -> tuple[float, float, float, float, bool, bool, MemoryUpdate | None]:
    """(c0, half_life, age, new confidence, archive?, prune?, the update or None when nothing changes)."""
    c0 = baseline(mem)
    half_life = s.half_life_days(mem.kind.value, mem.provenance.value)
    age = age_days(now, mem.last_accessed)
    new = decayed_confidence(c0, age, half_life, mem.access_count, mem.trust, s.access_factor)
    prune = new < s.prune_threshold and mem.strength <= s.prune_max_strength and mem.id not in evidence
    archive = not mem.archived and (new < s.archive_threshold or prune)
    state = mem.metadata.get(STATE_KEY)
    same_state = isinstance(state, dict) and state.get("c0") == c0 and state.get("written") == new
    if abs(new - mem.confidence) <= _EPS and same_state and not archive:
        return c0, half_life, age, new, archive, prune, None
    metadata: dict[str, Any] = {**mem.metadata, STATE_KEY: {"c0": c0, "written": new}}
    fields: dict[str, Any] = {"confidence": new, "metadata": metadata}
    if archive:
        fields["archived"] = True
        fields["updated_at"] = now
    return (
        c0,
        half_life,
        age,
        new,
        archive,
        prune,
        trusted(MemoryUpdate, {"id": mem.id, "set": fields, "inc": {}}),
    )
