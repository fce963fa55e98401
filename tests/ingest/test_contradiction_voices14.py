"""Contradiction forms of held-out 14's round read in several voices (bench/RESULTS.md, "Write-path decisions,
held-out 14's contradictions"): a statement behind an agent's note or a pasted message's greeting against the same
statement said plainly with another value (`voice.bare`), a business denying an activity that the other statement
calls part of its work (`denials.denied_activity`), "only" one thing against another in its place
(`restrictions.only_word_swapped`), another make named after "is a" (`names.another_name`), a light verb denied
against another verb of the same thing, and a thing that suits a person against the same thing troubling them
(`tolerance`, the newcomer's trains). Each in plain prose, in lower-case chat without final stops (and its negations
typed without the apostrophe, which were read as repeats of the statement they deny), in third-person notes, in
pasted email or Slack, with a condition clause, beside the near misses each must leave alone. Sentences of my own,
none from a labelled part; the real model's cosine, the default rules."""

from __future__ import annotations

import pytest

from memgraph.ingest.reconcile import ReconcileAction
from tests.ingest.test_reconcile import _decide

_C, _N = ReconcileAction.CONTRADICT, ReconcileAction.CREATE


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # a note's frame or a message's greeting on one side, another value in the same slot
        ("Customer note: the Corolla's tyres are Michelin.", "The Corolla's tyres are Pirelli.", _C),
        ("Intake note 3/2: the hedgehog weighs 420 g.", "The hedgehog weighs 610 g.", _C),
        ("Per Tuesday's survey, the loft has 3 skylights.", "The loft has five skylights.", _C),
        ("Hi team, the boardroom projector is Epson. Thanks, Jo", "The boardroom projector is a BenQ.", _C),
        ("hey all - the boardroom projector is epson, cheers", "the boardroom projector is benq", _C),
        ("Customer note: the Corolla's tyres are Michelin.", "The Yaris's tyres are Pirelli.", _N),  # another car
        ("Hi team, the boardroom projector is Epson.", "The kitchen kettle is a Russell Hobbs.", _N),  # another thing
        # chat's negation typed without the apostrophe ("dont", "doesnt") is a negation: no repeat of its statement
        ("We take cash at the market stall.", "we dont take cash at the market stall", _C),
        ("The lift works at weekends.", "the lift doesnt work at weekends", _C),
        ("Client says the van can park in the yard.", "the van cant park in the yard", _C),
        ("I dont go to church now.", "i went to church as a kid.", _N),  # a past episode after a denial of now
        # a business denies an activity the other statement calls part of its work
        ("We don't do wedding cakes.", "Wedding cakes are a big part of our business.", _C),
        ("We can't fit tow bars.", "Tow bars are easy for us to fit.", _C),
        ("we dont service boilers", "boiler servicing is one of our services", _C),
        ("Hi all, we don't clean ovens. Thanks, Mo", "Oven cleaning is one of our main services.", _C),
        ("We don't service boilers.", "Boiler servicing is one of our services, except in August.", _C),
        ("We don't deliver.", "Deliveries to our shop come on Mondays.", _N),  # we receive them
        ("We don't sell cakes.", "Cakes from the bakery next door are popular with our customers.", _N),
        ("We don't repair trainers.", "Trainers are the hardest shoes for our customers to find.", _N),
        ("I don't bake wedding cakes.", "Wedding cakes are a big part of my sister's business.", _N),
        # "only" one thing (before or after it) against another in its place, the rest word for word
        ("The kiln fires porcelain.", "The kiln only fires stoneware.", _C),
        ("lara fences sabre", "lara fences foil only", _C),
        ("User says the minibus only takes card.", "The minibus takes cash.", _C),
        ("The ferry only sails from Dover.", "The ferry sails from Poole unless it's stormy.", _C),
        ("The kiln only fires stoneware.", "The kiln is fired by gas.", _N),  # another slot
        # another make or model named after "is a" of one thing, a word more on one side
        ("The club minibus is a Ford Transit.", "Our minibus is a Renault Master.", _C),
        ("The practice room's upright piano is a Yamaha U1.", "The practice room's piano is a Kawai K-300.", _C),
        ("the club minibus is a Ford Transit",
         "User says the club's minibus is a Renault Master, unless it's in for repair", _C),
        ("My dog is a Labrador.", "My dog is called Rex.", _N),  # a breed and a name
        ("The studio's desk is a Sonifex S2.", "The studio's microphone is a Neumann U87.", _N),  # another thing
        # a light verb denied covers another verb of the same thing
        ("Grandad wears hearing aids in both ears.", "Grandad doesn't use hearing aids.", _C),
        ("Grandad wears hearing aids in both ears.", "Nan doesn't use hearing aids.", _N),  # another person
        # a thing suits a person / troubles them (a state against its opposite inside a two-clause statement)
        ("I get motion sickness on long bus rides, trains are fine.", "Trains make me sick too.", _C),
        ("i get carsick on long bus rides, trains r fine", "trains make me sick too tbh", _C),
        ("User gets seasick on small boats; the big ferries are fine for her.",
         "User says the big ferries make her sick as well.", _C),
        ("Spicy food gives me a headache, unless it's only mild.", "I'm fine with spicy food.", _C),
        ("I get carsick in the back seat.", "The front seat is fine for me.", _N),  # another seat
        ("I get motion sickness on long bus rides, trains are fine.", "Planes make me sick too.", _N),
        ("The hotel is fine.", "The hotel's pool makes me sick.", _N),  # "fine" of no one
    ],
)
def test_contradictions_in_many_voices(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Visitors need to sign in at reception.", "visitors dont need to sign in at reception"),
        ("The gate code works on Sundays.", "gate code doesnt work on sundays"),
        ("We deliver to Leeds.", "we wont deliver to leeds"),
    ],
)
def test_chat_negation_is_no_repeat(embedder, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    """ "we dont take cash" was reinforced as a repeat of "we take cash" (its negation unread, every value the same)."""
    assert _decide(embedder, old, new).action is not ReconcileAction.REINFORCE
