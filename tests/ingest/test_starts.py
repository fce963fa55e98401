"""The day from which a change holds (ingest/starts.py), read against the day it was written: only a day later than
that is a start; a past or present one, a range, a move and a day that is the value itself are none."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from memgraph.ingest.starts import since, start, until

THU = date(2027, 2, 11)  # a Thursday


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("From next week the swimming pool opens at 6:30.", date(2027, 2, 15)),  # the Monday after
        ("Starting next month the parking permit costs £40.", date(2027, 3, 1)),
        ("As of next year my pension contribution is 8%.", date(2028, 1, 1)),
        ("From Monday the school bus leaves at 7:55.", date(2027, 2, 15)),
        ("From Thursday the library shuts at 6pm.", date(2027, 2, 18)),  # said on a Thursday: the next one
        ("Beginning on 3 May the clinic moves to Elm Street.", date(2027, 5, 3)),
        ("Effective March 15th the team lead is Priya.", date(2027, 3, 15)),
        ("From April my gym fee is £35.", date(2027, 4, 1)),
        ("From August my gym fee is £35.", date(2027, 8, 1)),  # the nearest August is the coming one
        ("With effect from 2027-04-06 the tax code is 1257L.", date(2027, 4, 6)),
        ("From tomorrow the canteen closes at 2.", date(2027, 2, 12)),
        ("From the 20th the ward has a new sister.", date(2027, 2, 20)),
        ("My council tax goes up to 160 a month next month.", date(2027, 3, 1)),
        ("In three weeks my shift pattern changes to nights.", date(2027, 3, 4)),
        ("We'll be moving to Bristol in June.", date(2027, 6, 1)),
        ("Commencing Monday, 1 March, the office opens at 8.", date(2027, 3, 1)),
    ],
)
def test_a_later_start_is_read(text: str, expected: date) -> None:
    assert start(text, THU) == expected


@pytest.mark.parametrize(
    "text",
    [
        "From last week the swimming pool opens at 6:30.",  # past
        "Since Monday the school bus leaves at 7:55.",  # since: a start gone
        "As of today the canteen closes at 2.",  # present
        "From this month the parking permit costs £40.",
        "From February my gym fee is £35.",  # said in February: this one
        "From January my gym fee is £35.",  # the nearest January is the one gone
        "As of 1 February the team lead is Priya.",  # the nearest 1 February is the one gone
        "The surgery is open from Monday to Friday.",  # a range
        "The choir practice moved from Tuesday to Wednesday.",  # a move
        "The choir practice has moved from Tuesday.",
        "The swimming pool opens from 6:30.",  # a time of day
        "The appointment is next week.",  # the value itself
        "The appointment was moved to next month.",
        "After Easter I switch to the late shift.",  # holidays are not read
        "Next term Maya's PE day is Friday.",
        "The swimming pool opens at 6:30.",
    ],
)
def test_no_later_start(text: str) -> None:
    assert start(text, THU) is None


def test_a_bare_day_is_the_value_when_the_old_text_names_a_day_it_drops() -> None:
    """"The vet is on Friday." -> "I'm taking the cat to the vet next week.": next week is the new day, not a start."""
    assert start("I'm taking the cat to the vet next week.", THU, old="The vet is on Friday.") is None
    assert start("I'm taking the cat to the vet next week.", THU) == date(2027, 2, 15)
    # a start word still reads the day when the old text names one ("on Saturdays" is kept, the hours change)
    assert start("From next week the market opens at 9 on Saturdays.", THU, old="The market opens at 8 on Saturdays.") \
        == date(2027, 2, 15)


def test_resolved_against_the_day_written_not_today() -> None:
    """A conversation turn dated in the past: its start is resolved against its own date."""
    assert start("From next week the bakery opens at 7:30.", datetime(2023, 5, 3, 18, tzinfo=UTC)) == date(2023, 5, 8)


def test_the_metadata_days_read_back() -> None:
    meta = {"valid_from": "2027-02-15", "valid_until": "2027-03-01"}
    assert since(meta) == date(2027, 2, 15) and until(meta) == date(2027, 3, 1)
    assert since({"valid_from": "soon"}) is None and until({}) is None and until(None) is None
