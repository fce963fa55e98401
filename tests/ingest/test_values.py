"""Typed values (`ingest/values.py`): one value, many spellings; what the write-path decisions compare."""

from __future__ import annotations

import pytest

from memgraph.ingest.values import masked, values


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("at 5pm", "at 17:00"),
        ("at 5 pm.", "at 17:00."),
        ("on 14 June", "on June 14th"),
        ("12-14 May", "12–14 May"),
        ("five-a-side", "5-a-side"),
        ("1,450 euros", "1450 EUR"),
        ("3.9%", "3.9 percent"),
        ("2 to 5pm", "14:00-17:00"),
        ("every morning", "in the mornings"),
    ],
)
def test_spellings_of_one_value_meet(a: str, b: str) -> None:
    assert values(a).kinds() == values(b).kinds()


def test_kinds_and_units() -> None:
    v = values("The server has 64 GB of RAM and 16 CPU cores; backups at 02:30 on Fridays since 2021.")
    assert v.quantities == {("gb", 64.0), ("cpu", 16.0)}
    assert v.times == {150} and v.weekdays == {4} and v.years == {2021}
    assert values("I drink three coffees a day.").quantities == {("coffee", 3.0)}
    assert values("The one I like").empty  # a number word needs a noun after it
    assert values("I may go in May").months == {5}  # "may" the verb is not a month
    assert values("The hotel is booked for 4 nights.").periods == frozenset()  # a quantity, not a night
    assert values("Pi is 3.14").times == frozenset()  # a decimal, not a time


def test_masked_replaces_values() -> None:
    assert masked("The gym closes at 22:00 on weekdays.") == "The gym closes at # on weekdays."


@pytest.mark.parametrize("text", ["Where are the tenancy deposits held?", "The tenant pays the water bill.",
                                  "Fiveish people came.", "Our oneself test"])
def test_a_number_word_inside_a_longer_word_is_no_number(text: str) -> None:
    """"tenancy" is not "ten": a number word counts only as a whole word (or before a hyphen: "five-a-side")."""
    assert values(text).quantities == frozenset()
