"""`memgraph erase` and `memgraph erase-user` on the command line, and the awaitable twins of the API."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from memgraph import AsyncMemoryEngine, MemoryEngine, Settings
from memgraph.cli import app


def _store(tmp_path: Path, embedder: Any) -> tuple[str, list[str]]:  # noqa: ANN401
    target = str(tmp_path / "data")
    with MemoryEngine.open(target, settings=Settings(store=target), embedder=embedder) as eng:
        ids = [eng.remember(t, user_id="ada").id for t in ("Ada's bike lock code is in the drawer.",
                                                            "Ada likes rye bread.")]
        eng.remember("Bob likes sourdough.", user_id="bob")
    return target, ids


def test_erase_command(tmp_path: Path, embedder: Any) -> None:  # noqa: ANN401
    target, ids = _store(tmp_path, embedder)
    run = CliRunner().invoke
    res = run(app, ["erase", ids[0], "m_unknown", "--user", "ada", "--store", target])
    assert res.exit_code == 0, res.output
    assert "erased: 1 memories" in res.output and "not found: m_unknown" in res.output
    res = run(app, ["erase", ids[0], "--user", "ada", "--store", target])
    assert res.exit_code == 1 and "erased: nothing" in res.output  # again: nothing left to erase
    res = run(app, ["erase", ids[1], "--user", "ada", "--store", target, "--json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["memories"] == 1
    res = run(app, ["erase", ids[1], "--user", "ada\u200b", "--store", target])
    assert res.exit_code == 1 and "user_id contains a format" in res.output and "\u200b" not in res.output


def test_erase_user_command_needs_yes(tmp_path: Path, embedder: Any) -> None:  # noqa: ANN401
    target, _ = _store(tmp_path, embedder)
    run = CliRunner().invoke
    res = run(app, ["erase-user", "--user", "ada", "--store", target])
    assert res.exit_code == 2 and "--yes" in res.output
    with MemoryEngine.open(target, settings=Settings(store=target), embedder=embedder) as eng:
        assert eng.stats(user_id="ada").memories == 2
    res = run(app, ["erase-user", "--user", "ada", "--yes", "--store", target])
    assert res.exit_code == 0 and "erased: 2 memories" in res.output, res.output
    with MemoryEngine.open(target, settings=Settings(store=target), embedder=embedder) as eng:
        assert eng.users() == ["bob"]
    assert "erase-user" in run(app, ["--help"]).output


def test_async_twins(tmp_path: Path, embedder: Any) -> None:  # noqa: ANN401
    target, ids = _store(tmp_path, embedder)

    async def main() -> tuple[int, int]:
        async with await AsyncMemoryEngine.open(target, settings=Settings(store=target), embedder=embedder) as eng:
            one = await eng.erase([ids[0]], user_id="ada")
            everything = await eng.erase_user("bob")
            return one.memories, everything.memories

    assert asyncio.run(main()) == (1, 1)
