"""Voices a memory is said in, read the way the written words are (a newcomer's notes, the lead's own sentences):
an hour said bare ("closes at 4") is the same time as that hour with "pm"; the formal register's "Going forward"
and chat's "got pushed to fri" date a change as "from now on" and "moved to" do."""

from __future__ import annotations

import pytest

from memgraph import MemoryEngine
from memgraph.ingest.comparison import compare
from memgraph.ingest.signals import has_update_cue
from memgraph.ingest.values import values


def test_a_bare_hour_is_kept_apart_from_a_clock_time() -> None:
    assert values("the Kita closes at 4 on Fridays", compare=True).bare_times == {240}
    assert values("the Kita closes at 4pm on Fridays", compare=True).bare_times == set()
    assert values("reception opens at 08:00", compare=True).bare_times == set()  # a 24-hour clock's morning
    assert values("pickup at 7:30", compare=True).bare_times == set()


@pytest.mark.parametrize(
    ("old", "new", "same"),
    [
        ("the Kita closes at 4 on Fridays", "on fridays the kita shuts at 4pm", True),
        ("Choir practice starts at 7 on Tuesdays.", "Choir practice starts at 7pm on Tuesdays.", True),
        ("The pharmacy opens at 9.", "The pharmacy opens at 9am.", True),
        ("the Kita closes at 4 on Fridays", "the Kita closes at 5pm on Fridays", False),
        ("The pharmacy opens at 9am.", "The pharmacy opens at 9pm.", False),
        ("Reception opens at 08:00.", "Reception opens at 8:00 pm.", False),  # minutes: read as written
    ],
)
def test_an_hour_said_bare_meets_the_same_hour_with_pm(old: str, new: str, same: bool) -> None:
    c = compare(new, old, 0.9)
    assert (not c.changed and c.same_values) is same


def test_a_bare_hour_and_its_pm_are_a_repeat_not_a_conflict(engine: MemoryEngine) -> None:
    u = "kita"
    old = engine.remember("the Kita closes at 4 on Fridays", user_id=u)
    report = engine.remember_report("on fridays the kita shuts at 4pm", user_id=u)
    assert report.contradicted == [] and report.reinforced == [old.id]


@pytest.mark.parametrize(
    "text",
    [
        "Going forward, the weekly design sync will be held on Thursdays at 15:00.",
        "Henceforth, invoices are to be sent to accounts@example.org.",
        "With immediate effect, visiting hours are 2pm to 5pm.",
        "dentist appt got pushed to fri 2pm smh",
        "the launch was pushed back to March",
        "parents' evening pushed until next week",
    ],
)
def test_the_formal_and_the_chat_voice_date_a_change(text: str) -> None:
    assert has_update_cue(text)


@pytest.mark.parametrize(
    "text",
    ["I pushed to get the deal done before Christmas.", "We pushed to the limit on the last climb.",
     "The ticket got pushed to marketing."],
)
def test_pushing_for_something_is_no_change_of_date(text: str) -> None:
    assert not has_update_cue(text)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The weekly design sync is held on Tuesdays at 15:00.",
         "Going forward, the weekly design sync will be held on Thursdays at 15:00."),
        ("dentist appt is thurs 11am", "dentist appt got pushed to fri 2pm smh"),
    ],
)
def test_a_change_in_those_voices_supersedes(engine: MemoryEngine, old: str, new: str) -> None:
    u = f"voice-{abs(hash(new)) % 10_000}"
    first = engine.remember(old, user_id=u)
    report = engine.remember_report(new, user_id=u)
    assert report.superseded == [first.id]


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("my abuela's cita is el martes at 10", {1}),
        ("the Kita is closed on Freitag", {4}),
        ("Sonntag brunch at 11", {6}),
        ("physio huwebes and biyernes", {3, 4}),
        ("we go to misa el domingo", {6}),
        ("Domingo Ruiz called about the boiler", set()),  # a name
    ],
)
def test_a_weekday_in_a_language_mixed_into_english(text: str, days: set[int]) -> None:
    assert set(values(text, compare=True).weekdays) == days


def test_a_day_moved_in_a_mixed_language_supersedes(engine: MemoryEngine) -> None:
    u = "abuela"
    first = engine.remember("abuela's cita is el martes at 10", user_id=u)
    report = engine.remember_report("abuela's cita got moved to el jueves at 10", user_id=u)
    assert report.superseded == [first.id]


@pytest.mark.parametrize(
    ("text", "cue"),
    [
        ("Thanks, Gina! I won't quit, even when it's hard. I'm gonna make it!", False),
        ("we never moved house, we just redid the loft", False),
        ("The plan hasn't changed: launch is on the 14th.", False),
        ("I quit my job at the bakery.", True),
        ("I no longer drink coffee.", True),  # a denial that is the change
        ("I won't quit, and we moved to Leeds in May.", True),  # another verb still says a change
    ],
)
def test_a_denied_change_verb_is_no_update(text: str, cue: bool) -> None:
    """A conversation's encouragement ("I won't quit") read as an update superseded the speaker's earlier turns on
    LoCoMo dev's ordinary ingest (four false Supersedes between chit-chat turns)."""
    assert has_update_cue(text) is cue
