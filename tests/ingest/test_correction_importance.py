"""An explicit correction (`kind="correction"`) gets the correction importance floor, through the public API and
the CLI; an importance the caller gives wins; an ordinary fact keeps its own importance."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from memgraph import MemoryEngine, MemoryKind
from memgraph.cli import app


def test_explicit_correction_gets_the_floor(engine: MemoryEngine) -> None:
    floor = engine.settings.correction_min_importance
    u = "newcomer"
    engine.remember("I like tea and the standup is at 9:00.", user_id=u)
    fact = engine.remember("The deploy window is Tuesday afternoon.", user_id=u)
    assert fact.importance < floor  # an ordinary statement: what made the floor worth having
    fixed = engine.remember("The deploy window is Thursday afternoon.", user_id=u, kind="correction")
    assert fixed.kind is MemoryKind.CORRECTION and fixed.importance >= floor
    (given,) = engine.remember_many(
        [{"content": "The release freeze starts on 1 December.", "kind": "correction", "importance": 0.4}],
        user_id=u,
    )
    assert given.importance == 0.4  # the caller's importance wins


def test_correction_floor_on_the_command_line(tmp_path: Path) -> None:
    store = str(tmp_path / "store")
    env = {"COLUMNS": "200", "HF_HUB_OFFLINE": "1"}
    run = CliRunner().invoke
    out = run(app, ["remember", "The standup is at 9:30, not 9:15.", "--user", "ada", "--kind", "correction",
                    "--json", "--store", store], env=env)
    assert out.exit_code == 0, out.output
    mem = json.loads(out.output[out.output.index("{"):])["memory"]
    assert mem["kind"] == "correction"
    with MemoryEngine.open(store) as engine:
        assert mem["importance"] >= engine.settings.correction_min_importance
