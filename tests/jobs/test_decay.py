"""decay: numbers match the formula exactly; pinned never decays; archive, prune, batching, idempotence."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memgraph.errors import ValidationError
from memgraph.models import Link, Memory, MemoryKind, Provenance, Relation
from memgraph.store.base import MemoryUpdate, WriteBatch
from tests.jobs.conftest import checksum

NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


def _mem(i: int, **kw) -> Memory:
    return Memory(id=f"m{i:03d}", user_id="u", content=f"memory {i}", **kw)


def _write(engine, mems):
    rng = np.random.default_rng(0)
    vecs = rng.normal(size=(len(mems), 384)).astype(np.float32)
    engine.store.write("u", WriteBatch(memories=mems, embeddings=vecs))


def expected(c0, age, half_life, access, trust):
    return min(1.0, max(0.0, c0 * math.exp(-age / half_life) * (1 + 0.1 * math.log(access + 1)) * trust))


def test_confidence_matches_the_formula(engine):
    cases = [
        dict(kind=MemoryKind.FACT, age=10, access=0, trust=1.0, conf=1.0),
        dict(kind=MemoryKind.CORRECTION, age=200, access=3, trust=0.9, conf=0.8),
        dict(kind=MemoryKind.PREFERENCE, age=45.5, access=10, trust=0.7, conf=1.0),
        dict(kind=MemoryKind.PROCEDURE, age=60, access=1, trust=1.0, conf=0.6),
        dict(kind=MemoryKind.FACT, age=3, access=0, trust=1.0, conf=1.0, prov=Provenance.INFERRED),
        dict(kind=MemoryKind.EVENT, age=0.25, access=100, trust=1.0, conf=1.0),  # clamps at 1.0
    ]
    mems = []
    for i, c in enumerate(cases):
        mems.append(
            _mem(
                i,
                kind=c["kind"],
                access_count=c["access"],
                trust=c["trust"],
                confidence=c["conf"],
                provenance=c.get("prov", Provenance.USER_STATED),
                last_accessed=NOW - timedelta(days=c["age"]),
                created_at=NOW - timedelta(days=400),
            )
        )
    _write(engine, mems)
    report = engine.jobs.decay("u", apply=True, now=NOW)
    assert report.evaluated == len(cases)
    half = {"fact": 30, "correction": 365, "preference": 90, "procedure": 60, "event": 30}
    got = {m.id: m for m in engine.store.get_memories("u", [m.id for m in mems])}
    for i, c in enumerate(cases):
        hl = 7 if c.get("prov") == Provenance.INFERRED else half[c["kind"].value]
        want = expected(c["conf"], c["age"], hl, c["access"], c["trust"])
        assert got[f"m{i:03d}"].confidence == pytest.approx(want, abs=1e-12), c
    # idempotent: a second run at the same instant changes nothing at all
    before = checksum(engine.store)
    again = engine.jobs.decay("u", apply=True, now=NOW)
    assert again.changed == 0
    # (the JobRun record is the only difference)
    assert len(engine.jobs.history()) == 2
    assert before != checksum(engine.store)
    for i in range(len(cases)):
        assert engine.store.get_memories("u", [f"m{i:03d}"])[0].confidence == got[f"m{i:03d}"].confidence
    # later, it keeps decaying from c0 (no compounding on its own output)
    later = NOW + timedelta(days=30)
    engine.jobs.decay("u", apply=True, now=later)
    m0 = engine.store.get_memories("u", ["m000"])[0]
    assert m0.confidence == pytest.approx(expected(1.0, 40, 30, 0, 1.0), abs=1e-12)


def test_feedback_is_folded_into_the_baseline(engine):
    _write(engine, [_mem(0, last_accessed=NOW - timedelta(days=30))])
    engine.jobs.decay("u", apply=True, now=NOW)
    decayed = engine.store.get_memories("u", ["m000"])[0].confidence
    assert decayed == pytest.approx(math.exp(-1), abs=1e-12)
    # a feedback penalty of 0.1 lands on the stored confidence; decay keeps it instead of erasing it
    engine.store.update_memories("u", [MemoryUpdate(id="m000", inc={"confidence": -0.1})])
    engine.jobs.decay("u", apply=True, now=NOW)
    after = engine.store.get_memories("u", ["m000"])[0]
    assert after.confidence == pytest.approx((1.0 - 0.1) * math.exp(-1), abs=1e-12)
    assert after.metadata["_decay"]["c0"] == pytest.approx(0.9, abs=1e-12)


def test_recall_decays_a_decayed_memory_once(engine):
    """Recall decays confidence at read time from the decay job's baseline, not from what the job wrote: a
    fact untouched for 30 days (its time constant) counts e^-1 whether or not the job ran (was e^-2 after)."""
    from memgraph.retrieve.rank import effective_confidence

    _write(engine, [_mem(0, updated_at=NOW - timedelta(days=30), last_accessed=NOW - timedelta(days=30))])
    before = effective_confidence(engine.store.get_memories("u", ["m000"])[0], NOW, engine.settings)
    engine.jobs.decay("u", apply=True, now=NOW)
    stored = engine.store.get_memories("u", ["m000"])[0]
    assert stored.confidence == pytest.approx(math.exp(-1), abs=1e-12)
    assert effective_confidence(stored, NOW, engine.settings) == pytest.approx(before, abs=1e-12)
    assert before == pytest.approx(math.exp(-1), abs=1e-12)


def test_pinned_archive_and_prune(engine):
    mems = [
        _mem(0, pinned=True, last_accessed=NOW - timedelta(days=3000)),
        _mem(1, last_accessed=NOW - timedelta(days=80)),  # e^-2.67 = 0.069: archived, not prunable
        _mem(2, last_accessed=NOW - timedelta(days=120)),  # e^-4 = 0.018: prune candidate
        _mem(3, last_accessed=NOW - timedelta(days=120), strength=3),  # strong: archived, never pruned
        _mem(4, last_accessed=NOW - timedelta(days=120)),  # evidence of a summary: never pruned
        _mem(5, kind=MemoryKind.SUMMARY, last_accessed=NOW),
        _mem(6, last_accessed=NOW - timedelta(days=1)),
    ]
    _write(engine, mems)
    engine.store.write("u", WriteBatch(links=[Link(src="m005", dst="m004", relation=Relation.DERIVED_FROM)]))
    before = checksum(engine.store)
    plan = engine.jobs.decay("u", now=NOW)
    assert checksum(engine.store) == before  # a plan changes nothing
    assert plan.pinned_skipped == 1 and plan.prune_ids == ["m002"]
    with pytest.raises(ValidationError):
        engine.jobs.decay("u", prune=True, now=NOW)  # prune without apply is refused
    applied = engine.jobs.decay("u", apply=True, now=NOW)  # soft: archive, nothing deleted
    assert applied.pruned == 0
    got = {m.id: m for m in engine.store.get_memories("u", [m.id for m in mems])}
    assert got["m000"].confidence == 1.0 and not got["m000"].archived
    assert got["m001"].archived and got["m002"].archived and got["m003"].archived and got["m004"].archived
    assert not got["m006"].archived
    pruned = engine.jobs.decay("u", apply=True, prune=True, now=NOW)
    assert pruned.pruned == 1
    left = {m.id for m in engine.store.get_memories("u", [m.id for m in mems])}
    assert left == {"m000", "m001", "m003", "m004", "m005", "m006"}


def test_one_statement_per_batch(embedder):
    from tests.jobs.conftest import make_engine

    eng = make_engine(embedder, job_batch_size=7)
    mems = [_mem(i, last_accessed=NOW - timedelta(days=i)) for i in range(50)]
    _write(eng, mems)
    statements: list[str] = []
    eng.store._conn.set_trace_callback(statements.append)
    report = eng.jobs.decay("u", apply=True, now=NOW)
    eng.store._conn.set_trace_callback(None)
    updates = [s for s in statements if s.lstrip().upper().startswith("UPDATE MEMORIES")]
    assert report.rows_written == 50 and report.batches == math.ceil(50 / 7)
    # at most one statement per batch and update shape (plain / archiving), never one per memory
    assert len(updates) <= 2 * report.batches < 50
    eng.close()
