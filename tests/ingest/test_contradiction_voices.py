"""Contradiction forms read in several voices (bench/RESULTS.md, "Write-path decisions, held-out 13's
contradictions"): free or included against charged for, one kind only against another kind granted, one value only
against another, required against not required, a statement of all against a denial of some, a diet against a food
it excludes, a value in a unit of measure reworded. Each form in plain prose, in lower-case chat without final
stops, in an agent's third-person note ("User says …", "Client's note: …") and with a condition clause ("unless
…"), with the near misses each must leave alone (another thing, another scope, another place, a person's own).
Sentences of my own, none from a labelled part; the real model's cosine, the default rules."""

from __future__ import annotations

import pytest

from memgraph.ingest.reconcile import ReconcileAction
from tests.ingest.test_reconcile import _decide

_C, _N = ReconcileAction.CONTRADICT, ReconcileAction.CREATE


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # free or included against charged for
        ("Breakfast is included in the room rate.", "Breakfast is charged separately at €12 a head.", _C),
        ("Gift wrapping is included with every order.", "Gift wrapping is an optional extra at £3.", _C),
        ("breakfast is included in the room rate", "breakfast is charged separately, 12 euros", _C),
        ("Client's note: the winter tyre swap is included in the service plan.",
         "The winter tyre swap is charged separately at £40.", _C),
        ("Tap water is free at the bar.", "Bottled water costs £2 at the bar.", _N),  # another thing
        ("Parking is included in the rent on weekdays.", "Parking costs £5 on Sundays.", _N),  # another day
        ("I get my coffee free at work.", "I pay for coffee at the café.", _N),  # a person's own
        ("Delivery is free on orders over £50.", "Delivery costs £4.95.", _N),  # the free side prices it too
        # one kind only against another kind (or every kind) granted
        ("Only decaf coffee is allowed on the night ward.", "Regular coffee is fine on the night ward.", _C),
        ("Electric scooters may be parked in the courtyard.",
         "Only folding bikes are allowed in the courtyard.", _N),  # another head noun
        ("Bikes are allowed on all our trains.", "Only folding bikes are allowed on our trains.", _C),
        ("only soft spikes allowed on our course", "metal spikes are ok on the course", _C),
        ("User says only electric vans can be parked in the yard", "diesel vans can be parked in the yard", _C),
        ("Only soft spikes are permitted on our course unless it's a tournament day.",
         "Metal spikes are allowed on the course.", _C),
        ("Only registered guide dogs are allowed in the shop.", "Guide dogs are welcome in the shop.", _N),  # a kind
        ("Only small dogs are allowed in the cabin.", "Large dogs are allowed in the hold.", _N),  # another place
        ("Dogs are allowed only in the garden.", "Dogs are allowed in the kitchen.", _N),  # "only" of a place
        # one value only against another value of the same kind
        ("Flu jabs are given on Tuesdays.", "We only vaccinate on Thursday afternoons.", _N),  # no word shared
        ("Flu jabs are given on Tuesday afternoons.", "We only give flu jabs on Thursday afternoons.", _C),
        ("Campers can stay for up to five nights.", "Campers can only stay for two nights at a time.", _C),
        ("We only deliver parcels on Fridays.", "Parcels are collected on Mondays.", _N),  # another verb
        # required against not required
        ("Visitors must sign in at reception.", "Visitors don't need to sign in.", _C),
        ("visitors have to sign in at reception", "user says visitors dont need to sign in at all", _C),
        ("Hard hats are compulsory on the building site.", "Hard hats are optional on the site, even for visitors.",
         _C),
        ("A deposit is required for group bookings.", "No deposit is needed for bookings.", _C),
        ("Hard hats are compulsory for under-16s.", "Hard hats are optional for adults.", _N),  # another scope
        ("Seatbelts must be worn on the coach.", "Seatbelts aren't needed on the minibus.", _N),  # another vehicle
        ("You must book a table for Sunday lunch.", "You don't need to book on weekdays.", _N),  # another day
        ("I have to work on Saturdays.", "I don't need to work on Saturdays.", _N),  # a person's own
        # a statement of all against a denial of some or none
        ("All the hire bikes have disc brakes.", "None of the hire bikes have disc brakes fitted.", _C),
        ("all the bikes we hire out have disc brakes", "Customer says none of the hire bikes have disc brakes", _C),
        ("Every flat in the block is double glazed.", "Most of the flats in the block aren't double glazed yet.", _C),
        ("All our rooms have a TV.", "None of our rooms have a minibar.", _N),  # only the rooms shared
        # a diet against a food it excludes
        ("Tomasz is vegetarian.", "Tomasz orders a bacon roll every morning.", _C),
        ("client is vegan", "client says she has cheese on toast most days", _C),
        ("Grandad is teetotal.", "Grandad has a glass of wine with Sunday lunch.", _C),
        ("Tomasz is vegetarian.", "Tomasz orders the vegetarian sausages every morning.", _N),  # a substitute
        ("Tomasz is vegetarian.", "Tomasz's cat eats chicken.", _N),  # another eater
        ("Tomasz is vegetarian.", "Anna eats steak every weekend.", _N),  # another person
        ("I'm vegetarian.", "I eat fish on Fridays.", _N),  # a person's own
        ("Caroline: I'm vegetarian.", "Caroline: I have fish on Fridays.", _N),  # a person's own, a turn's label
        ("Caroline: I have to work on Saturdays.", "Caroline: I don't need to work this Saturday.", _N),
        # a value in a unit of measure, the frame reworded
        ("The cold store is kept at -20 °C.", "The cold store floor is held at minus eighteen degrees.", _C),
        ("The main pool is kept at 29 °C.", "The kids' pool is heated to 31 °C.", _N),  # two pools
    ],
)
def test_contradiction_forms_in_several_voices(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision
