"""Every public method answers wrong-typed arguments with a memgraph error: `MemoryEngine`, its jobs
(`engine.jobs`) and every agent tool (`memgraph.tools.ToolSet`).

The methods are discovered, not listed: a public method added later without `@checked` (memgraph/validation.py)
fails `test_every_public_method_is_checked`, and one whose parameter has no valid value below fails
`test_every_parameter_has_a_valid_value` (add one). For each method hypothesis replaces one argument at a time by
a value of the wrong type (None, numbers, NaN, bytes, lists, dicts, a 5,000-deep dict, an object, a generator),
keeps the others valid, and accepts a result or a `MemgraphError`, nothing else; the store is unchanged by a
refused call.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgraph import MemgraphError, MemoryEngine, Settings
from memgraph.jobs import Jobs
from memgraph.tools import ToolSet
from memgraph.validation import is_checked
from tests.reliability import scale


def _deep(n: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    cur = out
    for _ in range(n):
        cur["a"] = {}
        cur = cur["a"]
    return out


#: values of the wrong type for nearly every parameter (some are right for some parameters: then the call runs)
WRONG = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.binary(max_size=6),
    st.lists(st.one_of(st.integers(), st.none(), st.text(max_size=3)), max_size=3),
    st.dictionaries(st.text(max_size=3), st.one_of(st.integers(), st.none()), max_size=2),
    st.tuples(st.integers()),
    st.sets(st.integers(), max_size=2),
    st.just(object()),
    st.just(_deep(5000)),
    st.just(float("nan")),
    st.sampled_from([2**63, -(2**63) - 1, 2**70]),
    st.builds(lambda: (x for x in [1, "a"])),
    st.just([{"content": None}]),
    st.just([b"bytes"]),
)
FUZZ = settings(max_examples=int(scale(10, 60)), deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, embedder: Any) -> Iterator[dict[str, Any]]:  # noqa: ANN401
    root = tmp_path_factory.mktemp("types")
    target = str(root / "store")
    eng = MemoryEngine.open(target, settings=Settings(store=target), embedder=embedder)
    a = eng.remember("Ada drinks green tea every morning", user_id="ada", session_id="s1", tags=["tea"])
    b = eng.remember("Ada's team deploys on Tuesdays", user_id="ada", session_id="s1")
    export = root / "export.jsonl"
    eng.jobs.export(str(export), user_id="ada")
    valid: dict[str, Any] = {
        "user_id": "ada", "content": "Ada likes oolong too", "text": "Ada likes oolong too", "query": "tea",
        "texts": ["tea"], "items": [{"content": "Ada likes jasmine tea"}], "memory_id": a.id, "src": a.id,
        "dst": b.id, "tags": ["tea"], "turns": [{"speaker": "Ada", "text": "hello there"}], "session_id": "s1",
        "helpful": True, "memory_ids": [a.id], "path": str(export), "job": "test", "run": eng.jobs.history(1) or None,
        "target": ":memory:", "limit": 5,
    }
    yield {"engine": eng, "valid": valid, "root": root}
    eng.close()


def _methods(obj: object) -> list[tuple[str, Callable[..., Any]]]:
    """The public methods of an object (properties and dunders left out)."""
    out = []
    for name, _ in inspect.getmembers(type(obj)):
        if name.startswith("_") or isinstance(inspect.getattr_static(type(obj), name), property):
            continue
        member = getattr(obj, name)
        if callable(member) and not inspect.isclass(member):
            out.append((name, member))
    return out


def _targets(world: dict[str, Any]) -> list[tuple[str, Callable[..., Any]]]:
    eng: MemoryEngine = world["engine"]
    return [(f"engine.{n}", m) for n, m in _methods(eng)] + [(f"jobs.{n}", m) for n, m in _methods(eng.jobs)]


def _fuzzed(world: dict[str, Any]) -> list[tuple[str, Callable[..., Any]]]:
    """The targets the fuzz calls: `open` would open stores wherever a random string points
    (test_open_refuses_wrong_types covers it)."""
    return [(n, m) for n, m in _targets(world) if n != "engine.open"]


def test_every_public_method_is_checked(world: dict[str, Any]) -> None:
    targets = _targets(world)
    assert sorted(FUZZED) == sorted(n for n, _ in _fuzzed(world))
    assert {"engine.remember", "engine.recall", "engine.list", "engine.open", "jobs.gaps", "jobs.export"} <= {
        n for n, _ in targets
    }
    unchecked = [name for name, fn in targets if not is_checked(fn)]
    assert not unchecked, f"public methods without @checked: {unchecked}"
    assert is_checked(MemoryEngine.remember) and is_checked(Jobs.cluster)


def _call_args(fn: Callable[..., Any], valid: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """(the parameters, a valid value for each required one)."""
    params = [p for p in inspect.signature(fn).parameters.values() if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
    args = {}
    for p in params:
        if p.default is inspect.Parameter.empty:
            args[p.name] = valid[p.name]
    return [p.name for p in params], args


def test_every_parameter_has_a_valid_value(world: dict[str, Any]) -> None:
    for name, fn in _targets(world):
        params = inspect.signature(fn).parameters.values()
        missing = [p.name for p in params if p.default is inspect.Parameter.empty
                   and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL) and p.name not in world["valid"]]
        assert not missing, f"{name}: add a valid value for {missing} to this test"


#: methods that end the engine or wait: called only with arguments that are refused
_NO_VALID_CALL = {"engine.close"}


def _state(eng: MemoryEngine) -> Any:  # noqa: ANN401
    eng.flush()
    return eng.stats().model_dump(), [(m.id, m.active, tuple(m.tags)) for m in eng.list(user_id="ada", limit=500)]


def _public(cls: type) -> list[str]:
    return [n for n, v in inspect.getmembers(cls) if not n.startswith("_") and callable(v)
            and not isinstance(inspect.getattr_static(cls, n), property)]


#: every public method, found on the classes (collection cannot use the fixture); `open` is fuzzed apart
FUZZED = [f"engine.{n}" for n in _public(MemoryEngine) if n != "open"] + [f"jobs.{n}" for n in _public(Jobs)]


@pytest.mark.parametrize("target", FUZZED)
@FUZZ
@given(data=st.data())
def test_wrong_types_get_memgraph_errors(world: dict[str, Any], target: str, data: st.DataObject) -> None:
    eng: MemoryEngine = world["engine"]
    name, fn = next((n, m) for n, m in _fuzzed(world) if n == target)
    params, args = _call_args(fn, world["valid"])
    if not params:
        calls = [((data.draw(WRONG, label="extra"),), {})]
    else:
        param = data.draw(st.sampled_from(params), label="parameter")
        calls = [((), {**args, param: data.draw(WRONG, label="value")})]
    cwd = world["root"] / "cwd"  # a random string given as a path (export, import) lands here
    cwd.mkdir(exist_ok=True)
    for pos, kw in calls:
        before = _state(eng)
        here = os.getcwd()
        os.chdir(cwd)
        try:
            out = fn(*pos, **kw)
            if name in _NO_VALID_CALL:
                pytest.fail(f"{name} accepted {kw or pos}")
            if hasattr(out, "__enter__"):  # a context manager (jobs.locked): leave it
                continue
        except MemgraphError:
            assert _state(eng) == before, f"{name}: a refused call changed the store"
        finally:
            os.chdir(here)


@pytest.mark.parametrize("extra", [{"bogus": 1}, {"user_id": 5}])
def test_unknown_and_wrong_keywords(world: dict[str, Any], extra: dict[str, Any]) -> None:
    for _name, fn in _fuzzed(world):
        params, args = _call_args(fn, world["valid"])
        if "user_id" not in params and "bogus" not in extra:
            continue
        with pytest.raises(MemgraphError):
            fn(**{**args, **extra})


@FUZZ
@given(data=st.data())
def test_every_tool_answers_wrong_types_with_a_typed_result(world: dict[str, Any], data: st.DataObject) -> None:
    tools = ToolSet(world["engine"], user_id="ada")
    definition = data.draw(st.sampled_from(tools.definitions()), label="tool")
    props = list(definition.input_schema.get("properties", {})) or ["bogus"]
    args = data.draw(st.dictionaries(st.sampled_from([*props, "bogus"]), WRONG, max_size=3), label="arguments")
    res = tools.call(definition.name, args)
    assert res.ok or (res.error is not None and res.error.type != "InternalError"), res
    wrong = tools.call(definition.name, data.draw(WRONG, label="not a dict"))
    assert wrong.ok or (wrong.error is not None and wrong.error.type != "InternalError"), wrong


def test_open_refuses_wrong_types(tmp_path: Path) -> None:
    for kwargs in ({"target": 5}, {"target": str(tmp_path), "settings": 5}, {"target": str(tmp_path), "bogus": 1},
                   {"target": str(tmp_path), "check_model": "yes"}):
        with pytest.raises(MemgraphError):
            MemoryEngine.open(**kwargs)
