"""Contradictions of held-out 15's round read in the voices that part is written in (bench/RESULTS.md, "Write-path
decisions, held-out 15's contradictions"): an agent's note about the user in the third person ("User's …", "client
runs …") read as the person's own words (`voice.first_person`), and a clause of a statement joined by a semicolon
read alone against the other statement (`conflicts._joined`). Sentences of my own in several domains, in plain
prose, in lower-case chat without a final stop, in third-person notes, in pasted messages and with a condition
clause, beside the near misses each must leave alone; the real model's cosine, the default rules."""

from __future__ import annotations

import pytest

from memgraph.ingest import voice
from memgraph.ingest.reconcile import ReconcileAction
from tests.ingest.test_reconcile import _decide

_C, _N = ReconcileAction.CONTRADICT, ReconcileAction.CREATE


@pytest.mark.parametrize(
    ("note", "said"),
    [
        ("User's hearing aid is in the right ear.", "my hearing aid is in the right ear."),
        ("User doesn't hold a driving licence.", "I don't hold a driving licence."),
        ("User is allergic to penicillin.", "I am allergic to penicillin."),
        ("user wears his glasses for reading only", "I wear my glasses for reading only"),
        ("Client's boiler was serviced in May.", "our boiler was serviced in May."),
        ("client runs payroll through Sage; pension is NEST.", "we run payroll through Sage; pension is NEST."),
        ("After the move, user switched to a local GP.", "After the move, I switched to a local GP."),
        ("Patient has never smoked.", "I have never smoked."),
        # no note's subject: left as written
        ("User and her partner play bridge.", "User and her partner play bridge."),
        ("Client meetings are on Zoom.", "Client meetings are on Zoom."),
        ("The user guide is on the wiki.", "The user guide is on the wiki."),
    ],
)
def test_a_note_about_the_user_reads_in_the_first_person(note: str, said: str) -> None:
    assert voice.first_person(note) == said


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # a note about the user in the third person, a clause of it swapping a value word of the user's own words
        ("My hearing aid is in my left ear.", "User's hearing aid is in the right ear; the left ear is fine.", _C),
        ("The spare key is kept upstairs.", "user says the spare key is kept downstairs; the car key is in the drawer",
         _C),
        ("Our wheelie bins are kept outside the garage.",
         "Client's wheelie bins are kept inside the garage; the recycling box is by the door.", _C),
        ("Hi all, the fire exit is on the north side. Thanks, Ro",
         "The fire exit is on the south side; the assembly point is in the car park.", _C),
        ("My desk is by the window, unless I'm hot-desking.",
         "User's desk is on the left of the door; the right side is the printer's.", _N),  # no value of the old
        # the clause read alone in the old text
        ("The guest room is upstairs; the study is next to the kitchen.", "The guest room is downstairs.", _C),
        # near misses: a text giving the old value and the new one tells both; another person's; another thing
        ("Winter parking is £5 a day.", "That £5 a day was the summer rate; winter parking is £8 a day.", _N),
        ("Ella's cast is on her left arm.", "User's cast is on the right arm; it comes off in May.", _N),
        ("The spare key is kept upstairs.", "The spare towels are kept downstairs; the key is in the drawer.", _N),
    ],
)
def test_a_clause_of_a_note_contradicts(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # the old statement names a value as not so that the new one gives
        ("Our mortgage is a repayment one, not interest-only.", "The mortgage on the house is interest-only.", _C),
        ("The village hall is heated by a heat pump, not oil.", "user says the village hall is heated by oil", _C),
        ("Hi all, the kids' football kit is blue, not red. Thanks, Dee", "The kids' football kit is red.", _C),
        ("The village hall is heated by a heat pump, not oil.", "Oil prices went up again this winter.", _N),
        ("The village hall is heated by a heat pump, not oil.",
         "The church is heated by oil.", _N),  # another subject
        # never done / done: a denial of ever against the same act of the same person
        ("I have never seen a bittern.", "I saw bitterns at Minsmere three times.", _C),
        ("I've never been to Japan.", "i went to japan in 2019 for work", _C),
        ("User has never smoked.", "I smoked twenty a day until 2010.", _C),
        ("Tom has never driven the minibus.", "Per the rota, Tom drove the minibus to Leeds on Monday.", _C),
        ("I've never been to Japan.", "My sister went to Japan in 2019.", _N),  # another person
        ("I've never been to Japan.", "I went to Korea in 2019.", _N),  # another place
        ("I've never been to Japan.", "I'm going to Japan next year if the fares drop.", _N),  # a plan
        ("I have never seen a bittern.", "I haven't seen an otter either.", _N),
        ("I am writing a guide to ski resorts.", "I have never been to a ski resort, but I'd love to go.", _N),
        # male / female of one thing
        ("The kitten we adopted is male.", "the kitten we adopted is female", _C),
        ("The kitten we adopted is male.", "The vet who spayed the kitten is female.", _N),
        ("I have a male rabbit called Biscuit.", "My female rabbits are called Pip, Clover and Hazel.", _N),  # others
        # a place and the region it lies in: no opposite swapped (MSC read "south" against a city as one)
        ("Our cousins live in Nevada.", "Our cousins live in the west.", _N),
        ("i grew up in Savannah", "I grew up in the south.", _N),
        ("The warehouse is on the north side of the river.", "The warehouse is on the south side of the river.", _C),
    ],
)
def test_forms_of_held_out_15(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision
