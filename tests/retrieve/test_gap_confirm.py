"""Gap detection in the voices of held-out 22 (helper `gaps19`), on questions and notes of this file's own: a
statement with a tag or a doubtful check asks to confirm it (`gap_confirm`), a progressive verb is no thing asked
for, another month is another occasion, and a memory telling what happened beside the next one speaks of the last
one too."""

from __future__ import annotations

from memgraph.retrieve.gap_confirm import checked_kind, confirms, tag_clause
from memgraph.retrieve.gap_question import information_need, is_question, scene
from memgraph.retrieve.gap_structure import asked_head
from memgraph.retrieve.gap_values import expected_answer, holds_answer, holds_asked_values, tense_clash


def test_a_tag_makes_the_statement_the_question() -> None:
    for q in ("The allotment shed has a padlock, hasn't it?", "Orla's allergic to penicillin, isn't she?",
              "choir's back on Wednesdays now, aren't we?", "the boiler was serviced in March, wasn't it?",
              "the skip gets collected Friday, right?", "we paid the deposit, didn't we?"):
        assert confirms(q), q
        assert scene(q) == ("", q), q  # the statement is no scene and the tag no question of its own
        assert information_need(q), q
    # a question of its own after a scene is one: its clause is no tag
    assert scene("the fridge is buzzing, is it broken?")[0] == "the fridge is buzzing"
    assert scene("the fridge is buzzing, what do I do?")[0] == "the fridge is buzzing"
    assert not confirms("the fridge is buzzing, is it broken?")
    assert not confirms("What time is the vet open until?")
    assert not confirms("is the dentist open on Saturdays?")


def test_a_tag_without_its_mark_is_still_a_question() -> None:
    assert is_question("bins go out thursdays isnt it")
    assert is_question("the plumber's coming at ten, isn't he")
    assert information_need("recycling is tuesdays now innit")
    assert not is_question("The plumber's coming at ten.")
    assert not information_need("Don't book anything before 10am on show days.")


def test_a_doubtful_check_asks_the_value_it_states() -> None:
    assert checked_kind("Mum's birthday meal is the 21st, isn't it?") == "when"
    assert checked_kind("the Hendry's order, was it 340?") == "number"
    assert checked_kind("the dentist, is it at 4pm?") == "time"
    assert checked_kind("Didn't the council say the bins move to Tuesday?") == "when"
    assert checked_kind("rent is £640 a month, right?") == "money"
    assert checked_kind("The hut has a kettle, hasn't it?") is None  # nothing to measure: a yes or a no
    assert expected_answer("gym membership renews in October, doesn't it?") == "when"
    # a question that asks its own kind keeps it
    assert expected_answer("When's the boiler service – wasn't it the 9th?") == "when"
    assert expected_answer("who's chairing the AGM – wasn't it Priya?") == "name"


def test_the_checked_value_is_no_pin() -> None:
    # "no, it's the 28th" answers "it's the 21st, isn't it?": another value of its kind is the answer
    q = "Mum's birthday meal is the 21st, isn't it?"
    memory = "Mum's birthday meal moved to Sat 28 June at the Anchor."
    assert holds_asked_values(memory, q)
    assert holds_answer(memory, expected_answer(q), q)
    assert not holds_answer("Mum's birthday meal is at the Anchor, she wants the fish.", expected_answer(q), q)
    q = "When's the boiler service – wasn't it the 9th?"
    assert holds_asked_values("Boiler service moved to 16 May.", q)
    # a question pinned to a value still is ("which album came out in 1997?")
    assert not holds_asked_values("Their second album came out in 2001.", "which album came out in 1997?")


def test_a_value_checked_after_its_topic_is_one_question() -> None:
    assert tag_clause("was it 340?") and tag_clause("wasn't it the 9th?") and tag_clause("is it at 4pm?")
    assert not tag_clause("is it broken?") and not tag_clause("what do I do?")
    assert scene("the Hendry's order, was it 340?") == ("", "the Hendry's order, was it 340?")
    # dictated, without the comma or the mark: a negated check closing the question is one too
    assert confirms("when's the boiler service wasn't it the 9th")
    assert holds_asked_values("Boiler service moved to 16 May.", "when's the boiler service wasn't it the 9th")
    assert not confirms("is it 340 or 430")


def test_a_progressive_verb_is_no_thing_asked() -> None:
    assert asked_head("what's Ewan playing off these days?") is None
    assert asked_head("what are the girls singing at the concert?") is None
    assert asked_head("what's the cat eating now?") is None
    # a noun in -ing after its determiner, or before its noun, is a thing
    assert asked_head("what's the team training venue?") == "venue"
    assert asked_head("who's my examiner?") == "examiner"


def test_another_month_is_another_occasion() -> None:
    q = "who's giving the talk at the garden club in June?"
    assert not holds_asked_values("Garden club talks: 4 Apr rose pruning, 2 May composting, speaker Ann Reid.", q)
    assert holds_asked_values("Garden club talks: 6 June hedgehogs, speaker Ann Reid.", q)
    assert holds_asked_values("Garden club meets Apr–Sept, first Tuesday.", q)  # a range holds June
    # a yes/no question is answered by the other month: "no, it's in May"
    assert holds_asked_values("Garden club talk: 2 May composting.", "is the composting talk in June?")


def test_what_happened_beside_the_next_one_speaks_of_the_last() -> None:
    q = "did the car get through its last service?"
    assert not tense_clash("The car had its 20k service in March – passed, next one due at 30k.", q)
    assert tense_clash("Next service booked for 3 June at Kwik Fit.", q)


def test_a_positive_modal_after_a_wish_asks_leave_and_keeps_its_scene() -> None:
    q = "my sister wants to bring her dog to the cabin, can she?"
    assert not confirms(q)
    assert scene(q) == ("my sister wants to bring her dog to the cabin", "can she?")
    assert confirms("we can park at the back, can't we?")


def test_the_verb_of_a_price_asks_money() -> None:
    assert expected_answer("what's the farrier charging for the shoes?") == "money"
    assert expected_answer("what are eggs going for at the market?") == "money"
    assert expected_answer("what's the tiler costing us?") == "money"
    assert expected_answer("what's she asking for?") is None  # a request, no price
    assert expected_answer("what is the plan going forward?") is None
