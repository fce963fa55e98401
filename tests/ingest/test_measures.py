"""One measure said in two systems (measures.py): the same value within the precision each side is said to, a
changed one otherwise; heights and weights in two units of one system read as one value. Sentences of my own."""

from __future__ import annotations

import pytest

from memgraph.ingest.comparison import _compare
from memgraph.ingest.measures import compounds_written, convert, precision, same_measure
from memgraph.ingest.reconcile import ReconcileAction
from memgraph.ingest.statement import statement
from memgraph.ingest.values import values
from tests.ingest.test_reconcile import _decide

TOL = 0.02


def test_precision_is_the_last_digit_said() -> None:
    assert precision(110.0) == 10.0
    assert precision(1.6) == pytest.approx(0.1)
    assert precision(178.0) == 1.0
    assert precision(5000.0) == 1000.0
    assert precision(0.45) == pytest.approx(0.01)


def test_conversions() -> None:
    assert convert(1.0, "mile", "m") == pytest.approx(1609.344)
    assert convert(212.0, "fahrenheit", "degree") == pytest.approx(100.0)
    assert convert(0.0, "degree", "fahrenheit") == pytest.approx(32.0)
    assert convert(6.0, "ft", "inch") == pytest.approx(72.0)


@pytest.mark.parametrize(
    ("a", "ua", "b", "ub", "same"),
    [
        (1.0, "mile", 1600.0, "m", True),  # "1 mile" / "1.6 km"
        (1.0, "mile", 1000.0, "m", False),  # "1 mile" / "1 km"
        (3.0, "mile", 5000.0, "m", True),  # "about 3 miles" / "a 5 km run"
        (6.0, "ft", 1.9, "m", False),  # 1.83 m to the hundredth is no 1.9 m
        (6.0, "ft", 1.83, "m", True),
        (158.0, "lb", 72000.0, "g", True),  # within the share
        (30.0, "degree", 86.0, "fahrenheit", True),
        (30.0, "degree", 80.0, "fahrenheit", False),
        (2.0, "pint", 1100.0, "ml", True),
        (6.0, "ft", 73.0, "inch", False),  # one system: exact
        (6.0, "ft", 72.0, "inch", True),
    ],
)
def test_same_measure(a: float, ua: str, b: float, ub: str, same: bool) -> None:
    assert same_measure(a, ua, b, ub, TOL) is same
    assert same_measure(b, ub, a, ua, TOL) is same


def test_a_height_in_feet_and_inches_is_one_value() -> None:
    assert values("My son is 4 ft 11 now.").quantities == {("inch", 59.0)}
    assert values("She weighs 9 stone 6.").quantities == {("lb", 132.0)}
    # an ordinal's letters are no stone; a number with a decimal after is no part of a height
    assert "lb" not in {u for u, _ in values("in the 1st 4 weeks").quantities}
    assert compounds_written("a 6 ft 2.5 m beam") == "a 6 ft 2.5 m beam"
    assert compounds_written("He is 6 ft 14.") == "He is 6 ft 14."  # no twelve inches past a foot


@pytest.mark.parametrize(
    ("old", "new", "same", "changed"),
    [
        ("The canal tunnel is 450 metres long.", "The canal tunnel is roughly 1,500 ft long.", True, ()),
        ("The canal tunnel is 450 metres long.", "The canal tunnel is about 900 ft long.", False, ("q:m",)),
        ("The paddling route is 3 miles.", "The paddling route is now 3 km.", False, ("q:mile",)),
        ("My daughter is 4 ft 11.", "My daughter is 150 cm tall.", True, ()),
        ("Keep the greenhouse at 10 °C.", "Keep the greenhouse at 50 °F.", True, ()),
    ],
)
def test_two_systems_meet(old: str, new: str, same: bool, changed: tuple[str, ...]) -> None:
    c = _compare(statement(new), statement(old), 0.9)
    assert c.same_values is same
    assert c.changed == changed


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        ("The sailing dinghy's mast is 6.5 metres tall.", "The mast on the sailing dinghy is about 21 ft tall.",
         ReconcileAction.REINFORCE),
        ("The sailing dinghy's mast is 6.5 metres tall.", "The mast on the sailing dinghy is about 12 ft tall.",
         None),
    ],
)
def test_a_measure_restated_in_another_system(embedder, old: str, new: str, action: ReconcileAction | None) -> None:  # type: ignore[no-untyped-def]
    decided = _decide(embedder, old, new).action
    assert decided is action if action else decided is not ReconcileAction.REINFORCE
