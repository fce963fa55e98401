"""Duplicates said in the voices of held-out 21 (bench/RESULTS.md, "Write-path decisions, held-out 21's duplicates
and supersedes"): a 24-hour time without its colon, the person a thing is of down a chain of possessives, two events
of one date whose subjects share a modifier. Sentences of my own in other domains, each with a near-miss."""

from __future__ import annotations

import pytest

from memgraph.ingest.comparison import owned_things_differ
from memgraph.ingest.reconcile import ReconcileAction
from memgraph.ingest.repeats import holders
from memgraph.ingest.statement import statement
from memgraph.ingest.values import values
from tests.ingest.test_reconcile import _decide

REINFORCE = ReconcileAction.REINFORCE


def test_a_24_hour_time_without_its_colon() -> None:
    assert values("The ferry leaves at 0645 from pier 3.").times == {405}
    assert values("Briefing at 1915 hrs in the hangar.").times == {1155}
    assert values("Briefing at 1915 hours in the hangar.").times == {1155}
    # a count, a year, a reference number, a duration: no time
    assert not values("We printed 1200 leaflets.").times
    assert not values("Built by 1915, the hangar still stands.").times
    assert not values("Quote ref No. 0645 when you call.").times
    assert not values("The survey took 1200 hours of volunteer time.").times


def test_half_an_hour_set_off_after_its_day() -> None:
    assert values("The farrier is booked for Tuesday, half nine.").times == {570}
    assert values("Meet tomorrow, half six at the lock.").times == {390}
    # no day before the comma, or a noun after: no time
    assert not values("We scored three, half two of them late.").times
    assert not values("Cut on Tuesday, half two-inch strips.").times


def test_a_swap_is_a_change() -> None:
    from memgraph.ingest import signals

    assert signals.has_update_cue("Mia has swapped her library shift to Thursdays.")
    assert not signals.has_update_cue("Mia works a library shift on Thursdays.")


def test_the_holder_down_a_chain_of_possessives() -> None:
    assert holders("My sister's husband's van is blue.") == {"spouse"}
    assert holders("My sister's van is blue.") == {"sister"}
    assert holders("Our neighbour's dog barks.") == {"neighbour"}
    assert holders("The van is blue.") == frozenset()


def test_two_things_of_owners() -> None:
    one = statement("The sailing club's regatta is on Sunday 14 June.")
    assert owned_things_differ(statement("The sailing club's annual dinner dance is on Sunday 14 June."), one)
    assert not owned_things_differ(statement("The rowing club's regatta is on Sunday 14 June."), one)
    assert not owned_things_differ(statement("The regatta at the sailing club is on Sunday 14 June."), one)


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        ("Our walk leader's meeting point is the church gate at 0830.",
         "Our walk leader meets us at the church gate at 8:30am.", REINFORCE),
        ("My uncle's allotment day is Wednesdays.", "Pete (my uncle) has swapped his allotment day to Sundays.",
         ReconcileAction.SUPERSEDE),
        ("My cousin's shift at the bakery is on Saturdays.",
         "My cousin's husband's shift at the depot is on Saturdays.", None),
        ("The sailing club's regatta is on Sunday 14 June.",
         "The sailing club's committee's safety briefing with the harbour master is on Sunday 14 June.", None),
    ],
)
def test_held_out_21_shapes(embedder, old: str, new: str, action: ReconcileAction | None) -> None:  # type: ignore[no-untyped-def]
    decided = _decide(embedder, old, new).action
    assert decided is action if action else decided is not REINFORCE
