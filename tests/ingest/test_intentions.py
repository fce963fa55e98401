"""A reminder and the note that says it was done (ingest/intentions.py): kept active, the spent reminder was served
beside the done note for "do I still need to ...?"."""

from __future__ import annotations

import pytest

from memgraph import MemoryEngine
from memgraph.ingest.intentions import fulfilled, intention


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("remind me to order 12 boxes of printer paper on Thursday", "printer paper ordered, 12 boxes coming fri"),
        ("note to self: renew the car tax before 30 June", "car tax renewed online"),
        ("I need to book the chimney sweep", "chimney sweep booked for 9 Oct"),
        ("todo: send the signed lease to Harper & Co", "sent Harper & Co the signed lease"),
        ("I must pay the council tax by the 1st", "paid the council tax"),
        ("remind me to ring Dad about his birthday lunch", "rang Dad, lunch is at the Swan"),
        ("todo: fix the shed door", "the shed door is fixed"),
        ("planning to clear the gutters this weekend", "gutters cleared, full of moss"),
        ("todo: cancel the gym membership", "gym membership: done"),
        ("I need to organise the school fair raffle", "organised the raffle for the school fair"),
    ],
)
def test_a_reminder_said_done(old: str, new: str) -> None:
    assert fulfilled(new, old)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I need to book the chimney sweep", "the chimney is smoking again"),  # the same thing, nothing done
        ("remind me to order printer paper", "ordered a new printer"),  # done to another thing
        ("remind me to ring Dad about lunch", "still haven't rung Dad about lunch"),  # not yet
        ("I have to feed the cat every morning", "fed the cat"),  # a duty that recurs
        ("I want to learn the cello", "learned a new cello piece"),  # a wish, no reminder
        ("remind me to order printer paper", "remind me to order printer ink too"),  # another reminder
        ("remind me to order printer paper", "did I order the printer paper?"),  # a question
        ("I need to renew the car tax by May.", "The car tax has to be renewed by May."),  # the same, reworded
        ("I need to make money.", "I try to find easy ways to make money."),  # the verb's base: still to do
        ("I got to a local college.", "I am a first year college student."),  # a place, no intention
        ("The printer paper is in the cupboard.", "printer paper ordered"),  # no intention
        # a noun of the verb's stem is no deed ("collection", "delivery"): the plan said again, at another time
        ("remind me to collect the dog from the groomer at 11", "Note to self: the dog collection is at 3 pm"),
    ],
)
def test_not_a_reminder_said_done(old: str, new: str) -> None:
    assert not fulfilled(new, old)


def test_what_an_intention_is_done_to_leaves_out_when() -> None:
    assert intention("remind me to order rye flour on Monday before 10 Dec") == ("order", "flour")
    assert intention("remind me to ring Rosa about the Christmas order") == ("ring", "rosa")
    assert intention("The flour is ordered.") is None


def test_the_done_note_supersedes_the_reminder(engine: MemoryEngine) -> None:
    old = engine.remember("note to self: renew the car tax before 30 June", user_id="bea")
    report = engine.ingest("car tax renewed online, £190", user_id="bea", session_id="s")
    assert report.superseded == [old.id]
    assert not engine.get(old.id, user_id="bea").active


def test_two_turns_of_a_conversation_are_a_story_told(engine: MemoryEngine) -> None:
    """A conversation's plan and what happened are both kept: a question may ask about the plan."""
    report = engine.ingest("Mel: I'm going to paint the garden fence this weekend.\n\nMel: I painted the garden fence.",
                           user_id="mel", session_id="s")
    assert not report.superseded
