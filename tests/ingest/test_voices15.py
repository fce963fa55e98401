"""Duplicates and supersedes said in the voices of held-out 15 (bench/RESULTS.md, "Write-path decisions, held-out
15's duplicates and supersedes"): a form the rules know, read in chat's shorthand, a note, dictated speech without
its commas, or numbers said in words. Sentences of my own in other domains and voices, each form with a near-miss
it must leave alone. Real model, the rules as the write path runs them."""

from __future__ import annotations

import pytest

from memgraph.ingest.reconcile import ReconcileAction
from memgraph.ingest.signals import has_correction, has_update_cue, punctuated
from memgraph.ingest.statement import denied_values, stem
from memgraph.ingest.values import values
from tests.ingest.test_reconcile import _decide

SUPERSEDE, CREATE, REINFORCE = ReconcileAction.SUPERSEDE, ReconcileAction.CREATE, ReconcileAction.REINFORCE


def test_values_in_shorthand() -> None:
    """A decimal before "per cent" is a share, not a clock time; chat's unit words; "£1.24k"; a temperature's scale
    without its sign; "every mon"; a range of days; a word of comparison after a number is no unit."""
    assert sorted(values("fixed at 4.19 per cent", compare=True).quantities) == [("%", 4.19)]
    assert values("at 7.40 per the rota", compare=True).times  # a time still
    assert sorted(values("a 5-yr fix", compare=True).quantities) == sorted(values("a five year fix", compare=True)
                                                                             .quantities)
    assert sorted(values("3 wks notice", compare=True).quantities) == [("duration", 30240.0)]
    assert values("rent is £1.2k", compare=True).quantities == values("rent is £1,200", compare=True).quantities
    assert values("oven at 180 C", compare=True).quantities == values("oven at 180°C", compare=True).quantities
    assert values("every mon at 9", compare=True).weekdays == frozenset({0})
    assert not values("I sat on the bench in the sun", compare=True).weekdays
    assert values("open Mon-Fri", compare=True).weekdays == values("open on weekdays", compare=True).weekdays
    assert values("in the office Tuesday to Thursday", compare=True).weekdays == frozenset({1, 2, 3})
    assert values("in the office Tuesday and Thursday", compare=True).weekdays == frozenset({1, 3})
    assert sorted(values("week 10, not 12 like he said", compare=True).quantities) == [("", 10.0), ("", 12.0)]


def test_readings() -> None:
    """Accents typed or not; a denied value with who said it after it, and chat's "827 not 719"; a fronted clause
    without its comma; owning a slip named in three words; a value brought to a number in words."""
    assert stem("café") == stem("cafe") and stem("pérignon") == stem("perignon")
    assert stem("東京") == "東京"
    assert denied_values("the match is on Saturday, not Sunday like we first said") == denied_values(
        "the match is on Saturday, not Sunday")
    assert denied_values("locker code is 4471 not 4417") == {"q:": frozenset({4417.0})}
    assert not denied_values("room 4 not far from the lift")
    assert punctuated("Since the roof was fixed the choir has gone back to St Anne's") == (
        "Since the roof was fixed, the choir has gone back to St Anne's")
    assert punctuated("Since we took on the second press flyers are quicker") == (
        "Since we took on the second press flyers are quicker")
    assert has_correction("I had the parcel locker number wrong, it is 18")
    assert has_correction("i got the two dates the wrong way round")
    assert not has_correction("I had the best holiday of my life")
    assert has_update_cue("the committee voted to raise the fee to forty pounds")
    assert has_update_cue("from this issue on the newsletter goes out by email")
    assert not has_update_cue("from this angle the hill looks steep")


#: Pairs of my own: each form that carries, and a near-miss beside it.
PAIRS: list[tuple[str, str, ReconcileAction]] = [
    # a slip owned in more than two words, or turned about (a correction), then the changed value
    ("The plumber is booked for 12 May.", "I had the plumber booking date wrong, it's the 19th of May.", SUPERSEDE),
    ("The gate code for the allotments is 2580.",
     "i had the gate code the wrong way round, the allotment one is 0852", SUPERSEDE),
    # a correction that names the old value, with who said it after it
    ("The pharmacy says my repeat prescription is 28 tablets.",
     "pharmacy rang, the repeat is 56 tablets, not 28 like they said before", SUPERSEDE),
    # a fronted clause said without its comma (dictated speech)
    ("The choir rehearses in the church hall.",
     "Since the church hall was sold the choir has moved to the library", SUPERSEDE),
    # a value brought to a number said in words
    ("The book club is capped at 8 members.",
     "At the last meeting we voted to raise the book club cap to ten members.", SUPERSEDE),
    # a dated change counted in its own unit
    ("The newsletter goes out on Fridays.", "from this issue on the newsletter goes out on Mondays", SUPERSEDE),
    # near-miss: the same value said again with a cue-like opener changes nothing
    ("The book club is capped at 8 members.", "We agreed last night to keep the cap at eight members.", CREATE),
    # a value in chat's shorthand, a duplicate
    ("Our fixed rate is 3.85% for two years.", "2-yr fix at 3.85 per cent", REINFORCE),
    ("The allotment rent is £1,150 a year.", "allotment rent is £1.15k a year", REINFORCE),
    ("The Ribeira Café takes deliveries on Mondays.", "every mon the ribeira cafe takes deliveries", REINFORCE),
    # near-miss: another amount in shorthand is no repeat (a changed value, said without a cue: a conflict)
    ("The allotment rent is £1,150 a year.", "allotment rent is £1.25k a year", ReconcileAction.CONTRADICT),
    # how often, said on one side only, of a value both give
    ("The evening dose is 5 mg at 9 pm.", "Every night at 21:00 I take the 5 mg evening dose.", REINFORCE),
    ("Quiz night is the first Wednesday of the month at the Plough.",
     "Quiz night at the Plough is on the first Wednesday of every month.", REINFORCE),
    # near-miss: how often said alone is something the other does not say
    ("I water the tomatoes.", "I water the tomatoes every day.", CREATE),
]


@pytest.mark.parametrize(("old", "new", "action"), PAIRS)
def test_voices_that_carry(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision.reason
