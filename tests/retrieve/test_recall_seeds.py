"""Stage 1: seeds from vector + full text, fused (fusion.py), filtered inside the store."""

from __future__ import annotations

import pytest

from memgraph import MemoryEngine, Settings
from memgraph.errors import ValidationError
from memgraph.retrieve.fusion import convex_fuse, floored, fuse_lists, minmax, rrf_fuse


def test_rrf_fuse_scores_and_order() -> None:
    fused = rrf_fuse([[("a", 0.9), ("b", 0.8)], [("b", 5.0), ("c", 1.0)]], 60)
    scores = dict(fused)
    assert scores["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert scores["a"] == pytest.approx(1 / 61)
    assert scores["c"] == pytest.approx(1 / 62)
    assert [mid for mid, _ in fused] == ["b", "a", "c"]
    weighted = dict(rrf_fuse([[("a", 1)], [("c", 1)]], 60, weights=[1.0, 2.0]))
    assert weighted["c"] == pytest.approx(2 / 61)


def test_convex_fusion_keeps_how_far_apart_the_scores_are() -> None:
    assert minmax([("a", 0.8), ("b", 0.6), ("c", 0.4)]) == pytest.approx({"a": 1.0, "b": 0.5, "c": 0.0})
    assert minmax([("a", 0.5), ("b", 0.5)]) == {"a": 1.0, "b": 1.0}
    assert floored([("a", 0.8), ("b", 0.6)], 0.4) == pytest.approx({"a": 1.0, "b": 0.5})
    vector = [("b", 0.80), ("a", 0.79), ("c", 0.41), ("e", 0.40)]
    text = [("c", 9.0), ("b", 1.0), ("d", 0.5)]
    fused = dict(convex_fuse([vector, text], [0.4, 0.6]))
    assert fused["c"] == pytest.approx(0.4 * 0.01 / 0.40 + 0.6)  # the clear text winner, low in the vector list
    assert fused["b"] == pytest.approx(0.4 + 0.6 * 0.5 / 8.5)
    # RRF with equal weights puts b (ranks 1 and 2) above c (ranks 3 and 1): ranks forget that 9.0 >> 1.0
    assert [mid for mid, _ in rrf_fuse([vector, text], 60)][:2] == ["b", "c"]
    assert [mid for mid, _ in convex_fuse([vector, text], [0.4, 0.6])][:2] == ["c", "b"]
    with pytest.raises(ValueError):
        convex_fuse([vector], [0.5, 0.5])


def test_fuse_lists_weighs_text_lists_and_scoped_lists_by_their_own_weight() -> None:
    s = Settings(store=":memory:", fusion_text_weight=0.7, fusion_scoped_text_weight=0.4)
    lists = {"vector": [("a", 0.9)], "text": [("b", 3.0)], "text@speaker:ada": [("a", 1.0)]}
    assert dict(fuse_lists(lists, s)) == pytest.approx({"a": 0.3 + 0.4, "b": 0.7})
    # a scoped vector list weighs the rest of the scoped weight: the cue-stripped query's own vector
    scoped_vec = dict(fuse_lists({"vector@speaker:ada": [("c", 0.5)], "text": [("b", 3.0)]}, s))
    assert scoped_vec == pytest.approx({"c": 0.6, "b": 0.7})
    assert dict(fuse_lists({"vector": [("a", 0.9)], "text": []}, s)) == pytest.approx({"a": 0.3})
    rrf = dict(fuse_lists({"vector": [("a", 0.9)], "text": [("b", 3.0)]}, s.model_copy(update={"fusion": "rrf"})))
    assert rrf == pytest.approx({"a": 1 / 61, "b": 1 / 61})


def test_engine_search_uses_the_same_fusion(quiet: MemoryEngine) -> None:
    quiet.remember("The deploy script lives in tools/release.sh", user_id="u")
    hits = quiet.search("where is the deploy script", user_id="u", k=3)
    assert hits and "deploy" in hits[0].memory.content
    # one memory: each list's min-max normalised score is 1, so the fused score is the weight of its lists
    w = quiet.settings.fusion_text_weight
    assert hits[0].score == pytest.approx(
        ((1 - w) if hits[0].vector_score is not None else 0) + (w if hits[0].text_score is not None else 0)
    )


def _seed_world(eng: MemoryEngine) -> dict[str, str]:
    ids = {}
    ids["lexical"] = eng.remember("Zorblax-7 is the codename of the billing rewrite", user_id="u").id
    ids["semantic"] = eng.remember("My dog loves running on the beach every morning", user_id="u").id
    ids["other"] = eng.remember("The office coffee machine is broken again", user_id="u").id
    return ids


def test_modes_use_their_lists(quiet: MemoryEngine) -> None:
    ids = _seed_world(quiet)
    lex = quiet.recall("zorblax-7", user_id="u", mode="lexical")
    assert [m.id for m in lex.memories] == [ids["lexical"]]
    assert lex.trace[0].text_score is not None and lex.trace[0].vector_score is None
    sem = quiet.recall("my puppy enjoys the seaside", user_id="u", mode="semantic")
    assert sem.memories[0].id == ids["semantic"]
    assert sem.trace[0].vector_score is not None and sem.trace[0].text_score is None
    assert all(t.vector_score >= 0.4 for t in sem.trace)  # similarity threshold
    hyb = quiet.recall("my dog loves running on the beach, zorblax-7", user_id="u", mode="hybrid", top_k=3)
    got = {m.id for m in hyb.memories}
    assert ids["lexical"] in got and ids["semantic"] in got
    assert all(not t.path for t in hyb.trace)  # hybrid never walks the graph


def test_filters_are_applied(quiet: MemoryEngine) -> None:
    keep = quiet.remember("Ada prefers tea over coffee", user_id="u", kind="preference")
    fact = quiet.remember("Ada drinks coffee at the office", user_id="u", kind="fact")
    gone = quiet.remember("Ada once drank coffee with milk", user_id="u")
    quiet.forget(gone.id, user_id="u")
    quiet.remember("Coffee is what Bob drinks", user_id="bob")
    res = quiet.recall("coffee", user_id="u", top_k=10, mode="hybrid")
    got = {m.id for m in res.memories}
    assert got == {keep.id, fact.id}  # not the forgotten one, never another user's
    only_pref = quiet.recall("coffee", user_id="u", kinds=["preference"], mode="hybrid")
    assert [m.id for m in only_pref.memories] == [keep.id]


def test_archived_only_when_asked(quiet: MemoryEngine) -> None:
    from memgraph.store import MemoryUpdate

    m = quiet.remember("The staging database runs on port 5433", user_id="u")
    quiet.store.update_memories("u", [MemoryUpdate(id=m.id, set={"archived": True})])
    assert quiet.recall("staging database port", user_id="u").memories == []
    res = quiet.recall("staging database port", user_id="u", include_archived=True)
    assert [x.id for x in res.memories] == [m.id]


def test_low_importance_is_not_recalled(quiet: MemoryEngine) -> None:
    quiet.remember_many(
        [{"content": "The wifi password hint is on the fridge", "importance": 0.1}], user_id="u"
    )
    assert quiet.recall("wifi password hint", user_id="u").memories == []


def test_project_scope_globs(quiet: MemoryEngine) -> None:
    py = quiet.remember(
        "Use ruff, not flake8, for linting",
        user_id="u",
        scope="project",
        file_paths=["src/*.py", "tests/*.py"],
    )
    js = quiet.remember("Use eslint for linting", user_id="u", scope="project", file_paths=["web/**/*.ts"])
    glob = quiet.remember("Linting runs in CI on every push", user_id="u")
    for_py = {
        m.id for m in quiet.recall("linting", user_id="u", files=["src/app/main.py"], top_k=10).memories
    }
    assert for_py == {py.id, glob.id}
    for_ts = {
        m.id for m in quiet.recall("linting", user_id="u", scope=["web/ui/button.ts"], top_k=10).memories
    }
    assert for_ts == {js.id, glob.id}
    everything = {m.id for m in quiet.recall("linting", user_id="u", top_k=10).memories}
    assert everything == {py.id, js.id, glob.id}


def test_bad_input_is_a_typed_error(quiet: MemoryEngine) -> None:
    with pytest.raises(ValidationError):
        quiet.recall("", user_id="u")
    with pytest.raises(ValidationError):
        quiet.recall("x", user_id="u", mode="fuzzy")
    with pytest.raises(ValidationError):
        quiet.recall("x", user_id="u", top_k=0)
    with pytest.raises(ValidationError):
        quiet.recall("x", user_id="u", kinds=["nonsense"])
    with pytest.raises(ValidationError):
        quiet.recall("x", user_id=None)  # type: ignore[arg-type]


def test_recalled_memories_share_nothing_with_the_store(quiet: MemoryEngine) -> None:
    """Recall scores the SQLite store's cached rows without copying them and copies only what it returns:
    changing a returned memory (its tags, metadata, fields) changes nothing the next recall or read sees."""
    eng = quiet
    mid = eng.remember(
        "Ada paints watercolours every Sunday", user_id="u", tags=["speaker:ada"], metadata={"k": {"n": [1]}}
    ).id
    first = eng.recall("what does Ada paint", user_id="u", mode="cascade").memories
    got = next(m for m in first if m.id == mid)
    got.tags.append("changed")
    got.metadata["k"]["n"].append(2)
    got.metadata["new"] = 1
    got.content = "changed"
    for again in (eng.recall("what does Ada paint", user_id="u", mode="cascade").memories, eng.get(mid, user_id="u")):
        m = next(x for x in again if x.id == mid) if isinstance(again, list) else again
        assert m.content == "Ada paints watercolours every Sunday"
        assert "changed" not in m.tags and m.metadata == {"k": {"n": [1]}}
