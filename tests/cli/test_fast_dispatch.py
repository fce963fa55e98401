"""`memgraph <command> …` runs on a copy of the app holding only that command (memgraph.cli.app_for: typer
would build all ~30 commands first); it must answer exactly as the whole app does."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from memgraph.cli import _command_name, app, app_for

NAMES = [_command_name(c) for c in app.registered_commands] + [g.name or "" for g in app.registered_groups]


@pytest.mark.parametrize("name", NAMES)
def test_each_command_alone_answers_as_the_whole_app(name: str) -> None:
    one = app_for([name, "--help"])
    assert one is not app
    assert [_command_name(c) for c in one.registered_commands] + [g.name for g in one.registered_groups] == [name]
    runner = CliRunner()
    for args in ([name, "--help"], [name, "--no-such-option"]):
        alone, whole = runner.invoke(one, args), runner.invoke(app, args)
        assert (alone.exit_code, alone.output) == (whole.exit_code, whole.output)


def test_anything_else_gets_the_whole_app() -> None:
    for args in ([], ["--help"], ["-v", "stats"], ["recal"], ["--verbose"]):
        assert app_for(args) is app
    assert len(app.registered_commands) > 20  # the copies did not take the app's commands away


def test_python_dash_m_runs_the_command(tmp_path: object) -> None:
    """The entry point end to end: a command that needs no model, and a usage error, as the whole app gives."""
    store = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "memgraph", "stats", "--user", "u", "--store", store, "--json"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert '"memories": 0' in done.stdout
    bad = subprocess.run([sys.executable, "-m", "memgraph", "recall"], capture_output=True, text=True, check=False)
    whole = CliRunner().invoke(app, ["recall"])
    assert bad.returncode == whole.exit_code == 2
    assert "Missing argument" in bad.stderr


def test_a_command_that_ends_at_once_keeps_its_output_and_status(tmp_path: object) -> None:
    """`remember` and `recall` end without the interpreter's teardown (memgraph.cli.main): what they print, and
    what they wrote, is all there, and a failure keeps its status."""
    store = str(tmp_path)
    run = [sys.executable, "-m", "memgraph"]
    done = subprocess.run(
        [*run, "remember", "Ada's favourite colour is teal", "--user", "ada", "--store", store],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    got = subprocess.run(
        [*run, "recall", "favourite colour", "--user", "ada", "--store", store, "--json"],
        capture_output=True, text=True, check=False,
    )
    assert got.returncode == 0, got.stderr
    assert "teal" in got.stdout and got.stdout.rstrip().endswith("}")
    missing = subprocess.run(
        [*run, "recall", "x", "--user", "nobody", "--store", store], capture_output=True, text=True, check=False
    )
    assert missing.returncode == 1 and "has no memories" in missing.stderr
