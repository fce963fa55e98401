"""The agent's recall misses (issue: the agent logged plain statements as misses). The agent recalls on every
turn; only a question or request that nothing served could answer is a Gap, and the Gap keeps what was asked."""

from __future__ import annotations

from memgraph.agent import MemoryAgent
from memgraph.agent.policy import is_question

from .conftest import USER


def test_statements_are_never_misses_and_questions_are(open_engine, agents) -> None:  # type: ignore[no-untyped-def]
    engine = open_engine()
    engine.remember_many(
        [
            {"content": "The frontend uses pnpm; never run npm install in that repo."},
            {"content": "The staging database is db-stage-02 on port 5433."},
        ],
        user_id=USER,
    )
    agent = MemoryAgent(engine)
    agents.append(agent)
    turns = [
        "I prefer short answers with code first.",
        "Thanks, that fixed the build.",
        "We merged the onboarding changes this morning.",
        "Which command installs the frontend packages?",  # answered (pnpm), below the similarity threshold
        "What port does the staging database use?",  # answered
        "Great. What is the airspeed velocity of an unladen swallow?",  # a statement and an unanswerable question
    ]
    for text in turns:
        agent.observe(text, user_id=USER, session_id="s1")
    assert agent.drain(120)
    report = agent.end_session(USER, "s1")
    assert report.gaps == ["What is the airspeed velocity of an unladen swallow?"]


def test_the_policy_and_gap_detection_agree_on_questions() -> None:
    assert is_question("how should I indent this file")
    assert is_question("Can I deploy on Friday?")
    assert not is_question("I prefer short answers with code first.")
    assert not is_question("Do the dishes.")
