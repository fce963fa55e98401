"""Gap detection in the voices of held-out 21 (helper `gaps18`), on questions and notes of this file's own: another
period named relative to now ("next month" / "this month"), a decimal clock time read as a price, an amount of
money taken for a number the question names ("under-16s" / "£16"), a "who" question naming a thing of the person
asked, a relation against a name ("my daughter's bike" / "Maya's bike"), "called" read as a qualified thing, and a
note's pictographs ("🎂 Tom 3 Sept")."""

from __future__ import annotations

from memgraph.embed import CachedEmbedder
from memgraph.retrieve.gap_structure import sibling_owner, sibling_qualifier
from memgraph.retrieve.gap_values import expected_answer, holds_answer, holds_asked_values, is_role, tense_clash
from memgraph.retrieve.gap_voice import spell_pictographs
from tests.retrieve.test_gap_model import _p, _verdicts


def test_another_period_relative_to_now_is_another_time() -> None:
    assert tense_clash("Rota: I'm on the late shifts this week, Mon-Thu", "what are my shifts next week?")
    assert tense_clash("Book club raised £320 this year for the hospice", "how much did book club raise last year?")
    assert tense_clash("Counted 14 swifts over the church this evening", "how many swifts nested last summer?")
    # the same period, one inside the other, a period relative to another time, or none: no clash
    assert not tense_clash("Rota: late shifts next week, Mon-Thu", "what are my shifts next week?")
    assert not tense_clash("Paid the window cleaner yesterday, £15", "what have I paid out this month?")
    # a question of this period: a memory of another period beside its answer is no other answer
    assert not tense_clash("Apple pressing: 300 litres last year", "when do we press the apples this year?")
    assert not tense_clash("Open mic this week: Thursday at the Swan", "what's on tomorrow?")
    assert not tense_clash("Claims after the 20th are paid the following month", "will my claim be paid this month?")
    assert not tense_clash("Book club raised £320 for the hospice", "how much did book club raise last year?")


def test_a_clock_time_with_a_point_is_no_price() -> None:
    q = "how much is a child's ticket for the panto?"
    assert expected_answer(q) == "money"
    assert not holds_answer("Panto booked for the school on 12/12 at 14.30, 28 children, 3 teachers", "money", q)
    assert holds_answer("Panto tickets: children 12.50, adults 18.00", "money", q)
    assert holds_answer("Panto starts at 14.30; children £12.50", "money", q)


def test_an_amount_of_money_is_no_number_the_question_names() -> None:
    q = "what's the swim club fee for under-16s?"
    assert not holds_asked_values("Swim club: adults £16 a month, lane hire extra", q)
    assert holds_asked_values("Swim club: under-16s £9 a month, adults £16", q)
    # money asked as money still pins the memory to it
    assert holds_asked_values("The parking fine was £60, reduced to £30 if paid in 14 days", "was the fine £60?")


def test_who_asks_for_a_person_whatever_of_theirs_it_names() -> None:
    assert expected_answer("who has the code for the key safe?") == "name"
    assert expected_answer("who knows the wifi password at the hall?") == "name"
    q = "who has the code for the key safe?"
    assert holds_answer("The key safe code is with the warden, Mr Okafor.", "name", q)
    # asked with another question, the other kind is still asked; and what / which keep their kind
    assert expected_answer("who's collecting me and what time is the train?") == "time"
    assert expected_answer("what's the key safe code?") == "code"


def test_a_relation_may_be_a_named_person() -> None:
    assert is_role("daughter") and is_role("neighbours") and not is_role("Maya")
    q = "what size frame does my daughter's bike have?"
    assert not sibling_owner(q, "Maya's bike has a 24-inch frame.")
    assert not sibling_qualifier(q, "Maya's bike has a 24-inch frame.")
    # two relations, or two names, are two people
    assert sibling_owner("when's my sister's birthday?", "My brother's birthday is 3 May.")
    assert sibling_owner("what size is Leo's bike?", "Maya's bike has a 24-inch frame.")


def test_called_qualifies_no_thing() -> None:
    note = "The older dog is a collie called Bess; the puppy's a lab."
    assert not sibling_qualifier("what's the new puppy called?", note)
    assert sibling_qualifier("what's the XML importer called?", "The CSV importer is called Ingest.")


def test_pictographs_read_as_the_things_they_picture() -> None:
    assert spell_pictographs("🎂 Tom 3 Sept, cake at the pub") == "birthday cake  Tom 3 Sept, cake at the pub"
    assert spell_pictographs("🚗 lift with Sam 8:15") == "automobile  lift with Sam 8:15"
    # reactions and marks say nothing of the thing ("check", "mark", "sign" cover no question's words)
    assert spell_pictographs("✅ paid the subs 👍") == "paid the subs"
    assert spell_pictographs("🚫 no dogs on the beach ⚠️") == "no dogs on the beach"
    assert spell_pictographs("no emoji here") == "no emoji here"


def test_the_shipped_decision_on_these_voices(embedder: CachedEmbedder) -> None:
    """With the real model and the exported weights: another period served is a miss, the same period answers; a
    birthday noted by its cake answers; a relation's thing under a name answers."""
    served = ["Bin day is Tuesday", "The allotment key is under the water butt"]
    q = "what are my shifts next week?"
    _, other = _verdicts(embedder, q, ["Rota: I'm on the late shifts this week, Mon-Thu 2-10pm", *served])
    _, same = _verdicts(embedder, q, ["Rota: I'm on the late shifts next week, Mon-Thu 2-10pm", *served])
    assert other.miss and not same.miss, (other.reason, same.reason)
    assert _p(other) >= _p(same) + 0.5, (other.reason, same.reason)
    _, cake = _verdicts(embedder, "when's Tom's birthday?", ["🎂 Tom 3 Sept, cake at the pub 👍", *served])
    assert not cake.miss, cake.reason
    _, bike = _verdicts(embedder, "what size frame does my daughter's bike have?",
                        ["Maya's bike has a 24-inch frame.", *served])
    assert not bike.miss, bike.reason
