"""Contradictions of held-out 19's round (bench/RESULTS.md, "Write-path decisions, held-out 19's contradictions"): a
table's row read as clauses (`jotted._row`), "is" contracted before a value (`jotted._CONTRACTED_IS`), a reminder read
as the statement it keeps (`intentions.plain`), a price said by who pays it and a capacity said in other words
(`conflicts._measured`), a word swapped for its opposite beside a word more (`conflicts._opposite_for_opposite`), and
a denial against an avoidance, which is no conflict (`denials.avoidance_for_denial`), nor is another numbered thing's
value (`conflicts._numbered_other`). Sentences of my own in several domains and voices, beside the near misses each
must leave alone; the real model's cosine, the default rules."""

from __future__ import annotations

import pytest

from memgraph.ingest import intentions, jotted
from memgraph.ingest.denials import avoidance_for_denial
from memgraph.ingest.reconcile import ReconcileAction
from memgraph.ingest.statement import statement
from tests.ingest.test_reconcile import _decide

_C, _N = ReconcileAction.CONTRADICT, ReconcileAction.CREATE


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Cold store 3 | temp (°C): 4", "Cold store 3 temp is 4 °C"),
        ("Van 2 | tyre pressure (psi): 36 | fuel: petrol", "Van 2 tyre pressure is 36 psi; Van 2 fuel is petrol"),
        # a key that would read as a heading or a verb in a line is a column's name in a row
        ("Unit 7 | status: let | tenants: 2", "Unit 7 status is let; Unit 7 tenants is 2"),
        # no keyed cell, or a keyless cell after a keyed one: no row of a name and its fields
        ("Oak table | 180 cm", "Oak table | 180 cm"),
        ("Lot 12 | price: £40 | sold", "Lot 12 | price: £40 | sold"),
    ],
)
def test_a_table_row_said_as_clauses(text: str, said: str) -> None:
    assert jotted.sentence(text) == said


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("The shed's 3 metres wide.", "The shed is 3 metres wide."),
        ("Our rent's £950 a month.", "Our rent is £950 a month."),
        # a possessive before an ordinal or a word
        ("Gran's 90th party is on Sunday.", "Gran's 90th party is on Sunday."),
        ("The shed's roof leaks.", "The shed's roof leaks."),
    ],
)
def test_is_contracted_before_a_value(text: str, said: str) -> None:
    assert jotted.sentence(text) == said


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Remind me to book the vet for Tuesday at 4.", "I will book the vet for Tuesday at 4."),
        ("Please remind me that the skip arrives on Friday.", "the skip arrives on Friday."),
        ("Note to self: the choir sings at St Anne's.", "the choir sings at St Anne's."),
        ("Don't forget to renew the permit.", "I will renew the permit."),
        ("I'll book the vet for Tuesday.", "I'll book the vet for Tuesday."),
    ],
)
def test_a_reminder_said_as_its_statement(text: str, said: str) -> None:
    assert intentions.plain(text) == said


@pytest.mark.parametrize(
    ("old", "new", "avoided"),
    [
        ("The puppy must never be left with the cat.", "Keep the puppy away from the cat.", True),
        ("Don't take the van on the ring road.", "Avoid the ring road in the van.", True),
        # the avoidance itself denied; no denial at all
        ("I don't avoid dairy any more.", "I avoid dairy.", False),
        ("He can eat anything with nuts.", "He has to avoid nuts.", False),
    ],
)
def test_an_avoidance_against_a_denial(old: str, new: str, avoided: bool) -> None:
    assert avoidance_for_denial(statement(new), statement(old)) is avoided


_PAIRS: list[tuple[str, str, ReconcileAction]] = [
    # a row's field against the same field of the same row
    ("Cold store 3 | temp (°C): 4", "Cold store 3 | temp (°C): 7", _C),
    ("Van 2 | fuel: petrol | seats: 3", "Van 2 | fuel: diesel | seats: 3", _C),
    # near misses: another row; other fields of the same row; the same value
    ("Cold store 3 | temp (°C): 4", "Blast chiller 3 | temp (°C): -18", _N),
    # another numbered thing with its own value: two stores, two flats
    ("Cold store 3 | temp (°C): 4", "Cold store 5 | temp (°C): 7", _N),
    ("Flat 2's rent is £850 a month.", "Flat 3's rent is £900 a month.", _N),
    ("Flat 2's rent is £850 a month.", "Flat 2's rent is £900 a month.", _C),
    ("Van 2 | fuel: petrol | seats: 3", "Van 2 | colour: white | mileage: 41,000", _N),
    # "is" contracted before the value
    ("The shed is 3 metres wide.", "The shed's 4 metres wide.", _C),
    ("Our rent is £950 a month.", "Our rent's £990 a month.", _C),
    # a reminder against a note of the same plan
    ("Remind me to bake for the school fete on 3 May at 10 am.",
     "Note to self: the school fete baking is at 2 pm on 3 May.", _C),
    ("Remind me to bake for the school fete on 3 May at 10 am.",
     "Note to self: the school fete baking is at 10 am on 3 May.", _N),
    # a price said by who pays it; a capacity said in other words
    ("Swimming lessons for juniors are £6.50 a session.", "Juniors pay £7.20 per session for swimming lessons.", _C),
    ("The minibus seats 16 passengers.", "The minibus has room for 12 passengers max.", _C),
    ("The stable block holds 12 horses.", "The stable block has room for 10 horses max.", _C),
    ("The minibus seats 16 passengers.", "The minibus has room for 16 passengers max.", _N),
    # a word swapped for its opposite beside a word more
    ("Mum's hearing aid is in her left ear.", "The hearing aid Mum wears is in her right ear.", _C),
    ("Mum's hearing aid is in her left ear.", "The hearing aid Mum wears is in her left ear.", _N),
    # a value denied after the one given in its place, said with "no"
    ("The back fence is to be stained green.", "The back fence will be left natural with an oil finish, no stain.", _C),
    ("The back fence is to be stained green.", "The back fence will be stained green with an oil finish, no varnish.",
     _N),
    # ... its need denied, or given a scope
    ("Volunteers must hold a food hygiene certificate before serving.",
     "Volunteers can serve straight away, no food hygiene certificate needed at our cafe.", _C),
    ("The exam papers go back to the board by courier on 9 June.",
     "Exam papers get posted back by recorded post, no courier for this summer.", _C),
    # a number beside "only" that the other text lists among more
    ("The appeal was on ground 3 only.", "The appeal covers grounds 2 and 3, both on procedure.", _C),
    ("The appeal was on ground 3 only.", "The appeal covers ground 3, on procedure.", _N),
    # a denial against an avoidance says one thing
    ("The puppy must never be left alone with the cat.", "Keep the puppy away from the cat when you're out.", _N),
]


@pytest.mark.parametrize(("old", "new", "action"), _PAIRS)
def test_forms_of_held_out_19(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    decision = _decide(embedder, old, new)
    if action is _N:  # (a near miss may be a repeat; it must be no conflict)
        assert decision.action not in (_C, ReconcileAction.SUPERSEDE), decision
    else:
        assert decision.action is action, decision
