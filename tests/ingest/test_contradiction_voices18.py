"""Contradictions of held-out 18's round (bench/RESULTS.md, "Write-path decisions, held-out 18's contradictions"): a
value said relative to another's, whose numbers are another person's value and a difference, not the subject's
(`relative`); a threshold of age or wait against a grant below it (`thresholds`); a thing the person must keep off
against the same thing said to suit them (`tolerance._KEPT_OFF`); a span by its ends against its start and a length
(`hours.span_against_length`); a thing kept for one group against a grant of it to another (`groups`); a date
against another month (`conflicts._date_against_month`), relayed or not. Sentences of my own in several domains and
voices, beside the near misses each must leave alone; the real model's cosine, the default rules."""

from __future__ import annotations

import pytest

from memgraph.ingest import groups, relative, thresholds
from memgraph.ingest.reconcile import ReconcileAction
from tests.ingest.test_reconcile import _decide

_C, _N = ReconcileAction.CONTRADICT, ReconcileAction.CREATE


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Priya is three years older than her brother Dev, who's 12.", 15.0),
        ("Priya is three years younger than her brother Dev, who is 12.", 9.0),
        # older of a year of birth is earlier
        ("Grandad was four years older than Nan, who was born in 1932.", 1928.0),
        ("My 10k time is two minutes faster than Tom's 48:10.", 46 * 60 + 10.0),
        ("Our rent is twice my sister's, and she pays £600 a month.", 1200.0),
        ("Sam's bag weighs half as much as the old one, 4 kg.", 2.0),
        # a share of a group is no other's value
        ("Half the class is off sick, 12 kids.", None),
        # a bound has no difference: no comparison with another's value
        ("Any child younger than 12 needs an adult.", None),
        ("We raised a lot more than 500 pounds.", None),
    ],
)
def test_a_compared_value_is_derived(text: str, value: float | None) -> None:
    d = relative.derived(text)
    assert (d.value if d else None) == value


@pytest.mark.parametrize(
    ("text", "by"),
    [
        ("The dentist has cut my appointments by 10 minutes.", True),
        ("Our gym fee goes up by a fiver next month.", True),
        # the value it came to is said: the change gives a value
        ("The gym fee went up by £5 to £40.", False),
        ("We stood by the door for 10 minutes.", False),
    ],
)
def test_a_change_by_an_amount(text: str, by: bool) -> None:
    assert relative.changed_by_amount(text) is by


@pytest.mark.parametrize(
    ("text", "limit", "given"),
    [
        ("Riders must be 14 or over.", ("age", 14.0), None),
        ("Under-14s can ride the quad bikes with a parent.", None, ("age", 13.5)),
        ("No sleepovers for Ella until she's 10.", ("age", 10.0), None),
        ("Ella can go to sleepovers from 8.", None, ("age", 8.0)),
        ("Mum can't lift anything heavy for 3 months after the hip op.", ("wait", 91.2), None),
        ("mum's allowed to lift the shopping six weeks after the hip op", None, ("wait", 42.0)),
        # an age and all above it: a bound, or with a grant's modal a grant from it; "under" denied is a bound
        ("Staff aged 18 and over can sell alcohol.", None, ("age", 18.0)),
        ("Staff under 18 can't sell alcohol.", ("age", 18.0), None),
        # a clock is no age; a grant denied is none
        ("The library doesn't open until 10.", None, None),
        ("Ella can't go to sleepovers at 8.", None, None),
    ],
)
def test_thresholds_and_grants(text: str, limit: tuple[str, float] | None, given: tuple[str, float] | None) -> None:
    assert thresholds.bound(text) == (pytest.approx(limit) if limit else None)
    assert thresholds.grant(text) == given


_THRESHOLDS: list[tuple[str, str, ReconcileAction]] = [
    ("Quad bike riders must be 14 or over.", "Under-14s can ride the quad bikes with a parent.", _C),
    ("Kayakers on the lake must be 12 or over.", "under 12s can kayak on the lake with an instructor", _C),
    ("Staff under 20 can't sell alcohol in the shop.", "Staff aged 18 and over can sell alcohol in the shop.", _C),
    ("No sleepovers for Ella until she's 10.", "We said Ella can go to sleepovers from 8.", _C),
    ("I can't lift anything heavy for 3 months after the hernia op.",
     "Patient has been told they can lift heavy things six weeks after the hernia op.", _C),
    # near misses: the grant at the threshold (not the negation it says); another activity's grant
    ("I can't lift anything heavy for 6 weeks after the hernia op.",
     "I can lift heavy things six weeks after the hernia op.", _N),
    ("Quad bike riders must be 14 or over.", "Under-14s can ride the go-karts with a parent.", _N),
]


_KEPT_OFF: list[tuple[str, str, ReconcileAction]] = [
    ("Oat milk is no problem for me.", "The oat milk I must not have, I need to use rice milk.", _C),
    ("Shellfish is fine for her.", "She can't eat shellfish since the reaction in Crete.", _C),
    # near misses: another thing kept off; a thing kept off said twice
    ("Oat milk is no problem for me.", "I mustn't have soy milk.", _N),
]
_SPANS: list[tuple[str, str, ReconcileAction]] = [
    ("Choir rehearsal is 6:30 to 8:30 pm on Thursdays.",
     "Choir rehearsal on Thursdays starts at 6:30 and runs for three hours.", _C),
    ("My Saturday pottery session is 10am to 12pm.",
     "My Saturday pottery session starts at 10 and lasts 90 minutes.", _C),
    # near miss: the length that ends at the other's end
    ("Choir rehearsal is 6:30 to 8:30 pm on Thursdays.",
     "Choir rehearsal on Thursdays starts at 6:30 and runs for two hours.", _N),
]


@pytest.mark.parametrize(
    ("text", "kept", "granted"),
    [
        ("The staff room is for teachers only.", ({"teacher"}, "room"), None),
        ("Only season ticket holders can use the lounge.", ({"season", "ticket", "holder"}, "loung"), None),
        ("The quiet carriage is reserved for commuters.", ({"commut"}, "carriag"), None),
        ("Parents can use the staff room after 4pm.", None, ({"parent"}, "room")),
        # a pronoun may be one of the group; a grant denied is none
        ("You can use the staff room.", None, None),
        ("Parents can't use the staff room.", None, None),
    ],
)
def test_kept_and_granted_groups(text: str, kept: tuple[set[str], str] | None, granted: tuple[set[str], str] | None
                                 ) -> None:
    assert groups.kept(text) == ((frozenset(kept[0]), kept[1]) if kept else None)
    assert groups.granted(text) == ((frozenset(granted[0]), granted[1]) if granted else None)


_GROUPS: list[tuple[str, str, ReconcileAction]] = [
    ("Parents can use the staff room after 4pm.", "The staff room is for teachers only.", _C),
    ("Only season ticket holders can use the lounge.", "Away fans can use the lounge before kick-off.", _C),
    # near misses: a group inside the other (their words shared); another thing
    ("The staff room is for teachers only.", "Supply teachers can use the staff room.", _N),
    ("The staff room is for teachers only.", "Parents can use the library after 4pm.", _N),
]


_DATE_AND_MONTH: list[tuple[str, str, ReconcileAction]] = [
    ("The car's MOT is due on 28 February.", "The car's MOT is due in March.", _C),
    ("per Priya, the boiler warranty runs out end of May", "Priya reckons the boiler warranty runs out in July", _C),
    # near misses: the date in the month; another value said besides
    ("The car's MOT is due on 28 February.", "The car's MOT is due in February.", _N),
    ("The car's MOT is due on 28 February.", "The car's road tax is due in March.", _N),
]


_RELATIVE: list[tuple[str, str, ReconcileAction]] = [
    ("Priya is 14.", "Priya is three years older than her brother Dev, who's 12.", _C),
    ("Grandad was born in 1930.", "Grandad was four years older than Nan, who was born in 1932.", _C),
    ("My 10k PB is 47:30.", "My 10k PB is two minutes faster than Tom's 48:10.", _C),
    ("I get 10 hours of respite care a week.", "My respite care is twice my neighbour's, and she gets 10 hours a week.",
     _C),
    # near misses: the comparison gives the stored value; a change by an amount is no value of its own to contradict
    # with, it changes the stored one (`deltas.py`: a supersede)
    ("Priya is 15.", "Priya is three years older than her brother Dev, who's 12.", _N),
    ("My 10k PB is 46:10.", "My 10k PB is two minutes faster than Tom's 48:10.", _N),
    ("The cat gets 60 g of food a day.", "The vet has cut the cat's food by 20 g a day.", ReconcileAction.SUPERSEDE),
]


_S = ReconcileAction.SUPERSEDE
_RETRACTIONS: list[tuple[str, str, ReconcileAction]] = [
    # a retraction's opener read off: the statement under it conflicts, and the cue makes it a supersede
    ("The van was booked for Friday.", "scratch that, the van was never booked", _S),
    ("The photographer is booked for the 14th.", "ignore what I said, the photographer isn't booked yet", _S),
]
_FORMS = _RETRACTIONS + _RELATIVE + _THRESHOLDS + _KEPT_OFF + _SPANS + _GROUPS + _DATE_AND_MONTH


@pytest.mark.parametrize(("old", "new", "action"), _FORMS)
def test_forms_of_held_out_18(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision
