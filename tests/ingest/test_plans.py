"""ingest/plans.py and starts.named: how a word said about a change that starts later, before its day, is read
(moved, called off, followed). The end to end cases, through the engine, are tests/retrieve/test_recall_plans.py."""

from __future__ import annotations

from datetime import date

import pytest

from memgraph.ingest.plans import called_off, restates
from memgraph.ingest.starts import named

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
