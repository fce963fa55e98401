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
        [__import__("memgraph.store", fromlist=["MemoryUpdate"]).MemoryUpdate(id=a.id, set={"confidence": 0.5})],
    )
    before = mem.get(a.id, user_id="u")
    res = mem.recall("when is team lunch", user_id="u")
    assert res.memories[0].id == a.id
    mem.flush()
    after = mem.get(a.id, user_id="u")
    assert after.access_count == before.access_count + 1
    # the decay clock (also the store walk's order among a tag's members) is not restarted by a serve
    assert after.last_accessed == before.last_accessed
    # serving does not change how the next recall ranks it (recall_confidence_boost 0; feedback does)
    assert after.confidence == pytest.approx(0.5)
    assert after.updated_at == before.updated_at  # recency counts from the last write, not the last serve


def test_only_the_top_hits_are_credited(mem: MemoryEngine) -> None:
    mems = mem.remember_many(
        [{"content": f"Sourdough note {i}: feed the starter with rye flour and water"} for i in range(6)],
        user_id="u",
    )
    res = mem.recall("sourdough starter rye", user_id="u", top_k=6)
    mem.flush()
    assert len(res.memories) == 6
    counts = {m.id: m.access_count for m in mem.store.get_memories("u", [m.id for m in mems])}
    top = [t.memory_id for t in sorted(res.trace, key=lambda t: -t.final_score)][: mem.settings.co_recall_top]
    assert {mid for mid, c in counts.items() if c == 1} == set(top)  # the rest only rode along
    assert sum(counts.values()) == mem.settings.co_recall_top


def test_co_recall_links_what_feedback_confirmed(mem: MemoryEngine) -> None:
    a = mem.remember("Project Falcon ships in March", user_id="u")
    b = mem.remember("Project Falcon's lead is Priya", user_id="u")
    c = mem.remember("The Falcon budget is 40k", user_id="u")
    mem.recall("project falcon", user_id="u", top_k=3)
    mem.flush()
    assert mem.store.get_links("u", relations=[Relation.RELATES_TO]) == []  # being served is not being used
    mem.feedback(a.id, True, user_id="u")
    assert mem.store.get_links("u", relations=[Relation.RELATES_TO]) == []  # one used memory: no pair yet
    mem.feedback(b.id, True, user_id="u")
    (link,) = mem.store.get_links("u", relations=[Relation.RELATES_TO])
    assert {link.src, link.dst} == {a.id, b.id} and link.source is LinkSource.CO_RECALL
    assert link.weight == pytest.approx(mem.settings.co_recall_increment)
    mem.feedback(c.id, False, user_id="u")  # unhelpful: no link
    mem.feedback(a.id, True, user_id="u")  # twice for one recall counts once
    assert len(mem.store.get_links("u", relations=[Relation.RELATES_TO])) == 1
    s = mem.settings
    for _ in range(30):  # used together again and again: bounded, it saturates below the cap
        mem.recall("project falcon", user_id="u", top_k=3)
        mem.feedback(a.id, True, user_id="u")
        mem.feedback(b.id, True, user_id="u")
    mem.flush()
    (link,) = mem.store.get_links("u", relations=[Relation.RELATES_TO])
    assert 0.25 < link.weight <= s.co_recall_max_weight


def test_feedback_on_a_memory_the_last_recall_did_not_serve_links_nothing(mem: MemoryEngine) -> None:
    a = mem.remember("The boat leaves at 7", user_id="u")
    b = mem.remember("Sunscreen is in the blue bag", user_id="u")
    mem.recall("when does the boat leave", user_id="u", top_k=1)
    mem.feedback(a.id, True, user_id="u")
    mem.feedback(b.id, True, user_id="u")  # not served by that recall
    assert mem.store.get_links("u", relations=[Relation.RELATES_TO]) == []


def test_co_recall_weight_decays_then_saturates(mem: MemoryEngine) -> None:
    m, s = mem._maintainer, mem.settings
    assert m.co_recall_weight(None, 0.0) == pytest.approx(s.co_recall_increment)
    # an edge last strengthened one half-life ago counts half, then moves 1/10 of the way to the cap
    half = 0.2 * 0.5
    assert m.co_recall_weight(0.2, s.co_recall_half_life_days) == pytest.approx(half + 0.1 * (0.3 - half) / 0.3)
    w = 0.0
    for _ in range(200):
        w = m.co_recall_weight(w, 0.0)
    assert w <= s.co_recall_max_weight and w == pytest.approx(s.co_recall_max_weight, abs=1e-6)
    assert m.co_recall_weight(0.9, 0.0) <= s.co_recall_max_weight  # an old, heavier edge is brought under the cap


def test_co_recall_never_changes_an_edge_of_another_source(mem: MemoryEngine) -> None:
    a = mem.remember("Oslo trip: flights booked", user_id="u")
    b = mem.remember("Oslo trip: hotel near the harbour", user_id="u")
    mem.link(b.id, a.id, user_id="u", weight=0.95)
    mem.recall("oslo trip", user_id="u", top_k=2)
    mem.feedback(a.id, True, user_id="u")
    mem.feedback(b.id, True, user_id="u")
    (link,) = mem.store.get_links("u", [a.id], relations=[Relation.RELATES_TO])
    assert (link.src, link.dst, link.source) == (b.id, a.id, LinkSource.EXPLICIT)
    assert link.weight == pytest.approx(0.95)


def test_links_from_the_top_hits_when_configured(embedder) -> None:
    """co_recall_from='top': the top hits the query itself found are linked without feedback (bounded too)."""
    from tests.retrieve.conftest import make_engine

    eng = make_engine(embedder, co_recall_from="top")
    try:
        eng.remember_many([{"content": f"Bread recipe variant {i} with rye flour"} for i in range(6)], user_id="u")
        eng.recall("rye bread recipe", user_id="u", top_k=6)
        eng.flush()
        top = eng.settings.co_recall_top
        links = eng.store.get_links("u", relations=[Relation.RELATES_TO])
        assert len(links) == top * (top - 1) // 2
        assert all(lk.weight == pytest.approx(eng.settings.co_recall_increment) for lk in links)
    finally:
        eng.flush()
        eng._maintainer.close()
        eng.store.close()


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


def test_the_graph_cannot_reinforce_its_own_choices(embedder) -> None:
    """With co_recall_from='top', a credited memory the cascade brought (not one of the query's own hits) is
    counted, never co-linked."""
    from memgraph.retrieve.maintenance import ServedRecall
    from tests.retrieve.conftest import make_engine

    eng = make_engine(embedder, co_recall_from="top")
    try:
        a, b, c = (
            eng.remember(t, user_id="u")
            for t in ("Kayak trip on Saturday", "Kayak rental costs 40 euros", "Bring the dry bags")
        )
        eng._maintainer.apply(
            ServedRecall(
                user_id="u",
                query="kayak",
                served=[a.id, b.id, c.id],
                ranked=[a.id, c.id, b.id],
                gap=False,
                query_vector=None,
                direct={a.id, b.id},
            )
        )
        links = eng.store.get_links("u", relations=[Relation.RELATES_TO])
        assert [{lk.src, lk.dst} for lk in links] == [{a.id, b.id}]
        assert all(m.access_count == 1 for m in eng.store.get_memories("u", [a.id, b.id, c.id]))
    finally:
        eng._maintainer.close()
        eng.store.close()


def test_maintenance_catches_the_sqlite_read_structures_up(mem: MemoryEngine) -> None:
    """After a recall's maintenance writes, the SQLite store's in-memory structures (and its cached rows of the
    credited memories) are already caught up: the next recall re-reads nothing."""
    store = mem.store
    assert isinstance(store, SQLiteStore)
    a = mem.remember("The team lunch is on Thursdays at noon", user_id="u")
    mem.remember("The standup moved to 9:30", user_id="u")
    assert mem.recall("when is team lunch", user_id="u").memories[0].id == a.id
    mem.flush()
    mirror = store._mirror
    with store._db.reading() as conn:
        assert mirror._pos == mirror._position(conn)[0]  # the maintenance's writes are in
    with mirror._lock:
        entry = mirror._users["u"].memo.entries.get(a.id)
    assert entry is not None and entry[0].access_count == 1  # the credited row re-read, not dropped


def test_closing_the_engine_runs_queued_maintenance_then_accepts_none(
    embedder: object, caplog: pytest.LogCaptureFixture
) -> None:
    """A recall's maintenance runs before the store closes; one submitted after close is dropped, not run on a
    closed store (it used to start a new worker that failed with "Cannot operate on a closed database")."""
    from memgraph.retrieve.maintenance import ServedRecall

    eng = MemoryEngine(SQLiteStore(":memory:"), Settings(store=":memory:"), embedder)  # type: ignore[arg-type]
    m = eng.remember("The team lunch is on Thursdays at noon", user_id="u")
    eng.recall("when is team lunch", user_id="u")
    maintainer = eng._maintainer
    eng.close()
    assert maintainer.errors == []
    late = ServedRecall(user_id="u", query="when is lunch", served=[m.id], ranked=[m.id], gap=False, query_vector=None)
    with caplog.at_level("WARNING"):
        maintainer.submit(late)
        maintainer.flush()
    assert maintainer._executor is None
    assert maintainer.errors == [] and "maintenance failed" not in caplog.text
