"""Logging: the library stays silent unless the application configures logging; the CLI shows warnings
(store retries) on stderr and more with -v / -vv."""

from __future__ import annotations

import logging
import subprocess
import sys

from typer.testing import CliRunner

from memgraph.cli import app


def test_library_prints_nothing_without_application_logging() -> None:
    code = (
        "import logging, memgraph\n"
        "logging.getLogger('memgraph.store').warning('transient store error, retrying')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stderr == ""  # a NullHandler keeps Python's last-resort handler out


def test_cli_shows_store_retries_on_stderr() -> None:
    runner = CliRunner()
    result = runner.invoke(
        app,
        ["stats", "--store", "falkordb://127.0.0.1:1"],
        env={"MEMGRAPH_STORE_RETRY_ATTEMPTS": "3", "MEMGRAPH_STORE_RETRY_BASE_DELAY": "0.01"},
    )
    assert result.exit_code == 1
    assert result.stderr.count("transient store error") == 2  # attempts - 1 retries, each reported
    assert "cannot reach FalkorDB" in result.stderr
    assert logging.getLogger("memgraph").level == logging.NOTSET  # no threshold left behind


def test_cli_verbose_lowers_the_threshold_for_that_command_only() -> None:
    runner = CliRunner()
    logger = logging.getLogger("memgraph")
    try:
        assert runner.invoke(app, ["-vv", "stats", "--store", ":memory:"]).exit_code == 0
        assert logger.level == logging.DEBUG
        assert runner.invoke(app, ["stats", "--store", ":memory:"]).exit_code == 0
        assert logger.level == logging.NOTSET
        assert sum(isinstance(h, logging.NullHandler) for h in logger.handlers) == 1
        assert len(logger.handlers) == 2  # the NullHandler and one CLI handler, not one per command
    finally:
        logger.setLevel(logging.NOTSET)
