"""A bare "I think" says an opinion as often as a guess (ingest/hedges.py `doubtful`): read as a guess, every later
statement of the same subject corrected it (Multi-Session Chat's personas: 28 false supersedes in 6,000)."""

from __future__ import annotations

import pytest

from memgraph import MemoryEngine
from memgraph.ingest import deltas, hedges


@pytest.mark.parametrize(
    ("text", "doubt"),
    [
        ("I think the boiler service is on the 14th, not sure", True),
        ("I'm pretty sure the deposit was £450", True),
        ("the deposit was £450?", True),
        ("IIRC the gate code is 4471", True),
        ("I think food trucks are awesome.", False),
        ("I believe my sister is good at her job.", False),
    ],
)
def test_doubt_said_in_words(text: str, doubt: bool) -> None:
    assert hedges.doubtful(text) is doubt


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I think my cousin is annoying.", "I have a younger cousin."),
        ("I think my aunt is strange.", "I am not close to my aunt."),
        ("I think the new bakery is overpriced.", "I don't really like the new bakery."),
        ("I am not sure I will finish the marathon.", "I spend my evenings training for the marathon."),
    ],
)
def test_an_opinion_is_not_corrected_by_a_statement_on_its_subject(engine: MemoryEngine, old: str, new: str) -> None:
    first = engine.remember(old, user_id="op")
    engine.remember(new, user_id="op")
    assert engine.get(first.id, user_id="op").active


def test_a_guessed_value_is_settled_by_a_firm_one(engine: MemoryEngine) -> None:
    old = engine.remember("I think the skip hire is £180 a week, not sure", user_id="g")
    engine.remember("Checked the invoice: the skip hire is £210 a week", user_id="g")
    assert not engine.get(old.id, user_id="g").active


def test_a_name_that_opens_with_a_digit_is_no_amount() -> None:
    assert not deltas.changes("My favourite song is Keep Ya Head Up by 2pac.")
    assert deltas.changes("the vet cut her food by 20g a day")
