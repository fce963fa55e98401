"""Duplicates and supersedes said in the voices of held-out 16 (bench/RESULTS.md, "Write-path decisions, held-out
16's duplicates and supersedes"): hours said as a range in dictation, numbers said in words, a note's new value with
its old one in brackets, a change told with its agent as the subject, "till now" and a routine of upkeep (no update
cue). Sentences of my own in other domains and voices, each form with a near-miss it must leave alone. Real model,
the rules as the write path runs them."""

from __future__ import annotations

import pytest

from memgraph.ingest.forms import changed_thing
from memgraph.ingest.reconcile import ReconcileAction
from memgraph.ingest.signals import has_update_cue
from memgraph.ingest.values import values
from tests.ingest.test_reconcile import _decide

SUPERSEDE, CREATE, REINFORCE = ReconcileAction.SUPERSEDE, ReconcileAction.CREATE, ReconcileAction.REINFORCE


def _times(text: str) -> list[int]:
    return sorted(values(text, compare=True).times)


def _quantities(text: str) -> list[tuple[str, float]]:
    return sorted(values(text, compare=True).quantities)


def test_hours_said_as_a_range() -> None:
    """A range of hours in words or digits ended by "till" / "until", whatever word runs on after it in dictation; one
    that ends by seven with no part of the day said is in the afternoon; "at eight sharp" is a time."""
    assert _times("thursdays from five till six ben has his judo") == _times("Ben has judo on Thursdays, 5-6pm.")
    assert _times("from two till four on sunday") == [840, 960]
    assert _times("the stall is open from nine till five") == [540, 1020]
    assert _times("from eight till ten in the morning") == [480, 600]
    assert _times("the first heat starts at eight sharp") == [480]
    assert not _times("at eight I learned to swim")  # an age, maybe
    assert _quantities("from five till six weeks") == [("duration", 60480.0)]  # a unit after it: no hour
    assert not _times("I have two till Friday")


def test_numbers_said_in_words() -> None:
    """A compound before "and a half thousand"; "once every"; "every couple of"."""
    assert _quantities("they quoted twenty-four and a half thousand pounds") == [("gbp", 24500.0)]
    assert _quantities("the boiler is serviced once every six months") == _quantities("serviced every 6 months")
    assert _quantities("I see the hygienist every couple of months") == _quantities("every two months")
    # how long, not how often ("a couple of" a unit of time is two of it: `spoken._COUPLE`)
    assert _quantities("we stayed a couple of days") == [("duration", 2880.0)]


def test_cues() -> None:
    """"till now" and "until now" date nothing; a change verb in its plain form with how often after it is a
    routine, not a change made; the thing a change told with its agent as the subject acts on."""
    assert not has_update_cue("Roof fund: 3,400 euros collected till now.")
    assert not has_update_cue("Until now nobody has complained about the noise.")
    assert has_update_cue("We are now collecting for the roof.")
    assert not has_update_cue("pond pump sponge - replace monthly")
    assert not has_update_cue("Change the cat's water fountain filter every four weeks.")
    assert has_update_cue("We changed the fountain filter to the charcoal kind.")
    assert has_update_cue("I now change the filter every two weeks.")
    assert changed_thing("The exam board has moved the piano exam to 19 May.") == {"piano", "exam"}
    assert changed_thing("The council has moved our bin collection to Thursdays.") == {"bin", "collect"}
    assert not changed_thing("The council has moved to a new office.")


#: Pairs of my own: each form that carries, and a near-miss beside it.
PAIRS: list[tuple[str, str, ReconcileAction]] = [
    # hours said as a range in dictation, a repeat of the written hours
    ("Ada's swimming lessons are on Saturdays, 3 to 4 in the afternoon.",
     "saturdays from three till four ada has her swimming lessons", REINFORCE),
    # near-miss: other hours said the same way are no repeat
    ("Ada's swimming lessons are on Saturdays, 3 to 4 in the afternoon.",
     "saturdays from four till five ada has her swimming lessons", CREATE),
    # a change told with its agent as the subject
    ("Mia's piano exam is on 12 May at 10:00.",
     "The exam board has moved the piano exam to 19 May, same time.", SUPERSEDE),
    ("Our bin collection day is Tuesday.",
     "The council has moved our bin collection to Thursday.", SUPERSEDE),
    # near-miss: the agent moved something the old statement does not name
    ("Mia's piano exam is on 12 May at 10:00.",
     "The exam board has moved the violin recital to 19 May.", CREATE),
    # a note's new value with its old one in brackets, both bare
    ("The kitchen budget is £12k.", "kitchen budget ~15k (was 12k)", SUPERSEDE),
    ("The quote for the fence was €3,200.", "fence quote now 3,650 (was 3,200)", SUPERSEDE),
    # near-miss: the bracket names a value the old statement does not give
    ("The kitchen budget is £12k.", "garden budget ~15k (was 9k)", CREATE),
    # "till now": a running total said again is a repeat, not an update
    ("The roof appeal has raised £3,400 so far.", "Roof appeal: £3,400 raised till now.", REINFORCE),
    # a routine of upkeep beside another: no update, two routines
    ("Change the cat's water fountain filter every four weeks.",
     "water fountain pump sponge - change every two months", CREATE),
]


@pytest.mark.parametrize(("old", "new", "action"), PAIRS)
def test_voices_that_carry(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision.reason
