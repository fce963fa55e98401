"""Stages 3-5: ranking factors, layers and their order, trigger patterns, the token budget, the result."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memgraph import MemoryEngine, Settings
from memgraph.embed import CachedEmbedder
from memgraph.models import Memory, MemoryKind, RecallResult, utcnow
from memgraph.retrieve.layers import trigger_matches
from memgraph.retrieve.rank import Scored, effective_confidence, is_question, rank, recency_boost, score
from memgraph.retrieve.subject import non_subjects
from tests.retrieve.conftest import make_engine


def test_confidence_decays_by_kind_half_life() -> None:
    s = Settings()
    now = utcnow()
    then = now - timedelta(days=30)
    fact = Memory(id="a", user_id="u", content="x", kind=MemoryKind.FACT, last_accessed=then, updated_at=then)
    pref = fact.model_copy(update={"kind": MemoryKind.PREFERENCE})
    pinned = fact.model_copy(update={"pinned": True})
    assert effective_confidence(fact, now, s) == pytest.approx(math.exp(-30 / 30))
    assert effective_confidence(pref, now, s) == pytest.approx(math.exp(-30 / 90))
    assert effective_confidence(pinned, now, s) == pytest.approx(1.0)


def test_recency_boost_formula() -> None:
    s = Settings()
    now = utcnow()
    fresh = Memory(id="a", user_id="u", content="x", updated_at=now, last_accessed=now)
    day_old = fresh.model_copy(update={"updated_at": now - timedelta(hours=24)})
    assert recency_boost(fresh, now, s) == pytest.approx(1.5)
    assert recency_boost(day_old, now, s) == pytest.approx(1 + 0.5 * math.exp(-1))
    # from the last write: being served (last_accessed) does not make a memory recent
    assert recency_boost(day_old.model_copy(update={"last_accessed": now}), now, s) == recency_boost(day_old, now, s)


def test_score_blends_importance_and_cues() -> None:
    s = Settings()
    now = utcnow()
    m = Memory(id="a", user_id="u", content="x", importance=1.0, tags=["speaker:ada"], last_accessed=now)
    sc = score(m, 2.0, now, s, {"speaker:ada", "date:2024-01-01"})
    assert sc.matched_tags == ["speaker:ada"]
    assert sc.cue_factor == pytest.approx(1.0 + s.cue_boost)
    assert sc.final == pytest.approx(2.0 * sc.confidence * 1.5 * 1.0 * (1.0 + s.cue_boost))
    both = m.model_copy(update={"tags": ["speaker:ada", "date:2024-01-01"]})
    assert score(both, 2.0, now, s, {"speaker:ada", "date:2024-01-01"}).cue_factor == pytest.approx(
        (1.0 + s.cue_boost) ** 2
    )


def test_trigger_pattern_matching() -> None:
    assert trigger_matches("println!", "should I use PRINTLN! here")
    assert not trigger_matches("println!", "use the log crate")
    assert trigger_matches("*.env", "open config.env please")
    assert trigger_matches(r"re:\bdrop\s+table\b", "DROP   TABLE users")
    assert not trigger_matches("re:(", "anything")  # a broken regex never matches


def test_triggered_constraint_comes_first_even_when_unrelated(quiet: MemoryEngine) -> None:
    quiet.remember_many(
        [
            {"content": f"Rust logging note {i}: the log crate writes to stderr", "kind": "fact"}
            for i in range(4)
        ],
        user_id="u",
    )
    neg = quiet.remember(
        "Never commit secrets to the repository",
        user_id="u",
        kind="constraint",
        trigger_patterns=["git push"],
    )
    res = quiet.recall("rust logging before I git push", user_id="u", top_k=3)
    assert res.memories[0].id == neg.id and res.trace[0].section == "triggered"
    plain = quiet.recall("rust logging", user_id="u", top_k=3)
    assert neg.id not in [m.id for m in plain.memories]


def test_section_order_and_procedure_cap(quiet: MemoryEngine) -> None:
    pinned = quiet.remember("Answer in British English", user_id="u", kind="preference", pinned=True)
    ctx = quiet.remember("The deploy runs on Fridays after the standup", user_id="u", kind="fact")
    procs = quiet.remember_many(
        [
            {"content": f"To deploy step {i}: run make deploy-{i} on the build host", "kind": "procedure"}
            for i in range(5)
        ],
        user_id="u",
    )
    res = quiet.recall("how do we deploy", user_id="u", top_k=10)
    sections = [t.section for t in res.trace]
    assert res.memories[0].id == pinned.id and sections[0] == "baseline"
    # the query's own hits follow, contextual and procedural ranked together by score
    rest = res.trace[1:]
    assert {t.section for t in rest} == {"contextual", "procedural"}
    assert [t.final_score for t in rest] == sorted((t.final_score for t in rest), reverse=True)
    assert ctx.id in [m.id for m in res.memories]
    assert sections.count("procedural") == 3
    assert {m.id for m in res.memories if m.kind is MemoryKind.PROCEDURE} <= {p.id for p in procs}
    with pytest.warns(DeprecationWarning):
        assert res.trace[0].layer == "baseline"  # the old name still answers


def test_token_budget_and_top_k(quiet: MemoryEngine) -> None:
    quiet.remember_many(
        [
            {"content": f"Gardening tip {i}: water tomatoes deeply but rarely, mulch well, and prune suckers"}
            for i in range(8)
        ],
        user_id="u",
    )
    full = quiet.recall("tomato gardening tips", user_id="u", top_k=8)
    assert len(full.memories) == 8
    per = [quiet.embedder.count_tokens(m.content) for m in full.memories]
    assert full.total_tokens == sum(per) == sum(t.tokens for t in full.trace)
    budget = per[0] + per[1] + per[2] // 2
    tight = quiet.recall("tomato gardening tips", user_id="u", top_k=8, token_budget=budget)
    assert len(tight.memories) == 2 and tight.total_tokens <= budget
    assert tight.budget_used == pytest.approx(tight.total_tokens / budget)
    assert len(quiet.recall("tomato gardening tips", user_id="u", top_k=3).memories) == 3


def test_trace_explains_every_memory(quiet: MemoryEngine) -> None:
    mems = quiet.remember_conversation(
        [
            {"speaker": "Ada", "text": "Which bakery did you like?"},
            {"speaker": "Bob", "text": "Tartine, by far."},
        ],
        user_id="u",
        session_id="s",
    )
    res = quiet.recall("which bakery did Bob like", user_id="u", top_k=2)
    assert len(res.trace) == len(res.memories) == 2
    for mem, tr in zip(res.memories, res.trace, strict=True):
        assert tr.memory_id == mem.id and tr.final_score > 0 and tr.tokens > 0
        assert tr.seed_rank is not None or tr.path
        assert any(n.startswith("rerank:") for n in tr.notes)
    seeded = [t for t in res.trace if t.seed_rank is not None]
    # a seed's fused score is min-max normalised per list: the last hit of both lists may score 0, yet was found
    assert seeded and all(t.seed_score is not None and (t.vector_score or t.text_score) for t in seeded)
    assert max(t.seed_score or 0.0 for t in seeded) == pytest.approx(1.0)
    assert any(st.relation == "RelatesTo" for t in res.trace for st in t.path)
    assert {m.id for m in res.memories} == {m.id for m in mems}


def test_to_prompt_format() -> None:
    res = RecallResult(
        memories=[
            Memory(id="1", user_id="u", content="User is a backend engineer.", kind=MemoryKind.FACT),
            Memory(id="2", user_id="u", content="Communication style: direct.", kind=MemoryKind.PREFERENCE),
        ]
    )
    assert res.to_prompt() == (
        "<memory>\n[FACT] User is a backend engineer.\n[PREFERENCE] Communication style: direct.\n</memory>"
    )
    assert RecallResult().to_prompt() == "<memory>\n</memory>"


def test_reranker_path_that_does_not_exist_falls_back(embedder) -> None:
    from tests.retrieve.conftest import make_engine

    eng = make_engine(embedder, recall_maintenance=False, reranker_model_path="/nonexistent/cross-encoder")
    try:
        eng.remember("The cat sleeps on the radiator", user_id="u")
        res = eng.recall("where does the cat sleep", user_id="u")
        assert res.memories and "weighted blend" in res.trace[0].notes[0]
        assert "not found" in res.trace[0].notes[0]
    finally:
        eng.close()


def test_is_question() -> None:
    assert is_question("Tim: Wow! How long have you been playing professionally?  ")
    assert not is_question("John: Just under a year now? No, a year. It has been a wild ride.")
    assert not is_question("")


def test_a_question_gives_way_to_its_answer_in_cascade_only(embedder: CachedEmbedder) -> None:
    """A turn that asks counts `question_relevance` of its relevance in cascade recall (its reply, reached by the
    sequence link, holds the answer); hybrid recall ranks it as before."""
    turns = [
        "Tim: I love meeting people from other cultures when we travel for games.",
        "Tim: Wow! How long have you been playing basketball professionally?",
        "John: Just under a year now. Signing with the team was a wild ride.",
    ]
    finals: dict[tuple[float, str], float] = {}
    for weight in (1.0, 0.85):
        eng = make_engine(embedder, recall_maintenance=False, question_relevance=weight)
        try:
            ids = [m.id for m in eng.remember_many([{"content": t, "session_id": "s1"} for t in turns], user_id="u")]
            for mode in ("cascade", "hybrid"):
                res = eng.recall("How long has John played basketball professionally?", user_id="u", mode=mode)
                # without the recency boost and confidence decay, which move with the seconds between engines
                by_id = {t.memory_id: t.final_score / (t.recency_boost * t.confidence) for t in res.trace}
                assert ids[1] in by_id, mode
                finals[(weight, mode)] = by_id[ids[1]]
        finally:
            eng.close()
    assert finals[(0.85, "cascade")] == pytest.approx(0.85 * finals[(1.0, "cascade")])
    assert finals[(0.85, "hybrid")] == pytest.approx(finals[(1.0, "hybrid")])


def _finals_by_setting(
    embedder: CachedEmbedder, turns: list[str], query: str, setting: str, values: tuple[float, ...]
) -> tuple[list[str], dict[tuple[float, str], dict[str, float]]]:
    """The turns stored in one session per value of `setting`, the query recalled in cascade and hybrid: (the
    turns' ids, {(value, mode): {memory id: final score without recency and confidence}})."""
    finals: dict[tuple[float, str], dict[str, float]] = {}
    ids: list[str] = []
    for value in values:
        eng = make_engine(embedder, recall_maintenance=False, **{setting: value})
        try:
            ids = [m.id for m in eng.remember_many([{"content": t, "session_id": "s1"} for t in turns], user_id="u")]
            for mode in ("cascade", "hybrid"):
                res = eng.recall(query, user_id="u", mode=mode)
                # without the recency boost and confidence decay, which move with the seconds between engines
                finals[(value, mode)] = {
                    t.memory_id: t.final_score / (t.recency_boost * t.confidence) for t in res.trace
                }
        finally:
            eng.close()
    return ids, finals


def test_a_reply_to_a_matching_question_is_lifted_in_cascade_only(embedder: CachedEmbedder) -> None:
    """A turn whose previous turn (its session predecessor) is a question has its relevance x (1 + reply_weight
    x the question's cosine to the query) in cascade recall; a turn after a statement, and hybrid recall, are
    unchanged."""
    turns = [
        "John: We're planning a team trip next month to explore a new city.",
        "John: We're still deciding on the destination. Do you have any suggestions?",
        "Tim: Edinburgh, Scotland would be great for a magical vibe.",
        "John: Thanks, I will look into it with the team.",
    ]
    query = "What city did Tim suggest for the team trip?"
    ids, finals = _finals_by_setting(embedder, turns, query, "reply_weight", (0.0, 0.5))
    qv, asked = embedder.encode([query, turns[1]])
    cos = float(qv @ asked / (np.linalg.norm(qv) * np.linalg.norm(asked)))
    assert cos > 0.3
    before, after = finals[(0.0, "cascade")], finals[(0.5, "cascade")]
    assert ids[2] in before
    assert after[ids[2]] == pytest.approx(before[ids[2]] * (1 + 0.5 * cos), rel=1e-6)
    for i in (0, 1):  # no question before them
        assert after[ids[i]] == pytest.approx(before[ids[i]])
    assert finals[(0.5, "hybrid")] == pytest.approx(finals[(0.0, "hybrid")])


def test_the_subject_of_a_question_is_the_speaker_named_first() -> None:
    """Of two speakers a question names, the first is its subject unless the two are joined as one; dates name a
    span and have no subject."""
    tim_john = ["speaker:john", "speaker:tim"]
    assert non_subjects("What city did Tim suggest to John for the team trip?", tim_john) == (
        {"speaker:tim"},
        {"speaker:john"},
    )
    for joined in ("How do Tim and John both like to destress?", "Did Tim or John go?", "Tim, John: who won?"):
        assert non_subjects(joined, tim_john) == (set(), set()), joined
    assert non_subjects("What did Tim suggest?", ["speaker:tim"]) == (set(), set())
    assert non_subjects("What did Tim do on 3 May 2023 and 4 May 2023?", ["date:2023-05-03", "date:2023-05-04"]) == (
        set(),
        set(),
    )


def test_the_other_speakers_memories_give_way_to_the_subjects_in_cascade_only(embedder: CachedEmbedder) -> None:
    """In cascade recall a memory of the speaker a question names second (not its subject) has its relevance x
    `subject_relevance`; the subject's memories, and hybrid recall, are unchanged."""
    turns = [
        "John: We're planning a team trip next month to explore a new city.",
        "Tim: Edinburgh, Scotland would be great for the team trip, it has a magical vibe.",
        "John: Thanks Tim, I will suggest the city to the team for the trip.",
    ]
    query = "What city did Tim suggest to John for the team trip?"
    ids, finals = _finals_by_setting(embedder, turns, query, "subject_relevance", (1.0, 0.75))
    before, after = finals[(1.0, "cascade")], finals[(0.75, "cascade")]
    assert set(ids) <= set(before)
    for i in (0, 2):  # John's
        assert after[ids[i]] == pytest.approx(0.75 * before[ids[i]], rel=1e-6)
    assert after[ids[1]] == pytest.approx(before[ids[1]], rel=1e-6)  # Tim's
    assert finals[(0.75, "hybrid")] == pytest.approx(finals[(1.0, "hybrid")])


def test_rank_orders_by_score_then_newer_then_id() -> None:
    """`rank` (a sort by score, ties then sorted by the full key) equals sorting on (-final, -created_at, id):
    candidates with many equal scores, creation times and ids in every order."""
    rnd = random.Random(5)
    base = datetime(2026, 1, 1, tzinfo=UTC)
    for _ in range(200):
        scored = []
        for i in range(rnd.randint(0, 30)):
            m = Memory(
                id=f"m{rnd.randint(0, 99):02d}{i}",
                user_id="u",
                content=f"memory {i}",
                created_at=base + timedelta(hours=rnd.randint(0, 3)),
            )
            final = rnd.choice([0.0, 0.25, 0.5, rnd.random()])
            scored.append(Scored(m, final, 1.0, 1.0, 1.0, 1.0, final))
        want = sorted(scored, key=lambda s: (-s.final, -s.memory.created_at.timestamp(), s.memory.id))
        assert [id(s) for s in rank(scored)] == [id(s) for s in want]
