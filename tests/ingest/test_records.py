"""A record's grammar (`memgraph.ingest.records`): its parts, labels, units, values and lead."""

from __future__ import annotations

import pytest

from memgraph.ingest.records import field, parts, record


def _fields(text: str) -> list[tuple[str, str, str]]:
    return [(f.label, f.unit, f.value) for f in record(text).labelled]


@pytest.mark.parametrize(
    "text",
    [
        "Berth: C14 | skipper: Nell Ross | draught: 1.6 m",
        "Berth: C14; skipper: Nell Ross; draught: 1.6 m",
        "Berth: C14\tskipper: Nell Ross\tdraught: 1.6 m",
        "Berth: C14\nskipper: Nell Ross\ndraught: 1.6 m",
        "Berth: C14 • skipper: Nell Ross • draught: 1.6 m",
        "| Berth: C14 | skipper: Nell Ross | draught: 1.6 m |",
        "- Berth: C14\n- skipper: Nell Ross\n- draught: 1.6 m",
    ],
)
def test_every_separator_parts_the_same_fields(text: str) -> None:
    assert _fields(text) == [("Berth", "", "C14"), ("skipper", "", "Nell Ross"), ("draught", "", "1.6 m")]
    assert record(text).is_record


def test_a_comma_or_a_spaced_dash_is_no_separator() -> None:
    assert parts("Venue: Corn Exchange, upstairs - moved from the hall | doors: 7pm") == [
        "Venue: Corn Exchange, upstairs - moved from the hall",
        "doors: 7pm",
    ]


def test_a_unit_in_brackets_is_the_values_unit() -> None:
    assert _fields("Fleece weight (kg): 3.8; staple (mm): 95 | grade (Bradford): 56s") == [
        ("Fleece weight", "kg", "3.8"),
        ("staple", "mm", "95"),
        ("grade", "Bradford", "56s"),
    ]
    f = record("Fleece weight (kg): 3.8").fields[0]
    assert f.name == "Fleece weight (kg)"


def test_a_bracket_with_a_digit_is_part_of_the_label_not_a_unit() -> None:
    assert _fields("Lot (2024 clip): 14 bales | buyer: Haworth") == [
        ("Lot (2024 clip)", "", "14 bales"),
        ("buyer", "", "Haworth"),
    ]


def test_the_lead_is_what_comes_before_the_first_field() -> None:
    assert record("Tunnel 3 | heater: on | min temp (°C): 7").lead == "Tunnel 3"
    assert record("Order dispatched | Courier: Parcelwise | Ref: PW-88213").lead == "Order dispatched"
    assert record("Courier: Parcelwise | Ref: PW-88213").lead == ""


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Last ferry: 22:10 | pier: 4", "22:10"),
        ("Booking page: https://tickets.example.test/ferry?day=2 | pier: 4", "https://tickets.example.test/ferry?day=2"),
        ("Mix ratio: 3:1 | pier: 4", "3:1"),
    ],
)
def test_a_colon_inside_a_value_marks_nothing(text: str, value: str) -> None:
    assert _fields(text)[0][2] == value
    assert len(_fields(text)) == 2


@pytest.mark.parametrize("text", ["Ferry leaves at 22:10", "see https://tickets.example.test", "mix it 3:1 with water"])
def test_a_colon_without_a_space_after_it_is_no_label(text: str) -> None:
    assert field(text) is None
    assert not record(text).labelled


def test_an_empty_value_is_a_field() -> None:
    assert _fields("Allergies: | Blood group: O neg") == [("Allergies", "", ""), ("Blood group", "", "O neg")]


def test_a_label_too_long_to_be_one_is_a_sentence() -> None:
    text = "What I really wanted to tell the committee at the end: no"
    assert field(text) is None
    assert field("Next boiler service due: March") is not None


def test_prose_with_a_colon_is_no_record() -> None:
    r = record("Note: I moved the meeting to the small room")
    assert not r.is_record
    assert [f.label for f in r.labelled] == ["Note"]
    assert not record("We had one rule: nobody leaves before the washing up is done.").is_record


def test_a_spaced_dash_marks_a_jotted_line_only_when_asked() -> None:
    assert field("van - MOT due 14 March") is None
    f = field("van - MOT due 14 March", dash=True)
    assert f is not None and (f.label, f.value) == ("van", "MOT due 14 March")


def test_an_equals_sign_marks_a_label_but_code_is_no_field() -> None:
    f = field("flow temp on the heat pump = 45 deg")
    assert f is not None and (f.label, f.value) == ("flow temp on the heat pump", "45 deg")
    assert field("region=eu-west-1") is None
