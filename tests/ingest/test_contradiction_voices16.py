"""Contradictions of held-out 16's round (bench/RESULTS.md, "Write-path decisions, held-out 16's contradictions"): a
jotted note's key-value line read as the sentence it stands for, and a list line by line (`jotted.sentence`); the old
statement's clause that the new one negates read alone (`conflicts._clause_parts`, "…, which is why …"); an age said
with "a" ("a year old"); an assent ("no problem") that is no negation and an obligation to avoid a thing that forbids
it; and two guards (an identity whose description changed too, a grant and a ban each at its own place). Sentences of
my own in several domains and voices (jotted notes, bullet lists, dictation without capitals or stops, chat, agents'
notes, plain prose), beside the near misses each must leave alone; the real model's cosine, the default rules."""

from __future__ import annotations

import pytest

from memgraph.ingest import jotted
from memgraph.ingest.reconcile import ReconcileAction
from memgraph.ingest.statement import statement
from tests.ingest.test_reconcile import _decide

_C, _N = ReconcileAction.CONTRADICT, ReconcileAction.CREATE


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("dojo style: Shotokan", "dojo style is Shotokan"),
        ("operator id for the drone: GBR-OP-9MT4", "operator id for the drone is GBR-OP-9MT4"),
        ("flow temp on the ASHP = 45 deg", "flow temp on the ASHP is 45 deg"),
        ("allotment plot - 14B", "allotment plot is 14B"),
        ("gym: free for staff, £10 guest passes", "gym is free for staff; £10 guest passes"),
        ("quote: £38,500 incl. VAT", "quote is £38,500 incl. VAT"),
        # a value that is a clause, a heading, a speaker's turn: left as written
        ("Client note: Aarav has to avoid sesame.", "Client note: Aarav has to avoid sesame."),
        ("Update: new router", "Update: new router"),
        ("Caroline: I love pizza", "Caroline: I love pizza"),
        ("John: Thanks! Talk to you later!", "John: Thanks! Talk to you later!"),  # (LoCoMo: read so, it swapped words)
        ("Correction: the vet is Dr Osei", "Correction: the vet is Dr Osei"),
        ("shopping:\nmilk\neggs", "shopping; milk; eggs"),
        ("The router is in the hall.", "The router is in the hall."),
        # a list, line by line
        ("House info:\n- bins: Tuesday\n- boiler: Vaillant", "House info; bins is Tuesday; boiler is Vaillant"),
        ("1. The standup is at 9:15\n2. Retro is Friday at 4", "The standup is at 9:15; Retro is Friday at 4"),
    ],
)
def test_a_jotted_line_reads_as_a_sentence(line: str, said: str) -> None:
    assert jotted.sentence(line) == said


def test_a_year_old_is_an_age() -> None:
    assert statement("nutmeg is the youngest hen, only a year old").kinds == statement("the hen is 1 year old").kinds
    assert "old" not in statement("The boiler is six years old.").frame


_JOTTED: list[tuple[str, str, ReconcileAction]] = [
    # a jotted key-value line against a sentence
    ("My drone operator ID is GBR-OP-7XK2.", "operator id for the drone: GBR-OP-9MT4", _C),
    ("Our vet is Dr Patel.", "vet - Dr Osei", _C),
    ("The staff gym costs £25 a month.", "staff gym: free, £10 for guests", _C),
    ("Staff parking costs £5 a day.", "staff parking: free, permits from reception", _C),
    ("the locker code for the pool is 4471", "pool locker code = 5812", _C),
    # near misses: another subject, the same value (a repeat), another thing
    ("My drone operator ID is GBR-OP-7XK2.", "flyer id for my son: GBR-FL-2QZ8", _N),
    ("Our vet is Dr Patel.", "vet - Dr Patel", ReconcileAction.REINFORCE),
    ("The staff gym costs £25 a month.", "canteen: free for staff, £4 for visitors", _N),
]
_LISTS: list[tuple[str, str, ReconcileAction]] = [
    # the one item of a list that a new statement changes
    ("House info:\n- bins: Tuesday\n- wifi: Heron77\n- boiler: Vaillant", "Our boiler is a Worcester Bosch.", _C),
    ("Kids' week:\n- Mon: swimming\n- Tue: piano\n- Thu: football", "Piano is on Wednesdays.", _C),
    ("Trip kit:\n* tent - Vango Banshee\n* stove - Trangia", "our tent is a Coleman", _C),
    # near misses: an item it does not change, a value another item gives
    ("House info:\n- bins: Tuesday\n- wifi: Heron77\n- boiler: Vaillant", "The boiler is serviced in May.", _N),
    ("Kids' week:\n- Mon: swimming\n- Tue: piano\n- Thu: football", "Football is on Thursdays.", _N),
]
_OLD_CLAUSES: list[tuple[str, str, ReconcileAction]] = [
    # the old statement's clause, cut before what follows from it, negated by the new one
    ("The flat has a dishwasher, which is why we never wash up by hand.",
     "the dishwasher in our flat broke years ago and we dont have one now", _N),  # (a story of it, not a denial)
    ("My bike has disc brakes, which means I don't worry about wet rims.", "My bike doesn't have disc brakes.", _C),
    ("The cottage has a log burner, which means we never bother with the storage heaters in winter.",
     "the cottage doesnt have a log burner", _C),
    ("Our car has parking sensors, which is why I never use the mirrors to reverse.",
     "my car doesnt have parking sensors", _C),
    # near misses: another subject, chat's advice without a subject, a clause the new one does not negate
    ("The flat has a dishwasher, which is why we never wash up by hand.", "The cottage doesn't have a dishwasher.",
     _N),
    ("Wow! Don't ever give up on what you love. I will always love painting.", "I love to paint.", _N),
    ("My bike has disc brakes, which means I don't worry about wet rims.", "I don't ride in the rain.", _N),
]
_AGES: list[tuple[str, str, ReconcileAction]] = [
    ("Pepper is the oldest cat, she's twelve.", "pepper is the youngest cat only a year old", _C),
    ("Rolo is the youngest of our goats, a month old.", "Rolo is the oldest goat, he's nine.", _C),
    ("Pepper is the oldest cat, she's twelve.", "Biscuit is the youngest cat, only a year old.", _N),
    # an identity whose description changed too names two things of two slots
    ("Pepper is the oldest cat.", "Biscuit is the youngest cat.", _N),
    ("Mrs Khan is the head of maths.", "Mr Obi is the deputy head of science.", _N),
    ("Lena is my line manager.", "Oskar is my line manager.", _C),
]


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        ("Aarav can eat anything with sesame in it, no problem.", False),
        ("We can host the quiz on Friday, not a problem.", False),
        ("no worries", False),
        ("There is no problem with the boiler.", True),  # a problem denied, no assent
        ("Aarav can't eat sesame.", True),
    ],
)
def test_an_assent_is_no_negation(text: str, negated: bool) -> None:
    assert statement(text).negated is negated


_AVOIDED: list[tuple[str, str, ReconcileAction]] = [
    # a grant said with an assent ("no problem") against an obligation to avoid the same thing
    ("Aarav can eat anything with sesame in it, no problem.", "Client note: Aarav has to avoid sesame.", _C),
    ("Priya can eat anything with gluten in it, no problem.", "priya has to avoid gluten, it makes her ill", _C),
    # near misses: another thing avoided; another place or time for each rule (main read the second as a conflict)
    ("Priya can eat anything with gluten in it, no problem.", "Priya has to avoid dairy.", _N),
    ("Guests can park on the drive.", "Guests must not park on the verge.", _N),
    ("Guests can park on the drive, no problem.", "Guests must avoid parking on the verge.", _N),
    ("Dogs can swim in the lake.", "Dogs must not swim in the lake.", _C),
]


@pytest.mark.parametrize(("old", "new", "action"), _JOTTED + _LISTS + _OLD_CLAUSES + _AGES + _AVOIDED)
def test_forms_of_held_out_16(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision
