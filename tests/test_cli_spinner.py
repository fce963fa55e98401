"""The CLI's spinner while a command works: shown on a terminal, absent when standard error is not one (piped
output and logs stay clean)."""

from __future__ import annotations

import io

from rich.console import Console

from memgraph.cli import common


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
