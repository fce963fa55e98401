"""MemoryEngine on the embedded default: the public API and its bad-input contract (issue #2)."""

from __future__ import annotations

import math
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from memgraph import (
    Link,
    MemoryEngine,
    MemoryKind,
    MissingOwnerError,
    NotFoundError,
    Relation,
    Settings,
    ValidationError,
)
from memgraph.errors import EmbeddingDimensionError, MemgraphError


class _BlockingAsync:
    """Runs the AsyncMemoryEngine through the same test cases as the sync engine (one event loop per test)."""

    def __init__(self, engine: MemoryEngine) -> None:
        import asyncio

        from memgraph import AsyncMemoryEngine

        self._loop = asyncio.new_event_loop()
        self._aengine = AsyncMemoryEngine(engine)
        self.store = engine.store
        self.settings = engine.settings

    def __getattr__(self, name: str):  # noqa: ANN204 - mirrors MemoryEngine's methods
        coro_fn = getattr(self._aengine, name)

        def call(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            return self._loop.run_until_complete(coro_fn(*args, **kwargs))

        return call

    def close_loop(self) -> None:
        self._loop.close()


@pytest.fixture(params=["sync", "async"])
def engine(request: pytest.FixtureRequest, embedder) -> Iterator[MemoryEngine]:  # noqa: ANN001
    """Every case here runs on MemoryEngine and on AsyncMemoryEngine (incognito SQLite, real model)."""
    from memgraph.store.sqlite import SQLiteStore

    eng = MemoryEngine(SQLiteStore(":memory:"), Settings(store=":memory:"), embedder)
    if request.param == "sync":
        yield eng
    else:
        view = _BlockingAsync(eng)
        yield view  # type: ignore[misc]
        view.close_loop()
    eng.close()


def _snapshot(engine: MemoryEngine, user: str) -> tuple:
    st = engine.stats(user_id=user)
    mems = engine.list(user_id=user, include_inactive=True, include_archived=True, limit=10_000)
    return (st.model_dump(), sorted((m.id, m.content, tuple(m.tags), m.active) for m in mems))


def test_remember_get_and_search_roundtrip(engine: MemoryEngine) -> None:
    mem = engine.remember(
        "Ada prefers tabs over spaces in Python code",
        user_id="ada",
        kind="preference",
        tags=["Style", "#python"],
        metadata={"source": "chat", "nested": {"n": 1, "list": [1, "two"]}},
    )
    got = engine.get(mem.id, user_id="ada")
    assert got.content == "Ada prefers tabs over spaces in Python code"
    assert got.kind is MemoryKind.PREFERENCE
    assert got.tags == ["python", "style"]
    assert got.metadata == {"source": "chat", "nested": {"n": 1, "list": [1, "two"]}}
    hits = engine.search("which indentation does Ada like in Python?", user_id="ada")
    assert hits and hits[0].memory.id == mem.id
    assert hits[0].vector_score is not None and hits[0].vector_score > 0.4


def test_remember_is_idempotent_by_content(engine: MemoryEngine) -> None:
    a = engine.remember("The deploy script lives in ops/deploy.sh", user_id="u")
    b = engine.remember("The deploy script lives in ops/deploy.sh", user_id="u")
    assert a.id == b.id
    assert engine.stats(user_id="u").memories == 1


def test_users_are_isolated(engine: MemoryEngine) -> None:
    a = engine.remember("Bob's cat is called Miso", user_id="bob")
    engine.remember("Carol's dog is called Rex", user_id="carol")
    hits = engine.search("what is the pet called? cat or dog", user_id="carol")
    assert [h.memory.user_id for h in hits] == ["carol"]
    with pytest.raises(NotFoundError):
        engine.get(a.id, user_id="carol")
    with pytest.raises(NotFoundError):
        engine.forget(a.id, user_id="carol")
    c = engine.list(user_id="carol")[0]
    with pytest.raises(NotFoundError):
        engine.link(a.id, c.id, user_id="bob")
    assert engine.stats(user_id="bob").memories == 1


@pytest.mark.parametrize("user", [None, "", "   ", 42, "a\x00b", "x" * 300])
def test_missing_or_bad_owner_is_a_typed_error(engine: MemoryEngine, user: object) -> None:
    with pytest.raises(MissingOwnerError):
        engine.remember("some fact", user_id=user)  # type: ignore[arg-type]
    assert engine.stats().memories == 0


@pytest.mark.parametrize(
    "content",
    ["", "   \n\t ", None, 123, "bad \ud800 surrogate", "x" * 20_001],
)
def test_bad_content_is_refused_and_nothing_written(engine: MemoryEngine, content: object) -> None:
    with pytest.raises(ValidationError):
        engine.remember(content, user_id="u")  # type: ignore[arg-type]
    assert engine.stats().memories == 0


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("file_paths", ["notes/a\ud800.md"], "surrogate"),
        ("file_paths", ["notes/a\x00.md"], "control"),
        ("file_paths", ["notes/a\nb.md"], "control"),
        ("trigger_patterns", ["deploy\ud800"], "surrogate"),
        ("trigger_patterns", ["re:(deploy"], "regular expression"),
        ("tags", ["ops\ud800"], "surrogate"),
        ("metadata", {"note": "x\ud800"}, "surrogate"),
        ("metadata", {"\ud800": "x"}, "surrogate"),
    ],
)
def test_fields_no_store_can_hold_are_refused_and_nothing_written(
    engine: MemoryEngine, field: str, value: object, message: str
) -> None:
    """A lone surrogate reached SQLite as a raw UnicodeEncodeError; NUL and newlines went into file paths; an
    unparsable `re:` trigger was stored as a rule that never fires."""
    with pytest.raises(ValidationError, match=message):
        engine.remember("Never deploy on Fridays", user_id="u", **{field: value})
    assert engine.stats().memories == 0


def test_blank_trigger_patterns_are_left_out(engine: MemoryEngine) -> None:
    """"  " occurs in nearly every query: as a trigger it would inject the rule into every recall."""
    m = engine.remember("Never deploy on Fridays", user_id="u", trigger_patterns=["", "  ", " deploy "])
    assert m.trigger_patterns == ["deploy"]


def test_bad_embeddings_are_refused(engine: MemoryEngine) -> None:
    with pytest.raises(EmbeddingDimensionError):
        engine.remember("short vector", user_id="u", embedding=[0.1] * 10)
    with pytest.raises(EmbeddingDimensionError):
        engine.remember("nan vector", user_id="u", embedding=[math.nan] + [0.0] * 383)
    with pytest.raises(EmbeddingDimensionError):
        engine.remember("inf vector", user_id="u", embedding=[math.inf] + [0.0] * 383)
    with pytest.raises(EmbeddingDimensionError, match="all zeros"):
        engine.remember("zero vector", user_id="u", embedding=[0.0] * 384)
    with pytest.raises(EmbeddingDimensionError, match="all zeros"):
        engine.remember_many([{"content": "zero row", "embedding": [0.0] * 384}], user_id="u")
    assert engine.stats().memories == 0


def test_batch_with_one_bad_item_writes_nothing(engine: MemoryEngine) -> None:
    items = [{"content": f"fact number {i}"} for i in range(5)] + [{"content": ""}]
    with pytest.raises(ValidationError):
        engine.remember_many(items, user_id="u")
    assert engine.stats().memories == 0


def test_batch_calls_take_plain_strings_like_the_single_calls(engine: MemoryEngine) -> None:
    """`remember("text")` takes a string, so a list of strings is what a newcomer passes to `remember_many` and
    `ingest_many` (both took dicts only and refused a string item)."""
    made = engine.remember_many(["The boiler is serviced every October.", {"content": "The plumber is Ravi."}],
                                user_id="u")
    assert [m.content for m in made] == ["The boiler is serviced every October.", "The plumber is Ravi."]
    assert made[0].kind == made[1].kind == MemoryKind.FACT
    report = engine.ingest_many(["The loft hatch sticks in damp weather."], user_id="u")
    assert report.created and engine.stats().memories == 3
    for call, one in ((engine.remember_many, "one note"), (engine.ingest_many, "one note")):
        with pytest.raises(ValidationError, match="str"):
            call(one, user_id="u")  # a bare string is a list of characters: refused, nothing written
        with pytest.raises(ValidationError):
            call([3], user_id="u")
    assert engine.stats().memories == 3


def test_unknown_ids_and_relations(engine: MemoryEngine) -> None:
    a = engine.remember("first", user_id="u")
    with pytest.raises(NotFoundError):
        engine.get("m_doesnotexist", user_id="u")
    with pytest.raises(NotFoundError):
        engine.link(a.id, "m_doesnotexist", user_id="u")
    b = engine.remember("second", user_id="u")
    with pytest.raises(ValidationError, match="unknown relation"):
        engine.link(a.id, b.id, "LOVES", user_id="u")
    with pytest.raises(ValidationError):
        engine.link(a.id, b.id, user_id="u", weight=3.0)
    with pytest.raises(ValidationError):
        engine.list(user_id="u", kind="not-a-kind")
    assert engine.stats(user_id="u").edges == {}


INJECTIONS = [
    "'); DROP TABLE memories; --",
    '"}) DETACH DELETE n //',
    "`x` MATCH (n) DETACH DELETE n",
    "Robert'); DELETE FROM edges WHERE ('1'='1",
    "$param ${user} {{x}}",
]


@pytest.mark.parametrize("payload", INJECTIONS)
def test_injection_strings_are_stored_as_data(engine: MemoryEngine, payload: str) -> None:
    keep = engine.remember("an unrelated memory that must survive", user_id="victim")
    mem = engine.remember(
        f"note about {payload}", user_id="u", tags=[payload], metadata={payload: payload, "k": [payload]}
    )
    got = engine.get(mem.id, user_id="u")
    assert got.metadata == {payload: payload, "k": [payload]}
    assert payload.lower().strip("#.,;:!?\"'`") in got.tags
    assert engine.get(keep.id, user_id="victim").content == keep.content
    assert engine.stats().memories == 2
    assert engine.search(payload, user_id="u")  # full-text query with the payload does not break


def test_forget_restore_and_supersede(engine: MemoryEngine) -> None:
    old = engine.remember("The office is in Berlin", user_id="u")
    new = engine.remember("The office moved to Munich", user_id="u")
    assert not engine.forget(old.id, user_id="u").active
    assert old.id not in [m.id for m in engine.list(user_id="u")]
    assert engine.restore(old.id, user_id="u").active
    engine.link(new.id, old.id, Relation.SUPERSEDES, user_id="u")
    assert not engine.get(old.id, user_id="u").active
    # HasTag edges are the entity tags every write now infers (Berlin, Munich)
    assert {k: v for k, v in engine.stats(user_id="u").edges.items() if k != "HasTag"} == {"Supersedes": 1}


def test_remember_linked_writes_items_and_links_at_once(engine: MemoryEngine) -> None:
    old = engine.remember("The deploy runs on Fridays", user_id="u")
    seen: list[list[str]] = []

    def derived(ids: list[str]) -> list[Link]:
        seen.append(list(ids))
        summary = ids[-1]
        return [Link(src=summary, dst=m, relation=Relation.DERIVED_FROM, reason="evidence") for m in [*ids, old.id]]

    items = [{"content": "We chose PostgreSQL for billing"}, {"content": "Summary: billing runs on PostgreSQL",
                                                             "kind": "summary"}]
    ids = engine.remember_linked(items, user_id="u", links=derived, reconcile=False, source="test")
    assert seen == [ids] and len(ids) == 2 and old.id not in ids
    # the summary's link to itself is left out; one edge to the other item and one to the stored memory
    assert {k: v for k, v in engine.stats(user_id="u").edges.items() if k != "HasTag"} == {"DerivedFrom": 2}
    # an item that repeats a stored memory resolves to it
    assert engine.remember_linked([{"content": "The deploy runs on Fridays"}], user_id="u") == [old.id]


def test_remember_linked_refuses_bad_links_and_writes_nothing(engine: MemoryEngine) -> None:
    engine.remember("The deploy runs on Fridays", user_id="u")
    other = engine.remember("Ada's own note", user_id="ada")
    before = engine.stats(user_id="u")
    for bad in (
        lambda ids: [Link(src=ids[0], dst="m_missing", relation=Relation.RELATES_TO)],
        lambda ids: [Link(src=ids[0], dst=other.id, relation=Relation.RELATES_TO)],  # another user's memory
        lambda ids: [Link(src=ids[0], dst=ids[1], relation=Relation.HAS_TAG)],  # not a memory relation
        lambda ids: [Link(src=ids[0], dst=ids[1], relation=Relation.SUPERSEDES)],  # deactivates: link()'s
    ):
        with pytest.raises((NotFoundError, ValidationError)):
            engine.remember_linked([{"content": "first new note"}, {"content": "second new note"}], user_id="u",
                                   links=bad)
    assert engine.stats(user_id="u") == before


def test_tag_and_list_by_tag(engine: MemoryEngine) -> None:
    a = engine.remember("Use ruff for linting", user_id="u")
    engine.remember("Use pytest for tests", user_id="u")
    engine.tag(a.id, ["Tooling", " LINT "], user_id="u")
    assert [m.id for m in engine.list(user_id="u", tag="tooling")] == [a.id]
    assert {t.name: t.count for t in engine.tags(user_id="u")} == {"lint": 1, "tooling": 1}
    with pytest.raises(ValidationError):
        engine.tag(a.id, ["   "], user_id="u")


def test_persistent_store_across_processes(tmp_path: Path) -> None:
    """`memgraph remember` in one process, `memgraph search` in another, same data directory."""
    env = {"HF_HUB_OFFLINE": "1", "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    import os

    env = {**os.environ, **env}
    store = str(tmp_path / "data")
    out = subprocess.run(
        [sys.executable, "-m", "memgraph", "remember", "Grace keeps her bees on the roof", "--user", "g",
         "--store", store],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert out.returncode == 0, out.stderr
    out = subprocess.run(
        [sys.executable, "-m", "memgraph", "search", "where are the bees kept", "--user", "g", "--store", store,
         "--json"],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert "Grace keeps her bees on the roof" in out.stdout


def test_cli_reports_typed_errors_cleanly(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from memgraph.cli import app

    res = CliRunner().invoke(app, ["cypher", "MATCH (n) RETURN n", "--store", str(tmp_path / "d")])
    assert res.exit_code == 1
    assert "SQLite store does not run Cypher" in res.output.replace("\n", " ")


def test_errors_are_memgraph_errors() -> None:
    for err in (ValidationError, MissingOwnerError, NotFoundError, EmbeddingDimensionError):
        assert issubclass(err, MemgraphError)


def test_settings_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGRAPH_SIMILARITY_THRESHOLD", "0.55")
    assert Settings().similarity_threshold == 0.55
    assert Settings(similarity_threshold=0.3).similarity_threshold == 0.3


def test_cli_does_not_import_torch() -> None:
    """Commands that do not embed must not pay the ~8 s sentence-transformers import."""
    code = "import sys, memgraph.cli; print('torch' in sys.modules, 'sentence_transformers' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "False False"


def test_every_public_engine_method_has_an_async_twin() -> None:
    from memgraph.aio import missing_async_methods

    assert missing_async_methods() == []


def test_async_twins_are_generated_from_the_engine_and_up_to_date() -> None:
    """memgraph/_aio_methods.py is written by tools/gen_aio.py from engine.py; a changed engine method without a
    regenerated twin fails here. The twins carry the engine's signatures and docstrings."""
    import inspect

    from memgraph import AsyncMemoryEngine

    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "tools/gen_aio.py", "--check"], cwd=root, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    for name in ("remember", "recall", "remember_linked", "list"):
        sync, twin = getattr(MemoryEngine, name), getattr(AsyncMemoryEngine, name)
        assert inspect.iscoroutinefunction(twin)
        assert inspect.signature(twin) == inspect.signature(sync) and twin.__doc__ == sync.__doc__


@pytest.mark.parametrize(
    ("module", "old", "new"),
    [
        ("memgraph.ingest", "Decision", "ReconcileDecision"),
        ("memgraph.ingest.reconcile", "Decision", "ReconcileDecision"),
        ("memgraph.ingest.reconcile", "Action", "ReconcileAction"),
        ("memgraph.ingest.report", "Decision", "IngestDecision"),
        ("memgraph.agent", "Decision", "WriteDecision"),
        ("memgraph.agent", "Action", "WriteAction"),
        ("memgraph.agent.policy", "Decision", "WriteDecision"),
        ("memgraph.agent.models", "Action", "WriteAction"),
    ],
)
def test_renamed_classes_keep_their_old_names_with_a_warning(module: str, old: str, new: str) -> None:
    import importlib

    mod = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=new):
        assert getattr(mod, old) is getattr(mod, new)
    with pytest.raises(AttributeError):
        mod.__getattr__("NoSuchName")


def test_async_open_is_awaited_or_entered(tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    """`await AsyncMemoryEngine.open(...)` and `async with AsyncMemoryEngine.open(...) as mem:` both work (the
    second closes the store on exit), as `with MemoryEngine.open(...)` does."""
    import asyncio

    from memgraph import AsyncMemoryEngine

    target = str(tmp_path / "store")

    async def run() -> tuple[int, bool]:
        async with AsyncMemoryEngine.open(target, embedder=embedder) as mem:
            await mem.remember("The on-call rotation changes on Mondays.", user_id="bo")
            entered = mem
        mem2 = await AsyncMemoryEngine.open(target, embedder=embedder)
        try:
            found = len((await mem2.recall("when does on-call change?", user_id="bo")).memories)
        finally:
            await mem2.close()
        try:
            await entered.recall("on-call", user_id="bo")
        except MemgraphError:
            return found, True  # the entered engine was closed on exit
        return found, False

    assert asyncio.run(run()) == (1, True)
