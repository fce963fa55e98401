"""A change that starts later (ingest/starts.py, resolve.apply, retrieve/validity.py, jobs/decay.py): the old
memory holds until the change's day, both sides say so when served, and from that day the old one is not served and
the decay job retires it. Through the public API, with the real model."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from memgraph import MemoryEngine
from memgraph.models import Memory, Relation
from memgraph.tools import recall_json

OLD = "The swimming pool opens at 6am on weekdays."
NEW = "From next week the swimming pool opens at 6:30 on weekdays."
QUERY = "When does the swimming pool open on weekdays?"


@pytest.fixture
def eng(quiet: MemoryEngine) -> MemoryEngine:
    """An engine whose recalls change nothing (no maintenance)."""
    return quiet


def _monday_after(day: date) -> date:
    return day + timedelta(days=7 - day.weekday())


def _written(eng: MemoryEngine) -> tuple[Memory, Memory]:
    old = eng.remember(OLD, user_id="ola")
    report = eng.remember_report(NEW, user_id="ola")
    assert report.superseded == [old.id]
    # the report says when: a caller must not read the old memory as retired now
    (decision,) = report.decisions
    day = _monday_after(datetime.now(UTC).date()).isoformat()
    assert decision.valid_from == day and decision.reason.endswith(f"holds from {day}")
    return eng.get(old.id, user_id="ola"), eng.get(report.created[0], user_id="ola")


def _step(monkeypatch: pytest.MonkeyPatch, to: datetime) -> None:
    """Recall's clock moved to `to` (the engine reads the time where it serves)."""
    monkeypatch.setattr("memgraph.retrieve.pipeline.utcnow", lambda: to)


def test_before_the_day_the_old_memory_holds_and_both_sides_say_so(eng: MemoryEngine) -> None:
    old, new = _written(eng)
    day = _monday_after(datetime.now(UTC).date())
    assert old.active, "the change starts next week: the old hours hold until then"
    assert old.metadata["valid_until"] == day.isoformat() and old.metadata["replaced_by"] == [new.id]
    assert new.metadata["valid_from"] == day.isoformat() and new.metadata["replaces"] == [old.id]
    (edge,) = eng.store.get_links("ola", [new.id], relations=[Relation.SUPERSEDES], direction="out")
    assert edge.dst == old.id and day.isoformat() in (edge.reason or "")
    res = eng.recall(QUERY, user_id="ola", top_k=5)
    prompt = res.to_prompt()
    assert f"[FACT, until {day.isoformat()}] {OLD}" in prompt
    assert f"[FACT, from {day.isoformat()}] {NEW}" in prompt
    items = {m["id"]: m for m in recall_json(res)["memories"]}  # the tools' compact answer says it too
    assert items[old.id]["holds_until"] == day.isoformat() and "holds_from" not in items[old.id]
    assert items[new.id]["holds_from"] == day.isoformat() and "holds_until" not in items[new.id]


def test_on_the_day_the_old_memory_is_not_served_and_decay_retires_it(
    eng: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new = _written(eng)
    day = _monday_after(datetime.now(UTC).date())
    on_the_day = datetime(day.year, day.month, day.day, 9, tzinfo=UTC)
    _step(monkeypatch, on_the_day)
    res = eng.recall(QUERY, user_id="ola", top_k=5)
    assert old.id not in [m.id for m in res.memories]  # read-time: the store still holds it active
    assert f"[FACT] {NEW}" in res.to_prompt()  # its day has come: no mark
    assert eng.get(old.id, user_id="ola").active
    before = eng.jobs.decay("ola", apply=True, now=on_the_day - timedelta(days=1))
    assert before.retired == 0 and eng.get(old.id, user_id="ola").active
    report = eng.jobs.decay("ola", apply=True, now=on_the_day)
    assert report.retired == 1
    assert not eng.get(old.id, user_id="ola").active and eng.get(new.id, user_id="ola").active
    assert eng.jobs.decay("ola", apply=True, now=on_the_day).retired == 0  # once


def test_a_start_already_past_when_written_supersedes_at_once(eng: MemoryEngine) -> None:
    """A conversation dated in the past (LoCoMo's): its starts have all come, so the old memory goes at once."""
    old = eng.remember(OLD, user_id="ola")
    written = datetime.now(UTC) - timedelta(days=30)
    (new,) = eng.remember_many([{"content": NEW, "created_at": written}], user_id="ola")
    assert not eng.get(old.id, user_id="ola").active
    assert "valid_from" not in eng.get(new.id, user_id="ola").metadata


def test_erasing_the_change_leaves_the_old_memory_holding(
    eng: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new = _written(eng)
    eng.erase([new.id], user_id="ola")
    kept = eng.get(old.id, user_id="ola")
    assert kept.active and "valid_until" not in kept.metadata and "replaced_by" not in kept.metadata
    later = datetime.now(UTC) + timedelta(days=8)
    _step(monkeypatch, later)
    assert old.id in [m.id for m in eng.recall(QUERY, user_id="ola", top_k=5).memories]
    assert eng.jobs.decay("ola", apply=True, now=later).retired == 0


def test_erasing_the_old_memory_leaves_the_change_with_its_day(eng: MemoryEngine) -> None:
    old, new = _written(eng)
    eng.erase([old.id], user_id="ola")
    kept = eng.get(new.id, user_id="ola")
    assert kept.metadata["replaces"] == [] and kept.metadata["valid_from"] == new.metadata["valid_from"]
    assert f"[FACT, from {new.metadata['valid_from']}] {NEW}" in eng.recall(QUERY, user_id="ola").to_prompt()


def test_a_change_forgotten_before_its_day_replaces_nothing(
    eng: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """"Actually the pool keeps its hours": the change is forgotten before its day, and on the day the old hours are
    still served and decay leaves them active (the old memory's own metadata still names the day)."""
    old, new = _written(eng)
    eng.forget(new.id, user_id="ola")
    day = _monday_after(datetime.now(UTC).date())
    on_the_day = datetime(day.year, day.month, day.day, 9, tzinfo=UTC)
    _step(monkeypatch, on_the_day)
    assert old.id in [m.id for m in eng.recall(QUERY, user_id="ola", top_k=5).memories]
    assert eng.jobs.decay("ola", apply=True, now=on_the_day).retired == 0
    assert eng.get(old.id, user_id="ola").active
    eng.restore(new.id, user_id="ola")  # the change stands again: on its day it replaces the old hours
    assert old.id not in [m.id for m in eng.recall(QUERY, user_id="ola", top_k=5).memories]
    assert eng.jobs.decay("ola", apply=True, now=on_the_day).retired == 1
