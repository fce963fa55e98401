"""One table of English's irregular verb forms (`verb_forms`) read by the predicate, the reminder and the unit
readers alike."""

from __future__ import annotations

import pytest

from memgraph.ingest.intentions import fulfilled
from memgraph.ingest.predicates import predicate
from memgraph.ingest.values import values
from memgraph.ingest.verb_forms import IRREGULAR, PAST_FORMS


def test_present_forms_are_no_past() -> None:
    assert IRREGULAR["goes"] == "go" and "goes" not in PAST_FORMS
    assert {"rang", "did", "got", "taken"} <= PAST_FORMS


@pytest.mark.parametrize(
    "text", ["kiln 2 set to 1240 for the glaze firing", "bay 4 got a new lift", "freezer 3 shut down overnight"]
)
def test_a_past_verb_after_a_number_is_no_unit(text: str) -> None:
    first = min(values(text).quantities, key=lambda q: q[1])
    assert first[0] == ""


def test_did_is_the_verb_do() -> None:
    a, b = predicate("We did the allotment on Sunday."), predicate("We do the allotment on Sundays.")
    assert a is not None and b is not None and a.verb == b.verb == "do"


def test_a_reminder_said_done_by_a_past_form_from_the_one_table() -> None:
    assert fulfilled("Rang the plumber about the boiler.", "Remind me to ring the plumber about the boiler.")
