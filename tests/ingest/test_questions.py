"""Statements said as questions (`memgraph/ingest/questions.py`): a tag question, a negative question that expects
"yes", a question that relays what was heard or said. Held-out pairs 22 read each as a negated question, which
decides nothing. Sentences of my own, each shape with a near-miss that stays a question."""

from __future__ import annotations

import pytest

from memgraph.ingest.questions import asserted
from memgraph.ingest.reconcile import ReconcileAction
from memgraph.ingest.spoken import digitise
from memgraph.ingest.thresholds import granted_below
from memgraph.ingest.values import values
from tests.ingest.test_reconcile import _decide


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # a tag question: the statement without its tag, its polarity its own
        ("The quiz is in the village hall on 3 May, isn't it?", "The quiz is in the village hall on 3 May."),
        ("They don't take cards at the kiosk, do they?", "They don't take cards at the kiosk."),
        ("Rehearsals are Thursdays now, aren't they, since the hall got double-booked?",
         "Rehearsals are Thursdays now, since the hall got double-booked."),
        ("The ferry leaves from pier 2, right?", "The ferry leaves from pier 2."),
        # the tag says what the "'s" before a preposition or a participle is
        ("The gala's on Saturday the 8th, isn't it?", "The gala is on Saturday the 8th."),
        ("Late opening's been moved to Wednesday, hasn't it?", "Late opening has been moved to Wednesday."),
        # a verbless echo after a tag gives its value as the statement does
        ("You need a helmet on the ice, don't you? Three pounds to hire?",
         "You need a helmet on the ice. Three pounds to hire."),
        # a negative question that expects "yes"
        ("Isn't the book fair on the 9th?", "the book fair is on the 9th"),
        ("Aren't the allotment fees £40 this year?", "the allotment fees are £40 this year"),
        ("Doesn't the library shut at 5 on Saturdays?", "does the library shut at 5 on Saturdays"),
        # a relayed statement: a factive verb in either polarity, a verb of saying denied
        ("Didn't they say the coach leaves at 7?", "the coach leaves at 7"),
        ("Did you hear they've moved the fete to the rec?", "they've moved the fete to the rec"),
        ("You know the bakery has moved to Mill Lane now?", "the bakery has moved to Mill Lane now"),
    ],
)
def test_a_question_that_states_says_its_statement(text: str, said: str) -> None:
    assert asserted(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "Did they say the coach leaves at 7?",  # a verb of saying, not denied: a real question
        "Do you know if the pool is open on Sundays?",  # whether: a real question
        "Did you see the new scoreboard?",  # no clause after the verb
        "Did you hear about the fire at the mill?",
        "When does the gala start?",
        "Is the book fair on the 9th?",  # a positive question asks
        "Can't we move the quiz to the 16th instead?",  # a modal denied proposes
        "Shouldn't we leave at 6?",
        "The book fair is on the 9th.",  # no question at all
        "Turn left at the lights, then right, and it's the second door.",
    ],
)
def test_a_real_question_or_a_statement_is_left_alone(text: str) -> None:
    assert asserted(text) is None


def test_an_hour_in_oclock_after_at_is_a_bare_hour() -> None:
    """"at 2 o'clock" is as bare as "at 2": am or pm as the other text says (`Values.bare_times`)."""
    assert values("The match kicks off at 3 o'clock.").bare_times == {180}
    assert values("The match kicks off at 3.").bare_times == {180}
    # said with its part of the day, or with no word that introduces a time, it is read as before
    assert values("Doors open at seven o'clock in the evening.").times == {1140}
    assert digitise("It's 4 o'clock already.") == "It's 4:00 already."


def test_an_age_grant_before_its_modal_against_a_group_over_a_bound() -> None:
    """"Teens from 14 can join" allows what "for over-18s only" keeps back; at or past the bound it agrees."""
    bound = "The pottery class is for over-18s only."
    assert granted_below("Teens from 14 can join the pottery class.", bound)
    assert granted_below("Anyone aged 18 can join the pottery class.", bound) is False
    assert granted_below("The shop is open from 9 today.", bound) is None


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # a repeat said as a tag question, a relayed question, a bare hour
        ("The book club meets in the library on 12 April.",
         "The book club's in the library on the 12th of April, isn't it?", ReconcileAction.REINFORCE),
        ("The coach to the match leaves the depot at 7pm.", "Didn't they say the coach leaves the depot at 7?",
         ReconcileAction.REINFORCE),
        # a changed value with "now": a change; without a cue: a conflicting report
        ("The sauna costs £6 a session.", "The sauna's £8 a session now, isn't it?", ReconcileAction.SUPERSEDE),
        ("Junior swim club is on Monday evenings.", "Junior swim club is on Thursday evenings, isn't it?",
         ReconcileAction.CONTRADICT),
        ("The book fair is on the 9th.", "Isn't the book fair on the 16th?", ReconcileAction.CONTRADICT),
        # a real question still decides nothing
        ("The book fair is on the 9th.", "Is the book fair on the 16th?", ReconcileAction.CREATE),
    ],
)
def test_questions_that_state_are_decided_as_their_statements(
    embedder, old: str, new: str, action: ReconcileAction  # type: ignore[no-untyped-def]
) -> None:
    assert _decide(embedder, old, new).action is action
