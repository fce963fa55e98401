"""Compound notes where one item is said again, changed or contradicted, and two false duplicates' shapes (held-out
pairs 22; bench/RESULTS.md, "Write-path decisions, held-out 22's compound notes and false duplicates"). Sentences of
my own in other domains, each with a near miss."""

from __future__ import annotations

import pytest

from memgraph.ingest import compounds, remainders
from memgraph.ingest.comparison import owner_word_only
from memgraph.ingest.reconcile import ReconcileAction
from memgraph.ingest.repeats import lists_contents, one_says_more
from memgraph.ingest.statement import statement
from tests.ingest.test_reconcile import _decide

REINFORCE, CREATE = ReconcileAction.REINFORCE, ReconcileAction.CREATE
CONTRADICT, SUPERSEDE = ReconcileAction.CONTRADICT, ReconcileAction.SUPERSEDE

GARAGE = "Garage: MOT booked Wednesday, new tyres quoted £240, wiper blades fitted."
ALLOTMENT = "Allotment: plot 14, rent £35 a year, water trough by the gate."
CHOIR = "Choir concert: 12 December, soloist Ruth Baines, tickets £10."


def test_items_of_a_compound_note() -> None:
    # an item that opens with a value takes no words of the first item when that opens with a value too
    assert remainders.items("Mon-Thu 8-6, Fri 8-4, closed weekends") == ["Mon-Thu 8-6", "Fri 8-4", "closed weekends"]
    note = compounds.compound(GARAGE)
    assert note is not None and note.heading == "Garage" and len(note.items) == 3
    assert compounds.compound("The MOT is booked for Wednesday.") is None


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (GARAGE, "The new tyres were quoted at £240 by the garage.", True),
        (ALLOTMENT, "The allotment rent is £35 a year.", True),
        # a value of an item of values only is the whole note's, a date's month too
        (CHOIR, "The choir's December concert tickets are £10.", True),
        (CHOIR, "Tickets for the choir concert are £10 on 14 December.", False),
        # a value only another item gives ("Wednesday" is the MOT's), another value, a word of its own
        (GARAGE, "The new tyres are booked for Wednesday.", False),
        (GARAGE, "The garage quoted £260 for the new tyres.", False),
        (GARAGE, "The garage quoted £240 for the new tyres and tracking.", False),
        # a sentence's pieces, no note with a label: left to the rules that read a sentence said again
        ("I keep 4 hens and 2 ducks.", "I keep 4 hens.", False),
    ],
)
def test_one_item_said_again(old: str, new: str, said: bool) -> None:
    assert compounds.repeated(statement(new), old) is said


def test_one_item_changed() -> None:
    n = statement("The choir's soloist for the December concert is Tom Hale.")
    assert compounds.changed(n, CHOIR, 3) == "another name in one item of a compound note"
    n = statement("Choir concert tickets are £12.")
    assert compounds.changed(n, CHOIR, 3) == "changed gbp in one item of a compound note"
    # the label unsaid, or two items named: no item it is about alone
    assert compounds.changed(statement("Tickets are £12."), CHOIR, 3) is None
    both = "Ward round: consultant review 9am, physio review 11am."
    assert compounds.changed(statement("The ward round review is at 10am."), both, 3) is None


def test_a_compound_note_decided(embedder) -> None:  # type: ignore[no-untyped-def]
    assert _decide(embedder, GARAGE, "The garage quoted £240 for the new tyres.").action is REINFORCE
    assert _decide(embedder, ALLOTMENT, "The allotment rent is £35 a year.").action is REINFORCE
    # a one-fact note that shares a value with the note's OTHER item is not its repeat
    assert _decide(embedder, ALLOTMENT, "The allotment water rate is £35 a year.").action is not REINFORCE
    assert _decide(embedder, CHOIR, "The choir concert soloist on 12 December is Ann Pryor.").action is CONTRADICT
    got = _decide(embedder, CHOIR, "Choir concert tickets have gone up to £12 now.")
    assert got.action is SUPERSEDE, got
    # the items the change leaves stand, under the note's label
    assert remainders.remainder("Choir concert tickets have gone up to £12 now.", CHOIR) == (
        "Choir concert: 12 December, soloist Ruth Baines."
    )
    assert remainders.remainder("The garage has now quoted £260 for the new tyres.", GARAGE) == (
        "Garage: MOT booked Wednesday, wiper blades fitted."
    )


def test_an_item_of_a_sign_or_of_hours(embedder) -> None:  # type: ignore[no-untyped-def]
    hall = "Village hall: no amplified music, bouncy castles allowed, children welcome."
    assert _decide(embedder, hall, "Children aren't allowed in the village hall.").action is CONTRADICT
    assert _decide(embedder, hall, "Children are welcome at the village hall.").action is not CONTRADICT
    hours = "Pharmacy hours: Mon-Fri 9-6, Sun 10-2."
    assert _decide(embedder, hours, "The pharmacy is closed on Sundays.").action is CONTRADICT
    assert _decide(embedder, hours, "The pharmacy is closed on Saturdays.").action is not CONTRADICT


def test_what_a_price_covers_is_more() -> None:
    old = "The boiler service costs £95."
    new = "The £95 for the boiler service includes a flue check and a certificate."
    assert lists_contents(new, old) and one_says_more(new, old, 0.5)
    # "cover" is no list of contents: "cloud cover", "statements covering the last year"
    assert not lists_contents("Trips are off with cloud cover over 60%.", "Trips are off above 60% cloud.")
    # both say what it includes: no more on either side
    assert not lists_contents("The room is £80 including breakfast.", "Rooms cost £80 inc. breakfast.")
    assert not lists_contents("The tour costs £40.", "The tour is £40.")


def test_what_a_price_covers_decided(embedder) -> None:  # type: ignore[no-untyped-def]
    got = _decide(embedder, "The boiler service costs £95.",
                  "The £95 for the boiler service includes a flue check and a safety certificate.")
    assert got.action is CREATE, got


def test_an_owner_word_said_of_another_thing(embedder) -> None:  # type: ignore[no-untyped-def]
    old, new = statement("Holly's piano lesson costs £25 a week."), statement("The holly wreath we ordered cost £25.")
    assert owner_word_only(old, new) and owner_word_only(new, old)
    assert not owner_word_only(old, statement("Holly's lesson is £25 a week."))
    assert not owner_word_only(old, statement("The piano lesson for Holly costs £25 a week."))
    # the name said again, as a name: the same owner
    assert not owner_word_only(old, statement("Holly pays £25 a week for piano."))
    assert _decide(embedder, old.text, new.text).action is CREATE
