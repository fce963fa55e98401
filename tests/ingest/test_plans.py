"""ingest/plans.py and starts.named: how a word said about a change that starts later, before its day, is read
(moved, called off, followed). The end to end cases, through the engine, are tests/retrieve/test_recall_plans.py."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from memgraph.ingest.plans import called_off, follow, restates
from memgraph.ingest.starts import named
from memgraph.models import Memory

SAID = date(2026, 11, 25)  # a Wednesday
OLD = "The bakery opens at 7am on weekdays."
PLAN = "From next week the bakery opens at 7:30 on weekdays."


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Actually the 7:30 opening starts on the 14th.", date(2026, 12, 14)),
        ("Actually it starts on the 14th, not next week.", date(2026, 12, 14)),  # the day denied is not read
        ("Not next week but on the 14th.", date(2026, 12, 14)),
        ("The new hours start on Monday 7 December.", date(2026, 12, 7)),
        ("It's pushed to January.", date(2027, 1, 1)),
        ("Actually it starts in two weeks.", date(2026, 12, 9)),
        ("From next week on.", date(2026, 11, 30)),
        ("Scrap that, the bakery is keeping its 7am opening.", None),
        ("It started last week.", None),
        ("The new hours start today.", None),
    ],
)
def test_named_reads_the_first_later_day_a_text_names(text: str, day: date | None) -> None:
    assert named(text, SAID) == day


@pytest.mark.parametrize(
    "text",
    [
        "Scrap that, the bakery is keeping its 7am opening.",
        "The bakery changed its mind: it stays at 7am on weekdays.",
        "Never mind, the bakery will still open at 7am on weekdays.",
        "The bakery won't open at 7:30 after all.",  # denies what the plan brings, says nothing else
    ],
)
def test_called_off(text: str) -> None:
    assert called_off(OLD, PLAN, text, SAID)


@pytest.mark.parametrize(
    "text",
    [
        "Actually the 7:30 opening starts on the 14th.",  # the plan said again: moved
        "Actually the 7:30 opening starts on the 14th, not next week.",
        "From January it opens at 8.",  # a later change: a chain
        "Actually it won't be 7:30, it'll be 7:45.",  # a new value: a correction of the plan
        "The bakery won't open at 7:30 until the 14th.",  # a denial that names a day: moved
        "From January the bakery will open at 8am on weekdays instead of 7am.",  # names the old value, and its own
        "From January the weekday opening is 8am, not 7am.",
    ],
)
def test_not_called_off(text: str) -> None:
    assert not called_off(OLD, PLAN, text, SAID)


def test_restates_reads_what_the_plan_brings_not_its_start_words() -> None:
    assert restates(OLD, PLAN, "Actually the 7:30 opening starts on the 14th.")
    assert not restates(OLD, PLAN, "From January it opens at 8.")
    assert not restates(OLD, PLAN, "From next week the bakery is closed on Sundays.")  # "from next week" is no value
    # no value at all: the words the plan brings ("Acme") are read
    assert called_off("I work at Globex.", "From next month I work at Acme.", "Scrap that, I'm staying at Globex.",
                      SAID)
    assert restates("I work at Globex.", "From next month I work at Acme.", "Actually I start at Acme in March.")


def _mem(mid: str, content: str, written: datetime, **meta: object) -> Memory:
    return Memory(id=mid, user_id="u", content=content, created_at=written, metadata=dict(meta))


def test_follow_moves_a_plan_only_to_a_day_still_ahead() -> None:
    """A correction said of the old memory that names a day moves the plan there; one dated in a past
    conversation, whose day has come by the write, moves nothing (the decision stands as it was)."""
    now = datetime(2026, 11, 25, 12, tzinfo=UTC)
    old = _mem("x", OLD, now, valid_until="2026-11-30", replaced_by=["p"])
    plan = _mem("p", PLAN, now, valid_from="2026-11-30", replaces=["x"])
    mems = {"x": old, "p": plan}
    moved = _mem("c", "Actually the 7:30 opening starts on the 14th.", now)
    got = follow(moved, old, supersede=True, begins=None, now=now, lookup=mems.get)
    assert got is not None and got.begins == date(2026, 12, 14) and got.replaces == ["x"]
    assert [mid for mid, _ in got.ended] == ["p"]
    back = _mem("c", "Actually the 7:30 opening starts on the 14th.", now - timedelta(days=60))
    assert follow(back, old, supersede=True, begins=None, now=now, lookup=mems.get) is None
    meta = dict(old.metadata)
    for mid, edit in got.edits:
        if mid == "x":
            edit(meta)
    assert meta == {}, "the plan moved away leaves the old memory with no day until the new one is recorded"
