"""Contradictions of held-out 17's round (bench/RESULTS.md, "Write-path decisions, held-out 17's contradictions"): a
unit's spelled-out name read as its symbol (`units.UNIT_ALIASES`), a run of "twin single" read as one word of its noun
(`forms._MULTIPLE`), a grant whose place the ban names without a preposition (`forms._allowed_and_forbidden`), what a
thing sets off in a part of the person (`tolerance`), a comma splice read as two clauses (`conflicts._clause_parts`)
with irregular past tenses read as their verb (`predicates._IRREGULAR`), and a relayed fact's frame ("per Raj, …",
"Mum says …": `voice._FRAME`). Sentences of my own in several domains and voices (chat without capitals or
apostrophes, relayed speech, plain prose), beside the near misses each must leave alone; the real model's cosine,
the default rules."""

from __future__ import annotations

import pytest

from memgraph.ingest import predicates, voice
from memgraph.ingest.conflicts import _clause_parts
from memgraph.ingest.reconcile import ReconcileAction
from memgraph.ingest.statement import statement
from tests.ingest.test_reconcile import _decide

_C, _N, _R = ReconcileAction.CONTRADICT, ReconcileAction.CREATE, ReconcileAction.REINFORCE


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The heat pump is rated at 5 kW.", "the heat pump's rated at five kilowatts"),
        ("Dad takes 20 mg of atorvastatin.", "dad takes twenty milligrams of atorvastatin"),
        ("The shelf is 30 cm deep.", "the shelf is thirty centimetres deep"),
    ],
)
def test_a_unit_spelled_out_is_its_symbol(a: str, b: str) -> None:
    assert statement(a).kinds == statement(b).kinds


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("We didn't get any grant for the charger, we paid full whack.",
         ("We didn't get any grant for the charger", "we paid full whack.")),
        ("the sofa wont fit through the door, it's too wide", ("the sofa wont fit through the door", "it's too wide")),
        # a subordinate clause stays with its clause; a list of names is no clause
        ("If it rains, we stay in.", ()),
        ("Tom, Ann and I went.", ()),
    ],
)
def test_a_comma_splice_is_two_clauses(text: str, parts: tuple[str, ...]) -> None:
    assert _clause_parts(text) == parts


def test_an_irregular_past_is_its_verb() -> None:
    assert not predicates.another_slot("We didn't get a grant for the roof", "We got a grant for the roof.")
    assert predicates.another_slot("We didn't buy a grant for the roof", "We got a grant for the roof.")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("per Raj, the vet appointment is on the 14th", "the vet appointment is on the 14th"),
        ("per Mrs Lee, the school trip is on the 19th", "the school trip is on the 19th"),
        ("Mum says the boiler service is on Thursday", "the boiler service is on Thursday"),
        ("my sister told me the lessons are on Wednesdays", "the lessons are on Wednesdays"),
        ("The vet said that Biscuit needs a scan.", "Biscuit needs a scan."),
        # who says nothing is so, and the speaker's own words, are no relayed fact
        ("Nobody says the shop is shut", "Nobody says the shop is shut"),
        ("I said the shop is shut", "I said the shop is shut"),
        ("my parents said no to dogs.", "my parents said no to dogs."),  # (a word said: MSC read it as a denial)
        ("It said online that the pool shuts at 8", "It said online that the pool shuts at 8"),
    ],
)
def test_a_relayed_fact_reads_without_its_frame(text: str, said: str) -> None:
    assert voice.bare(text) == said


_UNITS: list[tuple[str, str, ReconcileAction]] = [
    # a unit's name and its symbol: the same value (main read a value word swapped, a conflict)
    ("The shelf is 30 cm deep.", "the shelf is thirty centimetres deep", _R),
    ("Our home battery stores 10 kWh.", "our home battery stores ten kilowatt-hours", _R),
    # a changed value in the two spellings still conflicts
    ("The kettle is 3 kW.", "The kettle is 2 kilowatts.", _C),
]
_MULTIPLES: list[tuple[str, str, ReconcileAction]] = [
    ("The holiday cottage has a double bed in the loft.", "the holiday cottage has twin single beds in the loft", _C),
    ("The spare room at Gran's has a double bed.", "gran's spare room has twin single beds", _C),
    # near miss: another room
    ("The spare room has a double bed.", "The box room has twin single bunks.", _N),
]
_GRANTS: list[tuple[str, str, ReconcileAction]] = [
    # the ban's place said as the grant's object, the grant's condition after a preposition
    ("Dogs aren't allowed at the Sunday market.", "you can bring your dog to the Sunday market on a lead", _C),
    ("Bikes aren't allowed at Holme Lane allotments.", "You can ride your bike round Holme Lane allotments on Sundays.",
     _C),
    # near misses: two places (a place inside the other's), two rules
    ("You can bring dogs to the farm shop on a lead.", "Dogs are not allowed in the farm shop café.", _N),
    ("Guests can park on the drive.", "Guests must not park on the verge.", _N),
]
_TOLERANCE: list[tuple[str, str, ReconcileAction]] = [
    ("Nickel earrings flare my dermatitis.", "nickel doesnt bother my skin at all", _C),
    ("Strawberries trigger my hives.", "Strawberries are fine for me.", _C),
    ("Coffee upsets my stomach.", "Coffee is fine for me.", _C),
    ("Client note: cats trigger her asthma.", "cats dont affect me at all", _C),
    # near misses: another thing on each side
    ("The new soap irritates my skin.", "The old soap doesn't bother my skin.", _N),
    ("Pollen triggers my asthma.", "Dust doesn't bother me.", _N),
]
_CLAUSES: list[tuple[str, str, ReconcileAction]] = [
    # the clause of a comma splice that denies the old statement
    ("We got a council grant for the loft insulation.",
     "we didnt get any grant for the loft insulation, we paid it all ourselves", _C),
    ("The sofa fits through the front door.", "The sofa won't go through the front door, it has to come in the back.",
     _C),
    ("Our car can tow the horsebox.", "our car can't tow the horsebox, it's too heavy", _C),
    # near misses: another thing denied; the splice's other clause about another thing
    ("We got a grant for the boiler.", "We didn't get a grant for the heat pump, we paid ourselves.", _N),
    ("The sofa fits through the front door.", "The wardrobe won't go through the front door, it's too tall.", _N),
]
_RELAYED: list[tuple[str, str, ReconcileAction]] = [
    ("The school trip is on the 12th.", "per Mrs Lee, the school trip is on the 19th", _C),
    ("The boiler service is booked for Tuesday.", "Mum says the boiler service is booked for Thursday", _C),
    ("The swimming lessons are on Mondays.", "my sister told me the swimming lessons are on Wednesdays", _C),
    # near misses: someone else's own preference, another thing
    ("I prefer tea.", "Sam says he prefers coffee", _N),
    ("The pool closes at 8pm.", "Sarah said the gym closes at 6pm.", _N),
    ("The pool closes at 8pm on Fridays.", "Nobody says the pool closes at 6pm on Fridays", _N),
    ("i love dogs.", "my parents said no to dogs.", _N),
]


@pytest.mark.parametrize(("old", "new", "action"), _UNITS + _MULTIPLES + _GRANTS + _TOLERANCE + _CLAUSES + _RELAYED)
def test_forms_of_held_out_17(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision
