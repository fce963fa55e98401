"""The CLI's spinner while a command works: shown on a terminal, absent when standard error is not one (piped
output and logs stay clean)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from memgraph.cli import app, common
from memgraph.cli import ingest as ingest_cli


def _run_busy(console: Console) -> str:
    saved = common.err_console
    common.err_console = console
    try:
        with common.busy("Recalling…"):
            console.file.write("")  # the body of the command
    finally:
        common.err_console = saved
    out = console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


def test_a_terminal_sees_the_spinner_and_a_pipe_does_not() -> None:
    tty = Console(file=io.StringIO(), force_terminal=True, width=60)
    piped = Console(file=io.StringIO(), force_terminal=False, width=60)
    assert "Recalling" in _run_busy(tty)
    assert _run_busy(piped) == ""


@pytest.mark.parametrize("terminal", [True, False])
def test_ingest_shows_its_progress_bar_only_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, terminal: bool
) -> None:
    console = Console(file=io.StringIO(), force_terminal=terminal, width=80)
    monkeypatch.setattr(ingest_cli, "err_console", console)
    notes = tmp_path / "notes.txt"
    notes.write_text("The NAS is a Synology in the hall.\n\nNever reboot the router during a backup.\n")
    res = CliRunner().invoke(app, ["ingest", str(notes), "--user", "ada", "--store", str(tmp_path / "data")])
    assert res.exit_code == 0, res.output
    assert "created 2" in res.stdout
    out = console.file
    assert isinstance(out, io.StringIO)
    assert ("batches" in out.getvalue()) is terminal
