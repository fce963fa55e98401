"""Gap detection when the served memory names the subject and not what is asked of it (held-out 20's causes, helper
`gaps17`), on questions and notes of this file's own: a when-question served only a past count ("about 500
visitors last year"), opening hours given as a range of bare hours ("hours 9-5"), a code asked and only times,
ordinals and prices served, and the word a what / which / who question asks for absent from a record that names
its subject ("who's my examiner?" / "Test booked: ..., ref DT-4412")."""

from __future__ import annotations

from memgraph.embed import CachedEmbedder
from memgraph.retrieve.gap_focus import ServedHit
from memgraph.retrieve.gap_structure import asked_head, head_absent, structure_features
from memgraph.retrieve.gap_values import expected_answer, holds_answer
from tests.retrieve.test_gap_model import _p, _verdicts


def _when(content: str, query: str) -> bool:
    return holds_answer(content, expected_answer(query), query)


def test_a_past_count_is_no_answer_to_when_this_one_is() -> None:
    q = "when's the village fete this year?"
    assert expected_answer(q) == "when"
    assert not _when("Village fete: about 500 visitors last year, raised £2k for the roof", q)
    assert not _when("Quiz night went well - 14 teams two weeks ago", "when is the quiz night?")
    # a time besides the past one answers; a past question is answered by the past time
    assert _when("Village fete: 500 visitors last year; this year it's on 12 July", q)
    assert _when("Village fete: about 500 visitors last year", "when was the fete last year?")
    assert _when("Quiz night was moved - we did it two weeks ago", "when did we do the quiz night?")
    # "last" that places a day in a period is no past time
    assert _when("Payroll runs on the last working day of the month", "when does payroll run?")
    assert _when("Bins go out the last Thursday of each month", "when do the bins go out?")


def test_opening_hours_as_a_range_of_bare_hours_hold_a_time() -> None:
    q = "what time does the library close on Saturdays?"
    assert expected_answer(q) == "time"
    assert holds_answer("Library hours 9-5 on weekdays, Saturdays 10-1", "time", q)
    assert holds_answer("Bakery open 7-3 except Mondays", "time", "what time does the bakery open?")
    # a range that counts no hours is none: ages, sizes, a score
    assert not holds_answer("Swimming club: juniors aged 8-12, seniors 13-17", "time", "what time is swimming?")
    assert not holds_answer("We lost the final 2-1 after extra time", "time", "what time is the final?")


def test_a_code_is_not_a_time_an_ordinal_or_a_price() -> None:
    q = "what's the gate code for the allotments?"
    assert expected_answer(q) == "code"
    for note in ("Allotment AGM on the 14th at 7.30, subs £25 a year",
                 "Allotment plot 9: water butts filled, 3rd row of leeks in",
                 "Allotment shed key under the 2nd pot, 12m from the gate"):
        assert not holds_answer(note, "code", q), note
    for note in ("Allotment gate code 5823", "key safe code 1906, by the back door", "the padlock is K47Z",
                 "gate code is `Leek#9`"):
        assert holds_answer(note, "code", q), note


def test_a_quote_asks_an_amount() -> None:
    """"the quote" is what a job will cost: an amount of money, as "the price" is."""
    q = "what was the roofer's quote?"
    assert expected_answer(q) == "money"
    assert holds_answer("Roofer (Dale Hughes) quoted £1,850 for the flashing", "money", q)
    assert not holds_answer("Roofer (Dale Hughes) coming Tuesday to look at the flashing", "money", q)


def test_the_word_a_question_asks_for() -> None:
    assert asked_head("what's the deductible on the travel policy?") == "deductible"
    assert asked_head("who's my driving examiner?") == "examiner"
    assert asked_head("which ward is Gran on?") == "ward"
    assert asked_head("what colour paint did we order for the hall?") == "paint"
    # a verb before any thing: what is asked is in the verb; and when / where / how say it by their kind
    assert asked_head("what does the landlord want us to fix?") is None
    assert asked_head("when's the driving test?") is None
    assert asked_head("how much is the deposit?") is None
    # a kind of value other than a name is read by its value (its word is often a unit's: "rate" / "4.35%"), a title
    # asked names the thing and asks its name, and a verb after "who's" is no thing
    assert asked_head("what rate is the savings account paying?") is None
    assert asked_head("what time's my first shift?") is None
    assert asked_head("what's the new podcast called?") is None
    assert asked_head("who's coming on the sailing trip?") is None
    assert asked_head("what are my exam pieces?") == "pieces"
    # "which N verb ...": nothing ends the noun, so no word is taken for it
    assert asked_head("which command installs frontend packages?") is None
    assert asked_head("which ward is Gran on?") == "ward"


def test_a_record_that_names_the_subject_and_not_what_is_asked() -> None:
    record = "Driving test booked: Tue 4 Mar, 09:12, Sandbrook test centre. Ref DT-4412."
    assert head_absent("who's my driving examiner?", record)
    assert not head_absent("what's my test reference?", record.replace("Ref", "reference"))
    assert head_absent("what's the excess on the van insurance?", "Van insurance with Aviva, renews 3 May")
    assert not head_absent("what's the excess on the van insurance?", "Van insurance: excess £250, renews 3 May")
    assert not head_absent("what's the alk meant to be?", "Targets: alkalinity 8.0 dKH, calcium 430 ppm")
    # the most similar memory and the best one holding the kind asked, as features
    served = [ServedHit(record, 0.5), ServedHit("Lessons with Karen on Tuesdays, £38 an hour", 0.3)]
    f = structure_features("who's my driving examiner?", served, weak_cosine=0.3)
    assert f["best_head_absent"] == 1.0 and f["good_head_absent"] == 1.0
    f = structure_features("who's my driving instructor?",
                           [ServedHit("Driving instructor: Karen Hale, Tuesdays 5pm", 0.6)], weak_cosine=0.3)
    assert f["best_head_absent"] == 0.0 and f["good_head_absent"] == 0.0


def test_the_shipped_decision_reads_what_is_not_said(embedder: CachedEmbedder) -> None:
    """With the real model and the exported weights: a record naming the subject and not what is asked weighs
    towards a miss (p 0.55 / 0.60 against 0.04 where the record says it: under the threshold still, the part's
    such cases sit at 0.6-0.75); a past count served for when this year's event is, is a miss (0.84; 0.02 with
    the date); opening hours as bare hours answer "what time" (0.14)."""
    served = ["car insurance renews in June", "bell ringing practice Thursdays 7.30"]
    _, examiner = _verdicts(embedder, "who's my driving examiner?",
                            ["Driving test booked: Tue 4 Mar, 09:12, Sandbrook test centre. Ref DT-4412.", *served])
    _, instructor = _verdicts(embedder, "who's my driving instructor?",
                              ["Driving instructor: Karen Hale, lessons Tuesdays 5pm, £38 an hour", *served])
    assert not instructor.miss, instructor.reason
    assert _p(examiner) >= _p(instructor) + 0.3, (examiner.reason, instructor.reason)
    _, unsaid = _verdicts(embedder, "what's the excess on the van insurance?",
                          ["Van insurance with Aviva, renews 3 May, policy VN-2231", *served])
    _, said = _verdicts(embedder, "what's the excess on the van insurance?",
                        ["Van insurance with Aviva: excess £250, renews 3 May", *served])
    assert not said.miss and _p(unsaid) >= _p(said) + 0.3, (unsaid.reason, said.reason)
    q = "when's the village fete this year?"
    _, past = _verdicts(embedder, q, ["Village fete: about 500 visitors last year, raised £2k for the roof", *served])
    _, dated = _verdicts(embedder, q, ["Village fete this year on Sat 12 July, about 500 visitors last year", *served])
    assert past.miss and not dated.miss, (past.reason, dated.reason)
    _, hours = _verdicts(embedder, "what time does the library close on Saturdays?",
                         ["Library hours 9-5 on weekdays, Saturdays 10-1", *served])
    assert not hours.miss, hours.reason
