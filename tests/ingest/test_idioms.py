"""Idioms that carry the fact (memgraph/ingest/idioms.py; bench/RESULTS.md, "Write-path decisions, held-out 22's
idioms"): a figure of speech read as the plain state it says, and the decisions it makes possible. Sentences of my
own in other domains, each rule with a near-miss."""

from __future__ import annotations

import pytest

from memgraph.ingest import idioms
from memgraph.ingest.reconcile import ReconcileAction
from memgraph.ingest.states import opposed
from tests.ingest.test_reconcile import _decide

REINFORCE, SUPERSEDE, CONTRADICT, CREATE = (
    ReconcileAction.REINFORCE, ReconcileAction.SUPERSEDE, ReconcileAction.CONTRADICT, ReconcileAction.CREATE
)


def test_a_figure_is_read_as_its_plain_state() -> None:
    assert idioms.literal("The dishwasher has given up the ghost.") == "The dishwasher is broken."
    assert idioms.literal("The kettle's given up the ghost again.") == "The kettle is broken again."
    assert idioms.literal("Our fence is on its last legs.") == "Our fence is in poor condition."
    assert idioms.literal("The lease renewal is in the bag.") == "The lease renewal is secured."
    assert idioms.literal("The merger is still up in the air.") == "The merger is still undecided."
    assert idioms.literal("Back to the drawing board with the logo.") == "Starting again with the logo."
    # no figure: the words in their literal sense, or none of the table's
    assert idioms.literal("The ghost tour starts at the abbey.") is None
    assert idioms.literal("We left the bag in the air-raid shelter.") is None
    assert idioms.literal("Let me have a go at the crossword.") is None
    assert idioms.literal("We walked all over town looking for the cat.") is None
    assert idioms.literal("I wiped the floor with a damp cloth.") is None
    assert idioms.literal("The keys are in the bag by the door.") is None
    assert idioms.literal("We walked all over Hartley College.") == "We easily beat Hartley College."


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # a figure of speech beside its plain statement: a repeat
        ("The office photocopier is broken beyond repair.", "The office photocopier has given up the ghost for good.",
         REINFORCE),
        ("Our caravan is in very poor condition and needs replacing.",
         "Our caravan is on its last legs – it has to be replaced.", REINFORCE),
        ("We've secured the village hall for the quiz night.", "The village hall for the quiz night is in the bag.",
         REINFORCE),
        ("Our chess team beat Fenwick School easily in the county semi.",
         "Our chess team wiped the floor with Fenwick School in the county semi.", REINFORCE),
        # the same state of another thing, or another statement of the thing: no repeat
        ("The office kettle is broken.", "The office photocopier has given up the ghost.", CREATE),
        ("Our caravan is parked at Ferndown.", "Our caravan is on its last legs.", CREATE),
        # a figure that only adds to the old statement says more: no repeat (the new text would be lost)
        ("I drive a Ford.", "I drive a Ford which has seen better days.", CREATE),
        # the opposite state said by a figure: a conflict
        ("The surveyor said our roof is in good condition.", "The surveyor reckons our roof's on its last legs.",
         CONTRADICT),
        ("The date for the reunion is confirmed.", "The date for the reunion is still up in the air.", CONTRADICT),
        ("The lift in block B is working.", "The lift in block B has gone kaput.", CONTRADICT),
        ("The sauna at the leisure centre is open this week.", "The sauna's out of action this week.", CONTRADICT),
        ("The sauna is open on Sundays.", "The steam room is out of action this week.", CREATE),
        # ... and said as a change: a supersede
        ("The club minibus is working fine.", "The club minibus has given up the ghost again, so we're hiring one.",
         SUPERSEDE),
        ("The piano tuning is booked for Thursday 12 March.",
         "Thursday's piano tuning is a no-go now – he's moved us to the Friday after.", SUPERSEDE),
        ("The school is holding the summer fair at Elm Park.",
         "Elm Park has fallen through, so we're back to the drawing board with the fair venue.", SUPERSEDE),
    ],
)
def test_figurative_decisions(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    assert _decide(embedder, old, new).action is action


def test_a_text_naming_both_states_of_an_axis_contradicts_neither() -> None:
    from memgraph.ingest.states import contrary

    blink = idioms.literal("The boiler is fixed, but the radiator is still on the blink.")
    assert blink == "The boiler is fixed, but the radiator is still broken."
    assert contrary("The boiler is working.", "The boiler is broken.")
    assert opposed(blink, "The boiler was repaired.")  # (the radiator's state against the boiler's)
    assert not contrary(blink, "The boiler was repaired.")
    assert not contrary("The boiler was repaired.", blink)
