"""Stages 6-7: modes, graceful degradation, and what a served recall teaches the graph."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph import LinkSource, MemoryEngine, Relation, Settings
from memgraph.errors import NotFoundError, ValidationError
from memgraph.store.sqlite import SQLiteStore


def test_access_counts_and_confidence_after_serving(mem: MemoryEngine) -> None:
    a = mem.remember("The team lunch is on Thursdays at noon", user_id="u")
    mem.store.update_memories(
        "u",
        [
            __import__("memgraph.store", fromlist=["MemoryUpdate"]).MemoryUpdate(
                id=a.id, set={"confidence": 0.5}
            )
        ],
    )
    before = mem.get(a.id, user_id="u")
    res = mem.recall("when is team lunch", user_id="u")
    assert res.memories[0].id == a.id
    mem.flush()
    after = mem.get(a.id, user_id="u")
    assert after.access_count == before.access_count + 1
    assert after.last_accessed > before.last_accessed
    assert after.confidence == pytest.approx(0.5 + mem.settings.feedback_boost)


def test_co_recall_strengthens_relates_to(mem: MemoryEngine) -> None:
    a = mem.remember("Project Falcon ships in March", user_id="u")
    b = mem.remember("Project Falcon's lead is Priya", user_id="u")
    mem.recall("project falcon", user_id="u", top_k=2)
    mem.flush()
    links = mem.store.get_links("u", [a.id], relations=[Relation.RELATES_TO])
    assert len(links) == 1
    link = links[0]
    assert {link.src, link.dst} == {a.id, b.id}
    assert link.source is LinkSource.CO_RECALL
    assert link.weight == pytest.approx(mem.settings.co_recall_increment)
    mem.recall("project falcon", user_id="u", top_k=2)
    mem.flush()
    again = mem.store.get_links("u", [a.id], relations=[Relation.RELATES_TO])
    assert len(again) == 1 and again[0].weight == pytest.approx(2 * mem.settings.co_recall_increment)


def test_co_recall_keeps_an_existing_edge_source_and_caps_at_one(mem: MemoryEngine) -> None:
    a = mem.remember("Oslo trip: flights booked", user_id="u")
    b = mem.remember("Oslo trip: hotel near the harbour", user_id="u")
    mem.link(b.id, a.id, user_id="u", weight=0.95)
    mem.recall("oslo trip", user_id="u", top_k=2)
    mem.flush()
    (link,) = mem.store.get_links("u", [a.id], relations=[Relation.RELATES_TO])
    assert (link.src, link.dst, link.source) == (b.id, a.id, LinkSource.EXPLICIT)
    assert link.weight == pytest.approx(1.0)


def test_co_recall_is_limited_to_the_top_memories(mem: MemoryEngine) -> None:
    mem.remember_many(
        [{"content": f"Bread recipe variant {i} with rye flour"} for i in range(6)], user_id="u"
    )
    mem.recall("rye bread recipe", user_id="u", top_k=6)
    mem.flush()
    top = mem.settings.co_recall_top
    assert len(mem.store.get_links("u", relations=[Relation.RELATES_TO])) == top * (top - 1) // 2


def test_gap_is_recorded_and_deduplicated(mem: MemoryEngine) -> None:
    mem.remember("The invoice template is in the shared drive", user_id="u")
    mem.recall("quantum chromodynamics lattice simulations", user_id="u")
    mem.flush()
    (gap,) = mem.store.list_gaps("u")
    assert gap.count == 1 and "quantum" in gap.query
    mem.recall("lattice simulations of quantum chromodynamics", user_id="u")
    mem.flush()
    (gap,) = mem.store.list_gaps("u")
    assert gap.count == 2
    mem.recall("medieval french poetry and troubadours", user_id="u")
    mem.flush()
    assert len(mem.store.list_gaps("u")) == 2
    mem.recall("invoice template location", user_id="u")
    mem.flush()
    assert len(mem.store.list_gaps("u")) == 2  # a hit is not a gap


def test_feedback(mem: MemoryEngine) -> None:
    from memgraph.store import MemoryUpdate

    a = mem.remember("Standups are at 9:30", user_id="u")
    mem.store.update_memories("u", [MemoryUpdate(id=a.id, set={"confidence": 0.5})])
    up = mem.feedback(a.id, True, user_id="u")
    assert up.strength == a.strength + 1 and up.confidence == pytest.approx(0.55)
    down = mem.feedback(a.id, False, user_id="u")
    assert down.strength == up.strength and down.confidence == pytest.approx(0.45)
    with pytest.raises(NotFoundError):
        mem.feedback("m_missing", True, user_id="u")
    with pytest.raises(NotFoundError):
        mem.feedback(a.id, True, user_id="someone-else")
    with pytest.raises(ValidationError):
        mem.feedback(a.id, "yes", user_id="u")  # type: ignore[arg-type]


def test_no_maintenance_when_switched_off(quiet: MemoryEngine) -> None:
    a = quiet.remember("Bikes go in the basement", user_id="u")
    quiet.recall("where do bikes go", user_id="u")
    quiet.flush()
    assert quiet.get(a.id, user_id="u").access_count == 0


def test_missing_model_degrades_to_lexical(tmp_path) -> None:
    settings = Settings(store=":memory:", embedding_model_path=str(tmp_path / "no-such-model"))
    eng = MemoryEngine(SQLiteStore(":memory:"), settings)
    try:
        vec = np.zeros(384, dtype=np.float32)
        vec[0] = 1.0
        m = eng.remember("The boiler service is due in October", user_id="u", embedding=vec.tolist())
        for mode in ("cascade", "hybrid", "semantic", "lexical"):
            res = eng.recall("boiler service", user_id="u", mode=mode)
            assert [x.id for x in res.memories] == [m.id]
            assert res.mode == "lexical"
            if mode != "lexical":
                assert any("embedder unavailable" in w for w in res.warnings)
            assert res.total_tokens > 0  # approximate count, said so
            assert any("approximate" in w for w in res.warnings)
        eng.flush()
    finally:
        eng.close()
