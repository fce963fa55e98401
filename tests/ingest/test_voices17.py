"""Duplicates and supersedes said in the voices of held-out 17 (bench/RESULTS.md, "Write-path decisions, held-out
17's duplicates and supersedes"): a note that joins a second item with "+", an interval of several units said on
one side only, "every other / alternate / second Saturday" read as fortnightly. Sentences of my own in other
domains and voices (notes, chat, a log line, a relayed fact), each form with a near-miss it must leave alone. Real
model, the rules as the write path runs them."""

from __future__ import annotations

import pytest

from memgraph.ingest.comparison import compare, implied_interval
from memgraph.ingest.reconcile import ReconcileAction
from memgraph.ingest.values import values
from tests.ingest.test_reconcile import _decide

SUPERSEDE, CREATE, REINFORCE = ReconcileAction.SUPERSEDE, ReconcileAction.CREATE, ReconcileAction.REINFORCE


def _quantities(text: str) -> list[tuple[str, float]]:
    return sorted(values(text, compare=True).quantities)


def _every(text: str) -> list[float]:
    return sorted(v for k, v in values(text, compare=True).quantities if k == "every")


def test_alternate_weekdays_are_fortnightly() -> None:
    """"every other / alternate / second" before a weekday, and "alternate" before a plural weekday, say every two
    weeks, as "fortnightly" does; the weekday itself is still read. "the other Saturday" (one day) and "the second
    Saturday of the month" (monthly) are not fortnightly."""
    assert _every("The window cleaner comes every other Tuesday.") == _every("window cleaner: fortnightly")
    assert _every("recycling goes out on alternate Wednesdays") == [20160.0]
    assert _every("every second Friday I work from home") == [20160.0]
    assert _every("we meet every alternate week") == [20160.0]
    assert values("every other Tuesday", compare=True).weekdays == frozenset({1})
    assert not _every("the other Saturday we went to the coast")
    assert not _every("the second Saturday of the month")


def test_counts_before_an_adverb_and_other_readings() -> None:
    """"two times daily" is "twice a day", "once nightly" is "every night"; "for an hour" / "for a week" is how long,
    not how often; "the 1st Monday" is which Monday (the ordinal "first"), no day of the month; "milligrams" is mg."""
    assert _every("Dad takes his eye drops three times daily.") == _every("Dad's eye drops: 3 times a day")
    assert _every("one tablet once nightly") == _every("one tablet every night")
    assert not _every("the plumber stayed for an hour")
    assert _quantities("we rented the cottage for a week") == [("duration", 10080.0)]
    assert _every("the cleaner charges £15 an hour") == [60.0]  # a rate after its amount
    assert not values("the 1st Monday of each month", compare=True).quantities & {("day", 1.0)}
    assert ("day", 3.0) in values("bins go out on the 3rd of each month", compare=True).quantities
    assert values("5 milligrams at night", compare=True).quantities >= {("mg", 5.0)}


def test_a_day_said_alone_against_a_date() -> None:
    """"to the 21st" beside "14 March" is a changed date (a day and a date were two kinds that never met); beside
    two dates, or with a date of its own, it is left as it was."""
    assert compare("moved it to the 21st", "The tightening is on 14 March.", 0.6).changed == ("date",)
    assert not compare("it is on the 14th", "The tightening is on 14 March.", 0.6).changed
    assert compare("moved it to the 21st", "The tightening is on 14 March or 18 April.", 0.6).changed == ()


def test_implied_interval() -> None:
    """How often a recurring time or day says without the word: once or n times an hour, a day, a week, a month;
    once a year. Not an interval of several units."""
    assert all(implied_interval(v) for v in (60.0, 720.0, 1440.0, 5040.0, 10080.0, 43800.0, 525600.0))
    assert not any(implied_interval(v) for v in (2880.0, 20160.0, 131400.0, 262800.0))


#: Pairs of my own: each form that carries, and a near-miss beside it.
PAIRS: list[tuple[str, str, ReconcileAction]] = [
    # a second item joined by "+" in a note says more than the stored statement: no repeat
    ("Match stewards get a lunch allowance of £6.50 a day.",
     "steward expenses: lunch £6.50/day + bus fares paid back", CREATE),
    # near-miss: the same note without a second item repeats it
    ("The gym membership is £32 a month.", "gym membership: £32 a month", REINFORCE),
    # an interval of several units said on one side only, in a clause of its own: a fact the other does not hold
    ("The boiler warranty runs for 5 years.",
     "The boiler warranty runs for five years, and the warranty needs the boiler serviced every two years.", CREATE),
    # near-miss: a daily frequency is said by the time it recurs at
    ("Every night at 22:00 Dad takes his insulin.", "Dad takes his insulin at 10pm.", REINFORCE),
    # "every other Saturday" beside "fortnightly on Saturdays" (a note's voice): the same routine
    ("The allotment society works the shared beds fortnightly on Saturdays at 10 am.",
     "allotment society: shared beds every other saturday, 10:00", REINFORCE),
    # one relative called by two kinship words, with the same measured values
    ("Grandma takes 5 mg of amlodipine every morning.",
     "Patient (user's grandmother) is prescribed amlodipine 5 milligrams, once daily in the morning.", REINFORCE),
    # near-misses: the same number counting another thing is no repeat; the speaker's "I" is no shared subject
    ("My nan has two brothers.", "Grandma has 2 siblings.", CREATE),
    ("I go to the pool on Sundays.", "I watch football on Sundays.", CREATE),
    # a day of the month said alone is a date in the month the old statement gives: a changed date, told as an event
    # (the verb's object without a determiner, as chat writes it)
    ("Biscuit's booster jab is on Tuesday 9 April at 11am.", "moved biscuit's booster to the 16th, same time",
     SUPERSEDE),
    ("Our parents' evening is on 12 March.", "school moved parents' evening to the 19th", SUPERSEDE),
    # near-miss: the thing moved is not the old statement's
    ("Our parents' evening is on 12 March.", "school moved the year 6 disco to the 19th", CREATE),
    # near-miss: every Saturday is not every other Saturday
    ("The allotment society works the shared beds every Saturday at 10 am.",
     "allotment society: shared beds every other saturday, 10:00", CREATE),
]


@pytest.mark.parametrize(("old", "new", "action"), PAIRS)
def test_voices_that_carry(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision.reason
