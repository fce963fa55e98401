"""Recall searches for the request inside a pasted message, not for its greeting and sign-off."""

from __future__ import annotations

from memgraph import MemoryEngine


def test_a_pasted_message_recalls_what_it_asks(engine: MemoryEngine) -> None:
    """An agent passes the user's whole message as the query: the names in its greeting and sign-off (Sam, Noor)
    seeded the memories about them ahead of the answer."""
    u = "envelope"
    standup = engine.remember("The team standup is at 9:30 in the Blue room.", user_id=u)
    engine.remember("Sam is the new designer on the mobile team.", user_id=u)
    engine.remember("Noor prefers short answers with code first.", user_id=u)
    engine.remember("Sam and Noor are running the retro on Friday.", user_id=u)
    res = engine.recall("Hi Sam,\n\nwhat time is standup again?\n\nThanks,\nNoor", user_id=u, top_k=3)
    assert res.memories and res.memories[0].id == standup.id
    plain = engine.recall("what time is standup again?", user_id=u, top_k=3)
    assert [m.id for m in res.memories] == [m.id for m in plain.memories]
