"""Gap detection reads a need in the voices people type: lower case, no question mark, chat spellings, a
preposition first, a polite word last, someone else's question reported, a short check after a scene; and a chat
instruction or a report of the day stays a statement. Every case here is this file's own."""

from __future__ import annotations

import pytest

from memgraph import Settings
from memgraph.embed import CachedEmbedder
from memgraph.retrieve import gap_model
from memgraph.retrieve.gap_question import information_need
from memgraph.retrieve.gap_voice import restore_case
from memgraph.retrieve.gaps import FocusTest, ServedHit
from tests.retrieve.test_gap_model import _hits


@pytest.mark.parametrize(
    "text",
    [
        "wat time does the pool open",  # a chat spelling of the question word
        "wen is the recycling collected",
        "till what time is the library open",  # a preposition before the question word
        "on which floor is the server room",
        "the plumber's number please",  # a keyword query with a polite word last
        "need the gate code for the allotments",  # the subject dropped
        "forgot where the spare key is",
        "can't find the boiler manual",
        "a parent asked if the class runs in half term",  # someone else's question, reported
        "the landlord wants to know when the boiler was serviced",
        "booked the van for saturday, anything i should bring",  # a short check after a scene
        "planning to repaint the shed this weekend, ok",
        "if the heating fails when should i call the landlord",  # a condition first, no comma, no mark
        "anything i should bring to the match",
        "Kindly tell me the opening hours.",
    ],
)
def test_needs_in_a_chat_voice(text: str) -> None:
    assert information_need(text)


@pytest.mark.parametrize(
    "text",
    [
        "don't book anything before 10am on match days",  # a negated auxiliary without its mark instructs
        "when you write to the school, keep it short",  # a condition, then an instruction
        "finished the shed today",  # a report of the day, not a keyword query
        "keep replies short",  # a standing instruction
        "use metric units please",
        "Use metric units please.",
        "ok cheers",
        "I asked Tom about the invoice yesterday.",  # my own question, reported: a remark
        "I'll ask about the venue tomorrow.",
        "any day but friday works for me",  # a preference after "any", no need
        "any change to prod must be reviewed",  # a rule
    ],
)
def test_statements_in_a_chat_voice(text: str) -> None:
    assert not information_need(text)


def test_a_polite_request_nothing_answers_is_a_miss(embedder: CachedEmbedder) -> None:
    """A request with no question mark whose served memories hold no phone number is logged (main read it as a
    statement: never a miss)."""
    s = Settings(store=":memory:")
    focus = FocusTest(embedder.encode, s.gap_focus_word_cosine, s.gap_focus_drop, s.gap_weak_cosine,
                      s.gap_weak_word_cosine)
    query = "Mrs Okafor's phone number please"
    served = ["Mrs Okafor teaches the Tuesday pottery class at the community centre.",
              "The community centre is closed on bank holidays."]
    verdict = gap_model.judge(query, _hits(embedder, query, served), focus=focus, answer_cosine=s.gap_answer_cosine,
                              weak_cosine=s.gap_weak_cosine, threshold=s.gap_model_threshold)
    assert verdict.need
    assert verdict.miss, verdict.reason


def test_lower_case_reads_the_capitals_the_served_memories_give() -> None:
    served = [ServedHit("The Tuesday pottery class is run by Mr Okafor at the Mill Road centre.", 0.5),
              ServedHit("Our builds on macOS use clang.", 0.4)]
    assert restore_case("what's mr okafor's email", served) == "what's Mr Okafor's email"
    assert restore_case("which compiler do the macos builds use", served) == "which compiler do the macOS builds use"
    assert restore_case("when is the frome market", served) == "when is the frome market"  # no memory names it
    assert restore_case("What's Mr okafor's email?", served) == "What's Mr okafor's email?"  # its own capitals


def test_a_question_in_lower_case_reads_as_it_does_written(embedder: CachedEmbedder) -> None:
    """The same question typed with and without capitals gets the same features, hence the same verdict (main:
    the lower-case one lost its subject and possessor, and its probability of a miss fell)."""
    s = Settings(store=":memory:")
    focus = FocusTest(embedder.encode, s.gap_focus_word_cosine, s.gap_focus_drop, s.gap_weak_cosine,
                      s.gap_weak_word_cosine)
    served = ["The Tuesday pottery class is run by Mr Okafor at the Mill Road centre.",
              "The centre is closed on bank holidays."]
    written, typed = "What's Mr Okafor's email address?", "whats mr okafor's email address"
    f = [gap_model.gap_features(q, _hits(embedder, q, served), focus=focus, answer_cosine=s.gap_answer_cosine,
                                weak_cosine=s.gap_weak_cosine) for q in (written, typed)]
    for name in ("subject_names", "possessors", "best_names_absent"):
        assert f[1][name] == f[0][name], name
    assert abs(gap_model.miss_probability(f[1]) - gap_model.miss_probability(f[0])) < 0.1
