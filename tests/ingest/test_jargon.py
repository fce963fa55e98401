"""Pairs said in trade jargon and business shorthand (bench/RESULTS.md, "Write-path decisions, held-out 22's trade
jargon and acronyms"): common abbreviations written out, an extra included in a price or added on top, a value now
to be confirmed or not applicable, a note's label that names a thing, who pays. Sentences of my own in other
domains, each with a near-miss."""

from __future__ import annotations

import pytest

from memgraph.ingest.abbreviations import written_out
from memgraph.ingest.reconcile import ReconcileAction
from memgraph.ingest.surcharges import bases, included_and_added
from memgraph.ingest.thing_labels import _as_thing
from tests.ingest.test_reconcile import _decide

REINFORCE = ReconcileAction.REINFORCE
SUPERSEDE = ReconcileAction.SUPERSEDE
CONTRADICT = ReconcileAction.CONTRADICT


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Kitchen quote: £8.5k inc. VAT.", "Kitchen quote: £8.5k including VAT."),
        ("Sofa £800 excl. delivery", "Sofa £800 excluding delivery"),
        ("Van hire £120 + fuel.", "Van hire £120 plus fuel."),
        ("Boiler £2,400 ex VAT.", "Boiler £2,400 excluding VAT."),
        ("Date TBC, venue TBA.", "Date to be confirmed, venue to be announced."),
        ("Parking: n/a.", "Parking: not applicable."),
        ("Report to follow by EOD.", "Report to follow by the end of the day."),
        ("Ferry ETA 0645 at Dover.", "Ferry expected arrival 6:45 at Dover."),
        ("Coach ETD 1645hrs from the depot.", "Coach expected departure 16:45 from the depot."),
        ("Dentist appt approx. 40 min.", "Dentist appointment approximately 40 min."),
        ("Room £95 p/w, bills inc.", "Room £95 a week, bills inc."),
        ("Cleaner £60 pw.", "Cleaner £60 a week."),
        # near-misses: a company's "Inc.", a sum, "my ex", a lower-case word, a phone number after ETA
        ("Apple Inc. makes phones.", "Apple Inc. makes phones."),
        ("2 + 2 is four.", "2 + 2 is four."),
        ("My ex lives in Leeds.", "My ex lives in Leeds."),
        ("The eta of the fund is high.", "The eta of the fund is high."),
        ("ETA unknown, call 0800 123 456.", "expected arrival unknown, call 0800 123 456."),
    ],
)
def test_common_abbreviations_written_out(text: str, said: str) -> None:
    assert written_out(text) == said


def test_an_extra_included_or_added() -> None:
    assert bases("Dinner is £30 a head with drinks.") == {("drink", True)}
    assert bases("Dinner is £30 a head, drinks extra.") == {("drink", False)}
    assert included_and_added("The boiler service is £90 including VAT.", "Boiler service £90 plus VAT.")
    # the same side both ways, another extra, no price: no conflict
    assert not included_and_added("£90 including VAT.", "£90 plus VAT, or £108 including VAT.")
    assert not included_and_added("£90 including VAT.", "£90 plus delivery.")
    assert not included_and_added("It comes including VAT.", "It comes plus VAT.")


def test_a_label_named_as_a_thing() -> None:
    text = "Plumber: Gas Safe registered, invoice on completion."
    assert _as_thing(text, "Our plumber isn't Gas Safe registered.") == (
        "The plumber: Gas Safe registered, invoice on completion."
    )
    # a name takes no determiner; a label the other text does not name stays a turn
    assert _as_thing("Caroline: I went hiking.", "I met Caroline at the lake.") is None
    assert _as_thing(text, "The boiler is Gas Safe certified.") is None


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # an abbreviation beside its words: a repeat; the same price with the extra added: two totals
        ("The kitchen refit is quoted at £8,500 including VAT.", "Kitchen quote: £8.5k inc. VAT.", REINFORCE),
        ("The kitchen refit is quoted at £8,500 including VAT.", "Kitchen quote: £8.5k + VAT.", CONTRADICT),
        ("Wedding venue hire: £2,000 inc. VAT.", "The wedding venue hire is £2,000 + VAT.", CONTRADICT),
        ("Wedding venue hire: £2,000 inc. VAT.", "The wedding venue hire is £2,000 incl. VAT.", REINFORCE),
        ("Roof quote £9k inc. VAT, start TBC.", "Garage conversion quote £9k + VAT, architect TBC.", None),
        # a value now to be confirmed, or no longer applicable, with a cue of change; without one, nothing newer
        ("Pub quiz round 3: 12 March at the Red Lion.", "Round 3 venue now TBC – the Red Lion pulled out.", SUPERSEDE),
        ("Pub quiz round 3: 12 March at the Red Lion.", "Round 3 venue TBC.", None),
        ("The boiler's annual service is due every March.",
         "Boiler service n/a from now on – we've switched to a heat pump.", SUPERSEDE),
        # a note's label the other text names as a thing; the same attribute said, not denied
        ("Electrician: NICEIC-approved, certificate issued same day.", "Our electrician isn't NICEIC approved.",
         CONTRADICT),
        ("Electrician: NICEIC-approved, certificate issued same day.", "Our electrician is NICEIC approved.", None),
        # a clause that denies every case, a reason after it
        ("Our dog is microchipped and registered with Petlog.",
         "Our dog isn't microchipped, so the vet will do it on Friday.", CONTRADICT),
        # who pays: another party / privately; the same payer twice is no conflict
        ("Mum's physio sessions are funded by the council.", "We pay privately for Mum's physio – £50 a session.",
         CONTRADICT),
        ("Mum's physio sessions are funded by the council.", "Mum's physio is paid for by the council – £50 a session.",
         None),
    ],
)
def test_jargon_pairs(embedder, old: str, new: str, action: ReconcileAction | None) -> None:  # type: ignore[no-untyped-def]
    decided = _decide(embedder, old, new).action
    assert decided is (action or ReconcileAction.CREATE)
