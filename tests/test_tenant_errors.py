"""Error messages never name another tenant: every failure one user can cause, through the API, the jobs, the
tools and the CLI, is checked for the other users' ids (they reach logs, CLI output and model tool results)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from memgraph import MemgraphError, MemoryEngine, Settings
from memgraph.cli import app
from memgraph.tools import ToolSet

OTHERS = ["zz-other-tenant-1", "zz-other-tenant-2"]


@pytest.fixture
def engine(tmp_path: Path, embedder: Any) -> MemoryEngine:  # noqa: ANN401 - fixture
    eng = MemoryEngine.open(str(tmp_path / "store"), settings=Settings(store=str(tmp_path / "store")),
                            embedder=embedder)
    for user in OTHERS:
        eng.remember(f"A private note of {user} about the garden", user_id=user)
    return eng


def _message(call: Callable[[], object]) -> str:
    try:
        out = call()
    except MemgraphError as exc:
        return f"{type(exc).__name__}: {exc}"
    return repr(out)


def test_no_error_names_another_tenant(engine: MemoryEngine, tmp_path: Path) -> None:
    other_id = engine.list(user_id=OTHERS[0])[0].id
    me = "caller"
    calls: list[Callable[[], object]] = [
        lambda: engine.get(other_id, user_id=me),
        lambda: engine.forget(other_id, user_id=me),
        lambda: engine.tag(other_id, ["x"], user_id=me),
        lambda: engine.link(other_id, other_id + "x", user_id=me),
        lambda: engine.feedback(other_id, True, user_id=me),
        lambda: engine.jobs.gaps("typo"),
        lambda: engine.jobs.cluster("typo", apply=True),
        lambda: engine.jobs.decay("typo"),
        lambda: engine.jobs.export(str(tmp_path / "x.jsonl"), user_id="typo"),
        lambda: engine.remember("x", user_id=OTHERS[0] + " "),
    ]
    messages = [_message(c) for c in calls]
    tools = ToolSet(engine, user_id=me)
    for name, args in [("memory_forget", {"id": other_id}), ("memory_tag", {"id": other_id, "tags": ["x"]}),
                       ("memory_consolidate", {"apply": True}), ("memory_stats", {})]:
        messages.append(tools.call(name, args).model_dump_json())
    engine.close()
    store = str(tmp_path / "store")
    for args in (["gaps", "--user", "typo"], ["cluster", "--user", "typo", "--apply"], ["list", "--user", "typo"],
                 ["export", str(tmp_path / "y.jsonl"), "--user", "typo"], ["forget", other_id, "--user", me]):
        res = CliRunner().invoke(app, [*args, "--store", store])
        messages.append(res.output)
    assert any("typo" in m for m in messages), "the calls did fail naming the caller's own input"
    leaks = [m for m in messages for other in OTHERS if other in m]
    assert not leaks, leaks
