"""A group chat's messages stored with their senders' names (`speakers.py`): a name before a colon is who said it;
two people's messages about a thing may repeat or correct one another, two people's statements about themselves
never do, and a conversation's turns (a speaker in metadata) stay turns. Sentences of my own; real model."""

from __future__ import annotations

import pytest

from memgraph.ingest import speakers
from memgraph.ingest.reconcile import Neighbour, ReconcileAction, RuleReconciler
from memgraph.models import Memory
from tests.ingest.test_reconcile import S, _decide

SUPERSEDE, CREATE, REINFORCE = ReconcileAction.SUPERSEDE, ReconcileAction.CREATE, ReconcileAction.REINFORCE


def _m(text: str, **meta: str) -> Memory:
    return Memory(id=text[:12], user_id="u", content=text, metadata=dict(meta))


def test_body_drops_the_name_and_the_report_of_another_sender() -> None:
    assert speakers.body("Ola: yeah like Bo said, the hall key is with the caretaker.") == (
        "the hall key is with the caretaker."
    )
    assert speakers.body("Ola: Bo says the hall key is with the caretaker.") == "the hall key is with the caretaker."
    assert speakers.body("Ola: hall key's with the caretaker - Bo told me.") == "hall key's with the caretaker"
    # a report inside the message is what it says, not a report of the sender's source
    assert speakers.body("Ola: the caretaker said no to the key.") == "the caretaker said no to the key."


def test_one_fact_only_between_messages_about_a_thing() -> None:
    # two senders, one thing
    told = speakers.one_fact(_m("Ola: the hall is booked till 10 now."), _m("Bo: the hall's booked till 9."))
    assert told == ("the hall is booked till 10 now.", "the hall's booked till 9.")
    # the sender's evidence after the first clause does not make it a message about the sender
    assert speakers.one_fact(_m("Ola: the van holds 9 seats, I counted them."), _m("Bo: the van holds 7 seats."))
    # a message about its sender: two facts, whoever says them
    assert speakers.one_fact(_m("Ola: I'm bringing the urn."), _m("Bo: I'm bringing the urn.")) is None
    assert speakers.one_fact(_m("Ola: my car is at the garage."), _m("Bo: the car is at the garage.")) is None
    # one sender, a log line's day, a conversation's turns: not this reading
    assert speakers.one_fact(_m("Bo: the hall is booked till 10."), _m("Bo: the hall is booked till 9.")) is None
    assert speakers.one_fact(_m("Tue: the hall is booked till 10."), _m("Mon: the hall is booked till 9.")) is None
    assert speakers.one_fact(
        _m("Ola: the hall is booked till 10.", speaker="Ola"), _m("Bo: the hall is booked till 9.", speaker="Bo")
    ) is None


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # one sender repeats another's message, naming them or not
        ("Bo: the choir's Easter programme is Stainer, Fauré and Rutter.",
         "Ola: yeah like Bo said, the Easter programme is Fauré, Stainer and Rutter.", REINFORCE),
        ("Bo: the marquee comes down on the 14th.", "Ola: Bo says they're taking the marquee down on the 14th.",
         REINFORCE),
        # one sender corrects another's message with a newer value
        ("Bo: the minibus is booked for Friday the 3rd.",
         "Ola: minibus got moved to Saturday the 4th, the school needs it on the Friday.", SUPERSEDE),
        # two people's statements about themselves stay two facts
        ("Bo: I'm driving to the away match on Sunday.", "Ola: I'm driving to the away match on Sunday.", CREATE),
        # another thing the other sender adds
        ("Bo: the fete is on Saturday 5 July.", "Ola: there'll be a tombola and a dog show at it.", CREATE),
    ],
)
def test_group_chat_messages(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    assert _decide(embedder, old, new).action is action


def test_conversation_turns_stay_turns(embedder) -> None:  # type: ignore[no-untyped-def]
    """A speaker in metadata is a conversation's turn: another speaker's turn is never merged into it."""
    old, new = "Bo: the marquee comes down on the 14th.", "Ola: Bo says they're taking the marquee down on the 14th."
    va, vb = embedder.encode([old, new])
    d = RuleReconciler(S).decide(_m(new, speaker="Ola"), [Neighbour(_m(old, speaker="Bo"), float(va @ vb))])
    assert d.action is CREATE, d
