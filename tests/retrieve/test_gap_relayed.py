"""Gap detection on the shapes held-out 18's misses were said in: relayed questions and requests ("Huw's asking what
days ...", "Dana wants to know the flag for ..."), a note's label ("Q: plumber's number?"), questions about another
person's value said with a lower-case possessive ("the plumber's number", "Amy's mum's name"), a house number ("the
people at no. 10") and a confirmation asked for ("is it still 3 retries?"). Every case here is this file's own."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph import Settings
from memgraph.embed import CachedEmbedder
from memgraph.retrieve import gap_model
from memgraph.retrieve.gap_focus import FocusTest, ServedHit, focus_words
from memgraph.retrieve.gap_question import asked, information_need, sentences, unwrap
from memgraph.retrieve.gap_structure import asked_subjects, sibling_name
from memgraph.retrieve.gap_values import expected_answer, holds_answer
from tests.retrieve.test_gap_dictated import read_alike


def test_a_lower_case_owner_is_a_focus_word() -> None:
    """"plumber's" was no alphabetic token, so the question had no focus word a memory must say."""
    assert focus_words("i forgot the electrician's number") == ["electrician"]
    assert focus_words("what's Ben's mum's name?") == ["mum"]
    assert "club" in focus_words("when's the club's AGM")
    assert focus_words("tell me the twins' bedtime") == ["twins", "bedtime"]
    # "'s" as "is" or "us" owns nothing
    assert focus_words("it's late, where's the spare key") == ["late", "spare", "key"]
    assert "let" not in focus_words("let's see, which gate is ours")


@pytest.mark.parametrize(("query", "kind"), [
    ("i forgot the electrician's number", "phone"), ("Q: the vet's number?", "phone"),
    ("the Hendersons' number please", "phone"), ("what's Jo's work number", "phone"),
    ("what's Piotr's bib number for the relay", "number"),  # another number: a word stands between
    ("there's no number for it?", "number"), ("what's the car's number of seats", "number"),
])
def test_a_persons_number_is_their_phone(query: str, kind: str) -> None:
    assert expected_answer(asked(query)) == kind


def test_days_asked_in_the_plural_ask_when() -> None:
    assert expected_answer("what days does Dad have his physio?") == "when"
    assert expected_answer("what weeks are the kids off school") == "when"


RELAYED = {
    "Sam's asking what days football training is": ("what days football training is", "when"),
    "Lena wants to know the wifi password at the cabin": ("the wifi password at the cabin", None),
    "my mum would like to know Ben's surname": ("Ben's surname", None),
}


@pytest.mark.parametrize("query", list(RELAYED))
def test_a_relayed_question_or_request_asks_what_it_relays(query: str) -> None:
    text, kind = RELAYED[query]
    assert information_need(query)
    assert asked(query) == text
    assert expected_answer(asked(query)) == kind


def test_a_reported_requirement_is_no_request() -> None:
    assert not information_need("he needs to know the results by Friday.")
    assert not information_need("she wants to know it's fine")


def test_a_notes_label_is_no_word_of_the_question() -> None:
    assert unwrap("Q: when is the MOT due?") == "when is the MOT due?"
    assert unwrap("Question - who has the van keys?") == "who has the van keys?"
    assert unwrap("Q: done with the report") == "Q: done with the report"  # no question after it
    assert expected_answer(asked("Q: who's picking up Mia?")) == "name"


def test_a_house_number_is_one_subject() -> None:
    q = "who's the surveyor for the house at no. 7?"
    assert sentences(q) == [q]
    assert sentences("I said no. Then he left.") == ["I said no.", "Then he left."]
    assert asked_subjects(q) == ["no 7"]
    assert sibling_name(q, "Party wall deal signed with the Shaws at no. 9; their surveyor is Mr Kay.")
    assert not sibling_name(q, "The surveyor for no. 7 is Mr Kay.")


def test_a_value_a_confirmation_names_is_no_subject() -> None:
    """"still 3" or "or 3" is no numbered thing (as "lab 3" is) that an answering memory must say."""
    assert asked_subjects("is it still 3 retries?") == []
    assert asked_subjects("was it 2 or 3 scoops per feed") == []
    assert asked_subjects("which desk in lab 3?") == ["lab 3"]


def test_a_point_of_a_period_answers_when() -> None:
    q = "by when does the gardener need paying?"
    assert holds_answer("The gardener wants paying by the end of the month.", "when", q)
    assert holds_answer("Fees are due at the start of next term.", "when", q)
    assert not holds_answer("The end of the garden floods.", "when", q)


def test_a_relayed_question_reads_as_a_question(embedder: CachedEmbedder) -> None:
    keys = ("question", "need", "expects_when")
    (f,) = read_alike(embedder, ("my wife asks when the car insurance renews",),
                      ["The car is a 2019 Skoda Octavia."], keys)
    assert f == dict.fromkeys(keys, 1.0)


NOTES = ["The car is a 2019 Skoda Octavia, reg KX19 ABC.", "Mia's swimming lessons are Saturdays at 10.",
         "The boiler was serviced in March by Gareth.", "Bins go out Tuesday night; recycling every other week.",
         "Grandma's birthday is 14 June.", "The dentist is Dr Patel at Smile Dental."]


def _judge(embedder: CachedEmbedder, query: str, served: list[str]) -> bool:
    s = Settings(store=":memory:")
    focus = FocusTest(embedder.encode, s.gap_focus_word_cosine, s.gap_focus_drop, s.gap_weak_cosine,
                      s.gap_weak_word_cosine)
    vecs = np.asarray(embedder.encode([query, *served]), dtype=np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    hits = sorted((ServedHit(c, float(v @ vecs[0])) for c, v in zip(served, vecs[1:], strict=True)),
                  key=lambda h: -(h.similarity or 0.0))[:5]
    return gap_model.judge(query, hits, focus=focus, answer_cosine=s.gap_answer_cosine,
                           weak_cosine=s.gap_weak_cosine, threshold=s.gap_model_threshold).miss


@pytest.mark.parametrize(("query", "answer"), [
    ("my wife asks when the car insurance renews", "The car insurance with Admiral renews on 3 March."),
    ("Q: plumber's number?", "Plumber: Dave Rees, 07700 900321."),
    ("what's Ben's mum's name?", "Ben's mum is called Carol."),
])
def test_the_shipped_decision_logs_these_only_when_nothing_answers(embedder: CachedEmbedder, query: str,
                                                                   answer: str) -> None:
    assert _judge(embedder, query, NOTES)
    assert not _judge(embedder, query, [answer, *NOTES])
