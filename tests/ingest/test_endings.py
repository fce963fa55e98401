"""Held-out 13's duplicate and supersede forms (bench/RESULTS.md, "Write-path decisions, held-out 13's duplicates and
supersedes"): sentences of my own in other domains and voices (chat in lower case without a final stop, an agent's
third-person note, a condition clause), none from a labelled part, each form with a near-miss it must leave alone.
Real model, the rules as the write path runs them."""

from __future__ import annotations

import pytest

from memgraph.ingest.reconcile import ReconcileAction
from tests.ingest.test_reconcile import _decide

SUPERSEDE, CREATE, REINFORCE = ReconcileAction.SUPERSEDE, ReconcileAction.CREATE, ReconcileAction.REINFORCE


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # a restriction by "only" and the part it keeps is no repeat (the contradiction forms then read it: one kind
        # only against all); "only" on both sides still is
        ("Dogs are welcome in the reading room.", "Only guide dogs are welcome in the reading room.",
         ReconcileAction.CONTRADICT),
        ("Only members can park here.", "Parking here is only for members.", REINFORCE),
        # a second clause joined with other content words says more (an agent's note)
        ("User says the allotment rent is £40 a year.",
         "User says allotment rent is £40 a year; water is charged on top by the meter.", CREATE),
        # (a clause that restates a value of the other, or one after "no more than", is read as before)
        ("If the wind is above 25 mph, the ferry does not sail.",
         "If the wind is above 25 mph the ferry does not sail, and the harbour office closes at noon.", CREATE),
    ],
)
def test_duplicate_forms_of_held_out_13(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    """A restriction and a joined clause that says another thing are not reinforced into the stored memory."""
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # an apology that restates the fact, the slip's source owned
        ("The pottery taster is £30.", "sorry, the pottery taster is £35, I was looking at the old price list",
         SUPERSEDE),
        ("The clinic is open on Saturday morning.",
         "Sorry, the clinic is open on Saturday afternoon, I was looking at the old timetable.", SUPERSEDE),
        ("The shop is shut on Sundays.", "Sorry, I can't come in on Sunday.", CREATE),
        # a place or a thing that ended by an event, what is done now after "so"
        ("We keep the spare keys at the Mill Road office.",
         "The Mill Road office flooded, so spare keys are kept at the depot.", SUPERSEDE),
        ("The raffle is drawn at the village hall.",
         "The village hall burnt down in May, so the raffle is drawn at the school.", SUPERSEDE),
        ("Client's car is a Honda Jazz.",
         "Client says the Jazz was written off in March, so she drives a Toyota Yaris now.", SUPERSEDE),
        ("Grace drives van 4.", "grace is in van 6 since van 4 went for scrap", SUPERSEDE),
        # a thing swapped for another, a thing given up ("so no more …", not "no more than")
        ("We heat the greenhouse with a paraffin heater.",
         "Swapped the paraffin heater for an electric fan heater, so no more paraffin.", SUPERSEDE),
        ("Mr Osei pays his rent by cheque.", "Mr Osei has set up a direct debit, so no more cheques for rent.",
         SUPERSEDE),
        ("The choir rehearses at St Anne's church.",
         "The choir rehearses at St Anne's church, and no more than 30 singers fit.", CREATE),
        # a role handed on; near-miss: keys handed to someone
        ("Mrs Ahmed chairs the allotment society.",
         "At the spring meeting Mrs Ahmed handed the chairmanship to Colin Reeve.", SUPERSEDE),
        ("Dana teaches the beginners' class.", "Dana handed the keys to the caretaker after class.", CREATE),
        # near-miss: "dropped" with no name after it
        ("The school run starts at 8.", "we dropped the kids at school at 8 today", CREATE),
    ],
)
def test_supersede_forms_of_held_out_13(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    """An apology with the fact restated, an ending told as an event, a swap, a thing given up and a role handed on
    replace the old statement; the near-misses do not."""
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # an initialism the other text spells out is the same name (and a changed value on it still conflicts);
        # near-miss: other words with the same first letter are another name
        ("The PTA quiz raises money for the library.",
         "The parent teacher association quiz raises money for the library.", REINFORCE),
        ("Client's GDPR request must be answered within 30 days.",
         "client says a general data protection regulation request gets answered inside 30 days", REINFORCE),
        ("The AGM is on 12 May.", "The annual general meeting is on 19 May.", ReconcileAction.CONTRADICT),
        ("The NHS pays for two sessions a year.", "The National Trust pays for two sessions a year.", CREATE),
        # a speed in words, half a metric unit, "t" for tonnes, one unit of time ahead
        ("Our delivery van is limited to 56 mph.", "the delivery van cant go faster than fifty-six miles an hour",
         REINFORCE),
        ("The speed limit on the estate is 15 mph.", "The speed limit on the estate is 20 miles per hour.",
         ReconcileAction.CONTRADICT),
        ("The bread order is half a kilo of rye every Saturday.", "Every Saturday the bread order is 500 g of rye.",
         REINFORCE),
        ("Court bookings open 7 days before play.", "courts can be booked a week ahead", REINFORCE),
        ("We charge £6 a week for storage.", "Storage is six pounds weekly.", REINFORCE),
        ("Room bookings need 3 days' notice.", "Rooms must be booked at least a day in advance.", CREATE),
    ],
)
def test_names_and_values_spelled_out(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    """An initialism and its words, a speed, half a kilo and "a week ahead" in words are the same name or value."""
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision
