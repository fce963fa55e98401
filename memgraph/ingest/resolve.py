"""Step 7 of the write path: what each new chunk does to the store, in three parts.

1. `decide` (pure: no store access, inputs unchanged): for every candidate, in order, a `Resolution`: the exact
   text is stored already (unchanged, or reinforced by another session), or the reconciler judges it against
   its nearest stored memories and the ones created earlier in the same batch: created, reinforced,
   superseded X, contradicted X, or dropped (a duplicate within the batch; below the importance floor).
2. `apply`: the resolutions as the rows of one `WriteBatch` (new memories with their vectors, Supersedes and
   Contradicts edges, one merged update per touched memory, new tags).
3. `record`: the resolutions into the `IngestReport` (what happened and why) and the memory ids each item
   resolved to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from enum import StrEnum
from functools import partial
from typing import Any

import numpy as np

from memgraph.config import Settings
from memgraph.errors import ValidationError
from memgraph.ingest import plans, starts
from memgraph.ingest.items import Candidate
from memgraph.ingest.pairing import neighbour_floor
from memgraph.ingest.reconcile import Neighbour, ReconcileAction, Reconciler
from memgraph.ingest.report import Dropped, DropReason, IngestDecision, IngestReport, preview
from memgraph.models import HasTag, Link, LinkSource, Memory, Relation, utcnow
from memgraph.store.base import MemoryUpdate, WriteBatch


class Outcome(StrEnum):
    """What one chunk did (the values are the report's `IngestDecision.action`)."""

    CREATED = "created"
    REINFORCED = "reinforced"
    SUPERSEDED = "superseded"  # created, and the target became inactive (on the day the change starts, if later)
    CONTRADICTED = "contradicted"  # created, and both are flagged
    UNCHANGED = "unchanged"
    DROPPED = "dropped"


@dataclass(frozen=True)
class Resolution:
    """The outcome for one candidate, the memory it acted on (if any), and why."""

    candidate: Candidate
    outcome: Outcome
    reason: str = ""
    scores: dict[str, float] = field(default_factory=dict)
    target: Neighbour | None = None  # a stored memory, or one created earlier in this batch (in_batch)
    reactivate: bool = False  # the same text as an inactive memory, remembered again
    drop: DropReason | None = None
    detail: str = ""  # why it was dropped, for the report

    @property
    def memory(self) -> Memory:
        """The candidate's new memory (every candidate that reaches this step has one)."""
        assert self.candidate.memory is not None
        return self.candidate.memory

    @property
    def same_text(self) -> bool:
        """The exact text is stored already (its content-hash id exists): the target is that memory."""
        return self.target is not None and self.target.memory.id == self.memory.id


@dataclass(frozen=True)
class Neighbourhood:
    """What `decide` reads from the store, fetched before: the stored memories with a candidate's id, each fresh
    candidate's nearest stored memories (id -> [(neighbour id, cosine)]) and those neighbours themselves."""

    existing: dict[str, Memory]
    hits: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    neighbours: dict[str, Memory] = field(default_factory=dict)
    #: each follow-up candidate's (`followups.followup`) latest stored memories of its session, newest first (ids
    #: in `neighbours`)
    recent: dict[str, list[str]] = field(default_factory=dict)


# -- 1. decide ------------------------------------------------------------------------------------------------


def decide(
    candidates: Sequence[Candidate],
    near: Neighbourhood,
    reconciler: Reconciler,
    settings: Settings,
    *,
    explicit: bool,
    reconcile: bool,
) -> list[Resolution]:
    """One resolution per candidate, in order. A candidate sees the memories created before it in this batch
    (and not superseded since) as neighbours too, so a batch reconciles with itself as with the store."""
    s = settings
    out: list[Resolution] = []
    created: list[Candidate | None] = [None] * len(candidates)  # by candidate index, once created in this batch
    deactivated: set[str] = set()  # superseded so far (stored or in this batch)
    keep = max(1, s.reconcile_neighbours)
    made: list[int] = []  # the candidates created in this batch, in order (a follow-up's latest memories)
    close = _close_earlier(candidates, s.embedding_dim, s, _memory_floor(s)) if reconcile else None
    for c in candidates:
        mem = c.memory
        assert mem is not None and c.vector is not None
        i = len(out)  # this candidate's index
        earlier = next(close) if close is not None else ()
        old = near.existing.get(mem.id)
        if old is not None:
            out.append(_same_text(c, old, explicit=explicit))
            continue
        cands: list[Neighbour] = []
        if reconcile:
            for mid, sim in near.hits.get(mem.id, []):
                if mid in near.neighbours and mid not in deactivated:
                    cands.append(Neighbour(near.neighbours[mid], float(sim)))
            # the `keep` most similar of the earlier candidates created and still active (`earlier`: most
            # similar first, ties in batch order): the only ones of them the sort below can keep
            found = 0
            for j, sim in earlier:
                x = created[j]
                if x is not None and x.memory is not None and x.memory.id not in deactivated:
                    cands.append(Neighbour(x.memory, sim, in_batch=True))
                    found += 1
                    if found == keep:
                        break
            cands.sort(key=lambda n: -n.similarity)
            cands = cands[:keep]
            if mem.id in near.recent:
                cands = _with_recent(c, cands, near, (created[j] for j in reversed(made)), deactivated, s)
        res = _judge(c, cands, reconciler, settings)
        if res.outcome in (Outcome.CREATED, Outcome.SUPERSEDED, Outcome.CONTRADICTED):
            created[i] = c
            made.append(i)
            if res.outcome is Outcome.SUPERSEDED and res.target is not None:
                deactivated.add(res.target.memory.id)
        out.append(res)
    return out


def _with_recent(
    c: Candidate,
    cands: list[Neighbour],
    near: Neighbourhood,
    earlier: Iterator[Candidate | None],
    deactivated: set[str],
    settings: Settings,
) -> list[Neighbour]:
    """`cands` and a follow-up's latest memories (`reconcile_followup_latest`, newest first: the ones created
    earlier in this batch, then the stored ones `near.recent` read), those of its session (any, without one)
    written at most `reconcile_followup_window_minutes` before it, marked `recent`: compared whatever their
    cosine, which is not read for them (0 where they are no cosine neighbour)."""
    mem = c.memory
    assert mem is not None
    latest = settings.reconcile_followup_latest
    pool: list[tuple[Memory, bool]] = []
    for x in earlier:  # (newest first: stops at the latest few, not at the batch's start)
        if x is not None and x.memory is not None and mem.session_id in (None, x.memory.session_id):
            pool.append((x.memory, True))
            if len(pool) == latest:
                break
    pool += [(near.neighbours[mid], False) for mid in near.recent.get(mem.id, []) if mid in near.neighbours]
    window = timedelta(minutes=settings.reconcile_followup_window_minutes)
    out = list(cands)
    for m, in_batch in pool[:latest]:
        age = mem.created_at - m.created_at
        if m.id in deactivated or not timedelta(0) <= age <= window:
            continue
        at = next((i for i, n in enumerate(out) if n.memory.id == m.id), None)
        if at is None:
            out.append(Neighbour(m, 0.0, in_batch=in_batch, recent=True))
        else:
            out[at] = replace(out[at], recent=True)
    return out


#: Scores one block product of `_close_earlier` holds at most (32 MB of float32).
_CLOSE_SCORES = 1 << 23

#: Earlier candidates of each row that `_close_earlier` sorts with its block at least (the rest only if `decide`
#: reads past them, which it rarely does: it stops at `reconcile_neighbours` created ones). No verdict depends on
#: it. Sorting every pair at the cosine floor was 9% of a real 5,000-text batch (1.4M pairs at 0.4; 4.4M at the cue
#: floor 0.3; the products themselves 1%).
_CLOSE_FIRST = 16

#: Cosines from which `_close_earlier` sorts a row's pairs: the highest at which the row has `_CLOSE_FIRST` (real
#: text, a batch of 5,000: a median row has 663 pairs at 0.3, 160 at 0.4, 21 at 0.5, 2 at 0.6). Only speed.
_CLOSE_LEVELS = (0.4, 0.5, 0.6)


def _memory_floor(settings: Settings) -> Callable[[Candidate], float]:
    """A candidate's own cosine floor for its neighbours (`pairing.neighbour_floor`: lower for a text that says a
    change), the same for the earlier texts of its batch as for stored memories."""

    def floor(c: Candidate) -> float:
        assert c.memory is not None
        return neighbour_floor(c.memory, settings)

    return floor


class _Earlier:
    """One candidate's earlier candidates at its floor as (index, cosine), most similar first, ties in batch order:
    the first few sorted with the block (`first`), the rest from the block's row (`row`) only when read past them."""

    __slots__ = ("first", "row", "floor", "low", "slot")

    def __init__(
        self,
        first: list[tuple[int, float]],
        row: np.ndarray | None,
        floor: Callable[[], float],
        low: float,
        slot: float,
    ) -> None:
        self.first, self.row, self.floor, self.low, self.slot = first, row, floor, low, slot

    def __iter__(self) -> Iterator[tuple[int, float]]:
        yield from self.first
        if self.row is None:
            return
        js = np.flatnonzero(self.row >= self.low)
        vals = self.row[js]
        if (vals < self.slot).any():
            ok = (vals >= self.slot) | (vals >= np.float32(self.floor()))
            js, vals = js[ok], vals[ok]
        order = np.lexsort((js, -vals))
        yield from zip(js[order][len(self.first) :].tolist(), vals[order][len(self.first) :].tolist(), strict=True)


def _close_earlier(
    candidates: Sequence[Candidate], dim: int, settings: Settings, floor: Callable[[Candidate], float]
) -> Iterator[_Earlier]:
    """For each candidate in order, the earlier candidates of the batch at cosine >= its floor `floor(c)` (at least
    min(`reconcile_slot_cosine`, `reconcile_cue_cosine`); asked only of a candidate with a cosine under
    `reconcile_slot_cosine`, the floor of most texts). One matrix product per block of candidates, made when the loop
    reaches it: the product of each new unit vector with the rows before it, one at a time, took 13.7 s of a
    5,000-memory batch (wall, load ~7; the block products 0.9 s), three quarters of a bulk write's reconciliation at
    that batch size. Each row's pairs from the highest of `_CLOSE_LEVELS` it has `_CLOSE_FIRST` at are sorted with the
    block."""
    slot = settings.reconcile_slot_cosine
    low = min(slot, settings.reconcile_cue_cosine)
    units = np.zeros((len(candidates), dim), dtype=np.float32)
    for i, c in enumerate(candidates):
        assert c.vector is not None
        units[i] = c.vector / max(float(np.linalg.norm(c.vector)), 1e-12)
    block = max(1, min(512, _CLOSE_SCORES // max(1, len(candidates))))
    for start in range(0, len(candidates), block):
        end = min(len(candidates), start + block)
        sims = units[start:end] @ units[:end].T
        passing = np.tril(sims >= low, k=start - 1)  # only j < i: the candidates before each one
        counts = passing.sum(axis=1)
        level = np.full(end - start, low, dtype=np.float32)  # each row's pairs from the highest level with enough
        for t in _CLOSE_LEVELS:
            if t > low:
                level[(passing & (sims >= t)).sum(axis=1) >= _CLOSE_FIRST] = t
        if (level > low).any():
            passing &= sims >= level[:, None]
        qi, ci = np.nonzero(passing)
        vals = sims[qi, ci]
        cut = np.zeros(end - start, dtype=bool)  # rows that lost a pair to their floor: nothing further passes
        under = vals < slot
        if under.any():  # each such row's own floor: a pair under it is no neighbour
            rows = np.unique(qi[under])
            floors = np.full(end - start, slot, dtype=np.float32)
            floors[rows] = [floor(candidates[start + int(r)]) for r in rows]
            keep = ~under | (vals >= floors[qi])
            cut[qi[~keep]] = True
            qi, ci, vals = qi[keep], ci[keep], vals[keep]
        order = np.lexsort((ci, -vals, qi))
        qi, found, scores = qi[order], ci[order].tolist(), vals[order].tolist()
        bounds = np.searchsorted(qi, np.arange(end - start + 1)).tolist()
        more = (counts > np.diff(bounds)) & ~cut
        for r in range(end - start):
            first = list(zip(found[bounds[r] : bounds[r + 1]], scores[bounds[r] : bounds[r + 1]], strict=True))
            row = sims[r, : start + r] if more[r] else None
            yield _Earlier(first, row, partial(floor, candidates[start + r]), low, slot)


def _judge(c: Candidate, cands: list[Neighbour], reconciler: Reconciler, settings: Settings) -> Resolution:
    """The reconciler's verdict on a new text against its neighbours, as a resolution."""
    mem = c.memory
    assert mem is not None
    if not cands:
        return _created_or_low(c, "new: no similar memory", {}, settings)
    verdict = reconciler.decide(mem, cands)
    scores = dict(verdict.scores)
    if verdict.action is ReconcileAction.CREATE:
        return _created_or_low(c, verdict.reason, scores, settings)
    target = next((n for n in cands if n.memory.id == verdict.target_id), None)
    if target is None:
        raise ValidationError(
            f"reconciler chose {verdict.target_id!r}, which is not one of the neighbours it was given"
        )
    if verdict.action is ReconcileAction.REINFORCE:
        if target.in_batch:
            return Resolution(
                c,
                Outcome.DROPPED,
                verdict.reason,
                scores,
                target,
                drop=DropReason.DUPLICATE_IN_BATCH,
                detail=f"{verdict.reason} of {target.memory.id} (cosine {target.similarity:.3f})",
            )
        return Resolution(c, Outcome.REINFORCED, verdict.reason, scores, target)
    # below the importance floor still supersedes or contradicts: a restatement has low novelty by definition
    outcome = Outcome.SUPERSEDED if verdict.action is ReconcileAction.SUPERSEDE else Outcome.CONTRADICTED
    return Resolution(c, outcome, verdict.reason, scores, target)


def _created_or_low(c: Candidate, reason: str, scores: dict[str, float], settings: Settings) -> Resolution:
    mem = c.memory
    assert mem is not None
    if not c.low:
        return Resolution(c, Outcome.CREATED, reason, scores)
    salience = c.salience.score if c.salience else 0.0
    return Resolution(
        c,
        Outcome.DROPPED,
        reason,
        scores,
        drop=DropReason.LOW_IMPORTANCE,
        detail=f"importance {mem.importance:.3f} < {settings.min_importance_stored} "
        f"(novelty {c.novelty:.3f}, salience {salience:.2f})",
    )


def _same_text(c: Candidate, old: Memory, *, explicit: bool) -> Resolution:
    """The exact text is already stored (its id exists): re-ingest is a no-op; a new session reinforces."""
    target = Neighbour(old, 1.0)
    scores = {"cosine": 1.0}
    session = c.item.session_id
    crumbs = old.metadata.get("reinforcements", []) if isinstance(old.metadata, dict) else []
    seen = session == old.session_id or any(isinstance(b, dict) and b.get("session_id") == session for b in crumbs)
    if not old.active or old.archived:
        if explicit:
            return Resolution(c, Outcome.REINFORCED, "remembered again: reactivated", scores, target, reactivate=True)
        return Resolution(
            c,
            Outcome.UNCHANGED,
            "identical to an inactive memory (superseded or forgotten); engine.restore() revives it",
            scores,
            target,
        )
    if seen:
        return Resolution(c, Outcome.UNCHANGED, "already stored from this session", scores, target)
    return Resolution(c, Outcome.REINFORCED, "same text from another session", scores, target)


# -- 2. apply -------------------------------------------------------------------------------------------------


def apply(
    resolutions: Sequence[Resolution],
    *,
    explicit: bool,
    now: datetime,
    source: str,
    max_crumbs: int,
    related: Mapping[str, Memory] | None = None,
) -> WriteBatch:
    """The rows one atomic write stores for these resolutions. Changes to one stored memory are merged into a
    single update; a memory created in this batch and superseded or contradicted later in it is written so.
    `related`: the stored memories of the plans the targets take part in (`plans.related`)."""
    batch = WriteBatch()
    edits: dict[str, _Edit] = {}
    created: list[Candidate] = []
    fresh = {r.memory.id: r.memory for r in resolutions if r.outcome in _WRITTEN}
    stored = {r.target.memory.id: r.target.memory for r in resolutions if r.target and not r.target.in_batch}
    stored.update(related or {})

    def edit(base: Memory) -> _Edit:
        return edits.setdefault(base.id, _Edit(base))

    def change(mid: str, op: Callable[[dict[str, Any]], None] | None) -> None:
        """`op` on a memory's metadata (None: make it inactive), in this batch or as a stored memory's edit."""
        if mid in fresh and op:
            op(fresh[mid].metadata)
        elif mid in fresh:
            fresh[mid].active = False
        elif mid in stored:
            edit(stored[mid]).meta_ops.append(op) if op else edit(stored[mid]).deactivate()

    for r in resolutions:
        mem, target = r.memory, r.target
        if r.outcome is Outcome.REINFORCED and target is not None:
            e = edit(target.memory)
            if r.reactivate:
                e.reactivate()
            e.reinforce(r.candidate.item.session_id, now, target.similarity, source)
        if r.same_text and explicit and target is not None:  # remembering it again may add tags or pin it
            old = target.memory
            batch.tags += [HasTag(memory_id=old.id, tag=t) for t in mem.tags if t not in old.tags]
            if mem.pinned and not old.pinned:
                edit(old).pin()
        if r.outcome not in _WRITTEN:
            continue
        created.append(r.candidate)
        if target is None or r.outcome is Outcome.CREATED:
            continue
        relation = Relation.SUPERSEDES if r.outcome is Outcome.SUPERSEDED else Relation.CONTRADICTS
        # a change that starts later ("from next week ..."): the old memory holds until that day
        begins = later_start(mem, target.memory, now) if r.outcome is Outcome.SUPERSEDED else None
        # ... or one that follows such a change before its day: moves it, calls it off (plans.py)
        plan = plans.follow(mem, target.memory, supersede=relation is Relation.SUPERSEDES, begins=begins, now=now,
                            lookup=lambda mid: fresh.get(mid) or stored.get(mid))
        if plan is not None:
            begins = plan.begins or (None if target.memory.id in dict(plan.ended) else begins)
            for mid, why in plan.ended:
                change(mid, None)
                if mid != target.memory.id:
                    batch.links.append(Link(src=mem.id, dst=mid, relation=Relation.SUPERSEDES, reason=why,
                                            source=LinkSource.DISCOVERED, created_at=now, updated_at=now))
            for mid, op in plan.edits:
                change(mid, op)
            mem.metadata.setdefault(starts.REPLACES, []).extend(plan.followed)
        batch.links.append(
            Link(
                src=mem.id,
                dst=target.memory.id,
                relation=relation,
                source=LinkSource.DISCOVERED,
                reason=_held(r.reason, begins),
                created_at=now,
                updated_at=now,
            )
        )
        if plan is not None and plan.begins is not None:  # it takes the place of the plan it restates
            mem.metadata.update({starts.VALID_FROM: plan.begins.isoformat(), starts.REPLACES: list(plan.replaces)})
            for old_id in plan.replaces:
                change(old_id, partial(starts.replaced, new_id=mem.id, begins=plan.begins))
        elif begins is not None:
            mem.metadata[starts.VALID_FROM] = begins.isoformat()
            mem.metadata.setdefault(starts.REPLACES, []).append(target.memory.id)
            if target.in_batch:
                starts.replaced(target.memory.metadata, mem.id, begins)
            else:
                edit(target.memory).replaced(mem.id, begins)
        elif r.outcome is Outcome.SUPERSEDED:
            if target.in_batch:
                target.memory.active = False
            else:
                edit(target.memory).deactivate()
        else:
            mem.metadata.setdefault("contradicts", []).append(target.memory.id)
            if target.in_batch:
                target.memory.metadata.setdefault("contradicted_by", []).append(mem.id)
            else:
                edit(target.memory).flag_contradiction(mem.id)
    if created:
        batch.memories = [c.memory for c in created if c.memory is not None]
        batch.embeddings = np.stack([c.vector for c in created if c.vector is not None]).astype(np.float32)
    updates = [e.update(mid, max_crumbs) for mid, e in edits.items()]
    batch.updates = [u for u in updates if u.set or u.inc]
    return batch


def later_start(new: Memory, old: Memory, now: datetime) -> date | None:
    """The day a superseding memory starts to hold (`starts.start`, against its `created_at`), when that is later
    than `now`; None for a change that holds already (most, and every one whose day has passed)."""
    begins = starts.start(new.content, new.created_at, old=old.content)
    return begins if begins is not None and begins > now.date() else None


def _held(reason: str, begins: date | None) -> str:
    """A supersede's reason with the day it holds from, when it starts later: the edge and the write report say
    the same."""
    return reason if begins is None else f"{reason}; holds from {begins.isoformat()}"


#: The outcomes that write a new memory.
_WRITTEN = (Outcome.CREATED, Outcome.SUPERSEDED, Outcome.CONTRADICTED)


@dataclass
class _Edit:
    """All changes to one stored memory in this call, merged into a single `MemoryUpdate`."""

    base: Memory
    strength: int = 0
    crumbs: list[dict[str, Any]] = field(default_factory=list)
    contradicted_by: list[str] = field(default_factory=list)
    active: bool | None = None
    pinned: bool = False
    touched: datetime | None = None
    #: Edits of its metadata, in order: a change that starts later replaces it, or no longer does (plans.py).
    meta_ops: list[Callable[[dict[str, Any]], None]] = field(default_factory=list)

    def reinforce(self, session_id: str | None, now: datetime, similarity: float, source: str) -> None:
        self.strength += 1
        self.touched = now
        self.crumbs.append(
            {
                "session_id": session_id,
                "at": now.isoformat(),
                "similarity": round(similarity, 4),
                "source": source,
            }
        )

    def pin(self) -> None:
        self.pinned = True

    def deactivate(self) -> None:
        self.active = False

    def reactivate(self) -> None:
        self.active = True

    def flag_contradiction(self, new_id: str) -> None:
        self.contradicted_by.append(new_id)

    def replaced(self, new_id: str, begins: date) -> None:
        """A change that starts later replaces this memory from `begins`: it stays active until then."""
        self.meta_ops.append(partial(starts.replaced, new_id=new_id, begins=begins))

    def update(self, mid: str, max_crumbs: int) -> MemoryUpdate:
        sets: dict[str, Any] = {}
        inc: dict[str, float] = {}
        now = self.touched or utcnow()
        if self.strength:
            inc["strength"] = self.strength
            sets["last_accessed"] = now
        if self.crumbs or self.contradicted_by or self.meta_ops:
            meta = dict(self.base.metadata or {})
            if self.crumbs:
                meta["reinforcements"] = [*meta.get("reinforcements", []), *self.crumbs][-max_crumbs:]
            if self.contradicted_by:
                meta["contradicted_by"] = list(dict.fromkeys([*meta.get("contradicted_by", []), *self.contradicted_by]))
            for op in self.meta_ops:
                op(meta)
            sets["metadata"] = meta
        if self.pinned:
            sets["pinned"] = True
        if self.active is not None:
            sets["active"] = self.active
            if self.active:
                sets["archived"] = False
        if sets or inc:
            sets["updated_at"] = utcnow()
        return MemoryUpdate(id=mid, set=sets, inc=inc)


# -- 3. record ------------------------------------------------------------------------------------------------


def record(resolutions: Sequence[Resolution], report: IngestReport, item_ids: list[list[str]]) -> None:
    """Each resolution into the report (its id lists, a decision with reason and scores, or a dropped entry)
    and the id of the memory it resolved to into `item_ids` (a chunk dropped as unimportant resolves to none)."""
    for r in resolutions:
        c, mem, target = r.candidate, r.memory, r.target
        idx = c.item.index
        if r.outcome is Outcome.DROPPED:
            assert r.drop is not None
            low = r.drop is DropReason.LOW_IMPORTANCE
            report.dropped.append(
                Dropped(
                    item=idx,
                    chunk=c.chunk,
                    reason=r.drop,
                    detail=r.detail,
                    importance=round(mem.importance, 4) if low else mem.importance,
                    preview=preview(mem.content),
                )
            )
            if target is not None:  # a duplicate within the batch resolves to the memory it repeats
                item_ids[idx].append(target.memory.id)
            continue
        if r.outcome in (Outcome.REINFORCED, Outcome.UNCHANGED):
            assert target is not None
            item_ids[idx].append(target.memory.id)  # the stored memory it repeats
            (report.reinforced if r.outcome is Outcome.REINFORCED else report.unchanged).append(target.memory.id)
        else:
            item_ids[idx].append(mem.id)
            report.created.append(mem.id)
            if target is not None:
                (report.superseded if r.outcome is Outcome.SUPERSEDED else report.contradicted).append(target.memory.id)
        begins = starts.since(mem.metadata) if r.outcome is Outcome.SUPERSEDED else None
        report.decisions.append(
            IngestDecision(
                item=idx,
                chunk=c.chunk,
                action=r.outcome.value,
                memory_id=mem.id,
                target_id=None if target is None else target.memory.id,
                reason=_held(r.reason, begins),
                kind=mem.kind.value,
                rule=c.klass.rule if c.klass else None,
                importance=mem.importance,
                novelty=round(c.novelty, 4),
                salience=round(c.salience.score, 4) if c.salience else None,
                signals=c.salience.signals() if c.salience else [],
                scores=r.scores,
                tags=c.inferred,
                valid_from=None if begins is None else begins.isoformat(),
            )
        )
