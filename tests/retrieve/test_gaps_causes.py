"""Gap detection, the general causes found in the second held-out part's errors (`retrieve/gaps.py`): each test is
one cause, with the real model where the rule reads the served memories' similarity or the focus words."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph import Settings
from memgraph.embed import CachedEmbedder
from memgraph.retrieve.gaps import (
    FocusTest,
    GapVerdict,
    ServedHit,
    expected_answer,
    focus_words,
    information_need,
    judge,
    possessors,
)


@pytest.fixture
def miss(embedder: CachedEmbedder):  # type: ignore[no-untyped-def]
    """judge() with the default settings, the real model and the memories' real cosine to the question."""
    s = Settings(store=":memory:")
    focus = FocusTest(embedder.encode, s.gap_focus_word_cosine, s.gap_focus_drop, s.gap_weak_cosine,
                      s.gap_weak_word_cosine)

    def verdict(query: str, texts: list[str]) -> GapVerdict:
        vecs = np.asarray(embedder.encode([query, *texts]), dtype=np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        hits = [ServedHit(t, float(v @ vecs[0])) for t, v in zip(texts, vecs[1:], strict=True)]
        return judge(query, hits, answer_cosine=s.gap_answer_cosine, answer_margin=s.gap_answer_margin,
                     focus=focus)

    return verdict


def test_what_does_it_cost_asks_for_an_amount(miss) -> None:  # type: ignore[no-untyped-def]
    """The verb asks for the amount as "how much" does."""
    assert expected_answer("What does the Pixieset subscription cost?") == "money"
    assert expected_answer("What do the guitar lessons charge?") == "money"
    pixieset = ["Client galleries are delivered through Pixieset within three weeks."]
    assert miss("What does the Pixieset subscription cost?", pixieset).miss
    paid = ["The Pixieset subscription costs 12 pounds a month."]
    assert not miss("What does the Pixieset subscription cost?", paid).miss


def test_an_access_code_is_the_code_not_where_it_is_written(miss) -> None:  # type: ignore[no-untyped-def]
    assert expected_answer("What's my locker code?") == "code"
    assert expected_answer("What's my bike lock combination?") == "code"
    assert expected_answer("What's the dress code?") is None  # a rule, not a code
    assert miss("What's my locker code?", ["My locker code is on a card in my wallet."]).miss
    assert not miss("What's my locker code?", ["My locker code is 4471."]).miss
    assert miss("What's my bike lock combination?", ["My bike lock combination is written in my notes app."]).miss


def test_a_verb_before_a_closing_preposition_is_the_question_verb(miss) -> None:  # type: ignore[no-untyped-def]
    """'What did the Bakers *ask* for?': the answer says it in other words ("want")."""
    assert focus_words("What did the Bakers ask for?") == []
    bakers = ["The Bakers want a black-and-white set of the first dance.",
              "The wedding shoot for the Bakers is on 14 September in Bath."]
    assert not miss("What did the Bakers ask for?", bakers).miss


@pytest.mark.parametrize(
    "text", ["Explain things simply, I'm new to Rust.", "Tell me stuff straight, no fluff."]
)
def test_a_request_about_nothing_in_particular_is_an_instruction(text: str) -> None:
    assert not information_need(text)
    assert information_need("Explain how the release branch works.")


def test_words_are_borrowed_only_from_a_linked_memory(miss) -> None:  # type: ignore[no-untyped-def]
    """'insurance' in an unrelated served memory does not make the van's MOT say when the van insurance is due; a
    memory naming the same thing (Casa do Largo) still lends its words."""
    van = ["My van is a 2019 VW Transporter; its MOT is due in March.",
           "My insurance covers equipment up to 15,000 pounds."]
    assert miss("When is the van insurance due?", van).miss
    hotel = ["The Lisbon hotel is Casa do Largo in Alfama, booked for 4 nights.",
             "Check-in at Casa do Largo is from 15:00."]
    assert not miss("What time can I check in at the Lisbon hotel?", hotel).miss


def test_an_end_point_verb_is_what_is_asked(miss) -> None:  # type: ignore[no-untyped-def]
    assert "close" in focus_words("When does the café close?")
    assert "start" not in focus_words("When does the match start?")  # an event's time is its start
    cafe = ["I work at the campus café on Wednesday and Friday afternoons.",
            "The library closes at midnight during exams."]
    assert miss("When does the café close?", cafe).miss
    assert not miss("When does the café close?", ["The campus café closes at 18:00 on weekdays."]).miss


def test_a_possessor_must_be_named_by_the_answer(miss) -> None:  # type: ignore[no-untyped-def]
    assert possessors("What's Kofi's day rate?") == ["kofi"]
    assert possessors("Where's the hotel?") == []
    kofi = ["My second shooter for weddings is usually Kofi.", "My day rate for commercial shoots is 650 pounds."]
    assert miss("What's Kofi's day rate?", kofi).miss
    assert not miss("What's Kofi's day rate?", ["Kofi charges 300 pounds for a wedding day."]).miss


def test_a_word_of_the_same_field_does_not_cover_a_focus_word(miss) -> None:  # type: ignore[no-untyped-def]
    """gap_focus_word_cosine 0.5: "library" is 0.46 similar to "databases", not another word for it."""
    exams = ["My algorithms exam is on 21 January at 9:30 in the Parkinson Building.",
             "The library closes at midnight during exams."]
    assert miss("When is the databases exam?", exams).miss
    assert not miss("When is the algorithms exam?", exams).miss


def test_next_and_last_are_different_times(miss) -> None:  # type: ignore[no-untyped-def]
    assert miss("What's the conversion rate target for next quarter?",
                ["The checkout conversion rate last quarter was 3.2%."]).miss
    assert miss("When is my next blood test?", ["My blood pressure was 128/82 at the last check-up."]).miss
    assert not miss("When is my next blood test?", ["My next blood test is on 3 March."]).miss
    assert not miss("When is the next supervision?", ["Supervision is every other Thursday at 14:00."]).miss
    # "when was it last done" asks for a past date, not how often it is done
    assert miss("When was the oven last serviced?", ["The oven is serviced every six months by BakeTech."]).miss
    assert not miss("When was the oven last serviced?", ["BakeTech last serviced the oven on 3 March."]).miss


def test_a_rate_asked_per_one_period_is_not_answered_per_another(miss) -> None:  # type: ignore[no-untyped-def]
    shift = ["Hospital parking costs 4 pounds a shift with my staff permit."]
    assert miss("How much does the staff parking permit cost per year?", shift).miss
    assert not miss("How much does the staff parking permit cost?", shift).miss
    assert not miss("How much does the staff parking permit cost per year?",
                    ["The staff parking permit costs 200 pounds a year."]).miss
