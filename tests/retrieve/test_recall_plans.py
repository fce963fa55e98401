"""A change that starts later, changed again before its day (ingest/plans.py, resolve.apply, retrieve/validity.py,
seeds.resolve_superseded): its day moves, it is called off, a later change follows it, or the old memory was a
compound one. Through the public API with the real model; the conversation is had today, and recall and the decay
job are asked at the days that follow (`recall(now=...)`, `decay(now=...)`), as an agent replaying it would. The
decay job runs after the recalls: its clock also ages every memory."""

from __future__ import annotations

import inspect
from datetime import UTC, date, datetime, timedelta

import pytest

from memgraph import AsyncMemoryEngine, MemoryEngine
from memgraph.models import Memory
from memgraph.store import MemoryFilter

#: The day the conversation is had, and the days its words name: next week's Monday, the Monday after it, and the
#: first day of the month after next.
TODAY = datetime.now(UTC).date()
NEXT_WEEK = TODAY + timedelta(days=7 - TODAY.weekday())
MOVED = NEXT_WEEK + timedelta(days=7)
LATER = date(TODAY.year + (TODAY.month + 1) // 12, (TODAY.month + 1) % 12 + 1, 1)
#: How a day is said ("7 December").
MOVED_SAID = f"{MOVED.day} {MOVED:%B}"
OLD = "The bakery opens at 7am on weekdays."
PLAN = "From next week the bakery opens at 7:30 on weekdays."
QUERY = "When does the bakery open on weekdays?"


@pytest.fixture
def eng(quiet: MemoryEngine) -> MemoryEngine:
    """An engine whose recalls change nothing (no maintenance)."""
    return quiet


def _at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 9, tzinfo=UTC)


def _say(eng: MemoryEngine, text: str) -> None:
    eng.remember(text, user_id="bea")


def _by_text(eng: MemoryEngine) -> dict[str, Memory]:
    return {m.content: m for m in eng.store.list_memories("bea", MemoryFilter.everything(), limit=50)}


def _prompt(eng: MemoryEngine, day: date, query: str = QUERY) -> str:
    return eng.recall(query, user_id="bea", top_k=5, now=_at(day)).to_prompt()


def _planned(eng: MemoryEngine, old: str = OLD) -> None:
    _say(eng, old)
    _say(eng, PLAN)
    mems = _by_text(eng)
    assert mems[old].active and mems[old].metadata["valid_until"] == NEXT_WEEK.isoformat()


@pytest.mark.parametrize(
    "moved",
    [
        f"Actually the bakery's 7:30 opening starts on {MOVED_SAID}, not next week.",  # said of the plan
        f"Correction: the bakery opens at 7:30 on weekdays from {MOVED_SAID}.",  # said of the old hours
        f"Actually the 7:30 opening starts on {MOVED_SAID}.",  # of the old hours, with no start word ("starts on")
    ],
)
def test_a_plan_moved_before_its_day_holds_the_old_memory_until_the_new_day(eng: MemoryEngine, moved: str) -> None:
    _planned(eng)
    _say(eng, moved)
    mems = _by_text(eng)
    old, plan, new = mems[OLD], mems[PLAN], mems[moved]
    assert not plan.active, "the plan it moves is superseded at once"
    day = MOVED.isoformat()
    assert old.active and old.metadata["valid_until"] == day and old.metadata["replaced_by"] == [new.id]
    assert new.metadata["valid_from"] == day and new.metadata["replaces"] == [old.id]
    between = _prompt(eng, NEXT_WEEK + timedelta(days=1))  # the plan's old day has passed, the new one has not come
    assert f"[FACT, until {day}] {OLD}" in between and f"[FACT, from {day}] {moved}" in between
    assert PLAN not in between
    on_the_day = _prompt(eng, MOVED)
    assert OLD not in on_the_day and f"[FACT] {moved}" in on_the_day
    assert eng.jobs.decay("bea", apply=True, now=_at(NEXT_WEEK + timedelta(days=1))).retired == 0
    assert eng.jobs.decay("bea", apply=True, now=_at(MOVED)).retired == 1
    assert not eng.get(old.id, user_id="bea").active


@pytest.mark.parametrize(
    "off",
    [
        "Scrap that, the bakery is keeping its 7am opening.",  # said of the plan (a supersede of it)
        "Never mind, the bakery will still open at 7am on weekdays.",  # said of the old hours (a conflict)
    ],
)
def test_a_plan_called_off_leaves_the_old_memory_simply_holding(eng: MemoryEngine, off: str) -> None:
    _planned(eng)
    _say(eng, off)
    mems = _by_text(eng)
    old, plan = mems[OLD], mems[PLAN]
    assert not plan.active
    assert old.active and not {"valid_until", "replaced_by"} & set(old.metadata)
    for day in (TODAY, NEXT_WEEK, MOVED):
        prompt = _prompt(eng, day)
        assert OLD in prompt and "until" not in prompt and PLAN not in prompt
    assert eng.jobs.decay("bea", apply=True, now=_at(MOVED)).retired == 0
    assert eng.get(old.id, user_id="bea").active


def test_a_plan_called_off_by_restating_the_old_hours_as_news_supersedes_them(eng: MemoryEngine) -> None:
    """The reconciler reads "it stays at 7am" as a newer statement of the old hours: they are superseded at once
    by it, and the plan, which it calls off, too; nothing is left to start next week."""
    _planned(eng)
    off = "The bakery changed its mind: it stays at 7am on weekdays."
    _say(eng, off)
    mems = _by_text(eng)
    assert not mems[PLAN].active and mems[off].active and "valid_from" not in mems[off].metadata
    prompt = _prompt(eng, NEXT_WEEK)
    assert f"[FACT] {off}" in prompt and PLAN not in prompt


@pytest.mark.parametrize(
    "later",
    [
        f"From {LATER:%B} the bakery opens at 8 on weekdays.",  # said of the plan
        f"From {LATER:%B} the bakery will open at 8am on weekdays instead of 7am.",  # said of the old hours
    ],
)
def test_a_later_change_after_a_plan_is_a_chain(eng: MemoryEngine, later: str) -> None:
    """Each change holds from its day until the next one's; the seeds worded like a replaced one resolve to the one
    that holds on the day asked."""
    _planned(eng)
    _say(eng, later)
    mems = _by_text(eng)
    old, plan = mems[OLD], mems[PLAN]
    week, month = NEXT_WEEK.isoformat(), LATER.isoformat()
    assert plan.active and plan.metadata["valid_until"] == month and plan.metadata["valid_from"] == week
    before = _prompt(eng, TODAY)
    assert f"[FACT, until {week}] {OLD}" in before
    assert f"[FACT, from {week}, until {month}] {PLAN}" in before
    assert f"[FACT, from {month}] {later}" in before
    between = _prompt(eng, NEXT_WEEK + timedelta(days=1))
    assert OLD not in between and f"[FACT, until {month}] {PLAN}" in between
    after = _prompt(eng, LATER)
    assert OLD not in after and PLAN not in after and f"[FACT] {later}" in after
    res = eng.recall(OLD, user_id="bea", top_k=3, now=_at(NEXT_WEEK + timedelta(days=1)))  # the old wording
    assert res.memories[0].id == plan.id
    assert eng.jobs.decay("bea", apply=True, now=_at(LATER)).retired == 2
    assert not eng.get(old.id, user_id="bea").active and not eng.get(plan.id, user_id="bea").active


def test_the_old_wording_finds_the_change_on_its_day(eng: MemoryEngine) -> None:
    """A seed that a change has replaced by the day asked is resolved to that change, as an inactive one is to its
    successor, not dropped: asked in the old memory's own words, recall answers with the new hours."""
    _planned(eng)
    mems = _by_text(eng)
    res = eng.recall(OLD, user_id="bea", top_k=3, now=_at(NEXT_WEEK))
    assert [m.id for m in res.memories][0] == mems[PLAN].id
    assert f"resolved from superseded memory {mems[OLD].id}" in res.trace[0].notes
    assert mems[OLD].id not in [m.id for m in res.memories]
    before = eng.recall(OLD, user_id="bea", top_k=3, now=_at(TODAY))
    assert before.memories[0].id == mems[OLD].id  # before the day the old hours hold


def test_a_compound_old_memory_says_its_remainder_itself_until_the_day(eng: MemoryEngine) -> None:
    """The Saturday hours are kept as a memory of their own at once (ingest/remainders.py), but while the compound
    memory holds it says them, so the remainder is not served beside it; from the day it is."""
    compound = "The bakery opens at 7am on weekdays and 8am on Saturdays."
    rest = "The bakery opens at 8am on Saturdays."
    _planned(eng, compound)
    assert _by_text(eng)[rest].active
    saturdays = "When does the bakery open on Saturdays?"
    before = _prompt(eng, TODAY, saturdays)
    assert f"[FACT, until {NEXT_WEEK.isoformat()}] {compound}" in before and rest not in before
    on_the_day = _prompt(eng, NEXT_WEEK, saturdays)
    assert compound not in on_the_day and f"[FACT] {rest}" in on_the_day


def test_a_compound_old_memory_whose_plan_is_called_off_keeps_saying_its_remainder(eng: MemoryEngine) -> None:
    compound = "The bakery opens at 7am on weekdays and 8am on Saturdays."
    _planned(eng, compound)
    _say(eng, "Scrap that, the bakery is keeping its 7am opening.")
    prompt = _prompt(eng, MOVED, "When does the bakery open on Saturdays?")
    assert f"[FACT] {compound}" in prompt and "The bakery opens at 8am on Saturdays." not in prompt


def test_recall_takes_the_moment_it_is_asked_at(eng: MemoryEngine) -> None:
    """`now` is keyword-only on both engines; naive is UTC; without it recall asks at the current time."""
    for cls in (MemoryEngine, AsyncMemoryEngine):
        param = inspect.signature(cls.recall).parameters["now"]
        assert param.kind is inspect.Parameter.KEYWORD_ONLY and param.default is None
    _planned(eng)
    naive = datetime(NEXT_WEEK.year, NEXT_WEEK.month, NEXT_WEEK.day, 0, 30)  # 00:30 UTC on the day
    assert OLD not in eng.recall(QUERY, user_id="bea", top_k=5, now=naive).to_prompt()
    assert f"[FACT, until {NEXT_WEEK.isoformat()}] {OLD}" in eng.recall(QUERY, user_id="bea", top_k=5).to_prompt()


def test_a_value_that_holds_now_ends_the_plan_and_the_old_value_at_once(eng: MemoryEngine) -> None:
    """"now" with no day of its own, saying nothing the plan brings: today's value, not the plan moved to its day
    (a lead's allotment notes: the £50 was marked "from April" and the £38 served "until April" beside it)."""
    _say(eng, "The plot rent is £38 a year.")
    _say(eng, "The plot rent goes up to £45 from next April.")
    _say(eng, "The plot rent is now £50.")
    mems = _by_text(eng)
    now = mems["The plot rent is now £50."]
    assert now.active and "valid_from" not in now.metadata
    assert not mems["The plot rent is £38 a year."].active
    assert not mems["The plot rent goes up to £45 from next April."].active
    prompt = _prompt(eng, TODAY, "How much is the plot rent?")
    assert "[FACT] The plot rent is now £50." in prompt and "until" not in prompt and "from 20" not in prompt
