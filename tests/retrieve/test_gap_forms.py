"""Gap detection reads a need in the forms held-out 16 asked in and the voices the next part is said to bring: a
question word left where its answer goes ("the meeting is at whose house"), a jotted attribute and its owner
("opening hours for the gym"), a question of a question word alone after its subject ("the dentist of the kids,
which one is"), text-speak ("wats the gate code again"), code-switched openers, formal requests ("Could you
confirm the ..."), imperatives ("remind me the ...", "i forgot the ..."), one item of a stored list. A request
about the assistant's own manner, a reminder to set and a note with its value stay statements. A memory that gives
the thing asked another owner ("dad's birthday" / "mum's birthday") is read in any case. Every case here is this
file's own."""

from __future__ import annotations

import pytest

from memgraph import Settings
from memgraph.embed import CachedEmbedder
from memgraph.retrieve import gap_model
from memgraph.retrieve.gap_question import information_need, plain_spelling, scene
from memgraph.retrieve.gap_structure import sibling_owner
from memgraph.retrieve.gap_values import expected_answer
from memgraph.retrieve.gaps import FocusTest
from tests.retrieve.test_gap_dictated import read_alike
from tests.retrieve.test_gap_model import _hits

NEEDS = [
    # the question word where its answer goes
    "book club in april is at whose house", "the new tenant any pets are there", "bin day which day is",
    "the pool cleaner who is coming", "total how many guests we are expecting",
    "parking permit till which date it is valid",
    "saturday also the shop is open or not",
    # an attribute and its owner, jotted
    "opening hours for the leisure centre on sundays", "flight number for the return leg",
    "number of the plumber we used", "saoirse has a cough, number of the out of hours doctor",
    # text-speak and slang
    "wats the gate code again", "wats the gate code again 😅", "hw much was the plumber 🙏", "where r the spare keys",
    "whos picking up jake 2day", "wen is bin day lol", "u got the wifi pw?",
    # code-switched: an opener of another language before the question
    "oye when is mummy's flight", "the gate code kya hai, what is it", "what time is the puja on saturday yaar",
    # formal
    "Could you confirm the date of the board meeting?", "Could you confirm the venue for Thursday's lunch",
    "Would you kindly remind me of the supplier's address",
    "I would be grateful if you could confirm the invoice number.",
    "Please confirm the time of the dentist appointment.", "Kindly advise the account number for the deposit.",
    # imperatives
    "remind me the gate code", "remind me what time the vet closes", "remind me am i meant to bring my own laptop",
    "i forgot the wifi password", "forgot the locker combination", "check when the MOT is due",
    # one item of a stored list
    "what's the third item on the packing list", "is milk on the shopping list?", "is sunscreen on the packing list",
]

REMARKS = [
    "can you make the writing bigger and not talk so fast", "Could you make your replies shorter please",
    "kindly keep the answers brief", "remind me to call mum tomorrow",
    "gate code is 4471 😅", "bin day is thursday lol", "the return leg is BA 245",
    "opening hours are 9 to 5 on sundays",
    "interest on the savings account 4.1%", "rates for the hall 25 pounds an hour", "march is Priya's turn",
    "the dog which is fine", "the place where we met is closing", "pupils use the guest wifi which blocks youtube",
    "my assessor watches one game a month without telling me which", "martin says thanks for sorting the flights",
    "Please note the board meeting moved to Friday.", "milk is on the shopping list",
]


@pytest.mark.parametrize("query", NEEDS)
def test_a_need_in_these_forms_is_read(query: str) -> None:
    assert information_need(query)


@pytest.mark.parametrize("text", REMARKS)
def test_a_remark_in_these_forms_stays_a_statement(text: str) -> None:
    assert not information_need(text)


def test_chat_spellings_of_question_words_are_read_as_the_words() -> None:
    assert plain_spelling("wats the gate code again") == "what's the gate code again"
    assert plain_spelling("where r the spare keys") == "where are the spare keys"
    assert plain_spelling("r u free tmrw") == "are you free tmrw"
    assert plain_spelling("hw much was it") == "how much was it"
    assert plain_spelling("hw due friday") == "hw due friday"  # homework, not "how"
    assert plain_spelling("plan B r us") == "plan B r us"
    assert expected_answer(plain_spelling("wats the gate code again")) == "code"


def test_a_question_word_alone_after_its_subject_has_no_scene() -> None:
    """"the dentist of the kids, which one is": the dentist is what is asked, not a scene (whose values are not the
    ones asked); "the printer is jammed, who do I call?" keeps its scene."""
    assert scene("the dentist of the kids, which one is") == ("", "the dentist of the kids, which one is")
    assert scene("and january, whose turn") == ("", "and january, whose turn")
    assert scene("The printer on floor 3 is jammed, who do I call?") == ("The printer on floor 3 is jammed",
                                                                         "who do I call?")


def test_a_memory_giving_the_thing_asked_another_owner() -> None:
    assert sibling_owner("when's dad's birthday", "mum's birthday 3 March")
    assert sibling_owner("directions to nomsa's place", "Directions to Lindiwe's place: left at the robot.")
    assert not sibling_owner("when's mum's birthday", "mum's birthday 3 March")
    assert not sibling_owner("when's dad's birthday", "Dad's birthday is on 9 May, mum's is 3 March.")
    assert not sibling_owner("what's the gate code", "The gate code is 4471.")


def test_the_decision_reads_the_sibling_owner(embedder: CachedEmbedder) -> None:
    """The learned decision's features say the only served memory is another owner's, in chat's lower case."""
    s = Settings(store=":memory:")
    focus = FocusTest(embedder.encode, s.gap_focus_word_cosine, s.gap_focus_drop, s.gap_weak_cosine,
                      s.gap_weak_word_cosine)
    q = "when's dad's birthday"
    f = gap_model.gap_features(q, _hits(embedder, q, ["mum's birthday 3 March"]), focus=focus,
                               answer_cosine=s.gap_answer_cosine, weak_cosine=s.gap_weak_cosine)
    assert f["best_sibling_owner"] == 1.0 and f["need"] == 1.0


def test_text_speak_reads_the_written_features(embedder: CachedEmbedder) -> None:
    """"wats the gate code again" is read as "what's the gate code again?": a need asking for a code."""
    texts = ["The gate code for the allotment is 1987.", "Bins go out on Thursday night."]
    first, second = read_alike(embedder, ("what's the gate code again?", "wats the gate code again"), texts,
                               ("need", "question", "expects_code", "best_typed", "focus_n"))
    assert first == second and first["need"] == 1.0 and first["expects_code"] == 1.0
