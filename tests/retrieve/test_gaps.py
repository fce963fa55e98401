"""Gap detection (`retrieve/gaps.py`): what is an information need, when a served memory answers it, and the
issue's newcomer cases end to end with the real model (a Gap is what post-recall maintenance records)."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph import MemoryEngine, Settings
from memgraph.embed import CachedEmbedder
from memgraph.retrieve.gap_values import expected_answer
from memgraph.retrieve.gaps import FocusTest, ServedHit, focus_words, information_need, judge

ANSWER = {"answer_cosine": 0.4, "answer_margin": 0.25}


@pytest.mark.parametrize(
    "text",
    [
        "how should I indent this file?",
        "How should I indent this file",  # a question word first, no closing period
        "Can I deploy atlas this friday?",
        "Tell me the staging database host.",
        "remind me when the dentist is",
        "I prefer short answers. How do I deploy the ledger service?",  # a statement and a question
        "standup time",  # a bare keyword query
        "quantum chromodynamics lattice simulations",
    ],
)
def test_information_needs(text: str) -> None:
    assert information_need(text)


@pytest.mark.parametrize(
    "text",
    [
        "I prefer short answers with code first.",
        "We merged the onboarding changes this morning.",
        "Please keep the explanations brief.",
        "Remind me to buy milk later.",  # a reminder to set, not a question
        "Thanks, that fixed the build.",
        "Thanks!",
        "thanks",
        "Prod is down again.",
        "Give me short bullet points from now on.",  # a standing instruction, not a request to be told
    ],
)
def test_plain_statements_are_not_needs(text: str) -> None:
    assert not information_need(text)


@pytest.mark.parametrize(
    ("query", "kind"),
    [
        ("What time does practice finish?", "time"),
        ("When is Mia's birthday?", "when"),
        ("How often do I feed the starter?", "when"),
        ("How long do we keep backups?", "duration"),
        ("How many GPUs does the box have?", "number"),
        ("How much does the babysitter cost?", "money"),
        ("How much is our rent?", "money"),
        ("Who teaches me piano?", "name"),
        ("What's the name of the restaurant?", "name"),
        ("Where is the on-call schedule?", "place"),
        ("What's the landlord's email address?", "email"),
        ("Which package manager does the frontend use?", None),
    ],
)
def test_expected_answer(query: str, kind: str | None) -> None:
    assert expected_answer(query) == kind


def test_a_similar_memory_without_the_asked_value_does_not_answer() -> None:
    practice = ServedHit("Sam's football practice is on Thursday evenings at the Riverside pitch.", 0.75)
    verdict = judge("What time does Sam's football practice finish?", [practice], **ANSWER)
    assert verdict.miss and verdict.expects == "time" and "time" in verdict.reason
    assert not judge("Where does Sam play football?", [practice], **ANSWER).miss
    assert not judge("When is football practice?", [practice], **ANSWER).miss  # a weekday and a period


def test_values_named_in_the_question_must_be_held() -> None:
    band = ServedHit("My favourite band is Radiohead; I saw them live in 2017.", 0.47)
    assert judge("Which Radiohead album came out in 1997?", [band], **ANSWER).miss
    assert not judge("When did I see Radiohead live?", [band], **ANSWER).miss
    team = ServedHit("I coach the under-11s football team on Saturday mornings at Hill Park.", 0.6)
    assert judge("How many players are on the under-11s team?", [team], **ANSWER).miss  # 11 is its own number
    target = ServedHit("The Q3 sales target for my team is 1.2 million pounds.", 0.8)
    assert judge("What's the Q4 target?", [target], **ANSWER).miss
    assert not judge("What's our Q3 target?", [target], **ANSWER).miss


def test_only_memories_close_to_the_best_are_candidate_answers() -> None:
    served = [
        ServedHit("Sam's football practice is on Thursday evenings at the Riverside pitch.", 0.75),
        # a clock time, far off (it names Sam: whose lessons are asked)
        ServedHit("Sam's swimming lessons are at the leisure centre on Saturday at 9:00.", 0.42),
    ]
    assert judge("What time does Sam's football practice finish?", served, **ANSWER).miss
    assert not judge("What time does Sam's football practice finish?", served, answer_cosine=0.4,
                     answer_margin=0.5).miss


def test_ordinal_years_and_decimal_prices_answer() -> None:
    study = ServedHit("I study computer science at Leeds, second year.", 0.6)
    assert not judge("What year am I in?", [study], **ANSWER).miss
    bun = ServedHit("Our best seller is the cardamom bun, 3.20 each.", 0.7)  # a price, not 3:20
    assert not judge("How much is a cardamom bun?", [bun], **ANSWER).miss
    assert judge("What time does the bakery open?", [bun], **ANSWER).miss


def test_calendar_words_and_role_like_words_are_not_people() -> None:
    account = ServedHit("My biggest account is Northwind, renewal due in November.", 0.51)
    assert judge("Who is our contact at Northwind?", [account], **ANSWER).miss  # 'account' is no 'accountant'
    deadline = ServedHit("The Atlas launch deadline is Wednesday 12 March.", 0.54)
    assert judge("Who is the product manager for Atlas?", [deadline], **ANSWER).miss  # a weekday is no name
    assert not judge("Who is our accountant?", [ServedHit("Our accountant is at Baker & Co.", 0.7)], **ANSWER).miss
    assert not judge("Who walks the dog?", [ServedHit("The neighbours walk the dog on Mondays.", 0.6)], **ANSWER).miss


def test_statements_and_empty_results() -> None:
    assert not judge("I prefer short answers with code first.", [], **ANSWER).miss
    assert judge("What is the airspeed velocity of an unladen swallow?", [], **ANSWER).miss
    far = ServedHit("The invoice template is in the shared drive.", 0.1)
    assert judge("quantum chromodynamics lattice simulations", [far], **ANSWER).miss


def _gaps(mem: MemoryEngine, user: str) -> int:
    mem.flush()
    return sum(g.count for g in mem.store.list_gaps(user))


def test_newcomer_cases_end_to_end(mem: MemoryEngine) -> None:
    """The issue: an answered question (pnpm) was logged as a miss; the agent logged plain statements."""
    mem.remember_many(
        [
            {"content": "The frontend uses pnpm; never run npm install in that repo."},
            {"content": "I prefer tabs over spaces in Python."},
            {"content": "Sam's football practice is on Thursday evenings at the Riverside pitch."},
        ],
        user_id="u",
    )
    # found by its words (cosine 0.38, under the similarity threshold): the old rule logged it as a miss
    res = mem.recall("which command installs frontend packages?", user_id="u")
    assert any("pnpm" in m.content for m in res.memories)
    assert _gaps(mem, "u") == 0
    mem.recall("I prefer short answers with code first.", user_id="u")
    mem.recall("Thanks, that fixed the build.", user_id="u")
    assert _gaps(mem, "u") == 0
    mem.recall("What time does Sam's football practice finish?", user_id="u")  # on topic, never stored
    assert _gaps(mem, "u") == 1
    mem.recall("What is the airspeed velocity of an unladen swallow?", user_id="u")
    assert _gaps(mem, "u") == 2
    (verdict,) = {mem._maintainer.is_miss(_served(mem, "u", "how should I indent this python file?")).miss}
    assert verdict is False


def _served(mem: MemoryEngine, user: str, query: str):  # type: ignore[no-untyped-def]
    from memgraph.retrieve.maintenance import ServedRecall

    res = mem.recall(query, user_id=user)
    mem.flush()
    return ServedRecall(user, query, [m.id for m in res.memories], [], False, mem.embed([query])[0])


@pytest.mark.parametrize(
    ("query", "focus"),
    [
        ("Does the Lisbon hotel have parking?", ["hotel", "parking"]),  # the name is the subject, not the focus
        ("What's the SLA for the Nimbus API?", ["sla", "api"]),  # an acronym is kept
        ("How much does the babysitter cost?", ["babysitter"]),  # the question's verb is said otherwise
        ("How do I ship the release of Atlas?", ["release"]),
        ("Should I use pandas for the new pipeline?", ["pandas"]),  # "the new pipeline": at hand
        ("how should I indent this python file?", []),  # its verb, and "this python file": the thing at hand
        ("What time does school finish?", ["school", "finish"]),
    ],
)
def test_focus_words(query: str, focus: list[str]) -> None:
    assert focus_words(query) == focus


def _hits(embedder: CachedEmbedder, query: str, texts: list[str]) -> list[ServedHit]:
    vecs = np.asarray(embedder.encode([query, *texts]), dtype=np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    return [ServedHit(t, float(v @ vecs[0])) for t, v in zip(texts, vecs[1:], strict=True)]


def test_a_memory_on_the_topic_that_does_not_say_the_focus_does_not_answer(embedder: CachedEmbedder) -> None:
    s = Settings(store=":memory:")
    focus = FocusTest(embedder.encode, s.gap_focus_word_cosine, s.gap_focus_drop, s.gap_weak_cosine,
                      s.gap_weak_word_cosine)
    answer = {"answer_cosine": s.gap_answer_cosine, "answer_margin": s.gap_answer_margin}

    def miss(query: str, texts: list[str], with_focus: bool = True) -> bool:
        return judge(query, _hits(embedder, query, texts), **answer, focus=focus if with_focus else None).miss

    hotel = [
        "The Lisbon hotel is Casa do Largo in Alfama, booked for 4 nights.",
        "Check-in at Casa do Largo is from 15:00.",
    ]
    assert miss("Does the Lisbon hotel have parking?", hotel)
    assert not miss("Does the Lisbon hotel have parking?", hotel, with_focus=False)  # what the lexical rules said
    assert miss("What's the SLA for the Nimbus API?", ["The Nimbus API rate limit is 600 requests per minute."])
    # covered in other words, or across two served memories
    assert not miss("Can I take amoxicillin?", ["I'm allergic to penicillin."])
    assert not miss("What time can I check in at the Lisbon hotel?", hotel)
    # a weak match (cosine 0.34, under gap_answer_cosine) that names what is asked by a close word answers
    gp = ["Our family doctor is Dr. Chen at Parkway Surgery.", "Sam's shoe size is 34."]
    assert not miss("Who is our GP?", gp)
    assert miss("Who is our GP?", gp, with_focus=False)
