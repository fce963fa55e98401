"""Gap detection reads a memory that holds the thing asked for a sibling ("the XML importer" / "The CSV importer
expects UTF-8"), and questions in the voices the next blind part is said to
bring: relayed ("my wife asks when the car is due for its MOT"), hedged ("was it the 14th or the 15th for the
vet?"), log-style ("Q: boiler service date?") and relative ("how much more is the rent now?"). Every case here is
this file's own."""

from __future__ import annotations

import pytest

from memgraph.embed import CachedEmbedder
from memgraph.retrieve.gap_focus import focus_words
from memgraph.retrieve.gap_question import asked, information_need, unrelayed
from memgraph.retrieve.gap_structure import sibling_qualifier
from memgraph.retrieve.gap_values import expected_answer
from tests.retrieve.test_gap_dictated import read_alike


def test_a_memory_qualifying_the_word_asked_otherwise_is_a_sibling() -> None:
    assert sibling_qualifier("what port does the staging database use", "The production database uses port 5433.")
    assert sibling_qualifier("how long is shared parental leave?", "Statutory adoption leave: 52 weeks.")
    assert sibling_qualifier("how much is the council tax", "Water tax is £38 a month.")
    assert sibling_qualifier("which bay is the diesel van in", "The electric van is in bay 4.")
    # the question's own qualifier said, or no other one: the memory speaks of the thing asked
    assert not sibling_qualifier("what port does the staging database use", "Staging database: port 5434.")
    assert not sibling_qualifier("what's the gate code", "The front gate code is 4471.")
    assert not sibling_qualifier("what's the employer pension contribution",
                                 "Pension: employer contribution 5%, employee contribution 3%.")
    assert not sibling_qualifier("when is my next dentist appointment", "Dentist appointment on 3 June at 10:20.")
    # the word a question word asks for is no qualifier, and a verb's other form no shared thing
    assert not sibling_qualifier("which command installs the frontend packages?",
                                 "The frontend uses pnpm; never run npm install there.")


RELAYED = {
    "my wife asks when the car is due for its MOT": ("when", {"car", "mot"}),
    "Sam wants to know what time the match starts": ("time", {"match", "starts"}),
    "mum asked me where we parked": ("place", {"parked"}),
    "my boss is asking how much the hotel was": ("number", {"hotel"}),
    "my husband wants to know which day the bins go out": ("when", {"bins"}),
}


@pytest.mark.parametrize("query", list(RELAYED))
def test_a_relayed_question_asks_what_it_relays(query: str) -> None:
    """Who relays the question is no part of it: no focus word a memory must say, and the kind asked is the
    embedded question's."""
    kind, words = RELAYED[query]
    assert information_need(query)
    assert expected_answer(asked(query)) == kind
    assert set(focus_words(asked(query))) == words


def test_a_question_asked_outright_is_not_cut() -> None:
    assert unrelayed("when does the pharmacy close") == "when does the pharmacy close"
    assert unrelayed("who asked what the budget is") == "who asked what the budget is"
    assert unrelayed("dad asks why") == "dad asks why"  # nothing left to ask


@pytest.mark.parametrize("query", [
    "was it the 14th or the 15th for the vet?", "was it 3 or 4 pm for the dentist", "did we say 7 or 7:30 for dinner",
    "Q: boiler service date?", "boiler service date?", "next MOT due?", "how much more is the rent now?",
    "how many more sessions of physio are left",
])
def test_hedged_log_style_and_relative_questions_are_needs(query: str) -> None:
    assert information_need(query)


def test_a_date_asked_as_a_log_asks_it() -> None:
    assert expected_answer(asked("Q: boiler service date?")) == "when"
    assert expected_answer(asked("next MOT due?")) == "when"
    assert expected_answer(asked("the MOT is due in March")) is None


def test_the_decision_reads_the_sibling_qualifier(embedder: CachedEmbedder) -> None:
    keys = ("best_sibling_qualifier", "good_sibling_qualifier", "need")
    (f,) = read_alike(embedder, ("what port does the staging database use",),
                      ["The production database uses port 5433."], keys)
    assert f == dict.fromkeys(keys, 1.0)
