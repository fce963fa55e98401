"""States from a small table of opposites (memgraph/ingest/states.py)."""

from __future__ import annotations

from memgraph.ingest.states import opposed, states, uncontracted


def test_states_after_a_copula() -> None:
    assert states("Room 12 is out of order for the new carpet.") == {("service", 0)}
    assert states("The lift is back in service.") == {("service", 1)}
    assert states("The lift is working again.") == {("service", 1)}
    assert states("The account is no longer active.") == {("activity", 0)}
    # verbs and other words, not states
    assert states("Priya is working on the report.") == frozenset()
    assert states("The broken window needs a new pane.") == frozenset()


def test_opposite_states_of_one_axis() -> None:
    assert opposed("The boiler is switched off.", "The boiler is switched on.")
    assert opposed("The blue mug is sold out.", "The blue mug is in stock.")
    assert not opposed("The lift is broken.", "The lift is out of order.")
    assert not opposed("The lift is broken.", "The shop is in stock.")


def test_exclusive_categories() -> None:
    from memgraph.ingest.states import exclusive

    assert exclusive("Reminders go out by text message.", "Reminders go out by post only.")
    assert exclusive("Subs are paid in cash.", "Subs are paid by standing order.")
    assert not exclusive("Reminders go out by post.", "Reminders go out by post or by email.")  # names both
    assert not exclusive("Reminders go out by post.", "We post them on Mondays.")


def test_the_plain_states_oppose() -> None:
    assert states("The fence is in very poor condition.") == {("condition", 0)}
    assert states("The fence is in good shape.") == {("condition", 1)}
    assert opposed("The merger is confirmed.", "The merger is still undecided.")
    assert opposed("The sauna is open this week.", "The sauna is out of action this week.")
    # open on a day, open to someone, settled somewhere: no state
    assert states("The sauna is open on Sundays.") == frozenset()
    assert states("The pool is open to members only.") == frozenset()
    assert states("They are settled in Leeds now.") == frozenset()
    assert states("The date is confirmed for Friday.") == {("firm", 1)}


def test_a_contracted_copula_before_a_state() -> None:
    assert uncontracted("The sauna's out of action this week.") == "The sauna is out of action this week."
    assert uncontracted("The kettle's broken again.") == "The kettle is broken again."
    # a possessive before a noun
    assert uncontracted("The club's open day is in May.") is None
    assert uncontracted("Tom's broken arm is healing.") is None
