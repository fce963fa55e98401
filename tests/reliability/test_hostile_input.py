"""Hostile input: arbitrary Unicode, huge inputs and injection strings in every field of the public API and
the CLI. Only typed memgraph errors, never a crash, never an executed fragment, the store unchanged on error."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from memgraph import MemgraphError, MemoryEngine, Settings
from memgraph.cli import app
from memgraph.store.sqlite import SQLiteStore

from . import scale

INJECTIONS = [
    "'); DROP TABLE memories; --",
    '"}) DETACH DELETE n //',
    "` MATCH (n) DETACH DELETE n //",
    "x' OR '1'='1",
    "$user_id",
    "{{7*7}}",
    "\\u0000",
    "memories_fts MATCH '*'",
    'NEAR("a" "b")',
    "CALL db.index.vector.queryNodes('memory_vector', 10, $v)",
    "\u202e\u0000\ufeff",
]
hostile_text = st.one_of(
    st.text(max_size=300),
    st.sampled_from(INJECTIONS),
    st.builds(lambda a, b: a + b, st.sampled_from(INJECTIONS), st.text(max_size=40)),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=80),
)
hostile_id = st.one_of(st.none(), st.integers(), hostile_text, st.just(""), st.text(min_size=300, max_size=400))
FUZZ = settings(max_examples=int(scale(60, 500)), deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def hostile_engine(embedder):  # noqa: ANN001, ANN201 - fixtures
    eng = MemoryEngine(SQLiteStore(":memory:"), Settings(store=":memory:"), embedder)
    eng.remember("The canary memory must survive every attack", user_id="canary", tags=["canary"])
    yield eng
    eng.close()


def _fingerprint(engine: MemoryEngine) -> tuple:
    engine.flush()  # earlier successful recalls update access counts and gaps in the background
    st_ = engine.stats()
    canary = engine.list(user_id="canary", include_inactive=True)
    return st_.model_dump(), [(m.id, m.content, m.active, tuple(m.tags)) for m in canary]


def _attempt(engine: MemoryEngine, call) -> bool:  # noqa: ANN001
    """Run one hostile call: success or a typed error; on error the store must be unchanged."""
    before = _fingerprint(engine)
    try:
        call()
    except MemgraphError:
        assert _fingerprint(engine) == before, "a failed call changed the store"
        return False
    return True


@FUZZ
@given(text=hostile_text, user=hostile_id, tag=hostile_text, key=hostile_text, value=hostile_text)
def test_remember_with_hostile_fields(hostile_engine: MemoryEngine, text, user, tag, key, value) -> None:  # noqa: ANN001
    _attempt(hostile_engine, lambda: hostile_engine.remember(text, user_id=user, tags=[tag], metadata={key: value}))
    canary = hostile_engine.list(user_id="canary")
    assert [m.content for m in canary] == ["The canary memory must survive every attack"]


@FUZZ
@given(text=hostile_text, user=hostile_id, session=hostile_id)
def test_ingest_with_hostile_fields(hostile_engine: MemoryEngine, text, user, session) -> None:  # noqa: ANN001
    _attempt(hostile_engine, lambda: hostile_engine.ingest(text, user_id=user, session_id=session))


@FUZZ
@given(query=hostile_text, user=hostile_id, mode=st.sampled_from(["cascade", "hybrid", "lexical", "semantic", "x"]))
def test_recall_and_search_with_hostile_queries(hostile_engine: MemoryEngine, query, user, mode) -> None:  # noqa: ANN001
    if _attempt(hostile_engine, lambda: hostile_engine.recall(query, user_id=user, mode=mode)):
        res = hostile_engine.recall(query, user_id=user, mode=mode)
        assert all(m.user_id == user for m in res.memories)
    _attempt(hostile_engine, lambda: hostile_engine.search(query, user_id=user))
    _attempt(hostile_engine, lambda: hostile_engine.list(user_id=user, tag=query))


@FUZZ
@given(a=hostile_text, b=hostile_text, rel=hostile_text, user=hostile_id)
def test_link_tag_forget_with_hostile_ids(hostile_engine: MemoryEngine, a, b, rel, user) -> None:  # noqa: ANN001
    _attempt(hostile_engine, lambda: hostile_engine.link(a, b, rel, user_id=user))
    _attempt(hostile_engine, lambda: hostile_engine.tag(a, [b], user_id=user))
    _attempt(hostile_engine, lambda: hostile_engine.forget(a, user_id=user))
    _attempt(hostile_engine, lambda: hostile_engine.get(a, user_id=user))


def test_huge_inputs_are_refused_cleanly(hostile_engine: MemoryEngine) -> None:
    ten_mb = "lorem ipsum dolor sit amet " * 400_000
    for call in (
        lambda: hostile_engine.remember(ten_mb, user_id="u"),
        lambda: hostile_engine.ingest(ten_mb, user_id="u", session_id="s"),
        lambda: hostile_engine.recall(ten_mb, user_id="u"),
        lambda: hostile_engine.remember("ok", user_id="u", metadata={"blob": ten_mb}),
        lambda: hostile_engine.remember("ok", user_id="u", tags=[ten_mb]),
    ):
        assert not _attempt(hostile_engine, call)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(args=st.lists(st.one_of(hostile_text, st.sampled_from(["--user", "--json", "-k", "--kind", "--tag"])),
                     max_size=6),
       command=st.sampled_from(["remember", "search", "recall", "list", "forget", "link", "tag", "stats"]))
def test_cli_never_crashes(tmp_path_factory: pytest.TempPathFactory, command: str, args: list[str]) -> None:
    store = str(tmp_path_factory.mktemp("cli"))
    res = CliRunner().invoke(app, [command, *args, "--store", store])
    # 0 ok, 1 typed error, 2 usage error; anything else (or an uncaught exception) is a crash.
    assert res.exit_code in (0, 1, 2), res.output
    if res.exception is not None:
        assert isinstance(res.exception, SystemExit), repr(res.exception)
