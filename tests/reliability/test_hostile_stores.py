"""Hostile input through the engine on every store (SQLite, FalkorDB, Neo4j: the conformance fixtures) and
through the async engine: wrong types, NaN/inf/negative/huge numbers, dates at the ends of the calendar,
out-of-range embeddings, look-alike ids, injection strings, control characters, lone surrogates and secrets.
Only typed memgraph errors, the store unchanged after one, nothing executed, no secret stored.

The regression cases below each failed on main (stop 39) before the boundary fixes they name; the fuzz cases
run a few dozen examples per store in CI and more under `--long`.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgraph import MemgraphError, MemoryEngine, Settings
from memgraph.aio import AsyncMemoryEngine
from memgraph.embed import CachedEmbedder
from memgraph.errors import EmbeddingDimensionError, NotFoundError, ValidationError
from memgraph.ids import secret_in
from memgraph.models import normalize_tag
from memgraph.store import GraphStore
from tests.conformance.conftest import falkordb_dir, pytest_generate_tests, store_factory  # noqa: F401 - every store

from . import scale
from .test_hostile_input import INJECTIONS
from .test_secrets_sweep import NEEDLES, STANDALONE

CANARY = "The canary memory must survive every attack"
STORE_FUZZ = settings(max_examples=int(scale(25, 250)), deadline=None, suppress_health_check=list(HealthCheck))

hostile_text = st.one_of(
    st.sampled_from(INJECTIONS),
    st.text(max_size=60),
    st.builds(lambda a, b: a + b, st.sampled_from(INJECTIONS), st.text(max_size=20)),
)
#: anything a careless caller passes where a string (or a list of strings) belongs
wrong_type = st.one_of(
    st.none(), st.integers(), st.floats(), st.binary(max_size=8), st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2), st.booleans(),
)
hostile_number = st.one_of(
    st.sampled_from([math.nan, math.inf, -math.inf, -1, 0, -0.0, 2**53, 2**63, 10**30, 1e308, 5e-324, True]),
    st.integers(), st.floats(),
)


@pytest.fixture
def hostile(store_factory: Callable[..., GraphStore], embedder: CachedEmbedder) -> Iterator[MemoryEngine]:  # noqa: F811
    """An engine on a fresh store of each kind, with a canary of another user and one memory of `ada`."""
    engine = MemoryEngine(store_factory(), Settings(), embedder)
    engine.remember(CANARY, user_id="canary", tags=["canary"])
    engine.remember("Ada drinks green tea every morning", user_id="ada", tags=["tea"])
    yield engine
    engine.close()


def _fingerprint(engine: MemoryEngine) -> tuple[Any, ...]:
    engine.flush()
    users = sorted(engine.users())
    return users, [
        sorted((m.id, m.content, m.active, tuple(m.tags), repr(m.metadata))
               for m in engine.list(user_id=u, include_inactive=True, include_archived=True))
        for u in users
    ]


def _attempt(engine: MemoryEngine, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run one hostile call: its result, or None after a typed error that left the store as it was."""
    before = _fingerprint(engine)
    try:
        return call(*args, **kwargs)
    except MemgraphError:
        assert _fingerprint(engine) == before, "a failed call changed the store"
        return None


def _canary_alive(engine: MemoryEngine) -> None:
    assert [m.content for m in engine.list(user_id="canary")] == [CANARY]


# -- fuzz, every store ---------------------------------------------------------------------------------------


@STORE_FUZZ
@given(content=st.one_of(hostile_text, wrong_type), tags=st.one_of(hostile_text, wrong_type, st.lists(hostile_text)),
       key=hostile_text, value=st.one_of(hostile_text, wrong_type), session=st.one_of(hostile_text, wrong_type))
def test_remember_fields_on_every_store(hostile: MemoryEngine, content: Any, tags: Any, key: str, value: Any,
                                        session: Any) -> None:
    mem = _attempt(hostile, lambda: hostile.remember(content, user_id="ada", tags=tags, metadata={key: value},
                                                     session_id=session))
    if mem is not None:
        got = hostile.get(mem.id, user_id="ada")
        assert got.user_id == "ada" and got.content == mem.content
        if isinstance(tags, str):  # one string is one tag, never one tag per character
            assert normalize_tag(tags) in got.tags or secret_in(tags)
    _canary_alive(hostile)


@STORE_FUZZ
@given(importance=hostile_number, created_at=st.one_of(
    st.datetimes(timezones=st.sampled_from([UTC, timezone(timedelta(hours=14)), timezone(timedelta(hours=-12))])),
    st.sampled_from(["0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-10:00", "garbage", "", "2024-02-30"]),
    wrong_type),
    embedding=st.one_of(st.none(), st.sampled_from(["short", "nan", "inf", "huge", "tiny", "zeros"])))
def test_numbers_dates_and_embeddings_on_every_store(hostile: MemoryEngine, importance: Any, created_at: Any,
                                                     embedding: str | None) -> None:
    vectors = {"short": [0.1] * 10, "nan": [math.nan] * 384, "inf": [math.inf] * 384, "huge": [1e300] * 384,
               "tiny": [1e-30] * 384, "zeros": [0.0] * 384}
    item = {"content": "A dated note about the garden shed", "importance": importance, "created_at": created_at,
            "embedding": vectors.get(embedding or "", None)}
    stored = _attempt(hostile, lambda: hostile.remember_many([item], user_id="ada"))
    if stored:
        m = hostile.get(stored[0].id, user_id="ada", with_embedding=True)
        assert 0.0 <= m.importance <= 1.0
        assert m.embedding is None or all(math.isfinite(x) for x in m.embedding)
    hits = hostile.recall("garden shed", user_id="ada").memories  # a stored extreme date must not break reads
    assert all(h.user_id == "ada" for h in hits)
    _canary_alive(hostile)


@STORE_FUZZ
@given(query=st.one_of(hostile_text, wrong_type), k=hostile_number, budget=hostile_number,
       mode=st.one_of(hostile_text, st.sampled_from(["cascade", "hybrid", "lexical", "semantic"])),
       limit=hostile_number, offset=hostile_number, tag=st.one_of(hostile_text, wrong_type))
def test_reads_with_hostile_arguments_on_every_store(hostile: MemoryEngine, query: Any, k: Any, budget: Any,
                                                     mode: Any, limit: Any, offset: Any, tag: Any) -> None:
    for call in (
        lambda: hostile.recall(query, user_id="ada", top_k=k, token_budget=budget, mode=mode),
        lambda: hostile.search(query, user_id="ada", k=k),
        lambda: hostile.list(user_id="ada", limit=limit, offset=offset, tag=tag),
    ):
        out = _attempt(hostile, call)
        found = out.memories if hasattr(out, "memories") else [getattr(x, "memory", x) for x in out or []]
        assert all(m.user_id == "ada" for m in found)
    _canary_alive(hostile)


def _lookalikes(real: str) -> list[Any]:
    return [real.upper(), real + " ", real + "\n", " " + real, real[:-1], real[:8], real + "\u200b",
            real.replace("a", "\u0430"), real + "\x00", real[:5] + "\ud800", "*", "%", "' OR '1'='1", b"m_",
            None, 7, [real], {"id": real}]


def test_lookalike_and_foreign_ids_on_every_store(hostile: MemoryEngine) -> None:
    [canary] = hostile.list(user_id="canary")
    [mine] = hostile.list(user_id="ada")
    e = hostile
    for bad in [*_lookalikes(canary.id), *_lookalikes(mine.id), canary.id]:
        for call, args in ((e.get, (bad,)), (e.forget, (bad,)), (e.tag, (bad, ["x"])), (e.feedback, (bad, True)),
                           (e.link, (mine.id, bad)), (e.link, (bad, mine.id, "supersedes"))):
            assert _attempt(e, call, *args, user_id="ada") is None, f"{bad!r} reached another memory"
        report = _attempt(e, e.erase, [bad], user_id="ada")
        assert report is None or report.memories == 0
    for owner in ("canary ", "CANARY", "can\u0430ry", "canary\t", "", None, 5, b"canary"):
        assert _attempt(e, e.list, user_id=owner) in (None, [])  # "CANARY" is a valid id
    _canary_alive(hostile)
    assert [m.id for m in hostile.list(user_id="ada")] == [mine.id]


# -- regressions found by this sweep (each failed on main) -------------------------------------------------------


@pytest.mark.parametrize("when", [
    "0001-01-01T00:00:00+05:00",
    datetime(9999, 12, 31, 23, 59, tzinfo=timezone(timedelta(hours=-10))),
    datetime(1, 1, 1, 3, 0, tzinfo=timezone(timedelta(hours=14))),
])
def test_created_at_outside_the_calendar_is_a_typed_error(hostile: MemoryEngine, when: Any) -> None:
    """main: OverflowError from the store (SQLite) converting the time zone."""
    before = _fingerprint(hostile)
    with pytest.raises(ValidationError, match="created_at must be between the years"):
        hostile.remember_many([{"content": "a note from the end of time", "created_at": when}], user_id="ada")
    with pytest.raises(ValidationError, match="created_at must be between the years"):
        hostile.ingest("a note from the end of time", user_id="ada", session_id=None, created_at=when)
    assert _fingerprint(hostile) == before


def test_session_date_at_the_end_of_the_calendar_is_a_typed_error(hostile: MemoryEngine) -> None:
    """main: OverflowError adding each turn's second to the session date."""
    turns = [{"speaker": "a", "text": "first turn here"}, {"speaker": "b", "text": "second turn here"}]
    with pytest.raises(ValidationError, match="session_date must be between the years"):
        hostile.remember_conversation(turns, user_id="ada", session_id="s1", session_date=datetime.max)


def test_conversation_turn_metadata_must_be_a_mapping(hostile: MemoryEngine) -> None:
    """main: TypeError from dict() on a list."""
    for meta in ([1, 2], "abc", 5):
        with pytest.raises(ValidationError, match="turn 0: metadata must be a mapping"):
            hostile.remember_conversation([{"speaker": "a", "text": "hello", "metadata": meta}],
                                          user_id="ada", session_id="s1")


@pytest.mark.parametrize("value", [1e300, 1e20, 1e-30, 1e-20])
def test_embedding_out_of_float32_range_is_refused(hostile: MemoryEngine, value: float) -> None:
    """main: stored; the write path turned it into inf/NaN (or a zero vector) in float32."""
    vector = np.full(384, value) if value < 1 else [value] * 384
    with pytest.raises(EmbeddingDimensionError, match="out of range for 32-bit floats"):
        hostile.remember("a memory with a strange vector", user_id="ada", embedding=vector)


@pytest.mark.parametrize("reason", ["a\ud800b", "x" * 20_001])
def test_link_reason_follows_the_content_rules(hostile: MemoryEngine, reason: str) -> None:
    """main: a lone surrogate crashed the store (UnicodeEncodeError on SQLite); 10 MB reasons were stored."""
    b = hostile.remember("Ada cycles to work on a red bicycle", user_id="ada")
    [a] = [m for m in hostile.list(user_id="ada") if m.id != b.id]
    with pytest.raises(ValidationError, match="link reason"):
        hostile.link(a.id, b.id, user_id="ada", reason=reason, weight=0.5)
    assert hostile.link(a.id, b.id, user_id="ada", reason="  ").reason is None


def test_search_and_list_refuse_negative_counts(hostile: MemoryEngine) -> None:
    """main: k=0 and k=-3 silently became 1, limit=-1 silently became 0."""
    for k in (0, -3):
        with pytest.raises(ValidationError, match="k must be a positive integer"):
            hostile.search("tea", user_id="ada", k=k)
    for kw in ({"limit": -1}, {"offset": -5}):
        with pytest.raises(ValidationError, match="limit and offset"):
            hostile.list(user_id="ada", **kw)
    assert hostile.list(user_id="ada", limit=0) == []


def test_importance_refuses_a_flag(hostile: MemoryEngine) -> None:
    """main: importance=True was stored as 1.0."""
    with pytest.raises(ValidationError, match="importance"):
        hostile.remember_many([{"content": "an important-looking note", "importance": True}], user_id="ada")


def test_exponential_trigger_pattern_is_refused_and_never_run(hostile: MemoryEngine) -> None:
    """main: `re:(a+)+$` was stored, and a recall for "aaaa…!" backtracked for seconds (24 a's: 6.5 s; each
    more doubles it)."""
    with pytest.raises(ValidationError, match="repeats a repetition"):
        hostile.remember("Never deploy on fridays", user_id="ada", kind="constraint",
                         trigger_patterns=["re:(a+)+$"])
    from memgraph.retrieve.layers import trigger_matches

    start = time.thread_time()  # CPU, not wall: the backtracking is CPU, and a loaded machine stretches the wall
    assert not trigger_matches("re:(\\w+\\s?)*$", "a" * 40 + "!")  # one stored before the rule
    assert time.thread_time() - start < 0.5
    assert trigger_matches("re:deploy(ing)? on (fri|satur)day", "deploying on friday?")


@pytest.mark.parametrize("pattern", ["re:(a|a)*$", "re:(a|aa)*b", "re:(a?b|b)+$", "re:((ab)|(abc))*d"])
def test_alternatives_that_start_alike_in_a_repeat_are_refused(hostile: MemoryEngine, pattern: str) -> None:
    """main stored them: `(a|a)*$` took 19 s on 24 a's and a '!', `(a?b|b)+$` 8 s on 22 b's (each more doubles it)."""
    with pytest.raises(ValidationError, match="alternatives that start alike"):
        hostile.remember("Never deploy on fridays", user_id="ada", kind="constraint", trigger_patterns=[pattern])


@pytest.mark.parametrize("pattern", ["re:(deploy|release)+ on fri", "re:(\\w|\\d)+-prod", "re:(ab|ac)+",
                                     "re:(deploy|deploys)+", "re:\\b(prod|staging)(-eu|-us)*\\b"])
def test_alternatives_that_cannot_start_alike_are_kept(hostile: MemoryEngine, pattern: str) -> None:
    """What the parser factors into a class or a shared prefix (`(\\w|\\d)`, `(ab|ac)`) backtracks linearly."""
    kept = hostile.remember("Never deploy on fridays", user_id="ada", kind="constraint", trigger_patterns=[pattern])
    assert pattern in (kept.trigger_patterns or [])


def test_list_arguments_are_bounded(hostile: MemoryEngine) -> None:
    """main: 50,000 tags were written (23 s on SQLite) and a 5 MB file glob was stored."""
    many = [f"t{i}" for i in range(1001)]
    project, rule = {"scope": "project"}, {"kind": "constraint"}
    for kw in ({"tags": many}, {"file_paths": many, **project}, {"trigger_patterns": many, **rule},
               {"file_paths": ["a" * 5000], **project}, {"trigger_patterns": ["a" * 5000], **rule}):
        with pytest.raises(ValidationError, match="maximum is 1000|longer than 4096"):
            hostile.remember("a memory with too much around it", user_id="ada", **kw)
    [mine] = hostile.list(user_id="ada")
    with pytest.raises(ValidationError, match="maximum is 1000"):
        hostile.tag(mine.id, many, user_id="ada")
    with pytest.raises(ValidationError, match="maximum is 1000"):
        hostile.recall("tea", user_id="ada", files=many)
    assert len(hostile.remember("a memory with many tags", user_id="ada", tags=many[:1000]).tags) >= 1000


def test_links_callable_must_return_links(hostile: MemoryEngine) -> None:
    """main: AttributeError ('int' object has no attribute 'relation')."""
    with pytest.raises(ValidationError, match="links must be Link objects"):
        hostile.remember_linked([{"content": "a linked memory"}], user_id="ada", links=lambda ids: [5])
    assert len(hostile.list(user_id="ada")) == 1


# -- secrets in every field, every store --------------------------------------------------------------------------


def test_no_secret_in_any_field_is_stored_on_every_store(hostile: MemoryEngine) -> None:
    m = hostile.remember("Ada keeps her bicycle in the garden shed", user_id="ada")
    e = hostile
    for i, secret in enumerate(STANDALONE):
        fields = {"user_id": "ada", "tags": [secret, f"note{i}"],
                  "metadata": {secret: secret, "nested": [secret, {"k": secret}]}}
        content = f"Note {i}: the deploy account is shared. {secret}"
        _attempt(e, e.remember, content, session_id=secret, **fields)
        _attempt(e, e.remember, content, file_paths=[secret], trigger_patterns=[secret], kind="constraint", **fields)
        _attempt(e, e.link, m.id, e.list(user_id="ada", limit=1)[0].id, user_id="ada", reason=f"because {secret}")
        turns = [{"speaker": secret, "text": "hello there"}, {"speaker": "bob", "text": f"key {secret}"}]
        _attempt(e, e.remember_conversation, turns, user_id="ada", session_id=f"conv{i}")
        hostile.recall(f"what is {secret}? nothing matches zqxj", user_id="ada")  # a gap keeps its query
    hostile.flush()
    hostile.jobs.gaps("ada")
    stored = repr([m.model_dump() for m in hostile.list(user_id="ada", include_inactive=True)])
    stored += repr(hostile.tags(user_id="ada")) + repr(hostile.store.list_gaps("ada"))
    stored += repr(hostile.store.get_links("ada"))
    lowered = stored.lower()
    for needle in NEEDLES:
        assert needle.lower() not in lowered, "a secret was stored"


# -- the async engine ---------------------------------------------------------------------------------------------


def test_async_engine_answers_hostile_input_with_typed_errors(tmp_path: Any, embedder: CachedEmbedder) -> None:
    async def run() -> None:
        async with AsyncMemoryEngine.open(str(tmp_path / "s"), embedder=embedder) as mem:
            good = await mem.remember("Ada drinks green tea every morning", user_id="ada", tags="tea")
            assert good.tags == ["tea"]
            calls = [
                mem.remember(b"bytes", user_id="ada"),
                mem.remember("x", user_id=None),
                mem.remember("x", user_id="ada ", tags=["a"]),
                mem.remember_many([{"content": "x", "created_at": "0001-01-01T00:00:00+05:00"}], user_id="ada"),
                mem.remember("x y", user_id="ada", embedding=[1e300] * 384),
                mem.recall("tea", user_id="ada", top_k=math.nan),
                mem.recall("tea", user_id="ada", top_k=0),
                mem.search("tea", user_id="ada", k=-1),
                mem.list(user_id="ada", limit=-1),
                mem.get(good.id.upper(), user_id="ada"),
                mem.link(good.id, good.id + " ", user_id="ada"),
                mem.link(good.id, good.id, user_id="ada", weight=math.inf),
                mem.flush(math.nan),
                mem.remember_conversation([{"text": "hi", "metadata": [1]}], user_id="ada", session_id="s"),
            ]
            for i, call in enumerate(calls):
                with pytest.raises(MemgraphError):
                    await call
                assert i >= 0
            assert [m.id for m in await mem.list(user_id="ada")] == [good.id]
            with pytest.raises(NotFoundError):
                await mem.get("m_" + "0" * 32, user_id="ada")

    asyncio.run(run())
