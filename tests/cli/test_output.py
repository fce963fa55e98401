"""What the commands print: a memory's text exactly as stored, whatever it holds."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from memgraph.cli import app

runner = CliRunner()


def test_memory_text_is_printed_as_written_not_as_console_markup(tmp_path: Path) -> None:
    """Brackets and colons in a memory are text: rich would otherwise read "[b]...[/b]" as bold and ":fire:" as an
    emoji in the list, search and recall tables."""
    at = ["--store", str(tmp_path / "store"), "--user", "ada"]
    text = "Ada tags [b]urgent[/b] notes :fire:"
    assert runner.invoke(app, ["remember", text, *at]).exit_code == 0
    for command in (["list"], ["search", "urgent notes"], ["recall", "which notes are urgent?"]):
        out = runner.invoke(app, [*command, *at], env={"COLUMNS": "200"})
        assert out.exit_code == 0, out.output
        assert "[b]urgent[/b]" in out.stdout and ":fire:" in out.stdout, (command, out.stdout)
