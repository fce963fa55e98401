"""Topic-change detection: consecutive contexts below cosine 0.3 reset the surfaced set; within a topic a memory
is surfaced once."""

from __future__ import annotations

import numpy as np

from memgraph.agent import MemoryAgent
from memgraph.agent.topic import TopicTracker

from .conftest import USER

CAT = "Ada's cat is called Miso and loves sardines."
DB = "The staging database is db-stage-02 on port 5433."


def test_tracker_resets_surfaced_below_the_threshold() -> None:
    t = TopicTracker(0.3)
    key = (USER, "s")
    a = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    near = np.array([0.9, 0.3, 0.0], dtype=np.float32)  # cosine 0.95
    far = np.array([0.2, 0.0, 1.0], dtype=np.float32)  # cosine 0.196 to `near`
    assert t.observe(key, a) == (False, None)
    t.mark_surfaced(key, ["m1"])
    changed, sim = t.observe(key, near)
    assert not changed and sim is not None and sim > 0.9
    assert t.unseen(key, ["m1", "m2"]) == ["m2"]
    changed, sim = t.observe(key, far)
    assert changed and sim is not None and sim < 0.3
    assert t.unseen(key, ["m1", "m2"]) == ["m1", "m2"]
    assert t.state(key).topic == 1
    assert t.unseen((USER, "other"), ["m1"]) == ["m1"]  # sessions do not share topics


def ids_of(result) -> list[str]:
    return [] if result is None else [m.id for m in result.memories]


def test_surfaced_once_per_topic_and_again_after_a_topic_change(open_engine, agents) -> None:
    engine = open_engine()
    mems = engine.remember_many([{"content": CAT}, {"content": DB}], user_id=USER)
    cat, db = (m.id for m in mems)
    agent = MemoryAgent(engine)
    agents.append(agent)

    def turn(text: str):
        agent.observe(text, user_id=USER, session_id="s1")
        return agent.take_pending(user_id=USER, session_id="s1", timeout=60)

    assert cat in ids_of(turn("My cat Miso has been sneezing all week."))
    # same topic (cosine 0.86): the cat memory was surfaced already and is not handed over again
    assert cat not in ids_of(turn("Should I take my cat Miso to the vet for the sneezing?"))
    assert agent.stats.topic_changes == 0
    # new topic (cosine -0.1): the surfaced set resets
    assert db in ids_of(turn("How do I connect to the staging database from my laptop?"))
    assert agent.stats.topic_changes == 1
    # back to the cat: another topic change, so the cat memory may surface again
    assert cat in ids_of(turn("My cat Miso is sneezing again, poor thing."))
    assert agent.stats.topic_changes == 2


def test_memories_not_taken_are_not_counted_as_surfaced(open_engine, agents) -> None:
    engine = open_engine()
    (cat,) = (m.id for m in engine.remember_many([{"content": CAT}], user_id=USER))
    agent = MemoryAgent(engine)
    agents.append(agent)
    agent.observe("My cat Miso has been sneezing all week.", user_id=USER, session_id="s1")
    assert agent.drain(60)
    # the caller skipped take_pending at this turn; the next turn in the same topic still offers the memory
    agent.observe("Should I take my cat Miso to the vet for the sneezing?", user_id=USER, session_id="s1")
    assert cat in ids_of(agent.take_pending(user_id=USER, session_id="s1", timeout=60))
    assert agent.stats.surfaced == 1
