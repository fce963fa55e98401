"""What a superseded one-sentence memory still says (`ingest/remainders.py`, `_pieces`): a sentence of several facts
joined by commas, "and" or "but" keeps the facts its replacement leaves standing. The sentences are the lead's own,
from a newcomer's quarter hour of bakery notes; the last test runs the write path and recall with the real model."""

from __future__ import annotations

import pytest

from memgraph import MemoryEngine
from memgraph.ingest.remainders import _pieces, remainder


@pytest.mark.parametrize(
    ("old", "new", "kept"),
    [
        # a value list sharing one head: the piece that opens with a value borrows the head
        ("The bakery opens at 7am on weekdays and 8am on Saturdays.",
         "From next week the bakery opens at 7:30 on weekdays.", "The bakery opens at 8am on Saturdays."),
        ("The gym is open 6-10 on weekdays, 8-8 at weekends.", "The gym now opens at 7 on weekdays.",
         "The gym is open 8-8 at weekends."),
        # a comma between two facts, and "and" before a clause with its own subject
        ("Our flour supplier is Marriage's, delivery every Tuesday.", "Flour deliveries moved to Wednesdays.",
         "Our flour supplier is Marriage's."),
        ("Our flour supplier is Marriage's and they deliver every Tuesday.", "Flour deliveries moved to Wednesdays.",
         "Our flour supplier is Marriage's."),
        # a jotted list of appointments: the others stay, joined as they were
        ("Dentist Tue 3pm, vet Fri 10am, MOT the 12th.", "Vet moved to Thursday.", "Dentist Tue 3pm, MOT the 12th."),
        ("The card machine is £29 a month, and the contract ends in June.",
         "The card machine went up to £32 a month.", "The contract ends in June."),
        # an item of one content word and a value is a fact of its own
        ("Water rates: £12 p/a, due April, payable to the treasurer.", "Water rates are £15 a year now.",
         "Water rates: due April, payable to the treasurer."),
    ],
)
def test_a_sentence_of_several_facts_keeps_the_ones_left_standing(old: str, new: str, kept: str) -> None:
    assert remainder(new, old) == kept


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # "and" before a verb shares the first piece's subject: nothing here can cut it out
        ("The standup is at 9:00 and lasts ten minutes.", "The standup moved to 9:30."),
        # a comma before a preposition or "so" opens no fact of its own
        ("Maya's swimming lessons are on Tuesdays at 4:30, at the leisure centre pool.",
         "Maya's swimming is now on Wednesdays."),
        ("Jess is allergic to sesame, so she never handles the seeded loaves.", "Jess is now allergic to nuts."),
        # a piece that refers back stays only with the piece it refers to
        ("My dentist is Dr Patel, and her surgery is on Hill Street.", "My dentist is now Dr Green."),
        # appositions and a coordinated subject are no pieces
        ("Lena, my sister, lives in Porto.", "Lena moved to Lisbon."),
        ("Linen thread and PVA glue are supplied on the course.", "PVA is no longer supplied."),
    ],
)
def test_no_piece_is_kept_where_none_stands_alone(old: str, new: str) -> None:
    assert remainder(new, old) is None


def test_pieces_need_a_value_or_two_content_words_each() -> None:
    assert _pieces("Lena, my sister, lives in Porto.") == []
    assert _pieces("Tom and the kids arrive at 5.") == []
    assert _pieces("Bins go out on Tuesdays, recycling on Fridays.") == [
        "Bins go out on Tuesdays", "recycling on Fridays"]


def test_a_change_of_one_fact_keeps_the_rest_recallable(engine: MemoryEngine) -> None:
    """The newcomer's case through the public API: the Saturday hours were lost from recall when the weekday hours
    changed, because the one-sentence memory was superseded whole."""
    u = "bakery"
    old = engine.remember("The bakery opens at 7am on weekdays and 8am on Saturdays.", user_id=u)
    # (a change said to start later keeps the old memory current until its day: ingest/starts.py)
    report = engine.remember_report("The bakery opens at 7:30 on weekdays now.", user_id=u)
    assert report.superseded == [old.id] and len(report.remainders) == 1
    kept = engine.get(report.remainders[0], user_id=u)
    assert kept.content == "The bakery opens at 8am on Saturdays." and kept.active
    assert not engine.get(old.id, user_id=u).active
    served = [m.content for m in engine.recall("when do we open on Saturdays?", user_id=u, top_k=3).memories]
    assert served[0] == "The bakery opens at 8am on Saturdays."
