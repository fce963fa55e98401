"""Gap detection on records and lettered things (held-out 19's causes, helper `gaps16`), on questions and notes of
this file's own: a thing named by a letter ("Block C") and its siblings ("Block A"), a day said in the plural
("on Tuesdays") and by its short form in a record ("Tue/Thu"), one field of a record that answers whatever the
record's cosine (`gap_fields`), an identifier asked by its name ("my membership ID"), and asked who, a name
that is the subject of a negated verb ("Marek won't be coaching next season")."""

from __future__ import annotations

from memgraph.embed import CachedEmbedder
from memgraph.retrieve.gap_fields import field_answer, fields
from memgraph.retrieve.gap_focus import ServedHit, subject_names
from memgraph.retrieve.gap_structure import asked_subjects, names_absent, sibling_name, structure_features
from memgraph.retrieve.gap_values import expected_answer, holds_answer
from tests.retrieve.test_gap_model import _p, _verdicts

PARKING = "Block A has 40 parking spaces, Block B 25, visitor bays 6"


def test_a_lettered_thing_is_a_subject_and_another_letter_its_sibling() -> None:
    q = "how many spaces are there in Block C?"
    assert "block c" in asked_subjects(q)
    assert names_absent(q, PARKING) > 0 and sibling_name(q, PARKING)
    asked_b = "how many spaces are there in Block B?"
    assert names_absent(asked_b, PARKING) == 0.0 and not sibling_name(asked_b, PARKING)
    # in lower case too on the memory's side ("we went with plan A"), and "Plan B" asked
    assert sibling_name("is Plan B still on for the launch?", "we went with plan A for the launch")


def test_the_shipped_decision_weighs_a_lettered_sibling(embedder: CachedEmbedder) -> None:
    """With the real model and the exported weights: the sibling's count served for "Block C" makes a miss far likelier
    than the same record asked of its own "Block B" (p 0.32 / 0.02; before the lettered reading 0.03 / 0.02). Under
    the threshold still: one read case (held-out 19 br17) is too few to weigh it more."""
    served = [PARKING, "the lift in Block A is out until Friday", "bins go out on Tuesday night"]
    _, sibling = _verdicts(embedder, "how many parking spaces in Block C?", served)
    _, own = _verdicts(embedder, "how many parking spaces in Block B?", served)
    assert not own.miss, own.reason
    assert _p(sibling) >= _p(own) + 0.2, (sibling.reason, own.reason)


def test_a_letter_that_names_nothing_is_no_subject() -> None:
    """"I", an initial before a surname, a letter after a stop word, an abbreviation: no lettered thing."""
    for q in ("did I get an A in chemistry?", "where does Dr K Mensah work now?", "when can I ring the office?",
              "is gate A.1 open?", "what did Tom get, A or B?"):
        assert not any(" " in s for s in asked_subjects(q)), q


def test_a_day_in_the_plural_is_when_not_whose() -> None:
    """"on Tuesdays" is a day, not a subject a record must name ("Tue/Thu 18:30 at the pool")."""
    q = "what time does Mira swim on Tuesdays?"
    assert "tuesdays" not in subject_names(q) and "tuesdays" not in asked_subjects(q)
    note = "Mira (Otter group) swims Tue/Thu at Kingsway pool, 18:30 start"
    assert names_absent(q, note) == 0.0 and not sibling_name(q, note)
    assert "kingsway" in subject_names("what time is swimming at Kingsway?")


def test_a_record_field_answers_whatever_its_cosine() -> None:
    record = "Flat 4B: landlord Mr Okafor, letting agent Hollis & Reed, deposit £1,150, rent due on the 3rd"
    assert fields(record)[:2] == ["Flat 4B: landlord Mr Okafor", "letting agent Hollis & Reed"]
    assert field_answer("who's our letting agent?", record)
    assert field_answer("how much was the deposit?", record)
    # the field must say what is asked: the landlord's phone is no field of it, nor the record's topic alone
    assert not field_answer("what's the landlord's phone number?", record)
    assert not field_answer("who's the electrician?", record)
    # a question asking no kind of value has no field answer (the words alone are a topic)
    assert not field_answer("is the deposit protected?", record)
    served = [ServedHit(record, -0.01), ServedHit("the boiler was serviced in March", 0.4)]
    assert structure_features("who's our letting agent?", served, weak_cosine=0.3)["field_answer"] == 1.0
    # a sibling's field is no answer: the record names Flat 4B, the question Flat 2A
    asked_other = "who's the letting agent for Flat 2A?"
    assert structure_features(asked_other, served, weak_cosine=0.3)["field_answer"] == 0.0


def test_an_identifier_asked_by_its_name_asks_a_code() -> None:
    assert expected_answer("what's my membership ID for the climbing wall?") == "code"
    assert expected_answer("whats the order id") == "code"
    assert expected_answer("I'd like to know when the gym opens") != "code"
    # the id that names whose thing is asked is no identifier asked: the header is
    assert expected_answer("what's the header name for the trace id") != "code"


def test_asked_who_a_negated_name_is_no_answer() -> None:
    q = "who's coaching the under-12s next season?"
    assert not holds_answer("Marek won't be coaching the under-12s next season", "name", q)
    assert not holds_answer("Marek is not coaching next season, and Ines no longer helps", "name", q)
    assert holds_answer("Marek won't be coaching next season; Ines takes over the under-12s", "name", q)
    assert holds_answer("Marek is coaching the under-12s next season", "name", q)
    # asked something else, the name still holds what a memory says of it ("when is Marek not around?")
    assert holds_answer("Marek isn't around on 3 May", "when", "when is Marek not around?")
